"""An all-in run-out dealt round by round (s61-table2).

When the action that ends a hand leaves no decision and cards still to come
(every player left is all-in), the engine deals them and finds the result at
once.  The table shows the run-out at the pace of
:meth:`rollem.server.pacing.Pacing.runout_pause`: the call, then each round of
face-up cards (:meth:`rollem.server.game_session.GameSession.runout_stages`),
then the result, the hand finished (:meth:`Dealer.finish_hand`: stacks, the
ledger, the tournament's bust-outs, the next deal) only then.  Meanwhile every
view's hand is the stage shown (:attr:`RunOut.shown`): one render path from the
state draws it, a page that opens or reconnects mid-run-out gets the same cards,
and no card reaches a view before it is dealt face up.  The stored hand, its
replay and its history are the engine's as before.  No rule of its own
(presentation only: the cards and the result are those the engine dealt).

A server restarted mid-run-out (or a process that takes the table over) goes on
from the round last shown (s62-table): each round shown is stored in the
session (``runout_shown``, the index of the stage; one small session write a
round), and ``continue_play`` starts the run-out again from it, so a page that
had seen the turn sees the river and the result at the same pace, not the board
taken back to the call, nor the result at once (before: the hand finished at once).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rollem.server.game_session import GameSession
    from rollem.server.live_table import LiveTable

log = logging.getLogger("rollem.server")


class RunOut:
    """The run-out being shown at one table, if any.

    Owns :attr:`shown` (the stage every view shows, ``None`` when no run-out is
    under way), the stages left and the timer to the next.  Takes from its
    ``table``: ``pacing`` (``runout_step``), ``hand``, ``turns`` (``bump_seq``),
    ``views`` (``broadcast``), ``dealer`` (``finish_hand``), ``closed``, ``id``."""

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self.shown: GameSession | None = None
        self._left: list[GameSession] = []
        self._timer: asyncio.TimerHandle | None = None
        self._pause = 0.0
        self._index = 0  # the stage shown (of the run-out's stages, 0: the call)

    @property
    def active(self) -> bool:
        """Whether a run-out is being shown (the hand is over, not yet finished)."""
        return self.shown is not None

    def start(self, hand: GameSession, shown: int = 0) -> bool:
        """``hand`` (the table's) just ended: show its run-out round by round and
        finish it after the last round, ``True``; ``False`` (nothing done) when the
        table does not pace run-outs (``pacing.runout_step`` 0), the hand had no
        run-out, or no event loop runs.  ``shown``: the index of the stage shown
        before a restart (``session["runout_shown"]``, 0: the call); the run-out
        goes on from it (an index past the last stage: the last), at the pace of
        the whole run-out."""
        table = self.table
        if table.pacing.runout_step <= 0:
            return False
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return False
        try:
            stages = hand.runout_stages()
        except Exception:  # a fault of ours: the hand is finished at once, as before
            log.exception("table %s hand %s: the run-out's stages failed", table.id,
                          hand.hand_no)
            return False
        if not stages:
            return False
        self._pause = table.pacing.runout_pause(len(stages) - 1)
        self._index = min(max(0, shown), len(stages) - 1)
        self.shown, self._left = stages[self._index], stages[self._index + 1:]
        table.views.broadcast()
        self._timer = loop.call_later(self._pause, self._next)
        return True

    def _next(self) -> None:
        table = self.table
        self._timer = None
        if table.closed or self.shown is None:
            return
        if self._left:
            self.shown = self._left.pop(0)
            self._index += 1
            table.session["runout_shown"] = self._index  # (a restart goes on from it)
            table.turns.bump_seq()
            table.saving.write(session=table.session)
            table.views.broadcast()
            self._timer = asyncio.get_running_loop().call_later(self._pause, self._next)
            return
        self.shown = None
        table.session.pop("runout_shown", None)  # (finish_hand writes the session)
        if table.hand is not None and table.hand.over:
            table.dealer.finish_hand()

    def stop(self) -> None:
        """Cancel the next round (the table stops its timers); the hand stays over
        and unfinished, as after a restart (``continue_play`` goes on from the
        round last stored)."""
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None
        self.shown = None
        self._left = []
