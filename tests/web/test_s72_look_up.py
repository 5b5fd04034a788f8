"""A table another process holds, or one being taken over, is looked up off the
event loop (stop 72, s72-hostile2).

With several ``rollem serve`` on one PostgreSQL, a request for a table that is
not in the asked process's memory (the proxy hashes a table to one process, not
always its holder) read the table's row and took the lease row ``FOR UPDATE``
on the event loop: every such request held every table of that process for the
database's round trips, and for as long as the holder's commit held the lease
row (its fence, ``FOR KEY SHARE``): up to the lease time when the holder was
frozen in it.  Measured: four connections asking another process's table held
an honest request at that process at a median 49 to 57 ms (10 ms for a
table of its own), and one request while the row was locked held it 3.6 s.

One real ``rollem serve`` (its lease time 10 s) and a "ghost" holder: lease
rows written straight into the database, locked by this test's own
transaction as a holder's commit locks them; and a holder that hangs, a socket
that takes connections and never answers: the sit-downs passed on to it (a proxy
cannot send a POST's body on) waited in the event loop's default executor, which
every sit-down's shared seat count uses too.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import httpx
import psycopg
import pytest
from pg_cluster import PgCluster
from web_harness import LoggedServe, wait_served

GHOST = "http://127.0.0.1:9"  # the other process's address (nothing listens there)


class Serve(LoggedServe):
    """One ``rollem serve`` on the database, its log in ``tmp``, a 10 s lease."""

    def __init__(self, db: str, tmp: Path, port: int | None = None) -> None:
        super().__init__(db, tmp / "serve.log", "--lease-seconds", "10", port=port)
        self.tmp = tmp


@pytest.fixture(scope="module")
def served(pg_cluster: PgCluster,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Serve, str]]:
    db = pg_cluster.new_database()
    srv = Serve(db, tmp_path_factory.mktemp("look-up"))
    try:
        wait_served(srv.port)
        yield srv, db
    finally:
        srv.stop()


def _table(srv: Serve, address: str) -> str:
    r = httpx.post(srv.url + "/api/tables", json={"game": "holdem", "bots": 0},
                   headers={"X-Forwarded-For": address}, timeout=30)
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


def _given_to_ghost(srv: Serve, db: str, tid: str, url: str = GHOST) -> None:
    """Hand ``tid``'s lease to another process (the ghost) as a takeover does (one
    more epoch, live for an hour); wait until the server dropped the table (its
    renewal refused)."""
    with psycopg.connect(db, autocommit=True) as conn:
        conn.execute("UPDATE leases SET owner = 'ghost', url = %s, epoch = epoch + 1, "
                     "expires = clock_timestamp() + interval '1 hour' WHERE table_id = %s",
                     (url, tid))
    end = time.time() + 60
    while f"table {tid}: lease renewal refused" not in srv.log.read_text(errors="replace"):
        assert time.time() < end, "the server did not drop the table"
        time.sleep(0.2)


def _lease_waits(db: str) -> bool:
    """Whether a statement of the server waits for a lock on a lease row."""
    with psycopg.connect(db, autocommit=True) as conn:
        return bool(conn.execute(
            "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
            "AND query LIKE '%%FROM leases%%FOR UPDATE%%'").fetchone())


def test_a_table_held_elsewhere_is_sent_on_while_its_holder_commits(
        served: tuple[Serve, str]) -> None:
    """The holder's commit holds its lease row: the asked process still answers
    307 with the holder at once (main: it waited for the row, the lease time,
    then failed)."""
    srv, db = served
    tid = _table(srv, "203.0.113.1")
    _given_to_ghost(srv, db, tid)
    with psycopg.connect(db) as holder:  # the holder, in the middle of its commit
        holder.execute("SELECT 1 FROM leases WHERE table_id = %s FOR KEY SHARE", (tid,))
        r = httpx.get(f"{srv.url}/api/tables/{tid}", timeout=30)
        assert r.status_code == 307, r.text
        assert r.headers["location"] == f"{GHOST}/api/tables/{tid}"
        assert r.headers["x-rollem-owner"] == "127.0.0.1:9"
        page = httpx.get(f"{srv.url}/t/{tid}", timeout=30)
        assert page.status_code == 307 and page.headers["location"] == f"{GHOST}/t/{tid}"
        holder.rollback()


def test_a_takeover_waiting_for_the_old_holders_commit_holds_no_other_table(
        served: tuple[Serve, str]) -> None:
    """The ghost's lease expired while its commit still holds the row (it froze in
    it): a request for that table waits for the row, and meanwhile the process
    answers for its other tables; once the row is free the table is taken over
    here, with its seats as stored (main: every request waited with it)."""
    srv, db = served
    ours, tid = _table(srv, "203.0.113.2"), _table(srv, "203.0.113.3")
    sat = httpx.post(f"{srv.url}/api/tables/{tid}/join", json={"name": "Ann"},
                     headers={"X-Forwarded-For": "203.0.113.4"}, timeout=30)
    assert sat.status_code == 200, sat.text
    _given_to_ghost(srv, db, tid)
    with psycopg.connect(db) as holder, ThreadPoolExecutor(1) as pool:
        holder.execute("SELECT 1 FROM leases WHERE table_id = %s FOR KEY SHARE", (tid,))
        with psycopg.connect(db, autocommit=True) as conn:  # its time runs out
            conn.execute("UPDATE leases SET expires = clock_timestamp() - interval '1 second' "
                         "WHERE table_id = %s", (tid,))
        waiting: Future[httpx.Response] = pool.submit(
            httpx.get, f"{srv.url}/api/tables/{tid}", timeout=60)
        end = time.time() + 30
        while not _lease_waits(db):  # the takeover's FOR UPDATE waits for the commit
            assert not waiting.done(), waiting.result().text
            assert time.time() < end, "no takeover waited for the lease row"
            time.sleep(0.05)
        other = httpx.get(f"{srv.url}/api/tables/{ours}", timeout=60)
        assert other.status_code == 200 and other.json()["id"] == ours
        assert not waiting.done(), "the other table was answered only after the wait"
        assert _lease_waits(db)
        holder.rollback()  # the old holder's commit ends
        r = waiting.result()
    assert r.status_code == 200, r.text
    assert [s["name"] for s in r.json()["seats"] if not s["free"]] == ["Ann"]
    with psycopg.connect(db, autocommit=True) as conn:
        row = conn.execute("SELECT url, owner <> 'ghost' FROM leases WHERE table_id = %s",
                           (tid,)).fetchone()
    assert row == (srv.url, True)


def test_sit_downs_passed_on_to_a_hung_holder_hold_no_other_sit_down(
        served: tuple[Serve, str]) -> None:
    """The holder hangs (it takes the connection and never answers) while its lease
    lasts: 32 sit-downs passed on to it wait (15 s each at most), and meanwhile a
    sit-down at a table of this process is taken (main: the sit-downs waited in the
    event loop's default executor, which the seats' shared count uses too, so the
    other sit-down waited for them)."""
    srv, db = served
    ours, tid = _table(srv, "203.0.113.5"), _table(srv, "203.0.113.6")
    hung = socket.socket()
    hung.bind(("127.0.0.1", 0))
    hung.listen(64)
    url = f"http://127.0.0.1:{hung.getsockname()[1]}"
    _given_to_ghost(srv, db, tid, url)
    taken: list[socket.socket] = []

    def join(i: int) -> httpx.Response:
        return httpx.post(f"{srv.url}/api/tables/{tid}/join", json={"name": f"P{i}"},
                          headers={"X-Forwarded-For": f"203.0.113.{100 + i // 16}"},
                          timeout=60)

    with ThreadPoolExecutor(32) as pool:
        passed_on = [pool.submit(join, i) for i in range(32)]
        hung.settimeout(30)
        while len(taken) < 6:  # (the default executor has at least 6 workers)
            taken.append(hung.accept()[0])
        sat = httpx.post(f"{srv.url}/api/tables/{ours}/join", json={"name": "Bea"},
                         headers={"X-Forwarded-For": "203.0.113.7"}, timeout=60)
        assert sat.status_code == 200, sat.text
        assert not any(f.done() for f in passed_on), "the sit-down waited for the holder"
        hung.close()  # the holder is gone: each one passed on is refused at once
        for conn in taken:
            conn.close()
        answers = [f.result() for f in passed_on]
    for r in answers:
        assert r.status_code == 503 and r.json()["error"] == "moving", r.text
        assert not any(c.startswith("rollem_seat_") for c in r.cookies)


def test_a_restart_on_the_same_address_takes_its_tables_at_once(
        served: tuple[Serve, str]) -> None:
    """Killed (its leases still live, under its old owner id) and started again on
    the same address, the server plays its tables at once: the look-up takes a
    live lease held under its own address, as the acquisition does, and never
    sends the asker to itself."""
    srv, db = served
    tid = _table(srv, "203.0.113.8")
    srv.proc.kill()
    srv.proc.wait(15)
    # The old run's lease stays live through the restart however long that takes
    # (its last renewal may have left it a few seconds of its 10, less than a
    # restart on a loaded machine): pushed back an hour, owner and address as the
    # old run left them.
    with psycopg.connect(db, autocommit=True) as conn:
        old = conn.execute("UPDATE leases SET expires = clock_timestamp() + interval '1 hour' "
                           "WHERE table_id = %s RETURNING owner, url", (tid,)).fetchone()
    assert old is not None and old[1] == srv.url
    again = Serve(db, srv.tmp, srv.port)
    srv.proc = again.proc  # (the module's server from now on)
    wait_served(srv.port)
    with psycopg.connect(db, autocommit=True) as conn:  # still live, the old run's
        live = conn.execute("SELECT expires > clock_timestamp(), owner FROM leases "
                            "WHERE table_id = %s", (tid,)).fetchone()
    assert live == (True, old[0])
    r = httpx.get(f"{srv.url}/api/tables/{tid}", timeout=30)
    assert r.status_code == 200 and r.json()["id"] == tid, r.text
    with psycopg.connect(db, autocommit=True) as conn:  # taken by the new run
        now = conn.execute("SELECT owner <> %s, url FROM leases WHERE table_id = %s",
                           (old[0], tid)).fetchone()
    assert now == (True, srv.url)
