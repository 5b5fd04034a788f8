"""``rollem backup PATH``: a consistent copy of the table database while it is served.

Uses SQLite's online backup API (``sqlite3.Connection.backup``): the copy is
one consistent moment of the database even while ``rollem serve`` writes to
it.  To restore, stop the server and start it on the copy (or copy it over
the database file): ``docs/hosting.md``.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import click

from rollem.cli.errors import fail
from rollem.cli.numbers import PathOf
from rollem.server.stores import is_postgres_url, shown_db

__all__ = ["backup_command", "backup_database"]


def backup_database(db: Path, target: Path) -> int:
    """Copy ``db`` to ``target`` (a new file) with the online backup API; returns
    the number of tables in the copy.  Raises ``sqlite3.Error`` or ``OSError``."""
    source = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        dest = sqlite3.connect(target)
        try:
            source.backup(dest)
            count = int(dest.execute("SELECT COUNT(*) FROM tables").fetchone()[0])
        finally:
            dest.close()
    finally:
        source.close()
    return count


@click.command(name="backup",
               short_help="Back up the web table's SQLite database to PATH while it runs.")
@click.argument("path", type=PathOf(dir_okay=False, path_type=Path, writes=True))
@click.option("--db", "db_text", default="rollem.db", show_default=True, envvar="ROLLEM_DB",
              show_envvar=True, type=str, metavar="FILE",
              help="The SQLite file rollem serve uses (PostgreSQL: pg_dump).")
def backup_command(path: Path, db_text: str) -> None:
    """Copy the web table's SQLite database to PATH, safely while it is served.

    Restore: stop rollem serve, then start it with --db PATH (or copy PATH
    over the database file). A PostgreSQL database is backed up with
    PostgreSQL's pg_dump instead.
    """
    if is_postgres_url(db_text):
        # ROLLEM_DB, set for rollem serve, names it: a Path made it "postgresql:/..."
        # and the refusal said "no database at" that (stop 58, the host's try-out)
        fail(f"{shown_db(db_text)} is a PostgreSQL database: rollem backup copies SQLite "
             "files only; back it up with PostgreSQL's pg_dump (docs/hosting.md, "
             "\"Running many tables: PostgreSQL\")")
    db = Path(db_text)
    if not db.is_file():
        fail(f"no database at {db}; give the one rollem serve uses with --db")
    if path.exists():
        fail(f"{path} already exists; give a new file name")
    try:
        count = backup_database(db, path)
    except (sqlite3.Error, OSError) as err:
        path.unlink(missing_ok=True)
        if isinstance(err, sqlite3.DatabaseError) and (
                "no such table" in str(err) or "not a database" in str(err)):
            # (an empty file is an empty SQLite database: "no such table: tables")
            fail(f"{db} is not a database of rollem serve (it has no tables of "
                 "rollem's); give the one rollem serve uses with --db")
        fail(f"cannot back up {db} to {path}: {err}")
    click.echo(f"backed up {db} to {path} ({count} tables)")
