"""Table leases with fencing: several ``rollem serve`` on one PostgreSQL (issue 17).

Each table is played by exactly one process at a time: the one holding its
lease, a row of ``leases`` (created by :data:`LEASES_SCHEMA`):

- ``owner``: the holding process (:func:`new_owner_id`), ``NULL`` once released;
- ``url``: where that process is reached (``http://10.0.0.5:8001``): a process
  asked for a table it does not hold sends the asker there (``rollem serve
  --advertise-url``);
- ``epoch``: the *fencing token*, one more at every acquisition (never reset:
  the row is never deleted);
- ``expires``: the database's clock (``clock_timestamp()``, so the processes'
  clocks need not agree) plus the lease time.  The owner renews it every third
  of the lease time; a lease not renewed in time may be taken by any process.

Fencing: every write of a table's stream (:class:`rollem.server.store_pg.PgStore`)
is checked in the transaction that commits it: a group commit locks and
checks the lease rows of all its tables at once (:data:`GROUP_FENCE`, the
function ``rollem_fence``); a write on its own: :func:`check_fence`.  The lease row is locked
(``FOR KEY SHARE``) and the write is refused with :class:`LeaseLost` unless
the row still names this process and the epoch the process acquired; an
acquisition locks the row ``FOR UPDATE`` first, so it waits for that lock: a
write either commits before the takeover (and the new owner replays it from
the store) or is refused after it.  Renewals (a plain ``UPDATE`` of the
expiry) do not conflict with the fence's lock, so a renewal of many rows and
a group commit of many tables cannot deadlock.  A process that gets
:class:`LeaseLost` drops the table.
"""

from __future__ import annotations

import os
import secrets
import socket
import sqlite3
import threading
from dataclasses import dataclass
from typing import Any

import psycopg

__all__ = ["GROUP_FENCE", "LEASES_SCHEMA", "Lease", "LeaseLost", "Leases", "check_fence",
           "fence_refusal", "new_owner_id"]

LEASES_SCHEMA = """
CREATE TABLE IF NOT EXISTS leases (
    table_id TEXT PRIMARY KEY,
    owner TEXT,
    url TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    expires TIMESTAMPTZ NOT NULL
);
CREATE OR REPLACE FUNCTION rollem_fence(ids TEXT[], epochs BIGINT[], who TEXT)
RETURNS void LANGUAGE plpgsql AS $fence$
BEGIN
    PERFORM 1 FROM leases WHERE table_id = ANY(ids) ORDER BY table_id FOR KEY SHARE;
    IF EXISTS (SELECT 1 FROM unnest(ids, epochs) AS f(table_id, epoch)
               LEFT JOIN leases l USING (table_id)
               WHERE l.owner IS DISTINCT FROM who OR f.epoch IS NULL
                  OR l.epoch IS DISTINCT FROM f.epoch) THEN
        RAISE EXCEPTION 'rollem: a lease was lost' USING ERRCODE = 'RLF01';
    END IF;
END
$fence$
"""


_IDLE_ACQUIRERS = 4
"""Acquisition connections kept open between acquisitions (more are opened while
more acquire at once: at most the threads that call :meth:`Leases.acquire`)."""


class LeaseLost(sqlite3.OperationalError):
    """A write or renewal refused: this process no longer holds the table's lease
    (another process took it over, or it was released).  A store error, so a
    table treats it like any failed write, except that it drops the table."""


def new_owner_id() -> str:
    """A name for this process's leases, unique across machines and restarts:
    ``host/pid/random``."""
    return f"{socket.gethostname()}/{os.getpid()}/{secrets.token_hex(4)}"


@dataclass(frozen=True, slots=True)
class Lease:
    """One lease row as read: who holds ``table_id`` (``owner``, ``None`` when
    released) at which ``epoch``, reached at ``url``; ``ours`` when the reader
    holds it; ``live`` while it has not expired."""

    table_id: str
    owner: str | None
    url: str
    epoch: int
    ours: bool
    live: bool


def check_fence(conn: psycopg.Connection[Any], table_id: str, owner: str,
                epoch: int | None) -> None:
    """Inside a write's transaction: lock the lease row of ``table_id`` and check
    that ``owner`` holds it at ``epoch``.

    Raises:
        LeaseLost: it does not (the message says who does, at which epoch).
    """
    row = conn.execute("SELECT owner, epoch FROM leases WHERE table_id=%s FOR KEY SHARE",
                       (table_id,)).fetchone()
    refusal = fence_refusal(table_id, owner, epoch,
                            None if row is None else (row[0], int(row[1])))
    if refusal is not None:
        raise refusal


GROUP_FENCE = "SELECT rollem_fence(%s::text[], %s::bigint[], %s::text)"
"""Inside a group commit's transaction, with ``(table ids, epochs, owner)``: lock
the lease rows of those tables (one statement, ``FOR KEY SHARE`` in table id
order; the locks hold until the transaction ends, so a takeover waits for the
commit, as with :func:`check_fence`) and fail (SQLSTATE ``RLF01``) unless
``owner`` holds every one at its epoch.  The failure does not say which: run
the writes again one by one with :func:`check_fence`."""


def fence_refusal(table_id: str, owner: str, epoch: int | None,
                  row: tuple[str | None, int] | None) -> LeaseLost | None:
    """The :class:`LeaseLost` refusing a write of ``table_id`` by ``owner`` under
    ``epoch`` when the lease row (``(owner, epoch)``, ``None``: never leased) says
    otherwise; ``None`` when the write may go ahead."""
    if row is not None and row[0] == owner and epoch is not None and row[1] == epoch:
        return None
    now = "nobody" if row is None or row[0] is None else f"{row[0]} at epoch {row[1]}"
    return LeaseLost(f"write refused: table {table_id} is no longer this process's "
                     f"(it held epoch {epoch}; the lease is now {now})")


class Leases:
    """This process's leases on the PostgreSQL database at ``url``.

    ``owner`` names this process (:func:`new_owner_id`), ``advertise`` is where
    it is reached, ``seconds`` the lease time.  Every method is one short
    transaction on a connection of its own (thread-safe: the manager calls
    them from worker threads).

    Raises (any method): ``sqlite3.OperationalError`` when the database cannot
    be reached (the store interface's error type).
    """

    def __init__(self, url: str, owner: str, advertise: str, seconds: float = 10.0) -> None:
        if not seconds > 0:
            raise ValueError(f"the lease time must be more than 0 seconds, not {seconds}")
        self.url = url
        self.owner = owner
        self.advertise = advertise
        self.seconds = float(seconds)
        self._lock = threading.Lock()
        self._conn: psycopg.Connection[Any] | None = None
        # holder()'s reads have a connection of their own: a request asking who
        # holds a table never waits behind a renewal or a takeover's row lock.
        self._read_lock = threading.Lock()
        self._read_conn: psycopg.Connection[Any] | None = None
        # Acquisitions lock a lease row and may wait for a hung holder's commit (up
        # to the lease time): each on a connection of its own, never the renewals'
        # (a renewal held that long lets this process's live leases lapse) nor
        # another acquisition's (stop 73, s73-hostile).  Idle ones are kept here.
        self._pool_lock = threading.Lock()
        self._idle: list[psycopg.Connection[Any]] = []
        # Processes starting at once take turns creating it (the migrations' lock).
        self._run(f"BEGIN; SELECT pg_advisory_xact_lock(7117017); {LEASES_SCHEMA}; COMMIT",
                  None, fetch=False)

    def _run(self, sql: str, args: tuple[Any, ...] | dict[str, Any] | None,
             fetch: bool = True, lock_first: str | None = None) -> list[tuple[Any, ...]]:
        """Run ``sql``; with ``lock_first``, in one transaction after locking that
        table's lease row ``FOR UPDATE`` (waiting for writes fenced on it)."""
        if lock_first is not None:
            return self._run_locked(sql, args, lock_first)
        with self._lock:
            try:
                if self._conn is None or self._conn.closed or self._conn.broken:
                    self._conn = self._connect()
                cur = self._conn.execute(sql, args)
                return cur.fetchall() if fetch else []
            except psycopg.Error as err:
                raise sqlite3.OperationalError(f"PostgreSQL: {str(err).strip()}") from err

    def _connect(self) -> psycopg.Connection[Any]:
        conn = psycopg.connect(self.url, autocommit=True)
        # Never wait long for a lease row a hung process's commit holds.
        conn.execute(f"SET lock_timeout = {int(self.seconds * 1000)}")
        return conn

    def _run_locked(self, sql: str, args: tuple[Any, ...] | dict[str, Any] | None,
                    table_id: str) -> list[tuple[Any, ...]]:
        """:meth:`_run` with ``lock_first``: on an acquisition connection of its own."""
        conn = None
        with self._pool_lock:
            while self._idle and conn is None:
                conn = self._idle.pop()
                if conn.closed or conn.broken:
                    conn = None
        try:
            if conn is None:
                conn = self._connect()
            with conn.transaction():
                conn.execute("SELECT 1 FROM leases WHERE table_id=%s FOR UPDATE", (table_id,))
                rows = conn.execute(sql, args).fetchall()
        except psycopg.Error as err:
            raise sqlite3.OperationalError(f"PostgreSQL: {str(err).strip()}") from err
        finally:
            if conn is not None:
                with self._pool_lock:
                    if len(self._idle) < _IDLE_ACQUIRERS and not conn.closed:
                        self._idle.append(conn)
                        conn = None
                if conn is not None:
                    conn.close()
        return rows

    def acquire(self, table_id: str) -> Lease:
        """Take the lease of ``table_id`` if nobody holds it, it expired, this
        process holds it, or it is held under this process's own address (an
        earlier run of this server, restarted after a crash: the address is
        this process's now).  The epoch goes up by one in every case (a fresh
        fencing token: writes made under an earlier one are refused).

        Returns the lease now: ``ours`` (with the new epoch) or, when another
        process holds a live lease, that holder's (``ours`` false).
        """
        rows = self._run(
            "INSERT INTO leases (table_id, owner, url, epoch, expires) VALUES "
            "(%(t)s, %(o)s, %(u)s, 1, clock_timestamp() + %(s)s * interval '1 second') "
            "ON CONFLICT (table_id) DO UPDATE SET owner=EXCLUDED.owner, url=EXCLUDED.url, "
            "epoch=leases.epoch + 1, expires=EXCLUDED.expires "
            "WHERE leases.owner IS NULL OR leases.owner = EXCLUDED.owner "
            "OR leases.expires < clock_timestamp() "
            "OR (leases.url = EXCLUDED.url AND EXCLUDED.url <> '') RETURNING epoch",
            {"t": table_id, "o": self.owner, "u": self.advertise, "s": self.seconds},
            lock_first=table_id)
        if rows:
            return Lease(table_id, self.owner, self.advertise, int(rows[0][0]), True, True)
        held = self.holder(table_id)
        if held is None:  # released and deleted in between: cannot happen (never deleted)
            raise sqlite3.OperationalError(f"the lease of table {table_id} vanished")
        if not held.live:  # it expired in between: try again
            return self.acquire(table_id)
        return held

    def holder(self, table_id: str) -> Lease | None:
        """The lease row of ``table_id`` as it is now (``None``: never leased); read
        without a lock, on a connection of its own (never waiting for
        :meth:`renew` or :meth:`acquire`)."""
        with self._read_lock:
            try:
                if self._read_conn is None or self._read_conn.closed or self._read_conn.broken:
                    self._read_conn = psycopg.connect(self.url, autocommit=True)
                rows = self._read_conn.execute(
                    "SELECT owner, url, epoch, expires > clock_timestamp() FROM leases "
                    "WHERE table_id=%s", (table_id,)).fetchall()
            except psycopg.Error as err:
                raise sqlite3.OperationalError(f"PostgreSQL: {str(err).strip()}") from err
        if not rows:
            return None
        owner, url, epoch, live = rows[0]
        return Lease(table_id, owner, url, int(epoch), owner == self.owner and live,
                     bool(live) and owner is not None)

    def renew(self, held: dict[str, int]) -> set[str]:
        """Push back the expiry of every lease in ``held`` (table id → epoch) that
        this process still holds at that epoch; the ids it no longer holds
        (refused: taken over or released)."""
        if not held:
            return set()
        ids = list(held)
        rows = self._run(
            "UPDATE leases SET expires = clock_timestamp() + %s * interval '1 second' "
            "FROM unnest(%s::text[], %s::bigint[]) AS h(table_id, epoch) "
            "WHERE leases.table_id = h.table_id AND leases.epoch = h.epoch "
            "AND leases.owner = %s RETURNING leases.table_id",
            (self.seconds, ids, [held[t] for t in ids], self.owner))
        return set(ids) - {r[0] for r in rows}

    def release(self, table_id: str, epoch: int) -> bool:
        """Give up the lease (the table was unloaded or the server stops): any
        process may take it at once.  Whether this process still held it."""
        rows = self._run(
            "UPDATE leases SET owner = NULL, expires = clock_timestamp() "
            "WHERE table_id=%s AND owner=%s AND epoch=%s RETURNING epoch",
            (table_id, self.owner, epoch))
        return bool(rows)

    def orphans(self) -> list[str]:
        """Tables whose owner stopped renewing without releasing them (it died or
        hangs): held, expired.  Another process adopts them (replays them from
        the store and plays on)."""
        rows = self._run("SELECT table_id FROM leases WHERE owner IS NOT NULL "
                         "AND expires < clock_timestamp() ORDER BY table_id", None)
        return [r[0] for r in rows]

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
        with self._pool_lock:
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()
        with self._read_lock:
            if self._read_conn is not None:
                self._read_conn.close()
