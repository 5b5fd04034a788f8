"""A table's statistics are counted in a thread of their own (stop 58).

``/api/tables/<id>/stats`` counted in the event loop's default executor, one
count at a time (a lock: the cached counts are shared).  A table of many hands
never counted takes seconds (1.1 ms a six-player hold'em hand; a table may
store some 20,000), and every request waiting for the lock held one of the
default executor's few workers (``min(32, CPUs + 4)``) meanwhile: the other
work sent there -- creating a table, checking a table password, rendering a
rules page, and with PostgreSQL renewing the process's leases (10 s) -- waited
for the count.  Here the count is held on a gate and the default executor has
4 workers: a table is still created.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_harness import ServerThread, create_table

import rollem.stats


def test_a_long_stats_count_does_not_hold_the_default_executor(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gate, ran_out = threading.Event(), threading.Event()
    real = rollem.stats.SessionStats

    class SlowStats(real):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            if not gate.wait(30):  # (a count of many hands)
                ran_out.set()
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(rollem.stats, "SessionStats", SlowStats)
    server = ServerThread(tmp_path / "t.db")
    pool = ThreadPoolExecutor(12)
    try:
        server.server_loop().call_soon_threadsafe(
            server.server_loop().set_default_executor, ThreadPoolExecutor(4))
        tid, _ = create_table(server.url, game="holdem", bots=1)
        asked = [pool.submit(httpx.get, f"{server.url}/api/tables/{tid}/stats", timeout=40)
                 for _ in range(8)]
        time.sleep(0.5)  # (the requests are in: each waits for the count)
        r = httpx.post(server.url + "/api/tables", json={"game": "holdem", "bots": 1},
                       timeout=40)  # (its configuration is read in the default executor)
        # Created while the count still waits at the gate (main: only once the
        # gate's 30 s ran out), not timed.
        late = ran_out.is_set()
        gate.set()
        assert r.status_code == 200, r.text
        assert not late, "the table was created only once a count's wait ran out"
        assert [a.result().status_code for a in asked] == [200] * 8
    finally:
        gate.set()
        pool.shutdown()
        server.stop()
