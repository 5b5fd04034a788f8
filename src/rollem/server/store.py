"""SQLite store for the web table: tables, seats, hands and their actions.

One :class:`Store` owns one ``sqlite3`` connection in WAL mode with
``synchronous=FULL`` and is the only writer.  Every write is its own
transaction and is committed before the caller tells any client about it
(CLI.md, ``rollem serve``).

What is stored is enough to rebuild every table exactly after a restart:

- ``tables``: the table's id (the unguessable invite token), its
  configuration (JSON) and its session state (button, hand number, pending
  dealer's choice, ...; JSON).
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

import hashlib
import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["ActionRow", "HandRow", "SeatRow", "Store", "TableRow", "token_digest"]

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


def token_digest(token: str) -> str:
    """SHA-256 hex digest of a seat or host token (what the store keeps)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(slots=True)
class TableRow:
    id: str
    config: dict[str, Any]
    session: dict[str, Any]
    host_digest: str


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


class Store:
    """The one writer of a table database (``path`` or ``":memory:"``).

    Every public method that writes commits before it returns.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    @property
    def journal_mode(self) -> str:
        row = self.db.execute("PRAGMA journal_mode").fetchone()
        return str(row[0])

    # -- writes (each one transaction) ---------------------------------

    def _tx(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        cur = self.db.cursor()
        cur.execute("BEGIN IMMEDIATE")
        try:
            for sql, args in statements:
                cur.execute(sql, args)
        except BaseException:
            cur.execute("ROLLBACK")
            raise
        cur.execute("COMMIT")

    def create_table(
        self, table_id: str, config: dict[str, Any], session: dict[str, Any], host_digest: str
    ) -> None:
        self._tx([(
            "INSERT INTO tables (id, config, session, created, host_digest) VALUES (?,?,?,?,?)",
            (table_id, _dump(config), _dump(session), time.time(), host_digest),
        )])

    def save_session(self, table_id: str, session: dict[str, Any]) -> None:
        self._tx([("UPDATE tables SET session=? WHERE id=?", (_dump(session), table_id))])

    def seat_statement(self, table_id: str, row: SeatRow) -> tuple[str, tuple[Any, ...]]:
        """The SQL that writes ``row`` (for use inside :meth:`write`)."""
        return (
            "INSERT OR REPLACE INTO seats (table_id, seat, name, token_digest, bot, stack,"
            " brought, bank, joined_hand) VALUES (?,?,?,?,?,?,?,?,?)",
            (table_id, row.seat, row.name, row.token_digest, row.bot, row.stack,
             row.brought, row.bank, row.joined_hand),
        )  # fmt: skip

    def write(
        self,
        table_id: str,
        *,
        session: dict[str, Any] | None = None,
        seats: list[SeatRow] = (),  # type: ignore[assignment]
        remove_seats: list[int] = (),  # type: ignore[assignment]
        new_hand: tuple[int, dict[str, Any]] | None = None,
        action: tuple[int, int, int, dict[str, Any], str, dict[str, Any]] | None = None,
        hand_result: tuple[int, dict[str, Any]] | None = None,
    ) -> None:
        """Write any combination of changes to one table in ONE transaction.

        ``action`` is ``(hand_no, idx, seat, action, source, events)``.
        """
        st: list[tuple[str, tuple[Any, ...]]] = []
        if new_hand is not None:
            st.append((
                "INSERT INTO hands (table_id, hand_no, setup) VALUES (?,?,?)",
                (table_id, new_hand[0], _dump(new_hand[1])),
            ))
        if action is not None:
            hand_no, idx, seat, act, source, events = action
            st.append((
                "INSERT INTO actions (table_id, hand_no, idx, seat, action, source, events, ts)"
                " VALUES (?,?,?,?,?,?,?,?)",
                (table_id, hand_no, idx, seat, _dump(act), source, _dump(events), time.time()),
            ))
        if hand_result is not None:
            st.append((
                "UPDATE hands SET result=? WHERE table_id=? AND hand_no=?",
                (_dump(hand_result[1]), table_id, hand_result[0]),
            ))
        for seat in remove_seats:
            st.append(("DELETE FROM seats WHERE table_id=? AND seat=?", (table_id, seat)))
        for row in seats:
            st.append(self.seat_statement(table_id, row))
        if session is not None:
            st.append(("UPDATE tables SET session=? WHERE id=?", (_dump(session), table_id)))
        if st:
            self._tx(st)

    # -- reads ----------------------------------------------------------

    def table_ids(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT id FROM tables ORDER BY created")]

    def load_table(self, table_id: str) -> TableRow | None:
        r = self.db.execute(
            "SELECT id, config, session, host_digest FROM tables WHERE id=?", (table_id,)
        ).fetchone()
        if r is None:
            return None
        return TableRow(r[0], json.loads(r[1]), json.loads(r[2]), r[3])

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
