"""The table manager: every table of one server, loaded from and saved to one store."""

from __future__ import annotations

from rollem.server.config import TableConfig
from rollem.server.live_table import LiveTable
from rollem.server.store import Store

__all__ = ["TableManager"]


class TableManager:
    """Creates tables, finds them by id, and restores them all after a restart."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.tables: dict[str, LiveTable] = {}

    def load_all(self) -> None:
        """Rebuild every stored table (hands in progress replayed) and restart their clocks."""
        for table_id in self.store.table_ids():
            table = LiveTable.restore(self.store, table_id)
            self.tables[table_id] = table
        for table in self.tables.values():
            table.resume()

    def create(self, config: TableConfig) -> tuple[LiveTable, str]:
        table, host_token = LiveTable.create(self.store, config)
        self.tables[table.id] = table
        return table, host_token

    def get(self, table_id: str) -> LiveTable | None:
        return self.tables.get(table_id)

    def shutdown(self) -> None:
        for table in self.tables.values():
            table.shutdown()
        self.store.close()
