"""Which store ``rollem serve --db`` names (issue 17).

``--db`` is a SQLite file path (the default, :class:`rollem.server.store.Store`)
or a PostgreSQL URL (``postgresql://...`` or ``postgres://...``,
:class:`rollem.server.store_pg.PgStore`, imported only then, so psycopg is not
loaded by a home game).
"""

from __future__ import annotations

import re
from pathlib import Path

from rollem.server.store import Store

__all__ = ["is_postgres_url", "open_store", "shown_db"]


def is_postgres_url(db: str | Path) -> bool:
    """Whether ``db`` is a PostgreSQL URL (``postgresql://`` or ``postgres://``)."""
    return str(db).startswith(("postgresql://", "postgres://"))


def open_store(db: str | Path) -> Store:
    """The store ``db`` names (see the module docstring).

    Raises:
        sqlite3.Error: the database cannot be opened (either kind).
        rollem.server.schema.SchemaError: its schema is newer than this rollem's.
    """
    if is_postgres_url(db):
        from rollem.server.store_pg import PgStore

        return PgStore(str(db))
    return Store(db)


def shown_db(db: str | Path) -> str:
    """``db`` as printed and logged: a PostgreSQL URL's password replaced by ``***``.

    ``shown_db("postgresql://ann:secret@h/db") == "postgresql://ann:***@h/db"``.
    """
    return re.sub(r"^(postgres(?:ql)?://[^:/@]*):[^/]*@", r"\1:***@", str(db))
