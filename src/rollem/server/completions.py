"""Commits handed from the store's writer thread to the event loop in batches.

``asyncio.wrap_future`` wakes the event loop once per finished write: a
write to the loop's self-pipe, where the writer thread gives up the GIL and
then waits to get it back from the (busy) event loop before it can settle
the next write of its group.  A group of 50 commits then took up to 50 such
waits before its last table heard of it.  :func:`loop_future` settles the
same asyncio futures, in the same order, with one wake-up of the loop for
all the writes finished since the loop last looked.
"""

from __future__ import annotations

import asyncio
import functools
import threading
import weakref
from concurrent.futures import Future

__all__ = ["loop_future"]


class _Completions:
    """The finished writes waiting for one event loop (``loop``)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._lock = threading.Lock()
        self._ready: list[tuple[asyncio.Future[None], Future[None]]] = []
        self._armed = False  # a call to _settle is queued on the loop

    def track(self, cfut: Future[None]) -> asyncio.Future[None]:
        afut: asyncio.Future[None] = self.loop.create_future()
        cfut.add_done_callback(functools.partial(self._done, afut))
        return afut

    def _done(self, afut: asyncio.Future[None], cfut: Future[None]) -> None:
        """(Any thread.)  ``cfut`` is done: settle ``afut`` on the loop, batched."""
        with self._lock:
            self._ready.append((afut, cfut))
            if self._armed:
                return
            self._armed = True
        if not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._settle)

    def _settle(self) -> None:
        with self._lock:
            ready, self._ready = self._ready, []
            self._armed = False
        for afut, cfut in ready:
            if afut.cancelled():
                continue
            if cfut.cancelled():
                afut.cancel()
                continue
            error = cfut.exception()
            if error is not None:
                afut.set_exception(error)
            else:
                afut.set_result(None)


_BY_LOOP: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Completions] = (
    weakref.WeakKeyDictionary()
)


def loop_future(cfut: Future[None]) -> asyncio.Future[None]:
    """An asyncio future of the running loop that is done as ``cfut`` (a store
    write's future, done in the writer thread) is: the same result or error,
    settled in the order the writes finished.  Like ``asyncio.wrap_future``,
    but the writes that finish together wake the loop once.  Call it on the
    event loop's thread."""
    loop = asyncio.get_running_loop()
    completions = _BY_LOOP.get(loop)
    if completions is None:
        completions = _BY_LOOP[loop] = _Completions(loop)
    return completions.track(cfut)
