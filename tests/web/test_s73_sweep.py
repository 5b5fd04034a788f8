"""The idle sweep reads and deletes in a thread of its own (stop 73, s73-hostile).

Every 30 s at most the sweep reads the sum of the stored hands' bytes (the disk
budget), and at most hourly it looks for old and never-played tables and
deletes them with their hands.  It did so on the event loop: while the store
was slow (a disk's sync, a database's round trips, many stored tables, a
deletion waiting for the writer's queue) every table of the process stood
still.  Here each of those reads is held on a gate: another table still
answers, and the sweep goes on when the gate opens.
"""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_harness import UNLIMITED, ServerThread, create_table


@pytest.mark.parametrize("read", ["stored_total", "tables_idle_since"])
def test_a_slow_store_read_of_the_sweep_holds_no_table(tmp_path: Path, read: str) -> None:
    settings = dataclasses.replace(UNLIMITED, idle_seconds=0.4, unplayed_seconds=2.0)
    server = ServerThread(tmp_path / "t.db", settings)
    gate, entered = threading.Event(), threading.Event()
    try:
        tid, _ = create_table(server.url, game="holdem", bots=1)
        store = server.manager.store
        real = getattr(store, read)

        def slow(*args: Any) -> Any:
            entered.set()
            gate.wait(30)  # (a slow disk or database)
            return real(*args)

        setattr(store, read, slow)
        assert entered.wait(10), f"the sweep did not call {read}"
        # a watcher's look at the table, on the loop, while the sweep's read waits
        r = httpx.get(f"{server.url}/api/tables/{tid}", timeout=5)  # main: ReadTimeout
        assert r.status_code == 200 and r.json()["id"] == tid
        assert not gate.is_set()
        gate.set()
        entered.clear()
        assert entered.wait(10), "the sweep stopped after the slow read"
    finally:
        gate.set()
        server.stop()

