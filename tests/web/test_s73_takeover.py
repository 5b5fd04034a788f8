"""A takeover that waits for a hung holder's commit holds up nothing else of the
taking process (stop 73, s73-hostile).

With several ``rollem serve`` on one PostgreSQL, a process adopts the tables of
a process that stopped renewing (its orphans).  The acquisition locks the lease
row ``FOR UPDATE`` and so waits for a commit the old holder left open (up to
the lease time).  It did so on the one connection that also renews this
process's leases and acquires every new table, and the renewal loop awaited it:
while it waited, this process's own live tables were not renewed (their leases
lapsed, free for any other process to take mid-hand) and no table could be
created.

One real ``rollem serve`` (its lease time 3 s) and a "ghost" holder whose lease
rows this test writes straight into the database, locked by the test's own
transaction as a holder's commit locks them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import httpx
import psycopg
import pytest
from pg_cluster import PgCluster
from web_harness import LoggedServe, ServerThread, create_table, wait_served

LEASE = 3.0


@pytest.fixture(scope="module")
def served(pg_cluster: PgCluster,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LoggedServe, str]]:
    db = pg_cluster.new_database()
    srv = LoggedServe(db, tmp_path_factory.mktemp("takeover") / "serve.log",
                      "--lease-seconds", str(LEASE))
    try:
        wait_served(srv.port)
        yield srv, db
    finally:
        srv.stop()


def _table(srv: LoggedServe, address: str) -> str:
    r = httpx.post(srv.url + "/api/tables", json={"game": "holdem", "bots": 0},
                   headers={"X-Forwarded-For": address}, timeout=30)
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


def _takeover_waits(db: str) -> bool:
    """Whether a statement of the server waits for a lock on a lease row."""
    with psycopg.connect(db, autocommit=True) as conn:
        return bool(conn.execute(
            "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
            "AND query LIKE '%%FROM leases%%FOR UPDATE%%'").fetchone())


def _live(db: str, tid: str) -> bool:
    with psycopg.connect(db, autocommit=True) as conn:
        row = conn.execute("SELECT expires > clock_timestamp() FROM leases WHERE table_id = %s",
                           (tid,)).fetchone()
    return bool(row and row[0])


def test_an_orphans_takeover_waiting_for_a_commit_holds_no_renewal_nor_creation(
        served: tuple[LoggedServe, str]) -> None:
    """The ghost's lease lapsed while its commit still holds the row: the server's
    adoption waits for it.  Meanwhile its own table's lease stays live (renewed
    every third of the lease time) for twice the lease time, and a new table is
    created; once the row is free the orphan is taken over (main: the renewals
    waited behind the takeover, the own lease lapsed; the creation waited too)."""
    srv, db = served
    ours, tid = _table(srv, "203.0.113.1"), _table(srv, "203.0.113.2")
    with psycopg.connect(db, autocommit=True) as conn:  # the ghost took tid over ...
        conn.execute("UPDATE leases SET owner = 'ghost', url = 'http://127.0.0.1:9', "
                     "epoch = epoch + 1, expires = clock_timestamp() + interval '1 hour' "
                     "WHERE table_id = %s", (tid,))
    end = time.time() + 30
    while f"table {tid}: lease renewal refused" not in srv.log.read_text(errors="replace"):
        assert time.time() < end, "the server did not drop the table"
        time.sleep(0.1)
    with psycopg.connect(db) as holder:  # ... and hangs in the middle of a commit
        holder.execute("SELECT 1 FROM leases WHERE table_id = %s FOR KEY SHARE", (tid,))
        with psycopg.connect(db, autocommit=True) as conn:  # its time runs out
            conn.execute("UPDATE leases SET expires = clock_timestamp() - interval '1 second' "
                         "WHERE table_id = %s", (tid,))
        end = time.time() + 30
        while not _takeover_waits(db):  # the adoption's FOR UPDATE waits
            assert time.time() < end, "no takeover waited for the lease row"
            time.sleep(0.05)
        created = _table(srv, "203.0.113.3")
        assert _takeover_waits(db), "the table was created only after the takeover's wait"
        lapsed = 0
        end = time.time() + 2 * LEASE
        while time.time() < end:
            lapsed += not _live(db, ours)
            time.sleep(0.1)
        assert lapsed == 0, f"this process's own lease lapsed ({lapsed} looks of the database)"
        assert _live(db, created)
        holder.rollback()  # the old holder's commit ends
    end = time.time() + 30
    while f"table {tid}: its process stopped renewing its lease; taken over here" \
            not in srv.log.read_text(errors="replace"):
        assert time.time() < end, "the orphan was not taken over"
        time.sleep(0.1)
    r = httpx.get(f"{srv.url}/api/tables/{tid}", timeout=30)
    assert r.status_code == 200 and r.json()["id"] == tid


def test_an_unloaded_table_gives_its_lease_back(pg_cluster: PgCluster) -> None:
    """The idle sweep's unloading releases the table's lease (now off the event loop):
    the row names no owner, and the table comes back when asked for."""
    url = pg_cluster.new_database()
    srv = ServerThread(url)  # type: ignore[arg-type]
    try:
        tid, _ = create_table(srv.url, game="holdem", bots=1)
        gone = asyncio.run_coroutine_threadsafe(
            srv.manager.unload_idle(time.time() + 86400), srv.server_loop()).result(10)
        assert gone == [tid] and tid not in srv.manager.tables
        with psycopg.connect(url, autocommit=True) as conn:
            row = conn.execute("SELECT owner FROM leases WHERE table_id = %s", (tid,)).fetchone()
        assert row == (None,)
        r = httpx.get(f"{srv.url}/api/tables/{tid}", timeout=30)
        assert r.status_code == 200 and tid in srv.manager.tables
    finally:
        srv.stop()
