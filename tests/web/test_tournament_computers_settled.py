"""A tournament whose people are all out, with two or more computer players
left, ends at once (s63-table), on a virtual clock: the computer players left
are placed by their chips and paid by place, the chips are those of the last
hand (conserved), and no hand is dealt after the last person's bust.

Before: the computer players dealt on, hand after hand, with the pacing of a
table of people, and a host's night stood watching two bots heads-up."""

from __future__ import annotations

from typing import Any

from test_table_bots import virtual_server
from test_tournament_server import _step, _table

from rollem.server.live_table import LiveTable


def _folds(legal: dict[str, Any]) -> dict[str, Any] | None:
    """Check, else fold (a person waiting to be blinded off)."""
    acts = legal["actions"]
    return {"kind": "check"} if "check" in acts else {"kind": "fold"}


def _short_people(loop: Any, table: LiveTable, people: list[Any]) -> None:
    """After the first hand: the two people (seats 0-1) hold 1 chip each (the next
    ante), the two computer players the rest (240 in all, as dealt at the start)."""
    while table.hand is not None or int(table.session["hand_no"]) < 1:
        _step(loop, table, people, _folds)
    assert int(table.session.get("carried", 0)) == 0
    for seat, chips in ((0, 1), (1, 1), (2, 110), (3, 128)):
        table.seats[seat].row.stack = chips


def test_the_computer_players_left_are_placed_by_chips_once_every_person_is_out() -> None:
    with virtual_server() as (loop, store):
        table, people = _table(loop, store)
        _short_people(loop, table, people)
        start = loop.now
        t = table.session["tournament"]
        while table.seats[0].row.stack > 0 or table.seats[1].row.stack > 0:
            assert loop.now < start + 600, "the people never busted"
            assert not t["over"]
            _step(loop, table, people, _folds)
        hands = int(table.session["hand_no"])
        bots = {s: table.seats[s].row.stack for s in (2, 3)}
        assert min(bots.values()) > 0  # (two computer players left)
        loop.advance(5.0)  # (the pause between hands: the next deal is due)
        assert t["over"] and t["settled"]
        assert int(table.session["hand_no"]) == hands  # no hand dealt to nobody
        assert table.hand is None
        chips = {s: table.seats[s].row.stack for s in range(4)}
        assert sum(chips.values()) == 240 and table.session.get("carried", 0) == 0
        public = table.tourney.public()
        assert public is not None and public["over"] and public["settled"]
        assert not public["running"]
        places = {int(s): p for s, p in public["places"].items()}
        leader, other = sorted((2, 3), key=lambda s: -chips[s])
        assert places[leader] == 1 and places[other] == 2
        assert sorted(places[s] for s in (0, 1)) in ([3, 4], [3, 3])
        payouts = {int(s): v for s, v in public["payouts"].items()}
        assert payouts == {0: 0, 1: 0, leader: 26, other: 14}  # (65/35 of 40)
        assert table.dealer.waiting_for() == "The tournament is over."
        said = [line["text"] for line in table.session["chat"]]
        names = {s: table.seats[s].row.name for s in (2, 3)}
        assert said[-1] == (
            f"Every person is out: the computer players left are placed by their chips, "
            f"{names[leader]} 1st ({chips[leader]} chips) and {names[other]} 2nd "
            f"({chips[other]} chips), and the tournament is over.")
        # the busted people's docks say where they finished
        for s in (0, 1):
            assert table.state(s)["you"]["rebuy_closed"].startswith(
                f"You finished {places[s]}")
        loop.call(table.shutdown)


def test_computer_players_play_on_while_a_busted_person_may_rebuy() -> None:
    with virtual_server() as (loop, store):
        table, people = _table(loop, store, rebuy_levels=3)
        _short_people(loop, table, people)
        start = loop.now
        t = table.session["tournament"]
        while table.seats[0].row.stack > 0 or table.seats[1].row.stack > 0:
            assert loop.now < start + 100, "the people never busted"
            _step(loop, table, people, _folds)
        hands = int(table.session["hand_no"])
        loop.advance(5.0)
        assert not t["over"] and int(table.session["hand_no"]) > hands  # (they may come back)
        assert not table.tourney.computers_only()
        loop.call(table.shutdown)


def test_a_tournament_of_computer_players_only_plays_on() -> None:
    """No person entered (the host watches its bots): nobody is "out", it deals on."""
    with virtual_server() as (loop, store):
        table, _people = _table(loop, store)
        for s in (0, 1):  # (as if two computer players had entered there)
            table.seats[s].row.bot = "basic"
        assert not table.tourney.computers_only()
        loop.call(table.shutdown)
