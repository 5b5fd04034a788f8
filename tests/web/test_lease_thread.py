"""Lease renewals never wait for the event loop's default executor (stop 58).

With several processes on one PostgreSQL, each renews its tables' leases every
third of the lease time (10 s).  The renewal ran in the loop's default
executor, which a table's creation, a password check, a rules page, a request
passed on to another process and (until stop 58) every request waiting for a
statistics count share: held there past the lease time, another process takes
every table of this one.  Here the default executor is held by a gate.
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from rollem.server.manager import TableManager
from rollem.server.store import Store


class _Leases:
    seconds = 10.0

    def __init__(self) -> None:
        self.renewed: list[dict[str, int]] = []

    def renew(self, held: dict[str, int]) -> list[str]:
        self.renewed.append(held)
        return []

    def orphans(self) -> list[str]:
        return []


def test_a_renewal_does_not_wait_for_a_busy_default_executor(tmp_path: Path) -> None:
    store = Store(tmp_path / "t.db")
    manager = TableManager(store)
    leases = _Leases()
    manager.leases = leases  # type: ignore[assignment]
    gate = threading.Event()

    async def run() -> Any:
        loop = asyncio.get_running_loop()
        loop.set_default_executor(ThreadPoolExecutor(2))
        held = [loop.run_in_executor(None, gate.wait, 30) for _ in range(4)]
        try:
            await asyncio.wait_for(manager.renew_leases(), 3.0)  # main: TimeoutError
        finally:
            gate.set()
            await asyncio.gather(*held)

    try:
        asyncio.run(run())
    finally:
        gate.set()
        store.close()
    assert leases.renewed == [{}]
