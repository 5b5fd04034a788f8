"""s59-break: stop 59's seat changes, the table's close, top-ups and late
registration tried as a new player would, in odd orders; each a fault found and
fixed (tested here against what main did)."""

from __future__ import annotations

import json

import pytest
from test_dealers_choice_seats import errors, send
from test_host_tools import end_hand
from test_seat_change import _six, _told
from test_table_bots import virtual_server
from test_tournament_server import SCHEDULE, _send, _step, _table

from rollem.server.config import parse_config
from rollem.server.live_table import Client, LiveTable, TableError
from rollem.server.protocol import ClientMessage


def test_a_seat_change_waiting_when_the_host_closes_is_dropped_not_made() -> None:
    # (main: P1's move was made at the last hand's end, after "this hand is the
    # last ... nothing else changes", and the chat said "P1 moved from seat 2 to
    # seat 5." between the closing and the closed notes)
    with virtual_server() as (loop, store):
        table, host, people = _six(loop, store)
        send(loop, table, people[1], "seat_change", seat=4)
        assert errors(people[1]) == [] and table.table_public()["seat_changes"] == {"1": 4}
        send(loop, table, host, "host", op="close", confirm=True)
        assert errors(host) == []
        assert table.table_public()["seat_changes"] == {}
        assert _told(people[1]) == [{"code": "seat_change", "message": (
            "your seat change was not made: the host is closing the table, so nobody "
            "changes seats")}]
        assert table.seating.free_seats() == [4, 5]  # (the seat held is free again)
        end_hand(loop, table, people)
        assert {n: s.row.name for n, s in table.seats.items()} == {
            0: "P0", 1: "P1", 2: "P2", 3: "P3"}
        assert [c["text"] for c in table.session["chat"][-2:]] == [
            "The host is closing the table: this hand is the last.",
            "The host closed the table: the night is over. The ledger is final."]
        assert table.table_public()["ended"]["final"] is True


LONG_LEVELS = SCHEDULE.replace("minutes = 1", "minutes = 30")
"""test_tournament_server's schedule, its levels 30 minutes long (rebuys stay open)."""


def test_a_late_entrant_never_takes_the_seat_of_an_entrant_who_left() -> None:
    # (main: Eve sat in P1's seat -- the first free one -- took over P1's bust, and
    # the places could no longer be worked out: every state sent raised
    # ValueError, the table stuck, and so after a restart)
    with virtual_server() as (loop, store):
        table, people = _table(loop, store, seats=5, rebuy_levels=1,
                               tournament_schedule=LONG_LEVELS)
        assert sorted(table.seats) == [0, 1, 3, 4]  # (P0, P1, two computer players)
        while table.hand is not None or table.seats[1].row.stack > 0:
            assert loop.now < 1_000_000 + 1500, "seat 1 never busted"
            _step(loop, table, people)
        loop.call(table.messages.dispatch, people[1],
                  ClientMessage("rebuy", None, table.seq, {"decline": True}))
        _send(loop, table, people[1], "leave")
        assert table.seating.free_seats() == [1, 2]
        with pytest.raises(TableError) as err:
            loop.call(table.join, "Eve", 1)
        assert (err.value.code, err.value.message) == (
            "seat_taken", "seat 2 (index 1) was an entrant's in this tournament; a late "
            "entrant takes a seat nobody entered from: 3 (index 2)")
        assert table.tourney.entry_seats() == [2]
        assert table.tourney.public()["entry_seats"] == [2]  # (the page offers only it)
        seat, _ = loop.call(table.join, "Eve", None)
        public = table.tourney.public()
        assert public is not None
        assert seat == 2 and public["entrants"] == [0, 1, 2, 3, 4]
        assert public["prize_pool"] == 50 and not public["entries_open"]
        assert [(x["seat"], x["name"]) for x in public["ledger"]] == [
            (0, "P0"), (1, "P1"), (2, "Eve"), (3, "Bot 1 (basic)"), (4, "Bot 2 (basic)")]
        loop.call(table.shutdown)


def test_an_entrant_who_declined_and_left_is_no_late_entrant_from_the_same_browser() -> None:
    # (main: P1 sat down again from the same browser as a late entrant with the 0
    # chips of their ledger line: a buy-in more in the pool (50), a second 'P1'
    # entrant never dealt in, never busted, never placed)
    with virtual_server() as (loop, store):
        config = parse_config({
            "game": "sdr", "seats": 5, "bots": 2, "bot_level": "basic",
            "decision_seconds": 600.0, "time_bank_seconds": 0.0, "grace_seconds": 1000.0,
            "between_hands": 0.5, "bot_delay": 0.0, "tournament": "custom",
            "tournament_schedule": LONG_LEVELS, "buy_in": 10, "rebuy_levels": 1})
        table, _ = loop.call(LiveTable.create, store, config)
        people, tokens = [], []
        for seat in range(2):
            _, token = loop.call(table.join, f"P{seat}", seat)
            people.append(Client(table.seat_for_token(token), seat == 0))
            loop.call(table.connect, people[-1])
            tokens.append(token)
        loop.call(table.handle, people[0], ClientMessage("start", None, table.seq, {}))
        while table.hand is not None or table.seats[1].row.stack > 0:
            assert loop.now < 1_000_000 + 1500, "seat 1 never busted"
            _step(loop, table, people)
        loop.call(table.messages.dispatch, people[1],
                  ClientMessage("rebuy", None, table.seq, {"decline": True}))
        _send(loop, table, people[1], "leave")
        with pytest.raises(TableError) as err:
            loop.call(table.join, "P1", None, tokens[1])
        assert (err.value.code, err.value.message) == (
            "tournament_started", "you played in this tournament and are out of it; late "
            "registration is for newcomers: you can watch")
        public = table.tourney.public()
        assert public is not None
        assert public["entrants"] == [0, 1, 3, 4] and public["prize_pool"] == 40
        assert public["entries_open"] and public["places"] == {}  # (a late entry may move them)
        loop.call(table.shutdown)


def test_the_once_an_orbit_records_keep_only_the_seated() -> None:
    # (main: sit down, move, leave, again and again between hands: one record a
    # loop in session["seat_moved"], saved with every change, never dropped; a
    # newcomer's cookie is new, so a record of one who left is never read again)
    with virtual_server() as (loop, store):
        table, _host, people = _six(loop, store)
        end_hand(loop, table, people)
        for k in range(6):  # (from seat 5 to 6, then back: each seat's requests limited)
            at, to = (4, 5) if k % 2 == 0 else (5, 4)
            _, token = loop.call(table.join, f"Loop{k}", at)
            looper = Client(table.seat_for_token(token))
            loop.call(table.connect, looper)
            send(loop, table, looper, "seat_change", seat=to)
            assert errors(looper) == [] and table.seats[to].row.name == f"Loop{k}"
            send(loop, table, looper, "leave")
            assert to not in table.seats
        send(loop, table, people[3], "seat_change", seat=4)
        assert errors(people[3]) == []
        assert table.session["seat_moved"] == {table.seats[4].row.token_digest: 5}


def test_a_bomb_pot_called_for_the_next_hand_is_off_once_the_host_closes() -> None:
    # (main: the felt of the closed table still read "bomb pot next hand")
    with virtual_server() as (loop, store):
        table, host, people = _six(loop, store)
        send(loop, table, host, "host", op="bomb_pot", on=True)
        assert errors(host) == [] and table.table_public()["bomb_pot_next"] is True
        send(loop, table, host, "host", op="close", confirm=True)
        assert errors(host) == [] and table.table_public()["bomb_pot_next"] is False
        end_hand(loop, table, people)
        public = table.table_public()
        assert public["ended"]["final"] is True and public["bomb_pot_next"] is False


def test_a_seat_change_waiting_is_dropped_when_the_mover_leaves_or_is_removed() -> None:
    # (main: the felt said seat 5 was "P1's after this hand" and nobody else could
    # take it until the hand ended, though P1 was leaving)
    with virtual_server() as (loop, store):
        table, host, people = _six(loop, store)
        send(loop, table, people[1], "seat_change", seat=4)
        send(loop, table, people[2], "seat_change", seat=5)
        assert table.table_public()["seat_changes"] == {"1": 4, "2": 5}
        send(loop, table, people[1], "leave")
        send(loop, table, people[2], "sit_out", out=True)  # (the host removes the idle)
        send(loop, table, host, "host", op="remove", seat=2)
        assert errors(host) == [] and table.table_public()["seat_changes"] == {}
        assert table.seating.free_seats() == [4, 5]
        end_hand(loop, table, people)
        assert sorted(table.seats) == [0, 3]


def test_a_mover_sees_the_hand_just_played_from_the_seat_they_played_it_in() -> None:
    # (main: P1's move, made at the hand's end, showed P1 that hand as a watcher:
    # their own cards gone from the page until the next deal)
    with virtual_server() as (loop, store):
        table, _host, people = _six(loop, store)
        hand = table.hand
        assert hand is not None
        send(loop, table, people[1], "seat_change", seat=4)
        end_hand(loop, table, people)
        assert 4 in table.seats and table.final_hand is hand
        own = hand.view(1)
        assert own["seats"][1]["cards"] and None not in own["seats"][1]["cards"]
        for state in (table.state(4), json.loads(table.views.state_text(4))):
            assert state["hand"]["seat"] == 1
            assert state["hand"]["seats"][1]["cards"] == own["seats"][1]["cards"]
        # a newcomer in P1's old seat sees the hand as a watcher does, nothing of P1's
        loop.call(table.join, "Zed", 1)
        watcher = hand.view(None)
        assert watcher["seats"][1]["cards"] != own["seats"][1]["cards"]
        for state in (table.state(1), json.loads(table.views.state_text(1))):
            assert state["hand"]["seat"] is None
            assert state["hand"]["seats"][1]["cards"] == watcher["seats"][1]["cards"]
