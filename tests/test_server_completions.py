"""Store writes settled on the event loop in batches (issue 13, speed):
``loop_future`` gives the same results and errors as ``asyncio.wrap_future``,
in the order the writes finished, with one wake-up of the loop for all the
writes a commit finished together."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import Future
from typing import Any

import pytest

from rollem.server.completions import loop_future


def test_writes_finished_together_wake_the_loop_once_in_order() -> None:
    async def run() -> None:
        loop = asyncio.get_running_loop()
        cfuts: list[Future[None]] = [Future() for _ in range(5)]
        afuts = [loop_future(c) for c in cfuts]
        order: list[int] = []
        for i, afut in enumerate(afuts):
            afut.add_done_callback(lambda _f, i=i: order.append(i))
        wakeups: list[Any] = []
        real = loop.call_soon_threadsafe

        def counting(*args: Any, **kwargs: Any) -> Any:
            wakeups.append(args)
            return real(*args, **kwargs)

        loop.call_soon_threadsafe = counting  # type: ignore[method-assign]

        def writer() -> None:  # the store's writer thread settling one group
            for i, cfut in enumerate(cfuts):
                if i == 3:
                    cfut.set_exception(OSError("database or disk is full"))
                else:
                    cfut.set_result(None)

        thread = threading.Thread(target=writer)
        thread.start()
        thread.join()
        assert not any(a.done() for a in afuts)  # settled on the loop, not in the thread
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert len(wakeups) == 1
        assert order == [0, 1, 2, 3, 4]
        assert [a.exception() is None for a in afuts] == [True, True, True, False, True]
        assert str(afuts[3].exception()) == "database or disk is full"
        # A later write wakes the loop again.
        late: Future[None] = Future()
        afut = loop_future(late)
        late.set_result(None)
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert afut.done() and len(wakeups) == 2
        with pytest.raises(OSError):
            await afuts[3]

    asyncio.run(run())
