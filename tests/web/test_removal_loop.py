"""A host's removal and re-join loop (branch s51-break): a newcomer sits down,
closes the page and is removed, again and again, with no hand dealt.  Each such
player left a ledger line (``session["departed"]``, sent in every state to every
client) and a seat cookie digest (``session["removed_players"]``): 100 cycles
grew the stored session by 21 KB and every state by 100 ledger lines, without
bound (measured on a live ``rollem serve``: 213 bytes a cycle).  Now a player who
leaves having played no hand, with the chips they were given, leaves no ledger
line (nothing to settle), and the removed digests kept are the newest
:data:`rollem.server.host.REMOVED_KEPT`."""

from __future__ import annotations

import json
from typing import Any

from test_dealers_choice_seats import choice_table, errors, send
from test_table_bots import virtual_server

from rollem.server.host import REMOVED_KEPT, REMOVED_NOW
from rollem.server.live_table import Client
from rollem.server.store import token_digest


def _told(client: Client) -> list[tuple[str, str]]:
    texts = [json.loads(text) for text, _ in client._pending]
    client._pending.clear()
    return [(m["code"], m["message"]) for m in texts if m["type"] == "error"]


def test_a_removal_loop_grows_neither_the_ledger_nor_the_removed_list() -> None:
    with virtual_server() as (loop, store):
        table, host, _ = choice_table(loop, store, seats=4)
        ledger_before = len(table.state(None)["table"]["ledger"])
        tokens: list[str] = []
        for i in range(REMOVED_KEPT + 6):
            _, token = loop.call(table.join, f"V{i}", 3)
            tokens.append(token)
            client = Client(table.seat_for_token(token))
            loop.call(table.connect, client)
            loop.call(table.disconnect, client)   # away
            send(loop, table, host, "host", op="remove", seat=3)
            assert errors(host) == [] and 3 not in table.seats
        session: dict[str, Any] = table.session
        assert session.get("departed", []) == []   # (main: 70 lines)
        assert len(table.state(None)["table"]["ledger"]) == ledger_before
        kept = session["removed_players"]
        assert kept == [token_digest(t) for t in tokens[-REMOVED_KEPT:]]   # (main: 70)

        def comes_back(token: str) -> list[tuple[str, str]]:
            client = Client(None)
            client.seat_digest = token_digest(token)
            loop.call(table.connect, client)
            loop.advance(0.1)
            told = _told(client)
            loop.call(table.disconnect, client)
            return told

        assert comes_back(tokens[-1]) == [("removed", REMOVED_NOW)]
        assert comes_back(tokens[0]) == []   # (one of the oldest: no longer kept)
        # back from the same browser: seated again with the starting stack
        seat, _ = loop.call(table.join, "V0", 3, tokens[-1])
        assert table.seats[seat].row.stack == table.config.stack
        assert token_digest(tokens[-1]) not in session["removed_players"]


def test_a_player_who_played_a_hand_keeps_their_ledger_line() -> None:
    """Dan plays a hand, closes his page and is removed: his line stays (he may be
    owed or owe chips), and his chips are his again from the same browser."""
    with virtual_server() as (loop, store):
        table, host, people = choice_table(loop, store, seats=4)
        chooser = int(table.session["choice"]["seat"])
        hand_no = int(table.session["choice"]["hand"])
        leaver = (chooser + 1) % 3
        send(loop, table, people[chooser], "choose_game", hand_no, game="sdr")
        assert table.hand is not None and leaver in table.hand.seats
        loop.call(table.disconnect, people[leaver])
        send(loop, table, host, "host", op="remove", seat=leaver)
        assert errors(host) == []
        start = loop.now
        while table.hand is not None:
            assert loop.now < start + 3600
            loop.advance(5)
        departed = table.session["departed"]
        assert [line["seat"] for line in departed] == [leaver]
