"""A player the host removed during a hand stays removed when they come back
before it ends (issue 26), on a virtual clock.

Before: the removal set the seat *gone* (decisions timed out at once, the seat
freed after the hand), and a reconnect cleared it like the end of an ordinary
absence: the removed player came back, played on and kept the seat.
"""

from __future__ import annotations

import json

from test_host_pause import holdem_table
from test_table_bots import virtual_server
from virtual_table import VirtualLoop

from rollem.server.live_table import Client, LiveTable


def _codes(client: object) -> list[str]:
    texts = [json.loads(text) for text, _ in client._pending]  # type: ignore[attr-defined]
    client._pending.clear()  # type: ignore[attr-defined]
    return [m["code"] for m in texts if m["type"] == "error"]


def _others_play_out(loop: VirtualLoop, table: LiveTable, people: dict[int, Client],
                     gone: int, hand_no: int) -> None:
    """The seats other than ``gone`` check or call until hand ``hand_no`` ends
    (``gone``'s turns time out on the clock)."""
    from test_dealers_choice_seats import send

    for _ in range(200):
        if table.hand is None or table.hand.hand_no != hand_no:
            return
        for seat, client in people.items():
            if seat != gone and seat in table.decision_seq and table.hand is not None:
                legal = table.hand.view(seat)["legal"]["actions"]
                action = {"kind": "check" if "check" in legal else "call"}
                send(loop, table, client, "action", hand_no, action=action)
        loop.advance(0.2)


def test_a_removed_player_who_comes_back_mid_hand_is_still_removed() -> None:
    from test_dealers_choice_seats import send

    with virtual_server() as (loop, store):
        table, host, people = holdem_table(loop, store)
        assert table.hand is not None
        hand_no = table.hand.hand_no
        ann = people[1]
        loop.call(table.disconnect, ann)  # away: the host may remove her
        send(loop, table, host, "host", op="remove", seat=1)
        assert _codes(host) == []
        assert table.seats[1].gone
        ann.closed = False
        loop.call(table.connect, ann)  # back before the hand ends
        assert _codes(ann) == ["removed"]  # told again why
        assert table.seats[1].gone  # her decisions still time out at once
        # The others play the hand out (check or call); Ann's turns time out.
        _others_play_out(loop, table, people, 1, hand_no)
        assert table.final_hand is not None and table.final_hand.hand_no == hand_no
        assert 1 not in table.seats  # the seat was freed when the hand ended
        assert ann.seat is None  # she watches now


def test_a_player_leaves_mid_hand_and_comes_back_to_their_chips() -> None:
    """Stop 53: a player's own **Leave** (``{"type": "leave"}``), as the host's
    removal frees a seat: mid-hand their decisions time out at once and the seat
    is freed when the hand ends, their chips on the ledger; back from the same
    browser they sit down with them.  Between hands the seat is freed at once.
    (Main: ``unknown_type``; a player going home could only close the page.)"""
    from test_dealers_choice_seats import send
    from test_host_pause import DECISION

    from rollem.server.config import parse_config
    from rollem.server.live_table import Client, LiveTable

    with virtual_server() as (loop, store):
        config = parse_config({
            "game": "holdem", "seats": 3, "bots": 0, "stack": 400, "small_bet": 2,
            "big_bet": 4, "decision_seconds": DECISION, "grace_seconds": 1000.0,
            "between_hands": 30.0, "bot_delay": 1.0})
        table, _ = loop.call(LiveTable.create, store, config)
        tokens, people = {}, {}
        for seat in range(3):
            _, tokens[seat] = loop.call(table.join, f"P{seat}", seat)
            people[seat] = Client(table.seat_for_token(tokens[seat]), seat == 0)
            loop.call(table.connect, people[seat])
        send(loop, table, people[0], "start")
        loop.advance(0.1)
        assert table.hand is not None
        hand_no = table.hand.hand_no
        ann = people[1]
        _codes(ann)
        send(loop, table, ann, "leave")
        told = [json.loads(text) for text, _ in ann._pending]
        assert [(m["code"], m["message"]) for m in told if m["type"] == "error"] == [
            ("removed", "You left the table: the clock plays your decisions in this hand "
             "(check, else fold), and your seat is freed when it ends. Your chips stay on "
             "the ledger.")]
        ann._pending.clear()
        assert table.seats[1].gone and 1 in table.seats  # freed when the hand ends
        loop.call(table.disconnect, ann)  # her page reloaded within the hand: still gone,
        ann.closed = False                # told her own words again (not the host's removal)
        loop.call(table.connect, ann)
        told = [json.loads(text) for text, _ in ann._pending]
        assert [m["message"] for m in told if m["type"] == "error"] == [
            "You left the table: the clock plays your decisions in this hand (check, else "
            "fold), and your seat is freed when it ends. Your chips stay on the ledger."]
        ann._pending.clear()
        assert table.seats[1].gone
        _others_play_out(loop, table, people, 1, hand_no)
        assert table.final_hand is not None and table.final_hand.hand_no == hand_no
        assert 1 not in table.seats and ann.seat is None  # she watches now
        line = next(d for d in table.session["departed"] if d["name"] == "P1")
        left_with = int(line["stack"])
        assert left_with == 400 + int(table.session["last_result"]["net"]["1"])
        assert table.session.get("removed_players", []) == []  # (not told "removed")
        # Between hands, Bob's seat is freed at once.
        bob = people[2]
        assert table.hand is None  # (30 s between hands)
        send(loop, table, bob, "leave")
        assert 2 not in table.seats and bob.seat is None
        # Ann back from the same browser: her chips, not a new stack.
        seat, _token = loop.call(table.join, "P1", 1, tokens[1])
        assert table.seats[seat].row.stack == left_with
        assert all(d["name"] != "P1" for d in table.session["departed"])
        loop.call(table.shutdown)


def test_a_tournament_entrant_cannot_leave() -> None:
    """An entrant with chips is refused ``in_tournament`` (their chips are their
    entry; they are blinded off while away); nothing changes."""
    from test_dealers_choice_seats import errors, send
    from test_tournament_rebuy_last_call import LONG
    from virtual_table import seat_people

    from rollem.server.config import parse_config
    from rollem.server.live_table import LiveTable

    with virtual_server() as (loop, store):
        config = parse_config({
            "game": "sdr", "seats": 2, "bots": 0, "decision_seconds": 600.0,
            "grace_seconds": 1000.0, "between_hands": 30.0, "bot_delay": 0.0,
            "tournament": "custom", "tournament_schedule": LONG, "buy_in": 10})
        table, _ = loop.call(LiveTable.create, store, config)
        people = seat_people(loop, table, 2)
        send(loop, table, people[0], "start")
        loop.advance(0.1)
        errors(people[1])
        send(loop, table, people[1], "leave")
        assert errors(people[1]) == ["in_tournament"]
        assert 1 in table.seats and not table.seats[1].gone
        loop.call(table.shutdown)
