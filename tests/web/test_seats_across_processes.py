"""``--seats-per-address`` and ``--tables-per-hour`` hold across ``rollem
serve`` processes on one PostgreSQL (stop 54; both were counted per process: N
processes let one address hold N times its seats and make N times its tables).

Two real server processes on one database, ``--seats-per-address 3``; two
tables held by each.  One address sits down six times at once, three times at
each process's tables: exactly three sit-downs are taken, the others are 429
``too_many_seats`` and change nothing (the claims of one address take turns in
the database, so the two processes racing cannot both pass).  Another address
is untouched; a seat left stops counting.  Likewise eight table creations at
once, four at each process, with ``--tables-per-hour 6``: six made.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import httpx
import psycopg
import pytest
import websockets
from pg_cluster import PgCluster
from web_harness import UNLIMITED, LoggedServe, ServerThread, wait_served

from rollem.server.address_counts import AddressCounts, address_digest
from rollem.server.store import SeatRow
from rollem.server.store_pg import PgStore

_HOSTS = itertools.count(1)


def _fresh() -> str:
    """An address not used before in this run (a test tried again starts afresh on
    the module's servers)."""
    return f"203.0.113.{next(_HOSTS)}"


class Serve(LoggedServe):
    """One ``rollem serve`` process on the shared database, its log ``tmp/name.log``,
    3 seats an address and 6 tables an hour."""

    def __init__(self, db: str, tmp: Path, name: str) -> None:
        super().__init__(db, tmp / f"{name}.log",
                         "--seats-per-address", "3", "--tables-per-hour", "6")


@pytest.fixture(scope="module")
def two(pg_cluster: PgCluster,
        tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Serve, Serve]]:
    db = pg_cluster.new_database()
    tmp = tmp_path_factory.mktemp("two")
    a = Serve(db, tmp, "a")
    b = Serve(db, tmp, "b")
    try:
        wait_served(a.port)
        wait_served(b.port)
        yield a, b
    finally:
        a.stop()
        b.stop()


def _create(srv: Serve, address: str) -> httpx.Response:
    return httpx.post(srv.url + "/api/tables", json={"game": "holdem", "bots": 0, "seats": 6},
                      headers={"X-Forwarded-For": address}, timeout=30)


def _table(srv: Serve, address: str) -> str:
    r = _create(srv, address)
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


def _join(srv: Serve, tid: str, name: str, address: str) -> httpx.Response:
    return httpx.post(f"{srv.url}/api/tables/{tid}/join", json={"name": name},
                      headers={"X-Forwarded-For": address}, timeout=30)


def _names(srv: Serve, tid: str) -> list[str]:
    r = httpx.get(f"{srv.url}/api/tables/{tid}", timeout=30)
    assert r.status_code == 200, r.text
    return sorted(s["name"] for s in r.json()["seats"] if not s["free"])


async def _leave(srv: Serve, tid: str, token: str, address: str) -> None:
    url = srv.url.replace("http", "ws") + f"/ws/{tid}"
    async with websockets.connect(url, additional_headers={
            "Cookie": f"rollem_seat_{tid}={token}", "X-Forwarded-For": address}) as ws:
        await ws.send(json.dumps({"type": "leave"}))
        while True:  # until a state with the seat freed
            msg = json.loads(await asyncio.wait_for(ws.recv(), 20))
            if msg["type"] == "state" and msg["you"]["seat"] is None:
                return


def test_seats_per_address_hold_across_processes(two: tuple[Serve, Serve]) -> None:
    a, b = two
    mallory, honest = _fresh(), _fresh()
    tables = [(a, _table(a, honest)), (a, _table(a, honest)), (b, _table(b, honest)),
              (b, _table(b, honest))]
    tries = [(srv, tid, f"M{i}{j}") for i, (srv, tid) in enumerate(tables) for j in (1, 2)]
    tries = [tries[0], tries[1], tries[2], tries[4], tries[5], tries[6]]  # 3 at each process
    with ThreadPoolExecutor(len(tries)) as pool:
        answers = list(pool.map(lambda t: _join(t[0], t[1], t[2], mallory), tries))
    taken = [(t, r) for t, r in zip(tries, answers, strict=True) if r.status_code == 200]
    refused = [r for r in answers if r.status_code != 200]
    assert len(taken) == 3, [(r.status_code, r.text) for r in answers]
    for r in refused:
        assert r.status_code == 429, r.text
        assert r.json()["error"] == "too_many_seats", r.text
        assert "at most 3 seats at once from one address" in r.json()["message"]
        assert not any(name.startswith("rollem_seat_") for name in r.cookies)
    # nothing changed by the refusals: the seats at the four tables are the three taken
    seated = sorted(n for srv, tid in tables for n in _names(srv, tid))
    assert seated == sorted(t[2] for t, _r in taken)
    # a later one, at either process, is refused too; another address sits down
    for srv, tid in (tables[1], tables[3]):
        late = _join(srv, tid, "Late", mallory)
        assert late.status_code == 429 and late.json()["error"] == "too_many_seats", late.text
    assert _join(b, tables[3][1], "Honest", honest).status_code == 200
    # a seat left stops counting: one more sit-down (at the other process), no second
    (srv, tid, _name), r = taken[0]
    asyncio.run(_leave(srv, tid, r.cookies[f"rollem_seat_{tid}"], mallory))
    other = b if srv is a else a
    target = next(t for s, t in tables if s is other)
    time.sleep(2.1)  # (a refused address is refused for 2 s without a query)
    again = _join(other, target, "Again", mallory)
    assert again.status_code == 200, again.text
    no_more = _join(srv, tid, "NoMore", mallory)
    assert no_more.status_code == 429, no_more.text


def test_tables_per_hour_hold_across_processes(two: tuple[Serve, Serve]) -> None:
    a, b = two
    maker = _fresh()
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda srv: _create(srv, maker), [a, b] * 4))
    made = [r for r in answers if r.status_code == 200]
    assert len(made) == 6, [(r.status_code, r.text) for r in answers]
    for r in answers:
        if r.status_code != 200:
            assert r.status_code == 429, r.text
            assert r.json()["error"] == "too_many_tables", r.text
            assert "at most 6 new tables an hour from one address" in r.json()["message"]
            assert not any(name.startswith("rollem_host_") for name in r.cookies)
    # the six are there, at one process or the other; a seventh is refused at both
    for r in made:
        tid = r.json()["id"]
        assert any(httpx.get(f"{srv.url}/api/tables/{tid}", follow_redirects=False,
                             timeout=30).status_code == 200 for srv in (a, b))
    for srv in (a, b):
        late = _create(srv, maker)
        assert late.status_code == 429 and late.json()["error"] == "too_many_tables", late.text
    assert _create(b, _fresh()).status_code == 200  # another address makes one


def test_a_flood_refused_by_the_shared_count_costs_one_query(pg_cluster: PgCluster) -> None:
    """An address at its limit over all processes (here: another process's claim,
    written straight into the database) is refused by this one's query once, then
    for ``SEATS_RECHECK`` seconds without a query; tables likewise until the hour
    of its oldest creation is over.  A sit-down refused for itself (a name taken)
    makes no query."""
    db = pg_cluster.new_database()
    srv = ServerThread(db, replace(UNLIMITED, seats_per_address=1,  # type: ignore[arg-type]
                                   tables_per_address_per_hour=1))
    try:
        mallory = _fresh()
        r = httpx.post(srv.url + "/api/tables", json={"game": "holdem", "bots": 0},
                       headers={"X-Forwarded-For": _fresh()})
        tid = r.json()["id"]
        with psycopg.connect(db, autocommit=True) as conn:  # (another process's)
            conn.execute("INSERT INTO address_seats (address, table_id, token_digest, taken) "
                         "VALUES (%s, 'elsewhere', 'x', clock_timestamp())",
                         (address_digest(mallory),))
            conn.execute("INSERT INTO address_tables (address, created) "
                         "VALUES (%s, clock_timestamp())", (address_digest(mallory),))
        counts = srv.app.state.address_counts
        # a sit-down refused for itself (a name taken) asks the shared count nothing
        assert httpx.post(f"{srv.url}/api/tables/{tid}/join", json={"name": "Ann"},
                          headers={"X-Forwarded-For": _fresh()}).status_code == 200
        before = counts.claims
        for _ in range(20):
            taken = httpx.post(f"{srv.url}/api/tables/{tid}/join", json={"name": "ann"},
                               headers={"X-Forwarded-For": _fresh()})
            assert taken.status_code == 400 and taken.json()["error"] == "bad_name"
        assert counts.claims == before
        for i in range(30):
            refused = httpx.post(f"{srv.url}/api/tables/{tid}/join", json={"name": f"M{i}"},
                                 headers={"X-Forwarded-For": mallory})
            assert refused.status_code == 429, refused.text
            assert refused.json()["error"] == "too_many_seats"
            made = httpx.post(srv.url + "/api/tables", json={"game": "holdem"},
                              headers={"X-Forwarded-For": mallory})
            assert made.status_code == 429 and made.json()["error"] == "too_many_tables"
            # (the hour of the other process's creation, less the seconds since)
            assert re.search(r"try again in 3[56]\d\d s$", made.json()["message"]), made.text
        assert counts.claims - before == 2  # one query each, the first time
        # its SEATS_RECHECK seconds over (the refusal remembered ends then)
        srv.app.state.limits.seats_refused_shared.refused[mallory] = 0.0
        assert httpx.post(f"{srv.url}/api/tables/{tid}/join", json={"name": "M"},
                          headers={"X-Forwarded-For": mallory}).status_code == 429
        assert counts.claims - before == 3  # asked again
    finally:
        srv.stop()


def test_claims_count_while_held_and_are_forgotten(pg_cluster: PgCluster) -> None:
    """A claim counts while its seat row is there, or while it is young and not yet
    marked seated (the sit-down being committed); once seated and the seat gone, at
    once.  Now and then every address's stale rows are forgotten, not only the
    asker's (an address that never comes back)."""
    db = pg_cluster.new_database()
    store = PgStore(db)  # (the schema: tables, seats)
    counts = AddressCounts(db)
    try:
        store.create_table("t1", {}, {}, "h", [SeatRow(
            seat=0, name="Ann", token_digest="held", bot=None, stack=100, brought=100,
            bank=0.0, joined_hand=0)])
        counts.PRUNE_EVERY = 10**9  # (only the asker's rows, for now)
        ann = _fresh()
        assert counts.claim(ann, "t1", "held", 3) is None
        counts.seated(ann, "t1", "held")
        assert counts.claim(ann, "t1", "pending", 3) is None  # (no seat row yet)
        assert counts.claim(ann, "t1", "gone", 3) is None
        counts.seated(ann, "t1", "gone")  # seated, and its seat row is not there: left
        assert counts.claim(ann, "t1", "fourth", 3) is None  # "gone" no longer counts
        assert counts.claim(ann, "t1", "fifth", 3) == 3  # held, pending, fourth
        counts.release(ann, "t1", "fourth")
        assert counts.claim(ann, "t1", "sixth", 3) is None
        with psycopg.connect(db, autocommit=True) as conn:
            old = _fresh()
            conn.execute("INSERT INTO address_seats (address, table_id, token_digest, taken) "
                         "VALUES (%s, 'x', 'y', clock_timestamp() - interval '1 minute')",
                         (address_digest(old),))
            conn.execute("INSERT INTO address_tables (address, created) "
                         "VALUES (%s, clock_timestamp() - interval '2 hours')",
                         (address_digest(old),))
            counts.PRUNE_EVERY = 1
            assert counts.claim(_fresh(), "t1", "z", 3) is None
            assert counts.claim_table(_fresh(), 3) is None
            for table in ("address_seats", "address_tables"):
                row = conn.execute(f"SELECT count(*) FROM {table} WHERE address = %s",
                                   (address_digest(old),)).fetchone()
                assert row == (0,), table
            row = conn.execute("SELECT count(*) FROM address_seats WHERE address = %s",
                               (address_digest(ann),)).fetchone()
            assert row == (3,)  # held, pending (young), sixth
    finally:
        counts.close()
        store.close()
