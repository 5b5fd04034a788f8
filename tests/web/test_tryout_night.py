"""What a try-out of a friend group's weekly night found (branch s49-tryout,
docs/dev/hostile.md): tournament night, the staples of a weekly game,
reconnection and the seams between them.  Each test fails on the code before
its fix."""

from __future__ import annotations

from typing import Any

import pytest
from test_table_bots import passive, virtual_server
from test_tournament_server import _send, _step, _table
from virtual_table import VirtualLoop, seat_people

from rollem.server import host
from rollem.server.budget import DiskBudget
from rollem.server.config import parse_config
from rollem.server.live_table import Client, LiveTable, TableError
from rollem.server.protocol import ClientMessage
from rollem.server.store import Store


def test_an_entrant_whose_phone_died_is_blinded_off_at_once_after_the_grace() -> None:
    """P1's page closes for good (a dead phone) in a turbo tournament.  The entrant
    keeps the seat and is dealt in, but each decision of theirs ran the whole
    clock (30 s, and the time bank once) for the rest of the tournament: about a
    hand a minute.  Now, once the grace period is over, P1 is marked away (as
    the clock's away mode marks an idle player) and their decisions are made at
    once; back on the page, **I'm back** deals them in to play again."""
    with virtual_server() as (loop, store):
        config = parse_config({
            "game": "sdr", "seats": 3, "bots": 1, "bot_level": "random",
            "decision_seconds": 30.0, "time_bank_seconds": 60.0, "grace_seconds": 120.0,
            "between_hands": 0.5, "bot_delay": 0.0, "tournament": "turbo"})
        table, _ = loop.call(LiveTable.create, store, config)
        people = seat_people(loop, table, 2)
        loop.call(table.handle, people[0], ClientMessage("start", None, table.seq, {}))
        loop.call(table.disconnect, people[1])
        start = loop.now
        while loop.now < start + 125:  # the grace period, and a little
            _step(loop, table, people[:1], passive)
        assert table.session["idle_away"] == [1] and table.session["sitting_out"] == [1]
        assert table.state(0)["table"]["idle_away"] == [1]  # (the felt: "away")
        assert table.state(1)["table"]["away_closed"] == [1]  # (the page says why)
        assert table.tourney.holds_entry(1)  # still an entrant, seat kept
        first = int(table.session["hand_no"])
        while loop.now < start + 185:  # a minute more: hands flow again
            _step(loop, table, people[:1], passive)
        last = int(table.session["hand_no"])
        assert last - first >= 10, (first, last)  # (before: 1 or 2 hands a minute)
        theirs = [a.source for h in range(first + 1, last)
                  for a in store.load_actions(table.id, h) if a.seat == 1]
        assert theirs and set(theirs) == {"timeout"}
        # Back: the page says "I'm back"; the seat plays again, its clock running
        loop.call(table.connect, people[1])
        _send(loop, table, people[1], "sit_out", out=False)
        assert table.session["idle_away"] == [] and table.session["sitting_out"] == []
        assert table.state(1)["table"]["away_closed"] == []
        while 1 not in table.decision_seq:
            _step(loop, table, people[:1], passive)
        assert table.hand is not None and 1 in table.hand.seats
        hand_no = table.hand.hand_no
        loop.advance(5)
        assert 1 in table.decision_seq and table.hand.hand_no == hand_no  # it waits for P1
        loop.call(table.shutdown)


def _three_friends(loop: VirtualLoop, store: Store) -> tuple[LiveTable, list[Client]]:
    """A cash table of three people, no computer players, the server's pace limits
    (5 s a hand no person played, dealing stopped after 10 minutes unplayed),
    started and played for 30 s; P0 hosts."""
    config = parse_config({"game": "sdr", "seats": 3, "bots": 0, "decision_seconds": 30.0,
                           "grace_seconds": 3600.0, "between_hands": 4.0})
    table, _ = loop.call(LiveTable.create, store, config)
    table.budget = DiskBudget(unattended_hand_seconds=5.0, unattended_seconds=600.0)
    people = seat_people(loop, table, 3)
    loop.call(table.handle, people[0], ClientMessage("start", None, table.seq, {}))
    start = loop.now
    while loop.now < start + 30 or table.hand is not None:
        _step(loop, table, people, passive)
    return table, people


@pytest.mark.parametrize("way", ["pause", "sit_out"])
def test_the_table_deals_again_after_a_break_of_a_quarter_of_an_hour(way: str) -> None:
    """Three friends take a 15-minute break: the host pauses the table, or each
    sits out.  Back (Resume, or I'm back), the table said "Dealing stopped: no
    person has played a hand for 10 minutes (computer players do not play on
    alone)" at a table with no computer player, and dealt nothing until the
    host found Deal now.  Now the host's Resume and a person's I'm back count as
    people playing, as a person sitting down does."""
    with virtual_server() as (loop, store):
        table, people = _three_friends(loop, store)
        if way == "pause":
            _send(loop, table, people[0], "host", op="pause")
        else:
            for client in people:
                _send(loop, table, client, "sit_out", out=True)
        loop.advance(15 * 60)
        if way == "pause":
            _send(loop, table, people[0], "host", op="resume")
        else:
            for client in people:
                _send(loop, table, client, "sit_out", out=False)
        hands = int(table.session["hand_no"])
        back = loop.now
        while loop.now < back + 30:
            _step(loop, table, people, passive)
        assert table.dealer.waiting_for() is None
        assert int(table.session["hand_no"]) >= hands + 3
        loop.call(table.shutdown)


def _shove(legal: dict[str, Any]) -> dict[str, Any] | None:
    """All in whenever a bet or raise may be made, else call or check."""
    acts = legal["actions"]
    if "raise" in acts:
        return {"kind": "raise", "to": legal["max_to"]}
    if "bet" in acts:
        return {"kind": "bet", "amount": legal["max_to"]}
    return passive(legal)


def _ann_and_computers(loop: VirtualLoop, store: Store,
                       seats: int) -> tuple[LiveTable, str, Client]:
    """A turbo no-limit hold'em tournament of Ann (seat 0, connected) and basic
    computer players in the other ``seats``, dealt; unattended after a minute.
    Returns the table, Ann's token and her client."""
    config = parse_config({
        "game": "holdem", "structure": "no-limit", "seats": seats, "bots": seats - 1,
        "bot_level": "basic", "decision_seconds": 30.0, "grace_seconds": 3600.0,
        "between_hands": 4.0, "bot_delay": 0.8, "tournament": "turbo"})
    table, _ = loop.call(LiveTable.create, store, config)
    table.budget = DiskBudget(unattended_hand_seconds=5.0, unattended_seconds=60.0)
    _, token = loop.call(table.join, "Ann", 0)
    ann = Client(table.seat_for_token(token), True)
    loop.call(table.connect, ann)
    loop.call(table.handle, ann, ClientMessage("start", None, table.seq, {}))
    return table, token, ann


def test_once_the_one_person_is_out_the_computer_players_are_placed_at_once() -> None:
    """Ann, the one person, is out early.  Before stop 56 the table stopped dealing
    when no person had played for the unattended time, and the tournament never
    ended; from stop 56 the computer players played it out, hand after hand, while
    a person had the page open (a host's night stood watching them).  Now
    (s63-table) the next deal after her bust ends it: the computer players left are
    placed by their chips, the chips as the last hand left them."""
    with virtual_server() as (loop, store):
        table, _token, ann = _ann_and_computers(loop, store, 4)
        state = table.session["tournament"]
        start = loop.now
        while table.seats[0].row.stack > 0 or table.hand is not None:
            assert loop.now < start + 600
            _step(loop, table, [ann], _shove)
        hands = int(table.session["hand_no"])
        chips = {s: table.seats[s].row.stack for s in range(4)}
        loop.advance(5.0)  # (the 4 s between hands)
        assert state["over"] and state["settled"]
        assert int(table.session["hand_no"]) == hands and table.hand is None
        assert sum(table.seats[s].row.stack for s in range(4)) == sum(chips.values()) + int(
            table.session.get("carried", 0))
        public = table.tourney.public()
        assert public is not None and sorted(public["places"].values()) == [1, 2, 3, 4]
        by_chips = sorted((s for s in range(1, 4) if chips[s]), key=lambda s: -chips[s])
        assert [public["places"][str(s)] for s in by_chips] == list(range(1, len(by_chips) + 1))
        assert public["payouts"] is not None and sum(public["payouts"].values()) == \
            public["prize_pool"]
        loop.call(table.shutdown)


def test_the_level_clock_stands_while_an_unwatched_tournament_deals_nothing() -> None:
    """With every page closed the tournament stops dealing (above); its level clock
    ran on, so a table left for an evening came back at level 9 with its blinds
    risen over hands never dealt.  Now the clock stands from the stop and runs
    again from the next deal."""
    with virtual_server() as (loop, store):
        table, token, ann = _ann_and_computers(loop, store, 3)
        loop.call(table.disconnect, ann)  # Ann closes the page at once
        loop.advance(300)
        assert table.dealer.waiting_for().startswith("Dealing stopped")  # type: ignore[union-attr]
        stood, level = table.tourney.clock_seconds(), table.tourney.public()["level"]
        assert 60 <= stood < 300 and not table.tourney.clock_running()
        loop.advance(3600)  # an hour with nobody there
        assert table.tourney.clock_seconds() == stood
        assert table.tourney.public()["level"] == level < 4
        ann = Client(table.seat_for_token(token), True)
        loop.call(table.connect, ann)  # back: dealt again, the clock runs from where it stood
        loop.advance(30)
        assert table.tourney.clock_running()
        assert stood < table.tourney.clock_seconds() <= stood + 30
        loop.call(table.shutdown)


def test_a_stranger_waiting_to_be_let_in_does_not_enter_the_tournament() -> None:
    """At a private tournament table Mallory sits down and waits for the host's Let
    in; the host deals.  Mallory became an entrant: a buy-in in the pool, dealt
    into every hand and blinded off, and the host could no longer remove her
    (``in_tournament``).  Now the start is refused while anyone waits, naming
    them; the field before the start lists only those let in."""
    with virtual_server() as (loop, store):
        config = parse_config({"game": "sdr", "seats": 4, "bots": 1, "tournament": "turbo",
                               "private": True, "buy_in": 10})
        table, _ = loop.call(LiveTable.create, store, config)
        _, token = loop.call(table.join, "Ann", 0)
        loop.call(host.after_join, table, 0, True)
        ann = Client(table.seat_for_token(token), True)
        loop.call(table.connect, ann)
        loop.call(table.join, "Mallory", 1, None, True)
        loop.call(host.after_join, table, 1, False)
        assert table.session["waiting"] == [1]
        public = table.tourney.public()
        assert public is not None and [row["name"] for row in public["ledger"]] == [
            "Ann", "Bot 1 (basic)"] and public["prize_pool"] == 20
        with pytest.raises(TableError, match="Mallory waits for you to let them in") as err:
            loop.call(table.messages.dispatch, ann, ClientMessage("start", None, table.seq, {}))
        assert err.value.code == "waiting" and not table.session.get("started")
        _send(loop, table, ann, "host", op="reject", seat=1)
        loop.call(table.handle, ann, ClientMessage("start", None, table.seq, {}))
        assert table.session["tournament"]["entrants"] == [0, 3]
        loop.advance(5)
        assert table.hand is not None and sorted(table.hand.seats) == [0, 3]
        loop.call(table.shutdown)


def test_a_busted_entrant_away_past_the_grace_keeps_the_seat_to_rebuy() -> None:
    """P1 busts while rebuys are open and closes the page (to fetch money, a phone
    that sleeps) for longer than the grace period: the seat was freed, and back at
    the table the rebuy was refused (``not_seated``) and sitting down again too
    (``tournament_started``).  Now a busted entrant who may still rebuy keeps the
    seat, as the docs say the busted do, and rebuys on return."""
    with virtual_server() as (loop, store):
        table, people = _table(loop, store, rebuy_levels=2, grace_seconds=5.0)
        state = table.session["tournament"]
        while not state["busts"]:
            _step(loop, table, people)
        busted = state["busts"][0][1]
        assert busted == 1 and table.tourney.public()["rebuy_open"]  # type: ignore[index]
        loop.call(table.disconnect, people[1])
        loop.advance(6)  # past the grace
        assert 1 in table.seats and table.seats[1].row.stack == 0
        loop.call(table.connect, people[1])
        loop.call(table.messages.dispatch, people[1], ClientMessage("rebuy", None, table.seq, {}))
        assert table.seats[1].row.stack == 60 and state["rebuys"] == {"1": 1}
        loop.call(table.shutdown)
