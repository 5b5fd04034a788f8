"""A web-table bot session with every home-game staple at once (issue 27), on a
virtual clock: Mississippi straddles, run it twice, a bomb pot every 5 hands
and away players, checking after every hand that the chips balance. Used by
tests/web/test_server_staples.py (a short session) and
bench/bench_staples_session.py (2,000 hands).

Four seats, no limit, blinds 1 and 2, stack 60 with rebuys: two people who
straddle whenever they may, call any bet, agree to run it twice and buy in
again when broke, and two random computer players (who buy in again by
themselves). Person P1 walks away for a few hands in every 25
(answers nothing: the clock acts for them until away mode sits them out, 2
timeouts in a row) and presses "I'm back" at hand 8 of those 25.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from test_dealers_choice_seats import send
from test_server_staples import people_table
from virtual_table import VirtualLoop

from rollem.server.live_table import LiveTable
from rollem.server.protocol import ClientMessage
from rollem.server.store import Store


@dataclass
class Seen:
    """What happened in the session, counted from the stored hands."""

    hands: int = 0
    bombs: list[int] = field(default_factory=list)
    """The hands that were bomb pots."""
    straddles: int = 0
    """Hands (not bomb pots) dealt with a seat that chose to straddle (the rule
    lets at most one of them post it)."""
    run_twice: int = 0
    away: int = 0
    back: int = 0
    rebuys: int = 0
    balanced: list[int] = field(default_factory=list)
    """The hands after which the stored stacks were checked against the chips brought."""


def _answer(legal: dict[str, Any]) -> dict[str, Any] | None:
    acts = legal.get("actions", [])
    if legal.get("kind") == "run_twice":
        return {"kind": "run_twice", "agree": True}
    if "call" in acts:
        return {"kind": "call"}
    return None


def _balanced(store: Store, table: LiveTable) -> bool:
    seats = store.load_seats(table.id)
    return sum(r.stack for r in seats) == sum(r.brought for r in seats)


def staples_session(loop: VirtualLoop, store: Store, hands: int) -> tuple[LiveTable, Seen]:
    """Play ``hands`` hands (see the module doc); raises AssertionError when the
    chips do not balance after a hand."""
    table, host, people = people_table(
        loop, store, seats=4, start=False, straddle="mississippi", bomb_pot_every=5,
        run_twice=True, structure="no-limit", bots=2, bot_level="random", bot_delay=0.0,
        rebuys=True, stack=60, decision_seconds=5.0, time_bank_seconds=0.0, away_after=2)
    for client in people.values():
        send(loop, table, client, "straddle", on=True)
    send(loop, table, host, "start")
    seen = Seen()
    walker = people[1]
    checked = 0
    while not table.closed:
        assert loop.now < 1_000_000 + 50 * hands + 1_000, (
            "the table stopped dealing", table.session["hand_no"], table.hand is not None,
            table.table_public().get("waiting_for"), table.session.get("sitting_out"))
        loop.advance(0.1)
        done = int(table.session["hand_no"]) - (table.hand is not None)
        if table.hand is None and done > checked:
            assert _balanced(store, table), f"chips do not balance after hand {done}"
            seen.balanced.append(done)
            checked = done
            if done >= hands:
                loop.call(table.shutdown)
                break
        no = table.hand.hand_no if table.hand is not None else int(table.session["hand_no"])
        away = walker.seat in table.session.get("idle_away", [])
        if away and no % 25 == 8:
            send(loop, table, walker, "sit_out", out=False)  # "I'm back"
            seen.back += 1
            assert walker.seat not in table.session.get("idle_away", [])
        for client in people.values():
            client._pending.clear()
            seat = client.seat
            if table.hand is None and table.seats[seat].row.stack == 0:
                send(loop, table, client, "rebuy")  # (a person busted buys in again)
                assert table.seats[seat].row.stack > 0
                seen.rebuys += 1
            if table.hand is None or seat not in table.decision_seq:
                continue
            if client is walker and no % 25 in (1, 2, 3):
                continue  # walked off: the clock acts
            legal = table.hand.view(seat)["legal"]
            action = _answer(legal) or table.hand.timeout_action(seat)
            msg = ClientMessage("action", table.hand.hand_no, table.seq, {"action": action})
            loop.call(table.handle, client, msg)
    for no in range(1, hands + 1):
        row = store.load_hand(table.id, no)
        assert row is not None and row.result is not None, f"hand {no} not finished"
        assert sum(row.result["net"].values()) == 0, f"hand {no}"
        options = row.setup["options"]
        seen.hands += 1
        if options.get("bomb_pot"):
            seen.bombs.append(no)
        seen.straddles += bool(options.get("straddlers")) and not options.get("bomb_pot")
        seen.run_twice += bool(row.result.get("runs"))
        seen.away += walker.seat not in row.setup["seats"]
    return table, seen
