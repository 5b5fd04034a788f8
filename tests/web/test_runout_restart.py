"""s62-table: a server restarted (or a table taken over) in the middle of an
all-in run-out goes on from the round last shown, at the run-out's pace
(rollem.server.live_table.runout).  Before, the restored table finished the hand at
once: a page that had seen the turn got the river and the result together."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_table_bots import aggressive, virtual_server
from test_tournament_server import _step
from virtual_table import VirtualLoop, seat_people

from rollem.server.config import parse_config
from rollem.server.live_table import Client, LiveTable
from rollem.server.pacing import Pacing
from rollem.server.protocol import ClientMessage
from rollem.server.store import Store


@pytest.fixture
def paced() -> Iterator[None]:
    """Tables made in the test pace run-outs at 1 s a round (a real server's)."""
    saved = LiveTable.__dict__["pacing"]
    LiveTable.pacing = Pacing(runout_step=1.0)
    try:
        yield
    finally:
        LiveTable.pacing = saved


def _all_in(loop: VirtualLoop, store: Store) -> LiveTable:
    """Heads-up no-limit hold'em of two people, both all-in before the flop: the
    run-out under way (the call shown)."""
    config = parse_config({"game": "holdem", "structure": "no-limit", "seats": 2, "bots": 0,
                           "decision_seconds": 30.0, "between_hands": 4.0, "stack": 100})
    table, _ = loop.call(LiveTable.create, store, config)
    people = seat_people(loop, table, 2)
    loop.call(table.handle, people[0], ClientMessage("start", None, table.seq, {}))
    while not table.runout.active:
        assert table.hand is not None and table.hand.hand_no == 1
        _step(loop, table, people, aggressive)
    return table


def _board(table: LiveTable) -> tuple[int, bool]:
    """What a page is sent now: the cards on the board, and whether a result."""
    hand = table.state(None)["hand"]
    return len(hand["board"]), hand["result"] is not None


def test_a_restart_mid_run_out_goes_on_from_the_round_shown(paced: None) -> None:
    with virtual_server() as (loop, store):
        table = _all_in(loop, store)
        assert _board(table) == (0, False)
        loop.advance(2.05)  # the flop, then the turn
        assert _board(table) == (4, False)
        table.shutdown()
        loop.advance(3.0)  # the restart
        table = loop.call(LiveTable.restore, store, table.id)
        loop.call(table.resume)
        loop.call(table.connect, Client(0, True))
        # the turn again, not the result at once (main: (5, True))
        assert table.runout.active and _board(table) == (4, False)
        assert table.hand is not None and table.hand.hand_no == 1
        loop.advance(1.05)
        assert _board(table) == (5, False)  # the river
        loop.advance(1.05)
        assert _board(table) == (5, True)  # the result, the hand finished
        assert table.hand is None and table.session.get("runout_shown") is None
        assert table.last_result is not None and table.last_result["hand"] == 1
        loop.call(table.shutdown)


def test_a_restart_after_the_river_shows_the_result_one_round_later(paced: None) -> None:
    with virtual_server() as (loop, store):
        table = _all_in(loop, store)
        loop.advance(3.05)  # the flop, the turn, the river
        assert _board(table) == (5, False)
        table.shutdown()
        table = loop.call(LiveTable.restore, store, table.id)
        loop.call(table.resume)
        assert _board(table) == (5, False)
        loop.advance(1.05)
        assert _board(table) == (5, True)
        loop.call(table.shutdown)
