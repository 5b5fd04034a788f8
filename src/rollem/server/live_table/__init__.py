"""One table in play: seats, the hand in progress, clocks, and its clients.

Everything here runs on the server's one event loop, so a table changes in
one synchronous step at a time: check the message, apply it to the hand,
commit it to the store, then queue the new state to every client.  No
client hears of anything before it is committed.

:class:`LiveTable` is made of parts, each an object that owns its own state
in memory, made once by ``LiveTable.__init__`` and given the table
(``part.table``), through which it reads the table's own state and calls
the other parts; each part's docstring lists what it takes.  The rules each
carries are in its module:

- ``table.seating`` (:class:`.seats.Seating`): seats, onlookers, joining,
  connections, the grace period of a player who is away (R-C-15);
- ``table.saving`` (:class:`.saving.Saving`): the write stream, commit before
  telling, and the way back when a write fails (pause, rebuild, retry);
- ``table.views`` (:class:`.views.Views`): the public table, each seat's
  state, their caches, the broadcast;
- ``table.turns`` (:class:`.turns.Turns`): the open decisions, their clocks
  and timers, applying actions, timeouts (R-C-15); its ``computer``
  (:class:`.computer_turns.ComputerTurns`) the computer players' turns;
- ``table.dealer`` (:class:`.hands.Dealer`): the next deal and its timer, who
  is dealt in, finishing hands, rebuys (R-C-12, R-521-9);
- ``table.seeding`` (:class:`.seeding.Seeding`): the deck committed before
  the client seeds, then dealt from both (issue 32, R-C-13);
- ``table.dealers_choice`` (:class:`.choice.DealersChoice`): naming the game
  and its clock (R-C-12, R-C-15);
- ``table.messages`` (:class:`.messages.Messages`): checking and routing
  client messages, practice odds in flight;
- ``table.tourney`` (:class:`.tourney.Tourney`): a sit-and-go (issue 28);
- ``table.pace`` (:class:`.pace.Pace`): the floor on the time per hand,
  whether a person plays (issue 34);
- ``table.host_role`` (:class:`.host_role.HostRole`): who holds the host
  role, and its pass to a player at the table when the host is gone (stop 43).

The parts whose state is stored keep it in the table's ``session`` (the
choice, the seeding, the tournament: see :class:`LiveTable`).  The table
keeps what every part reads (``store``, ``id``, ``config``, ``session``,
``seq``, ``hand``, ``final_hand``, ``last_result``, ``closed``), its settings
(class attributes tests replace), creation, restore, resume, the rebuild
(:meth:`LiveTable.adopt`) and shutdown, and a small public surface for the
rest of the server (app.py, manager.py, host.py...) that delegates to the
parts.  A player's action, for one, flows: ``LiveTable.handle`` ->
``Messages.handle`` (checks; waits while an action is applied off the loop)
-> ``Turns.act`` (the hand) -> ``Saving.write`` (queued) ->
``Dealer.finish_hand`` or ``Turns.refresh_decisions`` -> ``Views.broadcast``
-> ``Saving.send_after_commit`` (sent once committed).

Beside them: :mod:`.clients` (:class:`Client`, :class:`Seat`),
:mod:`.player_names` (:func:`clean_name`), :mod:`.errors`
(:class:`TableError`) and :mod:`.executors` (the threads every table
shares).  The executors and engine functions tests replace here
(``_BOT_THREAD``, ``_SHOWDOWN_THREAD``, ``_ODDS_THREAD``, ``_ODDS_WORKERS``,
``pick_bot_game``, ``seat_odds``, ``new_deal_proof``, ``committed_source``)
are looked up here (``live_table.X``) at call time by the parts.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from rollem.server import host
from rollem.server.budget import DiskBudget
from rollem.server.config import TableConfig
from rollem.server.game_session import GameSession, new_bot
from rollem.server.game_session import committed_source as committed_source
from rollem.server.game_session import new_deal_proof as new_deal_proof
from rollem.server.game_session import pick_bot_game as pick_bot_game
from rollem.server.game_session import seat_odds as seat_odds
from rollem.server.live_table.choice import DealersChoice
from rollem.server.live_table.clients import CONNECTIONS_PER_SEAT
from rollem.server.live_table.clients import MAX_BACKLOG as MAX_BACKLOG
from rollem.server.live_table.clients import Client as Client
from rollem.server.live_table.clients import Seat as Seat
from rollem.server.live_table.clients import _dumps as _dumps
from rollem.server.live_table.errors import PAUSED_NOTICE as PAUSED_NOTICE
from rollem.server.live_table.errors import RECOVERING_REFUSAL as RECOVERING_REFUSAL
from rollem.server.live_table.errors import TableError as TableError
from rollem.server.live_table.errors import fault_without_cards
from rollem.server.live_table.executors import _BOT_THREAD as _BOT_THREAD
from rollem.server.live_table.executors import _ODDS_THREAD as _ODDS_THREAD
from rollem.server.live_table.executors import _ODDS_WORKERS as _ODDS_WORKERS
from rollem.server.live_table.executors import _PASSWORD_THREAD as _PASSWORD_THREAD
from rollem.server.live_table.executors import _SHOWDOWN_THREAD as _SHOWDOWN_THREAD
from rollem.server.live_table.hands import Dealer
from rollem.server.live_table.host_role import HostRole
from rollem.server.live_table.messages import Messages
from rollem.server.live_table.pace import Pace
from rollem.server.live_table.player_names import MAX_NAME as MAX_NAME
from rollem.server.live_table.player_names import MAX_NAME_CODE_POINTS as MAX_NAME_CODE_POINTS
from rollem.server.live_table.player_names import clean_name as clean_name
from rollem.server.live_table.runout import RunOut
from rollem.server.live_table.saving import Saving
from rollem.server.live_table.seats import Seating
from rollem.server.live_table.seeding import Seeding
from rollem.server.live_table.tourney import Tourney
from rollem.server.live_table.turns import Turns
from rollem.server.live_table.views import STATE_CACHE_SECONDS as STATE_CACHE_SECONDS
from rollem.server.live_table.views import Views
from rollem.server.pacing import ODDS_ANSWER_GRID, Pacing
from rollem.server.protocol import ClientMessage as ClientMessage
from rollem.server.store import SeatRow, Store, token_digest

__all__ = ["Client", "LiveTable", "TableError", "clean_name"]

log = logging.getLogger("rollem.server")


def warm_odds_workers() -> threading.Event:
    """Start the practice-odds workers' fork server in the background (returns at
    once), so that the first odds request after the server starts does not wait
    for the odds to load (issue 34).  Returns an event set once a worker is up."""
    return _ODDS_WORKERS.warm()


AuditHook = Callable[["LiveTable", int | None, str], None]


class LiveTable:
    """A table in memory, mirrored in the store.

    ``session`` (JSON, stored) holds: ``started``, ``hand_no`` (last hand
    dealt), ``in_hand``, ``button``, ``seeding`` (a committed deal waiting for
    client seeds, with its secret key: :meth:`Seeding.commit_deal`),
    ``hand_hash`` (the last hand's, hex: the next commitment's chain, issue 32),
    ``choice`` (a pending dealer's choice:
    ``{"hand", "seat", "games", "players", "digest"}`` -- the chooser's seat token
    digest -- and ``"digests"``, those of ``players``; ``game`` once named
    while the host has paused the table), ``carried`` (chips carried into the next
    hand, R-521-9), ``departed`` (ledger lines of players who left), ``seq``,
    ``void_hands`` (hands left void at a restore, not counted toward a bomb pot
    every N hands: :meth:`_void_hand`).
    """

    audit: AuditHook | None = None
    """Test hook: called with (table, seat, text) for every message queued to a seat."""

    clock: Callable[[], float] = staticmethod(time.time)
    """Wall-clock seconds (a test may give a virtual clock).  Stored moments
    (``session["at"]``, ``session["away"]``) are on this clock, so grace periods
    and decision clocks count wall time across restarts."""

    bot_factory: Callable[[str], Any] = staticmethod(new_bot)
    """Makes a new computer player of a level (a test may give seeded ones)."""

    budget: DiskBudget = DiskBudget()
    """The server's bounds on dealing and storing hands (issue 34; given by the
    :class:`~rollem.server.manager.TableManager`; by default none)."""

    pacing: Pacing = Pacing()
    """When computer players act and practice-odds answers leave (stop 56; given
    by the :class:`~rollem.server.manager.TableManager`; by default the real
    values, :class:`~rollem.server.pacing.Pacing`)."""

    RETRY_FIRST: float = 0.5
    """Seconds from a failed write to the first retry (docs/hosting.md)."""
    RETRY_MAX: float = 5.0
    """The longest wait between retries while writes fail (the wait doubles up to it)."""
    HOST_AWAY_SECONDS: float = 90.0
    """Seconds every page of the host may stay closed before the host role passes
    to a player at the table (:mod:`.host_role`; stop 43: a host whose phone died
    left nobody able to let a late friend in).  Long enough for a reload or a
    phone's lost Wi-Fi, short enough for the friend waiting at the door."""
    STABLE_AFTER: float = 60.0
    """Seconds of play without a failed write before the wait starts again at RETRY_FIRST."""
    CLIENT_SEED_WAIT: float = 2.0
    """Seconds a committed deal waits for the client seeds of the people dealt
    in (issue 32, docs/web-table.md): it deals as soon as every connected one
    has sent its own, else when this runs out, with the empty seed for each
    seat whose seed is not in.  No hand stalls on a silent browser.  The wait
    runs from the moment the commitment goes out to the pages, once its write is
    committed (s61-table: on a loaded machine that write took up to 0.9 s of the
    2 s, and an honest page's seed came after the wait in 2 of 9 hands)."""
    CLIENT_SEED_TELL_LIMIT: float = 4.0
    """Seconds, more than :attr:`CLIENT_SEED_WAIT`, that a committed deal waits at
    the most for its commitment's write to commit and go out (a store that stalls):
    then it deals with the seeds in, so a table waits at most
    ``CLIENT_SEED_WAIT + CLIENT_SEED_TELL_LIMIT`` (6 s) from the commitment."""
    ODDS_ANSWER_GRID: float = ODDS_ANSWER_GRID
    """Seconds: a practice-odds answer leaves at a whole number of these after its
    request on a real server (:data:`rollem.server.pacing.ODDS_ANSWER_GRID`; a
    table's own is ``pacing.odds_answer_grid``)."""
    ODDS_BUDGET: float = 1.5
    """Seconds of CPU time one practice-odds request may use in its worker (issue
    34; and ten times that of wall-clock time): past it the worker is killed and
    the asker told the odds are too costly to compute here.  The odds themselves
    stop adding worlds after :data:`rollem.server.game_session.ODDS_CPU_SECONDS`
    (issue 33: exact or within ±1.5 points), so an honest request stays under
    it; a costly game file's does not."""

    def __init__(
        self,
        store: Store,
        table_id: str,
        config: TableConfig,
        session: dict[str, Any],
        host_digest: str,
        seats: list[SeatRow],
        stored: int = 0,
    ) -> None:
        self.store = store
        self.id = table_id
        self.config = config
        self.session = session
        self.host_digest = host_digest
        self.hand: GameSession | None = None  # the hand in play (set by the dealer's parts)
        self.seq: int = int(session.get("seq", 0))  # bumped by Turns.bump_seq
        self.last_result: dict[str, Any] | None = session.get("last_result")
        self.final_hand: GameSession | None = None  # the last finished hand, on the felt
        self.closed = False
        self.on_lease_lost: Callable[[LiveTable, BaseException], None] | None = None
        """Called when a write is refused because another process took the table over
        (:class:`rollem.server.leases.LeaseLost`): the manager drops the table."""
        if config.practice_odds:
            _ODDS_WORKERS.warm()  # (the odds workers load while the table fills)
        # a costly game's last finished hand, replayed off the loop by resume()
        self._final_pending: tuple[int, dict[str, Any], list[Any]] | None = None
        # a costly game's hand in play, replayed off the loop by resume() or adopt()
        # (_replay_hand; _replaying: the one in flight that this table still wants)
        self._hand_pending: tuple[int, dict[str, Any], list[Any]] | None = None
        self._replaying: tuple[int, dict[str, Any], list[Any]] | None = None
        # Its parts, each owning its own state (see the module docstring):
        self.seating = Seating(self, seats)
        self.host_role = HostRole(self)
        self.saving = Saving(self, stored)
        self.views = Views(self)
        self.turns = Turns(self)
        self.pace = Pace(self)
        self.tourney = Tourney(self)
        self.messages = Messages(self)
        self.dealer = Dealer(self)
        self.seeding = Seeding(self)
        self.dealers_choice = DealersChoice(self)
        self.runout = RunOut(self)

    # -- creation and restore ----------------------------------------------

    @classmethod
    def create(cls, store: Store, config: TableConfig,
               table_id: str | None = None) -> tuple[LiveTable, str]:
        """A new table with its computer players (``table_id``: its id, by default a
        new unguessable one); returns it and the host token."""
        table_id = table_id or secrets.token_urlsafe(16)
        host_token = secrets.token_urlsafe(24)
        session: dict[str, Any] = {
            "started": False, "hand_no": 0, "in_hand": False, "button": None,
            "choice": None, "carried": 0, "departed": [], "seq": 0, "last_result": None,
            "unattended": 1,  # until a person plays a hand (pace.py)
        }  # fmt: skip
        # Computer players take the last seats, numbered in seat order ("Bot 1" in the
        # lowest); a stored table keeps the names it was created with.
        first = config.seats - config.bots
        bots = [
            SeatRow(
                seat=first + i,
                name=f"Bot {i + 1} ({config.bot_level})",
                token_digest=None,
                bot=config.bot_level,
                stack=config.stack,
                brought=config.stack,
                bank=config.time_bank_seconds,
                joined_hand=0,
            )
            for i in range(config.bots)
        ]
        try:
            store.create_table(table_id, config.to_dict(), session, token_digest(host_token),
                               seats=bots)
        except (sqlite3.Error, OSError) as err:
            log.error("cannot save a new table (%s)", err)
            raise TableError(
                "not_saved", f"the server could not save the new table ({err}); try again later"
            ) from err
        return cls(store, table_id, config, session, token_digest(host_token), bots), host_token

    @classmethod
    def restore(cls, store: Store, table_id: str) -> LiveTable:
        """Rebuild a table from the store, replaying the hand in progress."""
        row = store.load_table(table_id)
        if row is None:
            raise KeyError(table_id)
        table = cls(
            store, table_id, host.restored_config(row.config, row.session), row.session,
            row.host_digest, store.load_seats(table_id), row.stored,
        )  # fmt: skip
        table.tourney.restart_clock()  # (the level clock resumes where it stood, issue 28)
        for number in table.session.get("removed", []):
            # removed by the host during the hand in play: still removed (issue 26),
            # its decisions timed out at once and the seat freed when the hand ends
            if number in table.seats:
                table.seats[number].gone = table.seats[number].removed = True
        if table.session.get("in_hand"):
            hand_row = store.load_hand(table_id, table.session["hand_no"])
            if hand_row is not None and hand_row.result is None:
                actions = store.load_actions(table_id, hand_row.hand_no)
                if GameSession.costly_setup(hand_row.setup):
                    # replayed in the showdown thread (s64-loop: its deal or its last
                    # action may run to the showdown): resume() or adopt() starts it
                    table._hand_pending = (hand_row.hand_no, hand_row.setup, actions)
                else:
                    table.hand = GameSession.restore(hand_row.hand_no, hand_row.setup,
                                                     actions)
        if table.last_result is not None and (
                not table.session.get("in_hand") or table.config.watcher_delay):
            # Between hands the last finished hand stays on the felt; during one, a
            # delayed watcher sees it (issue 27).
            hand_row = store.load_hand(table_id, int(table.last_result["hand"]))
            if hand_row is not None and hand_row.result is not None:
                actions = store.load_actions(table_id, hand_row.hand_no)
                if GameSession.costly_setup(hand_row.setup):
                    # replayed, showdown and all, in the showdown thread (issue 34):
                    # :meth:`resume` puts it on the felt when it is done
                    table._final_pending = (hand_row.hand_no, hand_row.setup, actions)
                else:
                    table.final_hand = GameSession.restore(hand_row.hand_no, hand_row.setup,
                                                           actions)
        return table

    def resume(self) -> None:
        """Restart clocks, computer players and the next deal after a restore.

        Every player starts disconnected: each keeps the seat for the grace
        period, as after any lost connection.
        """
        now = self.clock()
        self.seating.resume(now)
        pending, self._hand_pending = self._hand_pending, None
        if self.hand is None and pending is None:
            # the hand a removal waited for ended before the restart, the seat's
            # freeing not yet written: free it now
            self._free_removed()
        if self._final_pending is not None:
            self.dealer.restore_final_off_loop(*self._final_pending)
            self._final_pending = None
        if pending is not None:
            self._replay_hand(pending)
        # The open decision's clock counts from when it opened (stored), not from now.
        at = self.session.get("opened_at", self.session.get("at"))
        opened = min(now, float(at)) if at is not None else None

        def go_on() -> None:
            self.continue_play(opened=opened)
            self.turns.mark_expired_unheld(now)  # (their timeouts: not toward away mode)

        def replayed() -> None:  # (a page may have been told of no hand meanwhile)
            go_on()
            self.views.broadcast()

        if not self.turns.defer(replayed):  # (the hand in play replayed off the loop)
            go_on()

    def _replay_hand(self, pending: tuple[int, dict[str, Any], list[Any]]) -> None:
        """Replay the hand in play of a costly game (``pending``: its number, setup
        and stored actions, from :meth:`restore`) in the showdown thread
        (:meth:`Turns.off_loop`; s64-loop: a deal with no betting round, or a last
        action stored before the restart, ran to its showdown on the event loop,
        0.4 to 0.7 s for a stored 26-card file); it becomes :attr:`hand` when it is
        back, unless the table closed or took another state meanwhile.  Until then
        the table has no hand in memory and its messages, timeouts and deals wait
        (:meth:`resume` and :meth:`continue_play` go on once it is back).  A hand
        that cannot be replayed (an engine fault) is logged and left void: its
        chips were never settled, the table deals the next hand."""
        self._replaying = pending

        def back(f: asyncio.Future[GameSession]) -> None:
            if f.cancelled() or self.closed or self._replaying is not pending:
                return
            self._replaying = None
            error = f.exception()
            if error is not None:
                log.error("table %s: hand %s could not be replayed; it is left void\n%s",
                          self.id, pending[0], fault_without_cards(error))
                self._void_hand(pending[0], pending[1])
                return
            self.hand = f.result()

        try:
            self.turns.off_loop(back, GameSession.restore, *pending)
        except RuntimeError as err:  # the thread is shut down: the server is stopping
            log.warning("table %s: hand %s not replayed: %s", self.id, pending[0], err)

    def _free_removed(self) -> None:
        """Free the seats the host removed (or whose player left) during a hand that
        is no longer in play (``session["removed"]``, issue 26)."""
        for number in list(self.session.get("removed", [])):
            if number in self.seats:
                self.seating.free_seat(number)
            else:
                self.session["removed"].remove(number)

    def _void_hand(self, hand_no: int, setup: dict[str, Any]) -> None:
        """Hand ``hand_no`` in play (its stored ``setup``) could not be replayed
        (:meth:`_replay_hand`): it is void, as if never dealt -- its chips were never
        settled, so each seat keeps its stack from before it; the chips it carried in
        (``setup["carry_in"]``, R-521-9: taken off ``session["carried"]`` at its
        deal) are carried again, to the next hand; the seats removed during it are
        freed now (they waited for its end); and the session no longer says a hand
        is in play, so a restart does not replay it again.  Written at once
        (s64-loop2: the carried chips were lost, and a removed seat was held until
        the end of a next hand, forever where none could be dealt without it).

        Like a misdeal, it moves neither the button nor the bomb-pot count
        (s64-table2): the same button deals the next hand (the next seat dealt in
        on its left if that seat is no longer dealt in, R-C-12, as after a lapsed
        dealer's choice); the hand is not counted toward "a bomb pot every N
        hands" (``session["void_hands"]``, the number of void hands, taken off
        ``hand_no`` by :meth:`Dealer.session_table`); and a bomb pot the host had
        called, which the void hand dealt, is called again (``bomb_pot_next``).
        Before, the next button was one seat on and a due bomb pot was skipped.
        A tournament's add-on window that its deal closed is open again
        (:meth:`Tourney.void_hand`, s65-table).
        The hand's number stays used (its row is stored, with no result)."""
        s = self.session
        if self.hand is not None or not s.get("in_hand") or int(s.get("hand_no", 0)) != hand_no:
            return  # (another state taken meanwhile)
        s["in_hand"] = False
        s["carried"] = int(s.get("carried", 0)) + int(setup.get("carry_in", 0))
        button = setup.get("button", s.get("button"))
        if button is not None:  # (the next deal starts from the seat after this one)
            s["button"] = (int(button) - 1) % self.config.seats
        s["void_hands"] = int(s.get("void_hands", 0)) + 1
        options = setup.get("options")
        dealt_bomb = isinstance(options, dict) and int(options.get("bomb_pot") or 0) > 0
        if dealt_bomb and not self.dealer.session_table().bomb_pot_due():
            s["bomb_pot_next"] = True  # (the host's call it used; one due by count is due again)
        self.tourney.void_hand(hand_no)  # (the add-on's window as before its deal: s65)
        self._free_removed()
        self.turns.bump_seq()
        self.saving.commit(session=True)

    def continue_play(self, opened: float | None = None) -> None:
        """Go on from what is committed, as after a restart: finish a hand whose
        actions are all committed, open the decisions (``opened``: when they were
        offered, see :meth:`Turns.refresh_decisions`), or deal the next hand; an
        open deal proposal lapses at its time again (issue 28).  While the hand in
        play is replayed off the loop (:meth:`_replay_hand`): once it is back."""

        def later() -> None:
            self.continue_play(opened)
            self.views.broadcast()

        if self.turns.defer(later):
            return
        self.tourney.arm_timers()  # (a deal's answer time, a last call for a rebuy)
        if self.hand is not None and self.hand.over:
            # Committed actions finished the hand but the result was not: an all-in
            # run-out goes on from the round last shown (runout.py), else finish now.
            if not self.runout.start(self.hand, int(self.session.get("runout_shown", 0))):
                self.session.pop("runout_shown", None)
                self.dealer.finish_hand()
            return
        self.turns.refresh_decisions(opened=opened)
        seeding = self.session.get("seeding")
        if seeding:  # a committed deal waiting for seeds: its time goes on (issue 32)
            self.dealer.schedule_next_hand(max(0.0, float(seeding["until"]) - self.clock()))
        elif (self.hand is None and self.session.get("started")
              and not self.dealers_choice.open_choice()):
            self.dealer.schedule_next_hand(self.config.between_hands)

    def stop_timers(self) -> None:
        """Close the open decisions and cancel the coming deal and write retry."""
        self.turns.stop()
        self.runout.stop()
        self.dealer.stop()
        self.tourney.stop_timers()
        self.saving.stop_retry()
        self.host_role.stop()

    def adopt(self, fresh: LiveTable) -> None:
        """Take the committed table ``fresh`` (from :meth:`restore`) as this one,
        keeping the connected clients (:meth:`Saving.recover`'s rebuild).  No
        decision stays open."""
        self.stop_timers()
        self.turns.stop(forget=True)
        self.session = fresh.session
        self.seq = fresh.seq
        self.last_result = fresh.last_result
        self.hand = fresh.hand
        self.final_hand = fresh.final_hand
        if fresh._final_pending is not None:  # a costly game's: replayed off the loop
            self.dealer.restore_final_off_loop(*fresh._final_pending)
        self._replaying = None  # (a replay in flight was of the state left)
        if fresh._hand_pending is not None:  # a costly game's hand in play: the same
            self._replay_hand(fresh._hand_pending)
        self.seating.adopt(fresh.seating)
        self.host_role.settle()  # (the committed role, its holder's away clock)

    async def wait_committed(self) -> None:
        """:meth:`Saving.wait_committed`."""
        await self.saving.wait_committed()

    async def public_when_committed(self, limit: float = 10.0) -> dict[str, Any]:
        """:meth:`Saving.public_when_committed`."""
        return await self.saving.public_when_committed(limit)

    def shutdown(self) -> None:
        """Stop every timer and close every connection (the server drops the table)."""
        self.closed = True
        self.stop_timers()
        for client in self.seating.all_clients():
            client.close()

    # -- the public surface: what the rest of the server calls (app.py, manager.py,
    # host.py, table_help.py), each delegating to its part --------------------------
    def table_public(self) -> dict[str, Any]:
        return self.views.table_public()

    def state(self, seat: int | None, is_host: bool = False,
              kind: str = "full") -> dict[str, Any]:
        return self.views.state(seat, is_host, kind)

    def hand_viewer(self, seat: int | None, hand: GameSession | None) -> int | None:
        return self.views.hand_viewer(seat, hand)

    def names(self) -> list[str]:
        return self.views.names()

    def broadcast(self) -> None:
        self.views.broadcast()

    @property
    def hand_unsettled(self) -> bool:
        """Whether the table's hand has chips not yet settled: it is in play, or it
        is over with its all-in run-out still being shown (:class:`RunOut`; a seat
        of it that left or moved then would leave with its stack from before the
        hand, s62-hostile)."""
        return self.hand is not None and (not self.hand.over or self.runout.active)

    @property
    def decision_seq(self) -> dict[int, int]:
        """Seat -> the ``seq`` its open decision was offered at (:class:`Turns`)."""
        return self.turns.decision_seq

    @property
    def seats(self) -> dict[int, Seat]:
        """Seat number -> :class:`Seat` (:attr:`Seating.seats`)."""
        return self.seating.seats

    @property
    def idle_since(self) -> float:
        """When nobody was last connected (:attr:`Seating.idle_since`)."""
        return self.seating.idle_since

    def seat_for_token(self, token: str | None) -> int | None:
        return self.seating.seat_for_token(token)

    def seat_in_hand(self, token: str | None, hand_no: int, seats: list[int]) -> int | None:
        return self.seating.seat_in_hand(token, hand_no, seats)

    def seats_in_hands(self, token: str | None) -> Callable[[int, Iterable[int]], int | None]:
        return self.seating.seats_in_hands(token)

    def is_host(self, host_token: str | None) -> bool:
        return self.seating.is_host(host_token)

    def join(self, name: object, seat: int | None,
             returning: str | None = None, stranger: bool = False,
             token: str | None = None, check_only: bool = False) -> tuple[int, str]:
        return self.seating.join(name, seat, returning, stranger, token, check_only)

    def connect(self, client: Client, most: int = CONNECTIONS_PER_SEAT) -> None:
        self.seating.connect(client, most)

    def disconnect(self, client: Client) -> None:
        self.seating.disconnect(client)

    def all_clients(self) -> list[Client]:
        return self.seating.all_clients()

    def chooser(self) -> int | None:
        return self.dealers_choice.chooser()

    def open_choice(self) -> dict[str, Any] | None:
        return self.dealers_choice.open_choice()

    def handle(self, client: Client, msg: ClientMessage) -> None:
        """Apply one checked client message (:meth:`Messages.handle`)."""
        self.messages.handle(client, msg)
