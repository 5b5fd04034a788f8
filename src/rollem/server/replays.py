"""Replays and history downloads of finished hands, built off the event loop and kept.

A replay (``GET /api/tables/<id>/hands/<n>``) replays the hand's actions and
builds a view per step: tens of milliseconds of CPU for a long 10-player hand,
which on the event loop would hold up every other table; a history download
(``.../history.toml``) replays the hand too, showdown included (a stored game
file accepted before the bound of :mod:`rollem.games.cost` may take a second,
issue 34).  :class:`ReplayCache` builds each on one worker thread shared by the
tables in turn (a :class:`~rollem.server.fair_executor.FairExecutor` keyed by
table, so a burst of one table's downloads takes one core's share and waits
behind none of another's) and keeps the encoded body: a finished hand's replay
or history for one viewer changes only when a player shows their cards by choice
after it (R-C-11), and the callers' keys then change
(:meth:`rollem.server.app_context.AppContext.hand_version`).  Bodies are kept
(replays as JSON and gzip), most recently used first, up to a byte budget.
"""

from __future__ import annotations

import asyncio
import gzip
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Executor, Future
from dataclasses import dataclass

from rollem.server.fair_executor import FairExecutor

__all__ = ["ReplayBody", "ReplayCache", "encode_body"]

_THREAD = FairExecutor(workers=1, thread_name_prefix="rollem-replays")
"""One thread for every app's replays and history downloads, shared fairly by
the tables: at most one core's share of the GIL goes to them."""


@dataclass(frozen=True)
class ReplayBody:
    """One replay's response body: ``json`` (UTF-8) and the same ``gzipped``; a
    history download's: its TOML as ``json`` and ``gzipped`` empty."""

    json: bytes
    gzipped: bytes

    @property
    def size(self) -> int:
        """Bytes held (both forms)."""
        return len(self.json) + len(self.gzipped)


def encode_body(text: bytes) -> ReplayBody:
    """``text`` (JSON bytes) with its gzip form (level 6: JSON of repeated views
    shrinks to a few percent)."""
    return ReplayBody(text, gzip.compress(text, 6, mtime=0))


class ReplayCache:
    """Replay bodies by key (table, hand, viewer, names), built on a worker thread.

    Args:
        max_bytes: keep finished bodies up to this many bytes in all (the least
            recently used go first; one larger than the budget is served but not
            kept).  Must be 0 or more (``ValueError``).
        executor: where bodies are built (default: one shared thread, fair between
            tables); a :class:`FairExecutor` queues each build behind its ``share``.
    """

    def __init__(self, max_bytes: int = 32 * 2**20, executor: Executor | None = None,
                 ) -> None:
        if type(max_bytes) is not int or max_bytes < 0:
            raise ValueError(f"max_bytes {max_bytes!r}: expected a whole number >= 0")
        self.max_bytes = max_bytes
        self._executor = executor or _THREAD
        self._lock = threading.Lock()
        self._entries: OrderedDict[Hashable, Future[ReplayBody]] = OrderedDict()
        self._sizes: dict[Hashable, int] = {}  # the finished bodies' bytes
        self._bytes = 0
        self.builds = 0
        """Bodies built so far (a cached or in-flight one is not built again)."""

    def __len__(self) -> int:
        return len(self._entries)

    def holds(self, key: Hashable) -> bool:
        """Whether the body for ``key`` is kept or being built (:meth:`get` would not
        call its ``make``)."""
        with self._lock:
            return key in self._entries

    async def get(self, key: Hashable, make: Callable[[], Callable[[], ReplayBody]],
                  share: Hashable = None) -> ReplayBody:
        """The body for ``key``: the kept one, the one being built, or a new one
        (built in ``share``'s turn: the table's id).

        ``make`` runs on the event loop only when ``key`` is neither kept nor being
        built (for what must be read there, such as the store) and returns the
        function that builds the body on the worker thread.  A caller cancelled
        while waiting (a client gone) does not stop the build: the next asks get
        it.  A failed build raises its error and is not kept."""
        with self._lock:
            fut = self._entries.get(key)
            if fut is not None:
                self._entries.move_to_end(key)
        if fut is None:
            build = make()
            with self._lock:
                fut = self._entries.get(key)
                new = fut is None
                if fut is None:
                    executor = self._executor
                    fut = (executor.submit_for(share, build) if isinstance(executor, FairExecutor)
                           else executor.submit(build))
                    self.builds += 1
                    self._entries[key] = fut
            if new:  # (outside the lock: a build done already calls back at once, here)
                fut.add_done_callback(lambda f: self._done(key, f))
        return await asyncio.shield(asyncio.wrap_future(fut))

    def _done(self, key: Hashable, fut: Future[ReplayBody]) -> None:
        """(Worker thread.)  Count a finished body's bytes, drop a failed one, and
        drop the least recently used finished bodies past the budget."""
        with self._lock:
            if self._entries.get(key) is not fut:
                return
            if fut.cancelled() or fut.exception() is not None:
                del self._entries[key]
                return
            size = fut.result().size
            if size > self.max_bytes:
                # served, not kept, and drops no other (s61-hostile2: it dropped
                # every kept body first, the cache emptied at each ask of it)
                del self._entries[key]
                return
            self._sizes[key] = size
            self._bytes += size
            for old in list(self._entries):
                if self._bytes <= self.max_bytes:
                    break
                if old in self._sizes:
                    del self._entries[old]
                    self._bytes -= self._sizes.pop(old)
