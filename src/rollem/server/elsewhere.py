"""Tables another process plays (issue 17, several processes on one PostgreSQL
store): a request for one is sent there (:func:`moved_to`, a 307) or, a POST,
passed on (:func:`forward`); :func:`exception_handlers` answers
:class:`~rollem.server.manager.TableElsewhere` and
:class:`~rollem.server.manager.TableUnreadable` (a stored table this server
cannot restore: 409 ``table_unreadable``) from any route."""

from __future__ import annotations

import asyncio
import re
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response

from rollem.server.config import ServerSettings
from rollem.server.http_util import error, unreadable
from rollem.server.limits import client_address
from rollem.server.manager import TableElsewhere, TableUnreadable

__all__ = ["exception_handlers", "forward", "moved_to"]

_FORWARD_THREADS = ThreadPoolExecutor(8, thread_name_prefix="rollem-forward")
"""Where a POST for a table another process holds waits for the holder's reply (at
most 15 s each): never the event loop's default executor, which every sit-down
(the seats' shared count), a table's creation and a password check use: a holder
that hangs while its lease lasts would hold them all (stop 72, s72-hostile2)."""


def moved_to(moved: TableElsewhere, path: str, websocket: bool = False) -> Response:
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


def forward(request: Request, owner: str, body: bytes) -> Response:
    """``request`` (with ``body``) made to the table's holder at ``owner``; its reply
    (status, body, content type, cookies).  A holder that cannot be reached: 503."""
    headers = {k: v for k, v in request.headers.items() if k in _FORWARDED}
    headers["x-forwarded-for"] = client_address(request)
    url = owner.rstrip("/") + request.url.path
    req = urllib.request.Request(url, data=body, headers=headers, method=request.method)
    try:
        with urllib.request.urlopen(req, timeout=15) as reply:
            status, got, data = reply.status, reply.headers, reply.read()
    except urllib.error.HTTPError as err:
        status, got, data = err.code, err.headers, err.read()
    except OSError as err:
        return error(503, "moving", f"this table's server cannot be reached ({err}); "
                     "try again in a moment")
    resp = Response(data, status_code=status, media_type=got.get("content-type"))
    for cookie in got.get_all("set-cookie") or []:
        resp.headers.append("set-cookie", cookie)
    return resp


def exception_handlers(settings: ServerSettings,
                       ) -> dict[Any, Callable[[Request, Exception], Awaitable[Response]]]:
    """The app's answers to a table played elsewhere (sent there, a POST passed on,
    its body at most ``settings.max_body_bytes``) and to a table that cannot be
    restored (409 ``table_unreadable``, JSON under ``/api/``, else text)."""

    async def elsewhere(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, TableElsewhere)
        if request.method != "POST":
            return moved_to(exc, request.url.path)
        # A proxy cannot send a request body on a second time (Caddy's
        # handle_response): pass a POST on to the holder here and answer its reply.
        chunks: list[bytes] = []  # (joined once: a body in 1-byte pieces costs no more)
        size = 0
        try:
            async for chunk in request.stream():
                size += len(chunk)
                if size > settings.max_body_bytes:
                    return error(413, "too_large", "request body too large: at most "
                                 f"{settings.max_body_bytes} bytes")
                chunks.append(chunk)
        except ClientDisconnect:  # gone before its end: nothing to pass on, no traceback
            return error(400, "malformed", "the request body was not sent whole")
        return await asyncio.get_running_loop().run_in_executor(
            _FORWARD_THREADS, forward, request, exc.lease.url, b"".join(chunks))

    async def cannot_restore(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, TableUnreadable)
        if request.url.path.startswith("/api/"):
            return error(409, "table_unreadable", unreadable(exc))
        return Response(unreadable(exc), status_code=409, media_type="text/plain")

    return {TableElsewhere: elsewhere, TableUnreadable: cannot_restore}
