"""The pace of a live table and its storage (issue 34): the floor on the time
per hand, whether a person plays, and the bytes its hands stored.

:class:`Pace` is the table's part that keeps them.  The bounds are the
server's :class:`~rollem.server.budget.DiskBudget` (``table.budget``).

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


class Pace:
    """The pace of one table: when it last dealt, whether a person played.

    Owns: :attr:`dealt_at` (loop time of the last deal: the floor counts
    from it), :attr:`played_hand` (a person played the last hand dealt),
    :attr:`stopped` (the last :meth:`why_stopped` said dealing stopped: a
    tournament's level clock stands meanwhile),
    :attr:`attended_at` (when a person last played, sat down or the host
    dealt, on ``table.clock``) and whether the log said why it stopped.

    Takes from its ``table``: ``id``, ``config``, ``session`` (drops
    ``unattended``), ``clock``, ``budget`` (the server's
    :class:`~rollem.server.budget.DiskBudget`) and the bytes stored
    (``table.saving.stored_bytes``).
    """

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self.dealt_at: float | None = None  # loop time of the last deal (the floor)
        self.played_hand = False  # a person played the last hand dealt
        self.attended_at = table.clock()  # a person last played, sat down or the host dealt
        self.told_stopped = False  # the log said why it stopped dealing
        self.stopped = False  # the last why_stopped said why dealing stopped

    def floor_left(self) -> float:
        """Seconds until the floor on the time per hand lets the next hand be dealt
        (0 when it does): :meth:`DiskBudget.floor` from the last deal, on the event
        loop's clock."""
        table = self.table
        if self.dealt_at is None:
            return 0.0
        floor = table.budget.floor(self.played_hand, table.config.hand_seconds)
        return max(0.0, self.dealt_at + floor - asyncio.get_running_loop().time())

    def dealt_now(self) -> None:
        """A hand was just dealt: the floor counts from now; nobody has played it yet."""
        self.dealt_at = asyncio.get_running_loop().time()
        self.played_hand = False
        self.told_stopped = False

    def person_acted(self, action: dict[str, Any]) -> None:
        """A person made the decision ``action`` (wire form): unless it is a fold,
        they play this hand (see the module docstring)."""
        table = self.table
        if action.get("kind") == "fold":
            return
        self.played_hand = True
        self.attended()
        table.session.pop("unattended", None)  # (written with the action)

    def attended(self) -> None:
        """A person plays, sat down or the host dealt: the table deals on for
        ``unattended_seconds`` more (:meth:`why_stopped`)."""
        table = self.table
        self.attended_at = table.clock()

    def _tournament_watched(self) -> bool:
        """A tournament is on and a person has the table open (an entrant's page,
        busted or not, or the host's): it deals on (after 10 minutes it stopped,
        so a tournament whose people were all out never ended; since s63-table
        the next deal once every person is out for good ends it, the computer
        players left placed by chips: :meth:`Tourney.settle_computers`).  Bounded
        by the tournament's end and the storage limits; once nobody has the page
        open it stops as any table, and deals again when a person opens it
        (:meth:`~rollem.server.live_table.seats.Seating.connect`)."""
        table = self.table
        state = table.session.get("tournament")
        if state is None or state.get("over"):
            return False
        return any(c.is_host or (c.seat in table.seats and table.seats[c.seat].row.bot is None)
                   for c in table.seating.all_clients())

    def _stop(self, stopped: bool) -> None:
        """Note whether dealing stopped; a tournament's level clock stands while it is
        (blinds rose over hands never dealt) and runs again from when it deals."""
        if stopped != self.stopped:
            self.stopped = stopped
            self.table.tourney.fold_clock()

    def why_stopped(self) -> str | None:
        """Why this table deals no more hands, in words for the felt, or ``None``:
        a storage limit reached (:meth:`DiskBudget.refusal`), or no person played
        for ``unattended_seconds`` (computer players do not play on alone)."""
        table = self.table
        refusal = table.budget.refusal(table.saving.stored_bytes())
        if refusal is None and table.clock() - self.attended_at >= table.budget.unattended_seconds:
            if self._tournament_watched():
                self.attended()
            else:
                minutes = table.budget.unattended_seconds / 60
                refusal = (f"Dealing stopped: no person has played a hand for {minutes:g} "
                           "minutes (computer players do not play on alone). A player who "
                           "sits down, or the host's Deal now, deals again.")
        if refusal is None:
            self._stop(False)
            return None
        self._stop(True)
        if not self.told_stopped:
            self.told_stopped = True
            log.warning("table %s: %s (stored %s)", table.id, refusal,
                        megabytes(table.saving.stored_bytes()))
        return refusal
