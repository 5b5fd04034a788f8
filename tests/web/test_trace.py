"""The server's timing traces (``ROLLEM_TRACE_DIR``, rollem.server.trace): one line
per group commit, with the figures the load benchmark's analysis reads; one line
per event-loop stall, with the loop's own CPU milliseconds in it."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest
from pg_cluster import PgCluster

from rollem.server import trace
from rollem.server.store import Store
from rollem.server.store_pg import PgStore


def _lines(path: Path, kind: str) -> list[list[str]]:
    return [line.split() for line in (path / f"{kind}.{os.getpid()}").read_text().splitlines()]


def _two_writes(store: Store) -> None:
    store.create_table("t1", {"game": "sdr"}, {"hand_no": 0}, "h")
    store.write("t1", session={"hand_no": 1})


def test_sqlite_commits_are_traced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(trace, "TRACE_DIR", str(tmp_path))
    store = Store(tmp_path / "t.db")
    try:
        _two_writes(store)
    finally:
        store.close()
    commits = _lines(tmp_path, "commit")
    assert len(commits) == 2  # one group commit per write, waited for one by one
    for start, ms, writes, queued, cpu_wait in commits:
        assert float(start) > 1.7e9 and float(ms) >= 0 and float(queued) >= 0
        assert float(cpu_wait) >= 0
        assert writes == "1"


def test_no_trace_without_the_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(trace, "TRACE_DIR", None)
    store = Store(tmp_path / "t.db")
    try:
        _two_writes(store)
    finally:
        store.close()
    assert [p.name for p in tmp_path.iterdir() if not p.name.startswith("t.db")] == []


def test_postgresql_round_trips_are_traced(pg_cluster: PgCluster, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(trace, "TRACE_DIR", str(tmp_path))
    store = PgStore(pg_cluster.new_database())
    try:
        _two_writes(store)
    finally:
        store.close()
    assert [c[2] for c in _lines(tmp_path, "commit")] == ["1", "1"]
    pg = _lines(tmp_path, "pg")
    assert len(pg) == 2
    for _start, build_ms, round_trip_ms, cpu_ms, cpu_wait_ms, chars in pg:
        assert float(build_ms) >= 0 and float(round_trip_ms) > 0 and float(cpu_ms) >= 0
        assert float(cpu_wait_ms) >= 0
        assert int(chars) > len("BEGIN;\nCOMMIT")  # the statements were in the one query


def test_an_event_loop_stall_is_traced_with_the_loops_own_cpu(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A callback that computes for 60 ms of its thread's CPU time stalls the loop:
    one ``loop`` line says it came 50 ms late or more (the watcher's tick may fall
    a little into the stall: 59.6 ms seen) and that the loop's thread used 60 CPU
    ms or more meanwhile (the hostile-client test's measure)."""
    monkeypatch.setattr(trace, "TRACE_DIR", str(tmp_path))

    async def stall() -> None:
        watcher = trace.watch_loop()
        assert watcher is not None
        await asyncio.sleep(0.02)
        t0 = time.thread_time()
        while time.thread_time() - t0 < 0.06:
            pass
        await asyncio.sleep(0.02)
        watcher.cancel()

    asyncio.run(stall())
    stalls = [[float(v) for v in line] for line in _lines(tmp_path, "loop")]
    assert any(late >= 50 and cpu >= 60 for _at, late, _wait, cpu in stalls), stalls
    assert all(wait >= 0 and cpu >= 0 for _at, _late, wait, cpu in stalls), stalls
