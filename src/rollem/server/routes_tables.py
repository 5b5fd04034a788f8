"""The web table's pages and table routes (:func:`table_routes`): the create
page and the table page, ``/api/info``, creating a table (``POST /api/tables``),
a table's public state (``GET /api/tables/<id>``), sitting down (``join``),
asking to watch a gated table (``watch``, issue 27), its game's rules
(``rules``) and ``/healthz``.  Mounted by :func:`rollem.server.app.create_app`."""

from __future__ import annotations

import asyncio
import secrets
import time
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from rollem.games.gamefile import MAX_FILE_BYTES
from rollem.server import host, host_tools
from rollem.server.app_context import AppContext
from rollem.server.config import (
    BOT_LEVEL_HINTS,
    DECISION_SECONDS,
    ConfigError,
    UnknownFieldError,
    check_fields,
    form_refusal,
    parse_config,
)
from rollem.server.game_session import available_games
from rollem.server.http_util import (
    error,
    host_cookie,
    json_body,
    only_fields,
    private,
    seat_cookie,
    status_of,
    watch_cookie,
)
from rollem.server.limits import limit_key_of, network_key_of
from rollem.server.live_table import TableError
from rollem.server.markdown import render_markdown
from rollem.server.store import token_digest

__all__ = ["JOIN_FIELDS", "STATIC", "WATCH_FIELDS", "table_routes"]

STATIC = Path(__file__).parent / "static"
"""The browser client's files (served under ``/static``)."""
JOIN_FIELDS = ("name", "password", "seat")
"""What sitting down (``POST /api/tables/<id>/join``) takes; any other field is
refused (``unknown_field``, HTTP 400).  A new table's fields:
:data:`rollem.server.config.CREATE_FIELDS`."""
WATCH_FIELDS = ("name", "password")
"""What asking to watch (``POST /api/tables/<id>/watch``) takes; any other field
is refused (``unknown_field``, HTTP 400)."""


def table_routes(ctx: AppContext) -> list[BaseRoute]:
    """The routes of the pages, of creating and joining tables, and of a table's
    state and rules; the costly ones (rules, ``/healthz``) behind
    :meth:`AppContext.costly`."""
    settings = ctx.settings

    async def healthz(request: Request) -> Response:
        """The store's writer thread is alive and commits (a write round trip)."""
        store = ctx.manager().store
        try:
            await asyncio.wait_for(asyncio.wrap_future(store.submit(
                [("CREATE TABLE IF NOT EXISTS health (id INTEGER PRIMARY KEY, at REAL)", ()),
                 ("INSERT OR REPLACE INTO health (id, at) VALUES (1, ?)", (time.time(),))])),
                timeout=5)
        except Exception as err:
            return JSONResponse({"ok": False, "error": str(err) or type(err).__name__},
                                status_code=503)
        return JSONResponse({"ok": True, "tables_loaded": len(ctx.manager().tables)})

    def page(name: str) -> FileResponse:
        return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})

    async def index(request: Request) -> Response:
        return page("index.html")

    async def favicon(request: Request) -> Response:
        # The pages name /static/favicon.svg; a browser asking the old way gets it too.
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml",
                            headers={"Cache-Control": "max-age=86400"})

    async def table_page(request: Request) -> Response:
        if await ctx.manager().find(request.path_params["tid"]) is None:
            return Response("No such table: check the invite link.", status_code=404)
        return page("table.html")

    async def info(request: Request) -> Response:
        from rollem import games

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
            ctx.limits.check_create(limit_key_of(request), time.monotonic())
            # room for a host's game file (at most 64 KB of TOML, JSON-escaped)
            data = await json_body(request, settings, extra=2 * MAX_FILE_BYTES)
            # a typo ("privte") is refused before anything is read or counted: it
            # would otherwise make a table other than the one asked for
            check_fields(data)
            with_file = isinstance(data, dict) and bool(data.get("game_file"))
            if with_file:
                # A game file is read and dealt on trial: that costs CPU whether or not
                # the file is good, so every try counts against the hourly limit, and
                # it runs off the event loop that serves every table.
                ctx.limits.create_table(limit_key_of(request), time.monotonic())
                await ctx.claim_table(limit_key_of(request))  # (all processes')
                config = await asyncio.to_thread(parse_config, data,
                                                 settings.shortest_decision)
            else:
                config = parse_config(data, settings.shortest_decision)
            if ctx.manager().store_count() >= settings.max_tables:
                raise TableError("server_full", "this server holds as many tables as it "
                                 f"may ({settings.max_tables}); try again later")
            if not with_file:
                ctx.limits.create_table(limit_key_of(request), time.monotonic())
                await ctx.claim_table(limit_key_of(request))  # (all processes')
        except TableError as err:
            return error(status_of(err), err.code, err.message)
        except UnknownFieldError as err:
            return error(400, "unknown_field", str(err))
        except ConfigError as err:  # the API's field names; the lobby shows its labels
            return error(400, "bad_config", str(err),
                         form_message=form_refusal(err, seats_field=True))
        try:
            table, host_token = await ctx.manager().create_async(config)
        except TableError as err:  # the store could not save it
            return error(503, err.code, err.message)
        url = f"/t/{table.id}"
        base = settings.public_url or str(request.base_url)
        invite = base.rstrip("/") + url
        resp = JSONResponse({"id": table.id, "url": url, "invite": invite})
        ctx.set_cookie(request, resp, host_cookie(table.id), host_token)
        return resp

    async def watch(request: Request) -> Response:
        """Ask to watch a gated table (issue 27): ``{"name", "password"}``
        (:data:`WATCH_FIELDS`); answers ``{"watch": "open" | "approved" |
        "waiting"}`` and sets the watcher cookie.  Counted in the address's attempts
        to get in (:meth:`AppContext.join_refusal`) before anything is read."""
        refused = ctx.join_refusal(request)
        if refused is not None:
            return refused
        table = await ctx.table(request)
        if table is None:
            return error(404, "no_table", "no such table")
        try:
            data = await json_body(request, settings)
            only_fields(data, WATCH_FIELDS, "asking to watch")
        except TableError as err:
            return error(status_of(err), err.code, err.message)
        if not host_tools.gated(table) or ctx.may_see(request, table):
            return JSONResponse({"watch": "open" if not host_tools.gated(table)
                                 else "approved"})
        try:
            await ctx.password_tried(request, table, data.get("password"))
            token = request.cookies.get(watch_cookie(table.id)) or ""
            if not 20 <= len(token) <= 64:
                token = secrets.token_urlsafe(24)
            status = host_tools.watch_request(table, token, data.get("name", ""),
                                              network_key_of(request))
            await table.wait_committed()
        except TableError as err:
            return error(status_of(err), err.code, err.message)
        resp = JSONResponse({"watch": status})
        ctx.set_cookie(request, resp, watch_cookie(table.id), token)
        return resp

    async def table_info(request: Request) -> Response:
        table = await ctx.table(request)
        if table is None:
            return error(404, "no_table", "no such table")
        seat = ctx.viewer(request, table)
        if not ctx.may_see(request, table):  # (issue 27: its name, and how to ask)
            return JSONResponse(host_tools.locked_state(table, {"seat": None})["table"]
                                | {"you": None})
        try:
            data = await table.public_when_committed()
        except TableError as err:
            return error(503, err.code, err.message)
        if ctx.delayed(request, table):
            data = host_tools.delayed_public(table, data)
        data["you"] = seat
        if settings.public_url:
            data["invite"] = settings.public_url.rstrip("/") + f"/t/{table.id}"
        return JSONResponse(data)

    async def join(request: Request) -> Response:
        """Sit down: ``{"name", "seat", "password"}`` (:data:`JOIN_FIELDS`; ``seat``
        ``null`` or left out: any free seat); answers ``{"seat", "token"}`` and sets
        the seat cookie.  Counted in the address's attempts to get in
        (:meth:`AppContext.join_refusal`: 429 ``rate_limited`` past them) before the
        table is looked up or the body read."""
        refused = ctx.join_refusal(request)
        if refused is not None:
            return refused
        table = await ctx.table(request)
        if table is None:
            return error(404, "no_table", "no such table")
        try:
            data = await json_body(request, settings)
            only_fields(data, JOIN_FIELDS, "joining a table")
            seat = data.get("seat")
            if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
                raise TableError("malformed", "seat must be a seat number")
            current = ctx.viewer(request, table)
            if current is not None:
                raise TableError("already_seated",
                                 f"this browser already sits in seat {current + 1}")
            by_host = table.is_host(request.cookies.get(host_cookie(table.id)))
            # (a private table's newcomer is told nothing of its seats or names, and
            # one network fills few of its seats while they wait for the host)
            stranger = table.config.private and not by_host and not ctx.may_see(request, table)
            if table.session.get("password") and not by_host:
                await ctx.password_tried(request, table, data.get("password"))
            elif stranger:
                ctx.attempted(request, table, "join")
            if stranger:
                host_tools.newcomer_network_check(table, network_key_of(request))
            # One address holds so many seats at once (each lets its connections in
            # past the address's count): this process's count (no query; asked and
            # counted with no await between), then all processes' (PostgreSQL: one
            # transaction, two processes' claims for one address take turns).
            address = limit_key_of(request)
            too_many = ctx.limits.seat_refusal(address, ctx.seat_held)
            if too_many is not None:
                raise TableError("too_many_seats", too_many)
            returning = request.cookies.get(seat_cookie(table.id))
            token = secrets.token_urlsafe(24)
            claimed = False
            if ctx.address_counts is not None:  # (a sit-down refused anyway asks nothing)
                table.join(data.get("name", ""), seat, returning, stranger, check_only=True)
                claimed = await ctx.claim_seat(address, table.id, token_digest(token))
            try:
                # A player who left and comes back gets the stack they left with.
                number, token = table.join(data.get("name", ""), seat, returning=returning,
                                           stranger=stranger, token=token)
            except TableError:
                if claimed:
                    await ctx.unclaim_seat(address, table.id, token_digest(token))
                raise
            ctx.limits.seat_taken(address, table.id, token_digest(token),
                                  lambda t, d: ctx.seat_held(t, d, stored=False))
            host.after_join(table, number, by_host)  # waits for approval if the host asks
            if stranger:
                host_tools.newcomer_noted(table, number, network_key_of(request))
            await table.wait_committed()
            if claimed:
                await ctx.seat_claimed(address, table.id, token_digest(token))
        except TableError as err:
            return error(status_of(err), err.code, err.message)
        resp = JSONResponse({"seat": number, "token": token})
        ctx.set_cookie(request, resp, seat_cookie(table.id), token)
        return resp

    async def how_to_play(request: Request) -> Response:
        """The rules of this table's game as HTML (issue 9): for dealer's choice the
        overview plus ``?game=`` (the current hand's game); the help on the decision
        the asking seat has now, as the terminal's ``?`` words it (else, with
        ``?decision=``, on that kind of decision in that game: at most
        :data:`~rollem.server.table_help.MAX_ASKED_DECISION` characters, else 400
        ``bad_decision``; one not a kind is answered without help, ``decision``
        ``null``); and the table's options.  A private table's (or a password's)
        unapproved watcher gets 403 ``private``, as from the table's other routes."""
        from rollem.rules import DECISION_KINDS, list_games, rules_text, topic_text
        from rollem.server.table_help import (
            asked_decision_help,
            asked_decision_refusal,
            games_dealt,
            seat_decision_help,
        )

        decision = request.query_params.get("decision") or None
        refusal = asked_decision_refusal(decision)
        if refusal is not None:
            return error(400, "bad_decision", refusal)
        table = await ctx.table(request)
        if table is None:
            return error(404, "no_table", "no such table")
        if not ctx.may_see(request, table):  # (issue 27: its settings and game are its own)
            return private()
        config = table.config
        game = request.query_params.get("game") or None
        # a delayed watcher learns nothing of the hand in play (issue 27), not even
        # its game: one the host no longer offers answers only as the last hand's
        delayed = ctx.delayed(request, table)
        if config.game != "dealers-choice":
            game = config.game
        elif game not in games_dealt(table, delayed):
            game = None
        sections = []
        if config.game == "dealers-choice":
            sections.append({"title": "Dealer's choice",
                             "html": render_markdown(topic_text("overview"), 1)})
        if game is not None and game in list_games():
            sections.append({"title": game, "html": render_markdown(rules_text(game), 1)})
        elif game is not None:  # a game file carries its players' rules text
            the_game = config.game_of(game)
            # (the host's text: rendered off the event loop, as Markdown can cost
            # tens of µs a character; cached once rendered. Stop 56.)
            sections.append({"title": the_game.name,
                             "html": await asyncio.to_thread(
                                 render_markdown, the_game.rules.strip(), 1)})
        help_text: str | None = None
        try:  # the seat's decision as saved: nothing is told that is not (its cards)
            await table.public_when_committed()
        except TableError as err:
            return error(503, err.code, err.message)
        seats = seat_decision_help(table, ctx.viewer(request, table))
        if seats is not None:
            decision, help_text = seats
        elif decision is not None:
            help_text = asked_decision_help(table, game, decision, delayed)
        help_html = render_markdown(help_text) if help_text is not None else None
        if decision not in DECISION_KINDS:  # (a word the page made up is not quoted back)
            decision = None
        return JSONResponse({"game": game, "sections": sections, "decision": decision,
                             "decision_help": help_html, "config": config.public_dict(),
                             "bot_levels": BOT_LEVEL_HINTS})

    return [
        Route("/", index),
        Route("/favicon.ico", favicon),
        Route("/healthz", ctx.costly(healthz)),
        Route("/api/info", info),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{tid}", table_info),
        Route("/api/tables/{tid}/join", join, methods=["POST"]),
        Route("/api/tables/{tid}/watch", watch, methods=["POST"]),
        Route("/api/tables/{tid}/rules", ctx.costly(how_to_play)),
        Route("/t/{tid}", table_page),
    ]
