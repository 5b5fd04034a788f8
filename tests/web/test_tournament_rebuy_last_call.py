"""A heads-up bust while rebuys are open at a web tournament (stop 50): the
busted person gets a last call for a rebuy (60 s, on the table's clock) that
the felt's waiting line names; a rebuy within it deals on, and at its end the
tournament ends with the places by bust order and the pool of every rebuy.
Before, the bust ended the tournament at once."""

from __future__ import annotations

from test_table_bots import virtual_server
from test_tournament_server import _send, _step
from virtual_table import VirtualLoop, seat_people

from rollem.server.config import parse_config
from rollem.server.live_table import Client, LiveTable
from rollem.server.live_table.errors import TableError
from rollem.server.live_table.tourney import Tourney
from rollem.server.protocol import ClientMessage
from rollem.server.store import Store

LONG = """
stack = 60
[[levels]]
ante = 1
small_bet = 2
big_bet = 4
minutes = 20
[[levels]]
ante = 2
small_bet = 4
big_bet = 8
minutes = 20
"""
"""Two 20-minute levels: rebuys (the first level) stay open through the test."""


def _ask_rebuy(loop: VirtualLoop, table: LiveTable, person: Client) -> None:
    """``person`` asks for a rebuy (the message the Rebuy button sends)."""
    loop.call(table.messages.dispatch, person, ClientMessage("rebuy", None, table.seq, {}))


def _decline(loop: VirtualLoop, table: LiveTable, person: Client) -> None:
    """``person`` says no rebuy (the message the "No rebuy: I'm out" button sends)."""
    loop.call(table.messages.dispatch, person,
              ClientMessage("rebuy", None, table.seq, {"decline": True}))


def _play_to_a_bust(loop: VirtualLoop, store: Store,
                    seats: int) -> tuple[LiveTable, list[Client], float]:
    """``seats`` people, an SDR tournament of 10 a buy-in with rebuys in the first
    level, played (bets and raises) until one busts; returns the table, the
    people and the virtual time play started."""
    config = parse_config({
        "game": "sdr", "seats": seats, "bots": 0, "decision_seconds": 600.0,
        "time_bank_seconds": 0.0, "grace_seconds": 1000.0, "between_hands": 0.5,
        "bot_delay": 0.0, "tournament": "custom", "tournament_schedule": LONG,
        "buy_in": 10, "rebuy_levels": 1})
    table, _ = loop.call(LiveTable.create, store, config)
    people = seat_people(loop, table, seats)
    loop.call(table.handle, people[0], ClientMessage("start", None, table.seq, {}))
    state = table.session["tournament"]
    start = loop.now
    while not state["busts"] or table.hand is not None:
        assert loop.now < start + 600
        _step(loop, table, people)
    return table, people, start


def _heads_up_bust(loop: VirtualLoop, store: Store) -> tuple[LiveTable, list[Client], int]:
    """Two people played to a bust (:func:`_play_to_a_bust`); returns the busted seat."""
    table, people, _ = _play_to_a_bust(loop, store, 2)
    busted = int(table.session["tournament"]["busts"][0][1])
    return table, people, busted


def test_a_heads_up_bust_gets_a_last_call_and_a_rebuy_within_it_deals_on() -> None:
    with virtual_server() as (loop, store):
        table, people, busted = _heads_up_bust(loop, store)
        state = table.session["tournament"]
        assert not state["over"]  # (before: over at the bust)
        call = state["last_call"]
        assert call is not None and call["seats"] == [busted]
        assert 59.5 < call["until"] - loop.now < Tourney.REBUY_LAST_CALL + 0.01
        assert table.dealer.waiting_for() == (f"Last call for a rebuy: P{busted} has 60 s "
                                              "to rebuy; then the tournament ends.")
        public = table.tourney.public()
        assert public is not None and public["last_call"]["seats"] == [busted]
        # stop 52: not placed while free to rebuy (main: {winner: ..., busted: 2})
        assert public["places"] == {}
        assert [line["place"] for line in public["ledger"]] == [None, None]
        assert public["last_call"]["who"] == f"P{busted}"
        assert public["last_call"]["held_by"] is None
        assert public["last_call"]["until"] == call["until"]  # (the felt counts down to it)
        loop.advance(17.5)
        assert table.dealer.waiting_for() == (f"Last call for a rebuy: P{busted} has 43 s "
                                              "to rebuy; then the tournament ends.")
        assert table.state(busted)["you"]["rebuy_closed"] is None  # (a Rebuy button)
        loop.advance(12.5)
        assert not state["over"] and table.hand is None
        _ask_rebuy(loop, table, people[busted])
        assert table.seats[busted].row.stack == 60
        assert state["last_call"] is None and state["rebuys"] == {str(busted): 1}
        dealt = int(table.session["hand_no"])
        start = loop.now
        while int(table.session["hand_no"]) == dealt:
            assert loop.now < start + 10
            _step(loop, table, people)
        public = table.tourney.public()
        assert public is not None and public["prize_pool"] == 30 and not public["over"]
        loop.advance(60)  # the old last call's time: nothing ends
        assert not state["over"]
        loop.call(table.shutdown)


def test_nobody_rebuys_in_the_last_call_and_the_tournament_ends_at_60_s() -> None:
    with virtual_server() as (loop, store):
        table, _, busted = _heads_up_bust(loop, store)
        state = table.session["tournament"]
        winner = 1 - busted
        loop.advance(Tourney.REBUY_LAST_CALL - 1)
        assert not state["over"] and state["last_call"] is not None
        public = table.tourney.public()
        assert public is not None and public["places"] == {}  # (main: {busted: 2})
        loop.advance(2)
        assert state["over"] and state.get("last_call") is None
        assert state["declined"] == [busted]
        public = table.tourney.public()
        assert public is not None
        assert public["places"] == {str(winner): 1, str(busted): 2}
        assert public["prize_pool"] == 20 and public["payouts"] == {str(winner): 20,
                                                                     str(busted): 0}
        assert table.dealer.waiting_for() == "The tournament is over."
        loop.call(table.shutdown)


def test_a_restored_table_ends_the_last_call_at_its_time() -> None:
    with virtual_server() as (loop, store):
        table, _, busted = _heads_up_bust(loop, store)
        until = float(table.session["tournament"]["last_call"]["until"])
        loop.call(table.shutdown)
        loop.advance(10)
        again = loop.call(LiveTable.restore, store, table.id)
        loop.call(again.resume)
        state = again.session["tournament"]
        assert state["last_call"]["until"] == until and not state["over"]
        loop.advance(until - loop.now + 1)
        assert state["over"] and state["declined"] == [busted]
        loop.call(again.shutdown)


def test_a_computer_player_busted_heads_up_declines_and_it_ends_at_once() -> None:
    """At a web tournament computer players never rebuy: one busted heads-up
    declines at its bust, so there is no last call and the person wins."""
    with virtual_server() as (loop, store):
        config = parse_config({
            "game": "sdr", "seats": 2, "bots": 1, "bot_level": "random",
            "decision_seconds": 600.0, "grace_seconds": 1000.0, "between_hands": 30.0,
            "bot_delay": 0.0, "tournament": "custom", "tournament_schedule": LONG,
            "buy_in": 10, "rebuy_levels": 1})
        table, _ = loop.call(LiveTable.create, store, config)
        people = seat_people(loop, table, 1)
        loop.call(table.handle, people[0], ClientMessage("start", None, table.seq, {}))
        bot = next(s for s in table.seats if s != 0)
        assert table.seats[bot].row.bot is not None
        while table.hand is not None:  # (the first hand, then 30 s between hands)
            _step(loop, table, people)
        before = table.tourney.stacks()
        table.seats[0].row.stack, table.seats[bot].row.stack = 120, 0  # (as if it lost all)
        session = table.dealer.session_table()
        assert session.tournament is not None
        session.tournament.record([max(1, c) for c in before], table.tourney.stacks())
        table.tourney.save(session)
        state = table.session["tournament"]
        assert state["over"] and state.get("last_call") is None
        assert state["declined"] == [bot]
        public = table.tourney.public()
        assert public is not None and public["places"] == {"0": 1, str(bot): 2}
        assert public["payouts"] == {"0": 20, str(bot): 0}
        loop.call(table.shutdown)


def test_the_hosts_pause_holds_the_last_call() -> None:
    """The host pauses during the last call: its time stands (as a deal's answer
    time does) and runs on from where it stood at the resume."""
    with virtual_server() as (loop, store):
        table, people, busted = _heads_up_bust(loop, store)
        state = table.session["tournament"]
        loop.advance(20)
        _send(loop, table, people[0], "host", op="pause")
        assert state["last_call"]["until"] is None
        assert 39.5 < state["last_call"]["held_left"] < 40.5
        public = table.tourney.public()
        assert public is not None and public["last_call"]["held_by"] == "pause"
        assert table.tourney.last_call_words() == (
            f"Last call for a rebuy: P{busted} has 40 s to rebuy, held while the host "
            "pauses the table; then the tournament ends.")
        loop.advance(300)
        assert not state["over"]
        _send(loop, table, people[0], "host", op="resume")
        loop.advance(39)
        assert not state["over"] and state["last_call"]["seats"] == [busted]
        loop.advance(2)
        assert state["over"] and state["declined"] == [busted]
        loop.call(table.shutdown)


def _bust_seat_1(loop: VirtualLoop, store: Store) -> tuple[LiveTable, list[Client]]:
    """Two people at a heads-up SDR tournament whose host approves rebuys (P0 the
    host): after the first hand P1 is made to lose every chip (as the computer
    player's test does), so the last call is P1's, who must ask."""
    config = parse_config({
        "game": "sdr", "seats": 2, "bots": 0, "decision_seconds": 600.0,
        "time_bank_seconds": 0.0, "grace_seconds": 1000.0, "between_hands": 30.0,
        "bot_delay": 0.0, "tournament": "custom", "tournament_schedule": LONG,
        "buy_in": 10, "rebuy_levels": 1, "rebuy_approval": True})
    table, _ = loop.call(LiveTable.create, store, config)
    people = seat_people(loop, table, 2)
    loop.call(table.handle, people[0], ClientMessage("start", None, table.seq, {}))
    while table.hand is not None:  # (the first hand, then 30 s between hands)
        _step(loop, table, people)
    before = table.tourney.stacks()
    table.seats[0].row.stack, table.seats[1].row.stack = 120, 0
    session = table.dealer.session_table()
    assert session.tournament is not None
    session.tournament.record([max(1, c) for c in before], table.tourney.stacks())
    loop.call(table.tourney.save, session)  # (on the loop: it arms the call's timer)
    assert table.session["tournament"]["last_call"]["seats"] == [1]
    return table, people


def test_a_rebuy_asked_in_the_last_call_holds_it_until_the_host_approves() -> None:
    """Stop 51: at a table that approves rebuys, P1 asks 20 s into the last call and
    the host answers 100 s later, past the call's 60 s.  Before, the call ended at
    60 s with P1 declined and the tournament over, and the host's approval was then
    refused (``over``), the request left standing.  Now the request stops the
    call's time until the host answers: the approval is the rebuy, and play goes on."""
    with virtual_server() as (loop, store):
        table, people = _bust_seat_1(loop, store)
        state = table.session["tournament"]
        loop.advance(20)
        _ask_rebuy(loop, table, people[1])
        assert table.session["rebuy_requests"] == [1] and table.seats[1].row.stack == 0
        call = state["last_call"]
        assert call["until"] is None and 39.9 < call["held_left"] < 40.1
        assert table.dealer.waiting_for() == (
            "Last call for a rebuy: P1 has 40 s to rebuy, held until the host answers the "
            "rebuy; then the tournament ends.")
        public = table.tourney.public()
        assert public is not None and public["last_call"]["held_by"] == "request"
        loop.advance(100)
        assert not state["over"] and state["last_call"] is not None
        _send(loop, table, people[0], "host", op="approve_rebuy", seat=1)
        assert table.seats[1].row.stack == 60 and table.session["rebuy_requests"] == []
        assert state["last_call"] is None and state["rebuys"] == {"1": 1}
        assert not state["over"]
        public = table.tourney.public()
        assert public is not None and public["prize_pool"] == 30
        loop.advance(120)  # (no stale end of the call)
        assert not state["over"]
        loop.call(table.shutdown)


def test_the_host_declines_the_rebuy_and_the_last_call_runs_on() -> None:
    """The host declines a rebuy asked in the last call: its time runs on from the
    40 s it had left when asked; the host's pause meanwhile does not free it."""
    with virtual_server() as (loop, store):
        table, people = _bust_seat_1(loop, store)
        state = table.session["tournament"]
        loop.advance(20)
        _ask_rebuy(loop, table, people[1])
        _send(loop, table, people[0], "host", op="pause")
        _send(loop, table, people[0], "host", op="resume")  # (the request still stands)
        assert state["last_call"]["until"] is None
        assert table.tourney.last_call_held_by() == "request"
        loop.advance(200)
        _send(loop, table, people[0], "host", op="decline_rebuy", seat=1)
        assert state["last_call"]["until"] is not None
        assert table.dealer.waiting_for() == ("Last call for a rebuy: P1 has 40 s to "
                                              "rebuy; then the tournament ends.")
        loop.advance(39)
        assert not state["over"]
        loop.advance(2)
        assert state["over"] and state["declined"] == [1] and state.get("last_call") is None
        loop.call(table.shutdown)


def test_the_busted_player_says_no_rebuy_and_it_ends_at_once() -> None:
    """Stop 53: the busted player's "No rebuy: I'm out" (``"decline": true``) ends
    the last call and the tournament at once, placed as at the call's end (main:
    ``unknown_field``, the call ran its 60 s).  The winner, with chips, has no
    rebuy to decline: refused, nothing changes."""
    with virtual_server() as (loop, store):
        table, people, busted = _heads_up_bust(loop, store)
        state = table.session["tournament"]
        winner = 1 - busted
        loop.advance(5)
        try:
            _decline(loop, table, people[winner])
        except TableError as err:
            assert err.code == "no_rebuy", err
        else:
            raise AssertionError("the winner declined a rebuy")
        assert not state["over"] and state["last_call"]["seats"] == [busted]
        _decline(loop, table, people[busted])
        assert state["over"] and state.get("last_call") is None
        assert state["declined"] == [busted]
        public = table.tourney.public()
        assert public is not None
        assert public["places"] == {str(winner): 1, str(busted): 2}
        assert public["payouts"] == {str(winner): 20, str(busted): 0}
        assert table.dealer.waiting_for() == "The tournament is over."
        assert table.state(busted)["you"]["rebuy_closed"] == (
            "You finished 2nd.")  # (and its prize, 0: none said; "over": the panel's)
        loop.call(table.shutdown)


def test_a_bust_with_three_left_says_no_rebuy_and_is_placed_while_play_goes_on() -> None:
    """Three entrants, one busts while rebuys are open: declining places them at
    once (3rd) while the two left play on, and their page says why no Rebuy
    button shows; a rebuy afterwards is refused.  A cash game refuses the decline
    (``not_tournament``)."""
    with virtual_server() as (loop, store):
        table, people, start = _play_to_a_bust(loop, store, 3)
        state = table.session["tournament"]
        out = [int(b[1]) for b in state["busts"]]
        assert len(out) == 1 and state.get("last_call") is None, state["busts"]
        gone = out[0]
        assert table.tourney.public()["places"] == {}  # type: ignore[index]
        _decline(loop, table, people[gone])
        assert state["declined"] == [gone] and not state["over"]
        assert table.tourney.public()["places"] == {str(gone): 3}  # type: ignore[index]
        # (s62-night: the place, as the tile and the panel say it; main: "you are
        # out of the tournament", a friend in 3rd not told where they finished)
        assert table.state(gone)["you"]["rebuy_closed"] == (
            "You are out in 3rd place: you took no rebuy.")
        try:
            _ask_rebuy(loop, table, people[gone])
        except TableError as err:
            assert err.code == "no_rebuys", err
        else:
            raise AssertionError("a rebuy after the decline was made")
        assert table.seats[gone].row.stack == 0 and state["rebuys"] == {}
        hands = int(table.session["hand_no"])
        while int(table.session["hand_no"]) == hands:  # the two left play on
            assert loop.now < start + 700
            _step(loop, table, people)
        loop.call(table.shutdown)
    with virtual_server() as (loop, store):
        cash = parse_config({"game": "sdr", "seats": 2, "bots": 0})
        table, _ = loop.call(LiveTable.create, store, cash)
        people = seat_people(loop, table, 2)
        try:
            _decline(loop, table, people[0])
        except TableError as err:
            assert err.code == "not_tournament", err
        else:
            raise AssertionError("a cash game took a decline")
        loop.call(table.shutdown)


def test_the_last_call_names_several_players_in_a_sentence() -> None:
    """Stop 53 (s53-tidy): a last call of three read "Amy or Ben or Cat has 43 s";
    now "Amy, Ben and Cat have 43 s", two "Amy and Ben have", one "Amy has"; an
    entrant with no name kept is "seat 3" for index 2 (counted from 1)."""
    with virtual_server() as (loop, store):
        table, _, _ = _heads_up_bust(loop, store)
        state = table.session["tournament"]
        call = state["last_call"]
        call["until"] = loop.now + 42.5   # (whole seconds left, rounded up: 43)
        state["names"] = {"0": "Amy", "1": "Ben", "2": "Cat"}
        words = {}
        for seats in ([0, 1, 2], [0, 1], [1]):
            call["seats"] = seats
            words[len(seats)] = (table.dealer.waiting_for(),
                                 table.tourney.last_call_public()["who"])  # type: ignore[index]
        assert words == {
            3: ("Last call for a rebuy: Amy, Ben and Cat have 43 s to rebuy; then the "
                "tournament ends.", "Amy, Ben and Cat"),
            2: ("Last call for a rebuy: Amy and Ben have 43 s to rebuy; then the "
                "tournament ends.", "Amy and Ben"),
            1: ("Last call for a rebuy: Ben has 43 s to rebuy; then the tournament ends.",
                "Ben"),
        }
        del state["names"]["2"]
        assert table.tourney.entrant_name(2) == "seat 3"
        loop.call(table.shutdown)
