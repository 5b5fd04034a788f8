"""Stop 73 (s73-hostile): ``kill -9`` of ``rollem serve`` in the middle of a
tournament hand just as its level ends (the level clock stops while the process
is down: a restart finds the level over).  After the restart on the
same SQLite database the hand in play goes on at the stakes it was dealt at,
the next hand is dealt at the next level, the tournament's chips add up to what
the entrants were given, and no seat's view holds the other seat's down card.
s72-kill left this moment untried (the shortest level is a minute): here the
stored level clock is moved to just past the level's minute between the kill
and the restart, as a kill at that moment leaves it (its last write a moment
before)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from test_s72_kill import _secret
from test_tournament_server import SCHEDULE
from web_harness import Player, ServerProcess, create_table, join


def _stacks(st: dict[str, Any]) -> int:
    """The entrants' stacks in ``st``'s ledger (in a hand: as dealt)."""
    return sum(line["stack"] for line in st["table"]["ledger"])


def _level(st: dict[str, Any]) -> int:
    return int(st["table"]["tournament"]["level"])


async def _fold(a: Player, b: Player, hand_no: int) -> None:
    """The first seat to act in hand ``hand_no`` folds."""
    while True:
        for p in (a, b):
            st = p.state
            if st is not None and st["hand"] is not None and st["hand"]["hand_no"] == hand_no \
                    and st["hand"]["result"] is None and p.my_decision():
                await p.send({"type": "action", "hand": hand_no, "seq": st["seq"],
                              "action": {"kind": "fold"}})
                return
        await asyncio.gather(*(p.until(lambda st: True, timeout=1) for p in (a, b)),
                             return_exceptions=True)


@pytest.mark.slow
def test_kill_9_mid_hand_as_the_level_ends_keeps_chips_and_stakes(tmp_path: Path) -> None:
    db = tmp_path / "kill.db"
    first = ServerProcess(db, hand_floors=False)
    port = first.port
    tid, host = create_table(first.url, game="holdem", seats=2, bots=0,
                             tournament="custom", tournament_schedule=SCHEDULE, buy_in=10,
                             between_hands=600, decision_seconds=300)
    seats = [join(first.url, tid, name, seat) for seat, name in enumerate(("Ann", "Bob"))]
    before: dict[int, dict[str, Any]] = {}

    async def part_one() -> None:
        async with Player(first.ws_url, tid, seats[0][1], host) as a, \
                Player(first.ws_url, tid, seats[1][1]) as b:
            await a.until(lambda st: st["you"]["host"] and len(st["table"]["ledger"]) == 2)
            await a.send({"type": "start", "seq": a.state["seq"]})  # type: ignore[index]
            for p in (a, b):
                st = await p.until(lambda st: st["hand"] is not None)
                _secret(st)
                assert _level(st) == 1 and _stacks(st) == 120
                before[st["you"]["seat"]] = st

    asyncio.run(part_one())
    first.kill()
    with sqlite3.connect(db) as conn:  # the level's minute was up as it died
        session = json.loads(conn.execute("SELECT session FROM tables WHERE id = ?",
                                          (tid,)).fetchone()[0])
        clock = session["tournament"]
        assert clock["since"] is not None and clock["elapsed"] < 60
        clock["elapsed"] = 60.5
        conn.execute("UPDATE tables SET session = ? WHERE id = ?", (json.dumps(session), tid))

    second = ServerProcess(db, port=port, hand_floors=False)
    try:
        async def part_two() -> None:
            async with Player(second.ws_url, tid, seats[0][1], host) as a, \
                    Player(second.ws_url, tid, seats[1][1]) as b:
                for p in (a, b):
                    st = await p.until(lambda st: st["hand"] is not None)
                    _secret(st)
                    old = before[st["you"]["seat"]]
                    assert st["hand"]["hand_no"] == 1
                    assert st["hand"]["seats"][st["you"]["seat"]]["cards"] == \
                        old["hand"]["seats"][old["you"]["seat"]]["cards"]
                    assert st["hand"]["events"][:len(old["hand"]["events"])] == \
                        old["hand"]["events"]
                    assert _level(st) == 2  # the level ended as it died ...
                    assert st["table"]["tournament"]["hand_stakes"] is not None  # ... not hand 1's
                    assert _stacks(st) == 120
                await _fold(a, b, 1)
                for p in (a, b):
                    st = await p.until(lambda st: st["hand"]["result"] is not None)
                    assert _stacks(st) == 120
                await a.send({"type": "host", "op": "deal_now"})
                for p in (a, b):
                    st = await p.until(lambda st: st["hand"]["hand_no"] == 2)
                    _secret(st)
                    assert _level(st) == 2 and st["table"]["tournament"]["hand_stakes"] is None
                    assert _stacks(st) == 120

        asyncio.run(part_two())
    finally:
        second.kill()
