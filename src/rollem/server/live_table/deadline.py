"""A tournament's stored deadline that the host's pause holds (issue 28): a deal
proposal's answer time, a last call for a rebuy.

The deadline lives in an entry of ``session["tournament"]`` (a dict, stored):
``until`` (the table clock's moment it ends) while it runs, ``held_left``
(seconds) with ``until`` cleared while the host's pause holds it.  No rule of
its own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rollem.server.live_table import LiveTable


class StoredDeadline:
    """The timer of one stored deadline: ``session["tournament"][key]``'s ``until``
    ends with ``on_end(until)`` on the event loop (the callback checks that the
    entry still ends then: a stale timer does nothing)."""

    def __init__(self, table: LiveTable, key: str, on_end: Callable[[float], None]) -> None:
        self.table = table
        self.key = key
        self.on_end = on_end
        self.timer: asyncio.TimerHandle | None = None

    def entry(self) -> dict[str, Any] | None:
        """The stored entry (``None`` without a tournament or an open one)."""
        state = self.table.session.get("tournament")
        entry: dict[str, Any] | None = state.get(self.key) if state is not None else None
        return entry

    def arm(self) -> None:
        """End at the entry's ``until`` (when it opens, and when a stored table is
        resumed); nothing while none is open or the pause holds it."""
        self.stop()
        entry = self.entry()
        if entry is None or entry.get("until") is None:
            return
        until = float(entry["until"])
        self.timer = asyncio.get_running_loop().call_later(
            max(0.0, until - self.table.clock()), self._end, until)

    def hold(self) -> None:
        """The host paused the table: the time stops where it stands, as every clock
        of the table does; kept as ``held_left`` (seconds, stored), ``until`` cleared."""
        entry = self.entry()
        if entry is None or entry.get("until") is None:
            return
        entry["held_left"] = round(max(0.0, float(entry["until"]) - self.table.clock()), 3)
        entry["until"] = None
        self.stop()

    def release(self) -> None:
        """The host resumed the table: it ends after the time it had left when the
        pause began (:meth:`hold`)."""
        entry = self.entry()
        if entry is None or "held_left" not in entry:
            return
        entry["until"] = round(self.table.clock() + float(entry.pop("held_left")), 3)
        self.arm()

    def stop(self) -> None:
        """Cancel the timer (the entry is left as it is)."""
        if self.timer is not None:
            self.timer.cancel()
        self.timer = None

    def _end(self, until: float) -> None:
        self.timer = None
        self.on_end(until)
