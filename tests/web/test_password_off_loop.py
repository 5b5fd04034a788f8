"""A table password is hashed off the event loop (s59-safe).  scrypt takes some
50 ms of CPU a hash; hashed on the loop, one address hosting 20 tables and
setting each one's password every 2 s (the host's settings bucket allows it)
held the loop that serves every table: another table's ping 10 s.  The hash is held
on a gate until the host's message has been handled (s74-flaky: the loop's CPU
time for the message was bounded at 0.02 s, main's 0.05 to 0.1 s: a margin a
loaded machine's CPU time can eat)."""

from __future__ import annotations

import threading
import time

import pytest
from test_dealers_choice_seats import errors, send
from test_server_staples import people_table
from test_table_bots import virtual_server

from rollem.server import host_tools, live_table
from rollem.server.host_tools import check_password
from rollem.server.live_table.executors import _PASSWORD_THREAD


def test_setting_a_password_costs_the_loop_little_and_is_told_once_hashed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    gate, started = threading.Event(), threading.Event()
    threads: list[str] = []
    made: list[str] = []
    hash_password = host_tools.hash_password

    def held(password: str, salt: bytes | None = None) -> dict[str, str]:
        threads.append(threading.current_thread().name)
        started.set()
        gate.wait(10)  # (opened by the test; on the loop's thread it runs out, then on)
        made.append(password)
        return hash_password(password, salt)

    monkeypatch.setattr(host_tools, "hash_password", held)
    with virtual_server() as (loop, store):
        live_table._PASSWORD_THREAD = _PASSWORD_THREAD  # (the real thread, not inline)
        table, host, _ = people_table(loop, store)
        seq = table.seq
        try:
            send(loop, table, host, "host", op="password", password="hunter22")
            # handled with the hash still held (main: made on the loop, in the message)
            assert made == [] and errors(host) == []
            assert started.wait(30), "the password was never hashed"
            assert threads == ["rollem-passwords-0"], threads
            assert "password" not in table.session and table.seq == seq  # (not yet made)
            send(loop, table, host, "host", op="password", password="other123")
            assert errors(host) == ["rate_limited"]  # (one at a time, PASSWORD_EVERY)
        finally:
            gate.set()
        deadline = time.monotonic() + 30
        while "password" not in table.session and time.monotonic() < deadline:
            loop.advance(0.01)
        assert check_password(table, "hunter22") and not check_password(table, "other123")
        assert table.seq == seq + 1 and table.state(None)["table"]["has_password"] is True


def test_a_removal_while_the_hash_is_made_wins() -> None:
    with virtual_server() as (loop, store):
        live_table._PASSWORD_THREAD = _PASSWORD_THREAD
        table, host, _ = people_table(loop, store)
        send(loop, table, host, "host", op="password", password="hunter22")
        table.session["password"] = {"salt": "00", "hash": "00"}  # (as if one were set)
        send(loop, table, host, "host", op="password", password=None)
        assert errors(host) == [] and "password" not in table.session
        started = time.monotonic()
        while getattr(table, "_password_hashing", False) and time.monotonic() < started + 30:
            loop.advance(0.01)
        loop.advance(0.1)
        assert "password" not in table.session  # (the hash made later is dropped)
