"""SQLite store for the web table: tables, seats, hands and their actions.

One :class:`Store` owns the database in WAL mode with ``synchronous=FULL``
(every commit is on disk before it returns) and is its only writer: one
writer thread with its own connection takes the writes in the order they
are submitted and commits them in groups (*group commit*: the writes that
queued up while the previous commit was syncing share the next one), so a
slow disk sync does not hold up the event loop or the other tables.  Each
write is atomic (a savepoint inside the group).  :meth:`Store.submit`
returns a future that is done once the write is committed; the server tells
clients about a change only after that (CLI.md, ``rollem serve``).  Reads
use a second connection and see only committed data.

A table writes through its own :class:`WriteStream` (:meth:`Store.stream`):
its writes commit in order, and one commits only if every earlier write of
the stream did.  Once a write of a stream fails (a full or read-only disk,
an I/O error), every later write of that stream fails too, untried, with
:class:`EarlierWriteFailed`, so what is committed is always a prefix of
what the table did; the table then rebuilds itself from the store and opens
a new stream.  After a failed commit the writer opens a fresh connection
before the next one (a database that was read-only when it was opened stays
read-only on that connection).

The WAL is copied back into the database file (a *checkpoint*) by a
:class:`Checkpointer` thread on its own connection, about once a second
while tables play, never inside a commit: SQLite's automatic checkpoint
(``wal_autocheckpoint``, off here) ran inside whichever commit passed 1,000
pages, and every write queued behind it waited for its copy and disk syncs
(5-17 ms every 1.5 s at 100 commits a second, docs/hosting.md).  Durability
is unchanged: a commit is on disk when its WAL frames are synced, before
any checkpoint.  The WAL stays bounded: should the checkpointer fall behind
(the writer adds frames during each checkpoint, so it never sees the end),
the writer runs one itself between two groups.

What is stored is enough to rebuild every table exactly after a restart:

- ``tables``: the table's id (the unguessable invite token), its
  configuration (JSON) and its session state (button, hand number, pending
  dealer's choice, ...; JSON), the session's ``chat`` lines apart in the
  column ``chat`` (JSON, written only when the chat changed: a full chat is
  about 330,000 characters, the rest of the session a few thousand, and the
  session is written at every action; :meth:`Store.statements`).
- ``seats``: who sits where, a SHA-256 digest of the seat token (never the
  token itself), chips brought and current stack, computer player level,
  time bank left.
- ``hands``: per hand its setup (game, options, seats, stacks, button and
  the recorded random outcomes; JSON) and, once over, its result.
- ``actions``: the ordered actions of each hand (who, what, and whether a
  person, a computer player or the clock made it) with the events they
  produced.  Replaying the actions through the engine rebuilds the hand.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rollem.server import trace
from rollem.server.readers import ThreadReaders

__all__ = [
    "ActionRow", "Checkpointer", "EarlierWriteFailed", "HandRow", "QueuedWrite", "SeatRow",
    "Store", "TableRow", "WriteStream", "token_digest",
]

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    session TEXT NOT NULL,
    created REAL NOT NULL,
    host_digest TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    token_digest TEXT,
    bot TEXT,
    stack INTEGER NOT NULL,
    brought INTEGER NOT NULL,
    bank REAL NOT NULL,
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
    ts REAL NOT NULL,
    PRIMARY KEY (table_id, hand_no, idx)
);
"""


Statement = tuple[str, tuple[Any, ...]]
QueuedWrite = tuple[list[Statement], Future[None], "WriteStream | None"]
"""One write waiting for the writer thread: its statements, its future, its stream."""


def token_digest(token: str) -> str:
    """SHA-256 hex digest of a seat or host token (what the store keeps)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(slots=True)
class TableRow:
    id: str
    config: dict[str, Any]
    session: dict[str, Any]
    host_digest: str
    stored: int = 0
    """Bytes of the table's hands stored (``tables.stored``: see :data:`STORED_SQL`)."""


@dataclass(slots=True)
class SeatRow:
    seat: int
    name: str
    token_digest: str | None
    bot: str | None
    stack: int
    brought: int
    bank: float
    joined_hand: int


@dataclass(slots=True)
class HandRow:
    hand_no: int
    setup: dict[str, Any]
    result: dict[str, Any] | None


@dataclass(slots=True)
class ActionRow:
    idx: int
    seat: int
    action: dict[str, Any]
    source: str
    events: dict[str, Any]


def _dump(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":"), sort_keys=True)


_UNCHANGED = "(the chat as last written)"


def _split_chat(session: dict[str, Any], stream: WriteStream | None = None,
                ) -> tuple[str, str | None]:
    """``session`` as stored: the JSON of the session without ``chat`` and the
    JSON of ``chat`` (``None``: the session has none; :data:`_UNCHANGED`: as
    ``stream`` last wrote it, not to be written again)."""
    if "chat" not in session:
        chat_lines = None
        rest = _dump(session)
    else:
        chat_lines = session["chat"]
        rest = _dump({k: v for k, v in session.items() if k != "chat"})
    if stream is not None and stream.chat_unchanged(chat_lines):
        return rest, _UNCHANGED
    return rest, None if chat_lines is None else _dump(chat_lines)


STORED_SQL = "UPDATE tables SET stored = stored + ? WHERE id=?"
"""Counts what a write adds to a table's hands (issue 34): ``tables.stored``
is the sum of the lengths (characters) of its hands' stored setups and results
and its actions' records and events, kept as the rows are written, so a
table's storage is known without a query (:class:`WriteStream` ``bytes``)."""


class EarlierWriteFailed(RuntimeError):
    """A write not tried because an earlier write of its stream failed (``cause``)."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(f"not written: an earlier write of this table failed ({cause})")
        self.cause = cause


class WriteStream:
    """The ordered writes of one table (``table_id``), made through one :class:`Store`.

    A write commits only if every earlier write of the stream committed:
    after the first failure every later write fails untried with
    :class:`EarlierWriteFailed`.  ``failed`` is the first failure (``None``
    while every write so far committed or is still queued).  A stream never
    recovers: rebuild from the store and open a new one.
    """

    def __init__(self, store: Store, table_id: str) -> None:
        self.store = store
        self.table_id = table_id
        self.failed: BaseException | None = None  # set by the writer thread only
        self._last: Future[None] | None = None
        self.bytes = 0
        """Bytes of hands this stream's writes add (:data:`STORED_SQL`), queued or done."""
        self._chat: list[Any] | None = None
        self._chat_known = False

    def chat_unchanged(self, chat: list[Any] | None) -> bool:
        """Whether ``chat`` (the session's ``chat`` lines, or ``None``) is what this
        stream's last write of the session wrote; if not, remembers it (the caller
        writes it).  A new stream knows nothing: its first session write writes
        the chat too.  Lines are never changed in place (:class:`rollem.server.chat.ChatLog`
        appends and drops), so a shallow copy compares in microseconds."""
        if self._chat_known and (chat == self._chat):
            return True
        self._chat_known = True
        self._chat = None if chat is None else list(chat)
        return False

    def write(self, **changes: Any) -> Future[None] | None:
        """Queue the changes (see :meth:`Store.statements`) as one atomic write.

        Returns the future of the write (done when committed, or failed with
        the error), or ``None`` when there is nothing to write.
        """
        statements = self.store.statements(self.table_id, stream=self, **changes)
        if not statements:
            return None
        sql, args = statements[-1]
        if sql is STORED_SQL:
            self.bytes += int(args[0])
        fut = self.store._enqueue(statements, self)
        self._last = fut
        return fut

    def drained(self) -> Future[None] | None:
        """The future of the last write queued (done once every write of the
        stream is done: committed or failed), or ``None`` if none was queued."""
        return self._last


log = logging.getLogger(__name__)


class Checkpointer:
    """Copies a WAL database's committed pages back into its file, off the writer's path.

    A daemon thread with its own connection (from ``connect``) runs
    ``PRAGMA wal_checkpoint(PASSIVE)`` (which never blocks the writer nor
    readers) at most every ``interval`` seconds, and only after
    :meth:`wrote` said that something was committed since the last one.
    ``frames_limit``: when the WAL still holds more frames than this after a
    checkpoint (it never caught up with the writer), :attr:`behind` is set and
    the store's writer checkpoints once itself between two groups.  A failed
    checkpoint (full or read-only disk) is tried again at the next interval on
    a fresh connection; the commits do not depend on it.

    Counters: ``runs`` (checkpoints made), ``wal_frames`` (frames in the WAL
    at the last one), ``failures``.
    """

    def __init__(self, connect: Any, interval: float = 1.0, frames_limit: int = 4_000) -> None:
        self._connect = connect
        self.interval = interval
        self.frames_limit = frames_limit
        self.behind = False
        self.runs = 0
        self.wal_frames = 0
        self.failures = 0
        self._failing = False
        self._wrote = threading.Event()
        self._stop = threading.Event()
        self._db: sqlite3.Connection | None = None
        self._thread = threading.Thread(target=self._loop, name="rollem-checkpoint",
                                        daemon=True)
        self._thread.start()

    def wrote(self) -> None:
        """(Writer thread.)  Something was committed: checkpoint within ``interval``."""
        self._wrote.set()

    def close(self) -> None:
        """Stop the thread (a checkpoint under way finishes first) and close its connection."""
        self._stop.set()
        self._wrote.set()
        self._thread.join(30)
        if self._db is not None:
            self._db.close()
            self._db = None

    def _loop(self) -> None:
        while not self._stop.is_set():
            self._wrote.wait()
            # Let a second's commits gather: one checkpoint copies each page once.
            if self._stop.wait(self.interval):
                return
            self._wrote.clear()
            self.checkpoint()

    def checkpoint(self) -> tuple[int, int] | None:
        """One PASSIVE checkpoint now: ``(frames in the WAL, frames copied)``, or
        ``None`` if it failed (logged; the next one reconnects)."""
        try:
            if self._db is None:
                self._db = self._connect()
            row = self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        except sqlite3.Error as err:
            self.failures += 1
            if not self._failing:  # once per run of failures
                log.warning("checkpoint of the database failed (tried again): %s", err)
            self._failing = True
            db, self._db = self._db, None
            if db is not None:
                with contextlib.suppress(sqlite3.Error):
                    db.close()
            return None
        self._failing = False
        self.runs += 1
        frames, copied = int(row[1]), int(row[2])
        self.wal_frames = frames
        if frames > self.frames_limit:
            self.behind = True
        return frames, copied


class Store:
    """The one writer of a table database (``path`` or ``":memory:"``).

    Every public method that writes commits before it returns.
    ``checkpointer``: the :class:`Checkpointer` of a database file (``None`` in memory).
    """

    checkpointer: Checkpointer | None = None

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._wdb: sqlite3.Connection | None = self._connect()
        self._wdb.executescript(SCHEMA)
        from rollem.server.schema import migrate

        migrate(self._wdb)
        # reads (committed data only): a connection for each thread that reads
        self.db = ThreadReaders(self._connect)
        if self.path != ":memory:":
            self.checkpointer = Checkpointer(self._connect)
        self._start_writer("rollem-store")

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            # Checkpoints are the Checkpointer's, never inside a commit.
            db.execute("PRAGMA wal_autocheckpoint=0")
            db.execute("PRAGMA foreign_keys=ON")
            db.execute("PRAGMA busy_timeout=10000")
        except BaseException:
            db.close()
            raise
        return db

    def close(self) -> None:
        """Commit what is queued, stop the writer, close the connections."""
        if self._writer.is_alive():
            self._queue.put(None)
            self._writer.join(30)
        if self.checkpointer is not None:
            self.checkpointer.close()
        self.db.close()
        self._close_writer_connection()

    def _close_writer_connection(self) -> None:
        if self._wdb is not None:
            self._wdb.close()

    @property
    def journal_mode(self) -> str:
        row = self.db.execute("PRAGMA journal_mode").fetchone()
        return str(row[0])

    # -- the writer thread (shared by every backend) -----------------------

    def _start_writer(self, name: str) -> None:
        """Start the one writer thread (named ``name``) and the queue it takes writes from."""
        self._queue: queue.Queue[QueuedWrite | None] = queue.Queue()
        self.commits = 0
        self.groups = 0
        self._run_delay = 0.0  # (ROLLEM_TRACE_DIR: the writer thread's, at its last commit)
        self._writer = threading.Thread(target=self._write_loop, name=name, daemon=True)
        self._writer.start()

    def _write_loop(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            group = [item]
            stop = False
            while len(group) < 1000:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                group.append(more)
            self._commit_group(group)
            self._after_group()
            if stop:
                return

    def _after_group(self) -> None:
        """(Writer thread, between groups.)  Tell the checkpointer; if it fell
        behind (the WAL passed its limit), checkpoint here once, where no
        commit can add frames meanwhile, so the next write starts the WAL afresh."""
        ckpt = self.checkpointer
        if ckpt is None:
            return
        ckpt.wrote()
        if ckpt.behind and self._wdb is not None:
            ckpt.behind = False
            with contextlib.suppress(sqlite3.Error):  # the checkpointer reports failures
                self._wdb.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def _commit_group(self, group: list[QueuedWrite]) -> None:
        """Commit ``group`` in one transaction (:meth:`_transact`), then settle each
        write's future: committed, failed on its own (the group still commits),
        failed untried (:class:`EarlierWriteFailed`), or failed with the whole
        transaction (then every stream in the group has failed)."""
        outcome: dict[int, BaseException] = {}
        started = time.perf_counter() if trace.TRACE_DIR else 0.0
        try:
            self._transact(group, outcome)
        except BaseException as err:
            self._transaction_failed()
            for i, (_statements, fut, stream) in enumerate(group):
                if stream is not None and stream.failed is None:
                    stream.failed = err
                fut.set_exception(outcome.get(i, err))
            return
        self.commits += len(group) - len(outcome)
        self.groups += 1
        if trace.TRACE_DIR:
            done = time.perf_counter()
            queued = getattr(group[0][1], "queued_at", started)
            delay, self._run_delay = self._run_delay, trace.run_delay_ms()
            trace.line("commit", f"{time.time() - (done - started):.4f}",
                       f"{(done - started) * 1000:.2f}", len(group),
                       f"{(started - queued) * 1000:.2f}", f"{self._run_delay - delay:.2f}")
        for i, (_statements, fut, _stream) in enumerate(group):
            if i in outcome:
                fut.set_exception(outcome[i])
            else:
                fut.set_result(None)

    @staticmethod
    def _writes_to_try(group: list[QueuedWrite], outcome: dict[int, BaseException],
                       ) -> Iterator[tuple[int, list[Statement], WriteStream | None]]:
        """``(index, statements, stream)`` of each write of ``group`` to try, in
        order; a write whose stream has already failed is not tried: its
        outcome is :class:`EarlierWriteFailed`."""
        for i, (statements, _fut, stream) in enumerate(group):
            if stream is not None and stream.failed is not None:
                outcome[i] = EarlierWriteFailed(stream.failed)
            else:
                yield i, statements, stream

    @staticmethod
    def _write_failed(outcome: dict[int, BaseException], i: int, stream: WriteStream | None,
                      err: BaseException) -> None:
        """Write ``i`` failed on its own with ``err`` (rolled back to its savepoint)."""
        outcome[i] = err
        if stream is not None:
            stream.failed = err

    def _transact(self, group: list[QueuedWrite], outcome: dict[int, BaseException]) -> None:
        """Run ``group`` in one transaction, each write in a savepoint, and commit;
        record each write that failed on its own in ``outcome``.  Raises if the
        transaction as a whole failed (SQLite rolled it back, or COMMIT failed)."""
        if self._wdb is None:  # the last commit failed: start afresh
            self._wdb = self._connect()
        db = self._wdb
        cur = db.cursor()
        cur.execute("BEGIN IMMEDIATE")
        if len(group) == 1 and group[0][2] is not None and group[0][2].failed is None:
            # One write alone (the common case): no savepoint, as its failure rolls
            # back the whole transaction.  Every statement is a point where this
            # thread gives up the GIL and waits to get it back from the busy event
            # loop, so two fewer make a commit that much sooner.
            statements, _fut, stream = group[0]
            try:
                self._apply(cur, statements)
            except sqlite3.Error as err:
                if not db.in_transaction:
                    raise
                cur.execute("ROLLBACK")
                self._write_failed(outcome, 0, stream, err)
                if not isinstance(err, sqlite3.IntegrityError):
                    self._drop_connection()
                return
            self._commit(cur)
            return
        for i, statements, stream in self._writes_to_try(group, outcome):
            cur.execute("SAVEPOINT w")
            try:
                self._apply(cur, statements)
            except sqlite3.Error as err:
                if not db.in_transaction:
                    raise  # SQLite rolled the whole transaction back (disk full, I/O)
                cur.execute("ROLLBACK TO w")
                self._write_failed(outcome, i, stream, err)
            cur.execute("RELEASE w")
        self._commit(cur)
        if any(not isinstance(e, sqlite3.IntegrityError | EarlierWriteFailed)
               for e in outcome.values()):
            self._drop_connection()

    def _transaction_failed(self) -> None:
        """After a failed transaction: reconnect before the next group."""
        self._drop_connection()

    def _apply(self, cur: sqlite3.Cursor, statements: list[Statement]) -> None:
        """Run one write's statements (inside its savepoint)."""
        for sql, args in statements:
            cur.execute(sql, args)

    def _commit(self, cur: sqlite3.Cursor) -> None:
        """Commit the group's transaction."""
        cur.execute("COMMIT")

    def _drop_connection(self) -> None:
        """After a failure: roll back, and reconnect before the next group."""
        db, self._wdb = self._wdb, None
        if db is None:
            return
        with contextlib.suppress(sqlite3.Error):
            if db.in_transaction:
                db.execute("ROLLBACK")
        if self.path == ":memory:":  # a new connection would be a new, empty database
            self._wdb = db
            return
        with contextlib.suppress(sqlite3.Error):
            db.close()

    def _enqueue(self, statements: list[Statement], stream: WriteStream | None) -> Future[None]:
        """Queue one write for the writer thread (every write comes through here)."""
        fut: Future[None] = Future()
        if trace.TRACE_DIR:
            fut.queued_at = time.perf_counter()  # type: ignore[attr-defined]
        self._queue.put((statements, fut, stream))
        return fut

    def stream(self, table_id: str) -> WriteStream:
        """A new :class:`WriteStream` for the writes of table ``table_id``."""
        return WriteStream(self, table_id)

    def submit(self, statements: list[Statement]) -> Future[None]:
        """Queue one atomic write; the future is done when it is committed (or failed)."""
        if not statements:
            fut: Future[None] = Future()
            fut.set_result(None)
            return fut
        return self._enqueue(statements, None)

    def _tx(self, statements: list[Statement]) -> None:
        """Write and wait for the commit (for rare writes: table creation, tests)."""
        self.submit(statements).result(60)

    def create_table(
        self, table_id: str, config: dict[str, Any], session: dict[str, Any], host_digest: str,
        seats: list[SeatRow] = (),  # type: ignore[assignment]
    ) -> None:
        """Write a new table and its first ``seats`` (one atomic write); wait for the commit.

        Raises the store's error (``sqlite3.Error``) if it could not be written.
        """
        rest, chat = _split_chat(session)
        self._tx([(
            "INSERT INTO tables (id, config, session, created, host_digest, chat)"
            " VALUES (?,?,?,?,?,?)",
            (table_id, _dump(config), rest, time.time(), host_digest, chat),
        ), *(self.seat_statement(table_id, row) for row in seats)])

    def seat_statement(self, table_id: str, row: SeatRow) -> Statement:
        """The SQL that writes ``row`` (for use inside :meth:`write`)."""
        return (
            "INSERT OR REPLACE INTO seats (table_id, seat, name, token_digest, bot, stack,"
            " brought, bank, joined_hand) VALUES (?,?,?,?,?,?,?,?,?)",
            (table_id, row.seat, row.name, row.token_digest, row.bot, row.stack,
             row.brought, row.bank, row.joined_hand),
        )  # fmt: skip

    def write(self, table_id: str, **changes: Any) -> None:
        """Write the changes (see :meth:`statements`) and wait until committed."""
        self._tx(self.statements(table_id, **changes))

    def write_async(self, table_id: str, **changes: Any) -> Future[None]:
        """Queue the changes (see :meth:`statements`); the future is done when committed."""
        return self.submit(self.statements(table_id, **changes))

    def statements(
        self,
        table_id: str,
        *,
        session: dict[str, Any] | None = None,
        seats: list[SeatRow] = (),  # type: ignore[assignment]
        remove_seats: list[int] = (),  # type: ignore[assignment]
        new_hand: tuple[int, dict[str, Any]] | None = None,
        action: tuple[int, int, int, dict[str, Any], str, dict[str, Any]] | None = None,
        hand_result: tuple[int, dict[str, Any]] | None = None,
        stream: WriteStream | None = None,
    ) -> list[Statement]:
        """The SQL of any combination of changes to one table (written atomically).

        ``action`` is ``(hand_no, idx, seat, action, source, events)``.
        ``session``'s ``chat`` goes to its own column, written only when it differs
        from what ``stream`` last wrote (:meth:`WriteStream.chat_unchanged`;
        without a stream, always).
        """
        st: list[Statement] = []
        stored = 0  # (STORED_SQL)
        if new_hand is not None:
            setup = _dump(new_hand[1])
            stored += len(setup)
            st.append((
                "INSERT INTO hands (table_id, hand_no, setup) VALUES (?,?,?)",
                (table_id, new_hand[0], setup),
            ))
        if action is not None:
            hand_no, idx, seat, act, source, events = action
            record, told = _dump(act), _dump(events)
            stored += len(record) + len(told)
            st.append((
                "INSERT INTO actions (table_id, hand_no, idx, seat, action, source, events, ts)"
                " VALUES (?,?,?,?,?,?,?,?)",
                (table_id, hand_no, idx, seat, record, source, told, time.time()),
            ))
        if hand_result is not None:
            result = _dump(hand_result[1])
            stored += len(result)
            st.append((
                "UPDATE hands SET result=? WHERE table_id=? AND hand_no=?",
                (result, table_id, hand_result[0]),
            ))
        for seat in remove_seats:
            st.append(("DELETE FROM seats WHERE table_id=? AND seat=?", (table_id, seat)))
        for row in seats:
            st.append(self.seat_statement(table_id, row))
        if session is not None:
            rest, chat = _split_chat(session, stream)
            st.append(("UPDATE tables SET session=? WHERE id=?", (rest, table_id)))
            if chat is not _UNCHANGED:
                st.append(("UPDATE tables SET chat=? WHERE id=?", (chat, table_id)))
        if stored:
            st.append((STORED_SQL, (stored, table_id)))  # last (WriteStream.write)
        return st

    # -- reads ----------------------------------------------------------

    def table_count(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM tables").fetchone()[0])

    def tables_idle_since(self, before: float) -> list[str]:
        """Ids of tables whose last change (``session.at``, else creation) is before
        ``before`` (seconds since the epoch)."""
        rows = self.db.execute(
            "SELECT id FROM tables WHERE COALESCE(json_extract(session, '$.at'), created) < ?",
            (before,))
        return [r[0] for r in rows]

    def unplayed_tables_idle_since(self, before: float) -> list[str]:
        """Ids of tables never dealt a hand, with nobody seated (computer players
        only, or no one), whose last change (``session.at``, else creation) is
        before ``before`` (seconds since the epoch)."""
        rows = self.db.execute(
            "SELECT id FROM tables WHERE COALESCE(json_extract(session, '$.at'), created) < ? "
            "AND NOT EXISTS (SELECT 1 FROM hands WHERE hands.table_id = tables.id) "
            "AND NOT EXISTS (SELECT 1 FROM seats WHERE seats.table_id = tables.id "
            "AND seats.bot IS NULL)", (before,))
        return [r[0] for r in rows]

    def unattended_tables_idle_since(self, before: float) -> list[str]:
        """Ids of tables dealt hands where no person ever played one (session key
        ``unattended``, :mod:`rollem.server.live_table.pace`: computer players
        and the clock played them; a person at most folded), whose last change
        is before ``before`` (seconds since the epoch)."""
        rows = self.db.execute(
            "SELECT id FROM tables WHERE COALESCE(json_extract(session, '$.at'), created) < ? "
            "AND json_extract(session, '$.unattended') = 1 "
            "AND EXISTS (SELECT 1 FROM hands WHERE hands.table_id = tables.id)", (before,))
        return [r[0] for r in rows]

    def stored_total(self) -> int:
        """Bytes of the hands of every table stored (the sum of ``tables.stored``)."""
        return int(self.db.execute("SELECT COALESCE(SUM(stored), 0) FROM tables").fetchone()[0])

    def delete_tables(self, table_ids: list[str]) -> None:
        """Delete tables with their seats, hands and actions (waits for the commit)."""
        st: list[Statement] = []
        for tid in table_ids:
            for table in ("actions", "hands", "seats"):
                st.append((f"DELETE FROM {table} WHERE table_id=?", (tid,)))
            st.append(("DELETE FROM tables WHERE id=?", (tid,)))
        self._tx(st)

    def table_ids(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT id FROM tables ORDER BY created")]

    def load_table(self, table_id: str) -> TableRow | None:
        """The table's row, or ``None``.  The session holds its ``chat`` again: from
        the ``chat`` column, or (a table saved before the column, schema
        version 2, whose column is empty) as it was inside the session."""
        r = self.db.execute(
            "SELECT id, config, session, host_digest, stored, chat FROM tables WHERE id=?",
            (table_id,)
        ).fetchone()
        if r is None:
            return None
        session = json.loads(r[2])
        if r[5] is not None:
            session["chat"] = json.loads(r[5])
        return TableRow(r[0], json.loads(r[1]), session, r[3], int(r[4]))

    def load_seats(self, table_id: str) -> list[SeatRow]:
        rows = self.db.execute(
            "SELECT seat, name, token_digest, bot, stack, brought, bank, joined_hand"
            " FROM seats WHERE table_id=? ORDER BY seat",
            (table_id,),
        )
        return [SeatRow(*r) for r in rows]

    def load_hand(self, table_id: str, hand_no: int) -> HandRow | None:
        r = self.db.execute(
            "SELECT hand_no, setup, result FROM hands WHERE table_id=? AND hand_no=?",
            (table_id, hand_no),
        ).fetchone()
        if r is None:
            return None
        return HandRow(r[0], json.loads(r[1]), json.loads(r[2]) if r[2] else None)

    def load_hands(self, table_id: str, first: int, last: int) -> list[HandRow]:
        """The stored hands numbered ``first`` to ``last`` (both included) of table
        ``table_id``, in order (one query: the hand list reads a long table's hands
        a few dozen at a time, s61-safe)."""
        rows = self.db.execute(
            "SELECT hand_no, setup, result FROM hands WHERE table_id=? AND hand_no>=?"
            " AND hand_no<=? ORDER BY hand_no",
            (table_id, first, last),
        )
        return [HandRow(r[0], json.loads(r[1]), json.loads(r[2]) if r[2] else None)
                for r in rows]

    def hand_numbers(self, table_id: str) -> list[int]:
        rows = self.db.execute(
            "SELECT hand_no FROM hands WHERE table_id=? ORDER BY hand_no", (table_id,)
        )
        return [r[0] for r in rows]

    def load_actions(self, table_id: str, hand_no: int) -> list[ActionRow]:
        rows = self.db.execute(
            "SELECT idx, seat, action, source, events FROM actions"
            " WHERE table_id=? AND hand_no=? ORDER BY idx",
            (table_id, hand_no),
        )
        return [ActionRow(r[0], r[1], json.loads(r[2]), r[3], json.loads(r[4])) for r in rows]
