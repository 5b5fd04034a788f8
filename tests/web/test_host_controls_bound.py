"""The host's pause, resume, Deal now and stack adjustments are bounded (stop 58).

Each of them was saved and sent the whole state to every connection at the
table at every message, whether or not it changed anything (a pause of a
paused table too), with nothing but the address's message bucket to bound
them: a host's 4 connections alternating pause and resume at two tables of 9
seats took another table's p99 websocket answer from 11 to 133 ms (stop 58,
live, load 11).  Now a repeated pause or resume changes nothing and costs
nothing, and the changes take a bucket of their own: 10 at once, then one
every 2 s (``too_often``).

The ledger's list of adjustments kept up to 1,000 entries, each with the
player's name, stored with the session (written at every action) and sent in
every state: with a long emoji name every state of the table was 311 KB and
every action dumped a 731 KB session on the event loop (13 ms).  Now the
newest 64 are kept and the older ones counted.
"""

from __future__ import annotations

import json
import time
from types import SimpleNamespace

import pytest
from test_dealers_choice_seats import errors, send
from test_host_tools import WAIT, end_hand, line
from test_server_staples import people_table, restarted
from test_table_bots import virtual_server

from rollem.server import host

WORDS = ("too_often: you paused, resumed, dealt or adjusted stacks too often (at most 10 "
         "at once, then one every 2 s); try again in 2 s")


def _clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    clock = [1000.0]
    monkeypatch.setattr(host, "time", SimpleNamespace(
        monotonic=lambda: clock[0], time=time.time, perf_counter=time.perf_counter))
    return clock


def test_a_repeated_pause_or_resume_sends_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    _clock(monkeypatch)
    with virtual_server() as (loop, store):
        table, owner, _ = people_table(loop, store, **WAIT)
        start = table.seq
        for _ in range(20):
            send(loop, table, owner, "host", op="pause")
        assert table.seq - start == 1 and table.session["host_paused"]  # main: 20
        for _ in range(20):
            send(loop, table, owner, "host", op="resume")
        assert table.seq - start == 2 and not table.session["host_paused"]  # main: 40
        assert errors(owner) == []


def test_pause_resume_deal_now_and_stacks_share_a_bucket(
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock = _clock(monkeypatch)
    with virtual_server() as (loop, store):
        table, owner, people = people_table(loop, store, **WAIT)
        start = table.seq
        refused: list[str] = []
        for i in range(30):
            send(loop, table, owner, "host", op="resume" if i % 2 else "pause")
            refused += [f"{e['code']}: {e['message']}" for e in
                        (json.loads(t) for t, _ in owner._pending) if e["type"] == "error"]
            owner._pending.clear()
        # 10 changes taken; then each pause refused (a resume of a table not
        # paused changes nothing)
        assert table.seq - start == 10  # main: 30
        assert refused == [WORDS] * 10 and not table.session["host_paused"]
        clock[0] += 2.0
        send(loop, table, owner, "host", op="pause")
        assert table.session["host_paused"] and table.seq - start == 11
        send(loop, table, owner, "host", op="resume")
        assert errors(owner) == ["too_often"] and table.session["host_paused"]
        clock[0] += 2.0
        send(loop, table, owner, "host", op="resume")
        assert errors(owner) == [] and not table.session["host_paused"]
        # Deal now and a stack adjustment spend the same bucket
        end_hand(loop, table, people)
        send(loop, table, owner, "host", op="deal_now")
        assert errors(owner) == ["too_often"] and table.hand is None
        send(loop, table, owner, "host", op="adjust_stack", seat=1, stack=500)
        assert errors(owner) == ["too_often"] and table.session.get("adjustments") is None
        # (a refusal for its own reason spends nothing and says why)
        clock[0] += 2.0
        send(loop, table, owner, "host", op="adjust_stack", seat=1, stack=-1)
        assert errors(owner) == ["bad_stack"]
        send(loop, table, owner, "host", op="adjust_stack", seat=1, stack=500)
        assert errors(owner) == [] and line(table, 1)["stack"] == 500
        clock[0] += 2.0
        send(loop, table, owner, "host", op="deal_now")
        assert errors(owner) == []
        loop.advance(5.0)
        assert table.hand is not None


def test_the_ledgers_list_of_adjustments_keeps_the_newest_64(
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock = _clock(monkeypatch)
    with virtual_server() as (loop, store):
        table, owner, people = people_table(loop, store, **WAIT)
        end_hand(loop, table, people)
        brought = line(table, 1)["brought"]
        for i in range(100):
            clock[0] += 2.0
            send(loop, table, owner, "host", op="adjust_stack", seat=1, stack=500 + i)
        assert errors(owner) == []
        log = table.table_public()["adjustments"]
        assert len(log) == 64  # main: 100
        assert [x["stack"] for x in log] == list(range(536, 600))
        assert table.table_public()["adjustments_earlier"] == 36
        assert len(table.session["adjustments"]) == 64
        # the chips all count: brought moved by every adjustment, the net stays
        assert line(table, 1)["brought"] == brought + 599 - 399
        assert sum(x["net"] for x in table.table_public()["ledger"]) == 0
        table = restarted(loop, store, table, [owner, *people.values()])
        assert len(table.table_public()["adjustments"]) == 64
        assert table.table_public()["adjustments_earlier"] == 36


def test_a_long_log_stored_before_is_cut_at_the_first_state() -> None:
    """A table stored with 1,000 adjustments (main kept that many) keeps the newest
    64 once loaded again, and its next commit stores those only."""
    with virtual_server() as (loop, store):
        table, owner, people = people_table(loop, store, **WAIT)
        table.session["adjustments"] = [
            {"seat": 1, "name": "P1", "at": 1.0 * i, "after_hand": 0, "by": 1, "stack": i}
            for i in range(1000)]
        loop.call(lambda: table.saving.commit(session=True))  # (stored as main stored it)
        loop.advance(0.1)
        table = restarted(loop, store, table, [owner, *people.values()])
        public = table.table_public()
        assert [x["stack"] for x in public["adjustments"]] == list(range(936, 1000))
        assert public["adjustments_earlier"] == 936
        assert len(table.session["adjustments"]) == 64  # (what the next commit stores)
