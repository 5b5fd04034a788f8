"""Security headers on every HTTP response of the web table.

The page loads only its own scripts, styles and websocket, so the policy
allows nothing else: a game file's rules text or a player's name that slipped
some markup past the escaping could still not load or run anything, nor send
anything anywhere.  No page may frame the table (clickjacking), and no
address leaves in a ``Referer`` header (an invite link is the table's key).

Every answer under ``/api/`` is ``Cache-Control: no-store`` (unless the route
says otherwise): many are one player's own (their copy of a hand with their
hole cards, their replay, their seat in the table's state) and depend on the
seat cookie alone, so a cache between the browser and ``rollem serve`` (a
reverse proxy set to cache, a CDN) must not keep one and hand it to another
player, and a shared computer's browser must not keep it on disk.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["API_CACHE_CONTROL", "CONTENT_SECURITY_POLICY", "SecurityHeaders"]

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)

_HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
]


API_CACHE_CONTROL = b"no-store"
"""``Cache-Control`` of every ``/api/`` answer that sets none itself."""


class SecurityHeaders:
    """ASGI middleware: adds the headers above to every HTTP response
    (websockets pass through untouched)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        api = str(scope.get("path", "")).startswith("/api/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", []), *_HEADERS]
                if api and not any(k.lower() == b"cache-control" for k, _ in headers):
                    headers.append((b"cache-control", API_CACHE_CONTROL))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)
