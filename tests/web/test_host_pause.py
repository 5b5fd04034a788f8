"""The host's pause pauses (issue 27), on a virtual clock.

While the host has paused the table nothing moves: the open decision closes
with the time it had used kept, nobody acts (a player who tries is told
why), the clock acts for nobody and computer players wait; at resume the
decision reopens with exactly the time it had left, time bank included.  A
change of stakes the host makes while paused applies to the hand dealt at
resume, also at a dealer's choice whose game the button named before.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_dealers_choice_seats import errors, send
from test_table_bots import virtual_server
from virtual_table import VirtualLoop

from rollem.server.config import parse_config
from rollem.server.live_table import Client, LiveTable
from rollem.server.store import Store

DECISION, BANK = 5.0, 4.0


def holdem_table(loop: VirtualLoop, store: Store, bots: int = 0,
                 **extra: Any) -> tuple[LiveTable, Client, dict[int, Client]]:
    """A started 3-seat hold'em table of people P0.. (and ``bots`` computer
    players in the last seats) with a 5 s clock and a 4 s time bank."""
    config = parse_config({
        "game": "holdem", "seats": 3, "bots": bots, "bot_level": "random", "stack": 400,
        "small_bet": 2, "big_bet": 4, "decision_seconds": DECISION,
        "time_bank_seconds": BANK, "grace_seconds": 1000.0, "between_hands": 0.5,
        "bot_delay": 1.0, **extra,
    })
    table, _ = loop.call(LiveTable.create, store, config)
    host = Client(None, True)
    loop.call(table.connect, host)
    people = {}
    for seat in range(3 - bots):
        _, token = loop.call(table.join, f"P{seat}", seat)
        people[seat] = Client(table.seat_for_token(token))
        loop.call(table.connect, people[seat])
    send(loop, table, host, "start")
    loop.advance(0.1)
    assert table.hand is not None
    return table, host, people


def named_while_paused(loop: VirtualLoop, store: Store,
                       **extra: Any) -> tuple[LiveTable, Client, int]:
    """A started dealer's choice of hold'em and SDR, three people; the host pauses
    and the button names hold'em, held until resume.  Returns the table, the
    host's client and the hand's number."""
    config = parse_config({
        "game": "dealers-choice", "seats": 3, "bots": 0, "stack": 400, "ante": 1,
        "small_bet": 2, "big_bet": 4, "decision_seconds": 600.0,
        "time_bank_seconds": 0.0, "grace_seconds": 1000.0, "between_hands": 0.5,
        "choices": ["sdr", "holdem"], **extra,
    })
    table, _ = loop.call(LiveTable.create, store, config)
    host = Client(None, True)
    loop.call(table.connect, host)
    people = {}
    for seat in range(3):
        _, token = loop.call(table.join, f"P{seat}", seat)
        people[seat] = Client(table.seat_for_token(token))
        loop.call(table.connect, people[seat])
    send(loop, table, host, "start")
    loop.advance(0.1)
    chooser = int(table.session["choice"]["seat"])
    hand_no = int(table.session["choice"]["hand"])
    send(loop, table, host, "host", op="pause")
    send(loop, table, people[chooser], "choose_game", hand_no, game="holdem")
    return table, host, hand_no


def acted(table: LiveTable) -> int:
    assert table.hand is not None
    return len(table.hand.hand.actions)


def test_a_pause_mid_decision_freezes_the_clock_and_resume_gives_the_time_left() -> None:
    with virtual_server() as (loop, store):
        table, host, people = holdem_table(loop, store)
        hand_no = table.hand.hand_no  # type: ignore[union-attr]
        [seat] = table.hand.pending_seats()  # type: ignore[union-attr]
        loop.advance(2.0)
        used = loop.now - table.turns.decision_opened[seat]  # about 2 of the 5 s
        done = acted(table)
        send(loop, table, host, "host", op="pause")
        assert table.session["host_paused"] and table.decision_seq == {}
        assert table.session["held_used"] == pytest.approx(used)
        assert table.table_public()["seats"][seat]["deadline"] is None
        # A minute later: the clock has acted for nobody, and nobody may act.
        loop.advance(60.0)
        assert acted(table) == done and table.hand is not None
        assert table.hand.hand_no == hand_no
        send(loop, table, people[seat], "action", hand_no, action={"kind": "fold"})
        assert errors(people[seat]) == ["host_paused"]
        assert acted(table) == done
        # A restart during the pause: still no clock, the time used is kept.
        table.shutdown()
        table = loop.call(LiveTable.restore, store, table.id)
        loop.call(table.resume)
        host.closed = False
        loop.call(table.connect, host)
        # (the person's page comes back too: the time bank counts only while a
        # page of the seat is open, stop 57)
        people[seat].closed = False
        loop.call(table.connect, people[seat])
        loop.advance(30.0)
        assert acted(table) == done and table.decision_seq == {}
        # Resume: 3 s of the clock and the 4 s bank are left, not a fresh clock.
        resumed = loop.now
        send(loop, table, host, "host", op="resume")
        assert table.decision_seq.get(seat) is not None
        deadline = table.table_public()["seats"][seat]["deadline"]
        assert deadline == pytest.approx(resumed - used + DECISION)
        loop.advance(DECISION - used + BANK - 0.1)
        assert acted(table) == done  # (still the seat's to make)
        loop.advance(0.2)
        assert acted(table) == done + 1  # the clock acted, 7 s after resume
        assert table.hand.hand.actions[-1][0] == seat


def test_a_pause_holds_computer_players_and_a_repeated_pause_costs_nothing() -> None:
    with virtual_server() as (loop, store):
        table, host, people = holdem_table(loop, store, bots=2)
        person = people[0]
        for _ in range(400):  # until a computer player's decision has just opened
            pending = table.hand.pending_seats() if table.hand else []
            if pending == [0]:
                send(loop, table, person, "action", table.hand.hand_no,  # type: ignore[union-attr]
                     action={"kind": "fold"})
            elif pending and table.seats[pending[0]].row.bot is not None:
                break
            loop.advance(0.05)
        else:
            raise AssertionError("no computer player's turn came")
        done = acted(table)
        send(loop, table, host, "host", op="pause")
        send(loop, table, host, "host", op="pause")  # twice: still held, same time used
        loop.advance(30.0)
        assert acted(table) == done
        send(loop, table, host, "host", op="resume")
        loop.advance(1.05)  # the bot's 1 s delay, counted from its turn's start
        assert acted(table) >= done + 1


def test_a_change_made_while_paused_applies_to_the_hand_dealt_at_resume() -> None:
    """The reported case: dealer's choice, the button has named the game, the host
    pauses, switches to no limit and resumes: the next hand is no limit."""
    with virtual_server() as (loop, store):
        table, host, hand_no = named_while_paused(loop, store, structure="pot-limit")
        assert table.hand is None  # named, held until resume
        send(loop, table, host, "host", op="config", config={"structure": "no-limit"})
        send(loop, table, host, "host", op="resume")
        loop.advance(1.0)
        assert table.hand is not None and table.hand.hand_no == hand_no
        assert table.hand.hand.options.structure == "no-limit"
        assert table.config.structure == "no-limit"
        assert "config_next" not in table.session


def test_a_named_game_the_host_took_off_the_list_while_paused_is_offered_again() -> None:
    with virtual_server() as (loop, store):
        table, host, _hand_no = named_while_paused(loop, store)
        chooser = int(table.session["choice"]["seat"])
        send(loop, table, host, "host", op="config", config={"choices": ["sdr", "rollyourown"]})
        assert errors(host) == []
        send(loop, table, host, "host", op="resume")
        loop.advance(1.0)
        # Hold'em is no longer offered: the button names again among the new games.
        assert table.hand is None
        assert table.session["choice"]["games"] == ["sdr", "rollyourown"]
        assert int(table.session["choice"]["seat"]) == chooser  # the same button
        assert table.config.choices == ["sdr", "rollyourown"]


def test_away_mode_sits_out_a_person_the_clock_acted_for_twice_in_a_row() -> None:
    """Away mode (issue 27): two people who never act and one computer player;
    after 2 decisions in a row made by the clock a person is sat out and marked
    away (their later decisions in that hand time out at once) and is not dealt
    in again until they say they are back."""
    with virtual_server() as (loop, store):
        table, _host, people = holdem_table(loop, store, bots=1)
        assert table.config.away_after == 2
        for _ in range(400):
            if sorted(table.session.get("idle_away", [])) == [0, 1]:
                break
            loop.advance(0.5)
        assert sorted(table.session["idle_away"]) == [0, 1]
        assert sorted(table.session["sitting_out"]) == [0, 1]
        assert table.table_public()["idle_away"] == [0, 1]
        loop.advance(30.0)  # the hand ends; no new hand: only a computer player is in
        assert table.hand is None
        assert table.dealer.waiting_for() is not None
        # "I'm back": dealt in from the next hand, the streak starting again.
        send(loop, table, people[0], "sit_out", out=False)
        assert table.session["idle_away"] == [1] and 0 not in table.session["sitting_out"]
        assert table.table_public()["sitting_out"] == [1]
        assert "0" not in table.session.get("timeouts", {})
        loop.advance(5.0)
        assert table.hand is not None and sorted(table.hand.seats) == [0, 2]


def test_a_person_who_acts_between_timeouts_is_not_made_away() -> None:
    """Seat 1 lets the clock act, then acts itself, in turn: never 2 in a row,
    never away; seat 0 never acts and is made away."""
    with virtual_server() as (loop, store):
        table, _host, people = holdem_table(loop, store, bots=1)
        seen: set[int] = set()  # seat 1's decisions so far (by their decision seq)
        clock_turn = True
        for _ in range(4000):
            opened = table.decision_seq.get(1)
            if opened is not None and opened not in seen and table.hand is not None:
                seen.add(opened)
                clock_turn = not clock_turn
                if not clock_turn:
                    legal = table.hand.hand.legal_actions(1)
                    kind = "check" if "check" in legal.actions else "call"
                    send(loop, table, people[1], "action", table.hand.hand_no,
                         action={"kind": kind})
                    assert errors(people[1]) == []
            loop.advance(0.25)
            if len(seen) >= 6 and 0 in table.session.get("idle_away", []):
                break
        assert len(seen) >= 6
        assert table.session.get("idle_away") == [0]
        assert int(table.session.get("timeouts", {}).get("1", 0)) <= 1


def test_away_mode_can_be_turned_off() -> None:
    with virtual_server() as (loop, store):
        table, _host, _people = holdem_table(loop, store, bots=1, away_after=0)
        for _ in range(200):
            loop.advance(0.5)
        assert int(table.session["hand_no"]) >= 3  # dealt on and on: nobody made away
        assert table.session.get("idle_away", []) == []
        assert int(table.session["timeouts"]["0"]) >= 2


def test_a_seat_waits_through_the_hosts_pause_for_its_player() -> None:
    """Stop 53 (a game night's break): the host pauses mid-hand, Bob's phone
    sleeps (his page closed).  Before, the reconnect grace (120 s) ran out during
    the pause: his seat was marked gone and his decision timed out, while the
    table was paused.  Now the seat waits through the pause; once the table
    resumes, a grace period more and the seat is gone as usual."""
    with virtual_server() as (loop, store):
        table, host, people = holdem_table(loop, store, grace_seconds=120.0)
        send(loop, table, host, "host", op="pause")
        loop.call(table.disconnect, people[1])
        loop.advance(600)  # ten minutes of pizza
        assert 1 in table.seats and not table.seats[1].gone  # (main: gone at 120 s)
        assert table.hand is not None and table.session["host_paused"]
        people[1].closed = False
        loop.call(table.connect, people[1])  # back: plays on in his seat
        assert table.seats[1].disconnected_since is None
        loop.call(table.disconnect, people[1])
        loop.advance(200)
        assert 1 in table.seats and not table.seats[1].gone
        send(loop, table, host, "host", op="resume")
        loop.advance(125)  # a grace period after the resume at the most
        assert 1 not in table.seats or table.seats[1].gone
        loop.call(table.shutdown)
