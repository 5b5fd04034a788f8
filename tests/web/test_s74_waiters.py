"""s74-night: the leftovers of s73-blinds' wait for the big blind.

(a) Two seat changes waiting for the big blind that it would reach in the same
hand: both were dealt in, the second with no blind to pay (a free hand, the
dodge the wait is for).  As a cardroom deals a new player in, one big blind a
hand: the first of them on the small blind's left posts it, the other waits on
and posts it the hand after (seat_moves.dealt_in_waiters, docs/web-table.md
"Change seats").

(b) A delayed watcher (issue 27) sees who sits out as at the deal
(``out_at_deal``), which lists no waiters: ``bb_wait`` was shown live.  Shown
live, the waiter dealt into the hand offered still read "waits for the big
blind" while its game was named, and dropped out of it as it was dealt: a new
state to the delayed watcher at the moment of the deal.  And a seat change made
during the hand left ``out_at_deal``'s seat numbers behind: the mover's new seat
read as dealt in, their old free one as sitting out.
"""

from __future__ import annotations

from typing import Any

from test_dealers_choice_seats import errors, send
from test_host_tools import WAIT, end_hand
from test_s73_blinds import _blinds
from test_server_staples import people_table
from test_table_bots import virtual_server

from rollem.server.live_table import Client


def _four(loop: Any, store: Any, **extra: Any) -> tuple[Any, Any, dict[int, Any]]:
    """P0, P1, P2 in seats 1-3 and P3 in seat 6 of 6 (blinds 1 and 2); hand 1
    dealt: button P0, small blind P1, big blind P2."""
    table, host, people = people_table(loop, store, seats=6, start=False, bots=2,
                                       **WAIT, **extra)
    for seat in (4, 5):
        send(loop, table, host, "host", op="remove", seat=seat)
    send(loop, table, people[3], "seat_change", seat=5)  # (before the first hand: free)
    assert errors(people[3]) == []
    people[5] = people.pop(3)
    send(loop, table, host, "start")
    loop.advance(0.1)
    return table, host, people


def test_two_waiters_the_big_blind_reaches_in_one_hand_come_in_one_a_hand() -> None:
    with virtual_server() as (loop, store):
        table, _host, people = _four(loop, store)
        assert sorted(table.hand.seats) == [0, 1, 2, 5]
        assert _blinds(table) == {"P1": 1, "P2": 2}
        end_hand(loop, table, people)
        # P1 would have the button in hand 2: in seat 4 the big blind reaches them
        # only after hand 2; they wait
        send(loop, table, people[1], "seat_change", seat=3)
        assert errors(people[1]) == [] and table.session["bb_wait"] == [3]
        people[3] = people.pop(1)
        loop.advance(600.0)  # hand 2: button P2, small blind P3, big blind P0
        assert sorted(table.hand.seats) == [0, 2, 5]
        assert _blinds(table) == {"P3": 1, "P0": 2}
        end_hand(loop, table, {s: c for s, c in people.items() if s != 3})
        # P2 had the button: in seat 5 the big blind reaches them later too
        send(loop, table, people[2], "seat_change", seat=4)
        assert errors(people[2]) == [] and table.session["bb_wait"] == [3, 4]
        people[4] = people.pop(2)
        loop.advance(600.0)
        # hand 3: button P3 (seat 6), small blind P0; the big blind would fall on
        # either waiter alone.  P1 in seat 4, the first on the small blind's left,
        # posts it; P2 waits on (on main both were dealt in: P2 a hand with no blind)
        assert table.session["button"] == 5
        assert sorted(table.hand.seats) == [0, 3, 5]
        assert _blinds(table) == {"P0": 1, "P1": 2}
        assert table.session["bb_wait"] == [4]
        assert table.views.you(4, False)["next_hand"] == (
            "You are dealt in when the big blind reaches seat 5.")
        end_hand(loop, table, {s: c for s, c in people.items() if s != 4})
        loop.advance(600.0)  # hand 4: button P0, small blind P1, big blind P2
        assert table.session["button"] == 0
        assert sorted(table.hand.seats) == [0, 3, 4, 5]
        assert _blinds(table) == {"P1": 1, "P2": 2}
        assert table.session["bb_wait"] == []


def test_the_waiter_dealt_in_reads_so_while_the_hand_is_named_and_a_delayed_watcher_sees_no_deal(
        ) -> None:
    with virtual_server() as (loop, store):
        table, _host, people = people_table(loop, store, seats=7, start=False, bots=4,
                                            game="dealers-choice", choices=["holdem", "razz"],
                                            watcher_delay=True, **WAIT)
        for seat in range(3, 7):
            send(loop, table, _host, "host", op="remove", seat=seat)
        send(loop, table, _host, "start")
        loop.advance(0.1)
        send(loop, table, people[0], "choose_game", 1, game="holdem")
        loop.advance(0.1)
        end_hand(loop, table, people)
        send(loop, table, people[1], "seat_change", seat=3)  # (waits: s73-blinds)
        assert table.session["bb_wait"] == [3]
        people[3] = people.pop(1)
        loop.advance(600.0)  # hand 2, P0 and P2 heads-up; P2 names it
        send(loop, table, people[2], "choose_game", 2, game="holdem")
        loop.advance(0.1)
        assert table.table_public()["bb_wait"] == [3]  # (not dealt in: waits on)
        end_hand(loop, table, {0: people[0], 2: people[2]})
        watcher = Client(None)
        loop.call(table.connect, watcher)
        loop.advance(600.0)  # hand 3 offered to P0, P2 and P1: P0 names it
        assert table.session["choice"]["players"] == [0, 2, 3]
        # P1 is dealt into the hand being named: no "waits for the big blind"
        # (main: [3] until it was dealt)
        assert table.table_public()["bb_wait"] == []
        assert table.views.you(3, False)["next_hand"] is None
        offered = table.views.table_for("delayed")
        assert offered["hand_in_play"] is True
        send(loop, table, people[0], "choose_game", 3, game="holdem")
        loop.advance(0.1)
        assert table.hand is not None and sorted(table.hand.seats) == [0, 2, 3]
        # the delayed watcher's page is as it was while the game was named: the
        # deal told nothing (main: bb_wait [3], then [])
        assert table.views.table_for("delayed") == offered
        loop.call(table.shutdown)


def test_a_move_during_the_hand_moves_the_seat_a_delayed_watcher_sees_sitting_out() -> None:
    with virtual_server() as (loop, store):
        table, host, people = people_table(loop, store, seats=6, start=False, bots=2,
                                           watcher_delay=True, **WAIT)
        for seat in (4, 5):
            send(loop, table, host, "host", op="remove", seat=seat)
        send(loop, table, host, "start")
        loop.advance(0.1)
        end_hand(loop, table, people)
        send(loop, table, people[3], "sit_out", out=True)
        assert errors(people[3]) == []
        watcher = Client(None)
        loop.call(table.connect, watcher)
        loop.advance(600.0)  # hand 2 without P3, who sits out
        assert table.hand is not None and sorted(table.hand.seats) == [0, 1, 2]
        assert table.views.table_for("delayed")["sitting_out"] == [3]
        send(loop, table, people[3], "seat_change", seat=4)  # (not dealt in: at once)
        assert errors(people[3]) == [] and table.seats[4].row.name == "P3"
        seen = table.views.table_for("delayed")
        assert seen["hand_in_play"] is True
        assert [s["seat"] for s in seen["seats"] if s.get("name") == "P3"] == [4]
        # P3 sits out in seat 5 now, as every page shows (main: still seat 4's, free)
        assert seen["sitting_out"] == table.table_public()["sitting_out"] == [4]
        loop.call(table.shutdown)
