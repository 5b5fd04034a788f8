"""A table's connections and seats in memory: :class:`Client` (one websocket
connection and its outbox) and :class:`Seat` (a seat's stored row, the
connections that play it, its away clock and computer player), and the JSON
text sent to them.  No rule of its own."""

from __future__ import annotations

import asyncio
import itertools
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import orjson

from rollem.server.store import SeatRow


def _dumps(obj: object) -> str:
    """Compact JSON text (orjson: several times faster than the standard library,
    which matters at one state per client per action)."""
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()


def _is_error(text: str) -> bool:
    return text.startswith(('{"type": "error"', '{"type":"error"'))


MAX_BACKLOG = 256
"""Messages queued to a client that does not read before it is dropped."""

CONNECTIONS_PER_SEAT = 4
"""Open connections one seat (or the host's cookie) may have at a table, each a
browser tab or device (issue 34): a newer one replaces the oldest
(:data:`REPLACED_CODE`), so nobody holding a seat's cookie can use up the
table's connections, and the seat's holder always gets in."""

REPLACED_CODE = 4410
"""Websocket close code of a connection replaced by a newer one of its seat."""

_opened = itertools.count()


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
        self.quiet: str | None = None
        """The last state sent of a view that is told only of changes (a locked
        client; a delayed watcher during a hand: :func:`rollem.server.host_tools.quiet_seq`)."""
        self.watch_digest: str | None = None
        """The digest of this browser's watcher cookie (a gated table's approved
        watchers, :mod:`rollem.server.host_tools`), or ``None``."""
        self.seat_digest: str | None = None
        """The digest of a seat cookie this browser holds that names no seat now (a
        seat since freed: its player left, or the host removed them), or ``None``."""
        self._pending: deque[tuple[str, bool]] = deque()
        self._wakeup = asyncio.Event()
        self.closed = False
        self.finishing = False  # send what is queued, then close
        self.opened = next(_opened)  # order of opening: the oldest is replaced first
        self.close_code = 4429  # the close code once finished (rate_limited by default)
        self.close_reason = ""

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

    def finish(self, code: int = 4429, reason: str = "") -> None:
        """Send what is queued (an error saying why), then close with ``code``
        (a websocket close code) and ``reason`` (at most 123 bytes of UTF-8)."""
        self.finishing = True
        self.close_code, self.close_reason = code, reason
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
    page_elsewhere: bool = False
    """The table was restored here (a restart, or a takeover from a process that
    stopped renewing its lease) while this seat's page was open in the process
    that held it: :attr:`disconnected_since` says only that the page has not
    reached this process yet, not that it was closed.  Until a page of the seat
    connects here (or closes here), the clock plays each of its decisions and the
    player is not sat out as away at once (:func:`rollem.server.host.note_timeout`;
    the grace period runs as for any lost connection)."""
    gone: bool = False  # grace period over: time out at once, free after the hand
    removed: bool = False
    """The host removed this player during a hand they are dealt into (issue 26):
    :attr:`gone` from then on, coming back to the table included (a reconnect
    clears :attr:`gone` only for a player whose grace period ran out)."""
    left: bool = False
    """With :attr:`removed`: the player left by themselves (**Leave**, stop 53), so
    one back during that hand is told so, not the host's removal words (in memory:
    after a restart they hear the removal's)."""
    bot: Any = None
    """This seat's own computer player (:meth:`Seating.computer_player`), made at
    its first decision and dropped with the seat: never shared with another seat
    or table, as a bot reads its opponents by seat number."""
    bot_level: str | None = None
    """The level :attr:`bot` was made for."""
    rebought_in: int | None = None
    """The number of the hand during which this seat last bought chips again (a
    rebuy while it was not dealt in), for its notice (``you.next_hand``)."""

    @property
    def connected(self) -> bool:
        return bool(self.clients) or self.row.bot is not None

