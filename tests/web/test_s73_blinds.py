"""s73-blinds: a seat change that would skip the blinds waits for the big blind.

s73-night's search over every sequence of allowed moves found that a player who
moved one seat to the left after each of their button hands paid 27 blinds to a
staying player's 36 over 36 hands (7 seats, 3 players).  Now such a move deals
the mover in from the new seat only once the big blind reaches it; a move
towards the blinds, before the first hand, or at a table with no blind game
deals them in at once (seat_moves.py, docs/web-table.md "Change seats").
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from test_dealers_choice_seats import errors, send
from test_host_tools import WAIT, end_hand
from test_server_staples import people_table
from test_table_bots import virtual_server

from rollem.server import seat_moves
from rollem.server.seat_moves import big_blind_seat


def _table(loop: Any, store: Any, seats: int, players: int,
           **extra: Any) -> tuple[Any, Any, dict[int, Any]]:
    """People P0.. in the first ``players`` of ``seats`` seats (blinds 1 and 2,
    stacks 400, 600 s between hands), the rest free; hand 1 in play (dealer's
    choice: P0 names its game)."""
    table, host, people = people_table(loop, store, seats=seats, start=False,
                                       bots=seats - players, **WAIT, **extra)
    for seat in range(players, seats):
        send(loop, table, host, "host", op="remove", seat=seat)
    send(loop, table, host, "start")
    loop.advance(0.1)
    assert sorted(table.seats) == list(range(players))
    assert table.hand is not None or table.session["choice"]["seat"] == 0
    return table, host, people


def _blinds(table: Any) -> dict[str, int]:
    """The blinds of the hand in play by player's name (small 1, big 2 chips)."""
    return {table.seats[e.seat].row.name: int(e.data["amount"])
            for e in table.hand.hand.events if e.kind == "blind"}


def _dodge(seats: int, players: int, hands: int) -> tuple[Counter[str], Counter[str]]:
    """P0 moves one seat to the left (to the next free seat) after each hand they
    had the button, whenever the one-move-an-orbit limit lets them; everyone folds
    to the blinds.  The blind chips each player posted over ``hands`` hands, and
    the hands each was dealt."""
    paid: Counter[str] = Counter()
    dealt: Counter[str] = Counter()
    with virtual_server() as (loop, store):
        table, _host, people = _table(loop, store, seats, players)
        by_name = {f"P{n}": c for n, c in people.items()}
        total = sum(row.row.stack for row in table.seats.values())
        for _ in range(hands):
            hand = table.hand
            assert hand is not None
            paid.update(_blinds(table))
            dealt.update(table.seats[s].row.name for s in hand.seats)
            button = table.session["button"]
            end_hand(loop, table, {s: by_name[i.row.name] for s, i in table.seats.items()})
            mover = by_name["P0"]
            digest = table.seats[mover.seat].row.token_digest
            next_at = table.session.get("seat_moved", {}).get(digest, 0)
            if button == mover.seat and table.session["hand_no"] >= next_at:
                to = next(t % seats for t in range(mover.seat + 1, mover.seat + seats)
                          if t % seats not in table.seats)
                send(loop, table, mover, "seat_change", seat=to)
                assert errors(mover) == []
            loop.advance(600.0)
        assert sum(row.row.stack for row in table.seats.values()) == total  # (conserved)
    return paid, dealt


def test_the_big_blind_seat_is_the_second_on_the_buttons_left_heads_up_the_other() -> None:
    assert big_blind_seat([0, 2, 5], 0) == 5
    assert big_blind_seat([0, 2, 5], 2) == 0
    assert big_blind_seat([0, 2, 5], 5) == 2
    assert big_blind_seat([1, 4, 5, 6], 6) == 4
    assert big_blind_seat([3, 6], 3) == 6 and big_blind_seat([3, 6], 6) == 3


def test_moving_left_after_each_button_hand_no_longer_skips_the_blinds() -> None:
    for seats, players, hands in ((7, 3, 36), (6, 4, 36)):
        paid, dealt = _dodge(seats, players, hands)
        stayers = [f"P{n}" for n in range(1, players)]
        # the mover posts as many blind chips as each player who stays (before the
        # fix, P0 27 to P1 36 and P2 45 at 7 seats; 23 to 27, 34, 24 at 6)
        each = {7: 36, 6: 27}[seats]
        assert dict(paid) == {p: each for p in ["P0", *stayers]}, (seats, paid)
        # at 7 seats each move makes P0 the big blind at once; at 6, P0 waits
        # out 6 hands in all for it
        assert dealt["P0"] == {7: 36, 6: 30}[seats]
        assert all(dealt[p] == hands for p in stayers)


def test_a_move_past_the_big_blind_waits_for_it_and_the_others_are_told() -> None:
    with virtual_server() as (loop, store):
        table, _host, people = _table(loop, store, 7, 3)
        assert table.session["button"] == 0  # hand 1: button P0, blinds P1 and P2
        end_hand(loop, table, people)
        # P1 would have the button in hand 2 and the big blind in hand 3; P2 the
        # big blind in hand 4, from seat 3 or any seat on its left
        assert table.views.you(1, False)["moves_wait"] == [3, 4, 5, 6]
        assert table.views.you(2, False)["moves_wait"] == []
        # P1 would have the button in hand 2 and the big blind in hand 3; in seat 4
        # the big blind reaches them only after it went round: they wait for it
        send(loop, table, people[1], "seat_change", seat=3)
        assert errors(people[1]) == [] and table.seats[3].row.name == "P1"
        assert table.table_public()["bb_wait"] == [3]
        assert table.session["chat"][-1]["text"] == (
            "P1 moved from seat 2 to seat 4. P1 is dealt in when the big blind "
            "reaches seat 4.")
        loop.advance(600.0)  # hand 2: P0 and P2 heads-up, button P2, big blind P0
        assert table.hand is not None and sorted(table.hand.seats) == [0, 2]
        assert _blinds(table) == {"P2": 1, "P0": 2}
        told = table.views.you(3, False)
        assert told["next_hand"] == "You are dealt in when the big blind reaches seat 4."
        end_hand(loop, table, people | {3: people[1]})
        loop.advance(600.0)  # hand 3: button P0, small blind P2, big blind P1 in seat 4
        assert sorted(table.hand.seats) == [0, 2, 3] and table.session["button"] == 0
        assert _blinds(table) == {"P2": 1, "P1": 2}
        assert table.table_public()["bb_wait"] == []


def test_moves_towards_the_blinds_before_the_first_hand_or_in_ante_games_owe_nothing() -> None:
    with virtual_server() as (loop, store):
        table, _host, people = _table(loop, store, 7, 3)
        end_hand(loop, table, people)
        # P2 posts the big blind in hand 4 from seat 3 and from seat 4 alike
        send(loop, table, people[2], "seat_change", seat=3)
        assert errors(people[2]) == [] and table.table_public()["bb_wait"] == []
        assert table.session["chat"][-1]["text"] == "P2 moved from seat 3 to seat 4."
        loop.advance(600.0)
        assert sorted(table.hand.seats) == [0, 1, 3]
        assert _blinds(table) == {"P2": 1, "P0": 2}
    with virtual_server() as (loop, store):
        table, host, people = people_table(loop, store, seats=7, start=False, bots=4,
                                           **WAIT)
        for seat in range(3, 7):
            send(loop, table, host, "host", op="remove", seat=seat)
        send(loop, table, people[1], "seat_change", seat=5)  # (no hand dealt yet)
        assert errors(people[1]) == [] and table.table_public()["bb_wait"] == []
        send(loop, table, host, "start")
        loop.advance(0.1)
        assert sorted(table.hand.seats) == [0, 2, 5]
    with virtual_server() as (loop, store):
        table, _host, people = _table(loop, store, 7, 3, game="sdr")
        end_hand(loop, table, people)
        send(loop, table, people[1], "seat_change", seat=3)  # (antes only: no blinds)
        assert errors(people[1]) == [] and table.table_public()["bb_wait"] == []
        loop.advance(600.0)
        assert sorted(table.hand.seats) == [0, 2, 3]


def test_at_dealers_choice_the_wait_counts_by_seat_and_an_ante_only_choice_owes_nothing() -> None:
    with virtual_server() as (loop, store):
        table, _host, people = _table(loop, store, 7, 3, game="dealers-choice",
                                      choices=["holdem", "razz"])
        send(loop, table, people[0], "choose_game", 1, game="holdem")  # (P0 has the button)
        loop.advance(0.1)
        end_hand(loop, table, people)
        send(loop, table, people[1], "seat_change", seat=3)  # (holdem has blinds: waits)
        assert table.table_public()["bb_wait"] == [3]
        assert seat_moves.skipping_moves(table, [3], [4, 5, 6]) == {3: []}  # (waits on)
        loop.advance(600.0)  # hand 2 offered to P0 and P2 alone; P2 names it
        assert table.session["choice"]["players"] == [0, 2]
        send(loop, table, people[2], "choose_game", 2, game="holdem")
        loop.advance(0.1)
        assert sorted(table.hand.seats) == [0, 2]
        end_hand(loop, table, people | {3: people[1]})
        loop.advance(600.0)  # hand 3: the big blind's seat is P1's: offered with P1 in
        assert table.session["choice"] == table.session["choice"] | {
            "seat": 0, "players": [0, 2, 3]}
        send(loop, table, people[0], "choose_game", 3, game="razz")  # (antes: P1 pays one)
        loop.advance(0.1)
        assert sorted(table.hand.seats) == [0, 2, 3]
        assert table.table_public()["bb_wait"] == []
    with virtual_server() as (loop, store):
        table, _host, people = _table(loop, store, 7, 3, game="dealers-choice",
                                      choices=["sdr", "rollyourown"])
        send(loop, table, people[0], "choose_game", 1, game="sdr")
        loop.advance(0.1)
        assert table.hand is not None and table.session["hand_no"] == 1
        # (P1 would wait moving to any free seat at a table with blinds: above)
        assert seat_moves.skipping_moves(table, [1], [3, 4, 5, 6]) == {1: []}
