"""Worker threads shared fairly by many tables: one queue per table, served in turn.

The server's computer players decide off the event loop, in one pool shared
by every table.  First come, first served lets one table that asks for many
decisions at once (seven ``strong`` bots rolling together, at ten tables)
hold every other table's bots behind its queue.  :class:`FairExecutor`
keeps one first-in-first-out queue per key (a table id) and serves the keys
round-robin: a key has at most one call running at a time, and when its call
ends and it has more waiting, it goes to the back of the line, behind every
key already waiting.  So a table's one decision waits for at most one call of
each other table (plus those running), however many the others have queued.

Calls of one key run one at a time and in the order submitted (never two
at once, even with several workers), so objects that belong to one key -- a
table's computer players, with their reads of the opponents -- are used from
one thread at a time.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Hashable
from concurrent.futures import Executor, Future
from typing import Any

__all__ = ["FairExecutor"]

_Job = tuple[Future[Any], Callable[..., Any], tuple[Any, ...], dict[str, Any]]


class FairExecutor(Executor):
    """Runs calls in ``workers`` threads (named ``thread_name_prefix-N``, started
    when first needed), one queue per key, the keys served round-robin (see the
    module).  :meth:`submit` without a key uses the key ``None``: one queue.

    Raises:
        ValueError: if ``workers`` is less than 1.
    """

    def __init__(self, workers: int = 1, thread_name_prefix: str = "fair") -> None:
        if workers < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        self._workers = workers
        self._prefix = thread_name_prefix
        self._cond = threading.Condition()
        self._queues: dict[Hashable, deque[_Job]] = {}  # keys with calls waiting or running
        self._ready: deque[Hashable] = deque()  # keys with a call waiting and none running
        self._running: set[Hashable] = set()
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
                self._ready.append(key)
                self._cond.notify()
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

    def _work(self) -> None:
        while True:
            with self._cond:
                while not self._ready and not self._shutdown:
                    self._cond.wait()
                if not self._ready:
                    return  # shut down, nothing left to run
                key = self._ready.popleft()
                fut, fn, args, kwargs = self._queues[key][0]  # stays queued while it runs
                self._running.add(key)
            if fut.set_running_or_notify_cancel():
                try:
                    result = fn(*args, **kwargs)
                except BaseException as err:  # (the caller's to judge, as in ThreadPoolExecutor)
                    fut.set_exception(err)
                else:
                    fut.set_result(result)
            del fut, fn, args, kwargs  # (no reference to a finished call's objects)
            with self._cond:
                self._running.discard(key)
                queue = self._queues[key]
                queue.popleft()
                if queue:
                    self._ready.append(key)  # behind every key already waiting
                    self._cond.notify()
                else:
                    del self._queues[key]
