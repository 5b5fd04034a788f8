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

Modules, one job each: :mod:`~rollem.server.routes_tables` (pages, creating,
joining and watching tables, rules, ``/healthz``),
:mod:`~rollem.server.routes_hands` (hand lists, replays, own copies, verify),
:mod:`~rollem.server.routes_session` (ledger and hands CSV, statistics, the
whole-session ``.phhs``), :mod:`~rollem.server.ws_endpoint` (the websocket),
:mod:`~rollem.server.limits` (the limits per address and per table),
:mod:`~rollem.server.elsewhere` (tables another process plays),
:mod:`~rollem.server.app_context` (what the routes share) and
:mod:`~rollem.server.http_util` (cookies, errors, request bodies); this one
puts them together (:func:`create_app`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.responses import Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from rollem.server import trace
from rollem.server.app_context import AppContext
from rollem.server.config import ServerSettings
from rollem.server.elsewhere import exception_handlers
from rollem.server.headers import SecurityHeaders
from rollem.server.http_util import host_cookie, seat_cookie, watch_cookie
from rollem.server.limits import AddressBuckets, limit_key
from rollem.server.manager import TableManager
from rollem.server.proxies import TrustedProxies
from rollem.server.routes_hands import hand_routes
from rollem.server.routes_session import MAX_BULK_HANDS, session_routes
from rollem.server.routes_tables import STATIC, table_routes
from rollem.server.stores import is_postgres_url, open_store
from rollem.server.ws_endpoint import websocket_route

__all__ = ["MAX_BULK_HANDS", "AddressBuckets", "create_app", "host_cookie", "limit_key",
           "seat_cookie", "watch_cookie"]


def create_app(db_path: str | Path = "rollem.db",
               settings: ServerSettings | None = None) -> Starlette:
    """The web table app, storing everything in the SQLite file ``db_path``,
    limited and addressed by ``settings`` (defaults: :class:`ServerSettings`)."""
    settings = settings or ServerSettings()
    settings.check()
    ctx = AppContext(settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = open_store(db_path)
        leases = None
        if is_postgres_url(db_path):  # several processes may share it (issue 17)
            from rollem.server.leases import Leases, new_owner_id

            leases = Leases(str(db_path), new_owner_id(),
                            settings.advertise_url or settings.public_url or "",
                            settings.lease_seconds)
            from rollem.server.address_counts import AddressCounts

            ctx.address_counts = AddressCounts(str(db_path))  # (per address over all processes)
        mgr = TableManager(store, idle_seconds=settings.idle_seconds,
                           retention_days=settings.retention_days, leases=leases,
                           unplayed_seconds=settings.unplayed_seconds,
                           budget=settings.budget(), pacing=settings.pacing())
        ctx.state["manager"] = mgr
        app.state.manager = mgr
        app.state.limits = ctx.limits
        app.state.address_counts = ctx.address_counts
        app.state.loop = asyncio.get_running_loop()
        mgr.start()
        watcher = trace.watch_loop()  # ROLLEM_TRACE_DIR only
        try:
            yield
        finally:
            if watcher is not None:
                watcher.cancel()
            mgr.shutdown()
            if ctx.address_counts is not None:
                ctx.address_counts.close()

    routes = [
        *table_routes(ctx),
        *session_routes(ctx),
        *hand_routes(ctx),
        websocket_route(ctx),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers=exception_handlers(settings),
                    middleware=[Middleware(TrustedProxies, trusted=settings.forwarded_allow_ips),
                                Middleware(SecurityHeaders)])
    app.state.settings = settings

    def refuse_before_upgrade() -> Callable[[dict[str, Any]], Response | None]:
        """Hand the websocket's opening checks to the HTTP protocol, which asks them
        before the upgrade (:func:`rollem.server.conn_guard.guarded_http`); the
        route no longer asks them (each opening is asked once)."""
        ctx.checked_before_upgrade = True
        return ctx.before_upgrade

    app.state.refuse_before_upgrade = refuse_before_upgrade
    app.state.replays = ctx.replays  # (tests read what it built)
    app.state.histories = ctx.histories
    return app
