"""A stored table's game file is not dealt on trial again when the table is
restored (after a restart, or a takeover by another process): the restore runs
on the event loop that serves every table, and a trial deal of a costly file
(one accepted before the showdown's bound, issue 34) plays its showdowns there.

The file here deals 10 cards to each of 2 or 3 players and 10 board cards,
deuces and treys wild, with no betting round, so the trial's random players
cannot fold: each of its 4 trial hands (2 and 3 players, 2 seeds) reaches a
showdown of up to 3 x C(20, 5) x 20 = 930,240 evaluations (0.1 to 0.4 s of one
core each; issue 34's own file, with betting rounds, was folded before its
showdown in the trial).  A real ``rollem serve`` is restarted with the
table stored; a player at another table pings every 25 ms while the table is
opened.  Before (main, stop 63): the trial's showdowns held every table
(the longest ping 1.8 and 1.9 s, load 6.6); now the file, accepted when the
table was created (where it was dealt on trial, off the loop), is read as
accepted and no ping waits past 0.2 s.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import httpx
import pytest
import websockets
from hostile import costly_game_file
from test_server_stored_gamefile import store_instead
from web_harness import ServerProcess, create_table, join

from rollem.games.cost import MAX_SHOWDOWN_EVALUATIONS, game_evaluations
from rollem.games.gamefile import load_game
from rollem.server.app import seat_cookie


def board_file(hole: int = 10, board: int = 10) -> str:
    """A game file (id ``big-wild``, as :func:`costly_game_file`'s) dealing ``hole``
    cards to each of 2 or 3 players and ``board`` board cards in two steps, deuces and
    treys wild, with no betting round: every hand reaches its showdown."""
    text = ('id = "big-wild"\nname = "Big Wild"\nplayers = [2, 3]\n'
            'rules = "Many cards, deuces and treys wild, no betting."\n'
            '[[steps]]\nstep = "ante"\n'
            f'[[steps]]\nstep = "deal"\ncards = {hole}\n')
    for n in (board - board // 2, board // 2):
        text += f'[[steps]]\nstep = "board"\ncards = {n}\n'
    return text + ('[[steps]]\nstep = "wild"\nranks = ["2", "3"]\n'
                   '[[steps]]\nstep = "showdown"\nwild = true\n')


async def _probe(ws_url: str, tid: str, cookie: str, stop: asyncio.Event,
                 waits: list[float], every: float = 0.025) -> None:
    """Another table's player: a ping, then ``every`` seconds after its answer the
    next, each answer's wait kept (25 ms: within the address's message bucket, 60
    at once then 20 a second, for the test's 2 s; a block of the loop longer than
    that shows as a wait at most 25 ms shorter)."""
    async with websockets.connect(f"{ws_url}/ws/{tid}", max_size=2**24,
                                  additional_headers={"Cookie": cookie}) as ws:
        while not stop.is_set():
            sent = time.perf_counter()
            await ws.send('{"type":"ping"}')
            while json.loads(await asyncio.wait_for(ws.recv(), 30))["type"] not in (
                    "pong", "error"):
                pass
            waits.append(time.perf_counter() - sent)
            await asyncio.sleep(every)


@pytest.mark.slow
def test_a_restored_tables_file_is_not_dealt_on_trial_on_the_loop(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    costly = board_file()
    assert game_evaluations(load_game(costly, strict=False)) == 930_240
    assert game_evaluations(load_game(costly, strict=False)) > MAX_SHOWDOWN_EVALUATIONS
    first = ServerProcess(db)
    try:
        accepted = costly_game_file((5, 5))
        tid, _host = create_table(first.url, game="big-wild", game_file=accepted,
                                  seats=2, bots=0)
        other, _ = create_table(first.url, game="sdr", seats=2, bots=0)
        _, cy = join(first.url, other, "Cy")
    finally:
        first.kill()
    store_instead(str(db), tid, accepted, costly)  # stored before the bound, as issue 34's
    second = ServerProcess(db)
    try:
        async def run() -> tuple[list[float], list[float], int]:
            stop, waits = asyncio.Event(), []
            probe = asyncio.create_task(_probe(second.ws_url, other,
                                               f"{seat_cookie(other)}={cy}", stop, waits))
            while len(waits) < 10:  # (the other table opened and answering)
                await asyncio.sleep(0.05)
            before = list(waits)
            opened = await asyncio.to_thread(httpx.get, f"{second.url}/api/tables/{tid}",
                                             timeout=60)
            await asyncio.sleep(0.3)
            stop.set()
            await probe
            return before, waits[len(before):], opened.status_code

        before, during, status = asyncio.run(run())
        assert status == 200
        assert len(during) >= 10
        assert max(during) < 0.2, (f"the longest wait {max(during):.3f} s while the "
                                   f"table was restored (before: {max(before):.3f} s)")
    finally:
        second.kill()
