"""The ASGI app of the web table (Starlette): pages, a small JSON API and websockets.

Routes:

- ``GET /`` -- create a table (the browser client, no build step).
  ``GET /favicon.ico`` -- the icon (SVG, also ``/static/favicon.svg``).
  ``GET /api/info`` -- the games a table may offer.
- ``POST /api/tables`` -- JSON :class:`~rollem.server.config.TableConfig`
  fields; answers ``{"id", "url"}`` and sets the host cookie.  The table id
  is the unguessable invite token: the link ``/t/<id>`` is the invitation.
- ``GET /t/<id>`` -- the table page.  ``POST /api/tables/<id>/join``
  (``{"name", "seat"}``) sits a player and sets the seat cookie that lets
  this browser reconnect to its seat.
- ``GET /api/tables/<id>/hands`` and ``/hands/<n>`` -- the hand history as
  this seat may see it (its redaction), step by step; ``/hands/<n>/history.toml``
  -- a player's own copy of a hand it was dealt into; ``/hands/<n>/verify`` --
  ``rollem verify``'s result on that copy (issue 32, JSON).
- ``GET /api/tables/<id>/rules`` -- how to play this table's game (HTML).
- ``POST /api/tables/<id>/watch`` (``{"name", "password"}``) -- ask to watch a
  private table, or one with a password (issue 27); sets the watcher cookie.
  ``GET /api/tables/<id>/history.phhs`` -- every finished hand the asking
  player was dealt into, each their own copy, as one bulk PHH file.
  A gated table's unapproved watcher gets its name only (403 ``private``
  from the hand lists, replays, CSVs and statistics).
- ``WS /ws/<id>`` -- the table's live state (see :mod:`rollem.server.protocol`).
- ``GET /healthz`` -- ``{"ok": true}`` when the store's writer commits (503 if not).

Limits (:class:`~rollem.server.config.ServerSettings`, issue 13): request
bodies are cut off while read (413 ``too_large``), JSON nested too deep is
``malformed``, each websocket has a token bucket of messages (``rate_limited``,
then closed with code 4429), connections per address and per table
(``too_many_connections``, 4429; never a seat's own connection: a seat keeps
at most ``connections_per_seat``, a newer one replacing the oldest, issue 34),
tables per address per hour and in total (429 ``too_many_tables``, 503
``server_full``), and requests per address to
the routes that build something (hand lists, replays, histories, verify, rules,
``/healthz``: 429 ``rate_limited`` with ``Retry-After``).  A websocket past
its limits is refused before its table is looked up.  "Per address" is per IPv4
address and per IPv6 /64 network (:func:`limit_key`).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import math
import re
import secrets
import threading
import time
import urllib.error
import urllib.request
from collections import defaultdict, deque
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from rollem.games.gamefile import MAX_FILE_BYTES
from rollem.server import host, host_tools, trace
from rollem.server.config import (
    BOT_LEVEL_HINTS,
    DECISION_SECONDS,
    ConfigError,
    ServerSettings,
    parse_config,
)
from rollem.server.game_session import GameSession, available_games, player_names
from rollem.server.headers import SecurityHeaders
from rollem.server.live_table import Client, LiveTable, TableError
from rollem.server.manager import TableElsewhere, TableManager, TableUnreadable
from rollem.server.markdown import render_markdown
from rollem.server.protocol import ProtocolError, deeper_than, error_message, parse_message
from rollem.server.proxies import TrustedProxies
from rollem.server.replays import ReplayBody, ReplayCache, encode_body
from rollem.server.store import HandRow, token_digest
from rollem.server.stores import is_postgres_url, open_store

__all__ = ["create_app", "host_cookie", "limit_key", "seat_cookie", "watch_cookie"]

STATIC = Path(__file__).parent / "static"
COOKIE_AGE = 60 * 60 * 24 * 30
BUILD_WAIT_SECONDS = 10.0
"""The longest a replay or history request waits for its body to be built (issue
34: a hand of a costly stored game file); past it a 503 ``busy`` with
``Retry-After``, while the build goes on and is kept for the next ask."""

log = logging.getLogger("rollem.server")


def seat_cookie(table_id: str) -> str:
    """Name of the cookie holding this browser's seat token at ``table_id``."""
    return f"rollem_seat_{table_id}"


def host_cookie(table_id: str) -> str:
    """Name of the cookie holding the host token of ``table_id``."""
    return f"rollem_host_{table_id}"


def watch_cookie(table_id: str) -> str:
    """Name of the cookie holding this browser's watcher token at ``table_id`` (a
    private table's or a password's watchers, issue 27)."""
    return f"rollem_watch_{table_id}"


PASSWORD_TRIES_PER_MINUTE = 5
"""Password attempts (and watch requests) one address may make at one table a
minute (burst as many): past it 429 ``rate_limited`` with ``Retry-After``."""
MAX_BULK_HANDS = 500
"""The most hands in one whole-session download (``history.phhs``): the latest."""


def _unreadable(err: TableUnreadable) -> str:
    """The refusal of a stored table that cannot be restored, naming why."""
    return (f"this table cannot be opened: it was stored with something this server can no "
            f"longer read ({err.reason}); other tables are not affected")


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


async def _json_body(request: Request, settings: ServerSettings,
                     extra: int = 0) -> dict[str, Any]:
    """The request's JSON object.  The body is cut off while it is read once it
    passes ``settings.max_body_bytes`` (plus ``extra`` bytes: a table's game
    file) (``too_large``); nesting deeper than ``settings.max_json_depth`` is
    ``malformed``."""
    # JSON only: a cross-site form cannot send it without the browser asking first.
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise TableError("malformed", "send the request body as application/json")
    limit = settings.max_body_bytes + extra
    too_large = TableError("too_large", f"request body too large: at most {limit} bytes")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise too_large
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large
        chunks.append(chunk)
    body = b"".join(chunks)
    if deeper_than(body, settings.max_json_depth):
        raise TableError("malformed", f"JSON nested more than {settings.max_json_depth} deep")
    try:
        data = json.loads(body or b"{}")
    except (ValueError, RecursionError):
        raise TableError("malformed", "the request body must be JSON") from None
    if not isinstance(data, dict):
        raise TableError("malformed", "the request body must be a JSON object")
    return data


def _phh_chunk(hand_no: int, seat: int, row: HandRow, names: list[str],
               actions: list[Any]) -> str:
    """Hand ``hand_no`` as ``seat`` saw it (their own copy), as one table ``[hand_no]``
    of a ``.phhs`` file (issue 27): standard PHH where the game has a PHH variant
    code (:func:`rollem.phh.copy_phh_dict`), else rollem's own layout; ``_hand``
    says its number."""
    import tomllib

    import tomli_w

    from rollem.history import HistoryError
    from rollem.phh import PHHError, copy_phh_dict

    session = GameSession.restore(hand_no, row.setup, actions)
    copy = tomllib.loads(session.history_text(seat, names))
    try:
        table = copy_phh_dict(copy)
    except (PHHError, HistoryError):  # no PHH variant code: rollem's own layout
        table = copy
    return tomli_w.dumps({str(hand_no): {"_hand": hand_no, **table}}) + "\n"


def _bulk_head(left_out: int) -> str:
    """The comment lines a ``.phhs`` download starts with."""
    head = "# rollem: one player's own copies of a session's hands (issue 27)\n"
    if left_out:
        head += f"# the {left_out} earliest hand(s) left out: at most {MAX_BULK_HANDS} a file\n"
    return head + "\n"


def _bulk_phhs(mine: list[tuple[int, int, HandRow, list[str]]],
               actions: dict[int, list[Any]], left_out: int) -> str:
    """The ``.phhs`` text of a player's hands (``mine``: hand number, their seat,
    the stored row, the names), each their own copy: what the download sends
    (built there a hand at a time, each kept)."""
    return _bulk_head(left_out) + "".join(
        _phh_chunk(h, seat, row, names, actions[h]) for h, seat, row, names in mine)


def _hand_number(text: str) -> int | None:
    """A hand number from the URL, or None if it is not a plausible one (SQLite INTEGER)."""
    if not text.isdigit() or len(text) > 18:
        return None
    number = int(text)
    return number if number >= 1 else None


def _moved(moved: TableElsewhere, path: str, websocket: bool = False) -> Response:
    """A 307 to the process that holds the table (issue 17; ``ws://`` or ``wss://``
    for a websocket).  ``X-Rollem-Owner`` (``host:port``) lets the reverse proxy
    send the request there itself (docs/hosting.md, "Running many tables")."""
    url = moved.lease.url.rstrip("/")
    location = url + path
    if websocket:
        location = re.sub(r"^http", "ws", location)
    return Response(f"this table is played by {url}\n", status_code=307,
                    headers={"Location": location,
                             "X-Rollem-Owner": urlsplit(url).netloc})


_FORWARDED = ("content-type", "cookie", "origin", "user-agent", "x-forwarded-proto",
              "x-forwarded-host")


def _forward(request: Request, owner: str, body: bytes) -> Response:
    """``request`` (with ``body``) made to the table's holder at ``owner``; its reply
    (status, body, content type, cookies).  A holder that cannot be reached: 503."""
    headers = {k: v for k, v in request.headers.items() if k in _FORWARDED}
    headers["x-forwarded-for"] = _address(request)
    url = owner.rstrip("/") + request.url.path
    req = urllib.request.Request(url, data=body, headers=headers, method=request.method)
    try:
        with urllib.request.urlopen(req, timeout=15) as reply:
            status, got, data = reply.status, reply.headers, reply.read()
    except urllib.error.HTTPError as err:
        status, got, data = err.code, err.headers, err.read()
    except OSError as err:
        return _error(503, "moving", f"this table's server cannot be reached ({err}); "
                      "try again in a moment")
    resp = Response(data, status_code=status, media_type=got.get("content-type"))
    for cookie in got.get_all("set-cookie") or []:
        resp.headers.append("set-cookie", cookie)
    return resp


def _status(err: TableError) -> int:
    return {"too_large": 413, "too_many_tables": 429, "server_full": 503, "bad_password": 403,
            "rate_limited": 429, "too_many_requests": 429, "too_many_watchers": 409,
            }.get(err.code, 400)


class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved; :meth:`take` spends one."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


class Limits:
    """Counters behind the per-address and per-table limits (one server process)."""

    def __init__(self, settings: ServerSettings) -> None:
        self.settings = settings
        self.by_address: dict[str, int] = defaultdict(int)
        self.by_table: dict[tuple[str, bool], int] = defaultdict(int)  # (table, player)
        self.created: dict[str, deque[float]] = defaultdict(deque)

    def open_connection(self, address: str, table_id: str, player: bool) -> str | None:
        """Count a new websocket; the reason it is refused, or ``None``.

        ``player``: it brings a seat or host cookie of the table.  Players and
        watchers are counted apart, each up to ``connections_per_table``, so
        watchers filling a table never lock its players out; a cookie that turns
        out to be no seat's is moved to the watchers (:meth:`demote`).
        """
        s = self.settings
        if self.by_address[address] >= s.connections_per_address:
            return (f"too many connections from your address (at most "
                    f"{s.connections_per_address})")
        if self.by_table[(table_id, player)] >= s.connections_per_table:
            who = "players" if player else "watchers"
            return (f"too many {who} connected to this table (at most "
                    f"{s.connections_per_table})")
        self.admit(address, table_id, player)
        return None

    def admit(self, address: str, table_id: str, player: bool = True) -> None:
        """Count a new websocket past the limits: a seat's (or the host's) own
        connection, which counts is never a reason to refuse (issue 34; its seat
        keeps at most ``connections_per_seat``, the oldest replaced)."""
        self.by_address[address] += 1
        self.by_table[(table_id, player)] += 1

    def demote(self, table_id: str) -> bool:
        """Count a player's connection as a watcher's after all (its cookie holds no
        seat); ``False`` (nothing moved) when the watchers are full."""
        if self.by_table[(table_id, False)] >= self.settings.connections_per_table:
            return False
        self._drop(self.by_table, (table_id, True))
        self.by_table[(table_id, False)] += 1
        return True

    def close_connection(self, address: str, table_id: str, player: bool) -> None:
        self._drop(self.by_address, address)
        self._drop(self.by_table, (table_id, player))

    @staticmethod
    def _drop(counts: dict[Any, int], key: Any) -> None:
        counts[key] -= 1
        if counts[key] <= 0:
            del counts[key]

    def check_create(self, address: str, now: float) -> None:
        """Raise :class:`TableError` (``too_many_tables``) if ``address`` has created
        as many tables this hour as it may; counts nothing (a refusal before any work)."""
        stamps = self.created.get(address)
        if not stamps:
            return
        while stamps and stamps[0] <= now - 3600:
            stamps.popleft()
        if not stamps:
            del self.created[address]
            return
        if len(stamps) >= self.settings.tables_per_address_per_hour:
            wait = int(stamps[0] + 3600 - now) + 1
            raise TableError(
                "too_many_tables",
                f"at most {self.settings.tables_per_address_per_hour} new tables an hour "
                f"from one address (IPv6: one /64 network); try again in {wait} s")

    def create_table(self, address: str, now: float) -> None:
        """Count a table creation; raises :class:`TableError` past the hourly limit."""
        self.check_create(address, now)
        self.created[address].append(now)


class AddressBuckets:
    """A :class:`TokenBucket` per client address (``per_minute`` tokens a minute, at
    most ``burst`` saved): what one address may ask of the costly HTTP routes."""

    PRUNE_AT = 4096
    """Addresses kept before the buckets that have filled up again are dropped."""

    def __init__(self, per_minute: float, burst: int) -> None:
        self.rate = per_minute / 60.0
        self.burst = burst
        self.buckets: dict[str, TokenBucket] = {}

    def wait(self, address: str) -> float:
        """Spend one of ``address``'s tokens: 0.0 if it had one, else the seconds
        until it will (nothing spent)."""
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= self.PRUNE_AT:
                self._prune()
            bucket = self.buckets[address] = TokenBucket(self.rate, self.burst)
        if bucket.take():
            return 0.0
        return (1.0 - bucket.tokens) / self.rate

    def _prune(self) -> None:
        now = time.monotonic()
        for address, bucket in list(self.buckets.items()):
            if bucket.tokens + (now - bucket.stamp) * bucket.rate >= bucket.burst:
                del self.buckets[address]


def _address(conn: Request | WebSocket) -> str:
    """The client's address (behind a trusted proxy: from X-Forwarded-For,
    :class:`~rollem.server.proxies.TrustedProxies`)."""
    return conn.client.host if conn.client is not None else "unknown"


def limit_key(address: str) -> str:
    """What the per-address limits count ``address`` under: an IPv4 address itself
    (a household behind one NAT address is one; a /24 would lump strangers of one
    provider together), an IPv6 address its /64 network (one household's or one
    server's: whoever holds one holds all 2**64 of its addresses), an IPv4-mapped
    IPv6 address its IPv4 address; anything else (a unix socket) as it is."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def _limit_key(conn: Request | WebSocket) -> str:
    return limit_key(_address(conn))


def create_app(db_path: str | Path = "rollem.db",
               settings: ServerSettings | None = None) -> Starlette:
    """The web table app, storing everything in the SQLite file ``db_path``,
    limited and addressed by ``settings`` (defaults: :class:`ServerSettings`)."""
    settings = settings or ServerSettings()
    settings.check()
    state: dict[str, TableManager] = {}
    limits = Limits(settings)
    costly_buckets = AddressBuckets(settings.costly_requests_per_minute, settings.costly_burst)
    password_buckets = AddressBuckets(PASSWORD_TRIES_PER_MINUTE, PASSWORD_TRIES_PER_MINUTE)
    bulk = ReplayCache(max_bytes=32 * 2**20)
    """Each player's copy of each hand as a ``.phhs`` table, for the whole-session
    download (issue 27), built once and kept."""
    replays = ReplayCache()
    histories = ReplayCache(max_bytes=8 * 2**20)
    """Each player's copy of a finished hand (TOML bytes), built once and kept (issue 34)."""

    def costly(handler: Callable[[Request], Awaitable[Response]],
               ) -> Callable[[Request], Awaitable[Response]]:
        """``handler`` behind the per-address limit of costly requests: past it, a 429
        (``rate_limited``, ``Retry-After``) before any work is done."""

        async def limited(request: Request) -> Response:
            wait = costly_buckets.wait(_limit_key(request))
            if wait > 0:
                seconds = max(1, math.ceil(wait))
                resp = _error(429, "rate_limited", (
                    "too many requests for hand histories, replays, rules and health "
                    f"checks from your address (at most {settings.costly_requests_per_minute:g}"
                    f" a minute); try again in {seconds} s"))
                resp.headers["Retry-After"] = str(seconds)
                return resp
            return await handler(request)

        return limited
    allowed_origins = settings.origins()

    def manager() -> TableManager:
        return state["manager"]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = open_store(db_path)
        leases = None
        if is_postgres_url(db_path):  # several processes may share it (issue 17)
            from rollem.server.leases import Leases, new_owner_id

            leases = Leases(str(db_path), new_owner_id(),
                            settings.advertise_url or settings.public_url or "",
                            settings.lease_seconds)
        mgr = TableManager(store, idle_seconds=settings.idle_seconds,
                           retention_days=settings.retention_days, leases=leases,
                           unplayed_seconds=settings.unplayed_seconds,
                           budget=settings.budget())
        state["manager"] = mgr
        app.state.manager = mgr
        app.state.limits = limits
        app.state.loop = asyncio.get_running_loop()
        mgr.start()
        watcher = trace.watch_loop()  # ROLLEM_TRACE_DIR only
        try:
            yield
        finally:
            if watcher is not None:
                watcher.cancel()
            mgr.shutdown()

    def set_cookie(request: Request, resp: Response, name: str, value: str) -> None:
        secure = settings.secure or request.url.scheme == "https"
        resp.set_cookie(name, value, max_age=COOKIE_AGE, httponly=True, samesite="lax",
                        secure=secure)

    async def healthz(request: Request) -> Response:
        """The store's writer thread is alive and commits (a write round trip)."""
        store = manager().store
        try:
            await asyncio.wait_for(asyncio.wrap_future(store.submit(
                [("CREATE TABLE IF NOT EXISTS health (id INTEGER PRIMARY KEY, at REAL)", ()),
                 ("INSERT OR REPLACE INTO health (id, at) VALUES (1, ?)", (time.time(),))])),
                timeout=5)
        except Exception as err:
            return JSONResponse({"ok": False, "error": str(err) or type(err).__name__},
                                status_code=503)
        return JSONResponse({"ok": True, "tables_loaded": len(manager().tables)})

    def page(name: str) -> FileResponse:
        return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})

    async def index(request: Request) -> Response:
        return page("index.html")

    async def favicon(request: Request) -> Response:
        # The pages name /static/favicon.svg; a browser asking the old way gets it too.
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml",
                            headers={"Cache-Control": "max-age=86400"})

    async def table_page(request: Request) -> Response:
        if manager().get(request.path_params["tid"]) is None:
            return Response("No such table: check the invite link.", status_code=404)
        return page("table.html")

    async def info(request: Request) -> Response:
        from rollem import games
        from rollem.games.gamefile import MAX_FILE_BYTES

        ids = available_games()
        return JSONResponse({"games": ids, "names": {g: games.get(g).name for g in ids},
                             "dealers_choice": list(games.DEFAULT_CHOICE),
                             "bot_levels": BOT_LEVEL_HINTS,
                             # the create form's bounds: what creating a table allows
                             "decision_seconds": [settings.shortest_decision,
                                                  DECISION_SECONDS[1]],
                             "max_game_file_bytes": MAX_FILE_BYTES})

    async def create_table(request: Request) -> Response:
        try:
            # Refused before the body is read: an address past its hourly limit.
            limits.check_create(_limit_key(request), time.monotonic())
            # room for a host's game file (at most 64 KB of TOML, JSON-escaped)
            data = await _json_body(request, settings, extra=2 * MAX_FILE_BYTES)
            with_file = isinstance(data, dict) and bool(data.get("game_file"))
            if with_file:
                # A game file is read and dealt on trial: that costs CPU whether or not
                # the file is good, so every try counts against the hourly limit, and
                # it runs off the event loop that serves every table.
                limits.create_table(_limit_key(request), time.monotonic())
                config = await asyncio.to_thread(parse_config, data,
                                                 settings.shortest_decision)
            else:
                config = parse_config(data, settings.shortest_decision)
            if manager().store_count() >= settings.max_tables:
                raise TableError("server_full", "this server holds as many tables as it "
                                 f"may ({settings.max_tables}); try again later")
            if not with_file:
                limits.create_table(_limit_key(request), time.monotonic())
        except TableError as err:
            return _error(_status(err), err.code, err.message)
        except ConfigError as err:
            return _error(400, "bad_config", str(err))
        try:
            table, host_token = await manager().create_async(config)
        except TableError as err:  # the store could not save it
            return _error(503, err.code, err.message)
        url = f"/t/{table.id}"
        base = settings.public_url or str(request.base_url)
        invite = base.rstrip("/") + url
        resp = JSONResponse({"id": table.id, "url": url, "invite": invite})
        set_cookie(request, resp, host_cookie(table.id), host_token)
        return resp

    def table_or_404(request: Request) -> LiveTable | None:
        return manager().get(request.path_params["tid"])

    def _viewer(request: Request, table: LiveTable) -> int | None:
        return table.seat_for_token(request.cookies.get(seat_cookie(table.id)))

    def _may_see(request: Request, table: LiveTable) -> bool:
        """Whether the asking browser may see this table (issue 27: a private table's
        or a password's unapproved watchers may not; :func:`host_tools.may_see`)."""
        watch = request.cookies.get(watch_cookie(table.id))
        return host_tools.may_see(table, _viewer(request, table),
                                  table.is_host(request.cookies.get(host_cookie(table.id))),
                                  token_digest(watch) if watch else None)

    def _private() -> Response:
        return _error(403, "private", "this table is private: ask the host to let you watch "
                      "(with its password, if it has one) or take a seat")

    async def _password_tried(request: Request, table: LiveTable, password: object) -> None:
        """Count an attempt of this address at this table (429 ``rate_limited`` past
        :data:`PASSWORD_TRIES_PER_MINUTE`), then check ``password`` off the event
        loop (``bad_password``, 403)."""
        wait = password_buckets.wait(f"{_limit_key(request)} {table.id}")
        if wait > 0:
            raise TableError("rate_limited", "too many attempts from your address at this "
                             f"table (at most {PASSWORD_TRIES_PER_MINUTE} a minute); try again "
                             f"in {max(1, math.ceil(wait))} s")
        if not await asyncio.to_thread(host_tools.check_password, table, password):
            raise TableError("bad_password", "wrong table password" if password else
                             "this table has a password: give it to watch or sit down")

    async def watch(request: Request) -> Response:
        """Ask to watch a gated table (issue 27): ``{"name", "password"}``; answers
        ``{"watch": "open" | "approved" | "waiting"}`` and sets the watcher cookie."""
        table = table_or_404(request)
        if table is None:
            return _error(404, "no_table", "no such table")
        if not host_tools.gated(table) or _may_see(request, table):
            return JSONResponse({"watch": "open" if not host_tools.gated(table)
                                 else "approved"})
        try:
            data = await _json_body(request, settings)
            await _password_tried(request, table, data.get("password"))
            token = request.cookies.get(watch_cookie(table.id)) or ""
            if not 20 <= len(token) <= 64:
                token = secrets.token_urlsafe(24)
            status = host_tools.watch_request(table, token, data.get("name", ""))
            await table.wait_committed()
        except TableError as err:
            return _error(_status(err), err.code, err.message)
        resp = JSONResponse({"watch": status})
        set_cookie(request, resp, watch_cookie(table.id), token)
        return resp

    async def table_info(request: Request) -> Response:
        table = table_or_404(request)
        if table is None:
            return _error(404, "no_table", "no such table")
        seat = _viewer(request, table)
        if not _may_see(request, table):  # (issue 27: its name, and how to ask)
            return JSONResponse(host_tools.locked_state(table, {"seat": None})["table"]
                                | {"you": None})
        try:
            data = await table.public_when_committed()
        except TableError as err:
            return _error(503, err.code, err.message)
        if (seat is None and table.config.watcher_delay
                and not table.is_host(request.cookies.get(host_cookie(table.id)))):
            data = host_tools.delayed_public(table, data)
        data["you"] = seat
        if settings.public_url:
            data["invite"] = settings.public_url.rstrip("/") + f"/t/{table.id}"
        return JSONResponse(data)

    async def join(request: Request) -> Response:
        table = table_or_404(request)
        if table is None:
            return _error(404, "no_table", "no such table")
        try:
            data = await _json_body(request, settings)
            seat = data.get("seat")
            if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
                raise TableError("malformed", "seat must be a seat number")
            current = _viewer(request, table)
            if current is not None:
                raise TableError("already_seated", f"this browser already sits in seat {current}")
            by_host = table.is_host(request.cookies.get(host_cookie(table.id)))
            if table.session.get("password") and not by_host:
                await _password_tried(request, table, data.get("password"))
            # A player who left and comes back gets the stack they left with.
            number, token = table.join(data.get("name", ""), seat,
                                       returning=request.cookies.get(seat_cookie(table.id)))
            host.after_join(table, number, by_host)  # waits for approval if the host asks
            await table.wait_committed()
        except TableError as err:
            return _error(_status(err), err.code, err.message)
        resp = JSONResponse({"seat": number, "token": token})
        set_cookie(request, resp, seat_cookie(table.id), token)
        return resp

    async def hands(request: Request) -> Response:
        table = table_or_404(request)
        if table is None:
            return _error(404, "no_table", "no such table")
        if not _may_see(request, table):
            return _private()
        out = []
        for hand_no in table.store.hand_numbers(table.id):
            row = table.store.load_hand(table.id, hand_no)
            if row is None or row.result is None:
                continue
            net = row.result.get("net", {})
            # Only the viewer's own hands show its result (never a predecessor's).
            seat = _played(request, table, row, hand_no)
            out.append({
                "hand": hand_no, "game": row.setup["game"],
                "net": net.get(str(seat)) if seat is not None else None,
            })  # fmt: skip
        return JSONResponse({"hands": out})

    async def ledger_csv(request: Request) -> Response:
        """The session's ledger as CSV (issue 27: each player's chips brought, stack
        and net; public at the table, as the ledger panel is)."""
        from rollem.settle import ledger_csv as to_csv

        table = table_or_404(request)
        if table is None:
            return _error(404, "no_table", "no such table")
        if not _may_see(request, table):
            return _private()
        try:
            data = await table.public_when_committed()
        except TableError as err:
            return _error(503, err.code, err.message)
        return Response(to_csv(data["ledger"]), media_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition":
                                 f'attachment; filename="ledger-{table.id}.csv"'})

    async def hands_csv(request: Request) -> Response:
        """Every finished hand's net per player as CSV (issue 27): ``hand``, ``game``,
        ``seat``, ``name``, ``net`` (chips), one row per player dealt in.  Each
        hand's nets are public at the table (its result was shown to all)."""
        from rollem.settle import csv_rows

        table = table_or_404(request)
        if table is None:
            return _error(404, "no_table", "no such table")
        if not _may_see(request, table):
            return _private()
        rows: list[list[object]] = []
        for hand_no in table.store.hand_numbers(table.id):
            row = table.store.load_hand(table.id, hand_no)
            if row is None or row.result is None:
                continue
            names = player_names(row.setup, table.names())
            for seat, net in sorted(row.result.get("net", {}).items(), key=lambda kv: int(kv[0])):
                rows.append([hand_no, row.setup["game"], int(seat), names[int(seat)], net])
        return Response(csv_rows(["hand", "game", "seat", "name", "net"], rows),
                        media_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition":
                                 f'attachment; filename="hands-{table.id}.csv"'})

    stats_cache: dict[str, tuple[int, Any]] = {}
    stats_lock = threading.Lock()  # (one count at a time: the cached counts are shared)

    def _count_stats(table: LiveTable) -> dict[str, Any]:
        """The session's player statistics (issue 27, :mod:`rollem.stats`), from
        the stored hands (a restart changes nothing); hands already counted are
        kept per table, so each finished hand is read once.  Runs in a thread."""
        from rollem.stats import SessionStats

        with stats_lock:
            return _count_stats_locked(table, SessionStats)

    def _count_stats_locked(table: LiveTable, new: Any) -> dict[str, Any]:
        if len(stats_cache) > 256:  # (tables come and go: keep the cache small)
            stats_cache.clear()
        done, session = stats_cache.get(table.id, (0, None))
        if session is None:
            session = new()
        for hand_no in table.store.hand_numbers(table.id):
            if hand_no <= done:
                continue
            row = table.store.load_hand(table.id, hand_no)
            if row is None or row.result is None:
                break  # (the hand in play: counted once finished)
            hand = GameSession.restore(hand_no, row.setup, table.store.load_actions(
                table.id, hand_no))
            names = player_names(row.setup, table.names())
            session.add_hand(row.setup["game"], hand.hand.events,
                             {s: names[s] for s in hand.seats},  # (issue 28: by level)
                             level=(row.setup.get("tournament") or {}).get("level"))
            done = hand_no
        stats_cache[table.id] = (done, session)
        return session.to_dict()  # type: ignore[no-any-return]

    async def stats(request: Request) -> Response:
        """Each player's statistics this session, over every game and per game
        (issue 27): public at the table, as every hand's result is."""
        table = table_or_404(request)
        if table is None:
            return _error(404, "no_table", "no such table")
        if not _may_see(request, table):
            return _private()
        return JSONResponse(await asyncio.to_thread(_count_stats, table))

    def _finished_hand(request: Request) -> tuple[LiveTable, int, HandRow] | Response:
        """The table, hand number and stored row of the finished hand in the URL, or the
        error response (no such table, a malformed number, a hand not finished)."""
        table = table_or_404(request)
        if table is None:
            return _error(404, "no_table", "no such table")
        if not _may_see(request, table):
            return _private()
        hand_no = _hand_number(request.path_params["n"])
        if hand_no is None:
            return _error(400, "malformed", "a hand number (1 or more) is needed")
        row = table.store.load_hand(table.id, hand_no)
        if row is None or row.result is None:
            return _error(404, "no_hand", f"hand {hand_no} is not finished or does not exist")
        return table, hand_no, row

    def _played(request: Request, table: LiveTable, row: HandRow, hand_no: int) -> int | None:
        """The seat the asking browser played in this past hand, or ``None`` (it was
        not dealt in: it sees the hand as a watcher does)."""
        return table.seat_in_hand(request.cookies.get(seat_cookie(table.id)), hand_no,
                                  list(row.setup["seats"]))

    async def _built(cache: ReplayCache, key: Any, make: Callable[[], Callable[[], ReplayBody]],
                     share: str) -> ReplayBody | Response:
        """``cache.get(key, make, share)`` within :data:`BUILD_WAIT_SECONDS`, else a
        503 ``busy`` (the build goes on and is kept)."""
        try:
            return await asyncio.wait_for(cache.get(key, make, share), BUILD_WAIT_SECONDS)
        except TimeoutError:
            resp = _error(503, "busy", "this hand takes long to rebuild; it is being built "
                          "now: try again in a few seconds")
            resp.headers["Retry-After"] = "5"
            return resp

    async def hand_frames(request: Request) -> Response:
        """A finished hand step by step as the asking browser may see it (the lean
        form of :meth:`GameSession.replay`), built on the replay thread and kept:
        a finished hand's replay for one viewer never changes.  Gzipped when the
        browser accepts it."""
        found = _finished_hand(request)
        if isinstance(found, Response):
            return found
        table, hand_no, row = found
        seat = _played(request, table, row, hand_no)
        # The names of the players dealt this hand, not of whoever sits there now.
        names = player_names(row.setup, table.names())

        def make() -> Callable[[], ReplayBody]:
            actions = table.store.load_actions(table.id, hand_no)  # (read on the loop)

            def build() -> ReplayBody:
                session = GameSession.restore(hand_no, row.setup, actions)
                lean = session.replay(seat, names, pause=lambda: time.sleep(0))
                return encode_body(orjson.dumps({
                    "hand": hand_no, "game": row.setup["game"], "seat": seat, "names": names,
                    **lean, "result": row.result,
                }, option=orjson.OPT_NON_STR_KEYS))  # fmt: skip
            return build

        body = await _built(replays, (table.id, hand_no, seat, tuple(names)), make, table.id)
        if isinstance(body, Response):
            return body
        headers = {"Vary": "Accept-Encoding"}
        if "gzip" in request.headers.get("accept-encoding", ""):
            headers["Content-Encoding"] = "gzip"
            return Response(body.gzipped, media_type="application/json", headers=headers)
        return Response(body.json, media_type="application/json", headers=headers)

    async def hand_history(request: Request) -> Response:
        """The player's own copy of a finished hand's history (TOML)."""
        found = _finished_hand(request)
        if isinstance(found, Response):
            return found
        table, hand_no, row = found
        seat = _played(request, table, row, hand_no)
        if seat is None:
            return _error(403, "not_yours", "only a player dealt into this hand can download it")
        # The names of the players dealt this hand, not of whoever sits there now.
        names = player_names(row.setup, table.names())

        def make() -> Callable[[], ReplayBody]:
            actions = table.store.load_actions(table.id, hand_no)  # (read on the loop)

            def build() -> ReplayBody:
                # Replays the hand, showdown included, on the replay thread (issue 34).
                session = GameSession.restore(hand_no, row.setup, actions)
                return ReplayBody(session.history_text(seat, names).encode(), b"")
            return build

        body = await _built(histories, (table.id, hand_no, seat, tuple(names)), make, table.id)
        if isinstance(body, Response):
            return body
        return Response(body.json, media_type="application/toml",
                        headers={"Content-Disposition":
                                 f'attachment; filename="hand-{hand_no}.toml"'})

    async def hand_verify(request: Request) -> Response:
        """``rollem verify`` of the asking player's own copy of a finished hand
        (issue 32): the copy the download gives (:meth:`GameSession.history_text`:
        its commitment, client seeds and the openings of exactly the cards that
        seat saw), checked as the command checks it, off the event loop.  JSON:
        :meth:`rollem.verify.Verdict.to_dict`, with ``seat`` and ``client_seeds``
        (so the page can compare its own seed)."""
        found = _finished_hand(request)
        if isinstance(found, Response):
            return found
        table, hand_no, row = found
        seat = _played(request, table, row, hand_no)
        if seat is None:
            return _error(403, "not_yours", "only a player dealt into this hand can verify "
                          "their copy of it")
        actions = table.store.load_actions(table.id, hand_no)  # (read on the loop)
        names = player_names(row.setup, table.names())

        def check() -> dict[str, Any]:
            import tomllib

            from rollem.verify import verify_history

            session = GameSession.restore(hand_no, row.setup, actions)
            copy = tomllib.loads(session.history_text(seat, names))
            return {**verify_history(copy).to_dict(), "seat": seat,
                    "client_seeds": copy.get("_client_seeds", {})}

        return JSONResponse(await asyncio.to_thread(check))

    async def session_history(request: Request) -> Response:
        """Every finished hand the asking player was dealt into, as one bulk PHH file
        (``.phhs``, issue 27): each hand their own copy (what they saw, plus what
        was shown), standard PHH where the game has a PHH variant code
        (:func:`rollem.phh.copy_phh_dict`), else rollem's own history layout
        (``variant = "rollem-GAME"``); each a table named by its hand number.  The
        latest :data:`MAX_BULK_HANDS` hands, each built on the replay thread and
        kept; past :data:`BUILD_WAIT_SECONDS` a 503 ``busy`` (``Retry-After``) while
        the builds go on."""
        table = table_or_404(request)
        if table is None:
            return _error(404, "no_table", "no such table")
        if not _may_see(request, table):
            return _private()
        token = request.cookies.get(seat_cookie(table.id))
        if not token:
            return _error(403, "not_yours", "only a player can download their hands; take a "
                          "seat first")
        mine: list[tuple[int, int, HandRow, list[str]]] = []
        for hand_no in table.store.hand_numbers(table.id):
            row = table.store.load_hand(table.id, hand_no)
            if row is None or row.result is None:
                continue
            seat = table.seat_in_hand(token, hand_no, list(row.setup["seats"]))
            if seat is not None:
                mine.append((hand_no, seat, row, player_names(row.setup, table.names())))
        if not mine:
            return _error(404, "no_hand", "you were dealt into no finished hand at this table")
        left_out = max(0, len(mine) - MAX_BULK_HANDS)
        mine = mine[left_out:]

        def one(hand_no: int, seat: int, row: HandRow, names: list[str],
                ) -> Awaitable[ReplayBody]:
            def make() -> Callable[[], ReplayBody]:
                actions = table.store.load_actions(table.id, hand_no)  # (read on the loop)
                return lambda: ReplayBody(
                    _phh_chunk(hand_no, seat, row, names, actions).encode(), b"")

            # each hand built once and kept: a new hand adds one build, not 500
            return bulk.get((table.id, "phh", hand_no, seat, tuple(names)), make, table.id)

        try:
            bodies = await asyncio.wait_for(asyncio.gather(*(one(*m) for m in mine)),
                                            BUILD_WAIT_SECONDS)
        except TimeoutError:  # (the builds go on and are kept: the next ask is quicker)
            resp = _error(503, "busy", "your hands take long to gather; they are being "
                          "built now: try again in a few seconds")
            resp.headers["Retry-After"] = "5"
            return resp
        text = _bulk_head(left_out).encode() + b"".join(b.json for b in bodies)
        return Response(text, media_type="application/toml",
                        headers={"Content-Disposition":
                                 f'attachment; filename="session-{table.id}.phhs"'})

    async def how_to_play(request: Request) -> Response:
        """The rules of this table's game as HTML (issue 9): for dealer's choice the
        overview plus ``?game=`` (the current hand's game); the help on the decision
        the asking seat has now, as the terminal's ``?`` words it (else, with
        ``?decision=``, on that kind of decision in that game); and the table's
        options."""
        from rollem.rules import list_games, rules_text, topic_text
        from rollem.server.table_help import (
            asked_decision_help,
            games_dealt,
            seat_decision_help,
        )

        table = table_or_404(request)
        if table is None:
            return _error(404, "no_table", "no such table")
        config = table.config
        game = request.query_params.get("game") or None
        if config.game != "dealers-choice":
            game = config.game
        elif game not in games_dealt(table):
            game = None
        sections = []
        if config.game == "dealers-choice":
            sections.append({"title": "Dealer's choice",
                             "html": render_markdown(topic_text("overview"), 1)})
        if game is not None and game in list_games():
            sections.append({"title": game, "html": render_markdown(rules_text(game), 1)})
        elif game is not None:  # a game file carries its players' rules text
            the_game = config.game_of(game)
            sections.append({"title": the_game.name,
                             "html": render_markdown(the_game.rules.strip(), 1)})
        decision = request.query_params.get("decision") or None
        help_text: str | None = None
        try:  # the seat's decision as saved: nothing is told that is not (its cards)
            await table.public_when_committed()
        except TableError as err:
            return _error(503, err.code, err.message)
        seats = seat_decision_help(table, _viewer(request, table))
        if seats is not None:
            decision, help_text = seats
        elif decision is not None:
            help_text = asked_decision_help(table, game, decision)
        help_html = render_markdown(help_text) if help_text is not None else None
        return JSONResponse({"game": game, "sections": sections, "decision": decision,
                             "decision_help": help_html, "config": config.public_dict(),
                             "bot_levels": BOT_LEVEL_HINTS})

    def origin_allowed(ws: WebSocket) -> bool:
        """A page from another site must not play with this browser's seat cookie.
        Allowed: no Origin (not a browser), the Host the browser asked for (or the
        one a trusted reverse proxy says it asked for: from anyone else
        ``X-Forwarded-Host`` never gets here), the public URL, the allowed origins."""
        origin = ws.headers.get("origin")
        if not origin:
            return True
        netloc = urlsplit(origin).netloc.lower()
        hosts = {ws.headers.get("host", "").lower(),
                 ws.headers.get("x-forwarded-host", "").split(",")[0].strip().lower()}
        return (netloc in hosts - {""}) or origin.rstrip("/").lower() in allowed_origins

    async def websocket(ws: WebSocket) -> None:
        tid = ws.path_params["tid"]
        if not origin_allowed(ws):
            await ws.close(code=4403)
            return
        address = _limit_key(ws)
        # Counted, and refused past the limits, before anything costly: the table
        # is not looked up (nor loaded from the store), no state is built.
        player = seat_cookie(tid) in ws.cookies or host_cookie(tid) in ws.cookies
        refused = limits.open_connection(address, tid, player)
        if refused is not None and player and _holds_seat(ws, tid):
            limits.admit(address, tid)  # a seat's holder is never kept out (issue 34)
            refused = None
        if refused is not None:
            await _refuse(ws, refused)
            return
        try:
            try:
                manager().get(tid)
            except TableElsewhere as moved:  # another process plays it: send the asker there
                await ws.send_denial_response(_moved(moved, ws.url.path, websocket=True))
                return
            except TableUnreadable as err:  # stored, but it cannot be restored: say why
                await ws.accept()
                await ws.send_text(error_message("table_unreadable", _unreadable(err)))
                await ws.close(code=4409)
                return
            await ws.accept()
            player = await _play(ws, tid, player)
        finally:
            limits.close_connection(address, tid, player)

    def _holds_seat(ws: WebSocket, tid: str) -> bool:
        """Whether ``ws`` brings the cookie of a seat at table ``tid`` (or its host's
        cookie): only asked of a connection past the connection limits, so a
        seat's holder gets in whoever else uses up the counts; the table is read
        from the store if it is not in memory (it then stays for its idle time)."""
        try:
            table = manager().get(tid)
        except TableElsewhere:
            return True  # only sent on (307): the holder checks the cookie
        except TableUnreadable:
            return False
        return table is not None and (
            table.seat_for_token(ws.cookies.get(seat_cookie(tid))) is not None
            or table.is_host(ws.cookies.get(host_cookie(tid))))

    async def _refuse(ws: WebSocket, reason: str) -> None:
        if ws.client_state == WebSocketState.CONNECTING:
            await ws.accept()
        await ws.send_text(error_message("too_many_connections", reason))
        await ws.close(code=4429)

    async def _play(ws: WebSocket, tid: str, player: bool) -> bool:
        """Play one connection to its end; returns whether it was counted as a player's."""
        try:
            table = manager().get(tid)
        except (TableElsewhere, TableUnreadable):  # lost since the check (the client retries)
            table = None
        if table is None:
            await ws.send_text(error_message("no_table", "no such table"))
            await ws.close(code=4404)
            return player
        seat = table.seat_for_token(ws.cookies.get(seat_cookie(table.id)))
        client = Client(seat, table.is_host(ws.cookies.get(host_cookie(table.id))))
        watcher = ws.cookies.get(watch_cookie(table.id))
        client.watch_digest = token_digest(watcher) if watcher else None
        if player and seat is None and not client.is_host:
            if not limits.demote(tid):  # a stale or made-up cookie: a watcher after all
                await _refuse(ws, "too many watchers connected to this table (at most "
                              f"{settings.connections_per_table})")
                return True
            player = False
        writer = asyncio.create_task(_writer(ws, client))
        table.connect(client, settings.connections_per_seat)
        bucket = TokenBucket(settings.messages_per_second, settings.message_burst)
        try:
            while not client.closed:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if not bucket.take():
                    client.send(error_message(
                        "rate_limited", f"more than {settings.messages_per_second:g} "
                        "messages a second; this connection is closed"))
                    client.finish()
                    break
                text = message.get("text")
                if text is None:
                    text = message.get("bytes") or b""
                try:
                    parsed = parse_message(text, settings.max_json_depth)
                except ProtocolError as err:
                    client.send(error_message(err.code, err.message))
                    continue
                table.handle(client, parsed)
                # Let every other connection have its turn before this one's next
                # message (a burst already read would otherwise run back to back).
                await asyncio.sleep(0)
        except WebSocketDisconnect:
            pass
        finally:
            if client.finishing:  # let the error saying why go out first
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(asyncio.shield(writer), timeout=1.0)
            table.disconnect(client)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, timeout=1.0)
            writer.cancel()
        return player

    async def _writer(ws: WebSocket, client: Client) -> None:
        try:
            while True:
                text = await client.next_message()
                if text is None:
                    break
                await ws.send_text(text)
        except Exception:
            client.closed = True
        with contextlib.suppress(Exception):
            if client.finishing:
                await ws.close(code=client.close_code, reason=client.close_reason)
            else:
                await ws.close(code=1000)

    routes = [
        Route("/", index),
        Route("/favicon.ico", favicon),
        Route("/healthz", costly(healthz)),
        Route("/api/info", info),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{tid}", table_info),
        Route("/api/tables/{tid}/join", join, methods=["POST"]),
        Route("/api/tables/{tid}/watch", watch, methods=["POST"]),
        Route("/api/tables/{tid}/history.phhs", costly(session_history)),
        Route("/api/tables/{tid}/rules", costly(how_to_play)),
        Route("/api/tables/{tid}/hands", costly(hands)),
        Route("/api/tables/{tid}/ledger.csv", costly(ledger_csv)),
        Route("/api/tables/{tid}/hands.csv", costly(hands_csv)),
        Route("/api/tables/{tid}/stats", costly(stats)),
        Route("/api/tables/{tid}/hands/{n}", costly(hand_frames)),
        Route("/api/tables/{tid}/hands/{n}/history.toml", costly(hand_history)),
        Route("/api/tables/{tid}/hands/{n}/verify", costly(hand_verify)),
        Route("/t/{tid}", table_page),
        WebSocketRoute("/ws/{tid}", websocket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    async def elsewhere(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, TableElsewhere)
        if request.method != "POST":
            return _moved(exc, request.url.path)
        # A proxy cannot send a request body on a second time (Caddy's
        # handle_response): pass a POST on to the holder here and answer its reply.
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > settings.max_body_bytes:
                return _error(413, "too_large", "request body too large: at most "
                              f"{settings.max_body_bytes} bytes")
        return await asyncio.to_thread(_forward, request, exc.lease.url, body)

    async def unreadable(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, TableUnreadable)
        if request.url.path.startswith("/api/"):
            return _error(409, "table_unreadable", _unreadable(exc))
        return Response(_unreadable(exc), status_code=409, media_type="text/plain")

    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={TableElsewhere: elsewhere,
                                        TableUnreadable: unreadable},
                    middleware=[Middleware(TrustedProxies, trusted=settings.forwarded_allow_ips),
                                Middleware(SecurityHeaders)])
    app.state.settings = settings
    app.state.replays = replays  # (tests read what it built)
    app.state.histories = histories
    return app
