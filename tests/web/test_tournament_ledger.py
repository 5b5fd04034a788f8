"""A tournament's ledger, downloads and settle-up in the buy-in's units (issue 28),
on a virtual clock, on SQLite and PostgreSQL: 4 entrants at a buy-in of 10, one
rebuy (a pool of 50: 65% and 35%, 32.5 and 17.5 rounded down, the odd unit to
first: 33 and 17); nothing is settled before the end; ``ledger.csv`` round-trips
the page's ledger; ``hands.csv`` keeps each hand's chips, with its level, and says
they are tournament chips."""

from __future__ import annotations

import concurrent.futures
import csv
import io
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from pg_cluster import PgCluster
from test_table_bots import virtual_server
from test_tournament_server import _step, _table
from virtual_table import VirtualLoop

from rollem.server.routes_session import hands_csv_text, ledger_csv_text
from rollem.server.store import Statement, Store, WriteStream
from rollem.settle import NOT_OVER, PRIZE_POOL


def _inline_pg(url: str) -> Store:
    """A PostgreSQL store whose writes commit at once, on the calling thread (as
    :class:`virtual_table.InlineStore` does for SQLite)."""
    from rollem.server.store_pg import PgStore

    class InlinePgStore(PgStore):
        def _enqueue(self, statements: list[Statement],
                     stream: WriteStream | None) -> concurrent.futures.Future[None]:
            fut: concurrent.futures.Future[None] = concurrent.futures.Future()
            self._commit_group([(statements, fut, stream)])
            return fut

    return InlinePgStore(url)


@pytest.fixture(params=["sqlite", "postgresql"])
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@contextmanager
def _server(kind: str, request: pytest.FixtureRequest) -> Iterator[tuple[VirtualLoop, Store]]:
    with virtual_server() as (loop, sqlite):
        if kind == "sqlite":
            yield loop, sqlite
            return
        cluster: PgCluster = request.getfixturevalue("pg_cluster")
        store = _inline_pg(cluster.new_database())
        try:
            yield loop, store
        finally:
            store.close()


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_a_tournaments_ledger_and_settle_up_are_in_buy_in_units(
        kind: str, request: pytest.FixtureRequest) -> None:
    with _server(kind, request) as (loop, store):
        table, people = _table(loop, store, rebuy_levels=1)
        t = table.session["tournament"]
        # before the end: nothing to settle, and why; no place, prize or net yet
        public = table.table_public()
        assert public["settle"] == {"unit": "buy-in units", "over": False, "pool": 40,
                                    "payouts": [], "transfers": [], "reason": NOT_OVER,
                                    "house": None}
        rows = _rows(ledger_csv_text(public))
        assert [(r["name"], r["paid"], r["place"], r["prize"], r["net"], r["unit"])
                for r in rows] == [(n, "10", "", "", "", "buy-in units")
                                   for n in ("P0", "P1", "Bot 1 (basic)", "Bot 2 (basic)")]
        while not t["busts"]:
            _step(loop, table, people)
        assert t["busts"][0][1] == 1  # (these seeds: P1 busts first, and buys in again)
        loop.call(table.dealer.rebuy, 1)
        while not t["over"]:
            assert int(table.session["hand_no"]) < 400, "the tournament did not end"
            _step(loop, table, people)
        public = table.table_public()
        places = {int(s): p for s, p in public["tournament"]["places"].items()}
        assert places == {0: 4, 1: 2, 2: 3, 3: 1}  # (these seeds)
        # by hand: paid 10 each, P1 20 (a rebuy); pool 50; 1st (Bot 2) 33, 2nd (P1)
        # 17; nets -10, 17 - 20 = -3, -10, 33 - 10 = +23 (adding up to 0)
        ledger = [(line["name"], line["paid"], line["rebuys"], line["place"], line["payout"],
                   line["net"]) for line in public["tournament"]["ledger"]]
        assert ledger == [("P0", 10, 0, 4, 0, -10), ("P1", 20, 1, 2, 17, -3),
                          ("Bot 1 (basic)", 10, 0, 3, 0, -10),
                          ("Bot 2 (basic)", 10, 0, 1, 33, 23)]
        # settle-up: the pool pays the prizes; or, the buy-ins not collected, the
        # losers pay the winners their nets.  The computer players are the house's
        # stake, and P0 hosts (stop 58): Bot 2's prize is paid to P0, and the bots'
        # nets (-10 + 23) are added to P0's (-10 + 13 = +3), so P1 pays P0 3.
        settle = public["settle"]
        assert settle["pool"] == 50 and settle["reason"] is None and settle["over"]
        assert settle["payouts"] == [{"from": PRIZE_POOL, "to": "P1", "units": 17},
                                     {"from": PRIZE_POOL, "to": "P0", "units": 33,
                                      "for": "Bot 2 (basic)"}]
        assert settle["transfers"] == [{"from": "P1", "to": "P0", "units": 3}]
        # (own: P0's own net before the computer players', -10, the ledger's line)
        assert settle["house"] == {"by": "P0", "host": True, "units": 13, "players": 2,
                                   "own": -10}
        nets = {name: net for name, *_, net in ledger}
        nets["P0"] += nets.pop("Bot 1 (basic)") + nets.pop("Bot 2 (basic)")
        for x in settle["transfers"]:
            nets[x["from"]] += x["units"]
            nets[x["to"]] -= x["units"]
        assert set(nets.values()) == {0}
        assert [line["bot"] for line in public["tournament"]["ledger"]] == [
            None, None, "basic", "basic"]
        # ledger.csv round-trips the page's ledger, in buy-in units
        rows = _rows(ledger_csv_text(public))
        assert [(r["name"], int(r["paid"]), int(r["rebuys"]), int(r["place"]), int(r["prize"]),
                 int(r["net"])) for r in rows] == ledger
        assert {r["unit"] for r in rows} == {"buy-in units"}
        assert [int(r["seat"]) for r in rows] == [0, 1, 2, 3]
        assert [r["computer"] for r in rows] == ["no", "no", "yes", "yes"]
        # hands.csv: each hand's chips, at its level, said to be tournament chips
        rows = _rows(hands_csv_text(table))
        assert list(rows[0]) == ["hand", "level", "game", "seat", "name", "net", "unit"]
        assert {r["unit"] for r in rows} == {"tournament chips"}
        hands = int(table.session["hand_no"])
        assert sorted({int(r["hand"]) for r in rows}) == list(range(1, hands + 1))
        for hand_no in (1, hands):
            row = store.load_hand(table.id, hand_no)
            assert row is not None and row.result is not None
            mine = [r for r in rows if int(r["hand"]) == hand_no]
            assert {int(r["seat"]): int(r["net"]) for r in mine} == {
                int(s): v for s, v in row.result["net"].items()}
            assert {int(r["level"]) for r in mine} == {row.setup["tournament"]["level"]}
        # over every hand: the winner won every chip but its own 60 (4 x 60 and a
        # rebuy of 60 in play); P1 lost its 60 twice
        assert sum(int(r["net"]) for r in rows if r["name"] == "Bot 2 (basic)") == 240
        assert sum(int(r["net"]) for r in rows if r["name"] == "P1") == -120
        # prizes that do not add up to the pool (a fault) settle nothing, and say so,
        # rather than stop the table's states
        broken = table.views.settle_tournament({"ledger": [
            {"name": "P0", "paid": 10, "payout": 9}], "over": True})
        assert broken["payouts"] == [] and broken["transfers"] == []
        assert broken["reason"] == ("the prizes cannot be settled: the prizes add up to 9, "
                                    "not the pool of 10")
        loop.call(table.shutdown)


def test_before_the_deal_a_tournaments_ledger_is_the_field_in_buy_in_units() -> None:
    """Found in the s47 try-out: before the host dealt, the page's ledger, its CSV
    and its settle-up were the cash game's ("Brought 100, Stack 100, Net 0": the
    schedule's chips read as money) though the buy-in was 10; the field so far is
    listed in the buy-in's units, each having paid one buy-in, as after the start."""
    from test_tournament_server import SCHEDULE

    from rollem.server.config import parse_config
    from rollem.server.live_table import LiveTable

    with virtual_server() as (loop, store):
        config = parse_config({
            "game": "sdr", "seats": 4, "bots": 1, "bot_level": "basic",
            "decision_seconds": 600.0, "tournament": "custom",
            "tournament_schedule": SCHEDULE, "buy_in": 10})
        table, _ = loop.call(LiveTable.create, store, config)
        for seat, name in ((0, "Ann"), (2, "Zoë")):
            loop.call(table.join, name, seat)
        public = table.table_public()
        assert not public["tournament"]["started"]
        ledger = {line["name"]: (line["paid"], line["rebuys"], line["place"], line["payout"],
                                 line["net"]) for line in public["tournament"]["ledger"]}
        assert ledger == {name: (10, 0, None, None, None)
                          for name in ("Ann", "Zoë", "Bot 1 (basic)")}
        assert public["tournament"]["prize_pool"] == 30
        assert public["settle"] == {"unit": "buy-in units", "over": False, "pool": 30,
                                    "payouts": [], "transfers": [], "reason": NOT_OVER,
                                    "house": None}
        rows = _rows(ledger_csv_text(public))
        assert sorted((r["name"], r["paid"], r["place"], r["prize"], r["net"], r["unit"])
                      for r in rows) == [(n, "10", "", "", "", "buy-in units")
                                         for n in ("Ann", "Bot 1 (basic)", "Zoë")]
