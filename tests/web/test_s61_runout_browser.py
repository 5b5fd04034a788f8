"""s61-table2: an all-in run-out dealt round by round, in Debian's Chromium through
Playwright, on a phone (390x844) and a desktop (1440x900).

Heads-up no-limit hold'em, Ann all-in before the flop and a computer player that
calls: the page is told the call, then the flop, the turn and the river, each
``runout_step`` after the one before, then the result (main: the board and the
result came in one state ~0.3 s after the call).  The computer player's cards stay
hidden in every state before the result; a page opened mid-run-out gets the board
dealt so far and no result; the hand's replay is the engine's as before.  The phone
runs at the real pacing (1 s a round, rollem.server.pacing.RUNOUT_STEP); the desktop
at 0.6 s.  The pace is read as the waits the table asks the event loop for, and
the turn is held until the test has looked at the flop (s74-flaky: the gaps
between states as the page's socket received them, at least 0.8 of a step and
all within 5.5 s, and checks of the flop made before the turn came, hung on the
machine's load).

Screenshots: test-artifacts/web/s61-runout-*.png.
"""

from __future__ import annotations

import dataclasses
import json
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from table_ui import context, new_table, shot, sit, wait_first_bet, wait_until
from web_harness import UNLIMITED, ServerThread, only_betting_bots

from rollem.server.app import host_cookie
from rollem.server.live_table import TableError
from rollem.server.live_table.runout import RunOut
from rollem.server.pacing import RUNOUT_STEP

pytestmark = pytest.mark.browser


def _states(page: Any) -> list[dict[str, Any]]:
    """Every state the page's socket receives from now on."""
    got: list[dict[str, Any]] = []

    def frame(payload: Any) -> None:
        try:
            msg = json.loads(payload)
        except (TypeError, ValueError):
            return
        if isinstance(msg, dict) and msg.get("type") == "state":
            got.append(msg)

    page.on("websocket", lambda ws: ws.on("framereceived", frame))
    return got


def _paced(server: ServerThread) -> tuple[list[float], threading.Event]:
    """The run-outs' pauses, as ``server``'s tables ask its event loop for them (the
    seconds before each next round), and an event that lets the turn come: until it
    is set, a run-out's round after the flop waits."""
    asked: list[float] = []
    turn = threading.Event()
    loop = server.server_loop()
    call_later = loop.call_later

    def held(callback: Any) -> None:
        if turn.is_set():
            callback()
        else:
            call_later(0.02, held, callback)

    def recorded(delay: float, callback: Any, *args: Any, **kwargs: Any) -> Any:
        if getattr(callback, "__func__", None) is RunOut._next:
            asked.append(delay)
            if callback.__self__._index == 1:   # (the flop shown: the turn waits)
                return call_later(delay, held, callback)
        return call_later(delay, callback, *args, **kwargs)

    server.call(lambda: setattr(loop, "call_later", recorded))
    return asked, turn


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_an_all_in_run_out_is_dealt_round_by_round(browser: Any, tmp_path: Path,
                                                   size: str) -> None:
    step = RUNOUT_STEP if size == "phone" else 0.6
    server = ServerThread(tmp_path / "runout.db",
                          dataclasses.replace(UNLIMITED, runout_step=step))
    contexts: list[Any] = []
    try:
        tid, host = new_table(server.url, game="holdem", structure="no-limit", seats=2,
                              bots=1, stack=200)
        only_betting_bots(server, tid)
        asked, turn = _paced(server)
        ctx = context(browser, size)
        contexts.append(ctx)
        ann = ctx.new_page()
        states = _states(ann)
        ann.context.add_cookies([{"name": host_cookie(tid), "value": host, "url": server.url}])
        ann.goto(f"{server.url}/t/{tid}")
        sit(ann, "Ann")
        ann.click("#start-btn")
        wait_first_bet(ann)
        ann.locator(".quick-size[data-size=allin]").click()
        ann.locator("#controls [data-action=raise]").click()
        # the flop is up, the result not: what the felt shows then
        wait_until(ann, "() => document.querySelectorAll('#center .mid-cards .card').length === 3",
                   timeout=20)
        assert not ann.locator("#result:not(.hidden)").count()
        assert "all-in: dealing the rest" in ann.inner_text("#status")
        # s62-table: nothing to sit out from while all-in with 0 chips behind (main:
        # Sit out beside "stack 0"); it comes back with the result
        assert ann.locator("button.sit").count() == 1
        assert not ann.locator("button.sit").is_visible()
        shot(ann, f"s61-runout-{size}-flop")
        # chips bought meanwhile would be overwritten by the hand's settlement: refused
        table = server.manager.get(tid)
        me = states[-1]["you"]["seat"]

        def buy() -> str:
            try:
                table.dealer.top_up(me, by_host=True)
            except TableError as err:
                return err.code
            return "done"
        assert server.call(buy) == "in_hand"
        # what a page that connects now is sent: the flop, no result (a watcher's
        # and Ann's own view alike; the computer player's cards hidden)
        for seat in (None, me):
            now = server.call(lambda seat=seat: table.views.state(seat))["hand"]
            assert now["result"] is None and len(now["board"]) == 3, now["board"]
            assert all(c is None for n, sh in enumerate(now["seats"]) if n != seat
                       for c in sh["cards"]), now["seats"]
        # a page that opens mid-run-out (a friend's reconnect): the board so far
        watcher_ctx = context(browser, size)
        contexts.append(watcher_ctx)
        watcher = watcher_ctx.new_page()
        late = _states(watcher)
        watcher.goto(f"{server.url}/t/{tid}")
        wait_until(watcher, "() => document.querySelectorAll('#center .mid-cards .card')"
                   ".length === 3")
        turn.set()
        ann.wait_for_selector("#result:not(.hidden)", timeout=20_000)
        shot(ann, f"s61-runout-{size}-result")
        # with the result: Sit out if Ann won chips; busted, Rebuy and Leave (no Sit
        # out beside "stack 0": she is not dealt in anyway)
        wait_until(ann, "() => !!document.querySelector('.me .chips')")
        busted = ann.inner_text(".me .chips").strip() == "stack 0"
        wait_until(ann, "() => !!document.querySelector('button.rebuy') === %s"
                   % ("true" if busted else "false"))
        assert ann.locator("button.sit").is_visible() is not busted
        wait_until(watcher, "() => !!document.querySelector('#result:not(.hidden)')")
        keys: list[tuple[int, bool]] = []   # (hand 1's states before the call: no board)
        for s in states:
            hand = s.get("hand")
            if not hand or hand.get("hand_no") != 1:
                continue
            key = (len(hand["board"]), hand["result"] is not None)
            if not keys or keys[-1] != key:
                keys.append(key)
            if hand["result"] is None:   # no hidden card of the computer player's
                for n, seat in enumerate(hand["seats"]):
                    if n != s["you"]["seat"]:
                        assert all(c is None for c in seat["cards"]), (n, seat["cards"])
        assert keys == [(0, False), (3, False), (4, False), (5, False), (5, True)], keys
        # each round a step after the one before: the call, the flop, the turn, the river
        assert asked == [step] * 4, asked
        first_late = next(s for s in late if s.get("hand"))
        assert first_late["hand"]["hand_no"] == 1   # (opened at the flop, the turn held)
        assert first_late["hand"]["result"] is None and len(first_late["hand"]["board"]) == 3
        # the replay and the history are the engine's: the whole board, the result
        replay = httpx.get(f"{server.url}/api/tables/{tid}/hands/1").json()
        assert len(replay["frames"][-1]["board"]) == 5 and replay["frames"][-1]["result"]
    finally:
        for c in contexts:
            c.close()
        server.stop()
