"""The ledger's lines of people who left are bounded (stop 52).

A loop where each newcomer plays one real hand and leaves (or is removed)
added a ledger line a hand (``session["departed"]``, stored and sent in every
state to every client), without bound: stop 51's hostile review, left then.
Now past :data:`rollem.server.live_table.seats.DEPARTED_KEPT` (64) people's
lines the oldest are summed into one line of earlier players: the ledger still
sums (the chips held and carried are the chips brought) and the settle-up still
balances.  Here the bound is lowered to 3 so that a few real hands show it."""

from __future__ import annotations

from typing import Any

import pytest
from test_dealers_choice_seats import errors, send
from test_host_pause import holdem_table
from test_table_bots import passive, virtual_server
from virtual_table import VirtualLoop

from rollem.server.live_table import Client, LiveTable, seats
from rollem.server.protocol import ClientMessage
from rollem.server.store import token_digest

KEPT = 3


def _chips_balance(table: LiveTable) -> None:
    """Between hands: the chips held by the seated, by the lines of those who left
    and carried to the next hand are the chips brought; every net sums to zero."""
    session: dict[str, Any] = table.session
    assert table.hand is None or table.hand.over
    departed = session.get("departed", [])
    held = (sum(s.row.stack for s in table.seats.values())
            + sum(int(d["stack"]) for d in departed) + int(session.get("carried", 0)))
    brought = (sum(s.row.brought for s in table.seats.values())
               + sum(int(d["brought"]) for d in departed))
    assert held == brought
    ledger = table.state(None)["table"]["ledger"]
    assert sum(int(line["net"]) for line in ledger) == -int(session.get("carried", 0))


def _play_one_hand_and_go(loop: VirtualLoop, table: LiveTable, host: Client,
                          client: Client) -> None:
    """``client`` (seat 0) plays the next hand dealt to its end (calling), then
    closes its page and the host removes it."""
    joined = table.seats[0].row.joined_hand
    start = loop.now
    while not (int(table.session["hand_no"]) > joined
               and (table.hand is None or table.hand.over)):
        assert loop.now < start + 600, "no hand was dealt"
        loop.advance(0.1)
        if table.hand is not None and 0 in table.decision_seq:
            legal = table.hand.view(0)["legal"]
            action = passive(legal) or table.hand.timeout_action(0)
            loop.call(table.handle, client, ClientMessage(
                "action", table.hand.hand_no, table.seq, {"action": action}))
    loop.call(table.disconnect, client)
    send(loop, table, host, "host", op="remove", seat=0)
    assert errors(host) == [] and 0 not in table.seats


def test_newcomers_who_play_a_hand_each_leave_a_bounded_ledger(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seats, "DEPARTED_KEPT", KEPT, raising=False)  # (main: none)
    with virtual_server() as (loop, store):
        table, host, people = holdem_table(loop, store, bots=2)
        tokens = {}
        client = people[0]
        cycles = KEPT + 4
        for i in range(cycles):
            if i:
                _, tokens[i] = loop.call(table.join, f"N{i}", 0)
                client = Client(table.seat_for_token(tokens[i]))
                loop.call(table.connect, client)
            _play_one_hand_and_go(loop, table, host, client)
            _chips_balance(table)
        departed = table.session["departed"]
        # (main: 7 lines, one a newcomer, growing by one a hand)
        assert len(departed) == KEPT + 1
        summed, *kept = departed
        assert [line["name"] for line in kept] == [f"N{i}" for i in range(cycles - KEPT, cycles)]
        assert summed["name"] == "4 earlier players" and summed["players"] == 4
        assert summed["seat"] is None and summed["left"] is True
        assert summed["net"] == summed["stack"] - summed["brought"]
        assert summed["brought"] == 4 * table.config.stack
        assert [line["net"] for line in kept] != [0] * KEPT  # (real hands: chips moved)
        # every state's ledger: the seated, the summed line, the three kept
        ledger = table.state(None)["table"]["ledger"]
        assert [line["name"] for line in ledger[-4:]] == ["4 earlier players", "N4", "N5", "N6"]
        assert all("digest" not in line for line in ledger)
        settle = table.state(None)["table"]["settle"]
        assert settle is not None  # (balances: the summed line is one party)
        # A summed newcomer's stints went with their line; a kept one's stay.
        digests = {st["digest"] for st in table.session.get("stints", [])}
        assert table.seat_for_token(tokens[1]) is None
        assert token_digest(tokens[1]) not in digests and token_digest(tokens[6]) in digests
        # Back from the same browser, a summed newcomer sits down as anyone new (the
        # starting stack; their chips stay in the summed line); a kept one gets theirs.
        seat, _ = loop.call(table.join, "N1", 0, tokens[1])
        assert table.seats[seat].row.stack == table.config.stack
        assert table.seats[seat].row.brought == table.config.stack
        assert len(table.session["departed"]) == KEPT + 1
        _chips_balance(table)
        loop.call(table.shutdown)


def test_the_fold_keeps_the_newest_and_sums_the_rest() -> None:
    """:func:`seats.fold_oldest_departed` on its own: lines of chips, the oldest
    summed into the first line, again and again; a second fold adds to it."""
    def line(name: str, brought: int, stack: int) -> dict[str, Any]:
        return {"seat": 1, "name": name, "brought": brought, "stack": stack,
                "net": stack - brought, "left": True, "digest": "d" + name}
    session: dict[str, Any] = {
        "departed": [line("A", 100, 40), line("B", 200, 260), line("C", 100, 100)],
        "stints": [{"digest": "dA", "seat": 1, "first": 1, "last": 2},
                   {"digest": "dC", "seat": 1, "first": 3, "last": 3}],
        "rebuys_made": {"dB": 1}}
    seats.fold_oldest_departed(session, 3)
    assert len(session["departed"]) == 3  # (at the bound: nothing summed)
    seats.fold_oldest_departed(session, 1)
    assert session["departed"] == [
        {"seat": None, "name": "2 earlier players", "brought": 300, "stack": 300,
         "net": 0, "left": True, "players": 2},
        line("C", 100, 100)]
    assert session["stints"] == [{"digest": "dC", "seat": 1, "first": 3, "last": 3}]
    assert session["rebuys_made"] == {}
    session["departed"].append(line("D", 100, 70))
    seats.fold_oldest_departed(session, 1)
    assert session["departed"] == [
        {"seat": None, "name": "3 earlier players", "brought": 400, "stack": 400,
         "net": 0, "left": True, "players": 3},
        line("D", 100, 70)]
    assert seats.earlier_players_name(1) == "1 earlier player"
