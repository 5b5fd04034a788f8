"""Issue 34's disk attack rebuilt through the server (item 5), on SQLite and
PostgreSQL: a table of fast computer players and a person who never plays stops
at its storage limit, no faster than the floor, saying why."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from typing import Any

from web_harness import UNLIMITED, Player, ServerThread, create_table, join


def test_the_attack_fast_bots_stop_at_the_storage_limit(db: str) -> None:
    """Issue 34's attack rebuilt (sized for CI): a person whose every decision the
    clock plays (0.05 s) and five computer players with no delay and no pause, on a
    server with a 0.3 s floor for such hands and a 60 kB limit per table. Before:
    hands as fast as the bots decide, without end; now no faster than the floor,
    stopping once the table's hands pass 60 kB, the reason on everyone's felt."""
    settings = dataclasses.replace(UNLIMITED, hand_seconds=0.1, unattended_hand_seconds=0.3,
                                   table_storage_mb=0.06)
    # (UNLIMITED's pacing: each computer player plays as soon as it has thought,
    # no 0.25 s shortest wait; the attack's hands as fast as they come; stop 57)
    server = ServerThread(db, settings)  # type: ignore[arg-type]
    try:
        tid, host_token = create_table(
            server.url, game="sdr", seats=6, bots=5, bot_level="basic", stack=100_000,
            decision_seconds=0.05, time_bank_seconds=0, bot_delay=0, between_hands=0,
            away_after=0)  # (the attacker lets the clock act: away mode off)
        _seat, token = join(server.url, tid, "Mallory")

        async def attack() -> tuple[float, dict[str, Any]]:
            async with Player(server.ws_url, tid, token, host_token) as mallory:
                await mallory.until(lambda s: True)
                started = time.monotonic()
                await mallory.send({"type": "start", "seq": mallory.state["seq"]})
                state = await mallory.until(
                    lambda s: (s["table"]["waiting_for"] or "").startswith("No more hands"),
                    timeout=60.0)
                return time.monotonic() - started, state

        elapsed, state = asyncio.run(attack())
        table = server.manager.get(tid)
        hands = int(table.session["hand_no"])
        assert 2 <= hands <= elapsed / 0.3 + 2  # the floor: one hand each 0.3 s at most
        store = server.manager.store
        stored = int(store.db.execute(
            "SELECT (SELECT COALESCE(SUM(length(setup) + COALESCE(length(result), 0)), 0) "
            "FROM hands WHERE table_id=?) + (SELECT COALESCE(SUM(length(action) + "
            "length(events)), 0) FROM actions WHERE table_id=?)", (tid, tid)).fetchone()[0])
        assert table.saving.stored_bytes() == stored >= 60_000
        assert state["table"]["waiting_for"].startswith(
            "No more hands: this table has stored")
        time.sleep(1.0)
        assert int(table.session["hand_no"]) == hands  # and no more are dealt
        assert store.unattended_tables_idle_since(time.time() + 1) == [tid]  # swept later
    finally:
        server.stop()
