"""The PostgreSQL store (issue 17): the SQLite store's statements translated, the
schema's versions, errors as the store interface's, a table's writes in order."""

from __future__ import annotations

import sqlite3

import psycopg
import pytest
from pg_cluster import PgCluster

from rollem.server.schema import SCHEMA_VERSION, SchemaError
from rollem.server.store import EarlierWriteFailed, SeatRow, Store
from rollem.server.store_pg import PgStore, translate
from rollem.server.stores import is_postgres_url, open_store, shown_db


def test_translate_worked_examples() -> None:
    assert translate("SELECT a FROM t WHERE id=? AND n=?") == \
        "SELECT a FROM t WHERE id=%s AND n=%s"
    assert translate("INSERT OR REPLACE INTO seats (table_id, seat, name) VALUES (?,?,?)") == (
        "INSERT INTO seats (table_id, seat, name) VALUES (%s,%s,%s) "
        "ON CONFLICT (table_id, seat) DO UPDATE SET name=EXCLUDED.name")
    assert translate("INSERT OR REPLACE INTO health (id) VALUES (1)") == \
        "INSERT INTO health (id) VALUES (1) ON CONFLICT (id) DO NOTHING"
    assert translate("SELECT COALESCE(json_extract(session, '$.at'), created) FROM tables") == \
        "SELECT COALESCE(((session::jsonb)->>'at')::double precision, created) FROM tables"
    with pytest.raises(KeyError):
        translate("INSERT OR REPLACE INTO hands (a) VALUES (?)")


def test_open_store_picks_the_backend(tmp_path: object) -> None:
    assert is_postgres_url("postgresql://u@h/db") and is_postgres_url("postgres://h/db")
    assert not is_postgres_url("rollem.db") and not is_postgres_url("/tmp/postgresql.db")
    assert shown_db("postgresql://ann:s3:cr@t@h:5432/db") == "postgresql://ann:***@h:5432/db"
    assert shown_db("postgresql://ann@/db?host=/tmp") == "postgresql://ann@/db?host=/tmp"
    assert shown_db("club.db") == "club.db"
    store = open_store(f"{tmp_path}/x.db")
    assert type(store) is Store and store.journal_mode == "wal"
    store.close()


def _seat(stack: int) -> SeatRow:
    return SeatRow(0, "Ann", "d0", None, stack, 200, 30.0, 0)


def test_writes_reads_errors_and_schema(pg_cluster: PgCluster) -> None:
    url = pg_cluster.new_database()
    store = open_store(url)
    assert isinstance(store, PgStore) and store.schema_version() == SCHEMA_VERSION
    store.create_table("T1", {"game": "sdr"}, {"hand_no": 0, "at": 5.0}, "h", [_seat(200)])
    stream = store.stream("T1")
    stream.write(new_hand=(1, {"button": 0}), seats=[_seat(190)])
    last = stream.write(action=(1, 0, 0, {"kind": "check"}, "player", {"n": 1}))
    assert last is not None and stream.drained() is last
    last.result(30)
    assert store.load_seats("T1") == [_seat(190)]  # INSERT OR REPLACE replaced the row
    assert store.hand_numbers("T1") == [1]
    hand = store.load_hand("T1", 1)
    assert hand is not None and hand.setup == {"button": 0} and hand.result is None
    [row] = store.load_actions("T1", 1)
    assert (row.idx, row.seat, row.action, row.source, row.events) == \
        (0, 0, {"kind": "check"}, "player", {"n": 1})
    assert store.tables_idle_since(6.0) == ["T1"] and store.tables_idle_since(5.0) == []
    # A failed write fails as the interface's error; every later write of the
    # stream fails untried; what is committed is a prefix.
    dup = stream.write(new_hand=(1, {"button": 1}))
    later = stream.write(new_hand=(2, {"button": 1}))
    assert dup is not None and later is not None
    with pytest.raises(sqlite3.IntegrityError, match="PostgreSQL: duplicate key"):
        dup.result(30)
    with pytest.raises(EarlierWriteFailed):
        later.result(30)
    assert store.hand_numbers("T1") == [1]
    store.stream("T1").write(hand_result=(1, {"net": {"0": 0}}))
    store.close()
    # Committed means durable for another connection and a new process's store.
    again = PgStore(url)
    result = again.load_hand("T1", 1)
    assert result is not None and result.result == {"net": {"0": 0}}
    again.close()
    # A database of a newer rollem is refused, not misread.
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("UPDATE rollem_schema SET version = %s", (SCHEMA_VERSION + 1,))
    with pytest.raises(SchemaError, match="upgrade rollem"):
        PgStore(url)


def test_an_unreachable_database_is_a_store_error(pg_cluster: PgCluster) -> None:
    with pytest.raises(sqlite3.OperationalError, match="PostgreSQL"):
        PgStore(f"postgresql://rollem@/no_such_db?host={pg_cluster.dir}")

