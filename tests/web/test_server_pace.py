"""The disk budget and the pause between hands (issue 34, items 5 and 6).

On a virtual clock (:mod:`virtual_table`): a table where computer players play
(a person only folds) deals no faster than the server's floor; a table whose
stored hands reach its limit, or whose server's do, deals no more and says
why; a table where no person plays stops dealing after a while and the host's
"deal now" deals again; no join, rebuy, return, resume or approval cuts the
pause between hands short, the host's "deal now" does.  On SQLite and
PostgreSQL: each table's stored bytes are counted as its hands are written
(and counted for the tables of an older database when it is migrated), and
tables no person ever played are swept.
"""

from __future__ import annotations

import itertools
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pg_cluster import PgCluster
from test_table_bots import virtual_server as bots_virtual_server
from virtual_table import VirtualLoop

from rollem.server.budget import DiskBudget
from rollem.server.config import parse_config
from rollem.server.live_table import Client, LiveTable, TableError
from rollem.server.manager import TableManager
from rollem.server.protocol import ClientMessage
from rollem.server.schema import SCHEMA_VERSION
from rollem.server.store import SeatRow, Store
from rollem.server.stores import open_store

Policy = Callable[[dict[str, Any]], dict[str, Any] | None]


def fold(legal: dict[str, Any]) -> dict[str, Any] | None:
    """Fold whenever a fold is allowed (the attack: a person who only folds); any
    other decision: the clock's choice, made by the person."""
    return {"kind": "fold"} if "fold" in legal["actions"] else None


def passive(legal: dict[str, Any]) -> dict[str, Any] | None:
    """Check, else call: a person playing every hand."""
    for kind in ("check", "call"):
        if kind in legal["actions"]:
            return {"kind": kind}
    return None


def virtual_server() -> Any:
    """:func:`test_table_bots.virtual_server` with this file's seeds."""
    return bots_virtual_server(deal_seed=34, bot_seed=35)


def new_table(loop: VirtualLoop, store: Store, budget: DiskBudget, bots: int = 5,
              **config: Any) -> tuple[LiveTable, Client, Client]:
    """A started SDR table of ``bots`` computer players and one person (seat 0),
    dealing as fast as its settings allow (no bot delay, no pause between hands);
    returns it, the person's client and the host's."""
    settings = {"game": "sdr", "seats": bots + 1, "bots": bots, "bot_level": "basic",
                "stack": 100_000, "decision_seconds": 600.0, "grace_seconds": 3600.0,
                "bot_delay": 0, "between_hands": 0, **config}
    table, _ = loop.call(LiveTable.create, store, parse_config(settings))
    table.budget = budget
    host = Client(None, True)
    loop.call(table.connect, host)
    _, token = loop.call(table.join, "Ann", 0)
    ann = Client(table.seat_for_token(token))
    loop.call(table.connect, ann)
    loop.call(table.handle, host, ClientMessage("start", None, table.seq, {}))
    return table, ann, host


def play(loop: VirtualLoop, table: LiveTable, person: Client, policy: Policy,
         seconds: float) -> list[float]:
    """Play ``seconds`` of virtual time, the person answering at once by ``policy``;
    the moments (loop time) each hand was dealt."""
    dealt: list[float] = []
    end = loop.now + seconds
    last = int(table.session["hand_no"])
    while loop.now < end:
        loop.advance(0.1)
        if int(table.session["hand_no"]) != last:
            last = int(table.session["hand_no"])
            assert table.pace.dealt_at is not None
            dealt.append(table.pace.dealt_at)
        person._pending.clear()
        seat = person.seat
        if table.hand is not None and seat in table.decision_seq:
            action = (policy(table.hand.view(seat)["legal"])
                      or table.hand.timeout_action(seat))
            msg = ClientMessage("action", table.hand.hand_no, table.seq, {"action": action})
            loop.call(table.handle, person, msg)
    return dealt


def gaps(moments: list[float]) -> list[float]:
    return [b - a for a, b in itertools.pairwise(moments)]


def person_played(store: Store, table_id: str, hand_no: int) -> bool:
    """Whether a person made a decision other than folding in the hand (stored)."""
    return any(a.source == "player" and a.action.get("kind") != "fold"
               for a in store.load_actions(table_id, hand_no))


def hand_bytes(store: Store, table_id: str, hand_no: int) -> int:
    """The stored bytes of one hand (its setup, result and actions)."""
    row = store.db.execute(
        "SELECT length(setup) + COALESCE(length(result), 0) FROM hands "
        "WHERE table_id=? AND hand_no=?", (table_id, hand_no)).fetchone()
    acts = store.db.execute(
        "SELECT COALESCE(SUM(length(action) + length(events)), 0) FROM actions "
        "WHERE table_id=? AND hand_no=?", (table_id, hand_no)).fetchone()
    return int(row[0]) + int(acts[0])


def stored_by_sql(store: Store, table_id: str) -> int:
    """The bytes of a table's hands, summed by SQL (what ``tables.stored`` counts)."""
    hands = store.db.execute(
        "SELECT COALESCE(SUM(length(setup) + COALESCE(length(result), 0)), 0) FROM hands "
        "WHERE table_id=?", (table_id,)).fetchone()[0]
    actions = store.db.execute(
        "SELECT COALESCE(SUM(length(action) + length(events)), 0) FROM actions "
        "WHERE table_id=?", (table_id,)).fetchone()[0]
    return int(hands) + int(actions)


# -- the floor on the time per hand ------------------------------------------------


def test_a_table_of_bots_deals_no_faster_than_the_floor() -> None:
    """The issue's attack on a virtual clock: one person folding, five computer
    players, no bot delay, no pause. Before: a hand every few milliseconds; now a
    hand at most every 5 s (the unattended floor); a person who plays gets the 1 s
    floor; a host's own slower floor (``hand_seconds``) is kept."""
    budget = DiskBudget(hand_seconds=1.0, unattended_hand_seconds=5.0)
    with virtual_server() as (loop, store):
        table, ann, _host = new_table(loop, store, budget, bots=3)
        first = int(table.session["hand_no"]) + 1
        folded = play(loop, table, ann, fold, 60.0)
        kinds = [person_played(store, table.id, first + i) for i in range(len(folded))]
        assert kinds.count(False) >= 5  # hands Ann only folded (or was not asked)
        for gap, played_it in zip(gaps(folded), kinds, strict=False):
            assert gap >= (1.0 if played_it else 5.0) - 1e-9
            assert played_it or gap < 5.2  # (a fast table: dealt as the floor allows)
        first = int(table.session["hand_no"]) + 1
        played = play(loop, table, ann, passive, 30.0)
        kinds = [person_played(store, table.id, first + i) for i in range(len(played))]
        assert len(played) >= 5 and kinds.count(True) >= 3
        for gap, played_it in zip(gaps(played), kinds, strict=False):
            assert gap >= (1.0 if played_it else 5.0) - 1e-9
        assert "unattended" not in table.session  # a person played here
        slow, ann2, _ = new_table(loop, store, budget, bots=3, hand_seconds=8)
        dealt = play(loop, slow, ann2, passive, 40.0)
        assert len(dealt) >= 3 and min(gaps(dealt)) >= 8.0 - 1e-9


def test_the_table_setting_hand_seconds_is_checked() -> None:
    assert parse_config({"hand_seconds": "2.5"}).hand_seconds == 2.5
    assert parse_config({}).hand_seconds == 0.0
    with pytest.raises(Exception, match=r"hand_seconds must be from 0 to 600 seconds, not 601"):
        parse_config({"hand_seconds": 601})


# -- storage limits -------------------------------------------------------------------


def test_a_table_at_its_storage_limit_deals_no_more_and_says_why() -> None:
    """Stored bytes are counted as written (equal to the stored rows' lengths);
    at 20 kB the table deals no more, the felt (every client, the host's too)
    says why, and it stays so across a restart."""
    budget = DiskBudget(table_bytes=20_000)
    with virtual_server() as (loop, store):
        table, ann, host = new_table(loop, store, budget)
        play(loop, table, ann, passive, 300.0)
        hands = int(table.session["hand_no"])
        assert table.hand is None and hands >= 2
        stored = stored_by_sql(store, table.id)
        assert table.saving.stored_bytes() == stored >= 20_000
        assert store.load_table(table.id).stored == stored  # type: ignore[union-attr]
        # the last hand passed the limit: before it the table was under it
        assert stored - hand_bytes(store, table.id, hands) < 20_000
        text = table.dealer.waiting_for()
        assert text is not None and text.startswith("No more hands: this table has stored")
        assert "the most this server keeps for one table (0.02 MB)" in text
        state = table.state(None, is_host=True)
        assert state["table"]["waiting_for"] == text
        loop.advance(60.0)
        assert int(table.session["hand_no"]) == hands  # nothing more was dealt
        loop.call(table.handle, host, ClientMessage("host", None, table.seq,
                                                    {"op": "deal_now"}))
        loop.advance(5.0)
        assert int(table.session["hand_no"]) == hands  # nor by the host's deal now
        restored = LiveTable.restore(store, table.id)
        assert restored.saving.stored_bytes() == stored


def test_the_servers_storage_limit_stops_every_table() -> None:
    """Two tables share a server limit: once their stored hands together reach
    it (the manager's count), neither deals; the notice names the server's limit."""
    budget = DiskBudget(server_bytes=30_000)
    with virtual_server() as (loop, store):
        manager = TableManager(store, budget=budget)
        first, ann1, _ = new_table(loop, store, DiskBudget())
        second, ann2, _ = new_table(loop, store, DiskBudget())
        for table in (first, second):
            manager._adopted(table)
        manager.count_stored()  # (their first hands, dealt before)
        assert first.budget is budget is second.budget
        for _ in range(40):
            play(loop, first, ann1, passive, 5.0)
            play(loop, second, ann2, passive, 5.0)
        total = stored_by_sql(store, first.id) + stored_by_sql(store, second.id)
        assert budget.used == total >= 30_000
        manager.count_stored()
        assert budget.used == store.stored_total() == total
        for table in (first, second):
            text = table.dealer.waiting_for()
            assert text is not None and "the server's storage for hands is full" in text
            assert table.hand is None


# -- tables no person plays --------------------------------------------------------------


def test_a_table_no_person_plays_stops_and_deal_now_deals_again() -> None:
    budget = DiskBudget(unattended_hand_seconds=5.0, unattended_seconds=60.0)
    with virtual_server() as (loop, store):
        table, ann, host = new_table(loop, store, budget)
        dealt = play(loop, table, ann, fold, 120.0)
        assert 10 <= len(dealt) <= 13  # 60 s of a hand each 5 s (or so), then it stopped
        assert loop.now - dealt[-1] > 55.0
        text = table.dealer.waiting_for()
        assert text is not None and text.startswith(
            "Dealing stopped: no person has played a hand for 1 minutes")
        hands = int(table.session["hand_no"])
        loop.call(table.handle, host, ClientMessage("host", None, table.seq,
                                                    {"op": "deal_now"}))
        loop.advance(0.5)
        assert int(table.session["hand_no"]) == hands + 1 and table.dealer.waiting_for() is None


def test_tables_no_person_played_are_swept_on_sqlite_and_postgresql(
        tmp_path: Path, pg_cluster: PgCluster) -> None:
    for store in (Store(tmp_path / "s.db"), open_store(pg_cluster.new_database())):
        try:
            _sweep_unattended(store)
        finally:
            store.close()


def _sweep_unattended(store: Store) -> None:
    """Tables as a live table stores them: ``bots`` was dealt hands no person played
    (the session still says ``unattended``), ``ann`` had a hand a person played,
    ``fresh`` was never dealt a hand but a person sits there; all unchanged for two
    hours. The sweep deletes only ``bots``."""
    now = time.time()
    person = SeatRow(0, "Ann", "d0", None, 100, 100, 30.0, 0)
    for tid, unattended, hands in (("bots", True, True), ("ann", False, True),
                                   ("fresh", True, False)):
        session = {"hand_no": 1 if hands else 0, "at": now - 7200}
        if unattended:
            session["unattended"] = 1
        store.create_table(tid, {"game": "sdr"}, session, "h", [person])
        if hands:
            store.write(tid, new_hand=(1, {"button": 0}))
    assert store.unattended_tables_idle_since(now - 3600) == ["bots"]
    manager = TableManager(store, unplayed_seconds=3600)
    assert manager.delete_old(now) == 1
    assert sorted(store.table_ids()) == ["ann", "fresh"]


# -- the stored-bytes counter on both stores ----------------------------------------


def _count_and_migrate(store: Store, reopen: Callable[[], Store]) -> None:
    """The counter adds each write's payload; a database of version 1 (no counter)
    gets its tables' bytes counted when migrated."""
    store.create_table("T", {"game": "sdr"}, {"hand_no": 0}, "h")
    stream = store.stream("T")
    stream.write(new_hand=(1, {"button": 0}))  # {"button":0} = 12 characters
    stream.write(action=(1, 0, 0, {"kind": "check"}, "player", {"n": 1}))  # 16 + 7
    last = stream.write(hand_result=(1, {"won": 5}))  # 9
    assert last is not None
    last.result(30)
    assert stream.bytes == 12 + 16 + 7 + 9 == 44
    row = store.load_table("T")
    assert row is not None and row.stored == 44 and store.stored_total() == 44
    store.write("T", session={"hand_no": 1})  # a session write adds nothing
    assert store.stored_total() == 44
    store.close()
    again = reopen()
    try:
        row = again.load_table("T")
        assert row is not None and row.stored == 44
    finally:
        again.close()


def test_stored_bytes_are_counted_and_migrated_on_sqlite(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    # The migration from version 1: drop the column and count again.
    _count_and_migrate(Store(db), lambda: _as_version_1(db))


def _as_version_1(db: Path) -> Store:
    with sqlite3.connect(db) as conn:
        conn.execute("ALTER TABLE tables DROP COLUMN stored")
        conn.execute("PRAGMA user_version = 1")
    conn.close()
    return Store(db)


def test_stored_bytes_are_counted_and_migrated_on_postgresql(pg_cluster: PgCluster) -> None:
    import psycopg

    url = pg_cluster.new_database()

    def version_1() -> Store:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("ALTER TABLE tables DROP COLUMN stored")
            conn.execute("UPDATE rollem_schema SET version = 1")
        store = open_store(url)
        assert store.schema_version() == SCHEMA_VERSION  # type: ignore[attr-defined]
        return store

    _count_and_migrate(open_store(url), version_1)


# -- the pause between hands (item 6) -------------------------------------------------


def test_only_the_hosts_deal_now_cuts_the_pause_between_hands() -> None:
    """With 20 s between hands: a player coming back who was not sitting out, a
    new player joining, a rebuy, the host's resume and an approval each leave the
    pause as it is (before: the next hand 0.2 s later); the host's deal now ends it."""
    with virtual_server() as (loop, store):
        table, ann, host = new_table(loop, store, DiskBudget(), bots=1, seats=4,
                                     between_hands=20)
        play(loop, table, ann, fold, 1.0)
        assert table.hand is None and int(table.session["hand_no"]) == 1
        ended = loop.now

        def host_op(op: str, **body: Any) -> None:
            loop.call(table.handle, host, ClientMessage("host", None, table.seq,
                                                        {"op": op, **body}))

        # The state says when the next hand is dealt (stop 53: "Hand 1 is over." and
        # nothing more for the whole pause): 20 s after the hand ended, on the
        # table's clock, the same as the pause runs; none while the host pauses.
        def next_deal() -> Any:
            return table.views.table_public()["next_deal_at"]

        due = next_deal()
        assert isinstance(due, float) and 19.0 <= due - loop.now <= 20.0
        loop.advance(5.0)
        assert next_deal() == due and table.hand is None
        host_op("pause")
        assert next_deal() is None
        host_op("resume")
        assert next_deal() == due  # (the resume leaves the pause as it is)

        def still_pausing() -> None:
            loop.advance(0.5)
            assert table.hand is None and int(table.session["hand_no"]) == 1

        loop.call(table.handle, ann, ClientMessage("sit_out", None, table.seq, {"out": False}))
        still_pausing()
        loop.call(table.join, "Bob", 1)
        still_pausing()
        host_op("pause")
        host_op("resume")
        still_pausing()
        host_op("approve_joins", on=True)
        seat, _token = loop.call(table.join, "Cy", 2)
        host_op("approve", seat=seat)
        still_pausing()
        table.seats[0].row.stack = 0  # as if Ann lost her chips in hand 1
        loop.call(table.handle, ann, ClientMessage("rebuy", None, table.seq, {}))
        assert table.seats[0].row.stack == 100_000  # rebought
        still_pausing()
        assert loop.now - ended < 20
        assert next_deal() == due
        host_op("deal_now")
        assert next_deal() == round(loop.now + 0.2, 1)  # (DEAL_SOON)
        loop.advance(0.25)
        assert int(table.session["hand_no"]) == 2
        assert next_deal() is None  # (a hand in play)


def test_deal_now_is_refused_in_a_hand_and_while_paused() -> None:
    with virtual_server() as (loop, store):
        table, ann, host = new_table(loop, store, DiskBudget(), bots=1, between_hands=20,
                                     decision_seconds=600.0)
        loop.advance(0.1)
        assert table.hand is not None
        with pytest.raises(TableError, match="a hand is in play; deal now ends the pause"):
            loop.call(table.messages.dispatch, host, ClientMessage("host", None, table.seq,
                                                                   {"op": "deal_now"}))
        with pytest.raises(TableError, match="only the host"):
            loop.call(table.messages.dispatch, ann, ClientMessage("host", None, table.seq,
                                                                  {"op": "deal_now"}))
        table.shutdown()
        paused, _ann, host2 = new_table(loop, store, DiskBudget(), bots=1, between_hands=20)
        play(loop, paused, _ann, fold, 1.0)
        assert paused.hand is None
        loop.call(paused.messages.dispatch, host2, ClientMessage("host", None, paused.seq,
                                                                 {"op": "pause"}))
        with pytest.raises(TableError, match="the table is paused; resume it to deal"):
            loop.call(paused.messages.dispatch, host2, ClientMessage("host", None, paused.seq,
                                                                     {"op": "deal_now"}))

