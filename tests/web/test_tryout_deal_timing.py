"""What the try-out of stop 44 found in tournament deals (branch s44-tryout,
docs/dev/hostile.md): a deal proposed while the next hand was on its way (the
button naming the game of a dealer's choice, or the committed deal waiting for
the client seeds) was worked out at once from the stacks before that hand, the
hand was dealt all the same, and when every player left agreed during it the
tournament ended, prizes paid, with the hand still in play (its chips then moved
after the end).  Each test fails on the code before the fix."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from test_table_bots import passive, virtual_server
from test_tournament_server import SCHEDULE, _send, _step
from virtual_table import VirtualLoop, seat_people

from rollem.server.config import parse_config
from rollem.server.live_table import Client, LiveTable, TableError
from rollem.server.protocol import ClientMessage


@contextmanager
def _tournament(game: str, seed_wait: float = 0.0, payouts: list[int] | None = None
                ) -> Iterator[tuple[VirtualLoop, LiveTable, list[Client]]]:
    """A started 3-seat tournament of ``game`` for three people (seat 0 hosts),
    the committed deal waiting ``seed_wait`` seconds for client seeds (the people
    here send none); ``payouts``: the prize pool's percentages (default: the
    table's)."""
    with virtual_server() as (loop, store):
        LiveTable.CLIENT_SEED_WAIT = seed_wait  # (virtual_server puts it back)
        config = parse_config({
            "game": game, "seats": 3, "bots": 0, "decision_seconds": 30.0,
            "time_bank_seconds": 0.0, "grace_seconds": 1000.0, "between_hands": 0.5,
            "bot_delay": 0.0, "tournament": "custom",
            "tournament_schedule": SCHEDULE.replace("stack = 60", "stack = 900"),
            "buy_in": 10, "payouts": payouts or []})
        table, _ = loop.call(LiveTable.create, store, config)
        people = seat_people(loop, table, 3)
        loop.call(table.handle, people[0], ClientMessage("start", None, table.seq, {}))
        try:
            yield loop, table, people
        finally:
            loop.call(table.shutdown)


def _until(loop: VirtualLoop, what: object) -> None:
    for _ in range(200):
        if callable(what) and what():
            return
        loop.advance(0.05)
    raise AssertionError("never happened")


def _everyone_agrees_during_the_hand(loop: VirtualLoop, table: LiveTable,
                                     people: list[Client]) -> None:
    """The hand offered is dealt; each player's agreement while it is played is
    refused (nothing to agree to yet); at its end the shares are worked out from
    the stacks after it, and their agreement ends the tournament then."""
    state = table.session["tournament"]
    assert state["proposal"]["offer"] is None  # (before: shares worked out already)
    _until(loop, lambda: table.hand is not None)
    for client in people:
        with pytest.raises(TableError, match="worked out when the hand in play ends"):
            _send(loop, table, client, "deal", op="agree")
    assert not state.get("over")
    while table.hand is not None:
        _step(loop, table, people, passive)
    offer = state["proposal"]["offer"]
    stacks = [table.seats[s].row.stack for s in range(3)]
    assert offer is not None and sorted(offer) == ["0", "1", "2"]
    assert sum(stacks) == 2700 and stacks != [900, 900, 900]  # (the hand moved chips)
    for client in [c for c in people if c.seat not in state["proposal"]["agreed"]]:
        _send(loop, table, client, "deal", op="agree")
    assert state["over"] and table.hand is None
    loop.advance(5)
    assert table.hand is None and [table.seats[s].row.stack for s in range(3)] == stacks


def test_a_deal_proposed_while_the_button_names_the_game_waits_for_that_hand() -> None:
    """Dealer's choice: P1 proposes while P0 names the game of hand 1."""
    with _tournament("dealers-choice") as (loop, table, people):
        _until(loop, lambda: bool(table.session.get("choice")))
        chooser = int(table.session["choice"]["seat"])
        _send(loop, table, people[1], "deal", op="propose", method="icm")
        loop.call(table.handle, people[chooser], ClientMessage(
            "choose_game", table.session["choice"]["hand"], table.seq, {"game": "sdr"}))
        _everyone_agrees_during_the_hand(loop, table, people)


def test_a_deal_proposed_while_the_deal_waits_for_seeds_waits_for_that_hand() -> None:
    """The committed deal of hand 1 waits for the client seeds; P2 proposes then."""
    with _tournament("sdr", seed_wait=3.0) as (loop, table, people):
        _until(loop, lambda: bool(table.session.get("seeding")))
        _send(loop, table, people[2], "deal", op="propose", method="chip_chop")
        _everyone_agrees_during_the_hand(loop, table, people)


def test_a_deal_proposed_while_the_game_is_named_is_worked_out_if_no_hand_comes() -> None:
    """The hand being named never comes (the host took the named game off the
    list meanwhile: the choice lapses): the proposal is worked out then, as at a
    hand's end, and lapses in its time if unanswered (not a table waiting for ever)."""
    with _tournament("dealers-choice") as (loop, table, people):
        _until(loop, lambda: bool(table.session.get("choice")))
        chooser = int(table.session["choice"]["seat"])
        _send(loop, table, people[1], "deal", op="propose", method="icm")
        _send(loop, table, people[0], "host", op="config",
              config={"choices": ["rollyourown", "rollem521"]})
        loop.call(table.handle, people[chooser], ClientMessage(
            "choose_game", table.session["choice"]["hand"], table.seq, {"game": "sdr"}))
        state = table.session["tournament"]
        assert table.hand is None and not table.session.get("choice")
        assert state["proposal"]["offer"] == {"0": 10, "1": 10, "2": 10}
        loop.advance(table.tourney.DEAL_ANSWER_SECONDS + 1)
        assert state["proposal"] is None and not state.get("over")
        _until(loop, lambda: table.hand is not None or bool(table.session.get("choice")))


def test_an_answer_to_shares_no_longer_proposed_is_refused() -> None:
    """P0 proposes ICM and P1 is looking at its shares; P2 declines and proposes a
    chip-chop (other shares) before P1's **Agree** arrives.  The click carried no
    word of what it agreed to, so it agreed to the chip-chop P1 never saw.  Now
    the page sends the shares it showed (``offer``), and an answer to shares no
    longer proposed is refused (``offer_changed``, naming the shares now)."""
    with _tournament("sdr", payouts=[70, 30]) as (loop, table, people):
        state = table.session["tournament"]
        _until(loop, lambda: table.hand is not None)
        while table.hand is not None:
            _step(loop, table, people, passive)
        for seat, stack in zip(range(3), (2000, 500, 200), strict=True):
            table.seats[seat].row.stack = stack  # (as a few hands could leave them)
        _send(loop, table, people[0], "deal", op="propose", method="icm")
        icm = dict(state["proposal"]["offer"])
        _send(loop, table, people[2], "deal", op="decline", offer=icm)
        _send(loop, table, people[2], "deal", op="propose", method="chip_chop")
        chop = dict(state["proposal"]["offer"])
        assert chop != icm and sum(chop.values()) == sum(icm.values()) == 30
        with pytest.raises(TableError, match="the deal changed since you saw it") as err:
            _send(loop, table, people[1], "deal", op="agree", offer=icm)
        assert err.value.code == "offer_changed" and state["proposal"]["agreed"] == [2]
        for bad in ([1, 2], {"0": "ten"}, {"0": True}):
            with pytest.raises(TableError, match="'offer' must be the shares") as err:
                _send(loop, table, people[1], "deal", op="agree", offer=bad)
            assert err.value.code == "malformed"
        _send(loop, table, people[1], "deal", op="agree", offer=chop)
        assert sorted(state["proposal"]["agreed"]) == [1, 2]
        _send(loop, table, people[0], "deal", op="agree")  # (no offer: as before)
        assert state["over"]


def test_a_proposal_waiting_for_the_hand_in_play_stops_no_clock() -> None:
    """P1 proposes during hand 1, and the hand is played on for 20 s: the level
    clock stood still all that time (the hand was played, the blinds' time was
    not counted), so one proposal in every hand, each declined or lapsed, held
    the blinds at their level.  Now the clock stops only once the shares are
    worked out, when the hand ends (the table then deals nothing)."""
    with _tournament("sdr") as (loop, table, people):
        _until(loop, lambda: table.hand is not None)
        _send(loop, table, people[1], "deal", op="propose", method="icm")
        public = table.tourney.public()
        assert public is not None and public["running"]
        elapsed = float(public["elapsed"])
        loop.advance(20)  # (nobody acts: the 30 s decision clock runs)
        assert table.hand is not None and table.session["hand_no"] == 1
        assert table.tourney.clock_seconds() == pytest.approx(elapsed + 20, abs=0.5)
        while table.hand is not None:
            _step(loop, table, people, passive)
        public = table.tourney.public()
        assert public is not None and not public["running"]
        stood = table.tourney.clock_seconds()
        loop.advance(30)
        assert table.tourney.clock_seconds() == pytest.approx(stood)


def test_a_deals_answer_time_stops_while_the_host_pauses() -> None:
    """The host pauses the table to let the players think a deal over: every clock
    stopped but the deal's, which lapsed during the pause.  Now its answer time
    waits as the others do (also for a deal proposed during the pause), and runs
    on from where it stood at the resume."""
    with _tournament("sdr") as (loop, table, people):
        state = table.session["tournament"]
        _until(loop, lambda: table.hand is not None)
        while table.hand is not None:
            _step(loop, table, people, passive)
        _send(loop, table, people[1], "deal", op="propose", method="icm")
        loop.advance(30)
        _send(loop, table, people[0], "host", op="pause")
        loop.advance(table.tourney.DEAL_ANSWER_SECONDS * 3)
        assert state["proposal"] is not None and state["proposal"]["until"] is None
        _send(loop, table, people[0], "host", op="resume")
        loop.advance(table.tourney.DEAL_ANSWER_SECONDS - 30 - 1)
        assert state["proposal"] is not None
        loop.advance(2)
        assert state["proposal"] is None and not state.get("over")
        # Proposed (and worked out at once) while the table is paused between hands.
        _until(loop, lambda: table.hand is not None)
        while table.hand is not None:
            _step(loop, table, people, passive)
        _send(loop, table, people[0], "host", op="pause")
        _send(loop, table, people[2], "deal", op="propose", method="icm")
        assert state["proposal"]["offer"] is not None and state["proposal"]["until"] is None
        loop.advance(table.tourney.DEAL_ANSWER_SECONDS * 2)
        assert state["proposal"] is not None
        _send(loop, table, people[0], "host", op="resume")
        loop.advance(table.tourney.DEAL_ANSWER_SECONDS - 1)
        assert state["proposal"] is not None
        loop.advance(2)
        assert state["proposal"] is None
