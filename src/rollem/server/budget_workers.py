"""Calls run in worker processes, each under a budget of CPU time (issue 34).

Practice odds on a costly game file (26 cards a player, wild cards) took one
to three minutes of CPU a request; in a thread nothing could stop them, they
went on after the asker had left, and their Python held the GIL the event
loop needs.  :class:`BudgetWorkers` runs each call in a worker process of its
own (one call at a time per process) and the calling thread waits for it,
without the GIL:

- a call may use ``budget`` seconds of CPU: the worker's own timer of CPU
  time (``ITIMER_PROF``, whose signal ends the process) kills it there, and
  the call raises :class:`OverBudget` -- so a call stops using the CPU by its
  budget whatever it computes, with no cooperation from the computation, and
  even if the server itself is gone;
- CPU time, not wall-clock time: on a machine busy with other work a cheap
  call is slow but not "too costly"; a call that waits without using the CPU
  is stopped at ``wall`` seconds (default :data:`WALL_FACTOR` times the
  budget) by the caller, and by the worker's own alarm (``SIGALRM``) a second
  later if the caller is gone;
- a call whose ``cancelled()`` turns true (its asker left, the hand moved on:
  checked every :attr:`BudgetWorkers.poll` seconds) has its process killed
  and raises :class:`Cancelled`;
- a worker runs at a lower CPU priority (``nice`` :data:`NICE`): on a busy
  machine the event loop that serves every table goes first.

A killed worker is replaced by a new one at the next call.  Workers start from
a fork server that has imported :attr:`preload` (the odds), so a new worker is
ready in milliseconds; where the platform has no fork server, by ``spawn``
(slower).  The fair share between tables stays with the caller: the server
calls :meth:`BudgetWorkers.run` from the threads of a
:class:`~rollem.server.fair_executor.FairExecutor`, one call per thread, so
there are at most as many workers busy as it has threads.

``fn``, its arguments and its result travel by pickle: ``fn`` must be a
module-level function (its module importable in the worker).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import signal
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import Any

__all__ = ["NICE", "WALL_FACTOR", "BudgetWorkers", "Cancelled", "OverBudget", "WorkerFailed"]

NICE = 10
"""How much lower a worker's CPU priority is than the server's (``os.nice``)."""
WALL_FACTOR = 10.0
"""A call's wall-clock limit by default: this many times its CPU budget."""


class OverBudget(Exception):
    """The call used more than its budget of CPU time (or ran past its wall-clock
    limit); its worker was killed."""

    def __init__(self, budget: float, wall: bool = False) -> None:
        super().__init__(f"past its wall-clock limit of {budget:g} s" if wall
                         else f"over its budget of {budget:g} s of CPU time")
        self.budget = budget
        self.wall = wall


class Cancelled(Exception):
    """The call was cancelled by its caller; its worker was killed (if it had started)."""


class WorkerFailed(RuntimeError):
    """The worker process died during the call, or its answer could not be read."""


class _Worker:
    """One worker process and the parent's end of its pipe."""

    def __init__(self, ctx: Any, nice: int) -> None:
        parent, child = ctx.Pipe()
        self.proc = ctx.Process(target=_serve, args=(child, nice), daemon=True,
                                name="rollem-budget-worker")
        self.proc.start()
        child.close()
        self.conn: Connection = parent

    def kill(self) -> None:
        """Kill the process (if still alive) and wait until it is gone."""
        with contextlib.suppress(OSError, ValueError):
            self.proc.kill()
        self.proc.join(5)
        self.conn.close()


class BudgetWorkers:
    """Worker processes for calls under a budget (see the module).

    ``preload``: modules the fork server imports once, so that workers start
    with them; ``nice``: the workers' lower priority; ``poll``: seconds between
    checks of ``cancelled`` while a call runs.  Workers start when first
    needed; an idle one is kept for the next call.
    """

    def __init__(self, preload: Sequence[str] = (), nice: int = NICE,
                 poll: float = 0.05) -> None:
        self.preload = list(preload)
        self.nice = nice
        self.poll = poll
        self._lock = threading.Lock()
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self._ctx: Any = None
        self._warming = False
        self._warm_done = threading.Event()

    def _context(self) -> Any:
        if self._ctx is None:
            if "forkserver" in multiprocessing.get_all_start_methods():
                server = multiprocessing.get_context("forkserver")
                server.set_forkserver_preload(self.preload)
                self._ctx = server
            else:  # pragma: no cover - (Windows)
                self._ctx = multiprocessing.get_context("spawn")
        return self._ctx

    def warm(self) -> threading.Event:
        """Start one worker in the background, once (the fork server then loads
        :attr:`preload`: a second or more), so that the first call does not wait
        for it.  Returns at once: an event set when that worker has started (or
        failed to: the first call then starts one as usual)."""
        with self._lock:
            if self._warming:
                return self._warm_done
            self._warming = True
        threading.Thread(target=self._warm, daemon=True, name="rollem-budget-warm").start()
        return self._warm_done

    def _warm(self) -> None:
        try:
            worker = _Worker(self._context(), self.nice)
            with self._lock:
                self._idle.append(worker)
        finally:
            self._warm_done.set()

    def pids(self) -> list[int]:
        """The process ids of the workers alive now, idle or busy."""
        with self._lock:
            workers = [*self._idle, *self._busy]
        return [w.proc.pid for w in workers if w.proc.pid is not None and w.proc.is_alive()]

    def run(self, fn: Callable[..., Any], args: tuple[Any, ...], *, budget: float,
            wall: float | None = None, cancelled: Callable[[], bool] = lambda: False) -> Any:
        """``fn(*args)`` in a worker process; its result, or the exception it raised.

        Blocks the calling thread (not the GIL) until the result: at most
        ``budget`` seconds of the worker's CPU time and ``wall`` seconds
        (default :data:`WALL_FACTOR` times ``budget``) from the moment the
        worker has the call.

        Raises:
            OverBudget: the call used its budget of CPU time, or ran past ``wall``:
                the worker was killed.
            Cancelled: ``cancelled()`` turned true first: the worker was killed.
            WorkerFailed: the worker died, or ``fn``, its arguments or its
                result could not be pickled.
        """
        wall = WALL_FACTOR * budget if wall is None else wall
        if cancelled():
            raise Cancelled("cancelled before it started")
        worker = self._take()
        try:
            worker.conn.send((fn, args, budget, wall))
        except (OSError, pickle.PicklingError, AttributeError, TypeError) as err:
            self._drop(worker)
            raise WorkerFailed(f"the call could not be sent to a worker ({err})") from None
        deadline = time.monotonic() + wall
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self._drop(worker)
                raise OverBudget(wall, wall=True)
            if worker.conn.poll(min(left, self.poll)):
                break
            if cancelled():
                self._drop(worker)
                raise Cancelled("cancelled while running")
        try:
            ok, value = worker.conn.recv()
        except (EOFError, OSError, pickle.UnpicklingError) as err:
            self._drop(worker)
            code = worker.proc.exitcode
            if code == -signal.SIGPROF:
                raise OverBudget(budget) from None
            if code == -signal.SIGALRM:
                raise OverBudget(wall, wall=True) from None
            raise WorkerFailed(f"the worker process ended during the call (exit code {code}; "
                               f"{type(err).__name__})") from None
        self._give_back(worker)
        if ok:
            return value
        raise value

    def shutdown(self) -> None:
        """Kill every worker (a running call then fails with :class:`WorkerFailed`)."""
        with self._lock:
            workers = [*self._idle, *self._busy]
            self._idle.clear()
        for worker in workers:
            worker.kill()

    def _take(self) -> _Worker:
        with self._lock:
            while self._idle:
                worker = self._idle.pop()
                if worker.proc.is_alive():
                    self._busy.add(worker)
                    return worker
                worker.kill()
        worker = _Worker(self._context(), self.nice)
        with self._lock:
            self._busy.add(worker)
        return worker

    def _give_back(self, worker: _Worker) -> None:
        with self._lock:
            self._busy.discard(worker)
            self._idle.append(worker)

    def _drop(self, worker: _Worker) -> None:
        with self._lock:
            self._busy.discard(worker)
        worker.kill()


def _serve(conn: Connection, nice: int) -> None:
    """A worker's life: lower its priority, then answer calls until the pipe closes.
    Each call runs under two timers whose signals end the process: its budget of
    CPU time (``SIGPROF``) and its wall-clock limit plus a second (``SIGALRM``)."""
    with contextlib.suppress(OSError):
        os.nice(nice)
    for sig in (signal.SIGPROF, signal.SIGALRM):
        signal.signal(sig, signal.SIG_DFL)
    while True:
        try:
            fn, args, budget, wall = conn.recv()
        except (EOFError, OSError):
            return  # the server is gone
        signal.setitimer(signal.ITIMER_REAL, wall + 1)
        signal.setitimer(signal.ITIMER_PROF, budget)
        try:
            answer: tuple[bool, Any] = (True, fn(*args))
        except Exception as err:  # (the caller's to judge, sent back as raised)
            answer = (False, err)
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.setitimer(signal.ITIMER_REAL, 0)
        try:
            conn.send(answer)
        except (OSError, EOFError):
            return
        except Exception as err:  # the result or the error would not pickle
            text = "".join(traceback.format_exception_only(type(err), err)).strip()
            conn.send((False, WorkerFailed(f"the answer could not be sent back: {text}")))
