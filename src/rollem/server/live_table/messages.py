"""Client messages to a live table: checks each (seat, hand, sequence number,
pause) and routes it -- start, rebuy, naming the game, actions, host
messages, and practice odds (issue 8: the asking seat's own view only,
computed off the event loop).  A refused message changes nothing and gets
an error to that client alone.

Methods of :class:`~rollem.server.live_table.LiveTable`, written here as
functions of ``self`` and bound in its class body (one class, one state).

Rules: R-C-12 (naming the game), R-C-15 (only a seat with an open decision
acts).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from rollem.server import host, live_table
from rollem.server.game_session import (
    ODDS_SAMPLES,
    ActionRefused,
)
from rollem.server.live_table.clients import Client, _dumps
from rollem.server.live_table.errors import PAUSED_NOTICE, RECOVERING_REFUSAL, TableError
from rollem.server.protocol import ClientMessage, error_message

if TYPE_CHECKING:
    from rollem.server.live_table import LiveTable

log = logging.getLogger("rollem.server")


def handle(self: LiveTable, client: Client, msg: ClientMessage) -> None:
    """Apply one checked client message, or send that client an error."""
    try:
        self._handle(client, msg)
    except (TableError, ActionRefused) as err:
        ref = {"type": msg.type, "hand": msg.hand, "seq": msg.seq}
        self._send_after_commit([(client, error_message(err.code, err.message, ref))])


def _handle(self: LiveTable, client: Client, msg: ClientMessage) -> None:
    if msg.type == "ping":  # the page's heartbeat: answered whatever the seat's state
        client.send('{"type":"pong"}')
        return
    if client.seat is not None and self._seat_of(client) is None:
        raise TableError("not_seated", "this connection no longer holds a seat; "
                         "reload the page to watch or take a seat")
    if msg.type == "sync":
        self._send_after_commit([(client, self.cached_state_text(client.seat,
                                                                 client.is_host))])
        return
    self._check_not_paused()
    if msg.type in ("host", "sit_out", "show", "chat", "straddle"):
        host.handle(self, client, msg)
        return
    assert msg.seq is not None
    if msg.seq > self.seq:
        raise TableError(
            "bad_seq", f"sequence number {msg.seq} is ahead of the table ({self.seq})"
        )
    if msg.type == "start":
        if not client.is_host:
            raise TableError("not_host", "only the host who created the table can deal")
        if self.session.get("started"):
            raise TableError("already_started", "the game has already started")
        self.session["started"] = True
        self._commit(session=True)
        self.broadcast()
        self._schedule_next_hand(0.0)
        return
    if msg.type == "odds":
        self._odds(client, msg)
        return
    seat = client.seat
    if seat is None or seat not in self.seats:
        raise TableError("not_seated", "take a seat first")
    if msg.type == "rebuy":
        self._rebuy(seat)
        return
    choice = self.session.get("choice")
    if msg.type == "choose_game":
        if not choice or self.chooser() != seat:
            raise TableError("not_your_turn", "it is not your turn to name the game")
        self._check_hand_seq(seat, msg, int(choice["hand"]))
        game = msg.body["game"]
        if game not in choice["games"]:
            raise TableError(
                "illegal", f"{game!r} cannot be chosen; allowed: {', '.join(choice['games'])}"
            )
        self._choose(game)
        return
    # action
    claimed = msg.body.get("seat", seat)
    if claimed != seat:
        raise TableError(
            "wrong_seat", f"this connection plays seat {seat}; it cannot act for {claimed!r}"
        )
    if self.hand is None:
        raise TableError("no_hand", "no hand is in progress")
    self._check_hand_seq(seat, msg, self.hand.hand_no)
    if self.session.get("host_paused"):
        raise TableError("host_paused", "the host has paused the table: nobody acts "
                         "until they resume, and your clock stands still meanwhile")
    if seat not in self.decision_seq:
        if msg.seq is not None and msg.seq < self.seq:
            raise TableError(
                "stale",
                f"sequence number {msg.seq} is older than the table ({self.seq}) and seat "
                f"{seat} has no decision now (a repeated or late message)",
            )
        raise TableError(
            "not_your_turn",
            f"seat {seat} has no decision to make now; waiting for seat(s) "
            + ", ".join(map(str, self.hand.pending_seats())),
        )
    self._act(seat, msg.body["action"], "player")


def _odds(self: LiveTable, client: Client, msg: ClientMessage) -> None:
    """Practice odds (issue 8): the asking seat's odds from its own view only,
    computed off the event loop and sent to that client alone."""
    if not self.config.practice_odds:
        raise TableError(
            "no_practice_odds",
            "this table does not show players' odds; the host allows it with the "
            "Practice option when creating a table",
        )
    seat = client.seat
    if seat is None or seat not in self.seats:
        raise TableError("not_seated", "only a seated player can see their own odds; "
                         "take a seat first")
    if self.hand is None:
        raise TableError("no_hand", "no hand is in progress")
    if msg.hand != self.hand.hand_no:
        raise TableError(
            "stale", f"hand {msg.hand} is not the hand in progress ({self.hand.hand_no})"
        )
    if not self.dealt_in_hand(seat, self.hand):
        raise TableError("not_dealt", f"seat {seat} is not dealt into hand "
                         f"{self.hand.hand_no}")
    refusal = self.hand.odds_refusal(seat)
    if refusal is not None:
        raise TableError(*refusal)
    if client.odds_busy:
        raise TableError("busy", "your odds are still being computed; ask again after")
    hand_no, seq = self.hand.hand_no, self.seq
    view = self.hand.odds_view(seat)  # this seat's view only, never the hand
    client.odds_busy = True
    # In this table's queue: a table whose players all ask at once does not hold
    # up another's (see live_table._BOT_THREAD).
    fut = asyncio.wrap_future(live_table._ODDS_THREAD.submit_for(
        self.id, live_table.seat_odds, view, ODDS_SAMPLES, self.hand.hand.game))
    fut.add_done_callback(lambda f: self._odds_done(client, seat, hand_no, seq, f))


def _odds_done(
    self: LiveTable, client: Client, seat: int, hand_no: int, seq: int, fut: asyncio.Future[Any]
) -> None:
    client.odds_busy = False
    if self.closed or client.closed or fut.cancelled():
        return
    error = fut.exception()
    if self.paused or self._recovering or seq > self.seq:
        # Asked about a moment that may never have been saved: say nothing of it.
        ref = {"type": "odds", "hand": hand_no, "seq": seq}
        self._send_after_commit([(client, error_message(
            "paused", PAUSED_NOTICE if self.paused else RECOVERING_REFUSAL, ref))])
        return
    if error is not None:
        log.error("table %s seat %s: practice odds failed (%s)", self.id, seat, error)
        ref = {"type": "odds", "hand": hand_no, "seq": seq}
        text = error_message("odds_failed", f"your odds could not be computed ({error})",
                             ref)
    else:
        text = _dumps({"type": "odds", "hand": hand_no, "seq": seq, "odds": fut.result()})
    self._send_after_commit([(client, text)])


def _check_not_paused(self: LiveTable) -> None:
    """Refuse a change while writes fail (nothing can be saved) or the table rebuilds."""
    if self.paused:
        raise TableError("paused", PAUSED_NOTICE)
    if self._recovering:
        raise TableError("paused", RECOVERING_REFUSAL)


def _check_hand_seq(self: LiveTable, seat: int, msg: ClientMessage, hand_no: int) -> None:
    if msg.hand != hand_no:
        raise TableError("stale", f"hand {msg.hand} is not the hand in progress ({hand_no})")
    opened = self.decision_seq.get(seat)
    if opened is not None and msg.seq is not None and msg.seq < opened:
        raise TableError(
            "stale",
            f"sequence number {msg.seq} is older than your decision (offered at {opened})",
        )
