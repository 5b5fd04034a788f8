"""The store's reads: a connection for each thread that reads (stop 73).

The idle sweep reads the store in a thread of its own (s73-hostile).  With one
read connection shared, its slow read held the event loop's reads, and the
store could close the connection under a read still running in the sweep's
thread: sqlite3 crashed the process (a segmentation fault in the sweep's test
as the server stopped).  Here a read is held on a gate inside SQLite.
"""

from __future__ import annotations

import sqlite3
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

from rollem.server.readers import ReadersClosed
from rollem.server.store import Store

entered = threading.Event()
opened = threading.Event()


def _gate() -> int:
    entered.set()
    opened.wait(20)
    return 1


class GatedStore(Store):
    """A store whose connections know ``gate()``: a read that waits for ``opened``."""

    def _connect(self) -> sqlite3.Connection:
        db = super()._connect()
        db.create_function("gate", 0, _gate)
        return db


@pytest.fixture
def store(tmp_path: Path) -> GatedStore:
    entered.clear()
    opened.clear()
    return GatedStore(tmp_path / "t.db")


def test_a_slow_read_in_one_thread_holds_no_other_threads_read(store: GatedStore) -> None:
    with ThreadPoolExecutor(2) as pool:
        try:
            slow: Future[object] = pool.submit(
                lambda: store.db.execute("SELECT gate()").fetchone())
            assert entered.wait(10)
            # another thread's read, while the first is still inside SQLite
            other = pool.submit(store.table_count)
            assert other.result(10) == 0  # main: waited for the gate
            assert not opened.is_set() and not slow.done()
        finally:
            opened.set()
        assert slow.result(10) == (1,)
        assert store.db.connections == 2
    store.close()


def test_closing_waits_for_a_read_under_way_and_refuses_a_read_after(
        store: GatedStore) -> None:
    with ThreadPoolExecutor(1) as reader, ThreadPoolExecutor(1) as closer:
        try:
            slow: Future[object] = reader.submit(
                lambda: store.db.execute("SELECT gate()").fetchone())
            assert entered.wait(10)
            closing = closer.submit(store.close)
            # the close waits for the read (main: closed the connection under it)
            with pytest.raises(TimeoutError):
                closing.result(0.5)
        finally:
            opened.set()
        assert slow.result(10) == (1,)
        closing.result(10)
        later = reader.submit(store.table_count)  # the reading thread, after the close
        with pytest.raises(ReadersClosed, match="the store is closed"):
            later.result(10)
    with pytest.raises(ReadersClosed):
        store.db.execute("SELECT 1")  # a thread that never read here
