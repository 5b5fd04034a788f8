"""s61-table2: an all-in run-out dealt round by round, in Debian's Chromium through
Playwright, on a phone (390x844) and a desktop (1440x900).

Heads-up no-limit hold'em, Ann all-in before the flop and a computer player that
calls: the page is told the call, then the flop, the turn and the river, each
``runout_step`` after the one before, then the result (main: the board and the
result came in one state ~0.3 s after the call).  The computer player's cards stay
hidden in every state before the result; a page opened mid-run-out gets the board
dealt so far and no result; the hand's replay is the engine's as before.  The phone
runs at the real pacing (1 s a round, rollem.server.pacing.RUNOUT_STEP); the desktop
at 0.6 s.

Screenshots: test-artifacts/web/s61-runout-*.png.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from table_ui import context, new_table, shot, sit, wait_first_bet, wait_until
from web_harness import UNLIMITED, ServerThread, only_betting_bots

from rollem.server.app import host_cookie
from rollem.server.live_table import TableError
from rollem.server.pacing import RUNOUT_STEP

pytestmark = pytest.mark.browser


def _states(page: Any) -> list[tuple[float, dict[str, Any]]]:
    """Every state the page's socket receives from now on, with its arrival time."""
    got: list[tuple[float, dict[str, Any]]] = []

    def frame(payload: Any) -> None:
        try:
            msg = json.loads(payload)
        except (TypeError, ValueError):
            return
        if isinstance(msg, dict) and msg.get("type") == "state":
            got.append((time.monotonic(), msg))

    page.on("websocket", lambda ws: ws.on("framereceived", frame))
    return got


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
        clicked = time.monotonic()
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
        me = states[-1][1]["you"]["seat"]

        def buy() -> str:
            try:
                table.dealer.top_up(me, by_host=True)
            except TableError as err:
                return err.code
            return "done"
        if size == "phone":   # (the real pacing: the run-out still under way)
            assert server.call(buy) == "in_hand"
            # what a page that connects now is sent: the cards dealt so far, no result
            # (a watcher's and Ann's own view alike; the computer player's cards hidden)
            for seat in (None, me):
                now = server.call(lambda seat=seat: table.views.state(seat))["hand"]
                assert now["result"] is None and 3 <= len(now["board"]) <= 5, now["board"]
                assert all(c is None for n, sh in enumerate(now["seats"]) if n != seat
                           for c in sh["cards"]), now["seats"]
        # a page that opens mid-run-out (a friend's reconnect): the board so far
        watcher_ctx = context(browser, size)
        contexts.append(watcher_ctx)
        watcher = watcher_ctx.new_page()
        late = _states(watcher)
        watcher.goto(f"{server.url}/t/{tid}")
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
        hand_states = [(t, s) for t, s in states
                       if t >= clicked - 0.05 and s.get("hand") and s["hand"].get("hand_no") == 1]
        boards = []
        for t, s in hand_states:
            hand = s["hand"]
            key = (len(hand["board"]), hand["result"] is not None)
            if not boards or boards[-1][1] != key:
                boards.append((t, key))
            if hand["result"] is None:   # no hidden card of the computer player's
                for n, seat in enumerate(hand["seats"]):
                    if n != s["you"]["seat"]:
                        assert all(c is None for c in seat["cards"]), (n, seat["cards"])
        keys = [k for _, k in boards]
        assert keys == [(0, False), (3, False), (4, False), (5, False), (5, True)], keys
        gaps = [b[0] - a[0] for a, b in itertools.pairwise(boards)]
        assert all(g >= step * 0.8 for g in gaps), gaps
        assert boards[-1][0] - boards[0][0] <= 5.5, gaps
        first_late = next(s for _, s in late if s.get("hand"))
        assert first_late["hand"]["hand_no"] == 1
        if first_late["hand"]["result"] is None:   # (it opened before the result)
            assert 3 <= len(first_late["hand"]["board"]) <= 5
        # the replay and the history are the engine's: the whole board, the result
        replay = httpx.get(f"{server.url}/api/tables/{tid}/hands/1").json()
        assert len(replay["frames"][-1]["board"]) == 5 and replay["frames"][-1]["result"]
    finally:
        for c in contexts:
            c.close()
        server.stop()
