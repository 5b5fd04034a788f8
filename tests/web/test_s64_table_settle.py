"""s64-table: what the tournament panel says it was played to once it is over.
The level clock stands a hair past a level's end during the break after it, so
a tournament settled in that break (every person out: s63-table) read "played
to level 2 of 2" though no hand was dealt at level 2.  The state now keeps the
level of the last hand dealt (``played_to``) and the break it ended in
(``ended_in_break``); the browser side: test_s64_table_browser.py."""

from __future__ import annotations

from test_s63_table2_settle import _people_out
from test_table_bots import virtual_server
from test_tournament_breaks import BREAK_SCHEDULE
from test_tournament_computers_settled import _folds
from test_tournament_server import _step, _table

from rollem.server.live_table import LiveTable
from rollem.server.protocol import ClientMessage


def test_a_settle_in_a_break_says_the_break_and_the_level_played_to() -> None:
    """Both people bust in level 1, decline in the break after it: over, played to
    level 1 (the clock's level is 2), ended in the break after level 1; kept
    over a restart."""
    with virtual_server() as (loop, store):
        table, people = _table(loop, store, tournament_schedule=BREAK_SCHEDULE,
                               rebuy_levels=3)
        while table.hand is not None or int(table.session["hand_no"]) < 1:
            _step(loop, table, people, _folds)
        for seat in (0, 1):
            table.seats[seat].row.stack = 1
        t = table.session["tournament"]
        start = loop.now
        while t.get("break") is None:
            assert loop.now < start + 200, "no break began"
            _step(loop, table, people, _folds)
        for client in people:
            loop.call(table.handle, client,
                      ClientMessage("rebuy", None, table.seq, {"decline": True}))
        loop.advance(1.0)
        public = table.tourney.public()
        assert public is not None and public["over"] and public["settled"]
        assert public["level"] == 2  # (the clock's: a hair past level 1's end)
        assert public["played_to"] == 1 and public["ended_in_break"] == 1
        loop.call(table.shutdown)
        again = loop.call(LiveTable.restore, store, table.id)
        public = again.tourney.public()
        assert public is not None
        assert public["played_to"] == 1 and public["ended_in_break"] == 1
        loop.call(again.shutdown)


def test_an_end_between_hands_says_the_last_hands_level_and_no_break() -> None:
    """The people bust at level 1 and the clock is then moved past its end: the
    computer players are settled before any hand of level 2 is dealt, so the
    panel says played to level 1, with no break."""
    with virtual_server() as (loop, store):
        table, people = _table(loop, store)
        _people_out(loop, table, people, (110, 128))
        assert table.session["tournament"]["dealt_level"] == 1
        table.session["tournament"]["elapsed"] = 61.0  # (level 1 of a minute is past)
        loop.advance(5.0)
        public = table.tourney.public()
        assert public is not None and public["over"] and public["settled"]
        assert public["level"] == 2 and public["played_to"] == 1
        assert public["ended_in_break"] is None
        loop.call(table.shutdown)
