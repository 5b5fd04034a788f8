"""The practice-odds worker processes (issue 34, :mod:`rollem.server.budget_workers`):
a call past its budget of CPU time, past its wall-clock limit, or cancelled has
its process killed -- it no longer uses the CPU -- and the next call gets a
new one; results and errors come back as raised; a worker left on its own
still ends a call at its limits.  The calls that never end are
tests/web/odds_jobs.py's."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import odds_jobs
import pytest

from rollem.server.budget_workers import (
    BudgetWorkers,
    Cancelled,
    OverBudget,
    WorkerFailed,
    _Worker,
)

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def workers() -> Iterator[BudgetWorkers]:
    pool = BudgetWorkers()
    try:
        yield pool
    finally:
        pool.shutdown()


def gone(pid: int) -> bool:
    """The process ``pid`` no longer exists (killed and reaped)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def pid_from(path: Path) -> int:
    """The process id a call wrote to ``path`` (waiting for it to start)."""
    end = time.monotonic() + 30
    while not path.exists() or not path.read_text():
        assert time.monotonic() < end, "the call never started"
        time.sleep(0.01)
    return int(path.read_text())


def test_results_and_errors_come_back_and_a_worker_serves_again(workers: BudgetWorkers) -> None:
    assert workers.run(odds_jobs.add, (2, 3), budget=30) == 5
    first = workers.run(odds_jobs.pid, (), budget=30)
    assert first != os.getpid() and workers.run(odds_jobs.pid, (), budget=30) == first
    with pytest.raises(ValueError, match="invalid literal"):
        workers.run(int, ("x",), budget=30)
    assert workers.pids() == [first]  # (an error does not cost the worker)
    with pytest.raises(WorkerFailed, match="could not be sent"):
        workers.run(lambda: 1, (), budget=30)  # not picklable


def test_a_call_over_budget_is_killed(workers: BudgetWorkers, tmp_path: Path) -> None:
    before = workers.run(odds_jobs.pid, (), budget=30)
    with pytest.raises(OverBudget, match=r"over its budget of 0\.5 s of CPU time"):
        workers.run(odds_jobs.spin, (str(tmp_path / "pid"),), budget=0.5, wall=600)
    pid = int((tmp_path / "pid").read_text())
    assert pid == before  # the idle worker took the call ...
    assert gone(pid) and workers.pids() == []  # ... and was killed: no CPU used after
    assert workers.run(odds_jobs.add, (1, 1), budget=30) == 2  # a new one serves
    assert workers.pids() != [pid]


def test_a_cancelled_call_is_killed(workers: BudgetWorkers, tmp_path: Path) -> None:
    stop = threading.Event()
    out: list[BaseException] = []

    def call() -> None:
        try:
            workers.run(odds_jobs.spin, (str(tmp_path / "pid"),), budget=600,
                        cancelled=stop.is_set)
        except BaseException as err:
            out.append(err)

    thread = threading.Thread(target=call)
    thread.start()
    pid = pid_from(tmp_path / "pid")
    assert not gone(pid)
    stop.set()
    thread.join(30)
    assert len(out) == 1 and isinstance(out[0], Cancelled), out
    assert gone(pid) and workers.pids() == []
    with pytest.raises(Cancelled, match="before it started"):
        workers.run(odds_jobs.add, (1, 1), budget=30, cancelled=lambda: True)
    assert workers.pids() == []  # (nothing started for it)


def test_a_worker_that_dies_fails_the_call(workers: BudgetWorkers) -> None:
    with pytest.raises(WorkerFailed, match="ended during the call"):
        workers.run(os._exit, (3,), budget=30)
    assert workers.pids() == []


def test_a_call_that_waits_stops_at_its_wall_clock_limit(workers: BudgetWorkers) -> None:
    """No CPU used (a budget of CPU time never ends it): the wall-clock limit does."""
    with pytest.raises(OverBudget, match=r"past its wall-clock limit of 0\.3 s") as caught:
        workers.run(time.sleep, (3600,), budget=60, wall=0.3)
    assert caught.value.wall and workers.pids() == []


@pytest.mark.parametrize(("call", "budget", "wall", "ended_by"), [
    (odds_jobs.spin, 0.2, 600.0, signal.SIGPROF),  # its CPU time
    (odds_jobs.write_pid_then_sleep, 60.0, 0.2, signal.SIGALRM),  # its wall-clock limit + 1 s
])
def test_a_worker_left_alone_ends_its_call_itself(
        workers: BudgetWorkers, tmp_path: Path, call: Any, budget: float, wall: float,
        ended_by: int) -> None:
    """A worker whose server stopped watching (gone) ends the call by itself, at its
    budget of CPU time or a second past its wall-clock limit: its own timers."""
    worker = _Worker(workers._context(), 0)
    try:
        worker.conn.send((call, (str(tmp_path / "pid"),), budget, wall))
        pid = pid_from(tmp_path / "pid")
        worker.proc.join(60)  # (no one kills it)
        assert worker.proc.exitcode == -ended_by and gone(pid)
    finally:
        worker.kill()
