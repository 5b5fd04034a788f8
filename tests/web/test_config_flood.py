"""A host's changes of the table's settings are bounded (stop 56).

Each ``config`` op that changes something is read and checked two or three
times, saved, told in the chat and sends the whole state to every connection at
the table: about 2 ms of the event loop that serves every table (in-process,
load 13), with nothing but the address's message bucket (640 a second) to
bound it, so one host alternating a setting could hold every table's loop.  Now
a table takes 6 changes at once, then one every 2 s: past it ``too_often``,
nothing changes.
"""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest
from test_table_bots import new_table, virtual_server

from rollem.server import host
from rollem.server.live_table import TableError
from rollem.server.protocol import ClientMessage


def test_a_host_cannot_change_the_settings_without_end(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [1000.0]
    monkeypatch.setattr(host, "time", SimpleNamespace(
        monotonic=lambda: clock[0], time=time.time, perf_counter=time.perf_counter))
    with virtual_server() as (loop, store):
        table, _ = new_table(loop, store, bots=1)
        owner = table.host_client  # type: ignore[attr-defined]
        start = table.seq
        refused: list[str] = []

        def change(i: int) -> None:
            try:
                loop.call(table.messages.dispatch, owner, ClientMessage(
                    "host", None, table.seq, {"op": "config", "config": {"away_after": 1 + i % 2}}))
            except TableError as err:
                refused.append(f"{err.code}: {err.message}")

        for i in range(20):
            change(i)
        assert table.seq - start == 6  # main: 20
        assert len(refused) == 14 and refused[0] == (
            "too_often: you changed the table's settings too often (at most 6 at once, then "
            "one every 2 s); try again in 2 s")
        # (a hand is in play: kept for the next one; the sixth change: 1, 2, 1, 2, 1, 2)
        assert table.session["config_next"] == {"away_after": 2}
        clock[0] += 2.0
        change(0)
        change(1)
        assert table.seq - start == 7 and table.session["config_next"] == {"away_after": 1}
        assert len(refused) == 15
        loop.call(table.shutdown)


def test_the_host_controls_switches_share_the_bound_and_a_no_op_costs_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``approve_joins``, ``hand_over`` and removing a password were each saved and
    broadcast whole at every message, whether or not they changed anything (main:
    20 alternating ``approve_joins`` move the sequence number 20 times, 10 asking
    for what already is so 10 more)."""
    clock = [1000.0]
    monkeypatch.setattr(host, "time", SimpleNamespace(
        monotonic=lambda: clock[0], time=time.time, perf_counter=time.perf_counter))
    with virtual_server() as (loop, store):
        table, _ = new_table(loop, store, bots=1)
        owner = table.host_client  # type: ignore[attr-defined]
        refused: list[str] = []

        def op(**body: object) -> None:
            try:
                loop.call(table.messages.dispatch, owner,
                          ClientMessage("host", None, table.seq, body))
            except TableError as err:
                refused.append(err.code)

        start = table.seq
        for _ in range(10):  # (none of these changes anything)
            op(op="approve_joins", on=False)
            op(op="password", password=None)
        assert table.seq == start and refused == []
        for i in range(20):
            op(op="approve_joins", on=i % 2 == 0)
        # (6 changes taken; then each "on" refused, each "off" already so)
        assert table.seq - start == 6 and refused == ["too_often"] * 7
        clock[0] += 2.0
        op(op="approve_joins", on=True)  # (one more after 2 s)
        op(op="hand_over", seat=1)  # (the same bucket: refused)
        assert table.seq - start == 7 and refused[-1] == "too_often"
        assert table.session["approve_joins"] is True and table.session.get("host_seat") != 1
        clock[0] += 2.0
        op(op="hand_over", seat=1)
        assert table.seq - start == 8 and table.session["host_seat"] == 1
        loop.call(table.shutdown)
