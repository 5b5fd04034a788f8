"""The pace of a live table and its storage (issue 34): the floor on the time
per hand, whether a person plays, and the bytes its hands stored.

Methods of :class:`~rollem.server.live_table.LiveTable`, written here as
functions of ``self`` and bound in its class body (one class, one state).
The bounds are the server's :class:`~rollem.server.budget.DiskBudget`
(``self.budget``).

A person *plays* a hand when they make a decision in it other than folding
(a fold, the clock's action and a computer player's do not count: a person
folding every hand while computer players play it out is a table of bots).
Session key ``unattended``: ``1`` from the table's creation until a person
first plays (the store finds such tables to delete them sooner:
:meth:`rollem.server.store.Store.unattended_tables_idle_since`).  No rule of
its own.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from rollem.server.budget import megabytes

if TYPE_CHECKING:
    from rollem.server.live_table import LiveTable

log = logging.getLogger("rollem.server")


def floor_left(self: LiveTable) -> float:
    """Seconds until the floor on the time per hand lets the next hand be dealt
    (0 when it does): :meth:`DiskBudget.floor` from the last deal, on the event
    loop's clock."""
    if self._dealt_at is None:
        return 0.0
    floor = self.budget.floor(self._played_hand, self.config.hand_seconds)
    return max(0.0, self._dealt_at + floor - asyncio.get_running_loop().time())


def dealt_now(self: LiveTable) -> None:
    """A hand was just dealt: the floor counts from now; nobody has played it yet."""
    self._dealt_at = asyncio.get_running_loop().time()
    self._played_hand = False
    self._told_stopped = False


def person_acted(self: LiveTable, action: dict[str, Any]) -> None:
    """A person made the decision ``action`` (wire form): unless it is a fold,
    they play this hand (see the module docstring)."""
    if action.get("kind") == "fold":
        return
    self._played_hand = True
    self.attended()
    self.session.pop("unattended", None)  # (written with the action)


def attended(self: LiveTable) -> None:
    """A person plays, sat down or the host dealt: the table deals on for
    ``unattended_seconds`` more (:meth:`why_stopped`)."""
    self._attended_at = self.clock()


def stored_bytes(self: LiveTable) -> int:
    """Bytes of this table's hands stored (committed, plus the writes queued)."""
    return self.saving.stored_bytes()


def why_stopped(self: LiveTable) -> str | None:
    """Why this table deals no more hands, in words for the felt, or ``None``:
    a storage limit reached (:meth:`DiskBudget.refusal`), or no person played
    for ``unattended_seconds`` (computer players do not play on alone)."""
    refusal = self.budget.refusal(self.stored_bytes())
    if refusal is None:
        idle = self.clock() - self._attended_at
        if idle < self.budget.unattended_seconds:
            return None
        minutes = self.budget.unattended_seconds / 60
        refusal = (f"Dealing stopped: no person has played a hand for {minutes:g} minutes "
                   "(computer players do not play on alone). A player who sits down, "
                   "or the host's Deal now, deals again.")
    if not self._told_stopped:
        self._told_stopped = True
        log.warning("table %s: %s (stored %s)", self.id, refusal,
                    megabytes(self.stored_bytes()))
    return refusal
