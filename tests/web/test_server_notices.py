"""What the table tells one player about their own seat (issue 26), on a virtual
clock: why they wait for the next hand (``you.next_hand``: sat down during the
hand, bought chips again during it, back from sitting out), and that the host
removed them (an ``error`` message with code ``removed``: they were told nothing)."""

from __future__ import annotations

import json
from typing import Any

from test_dealers_choice_seats import choice_table, errors, send, sit
from test_table_bots import virtual_server

from rollem.server.host import REMOVED_AFTER_HAND, REMOVED_NOW
from rollem.server.live_table import Client, LiveTable
from rollem.server.live_table.views import NEXT_HAND, REBOUGHT, SAT_DOWN


def next_hand(table: LiveTable, client: Client) -> Any:
    told = json.loads(table.views.state_text(client.seat))["you"]["next_hand"]
    assert told == table.state(client.seat)["you"]["next_hand"]
    return told


def messages(client: Client) -> list[dict[str, Any]]:
    texts = [json.loads(text) for text, _ in client._pending]
    client._pending.clear()
    return texts


def test_a_rebuy_during_the_hand_is_not_told_as_sitting_down() -> None:
    """Before: "You sat down during this hand" after a Rebuy."""
    with virtual_server() as (loop, store):
        table, _, people = choice_table(loop, store, seats=4)
        chooser = int(table.session["choice"]["seat"])
        broke = (chooser + 1) % 3
        table.seats[broke].row.stack = 0  # lost it all in an earlier hand
        hand_no = int(table.session["choice"]["hand"])
        send(loop, table, people[chooser], "choose_game", hand_no, game="sdr")
        assert table.hand is not None and broke not in table.hand.seats
        assert next_hand(table, people[broke]) is None  # no chips: offered a rebuy
        errors(people[broke])
        send(loop, table, people[broke], "rebuy")
        assert errors(people[broke]) == [] and table.seats[broke].row.stack == 400
        assert next_hand(table, people[broke]) == REBOUGHT
        # someone who sits down now did sit down during the hand
        dan = sit(loop, table, "Dan", 3)
        assert next_hand(table, dan) == SAT_DOWN
        # the players dealt in, and a watcher, are told nothing
        assert next_hand(table, people[chooser]) is None
        assert next_hand(table, Client(None)) is None


def test_back_from_sitting_out_during_the_hand() -> None:
    with virtual_server() as (loop, store):
        table, _, people = choice_table(loop, store)
        chooser = int(table.session["choice"]["seat"])
        other = (chooser + 1) % 3
        send(loop, table, people[other], "sit_out", out=True)
        send(loop, table, people[chooser], "choose_game", int(table.session["choice"]["hand"]),
             game="sdr")
        assert table.hand is not None and other not in table.hand.seats
        assert next_hand(table, people[other]) is None  # its own notice: sitting out
        send(loop, table, people[other], "sit_out", out=False)
        assert next_hand(table, people[other]) == NEXT_HAND


def test_a_removed_player_is_told() -> None:
    with virtual_server() as (loop, store):
        table, host, people = choice_table(loop, store)
        chooser = int(table.session["choice"]["seat"])
        other = (chooser + 1) % 3
        send(loop, table, people[other], "sit_out", out=True)  # idle: the host may remove
        messages(people[other])
        send(loop, table, host, "host", op="remove", seat=other)
        assert errors(host) == [] and other not in table.seats
        loop.advance(0.1)
        sent = messages(people[other])
        told = [m for m in sent if m["type"] == "error"]
        assert [(m["code"], m["message"]) for m in told] == [("removed", REMOVED_NOW)]
        assert people[other].seat is None  # watching now
        assert sent[-1]["type"] == "state" and sent[-1]["you"]["seat"] is None


def test_a_player_removed_during_their_hand_is_told_it_ends_for_them_with_it() -> None:
    with virtual_server() as (loop, store):
        table, host, people = choice_table(loop, store)
        chooser = int(table.session["choice"]["seat"])
        send(loop, table, people[chooser], "choose_game", int(table.session["choice"]["hand"]),
             game="sdr")
        assert table.hand is not None
        other = next(s for s in table.hand.seats if s != chooser)
        send(loop, table, people[other], "sit_out", out=True)  # (after the deal: still in)
        messages(people[other])
        send(loop, table, host, "host", op="remove", seat=other)
        assert errors(host) == []
        loop.advance(0.1)
        told = [m for m in messages(people[other]) if m["type"] == "error"]
        assert [(m["code"], m["message"]) for m in told] == [("removed", REMOVED_AFTER_HAND)]


def test_a_player_removed_while_away_is_told_when_they_come_back() -> None:
    """Dan sits, closes his page (away) and the host removes him: his seat is freed
    and nobody is connected to tell.  Back with his seat cookie (a seat no longer:
    ``Client.seat_digest``, as ws_endpoint sets it), he is told he was removed (on
    main: nothing); a browser with no such cookie is not; once he has sat down
    again, his old cookie tells nothing more."""
    from rollem.server.store import token_digest

    with virtual_server() as (loop, store):
        table, host, _ = choice_table(loop, store, seats=4)
        _, token = loop.call(table.join, "Dan", 3)
        dan = Client(table.seat_for_token(token))
        loop.call(table.connect, dan)
        loop.call(table.disconnect, dan)   # away
        send(loop, table, host, "host", op="remove", seat=3)
        assert errors(host) == [] and 3 not in table.seats

        def comes_back(digest: str | None) -> list[tuple[str, str]]:
            client = Client(table.seat_for_token(token))
            client.seat_digest = digest
            loop.call(table.connect, client)
            loop.advance(0.1)
            told = [(m["code"], m["message"]) for m in messages(client) if m["type"] == "error"]
            loop.call(table.disconnect, client)
            return told

        assert comes_back(token_digest(token)) == [("removed", REMOVED_NOW)]
        assert comes_back(None) == []
        loop.call(table.join, "Dan", 3, token)   # sits down again, from the same browser
        assert comes_back(token_digest(token)) == []
