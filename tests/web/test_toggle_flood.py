"""Sitting out and straddling are changes a seat makes a few at a time (try-out of
stop 53).

Each ``sit_out`` or ``straddle`` message was saved and sent the whole state to
every connection at the table, whether or not it changed anything: within the
per-address message bucket, one address's 20 seats (3 connections each)
toggling 600 times a second raised another table's action latency from p90
50-106 ms to 674 ms (p99 1,012 ms; load 18). Now a message that changes nothing
is neither saved nor sent, and a seat's real changes are bounded (6 at once,
then one every 2 s): past it ``too_often``, nothing changes; another seat is
untouched.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from web_harness import Player, ServerThread, create_table, drain, join

from rollem.server import host


def test_a_seat_cannot_toggle_without_end(tmp_path: Path) -> None:
    server = ServerThread(tmp_path / "t.db")
    try:
        _toggles(server)
    finally:
        server.stop()


def _toggles(shared_server: ServerThread) -> None:
    base = shared_server.url
    tid, _host = create_table(base, game="holdem", bots=0, straddle="optional")
    (sa, ta), (sb, tb) = join(base, tid, "Ann"), join(base, tid, "Bob")

    async def run() -> None:
        async with Player(shared_server.ws_url, tid, ta) as a, \
                Player(shared_server.ws_url, tid, tb) as b:
            await a.until(lambda st: True)
            await b.until(lambda st: True)
            seq = a.state["seq"]  # type: ignore[index]
            # nothing to change: no save, no state (the seq stays) ...
            await a.send({"type": "sit_out", "out": False})
            await a.send({"type": "straddle", "on": False})
            await a.send({"type": "sit_out", "out": True})  # ... then one change
            st = await a.until(lambda st: sa in st["table"]["sitting_out"])
            assert st["seq"] == seq + 1
            # 20 toggles at once: 5 more taken (back, out, ...: back at the fifth); of
            # the rest, each "out" refused saying why, each "back" already so (nothing)
            for i in range(20):
                await a.send({"type": "sit_out", "out": i % 2 == 1})
            # (refusals go out after the table's last commit: awaited, not a pong)
            refused = [await a.until_error(5.0) for _ in range(8)]
            await drain(a, 0.3)
            assert len(a.errors) == 8  # no more than those
            assert {m["code"] for m in refused} == {"too_often"}
            assert "at most 6 at once, then one every 2 s" in refused[0]["message"]
            st = await a.until(lambda st: st["seq"] >= seq + host.TOGGLE_BURST)
            assert st["seq"] == seq + host.TOGGLE_BURST
            assert sa not in st["table"]["sitting_out"]  # the sixth toggle: back
            # the straddle shares the seat's bucket; another seat has its own
            await a.send({"type": "straddle", "on": True})
            assert (await a.until_error())["code"] == "too_often"
            await b.send({"type": "sit_out", "out": True})
            st = await b.until(lambda st: sb in st["table"]["sitting_out"])
            assert st["table"]["straddlers"] == []

    asyncio.run(run())
