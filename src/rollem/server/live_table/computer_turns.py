"""Computer players' turns at a live table: each decides in the bot thread,
off the event loop that serves every table, in this table's turn there
(:data:`rollem.server.live_table._BOT_THREAD`, fair queuing between tables);
its decision is played if still wanted, and one that fails or is refused
plays the seat's timeout action (R-C-15).

A computer player starts thinking when its decision opens and its decision is
played exactly at its **due time**, ``max(bot_delay, SHORTEST_WAIT)`` seconds
after that (the table's :class:`~rollem.server.pacing.Pacing`:
``table.pacing``), however long it thought (stop 55, stop 56): a strong bot's
think time follows its hidden cards (0.2 to 50 ms and more for one kind of
action, rarely 0.4 to 3 s in 5-2-1, measured), and every state carries the
table's clock (``table.now``), so any moment that follows the think is a
timing tell on its cards. A think not back by the due time (a long one,
several bots of the table or other tables' bots queued before it in the bot
thread, a loaded machine) is not waited for: the seat plays the clock's action
then (check, else fold; R-C-15:
:func:`rollem.server.game_session.timeout_action`), and the late think is
dropped (not started, if it was still queued). So no setting, ``bot_delay`` 0
included, shows a think. (A test server's pacing waits for a late think
instead, with no shortest wait: ``Pacing.bot_waits_for_think``.)"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rollem.server import live_table, trace
from rollem.server.game_session import ActionRefused, bot_decide
from rollem.server.live_table.errors import TableError, without_cards
from rollem.server.pacing import BOT_SHORTEST_WAIT

if TYPE_CHECKING:
    from rollem.server.live_table.turns import Turns

log = logging.getLogger("rollem.server")

SHORTEST_WAIT = BOT_SHORTEST_WAIT
"""Seconds: the least time from a computer player's decision opening to its
action on a real server (:data:`rollem.server.pacing.BOT_SHORTEST_WAIT`; a
table's own is ``table.pacing.bot_shortest_wait``)."""


def _decide(view: Any, bot: Any, game: Any) -> tuple[dict[str, Any], float]:
    """:func:`bot_decide`, and when it started (``time.perf_counter()``)."""
    started = time.perf_counter()
    return bot_decide(view, bot, game), started


class ComputerTurns:
    """The computer players' turns of one table's :class:`Turns` (which opens
    each decision and arms its timer).  Whether a decision is still wanted is
    ``turns.still_pending``, and a table applying an action off the loop keeps the
    decision for later (``turns.defer``).  Keeps, per seat, the last decision asked
    of the bot thread and when it is to be played: a decision the host's pause
    closed and the resume reopened (under the sequence number it was first offered
    at) is played from the same think, not thought again (a pause/resume loop
    must not make the bot thread think once a resume)."""

    def __init__(self, turns: Turns) -> None:
        self.turns = turns
        self.wait_for_think = False
        """``True``: a think not back at its due time is waited for and played when
        back (its length shows again).  For tests that hold the bot thread on a gate
        to act between a computer player's turn and its action; never set by the
        server.  (A table whose ``pacing.bot_waits_for_think`` is set, a test
        server's, waits too: :meth:`_waits`.)"""
        # seat -> ((sequence number opened at, hand, its actions so far), the think)
        self._thinking: dict[int, tuple[tuple[int, object, int], asyncio.Future[Any]]] = {}
        self._due: dict[int, float] = {}

    def _waits(self) -> bool:
        """Whether a think not back at its due time is waited for:
        :attr:`wait_for_think`, or the table's ``pacing.bot_waits_for_think``."""
        return self.wait_for_think or self.turns.table.pacing.bot_waits_for_think

    def take_turn(self, seat: int, opened_seq: int, due: float) -> None:
        """The computer player in ``seat`` decides the decision opened at
        ``opened_seq``, in the bot thread, if it is still open; the decision is
        played at ``due`` (the event loop's time), the clock's action if the think
        is not back by then."""
        table = self.turns.table
        if not self.turns.still_pending(seat, opened_seq):
            return
        if table.session.get("choice"):
            if self._wait(seat, due, self.take_turn, seat, opened_seq, due):
                return
            table.dealers_choice.choose(None)  # (a random pick after the client seeds: issue 32)
            return
        assert table.hand is not None
        self._due[seat] = due
        asked_of = (opened_seq, table.hand, len(table.hand.hand.actions))
        known = self._thinking.get(seat)
        if known is not None and known[0] == asked_of and not known[1].cancelled():
            # (asked before the host's pause: played from the same think at the new due)
            self._at_due(seat, opened_seq, known[1])
            return
        asked = time.perf_counter()
        bot = table.seating.computer_player(seat)
        # A computer player thinks in the bot thread (a strong one may take a
        # while), never on the event loop that serves every table; in this
        # table's queue there, so other tables' bots take their turns between
        # this table's decisions (see live_table._BOT_THREAD).
        view = table.hand.bot_view(seat)
        fut = asyncio.wrap_future(live_table._BOT_THREAD.submit_for(
            table.id, _decide, view, bot, table.hand.hand.game))
        self._thinking[seat] = (asked_of, fut)
        fut.add_done_callback(lambda f: self._thought(seat, opened_seq, f, asked))
        self._at_due(seat, opened_seq, fut)

    def _at_due(self, seat: int, opened_seq: int, fut: asyncio.Future[Any]) -> None:
        """:meth:`_decided` at ``seat``'s due time (at once if it has passed)."""
        if not self._wait(seat, self._due.get(seat, 0.0), self._decided, seat, opened_seq, fut):
            self._decided(seat, opened_seq, fut)

    def release(self, hand: object | None) -> None:
        """Forget the thinks asked of another hand than ``hand`` (the table's hand in
        play; ``None``: none is): a finished hand is not kept alive by its computer
        players' last thinks (their key holds the hand) until their seats' next
        decision, which may be hours later or never (stop 56).  Called by
        ``Turns.refresh_decisions`` and ``Turns.stop``."""
        for seat in [s for s, (asked_of, _) in self._thinking.items() if asked_of[1] is not hand]:
            del self._thinking[seat]
            self._due.pop(seat, None)

    def _thought(self, seat: int, opened_seq: int, fut: asyncio.Future[Any],
                 asked: float) -> None:
        """The bot thread is done with ``seat``'s decision asked for at ``asked``
        (``time.perf_counter()``): traced.  (Played at the due time, not now;
        when late thinks are waited for (:meth:`_waits`), now if that has passed.)"""
        if not fut.cancelled() and fut.exception() is None and trace.TRACE_DIR:
            now, started = time.perf_counter(), fut.result()[1]
            trace.line("bot", f"{time.time():.4f}", self.turns.table.id, seat,
                       f"{1000 * (started - asked):.2f}", f"{1000 * (now - asked):.2f}")
        if self._waits() and not fut.cancelled():
            self._decided(seat, opened_seq, fut)

    def _wait(self, seat: int, due: float, then: Callable[..., None], *args: Any) -> bool:
        """Before ``due`` (the event loop's time): call ``then(*args)`` at ``due``, in
        the seat's timer (a decision closed meanwhile cancels it), and ``True``."""
        loop = asyncio.get_running_loop()
        wait = due - loop.time()
        if wait <= 0:
            return False
        self.turns._timers[seat] = loop.call_later(wait, then, *args)
        return True

    def _decided(self, seat: int, opened_seq: int, fut: asyncio.Future[Any]) -> None:
        """At its due time, play the decision ``fut`` brought back for ``seat``, if
        still wanted; one not back yet plays the clock's action (its think is
        dropped: it must not show when it ends), a failed one times out."""
        turns, table = self.turns, self.turns.table
        if turns.defer(lambda: self._decided(seat, opened_seq, fut)):
            return
        if turns.still_pending(seat, opened_seq) and \
                self._wait(seat, self._due.get(seat, 0.0), self._decided, seat, opened_seq, fut):
            return
        if not turns.still_pending(seat, opened_seq) or table.hand is None:
            return
        if not fut.done():
            if self._waits():
                return  # (played when back: _thought)
            fut.cancel()  # (not started if still queued; a running one ends unread)
            log.info("table %s seat %s: computer player still thinking at its due time; "
                     "it plays the clock's action", table.id, seat)
            turns.act_safely(seat, table.hand.timeout_action(seat), "bot")
            return
        if fut.cancelled():
            return
        error = fut.exception()
        if error is None:
            try:
                turns.act(seat, fut.result()[0], "bot",
                          refused=lambda err: self._failed(seat, opened_seq, err))
                return
            except (TableError, ActionRefused) as err:
                error = err
        self._failed(seat, opened_seq, error)

    def _failed(self, seat: int, opened_seq: int, error: BaseException) -> None:
        """A computer player's decision failed or was refused: its timeout action."""
        turns, table = self.turns, self.turns.table
        if not turns.still_pending(seat, opened_seq) or table.hand is None:
            return
        log.error("table %s seat %s: computer player failed (%s); timing out", table.id,
                  seat, without_cards(error))
        turns.act_safely(seat, table.hand.timeout_action(seat), "timeout")
