"""The ASGI app of the web table (Starlette): pages, a small JSON API and websockets.

Routes:

- ``GET /`` -- create a table (the browser client, no build step).
  ``GET /api/info`` -- the games a table may offer.
- ``POST /api/tables`` -- JSON :class:`~rollem.server.config.TableConfig`
  fields; answers ``{"id", "url"}`` and sets the host cookie.  The table id
  is the unguessable invite token: the link ``/t/<id>`` is the invitation.
- ``GET /t/<id>`` -- the table page.  ``POST /api/tables/<id>/join``
  (``{"name", "seat"}``) sits a player and sets the seat cookie that lets
  this browser reconnect to its seat.
- ``GET /api/tables/<id>/hands`` and ``/hands/<n>`` -- the hand history as
  this seat may see it (its redaction), step by step; ``/hands/<n>/history.toml``
  -- a player's own copy of a hand it was dealt into.
- ``GET /api/tables/<id>/rules`` -- how to play this table's game (HTML).
- ``WS /ws/<id>`` -- the table's live state (see :mod:`rollem.server.protocol`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from rollem.server.config import ConfigError, parse_config
from rollem.server.game_session import GameSession, available_games
from rollem.server.live_table import Client, LiveTable, TableError
from rollem.server.manager import TableManager
from rollem.server.markdown import render_markdown
from rollem.server.protocol import ProtocolError, error_message, parse_message
from rollem.server.store import HandRow, Store

__all__ = ["create_app", "host_cookie", "seat_cookie"]

STATIC = Path(__file__).parent / "static"
COOKIE_AGE = 60 * 60 * 24 * 30


def seat_cookie(table_id: str) -> str:
    """Name of the cookie holding this browser's seat token at ``table_id``."""
    return f"rollem_seat_{table_id}"


def host_cookie(table_id: str) -> str:
    """Name of the cookie holding the host token of ``table_id``."""
    return f"rollem_host_{table_id}"


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


async def _json_body(request: Request) -> dict[str, Any]:
    # JSON only: a cross-site form cannot send it without the browser asking first.
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise TableError("malformed", "send the request body as application/json")
    body = await request.body()
    if len(body) > 16_384:
        raise TableError("too_large", "request body too large")
    try:
        data = json.loads(body or b"{}")
    except ValueError:
        raise TableError("malformed", "the request body must be JSON") from None
    if not isinstance(data, dict):
        raise TableError("malformed", "the request body must be a JSON object")
    return data


def _hand_number(text: str) -> int | None:
    """A hand number from the URL, or None if it is not a plausible one (SQLite INTEGER)."""
    if not text.isdigit() or len(text) > 18:
        return None
    number = int(text)
    return number if number >= 1 else None


def create_app(db_path: str | Path = "rollem.db") -> Starlette:
    """The web table app, storing everything in the SQLite file ``db_path``."""
    state: dict[str, TableManager] = {}

    def manager() -> TableManager:
        return state["manager"]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        mgr = TableManager(Store(db_path))
        state["manager"] = mgr
        app.state.manager = mgr
        app.state.loop = asyncio.get_running_loop()
        mgr.load_all()
        try:
            yield
        finally:
            mgr.shutdown()

    def page(name: str) -> FileResponse:
        return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})

    async def index(request: Request) -> Response:
        return page("index.html")

    async def table_page(request: Request) -> Response:
        if manager().get(request.path_params["tid"]) is None:
            return Response("No such table: check the invite link.", status_code=404)
        return page("table.html")

    async def info(request: Request) -> Response:
        return JSONResponse({"games": available_games()})

    async def create_table(request: Request) -> Response:
        try:
            data = await _json_body(request)
            config = parse_config(data)
        except TableError as err:
            return _error(400, err.code, err.message)
        except ConfigError as err:
            return _error(400, "bad_config", str(err))
        games = available_games()
        if config.game != "dealers-choice" and config.game not in games:
            return _error(400, "bad_config", f"game {config.game!r} is not available yet; "
                          f"available: {', '.join(games)}")
        try:
            table, host_token = manager().create(config)
        except TableError as err:  # the store could not save it
            return _error(503, err.code, err.message)
        url = f"/t/{table.id}"
        invite = str(request.base_url).rstrip("/") + url
        resp = JSONResponse({"id": table.id, "url": url, "invite": invite})
        resp.set_cookie(host_cookie(table.id), host_token, max_age=COOKIE_AGE,
                        httponly=True, samesite="lax")
        return resp

    def table_or_404(request: Request) -> LiveTable | None:
        return manager().get(request.path_params["tid"])

    def _viewer(request: Request, table: LiveTable) -> int | None:
        return table.seat_for_token(request.cookies.get(seat_cookie(table.id)))

    async def table_info(request: Request) -> Response:
        table = table_or_404(request)
        if table is None:
            return _error(404, "no_table", "no such table")
        seat = _viewer(request, table)
        try:
            data = await table.public_when_committed()
        except TableError as err:
            return _error(503, err.code, err.message)
        data["you"] = seat
        return JSONResponse(data)

    async def join(request: Request) -> Response:
        table = table_or_404(request)
        if table is None:
            return _error(404, "no_table", "no such table")
        try:
            data = await _json_body(request)
            seat = data.get("seat")
            if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
                raise TableError("malformed", "seat must be a seat number")
            current = _viewer(request, table)
            if current is not None:
                raise TableError("already_seated", f"this browser already sits in seat {current}")
            number, token = table.join(data.get("name", ""), seat)
            await table.wait_committed()
        except TableError as err:
            return _error(400, err.code, err.message)
        resp = JSONResponse({"seat": number, "token": token})
        resp.set_cookie(seat_cookie(table.id), token, max_age=COOKIE_AGE,
                        httponly=True, samesite="lax")
        return resp

    async def hands(request: Request) -> Response:
        table = table_or_404(request)
        if table is None:
            return _error(404, "no_table", "no such table")
        seat = _viewer(request, table)
        out = []
        for hand_no in table.store.hand_numbers(table.id):
            row = table.store.load_hand(table.id, hand_no)
            if row is None or row.result is None:
                continue
            net = row.result.get("net", {})
            # Only the occupant's own hands show its result (never a predecessor's).
            own = _own_hand(table, row, hand_no, seat)
            out.append({
                "hand": hand_no, "game": row.setup["game"],
                "net": net.get(str(seat)) if own else None,
            })  # fmt: skip
        return JSONResponse({"hands": out})

    def _finished_hand(request: Request) -> tuple[LiveTable, int, HandRow] | Response:
        """The table, hand number and stored row of the finished hand in the URL, or the
        error response (no such table, a malformed number, a hand not finished)."""
        table = table_or_404(request)
        if table is None:
            return _error(404, "no_table", "no such table")
        hand_no = _hand_number(request.path_params["n"])
        if hand_no is None:
            return _error(400, "malformed", "a hand number (1 or more) is needed")
        row = table.store.load_hand(table.id, hand_no)
        if row is None or row.result is None:
            return _error(404, "no_hand", f"hand {hand_no} is not finished or does not exist")
        return table, hand_no, row

    def _own_hand(table: LiveTable, row: HandRow, hand_no: int, seat: int | None) -> bool:
        """Whether ``seat`` was dealt into this past hand (it joined before the deal)."""
        return (seat is not None and seat in row.setup["seats"]
                and table.seats[seat].row.joined_hand < hand_no)

    def _replay(table: LiveTable, row: HandRow, hand_no: int) -> GameSession:
        return GameSession.restore(hand_no, row.setup, table.store.load_actions(table.id,
                                                                                hand_no))

    async def hand_frames(request: Request) -> Response:
        found = _finished_hand(request)
        if isinstance(found, Response):
            return found
        table, hand_no, row = found
        seat = _viewer(request, table)
        # A seat sees a past hand as itself only if it was its own (joined before the deal).
        if not _own_hand(table, row, hand_no, seat):
            seat = None
        session = _replay(table, row, hand_no)
        return JSONResponse({
            "hand": hand_no, "game": row.setup["game"], "seat": seat,
            "frames": session.frames(seat), "result": row.result,
        })  # fmt: skip

    async def hand_history(request: Request) -> Response:
        """The player's own copy of a finished hand's history (TOML)."""
        found = _finished_hand(request)
        if isinstance(found, Response):
            return found
        table, hand_no, row = found
        seat = _viewer(request, table)
        if seat is None or not _own_hand(table, row, hand_no, seat):
            return _error(403, "not_yours", "only a player dealt into this hand can download it")
        session = _replay(table, row, hand_no)
        names = [f"seat {s}" for s in range(len(row.setup["stacks"]))]
        for number, info in table.seats.items():
            if number < len(names):
                names[number] = info.row.name
        return Response(session.history_text(seat, names), media_type="application/toml",
                        headers={"Content-Disposition":
                                 f'attachment; filename="hand-{hand_no}.toml"'})

    async def how_to_play(request: Request) -> Response:
        """The rules of this table's game as HTML (issue 9): for dealer's choice the
        overview plus ``?game=`` (the current hand's game); with ``?decision=`` also
        the help on that decision; and the table's options."""
        from rollem.rules import RulesError, decision_help, list_games, rules_text, topic_text

        table = table_or_404(request)
        if table is None:
            return _error(404, "no_table", "no such table")
        config = table.config
        game = request.query_params.get("game") or None
        if config.game != "dealers-choice":
            game = config.game
        elif game not in list_games():
            game = None
        sections = []
        if config.game == "dealers-choice":
            sections.append({"title": "Dealer's choice",
                             "html": render_markdown(topic_text("overview"), 1)})
        if game is not None:
            sections.append({"title": game, "html": render_markdown(rules_text(game), 1)})
        help_html = None
        decision = request.query_params.get("decision")
        if decision:
            try:
                help_html = render_markdown(decision_help(game, decision))
            except RulesError:
                help_html = None
        return JSONResponse({"game": game, "sections": sections, "decision": decision,
                             "decision_help": help_html, "config": config.to_dict()})

    async def websocket(ws: WebSocket) -> None:
        table = manager().get(ws.path_params["tid"])
        origin = ws.headers.get("origin")
        if origin and urlsplit(origin).netloc != ws.headers.get("host"):
            # A page from another site must not play with this browser's seat cookie.
            await ws.close(code=4403)
            return
        await ws.accept()
        if table is None:
            await ws.send_text(error_message("no_table", "no such table"))
            await ws.close(code=4404)
            return
        seat = table.seat_for_token(ws.cookies.get(seat_cookie(table.id)))
        client = Client(seat, table.is_host(ws.cookies.get(host_cookie(table.id))))
        writer = asyncio.create_task(_writer(ws, client))
        table.connect(client)
        try:
            while not client.closed:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    text = message.get("bytes") or b""
                try:
                    parsed = parse_message(text)
                except ProtocolError as err:
                    client.send(error_message(err.code, err.message))
                    continue
                table.handle(client, parsed)
        except WebSocketDisconnect:
            pass
        finally:
            table.disconnect(client)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, timeout=1.0)
            writer.cancel()

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
            await ws.close()

    routes = [
        Route("/", index),
        Route("/api/info", info),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{tid}", table_info),
        Route("/api/tables/{tid}/join", join, methods=["POST"]),
        Route("/api/tables/{tid}/rules", how_to_play),
        Route("/api/tables/{tid}/hands", hands),
        Route("/api/tables/{tid}/hands/{n}", hand_frames),
        Route("/api/tables/{tid}/hands/{n}/history.toml", hand_history),
        Route("/t/{tid}", table_page),
        WebSocketRoute("/ws/{tid}", websocket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
