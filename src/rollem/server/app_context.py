"""What the routes of one web table app share (:class:`AppContext`): the
settings, the table manager, the limits and the caches of built bodies, and the
checks every per-table route makes (the table in the URL, who is asking, whether
they may see it, the costly routes' limit per address)."""

from __future__ import annotations

import asyncio
import contextlib
import math
import sqlite3
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from rollem.server import host_tools
from rollem.server.config import ServerSettings
from rollem.server.http_util import (
    COOKIE_AGE,
    error,
    hand_number,
    host_cookie,
    private,
    seat_cookie,
    watch_cookie,
)
from rollem.server.limits import AddressBuckets, Limits, limit_key_of
from rollem.server.live_table import LiveTable, TableError
from rollem.server.manager import TableManager
from rollem.server.proxies import AsSeen
from rollem.server.replays import ReplayBody, ReplayCache
from rollem.server.store import HandRow, token_digest

if TYPE_CHECKING:
    from rollem.server.address_counts import AddressCounts

__all__ = ["BUILD_WAIT_SECONDS", "HANDS_READ_AT_ONCE", "KEPT_HANDS", "PASSWORD_TRIES_PER_MINUTE",
           "AppContext", "FinishedHand", "Handler", "read_finished_hands"]

BUILD_WAIT_SECONDS = 10.0
"""The longest a replay or history request waits for its body to be built (issue
34: a hand of a costly stored game file); past it a 503 ``busy`` with
``Retry-After``, while the build goes on and is kept for the next ask."""
PASSWORD_TRIES_PER_MINUTE = 5
"""Password attempts (and watch requests, and a private table's newcomers sitting
down) one address may make at one table a
minute (burst as many): past it 429 ``rate_limited`` with ``Retry-After``."""

Handler = Callable[[Request], Awaitable[Response]]

KEPT_HANDS = 100_000
"""Finished hands' summaries kept in all (:meth:`AppContext.finished_hands`; about
750 bytes each with six players: some 75 MB at most); past it the tables asked
least recently are dropped (read again when asked), never the one asked now."""

HANDS_READ_AT_ONCE = 64
"""Finished hands read from the store (and decoded) in one step of the event loop
when a table's hands are read (:meth:`AppContext.finished_hands`): between two
such steps the loop serves every other table (s61-safe: the first read of a
table of 20,000 stored hands held it 4.4 to 5.1 s on SQLite, 11 to 13 s on
PostgreSQL, one query a hand)."""


@dataclass(frozen=True, slots=True)
class FinishedHand:
    """What the hand lists read of one finished hand (its stored row never changes):
    ``hand_no``, ``game`` (id), ``seats`` (dealt in), ``nets`` (``(seat, chips won
    or lost)`` by seat), ``names`` (one per seat as dealt, ``None`` for a hand
    stored before names were kept), ``level`` (a tournament hand's level, else
    ``""``) and ``runs`` (each run's winning seats).  Texts are interned: a long
    session's hands share them."""

    hand_no: int
    game: str
    seats: tuple[int, ...]
    nets: tuple[tuple[int, int], ...]
    names: tuple[str, ...] | None
    level: int | str
    runs: tuple[tuple[int, ...], ...] = ()
    """A hand run twice: the seats that won chips in each run, in seat order (stop
    73: the hand list said "won by you, Bea" of two runs, as if a split pot); empty
    for a hand run once."""

    def net(self, seat: int | None) -> int | None:
        """``seat``'s chips won or lost in this hand (``None``: not dealt in)."""
        return next((chips for s, chips in self.nets if s == seat), None)

    def winners(self) -> list[str]:
        """The names (as dealt) of the players who came out of this hand with more
        chips than they brought to it (net above 0), in seat order: the hand list's
        "won by Ann" (s62-table2).  Empty for a hand stored before names were kept."""
        if self.names is None:
            return []
        return [self.names[s] for s, chips in self.winner_seats()]

    def winner_seats(self) -> list[tuple[int, int]]:
        """(seat, net) of each player who came out of this hand ahead (net above 0),
        in seat order, as :meth:`winners` names them (empty for a hand stored before
        names were kept)."""
        if self.names is None:
            return []
        return [(s, chips) for s, chips in self.nets if chips > 0 and 0 <= s < len(self.names)]


def read_finished_hands(table: LiveTable, kept: dict[int, FinishedHand]) -> list[FinishedHand]:
    """Every finished hand of ``table`` in order: those in ``kept`` (hand number ->
    summary) as they are, the others read from the store and added to it, all at
    once (the event loop's way is :meth:`AppContext.finished_hands`, in turns)."""
    numbers = table.store.hand_numbers(table.id)
    for hand_no in numbers:
        if hand_no not in kept:
            _read_finished_hand(table, hand_no, kept)
    return [kept[n] for n in numbers if n in kept]


def _read_finished_hand(table: LiveTable, hand_no: int, kept: dict[int, FinishedHand]) -> None:
    """Read hand ``hand_no`` of ``table`` from the store into ``kept`` if it is
    finished (the hand in play is not: kept once finished)."""
    row = table.store.load_hand(table.id, hand_no)
    if row is not None:
        _keep_finished_hand(row, kept)


def _keep_finished_hand(row: HandRow, kept: dict[int, FinishedHand]) -> None:
    """Keep stored hand ``row``'s summary in ``kept`` if it is finished."""
    if row.result is None:
        return
    hand_no = row.hand_no
    names = row.setup.get("names")
    kept[hand_no] = FinishedHand(
        hand_no, sys.intern(str(row.setup["game"])),
        tuple(int(s) for s in row.setup["seats"]),
        tuple(sorted((int(s), int(n)) for s, n in row.result.get("net", {}).items())),
        tuple(sys.intern(str(n)) for n in names) if names is not None else None,
        (row.setup.get("tournament") or {}).get("level", ""),
        tuple(tuple(sorted({int(seat) for pot in run.get("pots", [])
                            for seat, chips in (pot.get("winners") or {}).items()
                            if int(chips) > 0}))
              for run in row.result.get("runs") or []))


class AppContext:
    """One app's shared state (built by :func:`rollem.server.app.create_app`).

    ``manager()`` is the :class:`TableManager`, set when the app starts
    (``state["manager"]``); ``limits`` counts websockets and table creations;
    ``replays``, ``histories`` and ``bulk`` keep built replays, own copies
    (TOML) and the whole-session download's hands, each built once."""

    def __init__(self, settings: ServerSettings) -> None:
        self.settings = settings
        self.state: dict[str, TableManager] = {}
        self.limits = Limits(settings)
        self.costly_buckets = AddressBuckets(settings.costly_requests_per_minute,
                                             settings.costly_burst)
        self.password_buckets = AddressBuckets(PASSWORD_TRIES_PER_MINUTE,
                                               PASSWORD_TRIES_PER_MINUTE)
        self.join_buckets = AddressBuckets(settings.joins_per_minute, settings.join_burst)
        """Every attempt of an address to sit down or to watch, at all tables
        together (:meth:`join_refusal`)."""
        self.replays = ReplayCache()
        self.histories = ReplayCache(max_bytes=8 * 2**20)
        """Each player's copy of a finished hand (TOML bytes), built once and kept
        (issue 34)."""
        self.verdicts = ReplayCache(max_bytes=4 * 2**20)
        """``rollem verify``'s result on each player's copy of a finished hand (JSON),
        built once and kept (issue 32)."""
        self.csvs = ReplayCache(max_bytes=8 * 2**20)
        """Each table's ``hands.csv`` (public: one for every asker), built once per
        finished hand and kept (s61-safe)."""
        self.bulk = ReplayCache(max_bytes=32 * 2**20)
        """Each player's copy of each hand as a ``.phhs`` table, for the
        whole-session download (issue 27), built once and kept."""
        self.allowed_origins = settings.origins()
        self.opening_refusal: Callable[[HTTPConnection], Response | None] | None = None
        """Why a websocket's request alone is refused (set by the websocket route:
        :func:`rollem.server.ws_endpoint.websocket_route`), or ``None``."""
        self.checked_before_upgrade = False
        """Whether :attr:`opening_refusal` is asked before the upgrade, by the HTTP
        protocol (``rollem serve``: :meth:`before_upgrade`), not by the route."""
        self.as_seen = AsSeen(settings.forwarded_allow_ips)
        self.address_counts: AddressCounts | None = None
        """The seats and table creations per address counted over all processes
        (PostgreSQL: set when the app starts), or ``None`` (SQLite: one process,
        :attr:`limits` alone)."""
        self._finished: dict[str, dict[int, FinishedHand]] = {}
        self._reading: dict[str, asyncio.Event] = {}
        """Tables whose hands an ask of :meth:`finished_hands` reads now (set when it
        is done): the other asks of the table wait for it, not read them again."""

    def before_upgrade(self, scope: dict[str, Any]) -> Response | None:
        """:attr:`opening_refusal` of a websocket's request, asked by the HTTP
        protocol before the upgrade (``scope``: the ASGI scope as the server
        builds it, before the middleware; read as the app would read it,
        :class:`~rollem.server.proxies.AsSeen`).  Whoever installs it sets
        :attr:`checked_before_upgrade` (:func:`refuse_before_upgrade`)."""
        if self.opening_refusal is None:
            return None
        return self.opening_refusal(HTTPConnection(self.as_seen(scope)))

    def manager(self) -> TableManager:
        return self.state["manager"]

    async def finished_hands(self, table: LiveTable) -> list[FinishedHand]:
        """Every finished hand of ``table`` in order, each read from the store once and
        kept (a finished hand's row never changes): the hand list the page asks for
        after every hand, and ``hands.csv``, cost one query of hand numbers and the
        hands finished since, not a read of every hand of a long session.  Those not
        kept are read :data:`HANDS_READ_AT_ONCE` at a time, the event loop serving
        the other tables between (s61-safe: a table of 20,000 stored hands read at
        once held it 4 to 13 s, every table waiting, on its first ask and again
        whenever :data:`KEPT_HANDS` had dropped them: anyone with links to a few
        long tables could ask them in turn).  Past :data:`KEPT_HANDS`, the tables
        asked least recently are dropped first.  Asks of one table at once read its
        hands once: the later ones wait for the first (s61-hostile2: 8 first asks at
        once of a table of 20,000 hands read 157,760 rows, 12.5 s of the loop)."""
        while (reading := self._reading.get(table.id)) is not None:
            await reading.wait()  # (then reads only the hands finished since)
        finished = self._finished
        kept = finished.pop(table.id, None)
        if kept is None:
            kept = {}
        while finished and sum(map(len, finished.values())) >= KEPT_HANDS:
            del finished[next(iter(finished))]  # (the least recently asked)
        finished[table.id] = kept  # (the most recently asked last)
        numbers = table.store.hand_numbers(table.id)
        missing = [n for n in numbers if n not in kept]
        if missing:
            reading = self._reading[table.id] = asyncio.Event()
            try:
                await self._read_hands(table, missing, kept)
            finally:
                del self._reading[table.id]
                reading.set()
        return [kept[n] for n in numbers if n in kept]

    @staticmethod
    async def _read_hands(table: LiveTable, missing: list[int],
                          kept: dict[int, FinishedHand]) -> None:
        """Read the stored hands ``missing`` (numbers, in order) of ``table`` into
        ``kept`` :data:`HANDS_READ_AT_ONCE` a step (:meth:`finished_hands`)."""
        at = 0
        while at < len(missing):
            if at:
                await asyncio.sleep(0)  # (the other tables' turn)
            first = missing[at]  # (one query: up to HANDS_READ_AT_ONCE rows)
            last = first + HANDS_READ_AT_ONCE - 1
            for row in table.store.load_hands(table.id, first, last):
                if row.hand_no not in kept:
                    _keep_finished_hand(row, kept)
            while at < len(missing) and missing[at] <= last:
                at += 1

    def finished_hands_now(self, table: LiveTable) -> list[FinishedHand]:
        """:meth:`finished_hands` read at once (those not kept held the loop while
        read): for a body whose need was not foreseen (a kept one dropped since)."""
        kept = self._finished.get(table.id)
        return read_finished_hands(table, kept if kept is not None else {})

    def set_cookie(self, request: Request, resp: Response, name: str, value: str) -> None:
        """Set cookie ``name`` (HTTP only, same site lax, secure over HTTPS)."""
        secure = self.settings.secure or request.url.scheme == "https"
        resp.set_cookie(name, value, max_age=COOKIE_AGE, httponly=True, samesite="lax",
                        secure=secure)

    def costly(self, handler: Handler) -> Handler:
        """``handler`` behind the per-address limit of costly requests: past it, a 429
        (``rate_limited``, ``Retry-After``) before any work is done."""
        settings = self.settings

        async def limited(request: Request) -> Response:
            wait = self.costly_buckets.wait(limit_key_of(request))
            if wait > 0:
                seconds = max(1, math.ceil(wait))
                resp = error(429, "rate_limited", (
                    "too many requests for hand histories, replays, rules and health "
                    f"checks from your address (at most {settings.costly_requests_per_minute:g}"
                    f" a minute); try again in {seconds} s"))
                resp.headers["Retry-After"] = str(seconds)
                return resp
            return await handler(request)

        return limited

    def join_refusal(self, request: Request) -> Response | None:
        """Spend one of the asking address's attempts to get in (sitting down, asking
        to watch: :attr:`ServerSettings.joins_per_minute`, all tables together); past
        them the 429 ``rate_limited`` answer (``Retry-After``, seconds; a JSON body
        saying what and when), else ``None``.  Asked before the table is looked up
        or the body read, so a refused attempt costs about what a plain ``GET``
        does (s60-safe)."""
        wait = self.join_buckets.wait(limit_key_of(request))
        if wait == 0.0:
            return None
        s = self.settings
        seconds = max(1, math.ceil(wait))
        resp = error(429, "rate_limited", (
            "too many attempts to sit down or watch from your address (at most "
            f"{s.join_burst} at once, then {s.joins_per_minute:g} a minute, all tables "
            f"together); try again in {seconds} s"), retry_after=seconds)
        resp.headers["Retry-After"] = str(seconds)
        return resp

    def seat_held(self, table_id: str, digest: str, stored: bool = True) -> bool:
        """Whether the seat token of ``digest`` holds a seat at table ``table_id`` now
        (the per-address seat count, :meth:`Limits.seat_refusal`): read from the
        table in memory, else (``stored``) from its stored seats (a deleted
        table's: none); ``stored=False``: a table not in memory holds none."""
        manager = self.manager()
        table = manager.tables.get(table_id)
        if table is not None:
            return any(seat.row.token_digest == digest
                       for seat in table.seating.seats.values())
        if not stored:
            return False
        return any(row.token_digest == digest for row in manager.store.load_seats(table_id))

    async def claim_seat(self, address: str, table_id: str, digest: str) -> bool:
        """Count a sit-down of ``address`` (a limit key) in the seats counted over
        all processes (PostgreSQL, :attr:`address_counts`), in one transaction of
        its own off the event loop; ``True`` if a claim was made (give it back with
        :meth:`unclaim_seat` if the sit-down then fails), ``False`` on SQLite.
        Asked after :meth:`Limits.seat_refusal` (this process's count, and a
        refusal here remembered for ``SEATS_RECHECK`` seconds: a flood costs no
        query a request).

        Raises:
            TableError: ``too_many_seats`` (the address holds ``seats_per_address``
                seats over all processes' tables); ``not_saved`` (the database
                cannot be reached).
        """
        shared = self.address_counts
        if shared is None:
            return False
        try:
            held = await asyncio.to_thread(shared.claim, address, table_id, digest,
                                           self.settings.seats_per_address)
        except sqlite3.Error as err:
            raise TableError("not_saved", f"the seat could not be taken ({err}); try again "
                             "in a moment") from None
        if held is not None:
            raise TableError("too_many_seats", self.limits.seat_refused_shared(address))
        return True

    async def seat_claimed(self, address: str, table_id: str, digest: str) -> None:
        """Mark a claim of :meth:`claim_seat` whose sit-down is committed (its seat
        left then stops counting at once; a mark lost to the database: within
        :data:`~rollem.server.address_counts.PENDING_SECONDS`)."""
        shared = self.address_counts
        if shared is not None:
            with contextlib.suppress(sqlite3.Error):
                await asyncio.to_thread(shared.seated, address, table_id, digest)

    async def claim_table(self, address: str) -> None:
        """Count a table creation of ``address`` (a limit key) over all processes
        (PostgreSQL, :attr:`address_counts`; nothing on SQLite), after this
        process's count (:meth:`Limits.create_table`).  A refusal is remembered
        until one more is allowed (:meth:`Limits.tables_refused_shared`: no query
        a request meanwhile).

        Raises:
            TableError: ``too_many_tables``; ``not_saved`` (the database cannot be
                reached).
        """
        shared = self.address_counts
        if shared is None:
            return
        try:
            wait = await asyncio.to_thread(shared.claim_table, address,
                                           self.settings.tables_per_address_per_hour)
        except sqlite3.Error as err:
            raise TableError("not_saved", f"the table could not be made ({err}); try again "
                             "in a moment") from None
        if wait is not None:
            self.limits.tables_refused_shared(address, wait)

    async def unclaim_seat(self, address: str, table_id: str, digest: str) -> None:
        """Give back a claim of :meth:`claim_seat` whose sit-down failed (a database
        that cannot be reached: the claim stops counting after
        :data:`~rollem.server.address_counts.PENDING_SECONDS` anyway)."""
        shared = self.address_counts
        if shared is not None:
            with contextlib.suppress(sqlite3.Error):
                await asyncio.to_thread(shared.release, address, table_id, digest)

    async def table(self, request: Request) -> LiveTable | None:
        """The table in the URL (``{tid}``), or ``None`` (:meth:`TableManager.find`:
        a table not in memory is looked up off the event loop)."""
        return await self.manager().find(request.path_params["tid"])

    def viewer(self, request: Request, table: LiveTable) -> int | None:
        """The seat the asking browser holds at ``table`` now, or ``None``."""
        return table.seat_for_token(request.cookies.get(seat_cookie(table.id)))

    def may_see(self, request: Request, table: LiveTable) -> bool:
        """Whether the asking browser may see this table (issue 27: a private table's
        or a password's unapproved watchers may not; :func:`host_tools.may_see`)."""
        watch = request.cookies.get(watch_cookie(table.id))
        return host_tools.may_see(table, self.viewer(request, table),
                                  table.is_host(request.cookies.get(host_cookie(table.id))),
                                  token_digest(watch) if watch else None)

    def delayed(self, request: Request, table: LiveTable) -> bool:
        """Whether the watcher delay hides the hand in play from the asking browser
        (it sees a hand only once it ended, issue 27: :func:`host_tools.delayed_viewer`,
        :func:`host_tools.view_kind`'s ``"delayed"``)."""
        return host_tools.delayed_viewer(
            table, self.viewer(request, table),
            table.is_host(request.cookies.get(host_cookie(table.id))))

    def played(self, request: Request, table: LiveTable, row: HandRow,
               hand_no: int) -> int | None:
        """The seat the asking browser played in this past hand, or ``None`` (it was
        not dealt in: it sees the hand as a watcher does)."""
        return table.seat_in_hand(request.cookies.get(seat_cookie(table.id)), hand_no,
                                  list(row.setup["seats"]))

    async def finished_hand(self, request: Request) -> tuple[LiveTable, int, HandRow] | Response:
        """The table, hand number and stored row of the finished hand in the URL, or the
        error response (no such table, a malformed number, a hand not finished).
        At a gated table (private, or with a password) one who may not see it gets
        403 ``private`` whatever the number, except for a hand it played (its seat
        cookie: a player the host removed, or one who left, keeps their own
        hands: try-out of stop 42)."""
        table = await self.table(request)
        if table is None:
            return error(404, "no_table", "no such table")
        sees = self.may_see(request, table)
        if not sees and not table.seating.left_hands_here(
                request.cookies.get(seat_cookie(table.id))):
            return private()
        hand_no = hand_number(request.path_params["n"])
        if hand_no is None:
            return error(400, "malformed", "a hand number (1 or more) is needed") if sees \
                else private()
        row = table.store.load_hand(table.id, hand_no)
        if row is None or row.result is None:
            return error(404, "no_hand", f"hand {hand_no} is not finished or does not exist") \
                if sees else private()
        if not sees and self.played(request, table, row, hand_no) is None:
            return private()  # (one who played it sees it: a player removed, one who left)
        return table, hand_no, row

    async def hand_version(self, table: LiveTable, hand_no: int) -> int:
        """What a kept body of finished hand ``hand_no`` is built from, for its cache
        key: the number of actions the table holds in memory for its last finished
        hand (a player may still show their cards by choice, R-C-11, until the next
        deal: the replays and copies built before are then stale); ``-1`` for an
        earlier hand, which no longer changes.  Returns once the writes queued so
        far are committed (one wait, writes commit in order), so the store, read
        for the body right after, holds at least those actions (a body built from
        more, kept under this number, is never asked for again: the next asker's
        number is higher)."""
        final = table.final_hand
        if final is None or final.hand_no != hand_no:
            return -1
        version = len(final.hand.actions)
        pending = table.saving.pending
        if pending is not None and not pending.done():
            await asyncio.wait([pending], timeout=BUILD_WAIT_SECONDS)
        return version

    async def built(self, cache: ReplayCache, key: Any,
                    make: Callable[[], Callable[[], ReplayBody]],
                    share: str) -> ReplayBody | Response:
        """``cache.get(key, make, share)`` within :data:`BUILD_WAIT_SECONDS`, else a
        503 ``busy`` (the build goes on and is kept)."""
        try:
            return await asyncio.wait_for(cache.get(key, make, share), BUILD_WAIT_SECONDS)
        except TimeoutError:
            resp = error(503, "busy", "this hand takes long to rebuild; it is being built "
                         "now: try again in a few seconds")
            resp.headers["Retry-After"] = "5"
            return resp

    def attempted(self, request: Request, table: LiveTable, what: str = "") -> None:
        """Count an attempt of this address at this table to get in (``what``: ``""``
        a password or a watch request; ``"join"`` a private table's newcomer sitting
        down without a password, counted apart): 429 ``rate_limited`` past
        :data:`PASSWORD_TRIES_PER_MINUTE`.

        Raises:
            TableError: ``rate_limited``.
        """
        wait = self.password_buckets.wait(f"{limit_key_of(request)} {table.id} {what}")
        if wait > 0:
            raise TableError("rate_limited", "too many attempts from your address at this "
                             f"table (at most {PASSWORD_TRIES_PER_MINUTE} a minute); try again "
                             f"in {max(1, math.ceil(wait))} s")

    async def password_tried(self, request: Request, table: LiveTable,
                             password: object) -> None:
        """Count an attempt of this address at this table (429 ``rate_limited`` past
        :data:`PASSWORD_TRIES_PER_MINUTE`), then check ``password`` off the event
        loop (``bad_password``, 403).

        Raises:
            TableError: ``rate_limited`` or ``bad_password``.
        """
        self.attempted(request, table)
        if not await asyncio.to_thread(host_tools.check_password, table, password):
            raise TableError("bad_password", "wrong table password" if password else
                             "this table has a password: give it to watch or sit down")
