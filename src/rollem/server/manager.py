"""The table manager: every table of one server, loaded from and saved to one store.

Tables are loaded when someone opens them (their link, their websocket), not
all at every start.  A table with nobody connected for ``idle_seconds`` is
unloaded (its clocks stop; everything is stored): it comes back as it was,
with its clocks and grace periods counted in wall time, when someone opens
it again.  Tables not played for ``retention_days`` are deleted with their
hands (issue 13), and so, sooner, are tables nobody ever played at: never dealt
a hand, nobody seated, unchanged for ``unplayed_seconds`` and not loaded (so
at least ``idle_seconds`` after the last person left), lest tables created
and abandoned fill ``max_tables`` for the whole retention period; and so are
tables dealt hands that no person ever played (computer players and the clock
did; a person at most folded: issue 34), lest they fill the disk.

The manager gives its tables the server's
:class:`~rollem.server.budget.DiskBudget` (issue 34) and keeps its count of
every table's stored hands (``used``), read from the store at each sweep.

On PostgreSQL several processes share the tables (issue 17): with
``leases`` (:class:`rollem.server.leases.Leases`) a table is loaded only by
the process that acquires its lease; :meth:`TableManager.get` raises
:class:`TableElsewhere` (naming the holder's URL) when another process holds
it.  A background task renews this process's leases every third of the lease
time, drops the tables it lost (and any table whose write was refused by the
fence), and adopts *orphans*: tables whose owner stopped renewing without
releasing them (it died), replayed from the store as after a restart.
Unloading a table, and stopping, release its lease.

A stored table that can no longer be read (its stored game file fails even the
lenient reading of :func:`rollem.games.gamefile.parse_game`) is refused with
:class:`TableUnreadable`, naming why; other tables are not affected.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from rollem.server.budget import DiskBudget
from rollem.server.config import ConfigError, TableConfig
from rollem.server.live_table import LiveTable
from rollem.server.pacing import Pacing
from rollem.server.store import Store

if TYPE_CHECKING:  # psycopg is imported only for PostgreSQL
    from rollem.server.leases import Lease, Leases

__all__ = ["TableElsewhere", "TableManager", "TableUnreadable"]

log = logging.getLogger("rollem.server")

_LEASE_THREADS = ThreadPoolExecutor(2, thread_name_prefix="rollem-leases")
"""The lease renewals' own threads (started on first use), never the event loop's
default executor: what else is sent there (a table's creation, a password check,
a rules page, a request passed on to another process) must not hold a renewal
past the lease time, or another process takes every table of this one (stop 58:
requests for a long statistics count held every default worker)."""

_LOOK_UP_THREADS = ThreadPoolExecutor(4, thread_name_prefix="rollem-look-up")
"""Where :meth:`TableManager.find` reads the store and the lease of a table not in
memory (PostgreSQL): never the event loop (each is a round trip to the database,
and a takeover waits for the holder's commit: stop 72, s72-hostile2), nor the
renewals' threads (a flood of look-ups must not delay a renewal)."""


_SWEEP_THREAD = ThreadPoolExecutor(1, thread_name_prefix="rollem-sweep")
"""Where the idle sweep reads the stored bytes' sum and finds and deletes the old
tables: a slow store (a disk sync, a database's round trips, many tables)
must not hold the event loop, which every table's play waits for (stop 73)."""


class TableElsewhere(Exception):
    """Another live process holds the table's lease: ask it (``lease.url``)."""

    def __init__(self, lease: Lease) -> None:
        super().__init__(f"table {lease.table_id} is played by {lease.url}")
        self.lease = lease


class TableUnreadable(Exception):
    """A stored table that cannot be restored (e.g. its stored game file fails
    even when read as stored); ``reason``: the one-line error, for the asker."""

    def __init__(self, table_id: str, reason: str) -> None:
        super().__init__(f"table {table_id} cannot be opened: {reason}")
        self.table_id = table_id
        self.reason = reason


class TableManager:
    """Creates tables, finds (loads) them by id, unloads idle ones, deletes old ones;
    with ``leases``, only the tables this process holds (see the module docstring)."""

    def __init__(self, store: Store, idle_seconds: float = 600.0,
                 retention_days: float = 30.0, leases: Leases | None = None,
                 unplayed_seconds: float = 3600.0, budget: DiskBudget | None = None,
                 pacing: Pacing | None = None) -> None:
        self.store = store
        self.budget = budget
        """The server's disk budget given to every table (``None``: the tables' default)."""
        self.pacing = pacing
        """When computer players act and odds answers leave, given to every table
        (``None``: the tables' default, the real values; stop 57)."""
        self.leases = leases
        self.epochs: dict[str, int] = {}  # the lease epoch of each table loaded here
        self._renewer: asyncio.Task[None] | None = None
        if leases is not None:
            self.epochs = store.epochs  # type: ignore[attr-defined]  # a PgStore
            store.fence(leases.owner, max(0.5, leases.seconds / 2))  # type: ignore[attr-defined]
        self.tables: dict[str, LiveTable] = {}
        self.idle_seconds = idle_seconds
        self.retention_days = retention_days
        self.unplayed_seconds = unplayed_seconds
        self._sweeper: asyncio.Task[None] | None = None
        self._count: int | None = None
        self._finding: dict[str, asyncio.Task[LiveTable | None]] = {}
        self._adopting: dict[str, asyncio.Task[None]] = {}
        self._deleting: set[str] = set()  # being deleted (old): not to be loaded
        self.unreadable: dict[str, str] = {}
        """Stored tables that failed to restore, by id: the reason (not retried, so
        each look costs nothing; at most one entry per stored table)."""

    def start(self) -> None:
        """Delete tables past the retention period; start the idle sweep (needs the loop)."""
        self.delete_old()
        self.count_stored()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop())
        if self.leases is not None:
            self._renewer = asyncio.get_running_loop().create_task(self._lease_loop())

    def load_all(self) -> None:
        """Load every stored table and restart its clocks (tests, tools); a table
        that cannot be restored is logged and skipped."""
        for table_id in self.store.table_ids():
            with contextlib.suppress(TableUnreadable):
                self.get(table_id)

    def create(self, config: TableConfig) -> tuple[LiveTable, str]:
        table, host_token = LiveTable.create(self.store, config, self._new_id())
        self._adopted(table)
        self._count = self.store_count() + 1
        return table, host_token

    async def create_async(self, config: TableConfig) -> tuple[LiveTable, str]:
        """:meth:`create`, waiting for the table's first commit in a worker thread
        (a slow disk sync must not hold up every other table)."""
        table_id = await asyncio.to_thread(self._new_id)
        table, host_token = await asyncio.to_thread(LiveTable.create, self.store, config,
                                                    table_id)
        self._adopted(table)
        self._count = self.store_count() + 1
        return table, host_token

    def _new_id(self) -> str:
        """A new table id (the unguessable invite token), leased here first."""
        table_id = secrets.token_urlsafe(16)
        if self.leases is not None:
            self.epochs[table_id] = self.leases.acquire(table_id).epoch
        return table_id

    def _adopted(self, table: LiveTable) -> None:
        self.tables[table.id] = table
        if self.budget is not None:
            table.budget = self.budget
        if self.pacing is not None:
            table.pacing = self.pacing
        if self.leases is not None:
            table.on_lease_lost = self._lost

    def store_count(self) -> int:
        """Tables stored (loaded or not)."""
        if self._count is None:
            self._count = self.store.table_count()
        return self._count

    def get(self, table_id: str) -> LiveTable | None:
        """The table ``table_id``, loaded from the store if it is not in memory.

        Raises:
            TableElsewhere: another process holds it (with leases).
            TableUnreadable: it is stored but cannot be restored (naming why).
        """
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if table_id in self._deleting:  # (old: being deleted)
            return None
        if len(table_id) > 64 or self.store.load_table(table_id) is None:
            self.unreadable.pop(table_id, None)
            return None
        if table_id in self.unreadable:
            raise TableUnreadable(table_id, self.unreadable[table_id])
        if self.leases is not None:
            return self._load(self.leases.acquire(table_id))
        return self._load(None, table_id)

    async def find(self, table_id: str) -> LiveTable | None:
        """As :meth:`get`, for the event loop: with leases (PostgreSQL), a table not in
        memory is looked up in a worker thread (its stored row, then who holds its
        lease, then, unless another live process holds it, its acquisition), so the
        loop never waits for the database or for another process's commit; one
        look-up per table at a time (the askers meanwhile share it).

        Raises:
            TableElsewhere: another process holds it.
            TableUnreadable: it is stored but cannot be restored (naming why).
            sqlite3.Error: the database cannot be read.
        """
        table = self.tables.get(table_id)
        if table is not None or self.leases is None:
            return table if table is not None else self.get(table_id)
        if len(table_id) > 64 or table_id in self._deleting:
            return None
        pending = self._finding.get(table_id)
        if pending is None:
            # A task of its own: what it acquired is loaded even if every asker left.
            pending = asyncio.get_running_loop().create_task(self._found(table_id))
            self._finding[table_id] = pending
            pending.add_done_callback(self._found_done)
        return await asyncio.shield(pending)

    async def _found(self, table_id: str) -> LiveTable | None:
        """:meth:`find`'s one look-up of ``table_id``: the thread's part, then, on the
        loop, the table loaded (or the answer why not)."""
        lease = await asyncio.get_running_loop().run_in_executor(
            _LOOK_UP_THREADS, self._look_up, table_id)
        table = self.tables.get(table_id)
        if table is not None:  # (cannot happen: loads go through here, one at a time)
            return table
        if lease is None:
            if table_id not in self.unreadable:
                return None
            raise TableUnreadable(table_id, self.unreadable[table_id])
        return self._load(lease)

    def _found_done(self, done: asyncio.Task[LiveTable | None]) -> None:
        for table_id, task in list(self._finding.items()):
            if task is done:
                del self._finding[table_id]
        if not done.cancelled():
            done.exception()  # (retrieved: each asker got it; none may be left)

    def _look_up(self, table_id: str) -> Lease | None:
        """In a worker thread: ``None`` when ``table_id`` is not stored (``unreadable``
        forgotten) or is unreadable; else its lease: another live process's as read
        (no lock taken), or acquired by this process (as :meth:`Leases.acquire`
        takes it: one nobody holds live, or held under this process's own address)."""
        assert self.leases is not None
        if self.store.load_table(table_id) is None:
            self.unreadable.pop(table_id, None)
            return None
        if table_id in self.unreadable:
            return None
        held = self.leases.holder(table_id)
        if held is not None and held.live and not held.ours and (
                held.url != self.leases.advertise or not held.url):
            return held  # (under this process's own address: an earlier run of it, taken)
        return self.leases.acquire(table_id)

    def _load(self, lease: Lease | None, table_id: str = "") -> LiveTable:
        """Load ``table_id`` (or the table of ``lease``, if it is this process's)."""
        if lease is not None:
            if not lease.ours:
                raise TableElsewhere(lease)
            table_id = lease.table_id
            self.epochs[table_id] = lease.epoch
        try:
            table = LiveTable.restore(self.store, table_id)
        except ConfigError as err:  # e.g. a stored game file that cannot be read
            reason = str(err)
            log.error("table %s cannot be restored: %s", table_id, reason)
            self.unreadable[table_id] = reason
            if lease is not None:
                self.epochs.pop(table_id, None)
                with contextlib.suppress(Exception):
                    self.leases.release(table_id, lease.epoch)  # type: ignore[union-attr]
            raise TableUnreadable(table_id, reason) from None
        self._adopted(table)
        table.resume()
        log.info("table %s loaded", table_id)
        return table

    # -- leases (several processes on one PostgreSQL) ---------------------------

    def _drop(self, table_id: str) -> None:
        table = self.tables.pop(table_id, None)
        self.epochs.pop(table_id, None)
        if table is not None:
            table.shutdown()  # its clients reconnect, through the proxy, to the new owner

    def _lost(self, table: LiveTable, error: BaseException) -> None:
        """A write of ``table`` was refused by the fence: another process took it."""
        if self.tables.get(table.id) is table:
            log.warning("table %s: %s; dropped here", table.id, error)
            self._drop(table.id)

    async def renew_leases(self) -> None:
        """Renew this process's leases, drop the tables lost, adopt orphans."""
        assert self.leases is not None
        held = {t: self.epochs[t] for t in self.tables if t in self.epochs}
        loop = asyncio.get_running_loop()
        for table_id in await loop.run_in_executor(_LEASE_THREADS, self.leases.renew, held):
            if self.epochs.get(table_id) == held[table_id]:
                log.warning("table %s: lease renewal refused (another process took it over); "
                            "dropped here", table_id)
                self._drop(table_id)
        for table_id in await loop.run_in_executor(_LEASE_THREADS, self.leases.orphans):
            if table_id in self.tables or table_id in self._adopting:
                continue
            # Not awaited here: an adoption may wait for the old holder's commit (up
            # to the lease time), and the next renewal must not (stop 73).
            task = loop.create_task(self._adopt(table_id))
            self._adopting[table_id] = task
            task.add_done_callback(self._adopted_done)

    def _adopted_done(self, done: asyncio.Task[None]) -> None:
        for table_id, task in list(self._adopting.items()):
            if task is done:
                del self._adopting[table_id]

    async def _adopt(self, table_id: str) -> None:
        """Take over the orphan ``table_id`` (through :meth:`find`, so a request's
        look-up of the table is the same one; in a thread, as the row may be
        locked a while by a hung process)."""
        try:
            if await self.find(table_id) is not None:
                log.warning("table %s: its process stopped renewing its lease; "
                            "taken over here", table_id)
        except TableElsewhere:
            pass  # another process adopted it first
        except TableUnreadable:
            pass  # logged by _load
        except sqlite3.Error as err:
            log.warning("table %s: cannot take it over yet (%s)", table_id, err)
        except Exception:  # (a task of its own: say why, keep renewing)
            log.exception("table %s: taking it over failed", table_id)

    async def _lease_loop(self) -> None:
        assert self.leases is not None
        while True:
            await asyncio.sleep(self.leases.seconds / 3)
            try:
                await self.renew_leases()
            except Exception:  # keep renewing; say why once per failure
                log.exception("lease renewal failed")

    def _release(self, table_id: str) -> None:
        epoch = self.epochs.pop(table_id, None)
        if self.leases is not None and epoch is not None:
            with contextlib.suppress(sqlite3.Error):
                self.leases.release(table_id, epoch)

    # -- idle tables and retention --------------------------------------------

    async def _sweep_loop(self) -> None:
        period = max(0.05, min(30.0, self.idle_seconds / 4))
        retention_period = max(0.05, min(3600.0, self.unplayed_seconds / 4))
        last_retention = time.time()
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(period)
            try:
                await self.unload_idle()
                # The store's reads and deletes in a thread of their own: a slow
                # disk or database must not hold every table (stop 73).
                await loop.run_in_executor(_SWEEP_THREAD, self.count_stored)
                if time.time() - last_retention > retention_period:
                    last_retention = time.time()
                    await self.delete_old_async()
            except Exception:  # keep sweeping; say why once per failure
                log.exception("idle sweep failed")

    async def unload_idle(self, now: float | None = None) -> list[str]:
        """Unload every table nobody has been connected to for ``idle_seconds``."""
        now = time.time() if now is None else now
        gone = []
        for table_id, table in list(self.tables.items()):
            if table.all_clients() or now - table.idle_since < self.idle_seconds:
                continue
            await table.wait_committed()
            if table.all_clients() or self.tables.get(table_id) is not table:
                continue
            table.shutdown()
            del self.tables[table_id]
            epoch = self.epochs.pop(table_id, None)
            if self.leases is not None and epoch is not None:  # (a round trip: the
                # sweep's thread, not the renewals': many unloaded at once delay no renewal)
                with contextlib.suppress(sqlite3.Error):
                    await asyncio.get_running_loop().run_in_executor(
                        _SWEEP_THREAD, self.leases.release, table_id, epoch)
            gone.append(table_id)
            log.info("table %s idle for %.0f s: unloaded", table_id, now - table.idle_since)
        return gone

    def count_stored(self) -> None:
        """Read the bytes of every table's stored hands into the budget's ``used``
        (issue 34; between two reads the tables add what they write)."""
        if self.budget is not None:
            self.budget.used = self.store.stored_total()

    def delete_old(self, now: float | None = None) -> int:
        """Delete stored tables (with hands, actions, seats) not played for
        ``retention_days``, and those never played at (no hand dealt, nobody
        seated; or hands dealt that no person played, issue 34) unchanged for
        ``unplayed_seconds``; never one loaded here, nor
        (PostgreSQL) one another live process holds.  Returns how many."""
        ids = [t for t in self._old(now) if t not in self.tables]
        if ids:
            self._delete(ids)
        return len(ids)

    async def delete_old_async(self, now: float | None = None) -> int:
        """:meth:`delete_old` for the event loop: the store's reads and the deletion
        in a worker thread; a table loaded, or being looked up, meanwhile is kept
        (and none of those deleted is loaded until they are gone)."""
        loop = asyncio.get_running_loop()
        found = await loop.run_in_executor(_SWEEP_THREAD, self._old, now)
        ids = [t for t in found if t not in self.tables and t not in self._finding]
        if not ids:
            return 0
        self._deleting.update(ids)
        try:
            await loop.run_in_executor(_SWEEP_THREAD, self._delete, ids)
        finally:
            self._deleting.difference_update(ids)
        return len(ids)

    def _old(self, now: float | None) -> list[str]:
        """The tables :meth:`delete_old` deletes, loaded here or not."""
        now = time.time() if now is None else now
        old = self.store.tables_idle_since(now - self.retention_days * 86400)
        unplayed = self.store.unplayed_tables_idle_since(now - self.unplayed_seconds)
        unplayed += self.store.unattended_tables_idle_since(now - self.unplayed_seconds)
        ids = list(dict.fromkeys(old + unplayed))
        if self.leases is not None:
            ids = [t for t in ids if not self._held_elsewhere(t)]
        return ids

    def _delete(self, ids: list[str]) -> None:
        self.store.delete_tables(ids)
        self._count = None
        log.info("deleted %d tables not played for %g days or never played at for %g "
                 "minutes", len(ids), self.retention_days, self.unplayed_seconds / 60)

    def _held_elsewhere(self, table_id: str) -> bool:
        assert self.leases is not None
        lease = self.leases.holder(table_id)
        return lease is not None and lease.live and not lease.ours

    def shutdown(self) -> None:
        for task in (self._sweeper, self._renewer, *self._adopting.values()):
            if task is not None:
                task.cancel()
        for table in self.tables.values():
            table.shutdown()
        with contextlib.suppress(Exception):
            self.store.close()  # commits what is queued, then the leases go
        for table_id in list(self.epochs):
            self._release(table_id)
        if self.leases is not None:
            self.leases.close()
