"""s63-table2: the tournament's end once every person is out (s63-table), pushed
at its edges on a virtual clock."""

from __future__ import annotations

from typing import Any

import pytest
from test_table_bots import virtual_server
from test_tournament_breaks import BREAK_SCHEDULE
from test_tournament_computers_settled import _folds
from test_tournament_server import _step, _table

from rollem.server.live_table import Client, LiveTable, TableError
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


def _people_out(loop: Any, table: LiveTable, people: list[Any],
                bots: tuple[int, int]) -> None:
    """The two people (seats 0-1) hold a chip each, the computer players ``bots``
    chips; played until both people are out and the hand is over (the next deal
    not yet)."""
    while table.hand is not None or int(table.session["hand_no"]) < 1:
        _step(loop, table, people, _folds)
    for seat, chips in zip((0, 1, 2, 3), (1, 1, *bots), strict=True):
        table.seats[seat].row.stack = chips
    start = loop.now
    while table.seats[0].row.stack > 0 or table.seats[1].row.stack > 0 or table.hand:
        assert loop.now < start + 600, "the people never busted"
        _step(loop, table, people, _folds)


def test_tied_computer_players_share_the_places_and_the_settle_up_balances() -> None:
    """Two computer players level on chips share 1st and 2nd (65/35 of 40: 20 each);
    the settle-up's payouts add up to the pool and its nets to 0 (their prizes are
    the host's, P0's); the chat names both 1st."""
    with virtual_server() as (loop, store):
        table, people = _table(loop, store)
        _people_out(loop, table, people, (119, 119))
        assert sum(table.seats[s].row.stack for s in (2, 3)) == 240
        table.seats[2].row.stack = table.seats[3].row.stack = 120  # (level)
        assert table.session.get("carried", 0) == 0
        loop.advance(5.0)
        t = table.session["tournament"]
        assert t["over"] and t["settled"]
        public = table.tourney.public()
        assert public is not None
        payouts = {int(s): v for s, v in public["payouts"].items()}
        places = {int(s): p for s, p in public["places"].items()}
        assert places[2] == places[3] == 1 and payouts[2] == payouts[3] == 20
        assert sum(payouts.values()) == public["prize_pool"] == 40
        settle_up = table.views.settle_tournament(public)
        assert settle_up["over"] and sum(p["units"] for p in settle_up["payouts"]) == 40
        nets: dict[str, int] = {}
        for move in settle_up["transfers"]:
            nets[move["from"]] = nets.get(move["from"], 0) - move["units"]
            nets[move["to"]] = nets.get(move["to"], 0) + move["units"]
        assert sum(nets.values()) == 0
        said = table.session["chat"][-1]["text"]
        assert said.count(" 1st (120 chips)") == 2, said
        loop.call(table.shutdown)


def test_chips_carried_to_a_hand_never_dealt_go_to_the_chip_leader() -> None:
    """R-521-9: chips carried to the next hand when the people are out go to the
    computer player with the most chips; the table's chips are conserved."""
    with virtual_server() as (loop, store):
        table, people = _table(loop, store)
        _people_out(loop, table, people, (110, 128))
        chips = {s: table.seats[s].row.stack for s in (2, 3)}
        total = sum(chips.values())
        leader = max((2, 3), key=lambda s: (chips[s], -s))
        table.seats[leader].row.stack -= 7  # (as if 7 were carried into the next hand)
        table.session["carried"] = 7
        chips[leader] -= 7
        leader = max((2, 3), key=lambda s: (chips[s], -s))
        loop.advance(5.0)
        t = table.session["tournament"]
        assert t["over"] and t["settled"] and table.session["carried"] == 0
        assert sum(table.seats[s].row.stack for s in range(4)) == total
        assert table.seats[leader].row.stack == chips[leader] + 7
        stored = {r.seat: r.stack for r in store.load_seats(table.id)}
        assert stored[leader] == chips[leader] + 7  # (written with the end)
        loop.call(table.shutdown)


def test_a_restart_between_the_last_bust_and_the_next_deal_settles_at_the_return() -> None:
    """The server stops with the last person's bust written and the next deal not
    yet made: the restored table settles when a page comes back, and a restart after
    the end keeps it (no hand dealt, the places and payouts the same)."""
    with virtual_server() as (loop, store):
        table, people = _table(loop, store)
        _people_out(loop, table, people, (110, 128))
        hands = int(table.session["hand_no"])
        assert not table.session["tournament"]["over"]
        loop.call(table.shutdown)
        table = loop.call(LiveTable.restore, store, table.id)
        loop.call(table.resume)
        loop.call(table.connect, Client(0, True))
        loop.advance(5.0)
        t = table.session["tournament"]
        assert t["over"] and t["settled"] and int(table.session["hand_no"]) == hands
        before = table.tourney.public()
        loop.call(table.shutdown)
        again = loop.call(LiveTable.restore, store, table.id)
        loop.call(again.resume)
        loop.call(again.connect, Client(0, True))
        loop.advance(5.0)
        after = again.tourney.public()
        assert before is not None and after is not None
        assert after["settled"] and after["over"]
        assert (after["places"], after["payouts"]) == (before["places"], before["payouts"])
        assert int(again.session["hand_no"]) == hands and again.hand is None
        loop.call(again.shutdown)


def test_late_registration_open_does_not_hold_the_settle() -> None:
    """Six seats, two free, rebuys (and so late registration) in the first level:
    both people bust and decline, and the next deal settles at once, late
    registration open or not (s64-table: s63-table's computer players dealt on to
    nobody until the level ended); nobody enters after (a newcomer is told the
    tournament has started) and the level clock stands where it was."""
    with virtual_server() as (loop, store):
        table, people = _table(loop, store, seats=6, rebuy_levels=1)
        while table.hand is not None or int(table.session["hand_no"]) < 1:
            _step(loop, table, people, _folds)
        for seat in (0, 1):
            table.seats[seat].row.stack = 1
        t = table.session["tournament"]
        start = loop.now
        while table.seats[0].row.stack > 0 or table.seats[1].row.stack > 0 or table.hand:
            assert loop.now < start + 50, "the people never busted"
            _step(loop, table, people, _folds)
        assert table.tourney.entries_open()
        hands = int(table.session["hand_no"])
        for client in people:
            loop.call(table.handle, client,
                      ClientMessage("rebuy", None, table.seq, {"decline": True}))
        loop.advance(3.0)
        assert t["over"] and t["settled"], "the computer players dealt on"
        assert int(table.session["hand_no"]) == hands and table.hand is None
        assert table.tourney.clock_seconds() < 60.0  # (ended inside level 1)
        public = table.tourney.public()
        assert public is not None and not public["entries_open"]
        assert public["entry_seats"] == []
        with pytest.raises(TableError) as err:
            loop.call(table.join, "Eve", None)
        assert err.value.code == "tournament_started"
        assert "Every person is out" in table.session["chat"][-1]["text"]
        loop.call(table.shutdown)


def test_a_person_with_chips_sitting_out_is_never_settled_away() -> None:
    """P0 busts (no rebuys); P1, with chips, sits out: dealt in and blinded off, the
    tournament goes on until P1's last chip, and only then are the computer
    players placed."""
    with virtual_server() as (loop, store):
        table, people = _table(loop, store)
        while table.hand is not None or int(table.session["hand_no"]) < 1:
            _step(loop, table, people, _folds)
        table.seats[0].row.stack = 1
        loop.call(table.handle, people[1], ClientMessage("sit_out", None, table.seq,
                                                          {"out": True}))
        assert 1 in table.session["sitting_out"]
        t = table.session["tournament"]
        start = loop.now
        while not t["over"]:
            assert loop.now < start + 600, "it never ended"
            if table.hand is None and table.seats[1].row.stack > 0:
                assert not table.tourney.computers_only()
            _step(loop, table, people, _folds)
        assert table.seats[0].row.stack == 0 and table.seats[1].row.stack == 0
        assert len([b for b in t["busts"] if b[1] in (0, 1)]) == 2
        assert t["settled"] or sum(table.seats[s].row.stack > 0 for s in (2, 3)) == 1
        loop.call(table.shutdown)
