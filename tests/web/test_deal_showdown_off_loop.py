"""A hand that reaches its showdown inside the deal plays it off the event loop
(s64-loop): a costly game (issue 34) is dealt in the showdown thread, as its
actions are applied there, and so is its hand in play replayed at a restore.

The file here has no betting round: 16 own cards to each of 2 players (dealt
10 and 6) and 10 board cards, deuces and treys wild, so every hand is over
at its deal, its showdown (2,631,200 evaluations, issue 34's count; 0.4 s
of one core) played in ``Hand.__init__``.  A file so costly is accepted no
more (:mod:`rollem.games.cost`): the table is stored with it in its place, as
a file accepted before the bound.  A real ``rollem serve`` deals its hands
while a player at another table pings every 75 ms
(:func:`test_restore_no_trial_on_loop._probe`).  Before (main, stop 63):
each deal held every table for its showdown (the longest ping 0.5 to 0.9 s,
docs/dev/hostile.md, s64-loop); now no ping waits past 0.2 s.  The same
server is then stopped, its last hand stored as in play (killed before the
hand's end was written), and restarted: the hand's replay, run to its
showdown, held the loop at the restore (``GET`` of the table) too.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from hostile import costly_game_file
from test_restore_no_trial_on_loop import _probe
from test_server_stored_gamefile import store_instead
from web_harness import Player, ServerProcess, ServerThread, create_table, join

from rollem.engine.showdown import Showdown
from rollem.games.cost import MAX_SHOWDOWN_EVALUATIONS, game_evaluations
from rollem.games.gamefile import load_game
from rollem.server.app import seat_cookie
from rollem.server.game_session import OFF_LOOP_EVALUATIONS

EVERY = 0.075
"""Seconds from a pong to the next ping: the address's message bucket (60 at once,
then 20 a second) holds for the test's 10 s or so, with Ann's messages beside."""


def dealt_to_the_showdown(hole: tuple[int, ...] = (10, 6),
                          board: tuple[int, ...] = (5, 5)) -> str:
    """A game file (id ``big-wild``, as :func:`costly_game_file`'s) with no betting
    round: ``hole`` own cards to each of 2 players (by default 10, then 6), ``board``
    board cards (5 and 5), deuces and treys wild; every hand is over at its deal."""
    text = ('id = "big-wild"\nname = "Big Wild"\nplayers = [2, 2]\n'
            'rules = "Many cards, deuces and treys wild, no betting."\n'
            '[[steps]]\nstep = "ante"\n')
    text += "".join(f'[[steps]]\nstep = "deal"\ncards = {n}\n' for n in hole)
    text += "".join(f'[[steps]]\nstep = "board"\ncards = {n}\n' for n in board)
    return text + ('[[steps]]\nstep = "wild"\nranks = ["2", "3"]\n'
                   '[[steps]]\nstep = "showdown"\nwild = true\n')


def as_in_play(db: Path, tid: str) -> int:
    """Store table ``tid``'s last finished hand as in play, as if the server had been
    killed before the hand's end was written: no result, the session ``in_hand``,
    the seats' stacks as the hand dealt them.  Returns the hand's number."""
    con = sqlite3.connect(db)
    with con:
        hand_no, setup = con.execute(
            "SELECT hand_no, setup FROM hands WHERE table_id = ? AND result IS NOT NULL "
            "ORDER BY hand_no DESC LIMIT 1", (tid,)).fetchone()
        con.execute("DELETE FROM hands WHERE table_id = ? AND hand_no > ?", (tid, hand_no))
        con.execute("UPDATE hands SET result = NULL WHERE table_id = ? AND hand_no = ?",
                    (tid, hand_no))
        session = json.loads(con.execute("SELECT session FROM tables WHERE id = ?",
                                         (tid,)).fetchone()[0])
        session.update(in_hand=True, hand_no=hand_no, seeding=None, last_result=None)
        con.execute("UPDATE tables SET session = ? WHERE id = ?", (json.dumps(session), tid))
        stacks = json.loads(setup)["stacks"]
        for seat in json.loads(setup)["seats"]:
            con.execute("UPDATE seats SET stack = ? WHERE table_id = ? AND seat = ?",
                        (stacks[seat], tid, seat))
    con.close()
    return int(hand_no)


def costly_table_played(db: Path, costly: str, before_play: Callable[[], object] = lambda: None
                        ) -> tuple[str, str, str, dict[str, Any]]:
    """A table of ``costly`` (a file of :func:`dealt_to_the_showdown`) in ``db``: made
    on an in-process server with :func:`costly_game_file`'s accepted file (Ann in seat
    0, a computer player in seat 1, 400 chips, no pause after a hand), ``costly``
    stored in its place (as a file accepted before the bound), ``before_play()`` called,
    then hand 1 dealt on a second in-process server (over at its deal).  Returns
    (table id, host token, Ann's token, Ann's state at the hand's end).  The set-up
    of this module's in-process test and of test_s64_void_hand."""
    first = ServerThread(db)
    try:
        accepted = costly_game_file((5, 5))
        tid, host = create_table(first.url, game="big-wild", game_file=accepted, seats=2,
                                 bots=1, bot_delay=0, between_hands=600)
        _, ann = join(first.url, tid, "Ann")
    finally:
        first.stop()
    store_instead(str(db), tid, accepted, costly)
    before_play()
    second = ServerThread(db)
    try:
        st = asyncio.run(_one_hand(second.ws_url, tid, ann, host, start=True))
    finally:
        second.stop()
    return tid, host, ann, st


async def _one_hand(ws_url: str, tid: str, ann: str, host: str, start: bool) -> dict[str, Any]:
    """Ann's (the host's) state once the table has a finished hand; ``start``: she
    starts the game first."""
    async with Player(ws_url, tid, ann, host) as a:
        await a.until(lambda st: st["you"]["host"])
        if start:
            await a.send({"type": "start", "seq": a.state["seq"]})  # type: ignore[index]
        return await a.until(lambda st: st["table"]["last_result"] is not None)


@pytest.mark.slow
def test_a_deal_that_reaches_its_showdown_does_not_hold_the_loop(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    costly = dealt_to_the_showdown()
    game = load_game(costly, strict=False)
    assert game_evaluations(game) == 2_631_200 > MAX_SHOWDOWN_EVALUATIONS
    first = ServerThread(db)  # (only to create the tables: quicker to start)
    try:
        accepted = costly_game_file((5, 5))
        tid, host = create_table(first.url, game="big-wild", game_file=accepted, seats=2,
                                 bots=1, bot_delay=0, between_hands=1.0)
        _, ann = join(first.url, tid, "Ann")
        other, _ = create_table(first.url, game="sdr", seats=2, bots=0)
        _, cy = join(first.url, other, "Cy")
    finally:
        first.stop()
    store_instead(str(db), tid, accepted, costly)  # stored before the bound, as issue 34's
    probe_cookie = f"{seat_cookie(other)}={cy}"

    async def dealing(url: str, ws_url: str) -> tuple[list[float], list[float], Any]:
        """Start the table and let it deal two hands; the pings before and during."""
        stop, waits = asyncio.Event(), []
        probe = asyncio.create_task(_probe(ws_url, other, probe_cookie, stop, waits,
                                             EVERY))
        while len(waits) < 10:  # (the other table opened and answering)
            await asyncio.sleep(0.05)
        before = list(waits)
        async with Player(ws_url, tid, ann, host) as a:
            await a.until(lambda st: st["you"]["host"], 30)
            await a.send({"type": "start", "seq": a.state["seq"]})  # type: ignore[index]
            st = await a.until(lambda st: (st["table"]["last_result"] or {}).get("hand", 0) >= 2,
                               60)
        stop.set()
        await probe
        return before, waits[len(before):], st

    async def restoring(url: str, ws_url: str) -> tuple[list[float], list[float], Any]:
        """Open the table whose hand is stored in play; the pings until it is over."""
        stop, waits = asyncio.Event(), []
        probe = asyncio.create_task(_probe(ws_url, other, probe_cookie, stop, waits,
                                             EVERY))
        while len(waits) < 10:
            await asyncio.sleep(0.05)
        before = list(waits)
        opened = await asyncio.to_thread(httpx.get, f"{url}/api/tables/{tid}", timeout=60)
        assert opened.status_code == 200
        async with Player(ws_url, tid, ann, host) as a:
            st = await a.until(lambda st: (st["table"]["last_result"] or {}).get("hand")
                               == in_play, 30)
        await asyncio.sleep(0.3)  # (a few pings after it, on any tree)
        stop.set()
        await probe
        return before, waits[len(before):], st

    second = ServerProcess(db, hand_floors=False)
    try:
        before, during, st = asyncio.run(dealing(second.url, second.ws_url))
    finally:
        second.kill()
    print(f"dealing: longest {max(during):.3f} s of {len(during)} (before {max(before):.3f})")
    assert len(during) >= 10
    assert max(during) < 0.2, (f"the longest wait {max(during):.3f} s while the hands were "
                               f"dealt (before: {max(before):.3f} s)")
    assert sum(s["stack"] for s in st["table"]["seats"] if s) == 400  # (chips kept)
    in_play = as_in_play(db, tid)
    third = ServerProcess(db, hand_floors=False)
    try:
        started = time.perf_counter()
        before, during, st = asyncio.run(restoring(third.url, third.ws_url))
        took = time.perf_counter() - started
    finally:
        third.kill()
    print(f"restoring: longest {max(during):.3f} s of {len(during)} in {took:.1f} s")
    assert len(during) >= 3, took
    assert max(during) < 0.2, (f"the longest wait {max(during):.3f} s while the hand in play "
                               f"was restored (before: {max(before):.3f} s)")
    assert sum(s["stack"] for s in st["table"]["seats"] if s) == 400  # (settled once)


def test_the_showdown_of_a_deal_and_of_a_replay_is_played_in_the_showdown_thread(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In process (quick, no timing): where each showdown is played.  A small file
    of the same kind (5 own cards, 3 board cards: 2,240 evaluations, over the 1,500
    that put a game off the loop) stored in the accepted file's place; hand 1 is
    dealt to its showdown, then stored as in play and the table opened again (its
    replay runs to the showdown).  Before: both in the event loop's thread."""
    db = tmp_path / "t.db"
    costly = dealt_to_the_showdown((5,), (3,))
    assert OFF_LOOP_EVALUATIONS < game_evaluations(load_game(costly, strict=False)) == 2_240
    threads: list[str] = []
    start = Showdown.start

    def seen(self: Showdown, hand: Any) -> Any:
        threads.append(threading.current_thread().name)
        return start(self, hand)

    tid, host, ann, st = costly_table_played(
        db, costly, lambda: monkeypatch.setattr(Showdown, "start", seen))
    assert st["table"]["last_result"]["hand"] == 1
    assert threads == ["rollem-showdowns-0"], threads  # (main: the loop's thread)
    assert as_in_play(db, tid) == 1
    third = ServerThread(db)
    try:
        st = asyncio.run(_one_hand(third.ws_url, tid, ann, host, start=False))
    finally:
        third.stop()
    assert st["table"]["last_result"]["hand"] == 1  # (finished after the replay)
    assert sum(s["stack"] for s in st["table"]["seats"] if s) == 400
    assert threads == ["rollem-showdowns-0"] * 2, threads
