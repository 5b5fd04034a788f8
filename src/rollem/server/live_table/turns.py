"""Decisions of a live table: applying an action, the clocks and time banks,
computer players' turns (decided off the event loop) and timeouts.

Methods of :class:`~rollem.server.live_table.LiveTable`, written here as
functions of ``self`` and bound in its class body (one class, one state).

Timers (R-C-15): every decision has a clock of ``decision_seconds``; when it
runs out the seat's time bank is used; when that is spent too the server
plays the seat's timeout action (check, else fold; see
:meth:`GameSession.timeout_action`).  A gone seat's decisions (see
:mod:`~rollem.server.live_table.seats`) time out at once.

Rules: R-C-15.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rollem.server import host, live_table, trace
from rollem.server.game_session import (
    ActionRefused,
    Applied,
    GameSession,
    action_from_wire,
    bot_decide,
)
from rollem.server.live_table.errors import TableError

if TYPE_CHECKING:
    from rollem.server.live_table import LiveTable

log = logging.getLogger("rollem.server")

SLOW_APPLY_SECONDS = 2.0
"""An action applied off the loop that takes longer than this is logged (one
warning line: the table, the hand, the seconds and the game)."""


def _act(self: LiveTable, seat: int, action: dict[str, Any], source: str,
         refused: Callable[[ActionRefused], None] | None = None) -> None:
    """Apply ``action`` (wire form) by ``seat``, commit it and tell everyone.

    A hand whose showdown is costly (:attr:`GameSession.off_loop`) is changed off
    the event loop: the action is applied to a copy of the hand in the showdown
    thread, in this table's turn (:data:`live_table._SHOWDOWN_THREAD`), and the
    copy is adopted when it is done; meanwhile the table's other messages, bot
    decisions and timeouts wait (:func:`defer`), and the other tables go on
    (issue 34).  A refusal found there goes to ``refused`` (else it is logged);
    a malformed action is refused at once either way.

    Raises:
        ActionRefused: the action is malformed, or (applied here) illegal; nothing
            changes.
        TableError: ``server_error``, an engine fault (the table recovers).
    """
    assert self.hand is not None
    hand = self.hand
    if hand.off_loop:
        _act_off_loop(self, seat, action, source, refused)
        return
    try:
        applied = hand.apply(seat, action)  # raises ActionRefused, changes nothing
    except ActionRefused:
        raise
    except Exception as err:  # an engine fault: the hand may be half-changed
        log.exception("table %s hand %s: applying %r failed", self.id, hand.hand_no, action)
        self.saving.recover(err, saving=False)
        raise TableError(
            "server_error", f"the server could not apply that action ({err})"
        ) from err
    _acted(self, hand, seat, applied, source)


def _acted(self: LiveTable, hand: GameSession, seat: int, applied: Applied,
           source: str) -> None:
    """``applied`` changed ``hand`` (this table's): close the seat's decision,
    commit, and finish the hand or open the next decisions."""
    self._close_decision(seat)
    if source == "player":
        host.note_own_action(self, seat)
        self.person_acted(applied.record)  # (a fold does not count: pace.py)
    row = self.seats[seat].row if seat in self.seats else None
    if row is not None:
        self._settle_bank(seat)
    self._bump_seq()
    self.saving.write(
        session=self.session,
        seats=[row] if row is not None else [],
        action=(hand.hand_no, applied.index, seat, applied.record, source, applied.events),
    )
    if hand.over:
        self._finish_hand()
        return
    self._refresh_decisions()
    self.views.broadcast()


def _act_off_loop(self: LiveTable, seat: int, wire: dict[str, Any], source: str,
                  refused: Callable[[ActionRefused], None] | None) -> None:
    """:func:`_act` for a costly hand: apply to a copy in the showdown thread."""
    assert self.hand is not None
    hand = self.hand
    action = action_from_wire(wire)  # malformed: refused now, as on the loop
    try:
        copy = hand.hand_copy()
    except Exception as err:  # a fault of ours: refused, the hand unchanged
        log.exception("table %s hand %s: copying the hand failed", self.id, hand.hand_no)
        raise TableError("server_error", f"the server could not apply that action ({err})"
                         ) from err
    started = time.perf_counter()
    try:
        fut = asyncio.wrap_future(live_table._SHOWDOWN_THREAD.submit_for(
            self.id, GameSession.apply_to, copy, seat, action))
    except RuntimeError as err:  # the thread is shut down: the server is stopping
        raise TableError("server_error", f"the server is stopping ({err})") from err
    self._applying = True

    def done(f: asyncio.Future[Applied]) -> None:
        self._applying = False
        try:
            _applied_off_loop(self, hand, copy, seat, wire, source, refused, f, started)
        finally:
            run_deferred(self)

    fut.add_done_callback(done)


def _applied_off_loop(self: LiveTable, hand: GameSession, copy: Any, seat: int,
                      wire: dict[str, Any], source: str,
                      refused: Callable[[ActionRefused], None] | None,
                      fut: asyncio.Future[Applied], started: float) -> None:
    """(Event loop.)  The copy of ``hand`` came back from the showdown thread:
    adopt it and go on as :func:`_act`, unless the table closed or rebuilt its
    hand meanwhile (then the action is dropped: its seat's clock goes on)."""
    took = time.perf_counter() - started
    if took > SLOW_APPLY_SECONDS:
        log.warning("table %s hand %s: an action took %.1f s to apply (game %s)",
                    self.id, hand.hand_no, took, hand.game)
    if fut.cancelled() or self.closed or self.hand is not hand:
        return
    error = fut.exception()
    if isinstance(error, ActionRefused):
        if refused is not None:
            refused(error)
        else:
            log.error("table %s seat %s: %s action refused: %s", self.id, seat, source, error)
        return
    if error is not None:  # an engine fault; the table's hand is unchanged
        log.error("table %s hand %s: applying %r failed: %r", self.id, hand.hand_no, wire,
                  error)
        self.saving.recover(error, saving=False)
        return
    hand.adopt(copy)
    _acted(self, hand, seat, fut.result(), source)


def defer(self: LiveTable, later: Callable[[], object]) -> bool:
    """While an action of this table is applied off the loop, keep ``later`` (a
    message, a bot's decision, a timeout) to run once it is done, in order, with
    every check made again then; ``True`` if kept."""
    if not self._applying:
        return False
    self._deferred.append(later)
    return True


def run_deferred(self: LiveTable) -> None:
    """Run what :func:`defer` kept, until another action goes off the loop."""
    while self._deferred and not self._applying and not self.closed:
        later = self._deferred.popleft()
        try:
            later()
        except Exception:  # one failed call does not stop the others
            log.exception("table %s: a deferred call failed", self.id)


def _settle_bank(self: LiveTable, seat: int) -> None:
    opened = self.decision_opened.get(seat)
    row = self.seats[seat].row
    if opened is None or row.bot is not None:
        return
    used = self.clock() - opened - self.config.decision_seconds
    if used > 0:
        row.bank = max(0.0, row.bank - used)


def _bump_seq(self: LiveTable) -> None:
    """A new table sequence number; ``session["at"]`` stores when (decision clocks
    opened by this change count from it, across restarts)."""
    self.seq += 1
    self.session["seq"] = self.seq
    self.session["at"] = self.clock()
    if self._decision_key() != self._last_key:
        # A new decision opens with this change: its clock counts from now, also
        # for the seats of an all-at-once decision still choosing after others.
        self.session["opened_at"] = self.session["at"]


def _decision_key(self: LiveTable) -> object:
    """What identifies the open decision (see :meth:`_refresh_decisions`)."""
    if self.hand is not None and not self.hand.over:
        return self.hand.decision_key()
    if self.open_choice():
        return ("choice", self.session["choice"]["hand"])
    return None


def _refresh_decisions(self: LiveTable, opened: float | None = None) -> None:
    """Open clocks for seats that now have a decision, close the others
    (``opened``: when the decision was offered, if earlier than now)."""
    pending: list[int] = []
    key = self._decision_key()
    if self.session.get("host_paused"):
        pass  # no decision is open while the host has paused the table (hold_clocks)
    elif self.hand is not None and not self.hand.over:
        pending = self.hand.pending_seats()
    elif self.open_choice():
        pending = [int(self.session["choice"]["seat"])]
    for seat in list(self.decision_seq):
        if seat not in pending or key != self._last_key:
            self._close_decision(seat)
    self._last_key = key
    now = self.clock()
    for seat in pending:
        if seat in self.decision_seq:
            continue
        self.decision_seq[seat] = self.seq
        self.decision_opened[seat] = now if opened is None else opened
        self._arm(seat)


def hold_clocks(self: LiveTable) -> None:
    """The host has paused the table (``session["host_paused"]`` set; issue 27):
    every clock stops where it stands and no decision is taken for anyone --
    the open decisions close (nobody acts, computer players wait) and the
    time the hand's open decision had used is kept (``session["held_used"]``,
    seconds, stored so a restart keeps it) for :meth:`release_clocks`.  The
    button's clock for naming a dealer's choice is held the same way
    (:meth:`hold_choice_clock`)."""
    if self.hand is not None and not self.hand.over and self.decision_opened:
        opened = min(self.decision_opened.values())
        self.session["held_used"] = max(0.0, self.clock() - opened)
    self.hold_choice_clock()
    self._refresh_decisions()  # closes every open decision and its timer


def release_clocks(self: LiveTable) -> None:
    """The host has resumed the table (``host_paused`` cleared): the hand's open
    decision reopens with the time it had left when the pause stopped it (a
    pause neither costs nor gives a player time, time bank included), as does
    the button's clock for naming the game (R-C-15; issue 27)."""
    used = float(self.session.pop("held_used", 0.0))
    if self.hand is not None and not self.hand.over:
        opened = self.clock() - used
        self.session["opened_at"] = opened  # (a restart counts from it too)
        self._refresh_decisions(opened=opened)
    self.release_choice_clock()


def _close_decision(self: LiveTable, seat: int) -> None:
    self.decision_seq.pop(seat, None)
    self.decision_opened.pop(seat, None)
    handle = self._timers.pop(seat, None)
    if handle is not None:
        handle.cancel()


def _arm(self: LiveTable, seat: int) -> None:
    loop = asyncio.get_running_loop()
    opened_seq = self.decision_seq[seat]
    info = self.seats.get(seat)
    sat_out = (self.session.get("tournament") is not None
               and seat in self.session.get("sitting_out", []))
    if info is None or info.gone or host.is_idle_away(self, seat) or sat_out:
        # A gone seat's decisions time out at once (R-C-15), a computer
        # player's too once the host has removed it: it no longer plays; so do
        # those of a person the clock made away in this hand (issue 27), and of
        # a tournament's entrant who sits out, dealt in to be blinded off (issue 28).
        self._timers[seat] = loop.call_later(0, self._timeout, seat, opened_seq)
        return
    if info.row.bot is not None:
        self._timers[seat] = loop.call_later(
            self.config.bot_delay, self._bot_turn, seat, opened_seq
        )
        return
    opened = self.decision_opened.get(seat, self.clock())
    wait = opened + self.config.decision_seconds + max(0.0, info.row.bank) - self.clock()
    self._timers[seat] = loop.call_later(max(0.0, wait), self._timeout, seat, opened_seq)


def _still_pending(self: LiveTable, seat: int, opened_seq: int) -> bool:
    return (not self.closed and not self.saving.paused and not self.saving.recovering
            and not self.session.get("host_paused")
            and self.decision_seq.get(seat) == opened_seq)


def _bot_turn(self: LiveTable, seat: int, opened_seq: int) -> None:
    if not self._still_pending(seat, opened_seq):
        return
    if self.session.get("choice"):
        self._choose(None)  # (a random pick, made after the client seeds: issue 32)
        return
    assert self.hand is not None
    asked = time.perf_counter()
    bot = self.computer_player(seat)
    # A computer player thinks in the bot thread (a strong one may take a
    # while), never on the event loop that serves every table; in this
    # table's queue there, so other tables' bots take their turns between
    # this table's decisions (see live_table._BOT_THREAD).
    view = self.hand.bot_view(seat)
    fut = asyncio.wrap_future(live_table._BOT_THREAD.submit_for(
        self.id, _decide, view, bot, self.hand.hand.game))
    fut.add_done_callback(lambda f: self._bot_decided(seat, opened_seq, f, asked))


def _decide(view: Any, bot: Any, game: Any) -> tuple[dict[str, Any], float]:
    """:func:`bot_decide`, and when it started (``time.perf_counter()``)."""
    started = time.perf_counter()
    return bot_decide(view, bot, game), started


def _bot_decided(self: LiveTable, seat: int, opened_seq: int, fut: asyncio.Future[Any],
                 asked: float) -> None:
    """Play the decision ``fut`` brought back for ``seat`` (asked for at ``asked``,
    ``time.perf_counter()``), if still wanted; a failed one times out."""
    if defer(self, lambda: self._bot_decided(seat, opened_seq, fut, asked)):
        return
    if not fut.cancelled() and fut.exception() is None and trace.TRACE_DIR:
        now, started = time.perf_counter(), fut.result()[1]
        trace.line("bot", f"{time.time():.4f}", self.id, seat,
                   f"{1000 * (started - asked):.2f}", f"{1000 * (now - asked):.2f}")
    if not self._still_pending(seat, opened_seq) or self.hand is None or fut.cancelled():
        return
    error = fut.exception()
    if error is None:
        try:
            self._act(seat, fut.result()[0], "bot",
                      refused=lambda err: _bot_failed(self, seat, opened_seq, err))
            return
        except (TableError, ActionRefused) as err:
            error = err
    _bot_failed(self, seat, opened_seq, error)


def _bot_failed(self: LiveTable, seat: int, opened_seq: int, error: BaseException) -> None:
    """A computer player's decision failed or was refused: its timeout action."""
    if not self._still_pending(seat, opened_seq) or self.hand is None:
        return
    log.error("table %s seat %s: computer player failed (%s); timing out", self.id,
              seat, error)
    self._act_safely(seat, self.hand.timeout_action(seat), "timeout")


def _act_safely(self: LiveTable, seat: int, action: dict[str, Any], source: str) -> None:
    try:
        self._act(seat, action, source)
    except (TableError, ActionRefused) as err:
        log.error("table %s seat %s: %s action refused: %s", self.id, seat, source, err)


def _timeout(self: LiveTable, seat: int, opened_seq: int) -> None:
    if defer(self, lambda: self._timeout(seat, opened_seq)):
        return
    if not self._still_pending(seat, opened_seq):
        return
    if seat in self.seats:
        self.seats[seat].row.bank = 0.0
    if self.session.get("choice"):
        self._choose(None)  # (a random pick, made after the client seeds: issue 32)
        return
    assert self.hand is not None
    action = self.hand.timeout_action(seat)
    host.note_timeout(self, seat, action)
    self._act_safely(seat, action, "timeout")
