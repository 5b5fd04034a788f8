"""The store's read connections: one for each thread that reads (stop 73).

The event loop reads the store, and so do worker threads: the idle sweep's
(:mod:`rollem.server.manager`, stop 73) and, across processes, the table
look-ups'.  One connection shared between them made each thread wait for the
others' reads (a slow sweep read held the loop's), and a read could still be
running in the sweep's thread when the store closed its connection: a
segmentation fault in sqlite3 (seen in the sweep's test at shutdown).

:class:`ThreadReaders` gives each reading thread a connection of its own, made
on its first read.  A read fetches its rows whole under its connection's lock,
so :meth:`ThreadReaders.close` waits for a read under way, and a read after
the close is refused with an error rather than touching a closed connection.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any, Protocol


class _Connection(Protocol):
    def execute(self, sql: str, args: Any = ..., /) -> Any: ...

    def close(self) -> None: ...


class Rows:
    """Rows fetched whole, with the cursor methods the store's reads use."""

    def __init__(self, rows: list[tuple[Any, ...]]) -> None:
        self.rows = rows

    def fetchone(self) -> Any:  # (as a cursor's: the row, or None)
        return self.rows[0] if self.rows else None

    def fetchall(self) -> list[tuple[Any, ...]]:
        return self.rows

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return iter(self.rows)


class ReadersClosed(RuntimeError):
    """A read asked of a store already closed (a worker thread outliving it)."""


class ThreadReaders:
    """Read connections made by ``connect()``, one a thread, used through
    :meth:`execute` (``sql`` in the store's dialect, ``args`` a tuple).

    ``connect`` returns an object with ``execute(sql, args)`` (a cursor with
    ``fetchall()``) and ``close()``: a ``sqlite3.Connection``, or the PostgreSQL
    store's reader.  Its errors pass through unchanged.
    """

    def __init__(self, connect: Callable[[], _Connection]) -> None:
        self._connect = connect
        self._local = threading.local()
        self._lock = threading.Lock()  # (guards _all and _closed)
        self._all: list[tuple[_Connection, threading.Lock]] = []
        self._closed = False

    def execute(self, sql: str, args: tuple[Any, ...] = ()) -> Rows:
        """The rows of one read, fetched whole on this thread's connection.

        Raises:
            ReadersClosed: the store was closed.
        """
        mine: tuple[_Connection, threading.Lock] | None = getattr(self._local, "mine", None)
        if mine is None:
            mine = self._open()
        conn, lock = mine
        with lock:
            if self._closed:
                raise ReadersClosed("the store is closed")
            return Rows(conn.execute(sql, args).fetchall())

    def _open(self) -> tuple[_Connection, threading.Lock]:
        self._refuse_if_closed()
        conn = self._connect()
        mine = (conn, threading.Lock())
        with self._lock:
            closed = self._closed  # (closed while connecting?)
            if not closed:
                self._all.append(mine)
        if closed:
            conn.close()
            raise ReadersClosed("the store is closed")
        self._local.mine = mine
        return mine

    def _refuse_if_closed(self) -> None:
        with self._lock:
            if self._closed:
                raise ReadersClosed("the store is closed")

    @property
    def connections(self) -> int:
        """How many threads have a connection open here."""
        with self._lock:
            return len(self._all)

    def close(self) -> None:
        """Close every thread's connection, each after its read under way."""
        with self._lock:
            self._closed = True
            everyone, self._all = self._all, []
        for conn, lock in everyone:
            with lock:
                conn.close()
