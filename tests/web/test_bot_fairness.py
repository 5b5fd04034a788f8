"""Computer players of many tables share the bot thread fairly.

A table whose bots ask for many decisions at once (every seat discarding
together in Roll Your Own, R-RYO-2) must not hold another table's one
decision behind all of them: :class:`FairExecutor` keeps one queue per
table and serves the tables in turn, one call of a table at a time.  The
worker is held on a gate (no timing), so the orders below are exact.
"""

from __future__ import annotations

import asyncio
import random
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from virtual_table import InlineStore

from rollem.bots import make_bot
from rollem.server.config import parse_config
from rollem.server.fair_executor import CREDIT, FairExecutor
from rollem.server.live_table import Client, LiveTable
from rollem.server.protocol import ClientMessage


class Gate:
    """Holds the worker in the first call until :meth:`open`; records every call.
    Each call takes one second of :meth:`clock` (a virtual clock)."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.opened = threading.Event()
        self.calls: list[object] = []
        self._first = True
        self.now = 0.0

    def clock(self) -> float:
        return self.now

    def run(self, name: object) -> object:
        self.calls.append(name)
        self.now += 1.0
        if self._first:
            self._first = False
            self.entered.set()
            assert self.opened.wait(30), "the test never opened the gate"
        return name

    def open(self) -> None:
        self.opened.set()

    def hold_next(self) -> None:
        """Hold the worker again, in the next call; forget the calls so far."""
        self.entered.clear()
        self.opened.clear()
        self._first = True
        self.calls.clear()


def test_tables_that_used_less_go_first() -> None:
    """Calls of one second each (virtual): while A's first holds the worker, A
    queues three more, B two, C two.  B and C, which have used nothing, go
    before A's second; then, having used the same, they take turns (round-robin)
    until only A is left."""
    gate = Gate()
    pool = FairExecutor(workers=1, thread_name_prefix="t", clock=gate.clock)
    futures = [pool.submit_for("A", gate.run, "A1")]
    assert gate.entered.wait(30)
    futures += [pool.submit_for("A", gate.run, f"A{n}") for n in (2, 3, 4)]
    futures += [pool.submit_for("B", gate.run, "B1")]
    futures += [pool.submit_for("C", gate.run, f"C{n}") for n in (1, 2)]
    futures += [pool.submit_for("B", gate.run, "B2")]
    assert pool.waiting() == 7
    gate.open()
    assert [f.result(30) for f in futures] == [
        "A1", "A2", "A3", "A4", "B1", "C1", "C2", "B2"]
    assert gate.calls == ["A1", "B1", "C1", "A2", "B2", "C2", "A3", "A4"]
    assert pool.waiting() == 0
    pool.shutdown()


def test_an_idle_table_banks_no_time() -> None:
    """A has used five seconds alone; D, idle all that time, then asks for three
    calls while A asks for more: D goes first once (it is behind), then they take
    turns -- D did not bank the five seconds it did not use (only CREDIT)."""
    gate = Gate()
    gate.open()
    pool = FairExecutor(workers=1, clock=gate.clock)
    assert [pool.submit_for("A", gate.run, f"A{n}").result(30) for n in range(5)] == [
        f"A{n}" for n in range(5)]
    gate.hold_next()  # (in A5, until D and A have asked)
    futures = [pool.submit_for("A", gate.run, "A5")]
    assert gate.entered.wait(30)
    futures += [pool.submit_for("D", gate.run, f"D{n}") for n in (1, 2, 3)]
    futures += [pool.submit_for("A", gate.run, f"A{n}") for n in (6, 7)]
    gate.open()
    for f in futures:
        f.result(30)
    assert gate.calls == ["A5", "D1", "D2", "A6", "D3", "A7"]
    pool.shutdown()


def test_finish_tags_of_idle_tables_are_dropped() -> None:
    """A table that has gone idle (every closed table) leaves no tag behind once
    its tag no longer matters (at or below the last start minus CREDIT), so the
    tags do not grow with every table ever served; a busy table keeps its own."""
    gate = Gate()
    gate.open()
    pool = FairExecutor(workers=1, clock=gate.clock)
    pool.submit_for("old", gate.run, "old").result(30)
    for n in range(998):  # (the sweep runs every 1,000 calls)
        pool.submit_for("busy", gate.run, n)
    assert "old" in pool._finish
    pool.submit_for("busy", gate.run, "last").result(30)
    assert sorted(pool._finish) == ["busy"]
    assert pool._finish["busy"] == pytest.approx(999 - CREDIT)
    pool.shutdown()


def test_errors_cancelling_and_shutdown() -> None:
    pool = FairExecutor(workers=1)
    gate = Gate()
    first = pool.submit_for("A", gate.run, "A1")
    assert gate.entered.wait(30)
    failing = pool.submit_for("A", lambda: 1 // 0)
    cancelled = pool.submit_for("B", gate.run, "B1")
    assert cancelled.cancel()
    after = pool.submit_for("A", gate.run, "A3")
    gate.open()
    assert first.result(30) == "A1" and after.result(30) == "A3"
    with pytest.raises(ZeroDivisionError):
        failing.result(30)
    assert gate.calls == ["A1", "A3"]  # the cancelled call never ran
    pool.shutdown()
    with pytest.raises(RuntimeError, match="after shutdown"):
        pool.submit_for("A", gate.run, "late")
    with pytest.raises(ValueError, match="at least 1"):
        FairExecutor(workers=0)


def test_shutdown_can_cancel_what_waits() -> None:
    pool = FairExecutor(workers=1)
    gate = Gate()
    running = pool.submit_for("A", gate.run, "A1")
    assert gate.entered.wait(30)
    waiting = [pool.submit_for(k, gate.run, k) for k in ("A", "B")]
    threading.Timer(0.05, gate.open).start()
    pool.shutdown(wait=True, cancel_futures=True)
    assert running.result(0) == "A1"
    assert all(f.cancelled() for f in waiting)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("ABCD"), st.booleans()), min_size=1, max_size=25),
       st.integers(1, 3))
def test_one_call_per_key_at_a_time_in_order(jobs: list[tuple[str, bool]],
                                             workers: int) -> None:
    """Whatever the keys and workers: each key's calls run in the order submitted,
    never two of one key at once, and every call runs once."""
    pool = FairExecutor(workers=workers)
    lock = threading.Lock()
    running: dict[str, int] = {}
    seen: list[tuple[str, int]] = []
    overlaps: list[str] = []
    hold = threading.Event()

    def call(key: str, n: int, slow: bool) -> int:
        with lock:
            running[key] = running.get(key, 0) + 1
            if running[key] > 1:
                overlaps.append(key)
            seen.append((key, n))
        if slow:
            hold.wait(0.002)
        with lock:
            running[key] -= 1
        return n

    futures = [pool.submit_for(key, call, key, n, slow) for n, (key, slow) in enumerate(jobs)]
    assert [f.result(30) for f in futures] == list(range(len(jobs)))
    pool.shutdown()
    assert overlaps == []
    assert sorted(seen, key=lambda kn: kn[1]) == [(k, n) for n, (k, _s) in enumerate(jobs)]
    for key in "ABCD":
        mine = [n for k, n in seen if k == key]
        assert mine == sorted(mine)


# -- two live tables on one event loop, with the server's own bot thread ------------


class GatedBot:
    """A ``basic`` computer player that records its table's name when asked to
    decide, and (``gate``) holds the bot thread in its table's first decision."""

    def __init__(self, name: str, gate: Gate, log: list[str], held: bool) -> None:
        self.inner = make_bot("basic", random.Random(0))
        self.name, self.gate, self.log, self.held = name, gate, log, held

    def act(self, view: Any) -> Any:
        self.log.append(self.name)
        if self.held:
            self.gate.run(self.name)
        return self.inner.act(view)


@pytest.fixture
def loop_and_store() -> Iterator[tuple[asyncio.AbstractEventLoop, InlineStore]]:
    folder = Path(tempfile.mkdtemp(prefix="rollem-fair-"))
    loop = asyncio.new_event_loop()
    store = InlineStore(folder / "t.db")
    try:
        yield loop, store
    finally:
        store.close()
        loop.close()
        shutil.rmtree(folder, ignore_errors=True)


def ryo_table(loop: asyncio.AbstractEventLoop, store: InlineStore, bots: int,
              factory: Callable[[str], Any], bot_delay: float = 0.0) -> LiveTable:
    """A Roll Your Own table of ``bots`` computer players (made by ``factory``,
    acting ``bot_delay`` after their decisions open, at least 0.25 s) and one
    person who never acts, dealt its first hand."""
    config = parse_config({
        "game": "rollyourown", "seats": bots + 1, "bots": bots, "bot_level": "strong",
        "stack": 400, "ante": 1, "decision_seconds": 600.0, "time_bank_seconds": 0.0,
        "grace_seconds": 1000.0, "between_hands": 0.0, "bot_delay": bot_delay,
    })

    async def make() -> LiveTable:
        table, _ = LiveTable.create(store, config)
        table.bot_factory = factory  # type: ignore[method-assign]
        host = Client(None, True)
        table.connect(host)
        _, token = table.join("Person", 0)
        person = Client(table.seat_for_token(token))
        table.connect(person)
        table.handle(host, ClientMessage("start", None, table.seq, {}))
        await asyncio.sleep(0.01)  # the commitment: the person's page sends its seed (issue 32)
        table.handle(person, ClientMessage("client_seed", 1, None, {"seed": "p"}))
        # The deal, then every computer player's turn (bot_delay 0), all due now.
        await asyncio.sleep(0.05)
        return table

    return loop.run_until_complete(make())


def test_a_second_table_goes_before_the_first_tables_third(
        loop_and_store: tuple[asyncio.AbstractEventLoop, InlineStore]) -> None:
    """Table A's three bots discard at once (R-RYO-2) and the first holds the
    bot thread; table B's one bot asks meanwhile.  Served in turn, B's decision
    is the second made, before A's other two (first come, first served made it
    the fourth)."""
    loop, store = loop_and_store
    gate, log = Gate(), []
    first = [True]

    def a_bot(level: str) -> GatedBot:
        held, first[0] = first[0], False
        return GatedBot("A", gate, log, held)

    table_a = ryo_table(loop, store, 3, a_bot, bot_delay=60.0)
    assert gate.entered.wait(30), "table A's bots never asked to decide"
    table_b = ryo_table(loop, store, 1, lambda level: GatedBot("B", gate, log, False),
                        bot_delay=60.0)
    gate.open()

    async def until_decided() -> None:
        while len(log) < 4:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)  # (any decision beyond the four would show)

    loop.run_until_complete(asyncio.wait_for(until_decided(), 30))
    assert log == ["A", "B", "A", "A"]
    # Each bot's discard is played at its due time, bot_delay (60 s) after it opened,
    # whatever its think took (stop 56): none yet.  (With a due time passed while the
    # gate held the thread, a think still queued would be dropped for the clock's
    # action, and never asked of the bot.)
    assert sorted(table_a.decision_seq) == [0, 1, 2, 3] and sorted(table_b.decision_seq) == [0, 1]
    loop.run_until_complete(asyncio.sleep(0))
    for table in (table_a, table_b):
        loop.call_soon(table.shutdown)
    loop.run_until_complete(asyncio.sleep(0))
