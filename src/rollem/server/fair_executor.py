"""Worker threads shared fairly by many tables: one queue per table, fair queuing.

The server's computer players decide off the event loop, in one pool shared
by every table.  First come, first served let a table that asks for many
decisions at once (seven ``strong`` bots rolling together, at ten tables)
hold every other table's bots behind its queue.  :class:`FairExecutor`
keeps one first-in-first-out queue per key (a table id), runs at most one
call of a key at a time, and picks the next call by start-time fair
queuing: each key's next call is tagged with the worker time the key has
used so far (its *finish tag*: the tag of its last call plus how long that
call took), but never less than the tag of the call started last minus
:data:`CREDIT` (a key that was idle does not bank time); the smallest tag
runs next, ties in the order they became ready.

So tables that keep the workers busy share them in turn (round-robin when
their calls cost the same), and a table that asks for a decision now and
then -- under its share -- goes before them all: it waits for the calls
already running, not for the others' queues.

Calls of one key run one at a time and in the order submitted (never two
at once, even with several workers), so objects that belong to one key -- a
table's computer players, with their reads of the opponents -- are used from
one thread at a time.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable
from concurrent.futures import Executor, Future
from typing import Any

__all__ = ["CREDIT", "FairExecutor"]

CREDIT = 0.01
"""Seconds of worker time a key that was idle may be tagged before the call
started last: it goes before the busy keys, but cannot bank more."""

_Job = tuple[Future[Any], Callable[..., Any], tuple[Any, ...], dict[str, Any]]


class FairExecutor(Executor):
    """Runs calls in ``workers`` threads (named ``thread_name_prefix-N``, started
    when first needed), one queue per key, fair between keys (see the module);
    ``clock``: seconds, to measure how long each call held a worker.
    :meth:`submit` without a key uses the key ``None``: one queue.

    Raises:
        ValueError: if ``workers`` is less than 1.
    """

    def __init__(self, workers: int = 1, thread_name_prefix: str = "fair",
                 clock: Callable[[], float] = time.perf_counter) -> None:
        if workers < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        self._workers = workers
        self._prefix = thread_name_prefix
        self._clock = clock
        self._cond = threading.Condition()
        self._queues: dict[Hashable, deque[_Job]] = {}  # keys with calls waiting or running
        self._ready: list[tuple[float, int, Hashable]] = []  # heap: (tag, order, key)
        self._order = itertools.count()
        self._running: set[Hashable] = set()
        self._finish: dict[Hashable, float] = {}  # key -> finish tag of its last call
        self._now = 0.0  # the tag of the call started last (never goes back)
        self._finished = 0
        self._threads: list[threading.Thread] = []
        self._shutdown = False

    def submit_for(self, key: Hashable, fn: Callable[..., Any], /, *args: Any,
                   **kwargs: Any) -> Future[Any]:
        """Queue ``fn(*args, **kwargs)`` behind ``key``'s earlier calls; its future.

        Raises:
            RuntimeError: after :meth:`shutdown`.
        """
        fut: Future[Any] = Future()
        with self._cond:
            if self._shutdown:
                raise RuntimeError("cannot submit after shutdown")
            queue = self._queues.get(key)
            if queue is None:
                queue = self._queues[key] = deque()
            queue.append((fut, fn, args, kwargs))
            if len(queue) == 1 and key not in self._running:
                self._make_ready(key)
            if len(self._threads) < min(self._workers, len(self._ready) + len(self._running)):
                thread = threading.Thread(target=self._work, daemon=True,
                                          name=f"{self._prefix}-{len(self._threads)}")
                self._threads.append(thread)
                thread.start()
        return fut

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        """:meth:`submit_for` the key ``None``."""
        return self.submit_for(None, fn, *args, **kwargs)

    def waiting(self) -> int:
        """How many calls wait (not yet running), all keys together."""
        with self._cond:
            return sum(len(q) for q in self._queues.values()) - len(self._running)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Accept no more calls; the queued ones still run unless ``cancel_futures``;
        with ``wait``, return when the workers have finished."""
        with self._cond:
            self._shutdown = True
            if cancel_futures:
                for key, queue in list(self._queues.items()):
                    keep = 1 if key in self._running else 0  # (the running call, at the left)
                    while len(queue) > keep:
                        queue.pop()[0].cancel()
                    if not queue:
                        del self._queues[key]
                self._ready.clear()
            self._cond.notify_all()
            threads = list(self._threads)
        if wait:
            for thread in threads:
                thread.join()

    def _make_ready(self, key: Hashable) -> None:
        """``key`` has a call waiting and none running: tag it and let a worker know
        (with the lock held)."""
        tag = max(self._finish.get(key, -float("inf")), self._now - CREDIT)
        heapq.heappush(self._ready, (tag, next(self._order), key))
        self._cond.notify()

    def _work(self) -> None:
        while True:
            with self._cond:
                while not self._ready and not self._shutdown:
                    self._cond.wait()
                if not self._ready:
                    return  # shut down, nothing left to run
                tag, _order, key = heapq.heappop(self._ready)
                self._now = max(self._now, tag)
                fut, fn, args, kwargs = self._queues[key][0]  # stays queued while it runs
                self._running.add(key)
            started = self._clock()
            if fut.set_running_or_notify_cancel():
                try:
                    result = fn(*args, **kwargs)
                except BaseException as err:  # (the caller's to judge, as in ThreadPoolExecutor)
                    fut.set_exception(err)
                else:
                    fut.set_result(result)
            took = max(0.0, self._clock() - started)
            del fut, fn, args, kwargs  # (no reference to a finished call's objects)
            with self._cond:
                self._running.discard(key)
                self._finish[key] = tag + took
                queue = self._queues[key]
                queue.popleft()
                if queue:
                    self._make_ready(key)
                else:
                    del self._queues[key]
                self._finished += 1
                if self._finished % 1000 == 0:
                    self._forget_idle()

    def _forget_idle(self) -> None:
        """Drop the finish tags that no longer matter: those of idle keys at or
        below ``now - CREDIT``, which a new call would be tagged with anyway."""
        floor = self._now - CREDIT
        for key in [k for k, f in self._finish.items() if f <= floor and k not in self._queues]:
            del self._finish[key]
