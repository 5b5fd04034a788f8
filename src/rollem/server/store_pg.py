"""PostgreSQL store for the web table (``rollem serve --db postgresql://...``, issue 17).

:class:`PgStore` is :class:`rollem.server.store.Store` (the store interface:
:meth:`~Store.stream` → :meth:`WriteStream.write` → a future done once
committed, :meth:`~WriteStream.drained`, the reads) on a PostgreSQL database
through psycopg 3, with the same promise: a write's future is done only once
its transaction has committed (PostgreSQL's default ``synchronous_commit=on``:
the commit is in the write-ahead log on disk), and the server tells clients of
a change only after that.  The one writer thread, the group commit, the
per-write savepoints and the per-table stream ordering are the SQLite store's
(the same code: only :meth:`PgStore._transact`, one group's transaction, is
PostgreSQL's own).

The statements are the SQLite store's, translated (:func:`translate`):
``?`` placeholders become ``%s``, ``INSERT OR REPLACE`` an ``INSERT ... ON
CONFLICT (primary key) DO UPDATE``, ``json_extract(col, '$.key')`` a
``jsonb`` lookup.  Errors reach the caller as the store interface's error
type, :class:`sqlite3.Error` (:class:`sqlite3.IntegrityError` for a
constraint, :class:`sqlite3.OperationalError` otherwise), so a table reacts to
a failed PostgreSQL write exactly as to a failed SQLite one.

Schema versions (:data:`PG_MIGRATIONS`) are kept in step with
:data:`rollem.server.schema.MIGRATIONS`: the version is in the one-row table
``rollem_schema``; a newer database is refused with
:class:`~rollem.server.schema.SchemaError`.
"""

from __future__ import annotations

import functools
import re
import sqlite3
import threading
import time
from typing import Any

import psycopg

from rollem.server import trace
from rollem.server.leases import GROUP_FENCE, LeaseLost, check_fence
from rollem.server.readers import Rows, ThreadReaders
from rollem.server.schema import SCHEMA_VERSION, STORED_BACKFILL, SchemaError
from rollem.server.store import QueuedWrite, Statement, Store, WriteStream

__all__ = ["PG_MIGRATIONS", "PG_SCHEMA", "FencedStream", "PgStore", "translate"]

PG_SCHEMA = """
CREATE TABLE IF NOT EXISTS rollem_schema (
    one INTEGER PRIMARY KEY CHECK (one = 1),
    version INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    session TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    host_digest TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    token_digest TEXT,
    bot TEXT,
    stack BIGINT NOT NULL,
    brought BIGINT NOT NULL,
    bank DOUBLE PRECISION NOT NULL,
    joined_hand INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS hands (
    table_id TEXT NOT NULL REFERENCES tables(id),
    hand_no INTEGER NOT NULL,
    setup TEXT NOT NULL,
    result TEXT,
    PRIMARY KEY (table_id, hand_no)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL,
    hand_no INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    source TEXT NOT NULL,
    events TEXT NOT NULL,
    ts DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, hand_no, idx)
);
"""

PG_MIGRATIONS: list[str] = [
    "CREATE INDEX IF NOT EXISTS tables_created ON tables (created)",
    "ALTER TABLE tables ADD COLUMN IF NOT EXISTS stored BIGINT NOT NULL DEFAULT 0; "
    + STORED_BACKFILL,
    "ALTER TABLE tables ADD COLUMN IF NOT EXISTS chat TEXT",
]
"""``PG_MIGRATIONS[i]`` takes a database from version ``i`` to ``i + 1`` (as SQLite's)."""

assert len(PG_MIGRATIONS) == SCHEMA_VERSION, "keep PostgreSQL's migrations in step"

PRIMARY_KEYS = {"seats": "table_id, seat", "health": "id"}
"""The conflict target of ``INSERT OR REPLACE`` per table written that way."""

_REPLACE = re.compile(r"INSERT OR REPLACE INTO (\w+) \(([^)]*)\)(.*)", re.S)
_JSON = re.compile(r"json_extract\((\w+), '\$\.(\w+)'\)")


@functools.lru_cache(maxsize=256)
def translate(sql: str) -> str:
    """The PostgreSQL form of one of the SQLite store's statements.

    ``translate("SELECT x FROM t WHERE id=?") == "SELECT x FROM t WHERE id=%s"``.

    Raises:
        KeyError: an ``INSERT OR REPLACE`` into a table not in :data:`PRIMARY_KEYS`.
    """
    m = _REPLACE.fullmatch(sql)
    if m is not None:
        table, cols, rest = m.group(1), m.group(2), m.group(3)
        key = PRIMARY_KEYS[table]
        keys = {k.strip() for k in key.split(",")}
        names = [c.strip() for c in cols.split(",")]
        update = ", ".join(f"{c}=EXCLUDED.{c}" for c in names if c not in keys)
        sql = (f"INSERT INTO {table} ({cols}){rest} ON CONFLICT ({key}) "
               + (f"DO UPDATE SET {update}" if update else "DO NOTHING"))
    sql = _JSON.sub(r"((\1::jsonb)->>'\2')::double precision", sql)
    return sql.replace("?", "%s")


def _as_store_error(err: psycopg.Error) -> sqlite3.Error:
    """A psycopg error as the store interface's error type (see the module docstring)."""
    kind = (sqlite3.IntegrityError if isinstance(err, psycopg.errors.IntegrityError)
            else sqlite3.OperationalError)
    return kind(f"PostgreSQL: {str(err).strip() or type(err).__name__}")


class _OneByOne(Exception):
    """A statement of a pipelined group failed: run the group one write at a time."""


class _Reader:
    """The read connection, speaking the SQLite store's SQL (``execute(sql, args)``)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.lock = threading.Lock()
        self.conn: psycopg.Connection[Any] | None = None

    def execute(self, sql: str, args: tuple[Any, ...] = ()) -> Rows:
        with self.lock:
            try:
                if self.conn is None or self.conn.closed:
                    self.conn = psycopg.connect(self.url, autocommit=True)
                rows = self.conn.execute(translate(sql), args).fetchall()
            except psycopg.Error as err:
                if self.conn is not None and self.conn.broken:
                    self.conn = None
                raise _as_store_error(err) from err
        return Rows(rows)

    def close(self) -> None:
        with self.lock:
            if self.conn is not None:
                self.conn.close()


class FencedStream(WriteStream):
    """A table's :class:`WriteStream` under a lease: ``epoch`` is the fencing token
    this process acquired for the table (``None``: it holds none, so every write
    is refused).  See :mod:`rollem.server.leases`."""

    def __init__(self, store: PgStore, table_id: str, epoch: int | None) -> None:
        super().__init__(store, table_id)
        self.epoch = epoch


class PgStore(Store):
    """The store on the PostgreSQL database at ``url`` (a libpq connection URL).

    Several processes may share one database once :attr:`fence_owner` is set
    (``rollem serve`` sets it to its lease owner id): then every write of a
    table's stream is fenced (:func:`rollem.server.leases.check_fence`) with the
    epoch in :attr:`epochs` when the stream was opened, and fails with
    :class:`~rollem.server.leases.LeaseLost` once another process took the table.
    The writer's transactions then may not stay idle longer than
    :attr:`idle_tx_seconds` (a hung process's open commit would block takeovers).

    Raises (from the constructor):
        sqlite3.OperationalError: cannot connect or create the schema.
        SchemaError: the database's schema is newer than this rollem's.
    """

    def __init__(self, url: str) -> None:
        self.path = url
        self._pg: psycopg.Connection[Any] | None = self._pg_connect()
        self._pg_migrate(self._pg)
        self.db = ThreadReaders(lambda: _Reader(url))  # (one a thread that reads)
        self._wdb = None
        self._start_writer("rollem-store-pg")
        self.fence_owner: str | None = None
        self.idle_tx_seconds = 5.0  # with fence_owner: see _pg_connect
        self.epochs: dict[str, int] = {}
        self.refused = 0  # writes refused by the fence (a stale owner's late writes)
        self.one_by_one = 0  # groups run again write by write (a statement failed)

    def stream(self, table_id: str) -> WriteStream:
        """As :meth:`Store.stream`; fenced with the table's current epoch once
        :attr:`fence_owner` is set."""
        if self.fence_owner is None:
            return WriteStream(self, table_id)
        return FencedStream(self, table_id, self.epochs.get(table_id))

    def fence(self, owner: str, idle_tx_seconds: float) -> None:
        """Fence every table stream from now on under the leases of ``owner``
        (call before the first write; see the class docstring)."""
        self.fence_owner = owner
        self.idle_tx_seconds = idle_tx_seconds
        self._queue.put_nowait(None)  # the writer reconnects with the limit: restart it
        self._writer.join(30)
        if self._pg is not None:
            self._pg.close()
        self._pg = None
        self._writer = threading.Thread(target=self._write_loop, name="rollem-store-pg",
                                        daemon=True)
        self._writer.start()

    def _pg_connect(self) -> psycopg.Connection[Any]:
        try:
            conn = psycopg.connect(self.path, autocommit=True)
            if getattr(self, "fence_owner", None) is not None:
                # A process that hangs in the middle of a commit must not hold its
                # lease rows locked (the fence) past its lease: the server ends
                # such a transaction (the writes are refused, never half-made).
                conn.execute(f"SET idle_in_transaction_session_timeout = "
                             f"{int(self.idle_tx_seconds * 1000)}")
            return conn
        except psycopg.Error as err:
            raise _as_store_error(err) from err

    @staticmethod
    def _pg_migrate(conn: psycopg.Connection[Any]) -> int:
        """Create the schema and run the migrations (each in one transaction); the
        version found.  Several processes starting at once take turns (a lock)."""
        try:
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(7117017)")
                conn.execute(PG_SCHEMA)
                row = conn.execute("SELECT version FROM rollem_schema").fetchone()
                found = 0 if row is None else int(row[0])
                if found > SCHEMA_VERSION:
                    raise SchemaError(
                        f"the database has schema version {found}; this rollem knows up to "
                        f"{SCHEMA_VERSION}: upgrade rollem or use another --db")
                for version in range(found, SCHEMA_VERSION):
                    conn.execute(PG_MIGRATIONS[version])
                conn.execute("INSERT INTO rollem_schema (one, version) VALUES (1, %s) "
                             "ON CONFLICT (one) DO UPDATE SET version=EXCLUDED.version",
                             (SCHEMA_VERSION,))
        except psycopg.Error as err:
            raise _as_store_error(err) from err
        return found

    def schema_version(self) -> int:
        """The database's schema version."""
        row = self.db.execute("SELECT version FROM rollem_schema").fetchone()
        return 0 if row is None else int(row[0])

    @property
    def journal_mode(self) -> str:
        return "postgresql"

    def _close_writer_connection(self) -> None:
        if self._pg is not None:
            self._pg.close()

    def _transact(self, group: list[QueuedWrite], outcome: dict[int, BaseException]) -> None:
        """As :meth:`Store._transact`: one transaction for the whole group.

        First as one query (:meth:`_transact_one_query`: one round trip for the
        whole group); if any statement fails there (a fence included), the
        transaction is rolled back and the group is run again one write at a
        time, each in a savepoint (:meth:`_transact_savepoints`), so a write
        failing on its own fails alone, exactly as on SQLite.
        """
        if self._pg is None or self._pg.closed or self._pg.broken:
            self._pg = self._pg_connect()
        conn = self._pg
        try:
            try:
                self._transact_one_query(conn, group, outcome)
                return
            except _OneByOne:
                self.one_by_one += 1
            self._transact_savepoints(conn, group, outcome)
        except psycopg.Error as err:
            raise _as_store_error(err) from err

    def _transact_one_query(self, conn: psycopg.Connection[Any], group: list[QueuedWrite],
                            outcome: dict[int, BaseException]) -> None:
        """The group's transaction as one query string, sent at once: ``BEGIN``,
        the fence of all its fenced tables in one statement
        (:data:`~rollem.server.leases.GROUP_FENCE`), every write's statements
        (the values bound here, quoted by psycopg), ``COMMIT``.

        One round trip, not one per statement: the writer thread gives up
        Python's lock (GIL) only while it waits, and each time it takes it
        back it may wait for the server's busy event loop (up to
        ``sys.getswitchinterval()``), so many short waits add up.

        Raises:
            _OneByOne: a statement failed (rolled back; nothing of the group
                recorded: run it one write at a time).
            psycopg.Error: the connection broke.
        """
        t0 = time.perf_counter() if trace.TRACE_DIR else 0.0
        cur = psycopg.ClientCursor(conn)
        parts = ["BEGIN"]
        fenced: dict[tuple[str, int | None], None] = {}
        body: list[str] = []
        for _i, statements, stream in self._writes_to_try(group, outcome):
            if isinstance(stream, FencedStream):
                fenced[stream.table_id, stream.epoch] = None
            body.extend(cur.mogrify(translate(sql), args) for sql, args in statements)
        if fenced:
            assert self.fence_owner is not None
            parts.append(cur.mogrify(GROUP_FENCE, ([t for t, _e in fenced],
                                                   [e for _t, e in fenced],
                                                   self.fence_owner)))
        parts.extend(body)
        parts.append("COMMIT")
        try:
            query = ";\n".join(parts)
            if trace.TRACE_DIR:
                t1, cpu1, wait1 = time.perf_counter(), time.thread_time(), trace.run_delay_ms()
            cur.execute(query)
            if trace.TRACE_DIR:  # built, sent and answered; this thread's CPU and CPU wait
                t2 = time.perf_counter()
                trace.line("pg", f"{time.time() - (t2 - t0):.4f}", f"{(t1 - t0) * 1000:.2f}",
                           f"{(t2 - t1) * 1000:.2f}",
                           f"{(time.thread_time() - cpu1) * 1000:.2f}",
                           f"{trace.run_delay_ms() - wait1:.2f}", len(query))
        except psycopg.Error:
            if conn.broken:
                raise
            if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                conn.execute("ROLLBACK")
            outcome.clear()
            raise _OneByOne from None

    def _transact_savepoints(self, conn: psycopg.Connection[Any], group: list[QueuedWrite],
                             outcome: dict[int, BaseException]) -> None:
        """The group's transaction one write at a time, each in a savepoint
        (fenced first when its stream is): a write that fails is rolled back
        to its savepoint and recorded in ``outcome``; the others commit."""
        with conn.transaction():
            for i, statements, stream in self._writes_to_try(group, outcome):
                try:
                    with conn.transaction():  # a savepoint
                        if isinstance(stream, FencedStream):
                            assert self.fence_owner is not None
                            check_fence(conn, stream.table_id, self.fence_owner, stream.epoch)
                        self._pg_apply(conn, statements)
                except (psycopg.Error, LeaseLost) as err:
                    if isinstance(err, psycopg.Error) and conn.broken:
                        raise
                    self.refused += isinstance(err, LeaseLost)
                    self._write_failed(outcome, i, stream, err if isinstance(err, LeaseLost)
                                       else _as_store_error(err))

    def _transaction_failed(self) -> None:
        if self._pg is not None and self._pg.broken:
            self._pg = None

    def _pg_apply(self, conn: psycopg.Connection[Any], statements: list[Statement]) -> None:
        for sql, args in statements:
            conn.execute(translate(sql), args)
