"""One table in play: seats, the hand in progress, clocks, and its clients.

Everything here runs on the server's one event loop, so a table changes in
one synchronous step at a time: check the message, apply it to the hand,
commit it to the store, then queue the new state to every client.  No
client hears of anything before it is committed.

When a write fails (a full or read-only disk, an I/O error) the table takes
the one way back a restart takes (:meth:`LiveTable._recover`): it stops
play, waits until every write it queued is done (the later ones fail
untried: see :class:`~rollem.server.store.WriteStream`), rebuilds itself
from what is committed -- forgetting whatever was not: the last result, the
final hand, ledger lines -- and, while writes fail, stays *paused*: its
players are told so in plain words (``table.paused`` in the state) and it
retries a small write after :attr:`LiveTable.RETRY_FIRST` seconds, doubling
the wait up to :attr:`LiveTable.RETRY_MAX`.  The first write that succeeds
resumes play where a restart would (finish a hand whose actions are all
committed, open the decisions, deal the next hand).  It logs once when it
pauses and once when it resumes, never per retry.

Timers (R-C-15): every decision has a clock of ``decision_seconds``; when it
runs out the seat's time bank is used; when that is spent too the server
plays the seat's timeout action (check, else fold; see
:meth:`GameSession.timeout_action`).  A disconnected player keeps the seat
for ``grace_seconds``; after that their decisions are timed out at once and
the seat is freed after the hand.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import secrets
import sqlite3
import time
import unicodedata
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import orjson

from rollem.server import host
from rollem.server.completions import loop_future
from rollem.server.config import TableConfig
from rollem.server.game_session import (
    ODDS_SAMPLES,
    ActionRefused,
    GameSession,
    bot_decide,
    new_bot,
    pick_bot_game,
    seat_odds,
    secure_source,
)
from rollem.server.protocol import ClientMessage, error_message
from rollem.server.store import SeatRow, Store, WriteStream, token_digest
from rollem.table import DEALERS_CHOICE, Deal
from rollem.table import Table as SessionTable
from rollem.table import TableError as SessionRefused
from rollem.text import hidden_character, name_key, shown_length

__all__ = ["Client", "LiveTable", "TableError", "clean_name"]

log = logging.getLogger("rollem.server")


def _dumps(obj: object) -> str:
    """Compact JSON text (orjson: several times faster than the standard library,
    which matters at one state per client per action)."""
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()


_BOT_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rollem-bots")
"""Computer players decide here, one at a time, off the event loop."""

_ODDS_THREAD = ThreadPoolExecutor(max_workers=2, thread_name_prefix="rollem-odds")
"""Practice odds are computed here, off the event loop (and apart from the bots)."""

MAX_BACKLOG = 256
"""Messages queued to a client that does not read before it is dropped."""

PAUSED_NOTICE = (
    "Saving to the server's disk has failed, so play is paused. The table carries on "
    "by itself from the last saved moment as soon as saving works again; a move that "
    "was not shown to everybody yet has to be made again."
)
"""What the players of a table whose writes fail are told (``table.paused``)."""

RECOVERING_REFUSAL = "the table is catching up with what is saved; try again in a moment"


def _is_error(text: str) -> bool:
    return text.startswith(('{"type": "error"', '{"type":"error"'))


MAX_NAME = 24
"""Longest player name (characters as shown, after trimming: an emoji sequence
such as 👨‍👩‍👧‍👦 counts one, :func:`rollem.text.shown_length`)."""

MAX_NAME_CODE_POINTS = 4 * MAX_NAME
"""Longest player name in code points (bounds what emoji sequences may add)."""


_BOT_NAME = re.compile(r"^bot(\s*\d+)?(\s*\(.*\))?$", re.IGNORECASE)
"""Names reserved for computer players ("Bot 1 (random)", "bot", "BOT 2")."""

STATE_CACHE_SECONDS = 1.0
"""How long a built state is reused to answer ``sync`` (a flood of syncs costs
a dictionary lookup each, not a full state)."""


def _lease_lost(error: BaseException) -> bool:
    """Whether a write failed because this process no longer holds the table."""
    from rollem.server.leases import LeaseLost

    return isinstance(getattr(error, "cause", error), LeaseLost)


def clean_name(name: object) -> str:
    """A player's name: NFC, trimmed, inner runs of spaces made one, 1 to
    :data:`MAX_NAME` visible characters (an emoji sequence counts one; at most
    :data:`MAX_NAME_CODE_POINTS` code points), no control, format, bidi,
    default-ignorable or blank filler characters (a zero width joiner only
    between two emoji, a variation selector only after what it varies:
    :func:`rollem.text.hidden_character`), not a computer player's name. A
    name is judged as it reads (:func:`rollem.text.name_key`): one of only
    invisible characters (U+FE0F, U+034F, U+3164 ...) is empty, and
    ``Bot`` + U+034F, ``Ｂｏｔ`` and ``𝐁𝐨𝐭`` are ``Bot``.  Raises
    :class:`TableError` (``bad_name``)."""
    if not isinstance(name, str):
        raise TableError("bad_name", f"name must be text of 1 to {MAX_NAME} characters")
    name = unicodedata.normalize("NFC", name)
    reads = " ".join(name_key(name).split())
    if not reads:
        raise TableError("bad_name", f"a name is needed to sit down (1 to {MAX_NAME} characters)")
    if _BOT_NAME.match(reads):
        raise TableError("bad_name", f"{' '.join(name.split())!r} is kept for computer "
                         "players; choose another name")
    hidden = hidden_character(name)
    if hidden is not None:
        raise TableError(
            "bad_name", f"a name may not hold invisible, control or text-direction "
            f"characters ({hidden}); use letters, digits, spaces, punctuation")
    name = " ".join(name.split())
    shown = shown_length(name)
    if shown > MAX_NAME:
        raise TableError("bad_name", f"a name has at most {MAX_NAME} characters, not {shown}")
    if len(name) > MAX_NAME_CODE_POINTS:
        raise TableError("bad_name", f"a name has at most {MAX_NAME_CODE_POINTS} Unicode code "
                         f"points (an emoji sequence has several), not {len(name)}")
    return name


class TableError(ValueError):
    """A request the table refuses (``code``, ``message``); nothing changes."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Client:
    """One websocket connection: a seat (or ``None`` for an onlooker) and its outbox.

    Every state message is complete, so a client that reads slowly only needs
    the newest: a state waiting to be sent is replaced by a newer one (errors
    are never dropped).  A client with :data:`MAX_BACKLOG` messages waiting is
    disconnected.
    """

    def __init__(self, seat: int | None, is_host: bool = False) -> None:
        self.seat = seat
        self.is_host = is_host
        self.host_cookie = is_host  # holds the creator's host cookie (host.client_is_host)
        self._pending: deque[tuple[str, bool]] = deque()
        self._wakeup = asyncio.Event()
        self.closed = False
        self.finishing = False  # send what is queued, then close
        self.odds_busy = False  # a practice-odds request of this client is being computed

    def send(self, text: str) -> None:
        if self.closed:
            return
        is_state = text.startswith('{"type":"state"')
        if is_state and self._pending and self._pending[-1][1]:
            self._pending[-1] = (text, True)
        else:
            self._pending.append((text, is_state))
        if len(self._pending) > MAX_BACKLOG:
            self.close()
            return
        self._wakeup.set()

    def finish(self) -> None:
        """Send what is queued (an error saying why), then close."""
        self.finishing = True
        self._wakeup.set()

    async def next_message(self) -> str | None:
        """The next text to send, or ``None`` once closed (or finished)."""
        while not self._pending:
            if self.closed or self.finishing:
                return None
            self._wakeup.clear()
            await self._wakeup.wait()
        if self.closed:
            return None
        return self._pending.popleft()[0]

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._pending.clear()
            self._wakeup.set()


@dataclass(slots=True)
class Seat:
    row: SeatRow
    clients: set[Client] = field(default_factory=set)
    disconnected_since: float | None = None
    gone: bool = False  # grace period over: time out at once, free after the hand
    bot: Any = None
    """This seat's own computer player (:meth:`LiveTable.computer_player`), made at
    its first decision and dropped with the seat: never shared with another seat
    or table, as a bot reads its opponents by seat number."""
    bot_level: str | None = None
    """The level :attr:`bot` was made for."""

    @property
    def connected(self) -> bool:
        return bool(self.clients) or self.row.bot is not None


AuditHook = Callable[["LiveTable", int | None, str], None]


class LiveTable:
    """A table in memory, mirrored in the store.

    ``session`` (JSON, stored) holds: ``started``, ``hand_no`` (last hand
    dealt), ``in_hand``, ``button``, ``choice`` (a pending dealer's choice:
    ``{"hand", "seat", "games", "players", "digest"}`` -- the chooser's seat token
    digest -- and ``"digests"``, those of ``players``; ``game`` once named
    while the host has paused the table), ``carried`` (chips carried into the next
    hand, R-521-9), ``departed`` (ledger lines of players who left), ``seq``.
    """

    audit: AuditHook | None = None
    """Test hook: called with (table, seat, text) for every message queued to a seat."""

    clock: Callable[[], float] = staticmethod(time.time)
    """Wall-clock seconds (a test may give a virtual clock).  Stored moments
    (``session["at"]``, ``session["away"]``) are on this clock, so grace periods
    and decision clocks count wall time across restarts."""

    bot_factory: Callable[[str], Any] = staticmethod(new_bot)
    """Makes a new computer player of a level (a test may give seeded ones)."""

    RETRY_FIRST: float = 0.5
    """Seconds from a failed write to the first retry (docs/hosting.md)."""
    RETRY_MAX: float = 5.0
    """The longest wait between retries while writes fail (the wait doubles up to it)."""
    STABLE_AFTER: float = 60.0
    """Seconds of play without a failed write before the wait starts again at RETRY_FIRST."""

    def __init__(
        self,
        store: Store,
        table_id: str,
        config: TableConfig,
        session: dict[str, Any],
        host_digest: str,
        seats: list[SeatRow],
    ) -> None:
        self.store = store
        self.id = table_id
        self.config = config
        self.session = session
        self.host_digest = host_digest
        self.seats: dict[int, Seat] = {r.seat: Seat(r) for r in seats}
        self.hand: GameSession | None = None
        self.onlookers: set[Client] = set()
        self.seq: int = int(session.get("seq", 0))
        self.decision_seq: dict[int, int] = {}
        self.decision_opened: dict[int, float] = {}
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._next_hand_timer: asyncio.TimerHandle | None = None
        self._last_key: object = None
        self.last_result: dict[str, Any] | None = session.get("last_result")
        self._outbox: deque[tuple[asyncio.Future[None] | None, list[tuple[Client, str]]]] = (
            deque()
        )
        self._pending_commit: asyncio.Future[None] | None = None
        self.final_hand: GameSession | None = None
        self.closed = False
        self._stream: WriteStream = store.stream(table_id)
        self.paused = False  # writes fail: play waits until a retry succeeds
        self._recovering = False  # a write failed: waiting to rebuild from the store
        self._backoff = self.RETRY_FIRST
        self._resumed_at = -float("inf")  # time.monotonic() of the last resume
        self._retry_timer: asyncio.TimerHandle | None = None
        self._untold = False  # states were held back while rebuilding: send after it
        self._dirty = False  # memory changed while paused (not written): rebuild first
        self.idle_since = self.clock()  # nobody connected since (see TableManager)
        self._state_cache: dict[tuple[int | None, bool], str] = {}
        self._state_cache_at = 0.0
        self.on_lease_lost: Callable[[LiveTable, BaseException], None] | None = None
        """Called when a write is refused because another process took the table over
        (:class:`rollem.server.leases.LeaseLost`): the manager drops the table."""
        self._config_json: tuple[TableConfig, dict[str, Any]] | None = None

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
            row.host_digest, store.load_seats(table_id),
        )  # fmt: skip
        if table.session.get("in_hand"):
            hand_row = store.load_hand(table_id, table.session["hand_no"])
            if hand_row is not None and hand_row.result is None:
                actions = store.load_actions(table_id, hand_row.hand_no)
                table.hand = GameSession.restore(hand_row.hand_no, hand_row.setup, actions)
        elif table.last_result is not None:
            # Between hands: the last finished hand stays on the felt.
            hand_row = store.load_hand(table_id, int(table.last_result["hand"]))
            if hand_row is not None and hand_row.result is not None:
                actions = store.load_actions(table_id, hand_row.hand_no)
                table.final_hand = GameSession.restore(hand_row.hand_no, hand_row.setup, actions)
        return table

    def resume(self) -> None:
        """Restart clocks, computer players and the next deal after a restore.

        Every player starts disconnected: each keeps the seat for the grace
        period, as after any lost connection.
        """
        now = self.clock()
        loop = asyncio.get_running_loop()
        away = self.session.get("away") or {}
        for number, seat in self.seats.items():
            if seat.row.bot is None and not seat.clients:
                # Away since the stored moment (or since now, if it was connected).
                since = min(now, float(away.get(str(number), now)))
                seat.disconnected_since = since
                loop.call_later(max(0.0, since + self.config.grace_seconds - now),
                                self._grace_over, number, seat, since)
        # The open decision's clock counts from when it opened (stored), not from now.
        at = self.session.get("opened_at", self.session.get("at"))
        self._continue_play(opened=min(now, float(at)) if at is not None else None)

    def _continue_play(self, opened: float | None = None) -> None:
        """Go on from what is committed, as after a restart: finish a hand whose
        actions are all committed, open the decisions (``opened``: when they were
        offered, see :meth:`_refresh_decisions`), or deal the next hand."""
        if self.hand is not None and self.hand.over:
            # Committed actions finished the hand but the result was not; finish now.
            self._finish_hand()
            return
        self._refresh_decisions(opened=opened)
        if self.hand is None and self.session.get("started") and not self.open_choice():
            self._schedule_next_hand(self.config.between_hands)

    def _stop_timers(self) -> None:
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        self.decision_seq.clear()
        self.decision_opened.clear()
        for timer in (self._next_hand_timer, self._retry_timer):
            if timer is not None:
                timer.cancel()
        self._next_hand_timer = self._retry_timer = None

    def shutdown(self) -> None:
        self.closed = True
        self._stop_timers()
        for client in self.all_clients():
            client.close()

    # -- seats and clients --------------------------------------------------

    def seat_for_token(self, token: str | None) -> int | None:
        if not token:
            return None
        digest = token_digest(token)
        for number, seat in self.seats.items():
            if seat.row.token_digest is not None and secrets.compare_digest(
                seat.row.token_digest, digest
            ):
                return number
        return None

    def seat_in_hand(self, token: str | None, hand_no: int, seats: list[int]) -> int | None:
        """The seat the holder of seat cookie ``token`` played in past hand ``hand_no``
        (dealt to ``seats``), or ``None``: their seat now if they sat down before that
        deal, else a seat they held then and have left since (``session["stints"]``).
        A later occupant of the seat never gets a predecessor's hands."""
        if not token:
            return None
        now = self.seat_for_token(token)
        if now is not None and self.seats[now].row.joined_hand < hand_no:
            return now if now in seats else None
        digest = token_digest(token)
        for stint in self.session.get("stints", []):
            if (stint["first"] <= hand_no <= stint["last"] and stint["seat"] in seats
                    and secrets.compare_digest(str(stint["digest"]), digest)):
                return int(stint["seat"])
        return None

    def is_host(self, host_token: str | None) -> bool:
        return bool(host_token) and secrets.compare_digest(
            self.host_digest, token_digest(host_token or "")
        )

    def free_seats(self) -> list[int]:
        return [s for s in range(self.config.seats) if s not in self.seats]

    def join(self, name: object, seat: int | None,
             returning: str | None = None) -> tuple[int, str]:
        """Sit a player (no account, just a name); returns the seat and its token.

        Buy-ins follow the person: a player who left (their old seat token in
        ``returning``; their name is theirs alone) sits down again with the
        stack they left with and the chips they had brought, and their ledger
        line is theirs again (one line per person); with no chips they may
        rebuy if the host allows rebuys, else they watch.

        Raises :class:`TableError`: ``bad_name`` (see :func:`clean_name`; or a
        name already at the table or of a player who left, as the names
        read: NFKC, ignoring case and invisible characters
        (:func:`rollem.text.name_key`),
        without that player's seat token), ``bad_seat``,
        ``table_full``, ``seat_taken``.
        """
        self._check_not_paused()
        name = clean_name(name)
        folded = name_key(name)
        for other in self.seats.values():
            if name_key(other.row.name) == folded:
                raise TableError("bad_name", f"{other.row.name!r} already sits at this table; "
                                 "choose another name")
        if seat is not None and not 0 <= seat < self.config.seats:
            last = self.config.seats - 1
            raise TableError("bad_seat", f"no such seat {seat}: seats are 0..{last}")
        free = self.free_seats()
        if not free:
            raise TableError("table_full", "every seat is taken; you can watch")
        if seat is None:
            seat = free[0]
        if seat not in free:
            raise TableError(
                "seat_taken", f"seat {seat} is not free; free seats: {', '.join(map(str, free))}"
            )
        token = secrets.token_urlsafe(24)
        stack = brought = self.config.stack
        departed: list[dict[str, Any]] = self.session.setdefault("departed", [])
        old_digest = token_digest(returning) if returning else None
        back = next((i for i, line in enumerate(departed)
                     if old_digest is not None and line.get("digest") == old_digest), None)
        if back is None and any(name_key(str(line["name"])) == folded for line in departed):
            # The name is a person on the ledger; only their own browser (the old seat
            # cookie) may take back their chips, so a stranger cannot claim them.
            raise TableError("bad_name", f"{name!r} left this table earlier; they can sit "
                             "down again from the same browser, or choose another name")
        if back is not None:
            line = departed.pop(back)
            stack, brought = int(line["stack"]), int(line["brought"])
            for stint in self.session.get("stints", []):  # their hands follow the new cookie
                if stint["digest"] == old_digest:
                    stint["digest"] = token_digest(token)
        row = SeatRow(
            seat=seat, name=name, token_digest=token_digest(token), bot=None,
            stack=stack, brought=brought,
            bank=self.config.time_bank_seconds, joined_hand=int(self.session["hand_no"]),
        )  # fmt: skip
        self._commit(seats=[row], session=back is not None)
        self.seats[seat] = Seat(row)
        self.broadcast()
        if self.session.get("started") and self.hand is None:
            self._schedule_next_hand(0.2)
        return seat, token

    def connect(self, client: Client) -> None:
        if client.seat is not None and client.seat in self.seats:
            seat = self.seats[client.seat]
            seat.clients.add(client)
            seat.disconnected_since = None
            seat.gone = False
            if self.session.get("away", {}).pop(str(client.seat), None) is not None:
                self._commit(session=True)
        else:
            client.seat = None
            self.onlookers.add(client)
        client.is_host = host.client_is_host(self, client)
        if client.seat is None and not client.is_host:
            # Nobody else sees an onlooker come (or go): only they get the state, so
            # many watchers joining cost one state each, not a state to everyone each.
            self._send_after_commit([(client, self.state_text(None))])
        else:
            self.broadcast()
        if host.chat_log(self).lines:
            self._send_after_commit([(client, host.chat_history_text(self))])

    def disconnect(self, client: Client) -> None:
        client.close()
        self.onlookers.discard(client)
        if not self.all_clients() or self.all_clients() == [client]:
            self.idle_since = self.clock()
        if client.seat is not None and client.seat in self.seats:
            seat = self.seats[client.seat]
            seat.clients.discard(client)
            if not seat.clients and seat.row.bot is None:
                since = seat.disconnected_since = self.clock()
                asyncio.get_running_loop().call_later(
                    self.config.grace_seconds, self._grace_over, client.seat, seat, since
                )
                if not self.closed:  # stored: the grace counts on across a restart
                    self.session.setdefault("away", {})[str(client.seat)] = since
                    self._commit(session=True)
        if not self.closed and (client.seat is not None or client.is_host):
            self.broadcast()

    def _grace_over(self, number: int, seat: Seat, since: float) -> None:
        if (self.closed or self.seats.get(number) is not seat or seat.clients
                or seat.disconnected_since != since):
            return  # back in time, or away again since (a later timer decides)
        if self.paused or self._recovering:  # freeing the seat is a write: after the pause
            asyncio.get_running_loop().call_later(
                self.RETRY_MAX, self._grace_over, number, seat, since
            )
            return
        seat.gone = True
        if self.hand is None or number not in self.hand.seats:
            self._free_seat(number)  # (a pending dealer's choice of the seat lapses)
            self.broadcast()
        else:
            # Decisions of a gone seat time out at once (R-C-15).
            if number in self.decision_seq:
                self._timeout(number, self.decision_seq[number])

    def release_seat(self, number: int) -> Seat:
        """Take ``number`` out of :attr:`seats`; its open connections become onlookers.

        Whoever sits there next must not inherit them: a connection left holding the
        seat number would see the next occupant's hole cards and act for them.
        """
        seat = self.seats.pop(number)
        seat.bot = None  # a later occupant of the seat gets a new computer player
        self._new_opponent(number)
        for client in seat.clients:
            client.seat = None
            client.is_host = host.client_is_host(self, client)
            self.onlookers.add(client)
        seat.clients.clear()
        return seat

    def computer_player(self, number: int) -> Any:
        """Seat ``number``'s own computer player, of the seat's level (made when
        first asked for; ``None`` when the engine has no bot of that level, see
        :func:`~rollem.server.game_session.bot_decide`).  Only the bot thread
        uses it, one decision at a time.

        Raises:
            KeyError: if nobody sits at ``number``.
        """
        seat = self.seats[number]
        level = seat.row.bot or "random"
        if seat.bot is None or seat.bot_level != level:
            seat.bot, seat.bot_level = self.bot_factory(level), level
        return seat.bot

    def _new_opponent(self, number: int) -> None:
        """Tell the computer players here that whoever sits at ``number`` next is
        someone else (a ``strong`` bot forgets its reads of that seat).  In the bot
        thread, where their reads are kept, after any decision already asked for."""
        for seat in self.seats.values():
            forget = getattr(seat.bot, "new_opponent", None)
            if forget is not None:
                _BOT_THREAD.submit(forget, number)

    def _seat_of(self, client: Client) -> int | None:
        """The seat ``client`` plays, or ``None``: a connection counts only while its
        seat still holds it (see :meth:`release_seat`)."""
        seat = self.seats.get(client.seat) if client.seat is not None else None
        if seat is None or client not in seat.clients:
            return None
        return client.seat

    def _free_seat(self, number: int) -> None:
        seat = self.release_seat(number)
        self.session.get("away", {}).pop(str(number), None)
        host.seat_freed(self, number)
        line = self._ledger_line(number, seat, left=True)
        if seat.row.token_digest is not None:
            line["digest"] = seat.row.token_digest  # to know them when they come back
            # ... and to let them replay and download the hands they played here.
            first, last = seat.row.joined_hand + 1, int(self.session["hand_no"])
            if first <= last:
                self.session.setdefault("stints", []).append(
                    {"digest": seat.row.token_digest, "seat": number, "first": first,
                     "last": last})
        self.session["departed"].append(line)
        self._commit(remove_seats=[number], session=True)
        self.choice_lapses(number)

    def chooser(self) -> int | None:
        """The seat naming the game of the pending dealer's choice (R-C-12), while
        the player it was offered to still sits there and plays: whoever takes the
        seat later inherits nothing.  ``None`` when no choice is open."""
        choice = self.open_choice()
        if choice is None:
            return None
        number = int(choice["seat"])
        seat = self.seats.get(number)
        if (seat is None or seat.gone
                or seat.row.token_digest != choice.get("digest", seat.row.token_digest)):
            return None
        return number

    def open_choice(self) -> dict[str, Any] | None:
        """The pending dealer's choice while its game is still to be named (once
        named during the host's pause, the deal waits for resume: ``game``)."""
        choice: dict[str, Any] | None = self.session.get("choice")
        return choice if choice and "game" not in choice else None

    def public_choice(self) -> dict[str, Any] | None:
        """The pending dealer's choice as every player sees it: ``hand``, ``seat``,
        ``games``, ``players`` (never the chooser's token digest)."""
        choice = self.session.get("choice")
        if not choice:
            return None
        return {k: v for k, v in choice.items() if k not in ("digest", "digests", "used")}

    def choice_lapses(self, number: int) -> bool:
        """Seat ``number`` was freed, removed or sat out: if it was naming the game
        of the pending dealer's choice, its decision times out at once (R-C-15)
        -- a game is picked at random, as when its clock runs out, and the
        button moves on to the next seat dealt in (R-C-12; the seat is not dealt
        in).  Returns whether it lapsed."""
        choice = self.open_choice()
        if choice is None or int(choice["seat"]) != number or self.hand is not None:
            return False
        self._choose(pick_bot_game(choice["games"]))
        return True

    def hold_choice_clock(self) -> None:
        """The host has paused the table (``session["host_paused"]`` set): the
        button's clock for naming the game stops (R-C-15), its time used so far
        kept in the stored choice (``used``, seconds) for
        :meth:`release_choice_clock`.  The button may still name the game."""
        choice = self.open_choice()
        if choice is None:
            return
        opened = self.decision_opened.get(int(choice["seat"]))
        if opened is not None:  # (none when already held)
            choice["used"] = max(0.0, self.clock() - opened)
        self._refresh_decisions()  # closes it

    def release_choice_clock(self) -> None:
        """The host has resumed the table (``host_paused`` cleared): the button's
        clock for naming the game goes on with the time it had left when the pause
        stopped it (a pause neither costs nor gives the button time: pausing
        twice is no way to a fresh clock) (R-C-15)."""
        choice = self.open_choice()
        if choice is None or int(choice["seat"]) in self.decision_seq:
            return
        opened = self.clock() - float(choice.pop("used", 0.0))
        self.session["opened_at"] = opened  # (a restart counts from it too)
        self._refresh_decisions(opened=opened)

    def all_clients(self) -> list[Client]:
        out = list(self.onlookers)
        for seat in self.seats.values():
            out.extend(seat.clients)
        return out

    # -- messages ----------------------------------------------------------

    def handle(self, client: Client, msg: ClientMessage) -> None:
        """Apply one checked client message, or send that client an error."""
        try:
            self._handle(client, msg)
        except (TableError, ActionRefused) as err:
            ref = {"type": msg.type, "hand": msg.hand, "seq": msg.seq}
            self._send_after_commit([(client, error_message(err.code, err.message, ref))])

    def _handle(self, client: Client, msg: ClientMessage) -> None:
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
        if msg.type in ("host", "sit_out", "show", "chat"):
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

    def _odds(self, client: Client, msg: ClientMessage) -> None:
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
        fut = asyncio.get_running_loop().run_in_executor(
            _ODDS_THREAD, seat_odds, view, ODDS_SAMPLES, self.hand.hand.game)
        fut.add_done_callback(lambda f: self._odds_done(client, seat, hand_no, seq, f))

    def _odds_done(
        self, client: Client, seat: int, hand_no: int, seq: int, fut: asyncio.Future[Any]
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

    def _check_not_paused(self) -> None:
        """Refuse a change while writes fail (nothing can be saved) or the table rebuilds."""
        if self.paused:
            raise TableError("paused", PAUSED_NOTICE)
        if self._recovering:
            raise TableError("paused", RECOVERING_REFUSAL)

    def _check_hand_seq(self, seat: int, msg: ClientMessage, hand_no: int) -> None:
        if msg.hand != hand_no:
            raise TableError("stale", f"hand {msg.hand} is not the hand in progress ({hand_no})")
        opened = self.decision_seq.get(seat)
        if opened is not None and msg.seq is not None and msg.seq < opened:
            raise TableError(
                "stale",
                f"sequence number {msg.seq} is older than your decision (offered at {opened})",
            )

    # -- play -----------------------------------------------------------------

    def _act(self, seat: int, action: dict[str, Any], source: str) -> None:
        assert self.hand is not None
        hand = self.hand
        try:
            applied = hand.apply(seat, action)  # raises ActionRefused, changes nothing
        except ActionRefused:
            raise
        except Exception as err:  # an engine fault: the hand may be half-changed
            log.exception("table %s hand %s: applying %r failed", self.id, hand.hand_no, action)
            self._recover(err, saving=False)
            raise TableError(
                "server_error", f"the server could not apply that action ({err})"
            ) from err
        self._close_decision(seat)
        row = self.seats[seat].row if seat in self.seats else None
        if row is not None:
            self._settle_bank(seat)
        self._bump_seq()
        self._write(
            session=self.session,
            seats=[row] if row is not None else [],
            action=(hand.hand_no, applied.index, seat, applied.record, source, applied.events),
        )
        if hand.over:
            self._finish_hand()
            return
        self._refresh_decisions()
        self.broadcast()

    def _settle_bank(self, seat: int) -> None:
        opened = self.decision_opened.get(seat)
        row = self.seats[seat].row
        if opened is None or row.bot is not None:
            return
        used = self.clock() - opened - self.config.decision_seconds
        if used > 0:
            row.bank = max(0.0, row.bank - used)

    def _bump_seq(self) -> None:
        """A new table sequence number; ``session["at"]`` stores when (decision clocks
        opened by this change count from it, across restarts)."""
        self.seq += 1
        self.session["seq"] = self.seq
        self.session["at"] = self.clock()
        if self._decision_key() != self._last_key:
            # A new decision opens with this change: its clock counts from now, also
            # for the seats of an all-at-once decision still choosing after others.
            self.session["opened_at"] = self.session["at"]

    def _decision_key(self) -> object:
        """What identifies the open decision (see :meth:`_refresh_decisions`)."""
        if self.hand is not None and not self.hand.over:
            return self.hand.decision_key()
        if self.open_choice():
            return ("choice", self.session["choice"]["hand"])
        return None

    def _refresh_decisions(self, opened: float | None = None) -> None:
        """Open clocks for seats that now have a decision, close the others
        (``opened``: when the decision was offered, if earlier than now)."""
        pending: list[int] = []
        key = self._decision_key()
        if self.hand is not None and not self.hand.over:
            pending = self.hand.pending_seats()
        elif self.open_choice() and not self.session.get("host_paused"):
            # (no clock while the host has paused the table: hold_choice_clock)
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

    def _close_decision(self, seat: int) -> None:
        self.decision_seq.pop(seat, None)
        self.decision_opened.pop(seat, None)
        handle = self._timers.pop(seat, None)
        if handle is not None:
            handle.cancel()

    def _arm(self, seat: int) -> None:
        loop = asyncio.get_running_loop()
        opened_seq = self.decision_seq[seat]
        info = self.seats.get(seat)
        if info is None or info.gone:
            # A gone seat's decisions time out at once (R-C-15), a computer
            # player's too once the host has removed it: it no longer plays.
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

    def _still_pending(self, seat: int, opened_seq: int) -> bool:
        return (not self.closed and not self.paused and not self._recovering
                and self.decision_seq.get(seat) == opened_seq)

    def _bot_turn(self, seat: int, opened_seq: int) -> None:
        if not self._still_pending(seat, opened_seq):
            return
        if self.session.get("choice"):
            self._choose(pick_bot_game(self.session["choice"]["games"]))
            return
        assert self.hand is not None
        bot = self.computer_player(seat)
        # A computer player thinks in the bot thread (a strong one may take a
        # while), never on the event loop that serves every table.
        view = self.hand.bot_view(seat)
        fut = asyncio.get_running_loop().run_in_executor(_BOT_THREAD, bot_decide, view, bot,
                                                         self.hand.hand.game)
        fut.add_done_callback(lambda f: self._bot_decided(seat, opened_seq, f))

    def _bot_decided(self, seat: int, opened_seq: int, fut: asyncio.Future[Any]) -> None:
        if not self._still_pending(seat, opened_seq) or self.hand is None or fut.cancelled():
            return
        error = fut.exception()
        if error is None:
            try:
                self._act(seat, fut.result(), "bot")
                return
            except (TableError, ActionRefused) as err:
                error = err
        log.error("table %s seat %s: computer player failed (%s); timing out", self.id,
                  seat, error)
        self._act_safely(seat, self.hand.timeout_action(seat), "timeout")

    def _act_safely(self, seat: int, action: dict[str, Any], source: str) -> None:
        try:
            self._act(seat, action, source)
        except (TableError, ActionRefused) as err:
            log.error("table %s seat %s: %s action refused: %s", self.id, seat, source, err)

    def _timeout(self, seat: int, opened_seq: int) -> None:
        if not self._still_pending(seat, opened_seq):
            return
        if seat in self.seats:
            self.seats[seat].row.bank = 0.0
        if self.session.get("choice"):
            self._choose(pick_bot_game(self.session["choice"]["games"]))
            return
        assert self.hand is not None
        action = self.hand.timeout_action(seat)
        host.note_timeout(self, seat, action)
        self._act_safely(seat, action, "timeout")

    # -- hands ------------------------------------------------------------------

    def _schedule_next_hand(self, delay: float) -> None:
        if self._next_hand_timer is not None:
            self._next_hand_timer.cancel()
        self._next_hand_timer = asyncio.get_running_loop().call_later(
            delay, self._maybe_start_hand
        )

    def _waiting_for(self, table: SessionTable) -> str | None:
        """Why the session ``table`` cannot deal its next hand, in words for the
        felt; ``None`` when it can: its reasons (R-C-12:
        :meth:`~rollem.table.Table.why_no_deal`), and this table's own -- computer
        players do not play on alone here."""
        refusal = table.why_no_deal()
        if refusal is not None and refusal.code == "no_players":
            return ("Waiting for players: the next hand needs at least two with chips "
                    "who are not sitting out.")
        players = table.dealt_in()
        if all(self.seats[s].row.bot is not None for s in players):
            # (computer players do not play on alone: the table waits for people)
            return "Waiting for a person: computer players do not play alone."
        if refusal is not None:
            return (f"Waiting: no game of this table deals {len(players)} players; "
                    "one must leave or sit out.")
        return None

    def waiting_for(self) -> str | None:
        """Why a started table deals no hand now, or ``None`` (a hand is on, the button
        is naming the game, the host paused it, or the next deal is coming)."""
        if (not self.session.get("started") or self.hand is not None
                or self.session.get("choice") or self.session.get("host_paused")):
            return None
        table = self.session_table()  # (a copy: the rebuys below are only counted)
        table.rebuy_broke()
        return self._waiting_for(table)

    def session_table(self, out: set[int] | None = None) -> SessionTable:
        """This table's session as a :class:`rollem.table.Table`, the one model of
        its rules (R-C-12): who is dealt in, the button, the games that fit, rebuys
        (computer players rebuy by themselves, people ask) and carried chips.

        Built from what is stored (the seats' rows: stacks and chips brought; the
        session: the last button, the chips carried), so a restored table decides
        exactly as before; what it changes is written back by the caller.

        Args:
            out: seats not dealt in (default: free seats, and seats leaving,
                sitting out or waiting for the host's approval).  The button
                goes to the seat after the last hand's button, or the next one
                dealt in.
        """
        config = self.config
        n = config.seats
        rows = {number: seat.row for number, seat in self.seats.items()}
        if out is None:
            out = {s for s in range(n) if s not in rows or self.seats[s].gone
                   or host.skip_deal(self, s)}
        last = self.session.get("button")
        button = 0 if last is None else int(last) + 1
        table = SessionTable(
            [rows[s].stack if s in rows else 0 for s in range(n)],
            game=(DEALERS_CHOICE if config.game == DEALERS_CHOICE
                  else config.game_of(config.game)),
            games=[config.game_of(g) for g in config.choices],
            options=GameSession.options_for(config),
            button=button,
            rebuy=config.stack if config.rebuys else None,
            auto_rebuy=lambda s: s in rows and rows[s].bot is not None,
            out=out,
            brought=[rows[s].brought if s in rows else 0 for s in range(n)],
            carry=int(self.session.get("carried", 0)),
            by_id=False,  # the host's order
        )
        if self.hand is not None:
            table.hand = self.hand.hand
        return table

    def dealt_in(self) -> list[int]:
        """Seats to deal the next hand: chips, not leaving (R-C-12)."""
        return self.session_table().dealt_in()

    def _maybe_start_hand(self) -> None:
        self._next_hand_timer = None
        if (self.closed or self.paused or self._recovering or not self.session.get("started")
                or self.hand is not None):
            return
        choice = self.session.get("choice")
        if choice:
            if "game" in choice and not self.session.get("host_paused"):
                self._choose(choice["game"])  # named during the pause: deal it now
            return
        if self.session.get("host_paused"):
            self.broadcast()
            return
        host.apply_pending_config(self)
        table = self.session_table()
        rebought = table.rebuy_broke()  # computer players with no chips
        if rebought:
            for number in rebought:
                row = self.seats[number].row
                row.stack, row.brought = table.stacks[number], table.brought[number]
            self._commit(seats=[self.seats[number].row for number in rebought])
        if self._waiting_for(table) is not None:
            self.broadcast()  # (the table's state says what it waits for)
            return
        deal = table.next_deal()
        players = list(deal.players)
        button = deal.button
        self.session["button"] = button
        hand_no = int(self.session["hand_no"]) + 1
        game = self.config.game
        if game == DEALERS_CHOICE:
            games = [g.id for g in deal.games]
            if len(games) == 1:
                game = games[0]
            elif self.seats[button].row.bot is not None:
                game = pick_bot_game(games)
            else:
                self.session["choice"] = {
                    "hand": hand_no, "seat": button, "games": games, "players": players,
                    # who was offered it: a later occupant of the seat is not
                    "digest": self.seats[button].row.token_digest,
                    # who it was offered for (R-C-12: the games fit them): whoever
                    # sits in one of their seats later waits for the next hand
                    "digests": [self.seats[s].row.token_digest for s in players],
                }  # fmt: skip
                self._bump_seq()
                self._commit(session=True)
                self._refresh_decisions()
                self.broadcast()
                return
        self._deal(hand_no, game, table, deal)

    def _choose(self, game: str) -> None:
        """Deal the hand of the pending dealer's choice as ``game`` (R-C-12).

        Only the players the choice was offered for are dealt in (the games
        offered fit that many): seats that left or sat out since are not, and
        a newcomer who sat down meanwhile -- in a free seat or in the seat of
        one who left -- waits for the next hand, as one who sits down during a
        hand.  If the button itself left or sat out, the button moves to the
        next seat dealt in.  With
        fewer than two players left, the choice lapses and the table deals
        again when it can.  While the host has paused the table the game is
        kept (``choice["game"]``) and dealt at resume.
        """
        choice = self.session["choice"]
        if self.session.get("host_paused"):
            choice["game"] = game
            self._bump_seq()
            self._commit(session=True)
            self._refresh_decisions()
            self.broadcast()
            return
        self.session["choice"] = None
        # The session deals the players it was offered for, less those that left or
        # sat out since; the button moves on if it left (Table.deal).
        offered = Deal(int(choice["seat"]), tuple(int(p) for p in choice["players"]),
                       tuple(self.config.game_of(g) for g in choice["games"]))
        table = self.session_table(
            out={s for s in range(self.config.seats) if s not in self.seats
                 or self._taken_since(choice, s) or self.seats[s].gone
                 or host.skip_deal(self, s)})
        if len(table.still_dealt_in(offered)) < 2:
            self._bump_seq()
            self._commit(session=True)
            self._refresh_decisions()
            self.broadcast()
            self._schedule_next_hand(self.config.between_hands)
            return
        self._deal(int(choice["hand"]), game, table, offered)

    def _taken_since(self, choice: dict[str, Any], seat: int) -> bool:
        """Whether ``seat``, one of the players ``choice`` was offered for, is held
        by someone else now: a newcomer who took the seat of one who left (a
        choice stored without the players' digests knows only the seats)."""
        players = [int(p) for p in choice["players"]]
        digests = choice.get("digests")
        if seat not in players or digests is None:
            return False
        return bool(self.seats[seat].row.token_digest != digests[players.index(seat)])

    def _deal(self, hand_no: int, game: str, table: SessionTable, deal: Deal) -> None:
        """Deal hand ``hand_no`` as ``game`` through the session ``table`` (R-C-12:
        its seats dealt in, button, carried chips) with a secure shuffle (R-C-13)."""
        try:
            source = secure_source()
            dealt = table.deal(deal, self.config.game_of(game), source=source)
            hand = GameSession.of_hand(hand_no, dealt, table.still_dealt_in(deal), source,
                                       GameSession.options_for(self.config),
                                       names=self.names())
        except Exception:  # the engine refused the deal: say so, try again later
            log.exception("table %s: cannot deal hand %s of %s", self.id, hand_no, game)
            self.session["choice"] = None
            self._bump_seq()
            self._commit(session=True)
            self._refresh_decisions()
            self.broadcast()
            self._schedule_next_hand(max(1.0, self.config.between_hands))
            return
        self.hand = hand
        self.session.update(hand_no=hand_no, in_hand=True, button=table.button,
                            carried=table.carry)
        self._bump_seq()
        self._write(session=self.session, new_hand=(hand_no, hand.setup))
        if hand.over:
            self._finish_hand()
            return
        self._refresh_decisions()
        self.broadcast()

    def _finish_hand(self) -> None:
        hand = self.hand
        assert hand is not None and hand.over
        result = hand.result()
        table = self.session_table()
        table.settle(hand.hand)  # stacks of the seats dealt in, carried chips
        changed = []
        for number in hand.seats:
            if number in self.seats:
                self.seats[number].row.stack = table.stacks[number]
                changed.append(self.seats[number].row)
        self.session.update(in_hand=False, carried=table.carry)
        self.last_result = {"hand": hand.hand_no, "game": hand.game, **result}
        self.session["last_result"] = self.last_result
        self._bump_seq()
        self._write(session=self.session, seats=changed, hand_result=(hand.hand_no, result))
        self.hand = None
        self.final_hand = hand
        for number in [n for n, s in self.seats.items() if s.gone]:
            self._free_seat(number)
        self._refresh_decisions()
        self.broadcast()
        self._schedule_next_hand(self.config.between_hands)

    def _rebuy(self, seat: int) -> None:
        row = self.seats[seat].row
        table = self.session_table()
        try:
            table.rebuy_seat(seat)  # R-C-12: the host may allow rebuys
        except SessionRefused as err:
            raise TableError(err.code, str(err)) from None
        row.stack, row.brought = table.stacks[seat], table.brought[seat]
        self._bump_seq()
        self._commit(seats=[row], session=True)
        self.broadcast()
        if self.session.get("started") and self.hand is None:
            self._schedule_next_hand(0.2)

    def _commit(
        self, *, seats: list[SeatRow] = (), remove_seats: list[int] = (),  # type: ignore[assignment]
        session: bool = False,
    ) -> None:
        self._write(
            seats=list(seats), remove_seats=list(remove_seats),
            session=self.session if session else None,
        )  # fmt: skip

    # -- what clients see --------------------------------------------------------

    def _ledger_line(self, number: int, seat: Seat, left: bool = False) -> dict[str, Any]:
        row = seat.row
        return {
            "seat": number, "name": row.name, "brought": row.brought,
            "stack": row.stack, "net": row.stack - row.brought, "left": left,
        }  # fmt: skip

    def table_public(self) -> dict[str, Any]:
        now = self.clock()
        seats: list[dict[str, Any]] = []
        for number in range(self.config.seats):
            seat = self.seats.get(number)
            if seat is None:
                seats.append({"seat": number, "free": True})
                continue
            deadline = None
            if number in self.decision_opened and seat.row.bot is None:
                deadline = self.decision_opened[number] + self.config.decision_seconds
            seats.append({
                "seat": number, "free": False, "name": seat.row.name, "bot": seat.row.bot,
                "stack": seat.row.stack, "connected": seat.connected,
                "away": seat.disconnected_since is not None, "bank": round(seat.row.bank, 1),
                "deadline": deadline, "acting": number in self.decision_seq,
            })  # fmt: skip
        ledger = [self._ledger_line(n, s) for n, s in sorted(self.seats.items())]
        ledger += [{k: v for k, v in line.items() if k != "digest"}
                   for line in self.session.get("departed", [])]
        return {
            "id": self.id,
            "name": self.config.name,
            **self._config_public(),
            "seats": seats,
            "button": self.session.get("button"),
            "hand_no": self.session.get("hand_no"),
            "started": bool(self.session.get("started")),
            "choice": self.public_choice(),
            "last_result": self.last_result,
            "ledger": ledger,
            "paused": PAUSED_NOTICE if self.paused else None,
            "waiting_for": self.waiting_for(),
            "now": now,
            **host.public(self),
        }

    def _config_public(self) -> dict[str, Any]:
        """The configuration's part of :meth:`table_public` (``config``, ``game_names``,
        ``forced_bets``, ``max_seats``), kept until the configuration is replaced (by the host)."""
        cached = self._config_json
        if cached is None or cached[0] is not self.config:
            cached = self._config_json = (self.config, {
                "config": self.config.public_dict(),
                "game_names": self.config.game_names(),
                "forced_bets": self.config.forced_bets(),
                "max_seats": self.config.max_seats(),
            })
        return cached[1]

    def dealt_in_hand(self, seat: int | None, hand: GameSession | None) -> bool:
        """Whether the *current occupant* of ``seat`` was dealt into ``hand``.

        A seat's occupant sees only hands it was dealt into: a player who sat
        down after the deal (in a seat a departed player left) sees that hand
        as a watcher does (DESIGN.md, views; issue 13).
        """
        if seat is None or hand is None or seat not in hand.seats:
            return False
        info = self.seats.get(seat)
        return info is not None and info.row.joined_hand < hand.hand_no

    def hand_viewer(self, seat: int | None, hand: GameSession | None) -> int | None:
        """The seat whose eyes ``seat``'s occupant sees ``hand`` with: its own if it
        was dealt in (:meth:`dealt_in_hand`), else ``None`` (a watcher's view)."""
        return seat if self.dealt_in_hand(seat, hand) else None

    def state(self, seat: int | None, is_host: bool = False) -> dict[str, Any]:
        """The full state ``seat`` may see (``None`` = an onlooker)."""
        hand = None
        shown = self.hand or self.final_hand
        if shown is not None:
            hand = shown.view(self.hand_viewer(seat, shown))
        return {
            "type": "state",
            "seq": self.seq,
            "table": self.table_public(),
            "you": {
                "seat": seat,
                "host": is_host,
                "decision_seq": self.decision_seq.get(seat) if seat is not None else None,
                "choose_game": seat is not None and seat == self.chooser(),
            },
            "hand": hand,
        }

    def state_text(
        self, seat: int | None, is_host: bool = False, table_json: str | None = None
    ) -> str:
        """:meth:`state` as JSON text (``table_json``: the table part, if already built)."""
        if table_json is None:
            table_json = _dumps(self.table_public())
        shown = self.hand or self.final_hand
        hand_json = (shown.view_json(self.hand_viewer(seat, shown),
                                     shown.player_names(self.names()))
                     if shown is not None else "null")
        you = {
            "seat": seat,
            "host": is_host,
            "decision_seq": self.decision_seq.get(seat) if seat is not None else None,
            "choose_game": seat is not None and seat == self.chooser(),
        }
        text = (f'{{"type":"state","seq":{self.seq},"table":{table_json},'
                f'"you":{_dumps(you)},"hand":{hand_json}}}')
        if LiveTable.audit is not None:
            LiveTable.audit(self, seat, text)
        return text

    def cached_state_text(self, seat: int | None, is_host: bool = False) -> str:
        """:meth:`state_text`, reused for :data:`STATE_CACHE_SECONDS` or until the
        next broadcast (what a ``sync`` answers)."""
        key = (seat, is_host)
        now = self.clock()
        if now - self._state_cache_at > STATE_CACHE_SECONDS:
            self._state_cache = {}
            self._state_cache_at = now
        text = self._state_cache.get(key)
        if text is None:
            text = self._state_cache[key] = self.state_text(seat, is_host)
        return text

    def names(self) -> list[str]:
        """One name per seat (``seat N`` for a free seat), for narration."""
        return [self.seats[n].row.name if n in self.seats else f"seat {n}"
                for n in range(self.config.seats)]

    def broadcast(self) -> None:
        """Send the new state to every client, once the change is committed."""
        clients = self.all_clients()
        if not clients:
            return
        table_json = _dumps(self.table_public())
        cache: dict[tuple[int | None, bool], str] = {}
        sends = []
        for client in clients:
            key = (client.seat, client.is_host)
            if key not in cache:
                cache[key] = self.state_text(client.seat, client.is_host, table_json)
            sends.append((client, cache[key]))
        self._state_cache, self._state_cache_at = cache, self.clock()
        self._send_after_commit(sends)

    # -- commit before telling -------------------------------------------------

    def _write(self, **changes: Any) -> None:
        """Queue a write to the store (group commit); later sends wait for it."""
        if self.paused or self._recovering:
            # Nothing is written while writes fail (every way in that changes what
            # players see refuses first); memory is put back to what is committed
            # before play resumes (_retry).
            self._dirty = True
            return
        stream = self._stream
        cfut = stream.write(**changes)
        if cfut is None:
            return
        fut = loop_future(cfut)  # the writes a commit settles wake the loop once
        self._pending_commit = fut
        fut.add_done_callback(functools.partial(self._committed, stream))

    def _committed(self, stream: WriteStream, fut: asyncio.Future[None]) -> None:
        error = None if fut.cancelled() else fut.exception()
        if error is not None and stream is self._stream and not self.closed:
            self._recover(error, saving=True)
        self._flush()

    def _send_after_commit(self, sends: list[tuple[Client, str]]) -> None:
        """Queue ``sends``; they go out, in order, once every earlier write is committed."""
        pending = self._pending_commit
        if pending is not None and pending.done():
            error = None if pending.cancelled() else pending.exception()
            if error is not None and not self.paused and not self._recovering:
                self._recover(error, saving=True)  # its callback has not run yet
            pending = None
        if self._recovering:
            # Memory may be ahead of the store until the rebuild: only refusals go out.
            for client, text in sends:
                if _is_error(text):
                    client.send(text)
                else:
                    self._untold = True
            return
        if self.paused:
            # Nothing changes while paused: memory is what is committed.
            for client, text in sends:
                client.send(text)
            return
        self._outbox.append((pending, sends))
        self._flush()

    def _flush(self) -> None:
        outbox = self._outbox
        while outbox:
            fut, sends = outbox[0]
            if fut is not None and not fut.done():
                return
            outbox.popleft()
            if fut is not None and (fut.cancelled() or fut.exception() is not None):
                continue  # never tell what was not committed
            for client, text in sends:
                client.send(text)

    async def wait_committed(self) -> None:
        """Return once every write queued so far is committed.

        Raises :class:`TableError` (``not_saved``) if one failed: the table
        then forgets it (see :meth:`_recover`).
        """
        pending = self._pending_commit
        if pending is None:
            return
        try:
            await asyncio.shield(pending)
        except Exception as err:
            raise TableError(
                "not_saved", f"the server could not save that ({err}); try again in a moment"
            ) from err

    async def public_when_committed(self, limit: float = 10.0) -> dict[str, Any]:
        """:meth:`table_public` at a moment when all of it is committed (for the
        HTTP API: nothing is told that is not saved).  Raises :class:`TableError`
        (``busy``) if the table did not settle within ``limit`` seconds."""
        end = time.monotonic() + limit
        while time.monotonic() < end:
            pending = self._pending_commit
            if pending is not None and not pending.done():
                await asyncio.wait([pending], timeout=max(0.0, end - time.monotonic()))
                continue
            failed = pending is not None and (pending.cancelled()
                                              or pending.exception() is not None)
            if not failed and not self._recovering:
                return self.table_public()
            await asyncio.sleep(0.02)  # a failed write: the rebuild comes first
        raise TableError("busy", "the table is busy saving; try again in a moment")

    # -- when a write fails: one way back, the same as a restart -------------------

    def _recover(self, error: BaseException, *, saving: bool) -> None:
        """Stop play, wait for every queued write, rebuild from the store, go on.

        ``saving``: a write failed (pause until one succeeds); else an engine
        fault left the hand half-changed (go on at once from what is committed).
        """
        if self._recovering or self.closed:
            return
        if self.on_lease_lost is not None and _lease_lost(error):
            self.on_lease_lost(self, error)
            return
        self._recovering = True
        self._stop_timers()
        if saving:
            if self.paused:  # a retry failed
                self._backoff = min(self._backoff * 2, self.RETRY_MAX)
            else:
                if time.monotonic() - self._resumed_at > self.STABLE_AFTER:
                    self._backoff = self.RETRY_FIRST
                else:  # failing again soon after resuming: keep backing off
                    self._backoff = min(self._backoff * 2, self.RETRY_MAX)
                log.error("table %s: saving failed (%s); play is paused and resumes by itself "
                          "once a write succeeds", self.id, error)
        last = self._stream.drained()
        rebuild = functools.partial(self._rebuild, saving, not self.paused and saving)
        self.paused = self.paused or saving
        if last is None or last.done():
            asyncio.get_running_loop().call_soon(rebuild)
        else:
            # Every write of the stream is done (committed or failed) when its last is.
            def after_last(fut: asyncio.Future[None]) -> None:
                if not fut.cancelled():
                    fut.exception()  # seen (asyncio logs a failure nobody looked at)
                rebuild()

            asyncio.wrap_future(last).add_done_callback(after_last)

    def _rebuild(self, saving: bool, announce: bool) -> None:
        """Make memory exactly what is committed (as :meth:`restore` does)."""
        if self.closed:
            return
        try:
            fresh = LiveTable.restore(self.store, self.id)
        except (sqlite3.Error, OSError) as err:  # cannot even read: try again later
            log.debug("table %s: cannot read the store (%s)", self.id, err)
            asyncio.get_running_loop().call_later(self._backoff, self._rebuild, saving, announce)
            return
        self._recovering = False
        self._stream = self.store.stream(self.id)
        self._pending_commit = None
        self._outbox.clear()  # only sends of failed writes were left
        self._adopt(fresh)
        if not saving:
            self._untold = False
            self._continue_play()
            self.broadcast()
            return
        if announce or self._untold:
            self._untold = False
            self.broadcast()  # the committed state, paused (sent at once)
        self._retry_timer = asyncio.get_running_loop().call_later(self._backoff, self._retry)

    def _adopt(self, fresh: LiveTable) -> None:
        """Take the committed table ``fresh`` (from :meth:`restore`) as this one,
        keeping the connected clients.  No decision stays open."""
        self._stop_timers()
        self._dirty = False
        self._last_key = None
        self.session = fresh.session
        self.seq = fresh.seq
        self.last_result = fresh.last_result
        self.hand = fresh.hand
        self.final_hand = fresh.final_hand
        now = self.clock()
        loop = asyncio.get_running_loop()
        for number in [n for n in self.seats if n not in fresh.seats]:
            self.release_seat(number)  # a seat that was never saved
        for number, seat in fresh.seats.items():
            if number in self.seats:
                self.seats[number].row = seat.row
                continue
            self.seats[number] = seat  # a seat whose freeing was never saved
            if seat.row.bot is None:
                seat.disconnected_since = now
                loop.call_later(self.config.grace_seconds, self._grace_over, number, seat, now)

    def _retry(self) -> None:
        """While paused: try one small real write (the session with the next ``seq``)."""
        self._retry_timer = None
        if self.closed or not self.paused or self._recovering:
            return
        if self._dirty:
            try:
                self._adopt(LiveTable.restore(self.store, self.id))
            except (sqlite3.Error, OSError) as err:
                self._recover(err, saving=True)
                return
        session = dict(self.session, seq=self.seq + 1, at=self.clock())
        stream = self._stream
        cfut = stream.write(session=session)
        assert cfut is not None
        fut = asyncio.wrap_future(cfut)
        self._pending_commit = fut
        fut.add_done_callback(functools.partial(self._retried, stream, session))

    def _retried(self, stream: WriteStream, session: dict[str, Any],
                 fut: asyncio.Future[None]) -> None:
        error = None if fut.cancelled() else fut.exception()
        if stream is not self._stream or self.closed:
            return
        if error is not None:
            self._recover(error, saving=True)
            return
        if self._dirty:  # something changed in memory while paused: take the store's
            try:
                self._adopt(LiveTable.restore(self.store, self.id))
            except (sqlite3.Error, OSError) as err:
                self._recover(err, saving=True)
                return
        else:
            self.session = session
            self.seq = int(session["seq"])
        self.paused = False
        self._resumed_at = time.monotonic()
        log.warning("table %s: saving works again; play resumes", self.id)
        self._continue_play()
        self.broadcast()
