"""What one address holds over all processes, counted in the shared PostgreSQL
store (several ``rollem serve`` on one database, issue 17): its seats
(``--seats-per-address``) and the tables it created this hour
(``--tables-per-hour``).

Each process counts these in memory too
(:meth:`rollem.server.limits.Limits.seat_refusal`,
:meth:`~rollem.server.limits.Limits.check_create`), which bounds an address
per process only: behind a proxy that spreads requests (or at tables held by
several processes) N processes let one address hold N times the limit
(stop 53's hostile pass, stop 54).  Both are stored things (seats, tables),
so the store counts them; the rates that guard one process's event loop
(websocket openings, messages, costly requests) stay per process.

Seats: with PostgreSQL each sit-down also *claims* a row of ``address_seats``
(created by :data:`ADDRESS_COUNTS_SCHEMA`):

- ``address``: SHA-256 of the address as the limits count it
  (:func:`rollem.server.limits.limit_key`: IPv4 itself, IPv6 its /64), so the
  database holds no visitor's address in the clear;
- ``table_id``, ``token_digest``: the seat sat down in (the digest of its new
  seat token, as in ``seats``);
- ``taken``: the database's clock at the claim;
- ``seated``: the sit-down's seat row is committed (:meth:`AddressCounts.seated`).

:meth:`AddressCounts.claim` is one statement (the function
``rollem_claim_seat``: one transaction, one round trip): it takes a
transaction-level advisory lock on the address (two processes claiming for
one address at once take turns: the second counts the first's row), forgets
the address's rows that no longer count (below), counts the rest, and adds its
row only below the limit.  A row counts while its seat row is being
committed (a sit-down's seat row is written by the table's own write stream,
grouped with other tables' writes: a refusal there would fail the table, so
the claim is a transaction of its own, made before the seat is taken); once
the sit-down is committed the row is marked ``seated``, and from then on it
counts exactly while the seat row is there (a seat left stops counting at
once).  A sit-down that fails after its claim (a name taken, the table full)
gives the row back (:meth:`AddressCounts.release`); one whose mark is lost (the
database out of reach a moment) counts at most :data:`PENDING_SECONDS`
longer than its seat.

Tables: each creation (and each try with a game file, as the process counts
it) adds a row of ``address_tables`` in one transaction under the same lock
(:meth:`AddressCounts.claim_table`), refused past the hourly limit; rows older
than an hour are forgotten then.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from typing import Any

import psycopg

__all__ = ["ADDRESS_COUNTS_SCHEMA", "PENDING_SECONDS", "AddressCounts", "address_digest"]

ADDRESS_COUNTS_SCHEMA = """
CREATE TABLE IF NOT EXISTS address_seats (
    address TEXT NOT NULL,
    table_id TEXT NOT NULL,
    token_digest TEXT NOT NULL,
    taken TIMESTAMPTZ NOT NULL,
    seated BOOLEAN NOT NULL DEFAULT false,
    PRIMARY KEY (address, table_id, token_digest)
);
CREATE TABLE IF NOT EXISTS address_tables (
    address TEXT NOT NULL,
    created TIMESTAMPTZ NOT NULL
);
CREATE INDEX IF NOT EXISTS address_tables_address ON address_tables (address, created);
CREATE OR REPLACE FUNCTION rollem_claim_seat(addr TEXT, tid TEXT, digest TEXT, most INTEGER,
                                             pending DOUBLE PRECISION, everyone BOOLEAN)
RETURNS INTEGER LANGUAGE plpgsql AS $claim$
DECLARE held INTEGER;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended('rollem seats ' || addr, 0));
    IF everyone THEN  -- (now and then: addresses that never come back)
        DELETE FROM address_seats a
            WHERE (a.seated OR a.taken < clock_timestamp() - pending * interval '1 second')
            AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.table_id = a.table_id
                            AND s.token_digest = a.token_digest);
    END IF;
    DELETE FROM address_seats a WHERE a.address = addr
        AND (a.seated OR a.taken < clock_timestamp() - pending * interval '1 second')
        AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.table_id = a.table_id
                        AND s.token_digest = a.token_digest);
    SELECT count(*) INTO held FROM address_seats WHERE address = addr;
    IF held >= most THEN
        RETURN held;
    END IF;
    INSERT INTO address_seats (address, table_id, token_digest, taken)
        VALUES (addr, tid, digest, clock_timestamp()) ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$claim$;
CREATE OR REPLACE FUNCTION rollem_claim_table(addr TEXT, most INTEGER, everyone BOOLEAN)
RETURNS DOUBLE PRECISION LANGUAGE plpgsql AS $claim$
DECLARE made INTEGER; oldest TIMESTAMPTZ;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended('rollem seats ' || addr, 0));
    IF everyone THEN
        DELETE FROM address_tables WHERE created < clock_timestamp() - interval '1 hour';
    END IF;
    DELETE FROM address_tables WHERE address = addr
        AND created < clock_timestamp() - interval '1 hour';
    SELECT count(*), min(created) INTO made, oldest FROM address_tables
        WHERE address = addr;
    IF made >= most THEN
        RETURN extract(epoch FROM oldest + interval '1 hour' - clock_timestamp());
    END IF;
    INSERT INTO address_tables (address, created) VALUES (addr, clock_timestamp());
    RETURN NULL;
END
$claim$
"""

PENDING_SECONDS = 30.0
"""Seconds a claim counts without its seat row (being committed, or the seat
left since)."""


def address_digest(address: str) -> str:
    """What ``address_seats`` stores for an address (a :func:`limit_key`): its
    SHA-256, hex (64 characters)."""
    return hashlib.sha256(address.encode()).hexdigest()


class AddressCounts:
    """The per-address seat and table counts on the PostgreSQL database at ``url``.  Every
    method is one short transaction on a connection of its own (thread-safe:
    called from worker threads, never on the event loop).

    Raises (any method): ``sqlite3.OperationalError`` when the database cannot
    be reached (the store interface's error type).
    """

    def __init__(self, url: str, lock_timeout: float = 5.0) -> None:
        self.url = url
        self.lock_timeout = lock_timeout
        self._lock = threading.Lock()
        self._conn: psycopg.Connection[Any] | None = None
        self.claims = 0  # transactions made (claims and releases: the tests read it)
        with self._connection() as conn, conn.transaction():
            # processes starting at once take turns (the migrations' lock)
            conn.execute("SELECT pg_advisory_xact_lock(7117017)")
            conn.execute(ADDRESS_COUNTS_SCHEMA)

    def _connection(self) -> _Held:
        return _Held(self)

    def _connect(self) -> psycopg.Connection[Any]:
        if self._conn is None or self._conn.closed or self._conn.broken:
            self._conn = psycopg.connect(self.url, autocommit=True)
            # never wait long for another process's claim on the same address
            self._conn.execute(f"SET lock_timeout = {int(self.lock_timeout * 1000)}")
        return self._conn

    PRUNE_EVERY = 256
    """Every so many claims, the rows no longer counted are forgotten for every
    address, not only the asking one (addresses that never come back)."""

    def claim(self, address: str, table_id: str, token_digest: str, most: int) -> int | None:
        """Count a sit-down of ``address`` (a limit key) at ``table_id`` with the
        seat token of ``token_digest``, if the address holds fewer than ``most``
        seats over all processes' tables; ``None`` once claimed, else the seats it
        holds (the sit-down must be refused; nothing was written).  One statement
        (``rollem_claim_seat``, its own transaction: one round trip)."""
        with self._connection() as conn:
            self.claims += 1
            row = conn.execute("SELECT rollem_claim_seat(%s, %s, %s, %s, %s, %s)",
                               (address_digest(address), table_id, token_digest, most,
                                PENDING_SECONDS, self.claims % self.PRUNE_EVERY == 0)
                               ).fetchone()
        return None if row is None or row[0] is None else int(row[0])

    def seated(self, address: str, table_id: str, token_digest: str) -> None:
        """Mark a claim whose seat row is committed: from now on it counts only
        while that row is there."""
        with self._connection() as conn:
            self.claims += 1
            conn.execute("UPDATE address_seats SET seated = true WHERE address = %s AND "
                         "table_id = %s AND token_digest = %s", (address_digest(address),
                                                                 table_id, token_digest))

    def release(self, address: str, table_id: str, token_digest: str) -> None:
        """Give back a claim whose sit-down did not happen."""
        with self._connection() as conn:
            self.claims += 1
            conn.execute("DELETE FROM address_seats WHERE address = %s AND table_id = %s "
                         "AND token_digest = %s", (address_digest(address), table_id,
                                                   token_digest))

    def claim_table(self, address: str, most: int) -> float | None:
        """Count a table creation of ``address`` (a limit key) if it created fewer
        than ``most`` in the last hour over all processes; ``None`` once counted,
        else the seconds until one more is allowed (nothing written).  One
        statement (``rollem_claim_table``)."""
        with self._connection() as conn:
            self.claims += 1
            row = conn.execute("SELECT rollem_claim_table(%s, %s, %s)",
                               (address_digest(address), most,
                                self.claims % self.PRUNE_EVERY == 0)).fetchone()
        return None if row is None or row[0] is None else max(0.0, float(row[0]))

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()


class _Held:
    """``with``: :class:`AddressCounts`' connection, its lock held; a psycopg error
    comes out as ``sqlite3.OperationalError``."""

    def __init__(self, owner: AddressCounts) -> None:
        self.owner = owner

    def __enter__(self) -> psycopg.Connection[Any]:
        self.owner._lock.acquire()
        try:
            return self.owner._connect()
        except psycopg.Error as err:
            self.owner._lock.release()
            raise sqlite3.OperationalError(f"PostgreSQL: {str(err).strip()}") from err

    def __exit__(self, kind: Any, err: Any, tb: Any) -> None:
        self.owner._lock.release()
        if isinstance(err, psycopg.Error):
            raise sqlite3.OperationalError(f"PostgreSQL: {str(err).strip()}") from err
