"""The table manager: every table of one server, loaded from and saved to one store.

Tables are loaded when someone opens them (their link, their websocket), not
all at every start.  A table with nobody connected for ``idle_seconds`` is
unloaded (its clocks stop; everything is stored): it comes back as it was,
with its clocks and grace periods counted in wall time, when someone opens
it again.  Tables not played for ``retention_days`` are deleted with their
hands (issue 13).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from rollem.server.config import TableConfig
from rollem.server.live_table import LiveTable
from rollem.server.store import Store

__all__ = ["TableManager"]

log = logging.getLogger("rollem.server")


class TableManager:
    """Creates tables, finds (loads) them by id, unloads idle ones, deletes old ones."""

    def __init__(self, store: Store, idle_seconds: float = 600.0,
                 retention_days: float = 30.0) -> None:
        self.store = store
        self.tables: dict[str, LiveTable] = {}
        self.idle_seconds = idle_seconds
        self.retention_days = retention_days
        self._sweeper: asyncio.Task[None] | None = None
        self._count: int | None = None

    def start(self) -> None:
        """Delete tables past the retention period; start the idle sweep (needs the loop)."""
        self.delete_old()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop())

    def load_all(self) -> None:
        """Load every stored table and restart its clocks (tests, tools)."""
        for table_id in self.store.table_ids():
            self.get(table_id)

    def create(self, config: TableConfig) -> tuple[LiveTable, str]:
        table, host_token = LiveTable.create(self.store, config)
        self.tables[table.id] = table
        self._count = self.store_count() + 1
        return table, host_token

    async def create_async(self, config: TableConfig) -> tuple[LiveTable, str]:
        """:meth:`create`, waiting for the table's first commit in a worker thread
        (a slow disk sync must not hold up every other table)."""
        table, host_token = await asyncio.to_thread(LiveTable.create, self.store, config)
        self.tables[table.id] = table
        self._count = self.store_count() + 1
        return table, host_token

    def store_count(self) -> int:
        """Tables stored (loaded or not)."""
        if self._count is None:
            self._count = self.store.table_count()
        return self._count

    def get(self, table_id: str) -> LiveTable | None:
        """The table ``table_id``, loaded from the store if it is not in memory."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if len(table_id) > 64 or self.store.load_table(table_id) is None:
            return None
        table = LiveTable.restore(self.store, table_id)
        self.tables[table_id] = table
        table.resume()
        log.info("table %s loaded", table_id)
        return table

    # -- idle tables and retention --------------------------------------------

    async def _sweep_loop(self) -> None:
        period = max(0.05, min(30.0, self.idle_seconds / 4))
        last_retention = time.time()
        while True:
            await asyncio.sleep(period)
            try:
                await self.unload_idle()
                if time.time() - last_retention > 3600:
                    last_retention = time.time()
                    self.delete_old()
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
            gone.append(table_id)
            log.info("table %s idle for %.0f s: unloaded", table_id, now - table.idle_since)
        return gone

    def delete_old(self, now: float | None = None) -> int:
        """Delete stored tables (with hands, actions, seats) not played for
        ``retention_days``; returns how many."""
        now = time.time() if now is None else now
        before = now - self.retention_days * 86400
        ids = [t for t in self.store.tables_idle_since(before) if t not in self.tables]
        if ids:
            self.store.delete_tables(ids)
            self._count = None
            log.info("deleted %d tables not played for %g days", len(ids), self.retention_days)
        return len(ids)

    def shutdown(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        for table in self.tables.values():
            table.shutdown()
        with contextlib.suppress(Exception):
            self.store.close()
