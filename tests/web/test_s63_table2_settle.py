"""s63-table2: the tournament's end once every person is out (s63-table), pushed
at its edges on a virtual clock."""

from __future__ import annotations

import pytest
from test_table_bots import virtual_server
from test_tournament_breaks import BREAK_SCHEDULE
from test_tournament_computers_settled import _folds
from test_tournament_server import _step, _table

from rollem.server.live_table import TableError
from rollem.server.protocol import ClientMessage


def test_a_decline_in_a_break_settles_it_and_ends_the_break() -> None:
    """Both people bust before a break inside the rebuy levels, the computer players
    play on to it (the people may rebuy); in the break both decline: the computer
    players left are placed at once, and the break ends with it (the felt counted
    it down beside "The tournament is over", and its host's "Resume now" was
    still taken)."""
    with virtual_server() as (loop, store):
        table, people = _table(loop, store, tournament_schedule=BREAK_SCHEDULE,
                               rebuy_levels=3)
        while table.hand is not None or int(table.session["hand_no"]) < 1:
            _step(loop, table, people, _folds)
        for seat, chips in ((0, 1), (1, 1)):
            table.seats[seat].row.stack = chips
        start = loop.now
        t = table.session["tournament"]
        while t.get("break") is None:
            assert loop.now < start + 200, "no break began"
            _step(loop, table, people, _folds)
        assert table.seats[0].row.stack == 0 and table.seats[1].row.stack == 0
        assert not t["over"]
        for client in people:
            loop.call(table.handle, client,
                      ClientMessage("rebuy", None, table.seq, {"decline": True}))
        loop.advance(1.0)
        assert t["over"] and t["settled"]
        assert t.get("break") is None
        public = table.tourney.public()
        assert public is not None and public["break"] is None
        assert table.tourney.break_left() is None
        assert t["breaks_done"] == [0]
        hands = int(table.session["hand_no"])
        with pytest.raises(TableError, match="no break is running"):  # ("Resume now")
            loop.call(table.messages.dispatch, people[0],
                      ClientMessage("host", None, table.seq, {"op": "end_break"}))
        loop.advance(200.0)  # (past the break's end: nothing more)
        assert int(table.session["hand_no"]) == hands and t["over"]
        loop.call(table.shutdown)
