"""The table database's schema version and its migrations (issue 13).

SQLite's ``PRAGMA user_version`` holds the version.  :func:`migrate` brings a
database made by an older rollem up to :data:`SCHEMA_VERSION`, one step at a
time, each step in one transaction; a database made by a newer rollem is
refused (:class:`SchemaError`) rather than misread.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "SchemaError", "migrate", "schema_version"]


class SchemaError(sqlite3.DatabaseError):
    """The database's schema version is newer than this rollem knows."""


def _v1(db: sqlite3.Connection) -> None:
    # Version 1: the tables of store.SCHEMA (created before migrating), plus an
    # index for the hand list of a table and the retention sweep.
    db.execute("CREATE INDEX IF NOT EXISTS tables_created ON tables (created)")


STORED_BACKFILL = (
    "UPDATE tables SET stored = "
    "COALESCE((SELECT SUM(length(setup) + COALESCE(length(result), 0)) FROM hands "
    "WHERE hands.table_id = tables.id), 0) + "
    "COALESCE((SELECT SUM(length(action) + length(events)) FROM actions "
    "WHERE actions.table_id = tables.id), 0)")
"""Version 2's count of the hands a table stored before (SQLite and PostgreSQL)."""


def _v2(db: sqlite3.Connection) -> None:
    # Version 2 (issue 34): tables.stored, the bytes of a table's hands
    # (rollem.server.store.STORED_SQL), counted for the tables already stored.
    db.execute("ALTER TABLE tables ADD COLUMN stored INTEGER NOT NULL DEFAULT 0")
    db.execute(STORED_BACKFILL)


def _v3(db: sqlite3.Connection) -> None:
    # Version 3 (stop 58): tables.chat, the session's chat lines kept apart
    # (written only when the chat changes; rollem.server.store).  A session
    # stored before still holds its chat, read from there while the column is
    # empty (Store.load_table) and moved at the table's next session write.
    if not any(col[1] == "chat" for col in db.execute("PRAGMA table_info(tables)")):
        db.execute("ALTER TABLE tables ADD COLUMN chat TEXT")


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_v1, _v2, _v3]
"""``MIGRATIONS[i]`` takes a database from version ``i`` to ``i + 1``."""

SCHEMA_VERSION = len(MIGRATIONS)


def schema_version(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def migrate(db: sqlite3.Connection) -> int:
    """Migrate ``db`` (autocommit connection) to :data:`SCHEMA_VERSION`; returns the
    version it had.  Raises :class:`SchemaError` if it is newer."""
    found = schema_version(db)
    if found > SCHEMA_VERSION:
        raise SchemaError(
            f"the database has schema version {found}; this rollem knows up to "
            f"{SCHEMA_VERSION}: upgrade rollem or use another --db")
    for version in range(found, SCHEMA_VERSION):
        db.execute("BEGIN IMMEDIATE")
        try:
            MIGRATIONS[version](db)
            db.execute(f"PRAGMA user_version = {version + 1}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    return found
