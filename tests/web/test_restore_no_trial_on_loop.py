"""A stored table's game file is not dealt on trial again when the table is
restored (after a restart, or a takeover by another process): the restore runs
on the event loop that serves every table, and a trial deal of a costly file
(one accepted before the showdown's bound, issue 34) plays its showdowns there.

The file here deals 10 cards to each of 2 or 3 players and 10 board cards,
deuces and treys wild, with no betting round, so the trial's random players
cannot fold: each of its 4 trial hands (2 and 3 players, 2 seeds) reaches a
showdown of up to 3 x C(20, 5) x 20 = 930,240 evaluations (0.1 to 0.4 s of one
core each; issue 34's own file, with betting rounds, was folded before its
showdown in the trial).  The table is stored, and restored
on a new server (in this process) while every showdown is held until the test
lets it go (:class:`test_deal_showdown_off_loop.HeldShowdowns`): the file,
accepted when the table was created (where it was dealt on trial, off the
loop), is read as accepted, dealt on no trial, and another table answers
meanwhile.  Before (main, stop 63; the fault put back: ``file_game`` dealing a
stored file on trial): the trial's first showdown held the event loop, and
every table with it, until let go (a real ``rollem serve`` pinged at another
table waited 1.8 and 1.9 s at load 6.6; s74-flaky: the test that measured that
bounded the longest ping at 0.2 s, a bound a loaded machine can pass without
any showdown).
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from hostile import costly_game_file
from test_deal_showdown_off_loop import HANG, HeldShowdowns
from test_server_stored_gamefile import store_instead
from web_harness import ServerThread, create_table

from rollem.games import trial
from rollem.games.cost import MAX_SHOWDOWN_EVALUATIONS, game_evaluations
from rollem.games.gamefile import load_game


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


def test_a_restored_tables_file_is_not_dealt_on_trial_on_the_loop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "t.db"
    costly = board_file()
    assert game_evaluations(load_game(costly, strict=False)) == 930_240
    assert game_evaluations(load_game(costly, strict=False)) > MAX_SHOWDOWN_EVALUATIONS
    first = ServerThread(db)
    try:
        accepted = costly_game_file((5, 5))
        tid, _host = create_table(first.url, game="big-wild", game_file=accepted,
                                  seats=2, bots=0)
        other, _ = create_table(first.url, game="sdr", seats=2, bots=0)
    finally:
        first.stop()
    store_instead(str(db), tid, accepted, costly)  # stored before the bound, as issue 34's
    trials: list[str] = []
    deal = trial.trial_deal

    def spied(game: Any, hands: int = 2) -> None:
        trials.append(threading.current_thread().name)
        deal(game, hands)

    monkeypatch.setattr(trial, "trial_deal", spied)
    showdowns = HeldShowdowns(monkeypatch)
    second = ServerThread(db)
    try:
        with ThreadPoolExecutor(1) as pool:
            # (the table is restored when first asked for)
            opened = pool.submit(httpx.get, f"{second.url}/api/tables/{tid}", timeout=HANG)
            end = time.monotonic() + HANG   # (until it is open, or a showdown is held)
            while not (opened.done() or showdowns.started.is_set()):
                assert time.monotonic() < end, "the table was not restored"
                time.sleep(0.01)
            try:
                HeldShowdowns.answers(second, other, "the table was restored")
            finally:
                showdowns.gate.set()
            assert opened.result(HANG).status_code == 200
    finally:
        second.stop()
    assert trials == [] and showdowns.threads == [], (trials, showdowns.threads)
