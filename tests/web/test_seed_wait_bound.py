"""The committed deal's seed wait stays bounded when the store is slow (s61-hostile2).

The wait for the players' client seeds runs ``CLIENT_SEED_WAIT`` seconds from the
moment the commitment goes out (its write committed, s61-table), and a table whose
store stalls deals at most ``CLIENT_SEED_WAIT + CLIENT_SEED_TELL_LIMIT`` after the
commitment.  A write committed late in that time started the whole wait again from
then: a commitment told 5.9 s late (the default 2 s and 4 s) dealt at 7.9 s, past the
bound.  Here 2 s and 1 s, the write 2.9 s late, nobody sending a seed: dealt at 3 s
(main: 4.9 s).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time
from typing import Any

import pytest
from web_harness import Player, ServerThread, create_table, join

from rollem.server import store as store_mod
from rollem.server.live_table import LiveTable

SLOW_WRITE = 2.9
"""Seconds the store takes to commit the commitment's write (more than the wait)."""


def test_a_commitment_told_late_deals_at_the_bound(
        server: ServerThread, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(LiveTable, "CLIENT_SEED_WAIT", 2.0)
    monkeypatch.setattr(LiveTable, "CLIENT_SEED_TELL_LIMIT", 1.0)
    queued: list[float] = []
    write = store_mod.WriteStream.write

    def slow(self: Any, **changes: Any) -> Any:
        fut = write(self, **changes)
        seeding = (changes.get("session") or {}).get("seeding")
        if fut is None or not seeding or seeding["seeds"] or queued:
            return fut
        queued.append(time.monotonic())
        late: concurrent.futures.Future[None] = concurrent.futures.Future()

        def done(f: Any) -> None:
            error = f.exception()
            threading.Timer(SLOW_WRITE, lambda: late.set_exception(error) if error
                            else late.set_result(None)).start()

        fut.add_done_callback(done)
        self._last = late
        return late

    monkeypatch.setattr(store_mod.WriteStream, "write", slow)
    tid, host = create_table(server.url, game="holdem", seats=2, bots=0, between_hands=60,
                             decision_seconds=60)
    (_s0, t0), (s1, t1) = join(server.url, tid, "Ann"), join(server.url, tid, "Bob")
    table = server.manager.get(tid)
    # When each deal is set for, on the table's clock, from the commitment on (read
    # as the table sets it, not timed: a loaded machine only makes the deal late).
    dealt_at: list[float] = []
    schedule = table.dealer.schedule_next_hand

    def scheduled(delay: float) -> None:
        if queued:
            dealt_at.append(table.clock() + delay)
        schedule(delay)

    table.dealer.schedule_next_hand = scheduled  # type: ignore[method-assign]

    async def run() -> float:
        async with Player(server.ws_url, tid, t0, host) as a, Player(server.ws_url, tid, t1) as b:
            a.client_seeds = b.client_seeds = False  # (pages that never send one)
            await a.until(lambda st: st["you"]["host"])
            await b.until(lambda st: st["you"]["seat"] == s1)
            await a.send({"type": "start", "seq": a.state["seq"]})
            end = time.monotonic() + 20
            while server.call(lambda: table.hand is None):
                assert time.monotonic() < end, "hand 1 never dealt"
                await asyncio.sleep(0.02)
            return time.monotonic() - queued[0]

    waited = asyncio.run(run())
    seeds = server.call(lambda: table.hand.public_deal()["client_seeds"])
    assert set(seeds.values()) == {""}, seeds
    assert waited >= 3.0 - 0.1, waited
    # Set for 3 s after the commitment, and never later (main: again for 2 s from
    # the commitment told, 2.9 s late: 4.9 s).
    assert len(dealt_at) >= 1 and max(dealt_at) <= dealt_at[0] + 0.001, dealt_at
