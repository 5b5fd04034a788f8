"""Client messages to a live table: checks each (seat, hand, sequence number,
pause) and routes it -- start, rebuy, naming the game, actions, host
messages, and practice odds (issue 8: the asking seat's own view only,
computed off the event loop).  A refused message changes nothing and gets
an error to that client alone.

:class:`Messages` is the table's part that takes them.

Rules: R-C-12 (naming the game), R-C-15 (only a seat with an open decision
acts); issue 32 (client seeds).
"""

from __future__ import annotations

import asyncio
import logging
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rollem.server import host, host_tools, live_table, night_close, seat_moves
from rollem.server.budget_workers import Cancelled, OverBudget
from rollem.server.game_session import (
    ODDS_CPU_SECONDS,
    ODDS_SAMPLES,
    ActionRefused,
)
from rollem.server.live_table.clients import Client, _dumps
from rollem.server.live_table.errors import PAUSED_NOTICE, RECOVERING_REFUSAL, TableError
from rollem.server.own_pad import CARD_CHOICES, pad_odds
from rollem.server.protocol import ClientMessage, error_message

if TYPE_CHECKING:
    from rollem.server.live_table import LiveTable

log = logging.getLogger("rollem.server")


_NEVER_WAIT = ("ping", "sync", "chat", "odds")
"""Messages answered at once while an action is applied off the loop (they
change no hand); the others wait for it (:meth:`Turns.defer`, issue 34)."""

_OF_THE_HAND = ("action", "odds", "choose_game", "client_seed")
"""Messages about the hand in play: refused ``not_dealt_in`` (and nothing else
said) to a seat the watcher delay hides that hand from (issue 27)."""

MAX_WAITING = 256
"""Messages of one table that may wait for an action applied off the loop; past
it a message is refused (``busy``) rather than kept."""


@dataclass(eq=False, slots=True)
class OddsJob:
    """A seat's practice-odds request in flight (one a seat, issue 34)."""

    client: Client
    """The connection that asked: the answer goes to it alone."""
    hand_no: int
    seq: int
    game: str
    """The hand's game id (what the log lines name)."""
    asked: float = 0.0
    """When it was asked (the event loop's time): the reply leaves at a whole
    number of the table's ``pacing.odds_answer_grid`` after it (stop 56)."""
    card_choice: bool = False
    """Whether the seat faced a card choice when it asked (public): the reply's
    padded length (:func:`rollem.server.own_pad.pad_odds`)."""


TOO_COSTLY = ("your odds are too costly to compute here (more than the {budget:g} s of "
              "computing the server gives a request); they are not shown in this game at "
              "this table")
"""The one-line answer to a request that ran over its budget (code ``too_costly``)."""


def others_straying(table: LiveTable, view: Any) -> float | None:
    """Practice odds' ``straying`` for the asker's ``view`` (issue 33, branch
    s67-rough): :func:`rollem.odds.straying.for_bots` of the computer level of
    every other seat dealt in (``row.bot``; ``None``, a person, where a seat has
    none or has left the table): 1.0 where all are the table's ``random``
    players, whose keeps and exposes then say nothing of their hidden cards,
    else ``None`` (the model's default)."""
    from rollem.odds.straying import for_bots

    levels = []
    for s in getattr(view, "seats", ()):
        if s.seat == view.seat or not s.dealt:
            continue
        seat = table.seats.get(s.seat)
        levels.append(seat.row.bot if seat is not None else None)
    return for_bots(levels)


class Messages:
    """The client messages of one table, and its practice odds in flight.

    Owns: :attr:`odds_jobs` (seat -> its :class:`OddsJob` in flight),
    :attr:`odds_costly` (games whose odds ran over budget here: answered
    ``too_costly`` at once from then on) and :attr:`odds_logged` (``(what,
    game)`` already logged once).

    Takes from its ``table``: ``id``, ``config``, ``session``, ``seats``,
    ``hand``, ``seq``, ``closed`` and ``ODDS_BUDGET`` (a class setting tests
    replace); routes each message to the part that applies it
    (``table.turns.act``, ``table.dealers_choice.choose``,
    ``table.seeding.take_client_seed``, ``table.dealer.rebuy``,
    ``table.tourney``, :func:`rollem.server.host.handle`), refuses with
    ``table.saving.send_after_commit``, and asks the odds of
    ``live_table._ODDS_THREAD``, ``live_table._ODDS_WORKERS`` and
    ``live_table.seat_odds`` (looked up at call time: tests replace them).
    """

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self.odds_jobs: dict[int, OddsJob] = {}  # seat -> its odds in flight
        self.odds_costly: set[str] = set()  # games whose odds ran over budget here
        self.odds_logged: set[tuple[str, str]] = set()  # (what, game): logged once

    def handle(self, client: Client, msg: ClientMessage) -> None:
        """Apply one checked client message, or send that client an error."""
        table = self.table
        try:
            if msg.type not in _NEVER_WAIT and table.turns.applying:
                if len(table.turns.deferred) >= MAX_WAITING:
                    raise TableError("busy", "the table is still applying the last action; "
                                     "try again in a moment")
                table.turns.defer(lambda: self.handle(client, msg))
                return
            self.dispatch(client, msg)
        except (TableError, ActionRefused) as err:
            self._refuse(client, msg, err)

    def _refuse(self, client: Client, msg: ClientMessage,
                err: TableError | ActionRefused) -> None:
        """Send ``client`` the error for its message ``msg``."""
        table = self.table
        ref = {"type": msg.type, "hand": msg.hand, "seq": msg.seq}
        table.saving.send_after_commit([(client, error_message(err.code, err.message, ref))])

    def dispatch(self, client: Client, msg: ClientMessage) -> None:
        table = self.table
        if msg.type == "ping":  # the page's heartbeat: answered whatever the seat's state
            client.send('{"type":"pong"}')
            return
        if client.seat is not None and table.seating.seat_of(client) is None:
            raise TableError("not_seated", "this connection no longer holds a seat; "
                             "reload the page to watch or take a seat")
        kind = host_tools.view_kind(table, client)
        if msg.type == "sync":
            table.saving.send_after_commit([(client, table.views.cached_state_text(
                client.seat, client.is_host, kind))])
            return
        if kind == "locked":
            # (issue 27: its refusals would tell of the table's play -- the hand in
            # play's number, whose turn, the sequence number -- as its states do not)
            raise TableError("not_approved", (
                "the host has not let you in yet: you can play, watch and write in the "
                "chat once they do" if table.config.private else
                "this table has a password: give it to watch (or take a seat)"))
        self.check_not_paused()
        if kind == "delayed" and msg.type in _OF_THE_HAND and client.seat is not None \
                and host_tools.in_play(table):
            # (a seat taken during a hand with the watcher delay: the refusals of the
            # hand's own checks named its number, the table's sequence number -- the
            # count of its actions -- and whether its deal waited for seeds)
            raise TableError("not_dealt_in", "you are not dealt into the hand in play: you "
                             "see it once it ended, and are dealt the next")
        if night_close.refuses(table, msg.type, msg.body):
            raise night_close.refusal(table)  # (the host closed the table: stop 59)
        if msg.type == "client_seed":  # (issue 32: hands.take_client_seed)
            if client.seat is None or client.seat not in table.seats:
                raise TableError("not_seated", "take a seat first")
            assert msg.hand is not None
            table.seeding.take_client_seed(client.seat, msg.hand, str(msg.body["seed"]))
            return
        if msg.type in ("host", "sit_out", "leave", "show", "chat", "straddle"):
            host.handle(table, client, msg)
            return
        if msg.type == "deal":
            if client.seat is None or client.seat not in table.seats:
                raise TableError("not_seated", "take a seat first")
            table.tourney.handle_deal(client.seat, msg.body)
            return
        if msg.type == "seat_change":  # (stop 59: a move to an empty seat)
            if client.seat is None or client.seat not in table.seats:
                raise TableError("not_seated", "take a seat first")
            seat_moves.ask(table, client.seat, msg.body.get("seat"))
            return
        if msg.type == "addon":  # take or decline the add-on (stop 60)
            if client.seat is None or client.seat not in table.seats:
                raise TableError("not_seated", "take a seat first: the add-on is a player's")
            take = msg.body.get("take")
            if not isinstance(take, bool):
                raise TableError("malformed", "'take' must be true (take the add-on) or "
                                 f"false (no thanks), not {take!r}")
            table.tourney.addon(client.seat, take)
            return
        if msg.type == "top_up":  # (stop 58: between hands, up to the buy-in)
            if client.seat is None or client.seat not in table.seats:
                raise TableError("not_seated", "take a seat first")
            host.top_up_taken(table, client.seat)
            # (a stand-in's own top-up waits for the host, as a rebuy: host.standing_in)
            table.dealer.top_up(client.seat, by_host=client.is_host
                                and not host.standing_in(table, client))
            return
        assert msg.seq is not None
        # (a delayed watcher is compared with the number it was told: the table's
        # would tell it the number of actions of the hand in play, issue 27)
        told = host_tools.quiet_seq(table, kind)
        bound = table.seq if told is None else told
        if msg.seq > bound:
            raise TableError(
                "bad_seq", f"sequence number {msg.seq} is ahead of the table ({bound})"
            )
        if msg.type == "start":
            if not client.is_host:
                raise TableError("not_host", "only the host who created the table can deal")
            if table.session.get("started"):
                raise TableError("already_started", "the game has already started")
            if table.config.tournament:
                table.tourney.start()  # the entrants, the level clock (issue 28)
            table.session["started"] = True
            table.saving.commit(session=True)
            table.views.broadcast()
            table.dealer.schedule_next_hand(0.0)
            return
        if msg.type == "odds":
            self._odds(client, msg)
            return
        seat = client.seat
        if seat is None or seat not in table.seats:
            raise TableError("not_seated", "take a seat first")
        if msg.type == "rebuy":
            if msg.body.get("decline"):  # a busted entrant's "no rebuy: I'm out"
                table.tourney.decline_rebuy(seat)
                return
            # (a stand-in's own rebuy waits for the host, as anyone's: host.standing_in)
            table.dealer.rebuy(seat, by_host=client.is_host
                               and not host.standing_in(table, client))
            return
        choice = table.session.get("choice")
        if msg.type == "choose_game":
            if not choice or table.dealers_choice.chooser() != seat:
                raise TableError("not_your_turn", "it is not your turn to name the game")
            self._check_hand_seq(seat, msg, int(choice["hand"]))
            game = msg.body["game"]
            if game not in choice["games"]:
                raise TableError(
                    "illegal", f"{game!r} cannot be chosen; allowed: {', '.join(choice['games'])}"
                )
            table.turns.spend_choice_bank(seat)  # (the bank it used: s63-table2)
            table.dealers_choice.choose(game)
            return
        # action
        claimed = msg.body.get("seat", seat)
        if claimed != seat:
            raise TableError(
                "wrong_seat", f"this connection plays seat {seat + 1} (index {seat}); it cannot "
                f"act for index {claimed!r}"
            )
        if table.hand is None:
            raise TableError("no_hand", "no hand is in progress")
        self._check_hand_seq(seat, msg, table.hand.hand_no)
        if table.session.get("host_paused"):
            raise TableError("host_paused", "the host has paused the table: nobody acts "
                             "until they resume, and your clock stands still meanwhile")
        if seat not in table.turns.decision_seq:
            if msg.seq is not None and msg.seq < table.seq:
                raise TableError(
                    "stale",
                    f"that answer came too late: seat {seat + 1} has no decision now (already "
                    "made, perhaps in another tab or window of yours); sequence number "
                    f"{msg.seq} is older than the table ({table.seq})",
                )
            waiting = [str(s + 1) for s in table.hand.pending_seats()]
            raise TableError(
                "not_your_turn",
                f"seat {seat + 1} has no decision to make now; waiting for "
                + ("seat " if len(waiting) == 1 else "seats ") + ", ".join(waiting),
            )
        table.turns.act(seat, msg.body["action"], "player",
                        refused=lambda err: self._refuse(client, msg, err))

    def _odds(self, client: Client, msg: ClientMessage) -> None:
        """Practice odds (issue 8): the asking seat's odds from its own view only,
        computed off the event loop and sent to that client alone.

        Issue 34: each request runs in a worker process under
        :attr:`LiveTable.ODDS_BUDGET` of CPU time (``too_costly`` past it; then
        at once, without computing, for every request in that game at this table
        while it is in memory: an attacker's table costs one budget a game, not
        one a request); it is cancelled -- its worker killed -- when the asking
        connection closes or the hand moves on; a seat has one request in
        flight, from whichever of its connections (``busy``); a game without odds
        is refused before anything runs (``no_odds``).  Failures are logged once
        per table and game, never once a request."""
        table = self.table
        if not table.config.practice_odds:
            raise TableError(
                "no_practice_odds",
                "this table does not show players' odds; the host allows it with the "
                "Practice option when creating a table",
            )
        seat = client.seat
        if seat is None or seat not in table.seats:
            raise TableError("not_seated", "only a seated player can see their own odds; "
                             "take a seat first")
        if table.hand is None:
            raise TableError("no_hand", "no hand is in progress")
        if msg.hand != table.hand.hand_no:
            raise TableError(
                "stale", f"hand {msg.hand} is not the hand in progress ({table.hand.hand_no})"
            )
        if not table.views.dealt_in_hand(seat, table.hand):
            raise TableError("not_dealt", f"seat {seat + 1} is not dealt into hand "
                             f"{table.hand.hand_no}")
        session = table.hand
        refusal = session.odds_refusal(seat)
        if refusal is not None:
            if refusal[0] == "no_odds":
                self._log_once("no_odds", session.game, logging.WARNING,
                          "practice odds are on but refused in this game (%s)", refusal[1])
            raise TableError(*refusal)
        if session.game in self.odds_costly:
            raise TableError("too_costly", TOO_COSTLY.format(budget=table.ODDS_BUDGET))
        running = self.odds_jobs.get(seat)
        if running is not None and not running.client.closed:
            raise TableError("busy", "your odds are still being computed (asked from this or "
                             "another connection of your seat); ask again after")
        view = session.odds_view(seat)  # this seat's view only, never the hand
        own = table.config.own_game()
        # A table's own game travels to the worker as its file's text (a Game does not pickle).
        game = table.config.game_file if own is not None and own.id == session.game else None
        legal = getattr(view, "legal", None)
        job = OddsJob(client, session.hand_no, table.seq, session.game,
                      asyncio.get_running_loop().time(),
                      legal is not None and not CARD_CHOICES.isdisjoint(legal.actions))
        self.odds_jobs[seat] = job

        def cancelled() -> bool:
            # Read in the odds thread: plain reads of what the event loop sets.
            return client.closed or table.closed or table.hand is not session

        # In this table's queue: a table whose players all ask at once does not hold
        # up another's (see live_table._BOT_THREAD); then in a worker process.
        fut = asyncio.wrap_future(live_table._ODDS_THREAD.submit_for(
            table.id, live_table._ODDS_WORKERS.run, live_table.seat_odds,
            # (the odds stop adding worlds well inside the worker's budget: issue 33)
            (view, ODDS_SAMPLES, game, min(ODDS_CPU_SECONDS, table.ODDS_BUDGET * 2 / 3),
             others_straying(table, view)),
            budget=table.ODDS_BUDGET, cancelled=cancelled))
        fut.add_done_callback(lambda f: self._odds_done(seat, job, f))

    def _odds_done(self, seat: int, job: OddsJob, fut: asyncio.Future[Any]) -> None:
        """The odds worker is done with ``job``: answered at the next whole number of
        ``table.pacing.odds_answer_grid`` seconds after it was asked (at once if a grid step
        has just passed): how long the odds took follows the asker's cards (the
        sampling stops sooner far from an even chance; some spots are counted
        exactly), and a passive observer of the connection sees when the answer
        leaves (stop 56).  The seat stays ``busy`` until then."""
        error = None if fut.cancelled() else fut.exception()  # (retrieved: asyncio warns otherwise)
        if isinstance(error, OverBudget):  # (even if the asker has just left)
            self.odds_costly.add(job.game)
            self._log_once("too_costly", job.game, logging.WARNING,
                      "practice odds stopped %s; answered too_costly (at once from now on)",
                           error)
        grid = self.table.pacing.odds_answer_grid
        loop = asyncio.get_running_loop()
        if grid > 0 and not fut.cancelled():
            steps = max(1, math.ceil((loop.time() - job.asked) / grid - 1e-9))
            wait = job.asked + steps * grid - loop.time()
            if wait > 0:
                loop.call_later(wait, self._odds_answer, seat, job, fut)
                return
        self._odds_answer(seat, job, fut)

    def _odds_answer(self, seat: int, job: OddsJob, fut: asyncio.Future[Any]) -> None:
        """Send ``job``'s answer (or why there is none), padded to a length that
        follows public things only (:func:`rollem.server.own_pad.pad_odds`)."""
        table = self.table
        if self.odds_jobs.get(seat) is job:
            del self.odds_jobs[seat]
        client, hand_no, seq = job.client, job.hand_no, job.seq
        error = None if fut.cancelled() else fut.exception()
        if table.closed or client.closed or fut.cancelled():
            return
        ref = {"type": "odds", "hand": hand_no, "seq": seq}
        if table.saving.halted or seq > table.seq:
            # Asked about a moment that may never have been saved: say nothing of it.
            table.saving.send_after_commit([(client, pad_odds(error_message(
                "paused", PAUSED_NOTICE if table.saving.paused else RECOVERING_REFUSAL, ref),
                job.card_choice))])
            return
        if error is None:
            text = _dumps({"type": "odds", "hand": hand_no, "seq": seq, "odds": fut.result()})
        elif isinstance(error, Cancelled):
            text = error_message("cancelled", f"hand {hand_no} moved on before your odds were "
                                 "computed", ref)
        elif isinstance(error, OverBudget):
            text = error_message("too_costly", TOO_COSTLY.format(budget=table.ODDS_BUDGET), ref)
        else:
            from rollem.odds import OddsError  # (loaded with the first odds, not at start)

            if isinstance(error, OddsError):
                self._log_once("odds_error", job.game, logging.WARNING,
                          "practice odds failed (%s)", error)
                why = str(error)  # the odds' own words, written for players
            else:
                self._log_once("failed", job.game, logging.ERROR,
                          "practice odds failed (%s: %s)", type(error).__name__, error)
                # Any other exception's text is the server's, not the player's.
                why = "a fault on the server, logged there"
            text = error_message("odds_failed", f"your odds could not be computed ({why})", ref)
        table.saving.send_after_commit([(client, pad_odds(text, job.card_choice))])

    def _log_once(self, what: str, game: str, level: int, text: str,
                  *args: object) -> None:
        """Log ``text`` for this table and ``game`` the first time ``what`` happens
        there (issue 34: a client asking again and again writes one line, not one
        a request); later times at DEBUG."""
        table = self.table
        first = (what, game) not in self.odds_logged
        self.odds_logged.add((what, game))
        log.log(level if first else logging.DEBUG, "table %s game %s: " + text, table.id, game,
                *args)

    def check_not_paused(self) -> None:
        """Refuse a change while writes fail (nothing can be saved) or the table rebuilds."""
        table = self.table
        if table.saving.paused:
            raise TableError("paused", PAUSED_NOTICE)
        if table.saving.recovering:
            raise TableError("paused", RECOVERING_REFUSAL)

    def _check_hand_seq(self, seat: int, msg: ClientMessage, hand_no: int) -> None:
        table = self.table
        if msg.hand != hand_no:
            raise TableError("stale", f"hand {msg.hand} is not the hand in progress ({hand_no})")
        opened = table.turns.decision_seq.get(seat)
        if opened is not None and msg.seq is not None and msg.seq < opened:
            raise TableError(
                "stale",
                "that answer was to an earlier decision (made already, perhaps in another "
                "tab or window of yours); look at the table again and decide: sequence "
                f"number {msg.seq} is older than your decision (offered at {opened})",
            )
