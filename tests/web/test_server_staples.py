"""Straddles and bomb pots at the web table (issue 27), on a virtual clock.

A player's ``straddle`` message is honoured at the next deal where the table's
``straddle`` setting lets their seat; the host's ``bomb_pot`` op makes the next
hand a bomb pot (every player antes, round 1 skipped), ``bomb_pot_every``
every N-th; in dealer's choice the chooser's game is used (a game that cannot
have one is dealt as usual and the call waits). Each survives a restart mid-hand.
"""

from __future__ import annotations

from typing import Any

from test_dealers_choice_seats import errors, send
from test_table_bots import virtual_server
from virtual_table import VirtualLoop

from rollem.server.config import parse_config
from rollem.server.live_table import Client, LiveTable
from rollem.server.store import Store


def people_table(loop: VirtualLoop, store: Store, seats: int = 4, start: bool = True,
                 **extra: Any) -> tuple[LiveTable, Client, dict[int, Client]]:
    """A hold'em table of people P0.. in every seat but the last ``bots`` (computer
    players'; blinds 1 and 2, stack 400)."""
    config = parse_config({
        "game": "holdem", "seats": seats, "bots": 0, "stack": 400, "small_bet": 2,
        "big_bet": 4, "decision_seconds": 600.0, "time_bank_seconds": 0.0,
        "grace_seconds": 1000.0, "between_hands": 0.5, **extra,
    })
    table, _ = loop.call(LiveTable.create, store, config)
    host = Client(None, True)
    loop.call(table.connect, host)
    people = {}
    for seat in range(seats - int(extra.get("bots", 0))):
        _, token = loop.call(table.join, f"P{seat}", seat)
        people[seat] = Client(table.seat_for_token(token))
        loop.call(table.connect, people[seat])
    if start:
        send(loop, table, host, "start")
        loop.advance(0.1)
    return table, host, people


def kinds(table: LiveTable) -> list[tuple[str, Any, Any]]:
    assert table.hand is not None
    return [(e.kind, e.seat, e.data.get("round", e.data.get("blind")))
            for e in table.hand.hand.events if e.kind in ("blind", "round", "bomb_pot")]


def fold_out(loop: VirtualLoop, table: LiveTable, people: dict[int, Client]) -> None:
    """Everyone to act folds until the hand in play ends; the next is dealt."""
    assert table.hand is not None
    hand_no = table.hand.hand_no
    while table.hand is not None and table.hand.hand_no == hand_no:
        [seat] = table.hand.pending_seats()
        send(loop, table, people[seat], "action", hand_no, action={"kind": "fold"})
    loop.advance(1.0)
    assert table.hand is not None and table.hand.hand_no == hand_no + 1


def restarted(loop: VirtualLoop, store: Store, table: LiveTable,
              clients: list[Client]) -> LiveTable:
    """The server stops and starts again; the ``clients`` connect again."""
    table.shutdown()
    again: LiveTable = loop.call(LiveTable.restore, store, table.id)
    loop.call(again.resume)
    for client in clients:
        client.closed = False
        loop.call(again.connect, client)
    return again


def test_a_straddle_chosen_before_the_deal_is_posted_and_acts_last() -> None:
    with virtual_server() as (loop, store):
        table, host, people = people_table(loop, store, start=False, straddle="optional")
        send(loop, table, people[3], "straddle", on=True)
        send(loop, table, people[1], "straddle", on=True)  # (a blind: not its turn)
        assert table.table_public()["straddlers"] == [1, 3]
        send(loop, table, host, "start")
        loop.advance(0.1)
        # button 0: blinds 1 and 2, seat 3 straddles 4; seat 0 (its left) acts first
        assert kinds(table) == [("blind", 1, "small blind"), ("blind", 2, "big blind"),
                                ("blind", 3, "straddle"), ("round", 0, "preflop")]
        assert table.hand is not None and table.hand.hand.committed == [0, 1, 2, 4]
        assert table.hand.setup["options"]["straddlers"] == [1, 3]
        assert table.hand.setup["options"]["straddle_rule"] == "optional"
        before = list(table.hand.hand.events)
        table = restarted(loop, store, table, [host, *people.values()])
        assert table.hand is not None
        assert list(table.hand.hand.events) == before
        for seat in (0, 1, 2):
            send(loop, table, people[seat], "action", table.hand.hand_no,
                 action={"kind": "call"})
        assert table.hand.pending_seats() == [3]  # the straddler: last, with the option
        assert "check" in table.hand.hand.legal_actions(3).actions
        send(loop, table, people[3], "straddle", on=False)
        assert table.table_public()["straddlers"] == [1]


def test_straddles_refused_where_the_table_has_none() -> None:
    with virtual_server() as (loop, store):
        table, host, people = people_table(loop, store)
        send(loop, table, people[0], "straddle", on=True)
        assert errors(people[0]) == ["no_straddle"]
        send(loop, table, people[0], "straddle", on="yes")
        assert errors(people[0]) == ["malformed"]
        send(loop, table, host, "host", op="config", config={"straddle": "always"})
        assert errors(host) == ["bad_config"]
        send(loop, table, host, "host", op="config", config={"bomb_pot_every": 101})
        assert errors(host) == ["bad_config"]
        assert table.table_public()["straddlers"] == []


def test_a_bomb_pot_called_by_the_host_skips_round_one() -> None:
    with virtual_server() as (loop, store):
        table, host, people = people_table(loop, store, bomb_pot_ante=10)
        send(loop, table, host, "host", op="bomb_pot")
        assert table.table_public()["bomb_pot_next"]
        fold_out(loop, table, people)
        hand = table.hand
        assert hand is not None and hand.setup["options"]["bomb_pot"] == 10
        assert hand.hand.committed == [10, 10, 10, 10]
        assert kinds(table) == [("bomb_pot", None, "preflop"), ("round", 2, "flop")]
        assert len(hand.hand.board) == 3
        assert not table.session["bomb_pot_next"]
        before = list(hand.hand.events)
        # a restart mid-hand: the same bomb pot
        table = restarted(loop, store, table, [host, *people.values()])
        assert table.hand is not None
        assert list(table.hand.hand.events) == before
        assert sum(table.hand.hand.stacks) + sum(table.hand.hand.committed) == 1600
        fold_out(loop, table, people)
        assert table.hand is not None and "bomb_pot" not in table.hand.setup["options"]


def test_every_n_hands_at_a_dealers_choice_uses_the_choosers_game() -> None:
    """Every 2 hands: hand 2 (hold'em, named by the button) is a bomb pot of
    twice the big blind; hand 4, stud, is not."""
    with virtual_server() as (loop, store):
        table, _host, people = people_table(
            loop, store, seats=3, game="dealers-choice", choices=["holdem", "stud"],
            bomb_pot_every=2)
        bombs = []
        for no, game in enumerate(["holdem", "holdem", "stud", "stud"], start=1):
            choice = table.session["choice"]
            assert choice is not None and choice["hand"] == no
            send(loop, table, people[choice["seat"]], "choose_game", no, game=game)
            assert table.hand is not None and table.hand.game == game
            bombs.append(table.hand.setup["options"].get("bomb_pot", 0))
            while table.hand is not None and table.hand.hand_no == no:
                [seat] = table.hand.pending_seats()
                legal = table.hand.hand.legal_actions(seat)
                kind = "check" if "check" in legal.actions else "fold"
                if legal.forced == "bring-in":
                    kind = "call"
                send(loop, table, people[seat], "action", no, action={"kind": kind})
            loop.advance(1.0)
        assert bombs == [0, 4, 0, 0]


def test_a_bot_session_with_every_staple_at_once_keeps_every_chip() -> None:
    """60 hands at 4 seats (tests/web/staples_session.py: 2 people who always
    straddle when they may, call and agree to run it twice, one of whom walks off
    for a few hands and comes back; 2 random computer players), Mississippi
    straddles, run it twice and a bomb pot every 5 hands: after every hand the
    stored stacks add up to the chips brought, every hand's net is zero; hands
    5, 10, ... are bomb pots, straddles are posted, hands are run twice, the
    walker is made away by the clock and comes back."""
    from staples_session import staples_session

    with virtual_server() as (loop, store):
        _table, seen = staples_session(loop, store, 60)
    assert seen.balanced == list(range(1, 61))
    assert seen.bombs == list(range(5, 61, 5))
    assert seen.straddles > 0 and seen.run_twice > 0
    assert seen.back >= 2 and 0 < seen.away < 30


def _all_in(loop: VirtualLoop, table: LiveTable, people: dict[int, Client]) -> int:
    """The player to act moves in, the others call: returns the hand number."""
    assert table.hand is not None
    no = table.hand.hand_no
    [first] = table.hand.pending_seats()
    send(loop, table, people[first], "action", no, action={"kind": "raise", "to": 400})
    while table.hand is not None and table.hand.hand.pending is not None \
            and table.hand.hand.pending.kind == "bet":
        [seat] = table.hand.pending_seats()
        send(loop, table, people[seat], "action", no, action={"kind": "call"})
    return no


def test_run_it_twice_when_all_agree_and_once_when_the_clock_says_no() -> None:
    with virtual_server() as (loop, store):
        table, host, people = people_table(loop, store, seats=3, structure="no-limit",
                                           run_twice=True)
        no = _all_in(loop, table, people)
        assert table.hand is not None and table.hand.hand.pending is not None
        assert table.hand.hand.pending.kind == "run_twice"
        assert sorted(table.hand.pending_seats()) == [0, 1, 2]
        legal = table.hand.view(0)["legal"]
        assert legal["kind"] == "run_twice" and legal["actions"] == ["run_twice"]
        send(loop, table, people[0], "action", no, action={"kind": "run_twice", "agree": "y"})
        assert errors(people[0]) == ["malformed"]
        send(loop, table, people[0], "action", no, action={"kind": "run_twice", "agree": True})
        send(loop, table, people[1], "action", no, action={"kind": "run_twice", "agree": True})
        # another seat's choice is not shown before everyone has chosen
        import json

        assert "rit" not in json.dumps(table.hand.view(2)["events"])
        assert "rit yes" in json.dumps(table.hand.view(1)["events"])
        table = restarted(loop, store, table, [host, *people.values()])  # mid-choice
        assert table.hand is not None and table.hand.pending_seats() == [2]
        send(loop, table, people[2], "action", no, action={"kind": "run_twice", "agree": True})
        hand = table.final_hand
        assert hand is not None and hand.hand_no == no
        runs = hand.hand.extra["run_twice"]["runs"]
        assert len(runs) == 2 and runs[0]["board"] != runs[1]["board"]
        assert sum(p["amount"] for r in runs for p in r["pots"]) == 1200
        assert sum(r.stack for r in store.load_seats(table.id)) == 1200
        # Another table: nobody answers, the clock says no for all: run once.
        table, host, people = people_table(loop, store, seats=3, structure="no-limit",
                                           run_twice=True)
        no = _all_in(loop, table, people)
        loop.advance(700.0)
        assert table.final_hand is not None and table.final_hand.hand_no == no
        info = table.final_hand.hand.extra["run_twice"]
        assert not info["agreed"] and "runs" not in info
