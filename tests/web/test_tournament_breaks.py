"""A tournament's scheduled break at the web table (s59-breaks), on a virtual
clock: once a level with a break ends, the hand in play finishes at its stakes,
no hand is dealt for the break's minutes, the level clock stands, the felt says
"Break: M:SS left" and the next level's stakes, the break ends by itself (or at
the host's "Resume now") and the next level then runs in full; a restart
mid-break resumes it with the time it had left (its stored end: the time the
server was down counts, as the players are away from the table anyway)."""

from __future__ import annotations

import pytest
from test_table_bots import virtual_server
from test_tournament_server import SCHEDULE, _send, _step, _table
from virtual_table import VirtualLoop

from rollem.server.live_table import Client, LiveTable, TableError
from rollem.server.store import Store

BREAK_SCHEDULE = SCHEDULE.replace("stack = 60", "stack = 900").replace(
    "big_bet = 4\nminutes = 1\n", "big_bet = 4\nminutes = 1\nbreak = 2\n", 1)
"""Three one-minute levels, a 2-minute break after the first; deep stacks."""


def _to_break(loop: VirtualLoop, store: Store) -> tuple[LiveTable, list[Client], int]:
    """A table played until its break begins: the table, its people, the hands
    dealt before the break."""
    table, people = _table(loop, store, bot_level="random",
                           tournament_schedule=BREAK_SCHEDULE)
    start = loop.now
    while table.session["tournament"].get("break") is None:
        assert loop.now < start + 120, "no break began"
        _step(loop, table, people)
    assert table.hand is None  # (the hand in play finished first)
    return table, people, int(table.session["hand_no"])


def test_a_break_deals_nothing_stands_the_level_clock_and_ends_by_itself() -> None:
    with virtual_server() as (loop, store):
        table, people, dealt = _to_break(loop, store)
        public = table.tourney.public()
        assert public is not None and public["level"] == 2  # the next level's stakes
        assert public["elapsed"] == pytest.approx(60, abs=0.01) and not public["running"]
        pause = public["break"]
        assert pause is not None and pause["after"] == 1 and pause["seconds"] == 120
        assert pause["next"]["small_bet"] == 4 and pause["running"]
        began = loop.now
        loop.advance(30)
        words = table.dealer.waiting_for()
        assert words is not None and words.startswith("Break: 1:3"), words
        assert "next level 2" in words
        while loop.now < began + 119:
            _step(loop, table, people)
            assert int(table.session["hand_no"]) == dealt, "a hand was dealt in the break"
            assert table.tourney.clock_seconds() == pytest.approx(60, abs=0.01)
        assert table.tourney.public()["break"]["left"] < 1.1  # type: ignore[index]
        while int(table.session["hand_no"]) == dealt:  # it ends by itself at 120 s
            assert loop.now < began + 125, "the break did not end by itself"
            _step(loop, table, people)
        public = table.tourney.public()
        assert public is not None and public["break"] is None and public["running"]
        assert public["level"] == 2 and public["seconds_left"] > 55  # level 2 in full
        assert table.session["tournament"]["breaks_done"] == [0]
        loop.call(table.shutdown)


def test_the_host_ends_a_break_early_and_a_restart_resumes_one() -> None:
    with virtual_server() as (loop, store):
        table, _people, dealt = _to_break(loop, store)
        loop.advance(50)
        left = table.tourney.break_left()
        assert left == pytest.approx(70, abs=0.2)
        loop.call(table.shutdown)
        loop.advance(20)  # the server is down for 20 s of the break
        again = loop.call(LiveTable.restore, store, table.id)
        loop.call(again.resume)
        assert again.tourney.break_left() == pytest.approx(left - 20, abs=0.2)
        assert again.tourney.public()["break"]["after"] == 1  # type: ignore[index]
        loop.advance(10)
        assert again.tourney.break_left() == pytest.approx(left - 30, abs=0.2)
        assert int(again.session["hand_no"]) == dealt
        assert again.tourney.clock_seconds() == pytest.approx(60, abs=0.01)
        host = Client(None, True)
        loop.call(again.connect, host)
        guest = Client(None, False)
        with pytest.raises(TableError):
            _send(loop, again, guest, "host", op="end_break")
        _send(loop, again, host, "host", op="end_break")  # "Resume now"
        assert again.tourney.break_left() is None
        with pytest.raises(TableError, match="no break is running"):
            _send(loop, again, host, "host", op="end_break")
        assert again.tourney.clock_running()
        loop.advance(5)
        assert again.tourney.clock_seconds() == pytest.approx(65, abs=0.1)
        loop.call(again.shutdown)


def test_a_break_that_ended_while_the_server_was_down_ends_at_the_restart() -> None:
    with virtual_server() as (loop, store):
        table, _, dealt = _to_break(loop, store)
        loop.call(table.shutdown)
        loop.advance(500)
        again = loop.call(LiveTable.restore, store, table.id)
        loop.call(again.resume)
        people = [Client(0), Client(1)]
        for client in people:
            loop.call(again.connect, client)
        start = loop.now
        while int(again.session["hand_no"]) == dealt:
            assert loop.now < start + 10, "no deal after the break's end"
            _step(loop, again, people)
        assert again.tourney.break_left() is None
        assert again.session["tournament"]["breaks_done"] == [0]
        loop.call(again.shutdown)


def test_the_hosts_pause_holds_a_break() -> None:
    with virtual_server() as (loop, store):
        table, people, _ = _to_break(loop, store)
        loop.advance(20)
        _send(loop, table, people[0], "host", op="pause")
        held = table.tourney.break_left()
        loop.advance(600)
        assert table.tourney.break_left() == held
        words = table.tourney.break_words()
        assert words is not None and "held while the host pauses" in words
        _send(loop, table, people[0], "host", op="resume")
        loop.advance(10)
        assert table.tourney.break_left() == pytest.approx(held - 10, abs=0.2)  # type: ignore[operator]
        loop.call(table.shutdown)
