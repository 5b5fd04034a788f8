"""A table on a virtual clock, for fast whole-lifecycle tests (issue 13).

:class:`VirtualLoop` is an asyncio loop whose time jumps straight to the next
timer when nothing is ready, so minutes of clocks and grace periods pass in
milliseconds.  :class:`InlineStore` commits each write at once on the calling
thread and :class:`InlineExecutor` runs computer players inline, so nothing
real happens between two virtual moments.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import selectors
from collections.abc import Callable
from typing import Any

from rollem.server.store import Statement, Store, WriteStream


class _VirtualSelector:
    def __init__(self, inner: selectors.BaseSelector, loop: VirtualLoop) -> None:
        self.inner = inner
        self.loop = loop

    def select(self, timeout: float | None = None) -> list[Any]:
        events = self.inner.select(0)
        if not events and timeout is not None and timeout > 0:
            self.loop.now += timeout
        return events

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class VirtualLoop(asyncio.SelectorEventLoop):
    """An event loop on virtual time (``now``, seconds)."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 1_000_000.0
        self._selector = _VirtualSelector(self._selector, self)  # type: ignore[has-type]

    def time(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """Run the loop for ``seconds`` of virtual time."""
        self.run_until_complete(asyncio.sleep(seconds))

    def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run ``fn(*args)`` as a step of the loop (as the server does)."""
        async def step() -> Any:
            return fn(*args)
        return self.run_until_complete(step())


class InlineStore(Store):
    """A :class:`Store` whose writes commit at once, on the calling thread."""

    def __init__(self, path: Any) -> None:
        super().__init__(path)
        assert self._wdb is not None
        self._wdb.execute("PRAGMA synchronous=OFF")

    def _enqueue(self, statements: list[Statement],
                 stream: WriteStream | None) -> concurrent.futures.Future[None]:
        fut: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._commit_group([(statements, fut, stream)])
        return fut


class InlineExecutor(concurrent.futures.Executor):
    """Runs each submitted call at once (computer players decide inline)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any,
               **kwargs: Any) -> concurrent.futures.Future[Any]:
        fut: concurrent.futures.Future[Any] = concurrent.futures.Future()
        try:
            fut.set_result(fn(*args, **kwargs))
        except BaseException as err:
            fut.set_exception(err)
        return fut

    def submit_for(self, key: object, fn: Callable[..., Any], /, *args: Any,
                   **kwargs: Any) -> concurrent.futures.Future[Any]:
        """:meth:`submit` (as :class:`~rollem.server.fair_executor.FairExecutor`'s,
        whose one queue per ``key`` does not matter inline)."""
        return self.submit(fn, *args, **kwargs)


def seat_people(loop: VirtualLoop, table: Any, count: int) -> list[Any]:
    """``count`` people joined at seats 0, 1, ... as P0, P1, ... and connected, each a
    :class:`rollem.server.live_table.Client` (P0 the host), in seat order."""
    from rollem.server.live_table import Client

    people = []
    for seat in range(count):
        _, token = loop.call(table.join, f"P{seat}", seat)
        client = Client(table.seat_for_token(token), seat == 0)
        loop.call(table.connect, client)
        people.append(client)
    return people
