"""Straddles, run it twice and bomb pots survive ``kill -9`` of ``rollem serve``
mid-hand (issue 27), on SQLite and on PostgreSQL: after the restart the hand
goes on where it stood, with nothing lost or doubled, and chips balance."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from web_harness import Player, ServerProcess, create_table, join


def _kinds(st: dict[str, Any]) -> list[str]:
    return [e["kind"] for e in st["hand"]["events"]]


async def _act(p: Player, action: dict[str, Any]) -> None:
    assert p.state is not None
    await p.send({"type": "action", "hand": p.state["hand"]["hand_no"],
                  "seq": p.state["seq"], "action": action})


async def _mine(p: Player, kind: str) -> None:
    """Until ``p`` has a decision of ``kind`` open."""
    await p.until(lambda st: st["hand"] is not None and st["hand"].get("legal") is not None
                  and st["hand"]["legal"]["kind"] == kind
                  and bool(st["hand"]["legal"]["actions"])
                  and st["you"]["decision_seq"] is not None)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_straddle_run_twice_and_bomb_pot_survive_kill_9(
        tmp_path: Path, kind: str, request: pytest.FixtureRequest) -> None:
    db: Any = tmp_path / "staples.db"
    if kind == "postgresql":
        db = request.getfixturevalue("pg_cluster").new_database()
    first = ServerProcess(db, paced_runouts=False)
    port = first.port
    tid, host = create_table(first.url, game="holdem", seats=3, bots=0, stack=100,
                             structure="no-limit", straddle="optional", run_twice=True,
                             between_hands=0.2, decision_seconds=300, small_bet=2)
    seats = [join(first.url, tid, name, seat) for seat, name in enumerate(("Ann", "Bob", "Cy"))]
    before: dict[str, Any] = {}

    async def part_one() -> None:
        async with Player(first.ws_url, tid, seats[0][1], host) as a, \
                Player(first.ws_url, tid, seats[1][1]) as b, \
                Player(first.ws_url, tid, seats[2][1]) as c:
            for p in (a, b, c):
                await p.until(lambda st: st["you"]["seat"] is not None)
            # Seat 0 (the button: three-handed, left of the big blind) straddles.
            await a.send({"type": "straddle", "on": True})
            await a.until(lambda st: st["table"]["straddlers"] == [0])
            await a.send({"type": "start", "seq": a.state["seq"]})  # type: ignore[index]
            st = await a.until(lambda st: st["hand"] is not None)
            blinds = [(e["seat"], e["blind"], e["amount"]) for e in st["hand"]["events"]
                      if e["kind"] == "blind"]
            assert blinds == [(1, "small blind", 1), (2, "big blind", 2), (0, "straddle", 4)]
            # All in: seat 1 (left of the straddler) moves in, the others call.
            await _mine(b, "bet")
            await _act(b, {"kind": "raise", "to": 100})
            for p in (c, a):
                await _mine(p, "bet")
                await _act(p, {"kind": "call"})
            for p in (a, b):
                await _mine(p, "run_twice")
                await _act(p, {"kind": "run_twice", "agree": True})
            st = await b.until(lambda st: sum(1 for k in _kinds(st) if k == "chose") == 2)
            before["events"] = st["hand"]["events"]
            # The host calls a bomb pot for the next hand.
            await a.send({"type": "host", "op": "bomb_pot"})
            await a.until(lambda st: st["table"]["bomb_pot_next"])

    asyncio.run(part_one())
    first.kill()  # no goodbye: SIGKILL, mid-choice

    second = ServerProcess(db, port=port, paced_runouts=False)
    try:
        async def part_two() -> None:
            async with Player(second.ws_url, tid, seats[0][1], host) as a, \
                    Player(second.ws_url, tid, seats[1][1]) as b, \
                    Player(second.ws_url, tid, seats[2][1]) as c:
                st = await b.until(lambda st: st["hand"] is not None)
                n = len(before["events"])
                assert st["hand"]["events"][:n] == before["events"]
                assert st["table"]["bomb_pot_next"]
                await _mine(c, "run_twice")
                await _act(c, {"kind": "run_twice", "agree": True})
                st = await a.until(lambda st: st["hand"] is not None
                                   and st["hand"]["hand_no"] == 1
                                   and st["hand"]["result"] is not None)
                kinds = _kinds(st)
                assert kinds.count("run") == 1 and kinds.count("chose") == 3
                # each run's result (ours: result.runs), each pot split between them,
                # and the hand's words tell both runs
                result = st["hand"]["result"]
                runs = result["runs"]
                assert len(runs) == 2 and runs[0]["board"] != runs[1]["board"]
                for i, pot in enumerate(result["pots"]):
                    halves = [run["pots"][i]["amount"] for run in runs]
                    assert halves == [(pot["amount"] + 1) // 2, pot["amount"] // 2]
                said = [line["text"] for line in st["hand"]["log"]]
                assert any(t.startswith("Run it twice, first run: ") for t in said)
                assert "Second run:" in said
                assert sorted(e["run"] for e in st["hand"]["events"] if e["kind"] == "win") \
                    [0] == 1
                ledger = st["table"]["ledger"]
                assert sum(line["stack"] for line in ledger) == 300
                # Whoever is broke rebuys; the next hand is the bomb pot called before
                # the kill: every player antes 4 (twice the big blind), no blinds.
                for p in (a, b, c):
                    assert p.state is not None
                    me = p.state["you"]["seat"]
                    if next(line["stack"] for line in ledger if line["seat"] == me) == 0:
                        await p.send({"type": "rebuy", "seq": st["seq"]})
                st = await a.until(lambda st: st["hand"] is not None
                                   and st["hand"]["hand_no"] == 2)
                assert "bomb_pot" in _kinds(st) and "blind" not in _kinds(st)
                antes = [e["amount"] for e in st["hand"]["events"] if e["kind"] == "ante"]
                assert len(antes) >= 2 and set(antes) == {4}
                assert not st["table"]["bomb_pot_next"]

        asyncio.run(part_two())
    finally:
        second.kill()
