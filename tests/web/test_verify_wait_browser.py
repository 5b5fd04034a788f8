"""The seed wait of the committed deal (issue 32) on a slow machine (s61-table), in
Debian's Chromium through Playwright, on a phone (390x844) and a desktop
(1440x900).

Stop 60's night: with four pages open on a loaded 2-core machine the host's verify
panel said "Your seed came after the wait" in 2 of 9 hands.  Measured (docs/dev/
verify-web-table.md, s61-table): the 2 s wait started when the server queued the
commitment's write, and the commitment reached the pages only once that write was
committed, up to 0.9 s later under load; a page then sent its seed after drawing
the whole state (20 to 120 ms at 10x CPU throttling).  Now the wait runs from the
moment the commitment goes out, and the page sends its seed before it draws.

Here the store takes 2.5 s to commit the commitment's write (a loaded disk) and
the page runs at a quarter of its CPU (CDP's CPU throttling): its seed is in the
deal and its verify panel says so (main: the wait ran out before the commitment
went out).  A page that never sends holds the deal 2 s from its telling and no
longer: the wait stays bounded.
"""

from __future__ import annotations

import concurrent.futures
import threading
import time
from typing import Any

import pytest
from table_ui import (
    DESKTOP,
    PHONE,
    decision_kind,
    new_table,
    only_checking_bots,
    open_as_host,
    shot,
    sit,
    take_decision,
    viewport_context,
)
from web_harness import ServerThread

from rollem.server import store as store_mod
from rollem.server.live_table import LiveTable

pytestmark = pytest.mark.browser

SLOW_WRITE = 2.5
"""Seconds the store takes to commit a committed deal's write (before any seed): longer
than the wait itself, which on main ran out before the pages heard of the deal."""


def _slow_commitment_writes(monkeypatch: pytest.MonkeyPatch,
                            told: dict[str, list[float]]) -> None:
    """The store commits each write of a deal waiting for its seeds, none in yet (the
    commitment's), :data:`SLOW_WRITE` seconds late; ``told[table id]`` gets the moment
    (``time.monotonic``) each such write of that table was queued."""
    write = store_mod.WriteStream.write

    def slow(self: Any, **changes: Any) -> Any:
        fut = write(self, **changes)
        session = changes.get("session") or {}
        seeding = session.get("seeding")
        if fut is None or not seeding or seeding["seeds"]:
            return fut
        told.setdefault(self.table_id, []).append(time.monotonic())
        late: concurrent.futures.Future[None] = concurrent.futures.Future()

        def done(f: Any) -> None:
            error = f.exception()
            threading.Timer(SLOW_WRITE, lambda: late.set_exception(error) if error
                            else late.set_result(None)).start()

        fut.add_done_callback(done)
        self._last = late
        return late

    monkeypatch.setattr(store_mod.WriteStream, "write", slow)


def _deal_times(table: Any) -> tuple[list[float], list[float]]:
    """From now on, each moment ``table``'s next deal is set for, and each moment
    its commitment is told to the pages (``Seeding._told``), on the table's clock
    (read as the table sets them: a loaded machine only makes them late)."""
    set_for: list[float] = []
    told_at: list[float] = []
    schedule, tell = table.dealer.schedule_next_hand, table.seeding._told

    def scheduled(delay: float) -> None:
        set_for.append(table.clock() + delay)
        schedule(delay)

    def told(hand_no: int) -> None:
        told_at.append(table.clock())
        tell(hand_no)

    table.dealer.schedule_next_hand = scheduled
    table.seeding._told = told
    return set_for, told_at


NO_SEEDS = """(() => {   // a page that never sends its client seed
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (d) {
    if (typeof d === 'string' && d.includes('"client_seed"')) return;
    return send.call(this, d);
  };
})();"""


def test_a_slow_pages_seed_is_in_the_deal_and_a_silent_one_waits_two_seconds(
        browser: Any, live: ServerThread, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both sizes at once, a table each on one server (their waits are the store's
    and the deal's, in real time: waited once for both; s62-suite): at each, Ann's
    slow page (a phone at 390x844, a desktop at 1440x900) and Bob's silent one."""
    monkeypatch.setattr(LiveTable, "CLIENT_SEED_WAIT", 2.0)
    told: dict[str, list[float]] = {}
    _slow_commitment_writes(monkeypatch, told)
    sizes = {"phone": PHONE, "desktop": DESKTOP}
    ctxs = [viewport_context(browser, viewport) for viewport in sizes.values()
            for _ in range(2)]
    try:
        boards: dict[str, dict[str, Any]] = {}
        for i, size in enumerate(sizes):
            ann_ctx, bob_ctx = ctxs[2 * i:2 * i + 2]
            tid, host = new_table(live.url, game="holdem", seats=3, bots=1, between_hands=600)
            only_checking_bots(live, tid)
            ann = open_as_host(ann_ctx, live.url, tid, host)
            sit(ann, "Ann")
            ann_cdp = ann_ctx.new_cdp_session(ann)
            ann_cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
            boards[size] = {"tid": tid, "table": live.manager.get(tid), "ann": ann,
                            "cdp": ann_cdp, "bob_ctx": bob_ctx}
        # hand 1: Ann alone with the computer player, her page slow
        for b in boards.values():
            b["ann"].click("#start-btn")

        def over(table: Any) -> bool:
            return bool(live.call(lambda: table.final_hand is not None and table.hand is None))

        end = time.monotonic() + 60
        while not all(over(b["table"]) for b in boards.values()):
            assert time.monotonic() < end, "hand 1's end never came in 60 s"
            for b in boards.values():
                if not over(b["table"]):
                    kind = decision_kind(b["ann"])
                    if kind is not None:
                        take_decision(b["ann"], kind)
            time.sleep(0.05)
        for size, b in boards.items():
            ann, table = b["ann"], b["table"]
            verdict = ann.locator("#verify-result")
            verdict.wait_for(timeout=20_000)
            seeds = live.call(lambda t=table: t.final_hand.public_deal()["client_seeds"])
            assert seeds.pop("0") != "" and set(seeds.values()) == {""}, seeds  # (the bot: none)
            assert verdict.get_attribute("data-status") == "ok", verdict.inner_text()
            assert "came after the wait" not in ann.inner_text("#verify")
            ann.locator("#verify").scroll_into_view_if_needed()
            shot(ann, f"s61-verify-slow-{size}")
        # hand 2: Bob's page sends no seed; the deal waits 2 s once told, no longer
        for b in boards.values():
            b["bob_ctx"].add_init_script(NO_SEEDS)
            bob = b["bob_ctx"].new_page()
            bob.goto(f"{live.url}/t/{b['tid']}")
            sit(bob, "Bob")
            b["cdp"].send("Emulation.setCPUThrottlingRate", {"rate": 1})
        told.clear()
        for b in boards.values():   # when the deal is set for, and told, on the table's clock
            b["set_for"], b["told_at"] = _deal_times(b["table"])
            live.call(lambda t=b["table"]: t.dealer.schedule_next_hand(0.0))
        dealt: dict[str, float] = {}
        end = time.monotonic() + 30
        while len(dealt) < len(boards):
            assert time.monotonic() < end, f"hand 2 never dealt: {sorted(dealt)} only"
            for size, b in boards.items():
                table = b["table"]
                if size not in dealt and live.call(
                        lambda t=table: t.hand is not None and t.hand.hand_no >= 2):
                    dealt[size] = time.monotonic()
            time.sleep(0.02)
        for size, b in boards.items():
            table = b["table"]
            waited = dealt[size] - told[b["tid"]][0]
            assert waited >= SLOW_WRITE + 2.0 - 0.1, (size, waited)   # (slowness only adds)
            # set for 2 s after the commitment was told, or the bound set at the
            # commitment if told later, and never later (s74-flaky: the deal's wall-clock
            # time bounded at 1.5 s past that, which a loaded machine can run past)
            bound, then = b["set_for"][1], b["told_at"]
            assert len(then) == 1 and b["set_for"][-1] == pytest.approx(
                min(then[0] + 2.0, bound), abs=0.001), (size, b["set_for"], then)
            assert max(b["set_for"][1:]) <= bound + 0.001, (size, b["set_for"])
            seeds = live.call(lambda t=table: t.hand.public_deal()["client_seeds"])
            assert len(seeds) == 3 and seeds.pop("0") != "" and set(seeds.values()) == {""}, \
                (size, seeds)
    finally:
        for ctx in ctxs:
            ctx.close()


RENDERS_AT_SEED = """(() => {   // the table's drawings done at a message and at the seed's send
  window.__seed = [];
  const renders = () => performance.getEntriesByName('rollem-render').length;
  let atMessage = null;
  const on = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage');
  Object.defineProperty(WebSocket.prototype, 'onmessage', {
    configurable: true, get() { return on.get.call(this); },
    set(fn) { on.set.call(this, fn && ((ev) => { atMessage = renders(); return fn(ev); })); },
  });
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (d) {
    if (typeof d === 'string' && d.includes('"client_seed"')) {
      window.__seed.push([atMessage, renders()]);
    }
    return send.call(this, d);
  };
})();"""


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_page_sends_its_seed_before_it_draws_the_state(
        browser: Any, live: ServerThread, viewport: dict[str, int],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The state announcing the commitment: the seed goes out before the table draws
    it (main: after, the whole drawing's time counted against the wait: 20 to 120 ms
    a state at 10x CPU throttling)."""
    monkeypatch.setattr(LiveTable, "CLIENT_SEED_WAIT", 5.0)
    ctx = viewport_context(browser, viewport)
    try:
        ctx.add_init_script(RENDERS_AT_SEED)
        tid, host = new_table(live.url, game="holdem", seats=3, bots=1, between_hands=600)
        only_checking_bots(live, tid)
        table = live.manager.get(tid)
        ann = open_as_host(ctx, live.url, tid, host)
        sit(ann, "Ann")
        ann.click("#start-btn")
        end = time.monotonic() + 20
        while live.call(lambda: table.hand is None):
            assert time.monotonic() < end, "hand 1 never dealt"
            time.sleep(0.02)
        seeds = live.call(lambda t=table: t.hand.public_deal()["client_seeds"])
        assert seeds["0"] != "", seeds
        sent = ann.evaluate("window.__seed")
        assert len(sent) == 1 and sent[0][0] is not None, sent
        at_message, at_send = sent[0]
        assert at_send == at_message, sent   # (no drawing in between)
    finally:
        ctx.close()
