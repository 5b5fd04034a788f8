"""The web table's websocket endpoint, ``WS /ws/<id>`` (:func:`websocket_route`):
the Origin check, the connection limits per address and per table (refused
before the table is looked up; a seat's holder is never kept out, issue 34),
then one connection played to its end: messages parsed
(:mod:`rollem.server.protocol`) within a token bucket per connection and one
per address (all its connections together: :meth:`Limits.message_taken`) and
handed to the :class:`~rollem.server.live_table.LiveTable`, whose messages a
writer task sends."""

from __future__ import annotations

import asyncio
import contextlib
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from starlette.responses import Response
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from rollem.server.app_context import AppContext
from rollem.server.elsewhere import moved_to
from rollem.server.http_util import error, host_cookie, seat_cookie, unreadable, watch_cookie
from rollem.server.limits import TokenBucket, limit_key_of
from rollem.server.live_table import Client
from rollem.server.manager import TableElsewhere, TableUnreadable
from rollem.server.protocol import ProtocolError, error_message, parse_message
from rollem.server.store import token_digest

__all__ = ["websocket_route"]


def websocket_route(ctx: AppContext) -> WebSocketRoute:
    """``/ws/{tid}``: a table's live state and its players' messages."""
    settings = ctx.settings
    limits = ctx.limits

    def origin_allowed(ws: HTTPConnection) -> bool:
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
        return (netloc in hosts - {""}) or origin.rstrip("/").lower() in ctx.allowed_origins

    def opening_refusal(conn: HTTPConnection) -> Response | None:
        """The HTTP answer refusing a websocket's opening for what its request alone
        says, or ``None``: a page of another site (403 ``bad_origin``), an address
        opening websockets too fast (429 ``rate_limited``, ``Retry-After``; one of
        its openings spent).  Asked once per opening, before anything is counted or
        read: by ``rollem serve`` before the upgrade
        (:func:`rollem.server.conn_guard.guarded_http`, ``ctx.checked_before_upgrade``:
        no websocket handshake, no task, no ASGI app), else here."""
        if not origin_allowed(conn):
            return error(403, "bad_origin", "a page of another site may not connect to "
                         "this table")
        too_fast = limits.connect_refused(limit_key_of(conn))
        if too_fast is not None:
            denial = error(429, "rate_limited", too_fast)
            denial.headers["Retry-After"] = too_fast.rsplit(" ", 2)[1]
            return denial
        return None

    ctx.opening_refusal = opening_refusal

    async def websocket(ws: WebSocket) -> None:
        tid = ws.path_params["tid"]
        if not ctx.checked_before_upgrade:
            denial = opening_refusal(ws)
            if denial is not None:  # (an HTTP answer: no websocket is opened to say it)
                await ws.send_denial_response(denial)
                return
        address = limit_key_of(ws)
        # Counted, and refused past the limits, before anything costly: the table
        # is not looked up (nor loaded from the store), no state is built.
        player = seat_cookie(tid) in ws.cookies or host_cookie(tid) in ws.cookies
        refused = limits.open_connection(address, tid, player)
        if refused is not None and player and await _holds_seat(ws, tid):
            limits.admit(address, tid)  # a seat's holder is never kept out (issue 34)
            refused = None
        if refused is not None:
            await _refuse(ws, refused)
            return
        try:
            try:
                await ctx.manager().find(tid)
            except TableElsewhere as moved:  # another process plays it: send the asker there
                await ws.send_denial_response(moved_to(moved, ws.url.path, websocket=True))
                return
            except TableUnreadable as err:  # stored, but it cannot be restored: say why
                await ws.accept()
                await ws.send_text(error_message("table_unreadable", unreadable(err)))
                await ws.close(code=4409)
                return
            await ws.accept()
            player = await _play(ws, tid, player, address)
        finally:
            limits.close_connection(address, tid, player)

    async def _holds_seat(ws: WebSocket, tid: str) -> bool:
        """Whether ``ws`` brings the cookie of a seat at table ``tid`` (or its host's
        cookie): only asked of a connection past the connection limits, so a
        seat's holder gets in whoever else uses up the counts; the table is read
        from the store if it is not in memory (it then stays for its idle time)."""
        try:
            table = await ctx.manager().find(tid)
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

    async def _play(ws: WebSocket, tid: str, player: bool, address: str) -> bool:
        """Play one connection to its end; returns whether it was counted as a player's.
        ``address``: what the per-address limits count it under (its messages too)."""
        try:
            table = await ctx.manager().find(tid)
        except (TableElsewhere, TableUnreadable):  # lost since the check (the client retries)
            table = None
        if table is None:
            await ws.send_text(error_message("no_table", "no such table"))
            await ws.close(code=4404)
            return player
        seat_token = ws.cookies.get(seat_cookie(table.id))
        seat = table.seat_for_token(seat_token)
        client = Client(seat, table.is_host(ws.cookies.get(host_cookie(table.id))))
        # (a seat freed since: the host may have removed its player, who is told so)
        client.seat_digest = token_digest(seat_token) if seat is None and seat_token else None
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
                if not limits.message_taken(address):  # (however many seats it holds)
                    client.send(error_message(
                        "rate_limited", f"more than {limits.address_messages()[0]:g} "
                        "messages a second from your address (all its connections "
                        "together); this connection is closed"))
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

    return WebSocketRoute("/ws/{tid}", websocket)
