"""Decisions of a live table: applying an action, the clocks and time banks,
computer players' turns (decided off the event loop,
:mod:`~rollem.server.live_table.computer_turns`) and timeouts.

:class:`Turns` is the table's part that owns the open decisions and their
timers.

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
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rollem.server import host, live_table
from rollem.server.game_session import (
    ActionRefused,
    Applied,
    GameSession,
    action_from_wire,
)
from rollem.server.live_table.computer_turns import ComputerTurns
from rollem.server.live_table.errors import TableError, fault_without_cards, without_cards

if TYPE_CHECKING:
    from rollem.server.live_table import LiveTable

log = logging.getLogger("rollem.server")

SLOW_APPLY_SECONDS = 2.0
"""An action applied off the loop that takes longer than this is logged (one
warning line: the table, the hand, the seconds and the game)."""


class Turns:
    """The open decisions of one table, their clocks, and applying actions.

    Owns: :attr:`decision_seq` (seat -> the table ``seq`` its open decision
    was offered at), :attr:`decision_opened` (seat -> the moment its clock
    started, on ``table.clock``), each open decision's timer, what identifies
    the open decision (a new one starts new clocks), and the queue of calls
    waiting while an action is applied, or a hand dealt or replayed, off the
    loop (:meth:`off_loop`, :attr:`applying`, :attr:`deferred`).

    Takes from its ``table``: ``id``, ``config``, ``session`` (``seq``, ``at``,
    ``opened_at``, ``held_used``), ``seats``, ``hand``, ``seq`` (bumped here:
    :meth:`bump_seq`), ``closed``, ``clock``; writes with ``table.saving``,
    tells with ``table.views``, finishes hands with ``table.dealer``, lets
    ``table.dealers_choice`` pick a lapsed choice, asks
    ``table.seating.computer_player`` and ``table.pace``, and the executors
    ``live_table._SHOWDOWN_THREAD`` and ``_BOT_THREAD`` (at call time).
    """

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self.decision_seq: dict[int, int] = {}
        self.decision_opened: dict[int, float] = {}
        self.bank_stopped: dict[int, float] = {}
        """When the time bank of a seat's open decision stopped counting (its pages
        closed, or it sat out: :meth:`bank_counts`), by the table's clock: what it
        used is worked out up to then (:meth:`_settle_bank`)."""
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._last_key: object = None
        self._held: tuple[object, dict[int, int]] | None = None
        """While the host pauses: the decision open at the pause (its key) and the
        sequence number each seat's decision was offered at (:meth:`hold_clocks`)."""
        self.off_loop_jobs = 0
        """This table's calls in the showdown thread not yet taken back
        (:meth:`off_loop`): an action applied, a hand dealt, a hand replayed."""
        self.deferred: deque[Callable[[], object]] = deque()  # what waits for them
        self.computer = ComputerTurns(self)
        self.expired_unheld: set[int] = set()
        """Seats whose open decision's clock (and time bank) ran out before this
        process took the table (:meth:`mark_expired_unheld`): its timeout is not
        counted toward away mode (s62-table)."""

    def stop(self, forget: bool = False) -> None:
        """Close every open decision and cancel its timer (the table stops or
        rebuilds); ``forget``: also forget which decision was open (a rebuilt
        table's next decision opens new clocks)."""
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        self.decision_seq.clear()
        self.decision_opened.clear()
        self._held = None
        self.expired_unheld.clear()
        self.computer.release(None)
        if forget:
            self._last_key = None

    def act(self, seat: int, action: dict[str, Any], source: str,
            refused: Callable[[ActionRefused], None] | None = None) -> None:
        """Apply ``action`` (wire form) by ``seat``, commit it and tell everyone.

        A hand whose showdown is costly (:attr:`GameSession.off_loop`) is changed off
        the event loop: the action is applied to a copy of the hand in the showdown
        thread, in this table's turn (:data:`live_table._SHOWDOWN_THREAD`), and the
        copy is adopted when it is done; meanwhile the table's other messages, bot
        decisions and timeouts wait (:meth:`defer`), and the other tables go on
        (issue 34).  A refusal found there goes to ``refused`` (else it is logged);
        a malformed action is refused at once either way.

        Raises:
            ActionRefused: the action is malformed, or (applied here) illegal, or
                ``running_out`` (an all-in run-out is being shown, :mod:`.runout`);
                nothing changes.
            TableError: ``server_error``, an engine fault (the table recovers).
        """
        table = self.table
        assert table.hand is not None
        hand = table.hand
        if table.runout.active:
            raise ActionRefused("running_out", "the hand is being run out: wait for the "
                                "result (cards are shown by choice after it)")
        if hand.off_loop:
            self._act_off_loop(seat, action, source, refused)
            return
        try:
            applied = hand.apply(seat, action)  # raises ActionRefused, changes nothing
        except ActionRefused:
            raise
        except Exception as err:  # an engine fault: the hand may be half-changed
            log.error("table %s hand %s: applying %s failed\n%s", table.id, hand.hand_no,
                      without_cards(repr(action)), fault_without_cards(err))
            table.saving.recover(err, saving=False)
            raise TableError(
                "server_error", f"the server could not apply that action ({err})"
            ) from err
        self._acted(hand, seat, applied, source)

    def _acted(self, hand: GameSession, seat: int, applied: Applied,
               source: str) -> None:
        """``applied`` changed ``hand`` (this table's): close the seat's decision,
        commit, and finish the hand or open the next decisions."""
        table = self.table
        row = table.seats[seat].row if seat in table.seats else None
        if row is not None:
            # (before the decision closes: its opening time says how much of the
            # bank it used; stop 57, settled after the close it never spent any)
            self._settle_bank(seat)
        self._close_decision(seat)
        if source == "player":
            host.note_own_action(table, seat)
            table.pace.person_acted(applied.record)  # (a fold does not count: pace.py)
        self.bump_seq()
        table.saving.write(
            session=table.session,
            seats=[row] if row is not None else [],
            action=(hand.hand_no, applied.index, seat, applied.record, source, applied.events),
        )
        if hand.over:
            if not table.runout.start(hand):  # (an all-in run-out: dealt round by round)
                table.dealer.finish_hand()
            return
        self.refresh_decisions()
        table.views.broadcast()

    def _act_off_loop(self, seat: int, wire: dict[str, Any], source: str,
                      refused: Callable[[ActionRefused], None] | None) -> None:
        """:meth:`act` for a costly hand: apply to a copy in the showdown thread."""
        table = self.table
        assert table.hand is not None
        hand = table.hand
        action = action_from_wire(wire)  # malformed: refused now, as on the loop
        try:
            copy = hand.hand_copy()
        except Exception as err:  # a fault of ours: refused, the hand unchanged
            # (cards as ??: the fault's words may quote hidden cards)
            log.error("table %s hand %s: copying the hand failed\n%s", table.id, hand.hand_no,
                      fault_without_cards(err))
            raise TableError("server_error", "the server could not apply that action "
                             f"({without_cards(err)})") from err
        started = time.perf_counter()
        try:
            self.off_loop(lambda f: self._applied_off_loop(hand, copy, seat, wire, source,
                                                           refused, f, started),
                          GameSession.apply_to, copy, seat, action)
        except RuntimeError as err:  # the thread is shut down: the server is stopping
            raise TableError("server_error", f"the server is stopping ({err})") from err

    @property
    def applying(self) -> bool:
        """Whether a call of this table runs in the showdown thread (:meth:`off_loop`):
        its messages, computer players' decisions, timeouts and deals wait."""
        return self.off_loop_jobs > 0

    def off_loop(self, then: Callable[[asyncio.Future[Any]], None],
                 fn: Callable[..., Any], /, *args: Any) -> None:
        """Call ``fn(*args)`` in the showdown thread
        (:data:`live_table._SHOWDOWN_THREAD`), in this table's turn, the other
        tables going on (issue 34): the one way a costly game's engine work leaves
        the event loop -- an action applied (:meth:`act`), a hand dealt
        (:meth:`~rollem.server.live_table.seeding.Seeding.deal_seeded`: its showdown
        may come in the deal), a hand in play replayed after a restore
        (:meth:`~rollem.server.live_table.LiveTable.resume`).  Until it is done
        :attr:`applying` holds and this table's messages, computer players'
        decisions, timeouts and deals wait (:meth:`defer`); then ``then(future)``
        runs on the event loop (``fn``'s result or exception in ``future``, which
        must check that the table still wants it), and what waited runs.

        Raises:
            RuntimeError: the thread is shut down (the server is stopping);
                nothing was started.
        """
        table = self.table
        fut = asyncio.wrap_future(live_table._SHOWDOWN_THREAD.submit_for(table.id, fn, *args))
        self.off_loop_jobs += 1

        def done(f: asyncio.Future[Any]) -> None:
            self.off_loop_jobs -= 1
            try:
                then(f)
            finally:
                self.run_deferred()

        fut.add_done_callback(done)

    def _applied_off_loop(self, hand: GameSession, copy: Any, seat: int,
                          wire: dict[str, Any], source: str,
                          refused: Callable[[ActionRefused], None] | None,
                          fut: asyncio.Future[Applied], started: float) -> None:
        """(Event loop.)  The copy of ``hand`` came back from the showdown thread:
        adopt it and go on as :meth:`act`, unless the table closed or rebuilt its
        hand meanwhile (then the action is dropped: its seat's clock goes on)."""
        table = self.table
        took = time.perf_counter() - started
        if took > SLOW_APPLY_SECONDS:
            log.warning("table %s hand %s: an action took %.1f s to apply (game %s)",
                        table.id, hand.hand_no, took, hand.game)
        if fut.cancelled() or table.closed or table.hand is not hand:
            return
        error = fut.exception()
        if isinstance(error, ActionRefused):
            if refused is not None:
                refused(error)
            else:
                log.error("table %s seat %s: %s action refused: %s", table.id, seat, source,
                          without_cards(error))
            return
        if error is not None:  # an engine fault; the table's hand is unchanged
            log.error("table %s hand %s: applying %s failed: %s", table.id, hand.hand_no,
                      without_cards(wire), without_cards(repr(error)))
            table.saving.recover(error, saving=False)
            return
        hand.adopt(copy)
        self._acted(hand, seat, fut.result(), source)

    def defer(self, later: Callable[[], object]) -> bool:
        """While a call of this table runs off the loop (:meth:`off_loop`: an action
        applied, a hand dealt or replayed), keep ``later`` (a message, a bot's
        decision, a timeout, a deal) to run once it is done, in order, with every
        check made again then; ``True`` if kept."""
        if not self.applying:
            return False
        self.deferred.append(later)
        return True

    def run_deferred(self) -> None:
        """Run what :meth:`defer` kept, until another call goes off the loop."""
        table = self.table
        while self.deferred and not self.applying and not table.closed:
            later = self.deferred.popleft()
            try:
                later()
            except Exception:  # one failed call does not stop the others
                log.exception("table %s: a deferred call failed", table.id)

    def _settle_bank(self, seat: int) -> None:
        """Take what ``seat``'s closing decision used past its clock off its time
        bank, up to when the bank stopped counting if it did (:attr:`bank_stopped`):
        one who sat out or whose pages closed in the bank spends what it used
        until then, and a clock that acts late for them meanwhile (a loaded
        machine, a restart) spends none of a bank kept for their return (stop 74:
        the lateness came off it)."""
        table = self.table
        opened = self.decision_opened.get(seat)
        row = table.seats[seat].row
        if opened is None or row.bot is not None:
            return
        until = table.clock() if self.bank_counts(seat) else self.bank_stopped.get(
            seat, table.clock())
        used = until - opened - table.config.decision_seconds
        if used > 0:
            row.bank = max(0.0, row.bank - used)

    def spend_choice_bank(self, seat: int) -> None:
        """The button in ``seat`` named the game of a dealer's choice: what its naming
        used of its time bank (past the decision clock, from the choice's opening)
        is spent and stored, as a hand's action spends it (:meth:`_acted`; s63-table2:
        a name given in the bank spent none of it, so a player could take the clock
        and the whole bank, 30 s and 60 s, at every choice).  No decision open for
        the seat (the host's pause): nothing."""
        info = self.table.seats.get(seat)
        if info is None or seat not in self.decision_opened:
            return
        bank = info.row.bank
        self._settle_bank(seat)
        if info.row.bank != bank:
            self.table.saving.commit(seats=[info.row])

    def bump_seq(self) -> None:
        """A new table sequence number; ``session["at"]`` stores when (decision clocks
        opened by this change count from it, across restarts)."""
        table = self.table
        table.seq += 1
        table.session["seq"] = table.seq
        table.session["at"] = table.clock()
        if self._decision_key() != self._last_key:
            # A new decision opens with this change: its clock counts from now, also
            # for the seats of an all-at-once decision still choosing after others.
            table.session["opened_at"] = table.session["at"]

    def _decision_key(self) -> object:
        """What identifies the open decision (see :meth:`refresh_decisions`)."""
        table = self.table
        if table.hand is not None and not table.hand.over:
            return table.hand.decision_key()
        if table.dealers_choice.open_choice():
            return ("choice", table.session["choice"]["hand"])
        return None

    def refresh_decisions(self, opened: float | None = None) -> None:
        """Open clocks for seats that now have a decision, close the others
        (``opened``: when the decision was offered, if earlier than now).

        A decision reopened at the host's resume, the same one the pause closed
        (its :meth:`_decision_key` unchanged), keeps the sequence number it was
        first offered at: a player's answer sent with the state seen before the
        pause (or during it) is still an answer to it, not ``stale`` (a host's
        pause/resume spam made every such answer ``stale``: stop 51, stop 52)."""
        table = self.table
        pending: list[int] = []
        key = self._decision_key()
        if table.session.get("host_paused"):
            pass  # no decision is open while the host has paused the table (hold_clocks)
        elif table.hand is not None and not table.hand.over:
            pending = table.hand.pending_seats()
        elif table.dealers_choice.open_choice():
            pending = [int(table.session["choice"]["seat"])]
        # (a think of a hand over, or of the hand before, is not kept: stop 56)
        self.computer.release(table.hand if table.hand is not None and not table.hand.over
                              else None)
        for seat in list(self.decision_seq):
            if seat not in pending or key != self._last_key:
                self._close_decision(seat)
        self._last_key = key
        now = table.clock()
        held = self._held[1] if self._held is not None and self._held[0] == key else {}
        for seat in pending:
            if seat in self.decision_seq:
                continue
            first = held.get(seat)
            # (never one above the table's: a rebuilt table's seq may stand lower)
            self.decision_seq[seat] = first if first is not None and first <= table.seq \
                else table.seq
            self.decision_opened[seat] = now if opened is None else opened
            self._arm(seat)

    def hold_clocks(self) -> None:
        """The host has paused the table (``session["host_paused"]`` set; issue 27):
        every clock stops where it stands and no decision is taken for anyone --
        the open decisions close (nobody acts, computer players wait) and the
        time the hand's open decision had used is kept (``session["held_used"]``,
        seconds, stored so a restart keeps it) for :meth:`release_clocks`.  The
        button's clock for naming a dealer's choice is held the same way
        (:meth:`DealersChoice.hold_choice_clock`), and a tournament deal's answer
        time and a last call for a rebuy (:meth:`Tourney.hold_timers`)."""
        table = self.table
        # (first: the button's choice clock closes its decision too)
        if self._held is None or self.decision_seq:  # (a second pause keeps the first's)
            self._held = (self._decision_key(), dict(self.decision_seq))
        if table.hand is not None and not table.hand.over and self.decision_opened:
            opened = min(self.decision_opened.values())
            table.session["held_used"] = max(0.0, table.clock() - opened)
        table.dealers_choice.hold_choice_clock()
        table.tourney.hold_timers()  # (a deal's answer time, a last call: issue 28)
        self.refresh_decisions()  # closes every open decision and its timer

    def release_clocks(self) -> None:
        """The host has resumed the table (``host_paused`` cleared): the hand's open
        decision reopens with the time it had left when the pause stopped it (a
        pause neither costs nor gives a player time, time bank included), as does
        the button's clock for naming the game (R-C-15; issue 27)."""
        table = self.table
        used = float(table.session.pop("held_used", 0.0))
        if table.hand is not None and not table.hand.over:
            opened = table.clock() - used
            table.session["opened_at"] = opened  # (a restart counts from it too)
            self.refresh_decisions(opened=opened)
        table.dealers_choice.release_choice_clock()  # (may reopen the button's choice)
        self._held = None
        table.tourney.release_timers()

    def mark_expired_unheld(self, now: float) -> None:
        """After a restore (a restart, or a takeover from a process that stopped
        renewing its lease) at ``now`` (``table.clock``): remember the seats whose
        open decision's clock and whole time bank had run out before it, while no
        process held the table.  Each such decision is still timed out at once (the
        clock counts across a restart, R-C-15), but the person never had the
        chance to answer it here, so it does not count toward ``away_after``
        (:func:`rollem.server.host.note_timeout`; s62-table: a friend whose page
        was reconnecting was sat out as away for a decision they never saw).  Only
        a seat whose page was open in the process that held the table
        (:attr:`~rollem.server.live_table.clients.Seat.page_elsewhere`): one whose
        every page had closed before (``session["away"]``) is sat out at that
        timeout as without the restart (s62-hostile2: it waited a whole clock more,
        at its next decision)."""
        table = self.table
        for seat, opened in self.decision_opened.items():
            info = table.seats.get(seat)
            if info is None or info.row.bot is not None or not info.page_elsewhere:
                continue
            bank = max(0.0, info.row.bank)
            if opened + table.config.decision_seconds + bank <= now:
                self.expired_unheld.add(seat)

    def _close_decision(self, seat: int) -> None:
        self.expired_unheld.discard(seat)
        self.decision_seq.pop(seat, None)
        self.decision_opened.pop(seat, None)
        self.bank_stopped.pop(seat, None)
        handle = self._timers.pop(seat, None)
        if handle is not None:
            handle.cancel()

    def _arm(self, seat: int) -> None:
        table = self.table
        loop = asyncio.get_running_loop()
        opened_seq = self.decision_seq[seat]
        info = table.seats.get(seat)
        sat_out = (table.session.get("tournament") is not None
                   and seat in table.session.get("sitting_out", []))
        if info is None or info.gone or host.is_idle_away(table, seat) or sat_out:
            # A gone seat's decisions time out at once (R-C-15), a computer
            # player's too once the host has removed it: it no longer plays; so do
            # those of a person the clock made away in this hand (issue 27), and of
            # a tournament's entrant who sits out, dealt in to be blinded off (issue 28).
            self._timers[seat] = loop.call_later(0, self.timeout, seat, opened_seq)
            return
        if info.row.bot is not None:
            # It thinks from now and plays at ``due``, whatever it thought: its think
            # time is not seen (stop 55; stop 56: a think not back by then plays the
            # clock's action, and ``bot_delay`` 0 waits SHORTEST_WAIT; a test
            # server's pacing waits for the think instead, with no shortest wait).
            due = loop.time() + table.pacing.due_after(table.config.bot_delay)
            self._timers[seat] = loop.call_later(0, self.computer.take_turn, seat, opened_seq, due)
            return
        opened = self.decision_opened.get(seat, table.clock())
        # The time bank only while a page of the seat is open (stop 57): a friend
        # gone home or a dead phone made the table wait the clock and the whole bank
        # (30 s and 60 s) at their first decision; now the clock alone, the bank kept
        # for their return (:meth:`rearm` when the last page closes or one opens).
        # Nor while the seat sits out (s61-night): see :meth:`bank_counts`.
        if self.bank_counts(seat):
            bank = max(0.0, info.row.bank)
            self.bank_stopped.pop(seat, None)
        else:
            bank = 0.0
            self.bank_stopped.setdefault(seat, table.clock())
        wait = opened + table.config.decision_seconds + bank - table.clock()
        self._timers[seat] = loop.call_later(max(0.0, wait), self.timeout, seat, opened_seq)

    def bank_counts(self, seat: int) -> bool:
        """Whether ``seat``'s time bank adds to its decision clock now: not while
        every page of the seat is closed (stop 57), nor while it sits out
        (s61-night: a friend who pressed Sit out in a hand and put the phone
        down made the table wait the clock and the whole bank, 25 s and 60 s, at
        each decision left in that hand). The bank is kept meanwhile; the state's
        ``bank`` for the seat says 0.0 (views.py). A seat with no player: False.
        A page that was open when the table was restored here and has not reached
        it yet (:attr:`~rollem.server.live_table.clients.Seat.page_elsewhere`: a
        restart, or a takeover) is reconnecting, not closed: its bank counts
        (s63-table: it had none until its page arrived, and a player whose page
        came back within the bank found the clock had acted for them)."""
        info = self.table.seats.get(seat)
        return (info is not None
                and (info.disconnected_since is None or info.page_elsewhere)
                and seat not in self.table.session.get("sitting_out", []))

    def rearm(self, seat: int) -> None:
        """Set the timer of ``seat``'s open decision again, from its opening (none
        open: nothing): its last page closed or one opened again, or it sat out or
        came back, and the time bank counts only then (:meth:`bank_counts`)."""
        if seat not in self.decision_seq or self.table.closed:
            return
        handle = self._timers.pop(seat, None)
        if handle is not None:
            handle.cancel()
        self._arm(seat)

    def still_pending(self, seat: int, opened_seq: int) -> bool:
        table = self.table
        return (not table.closed and not table.saving.paused and not table.saving.recovering
                and not table.session.get("host_paused")
                and self.decision_seq.get(seat) == opened_seq)

    def act_safely(self, seat: int, action: dict[str, Any], source: str) -> None:
        table = self.table
        try:
            self.act(seat, action, source)
        except (TableError, ActionRefused) as err:
            log.error("table %s seat %s: %s action refused: %s", table.id, seat, source,
                      without_cards(err))

    def timeout(self, seat: int, opened_seq: int) -> None:
        table = self.table
        if self.defer(lambda: self.timeout(seat, opened_seq)):
            return
        if not self.still_pending(seat, opened_seq):
            return
        info = table.seats.get(seat)
        choosing = bool(table.session.get("choice"))
        bank = info.row.bank if info is not None else None
        if info is not None and self.bank_counts(seat):
            info.row.bank = 0.0  # (spent)
        elif info is not None and choosing:
            # one whose page is closed, or who sits out, keeps what is left of it
            # (less what it used before: sitting out once in the bank); a hand's
            # action settles it as it is applied (_acted), once (s61-hostile2: it
            # was taken off here and there, twice)
            self._settle_bank(seat)
        if choosing:
            if info is not None and info.row.bank != bank:
                # (stored: the choice commits the session alone, and a restart
                # before the hand's end gave the spent bank back, s63-table2)
                table.saving.commit(seats=[info.row])
            table.dealers_choice.choose(None)  # (a random pick after the client seeds: issue 32)
            return
        assert table.hand is not None
        action = table.hand.timeout_action(seat)
        host.note_timeout(table, seat, action, counts=seat not in self.expired_unheld)
        self.act_safely(seat, action, "timeout")
