"""Forwarded headers count only from the reverse proxies the server trusts.

A reverse proxy (Caddy, nginx: docs/hosting.md) says who the client is and
what it asked for in ``X-Forwarded-For``, ``-Proto`` and ``-Host``.  Anyone
can send those headers, so they are believed only from the addresses given
to ``rollem serve --forwarded-allow-ips`` (uvicorn's syntax: addresses and
networks separated by commas, ``*`` for any).  From a trusted proxy the client
address and scheme are taken from them (uvicorn's
:class:`~uvicorn.middleware.proxy_headers.ProxyHeadersMiddleware`); from
anyone else every ``X-Forwarded-*`` and ``Forwarded`` header is removed before
the app sees the request, so no check (the websocket's origin, the limits per
address) can be steered by a forged one.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

__all__ = ["AsSeen", "TrustedProxies", "parse_trusted"]

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_trusted(spec: str) -> tuple[bool, tuple[Network, ...], frozenset[str]]:
    """``spec`` (``"127.0.0.1, 10.0.0.0/8"``; ``"*"``): whether every peer is trusted,
    the networks trusted (an address is a network of one), and the other items
    kept as literal peer names (a unix socket's).

    Raises:
        ValueError: an empty item (``"127.0.0.1,,"``), naming it.
    """
    items = [item.strip() for item in spec.split(",")]
    if "*" in items:
        return True, (), frozenset()
    networks: list[Network] = []
    literals: set[str] = set()
    for item in items:
        if not item:
            raise ValueError(f"forwarded_allow_ips {spec!r}: an empty item; give addresses "
                             "or networks separated by commas, or *")
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            literals.add(item)
    return False, tuple(networks), frozenset(literals)


class TrustedProxies:
    """ASGI middleware: forwarded headers from ``trusted`` peers are applied (the
    client's address and scheme), from any other peer removed (module docstring)."""

    def __init__(self, app: ASGIApp, trusted: str = "127.0.0.1") -> None:
        self.app = app
        self.proxied = ProxyHeadersMiddleware(app, trusted_hosts=trusted)  # type: ignore[arg-type]
        self.anyone, self.networks, self.literals = parse_trusted(trusted)
        self.trusts = lru_cache(maxsize=4096)(self._trusts)

    def _trusts(self, peer: str) -> bool:
        try:
            address = ipaddress.ip_address(peer)
        except ValueError:
            return peer in self.literals
        return any(address in net for net in self.networks)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        peer = client[0] if client else ""
        if self.anyone or (peer and len(peer) <= 253 and self.trusts(peer)):
            await self.proxied(scope, receive, send)  # type: ignore[arg-type]
            return
        headers = scope["headers"]
        if any(name.startswith(b"x-forwarded-") or name == b"forwarded" for name, _ in headers):
            scope = dict(scope)
            scope["headers"] = [(name, value) for name, value in headers
                                if not (name.startswith(b"x-forwarded-") or name == b"forwarded")]
        await self.app(scope, receive, send)


async def _receive() -> Any:
    raise RuntimeError("nothing is received before the upgrade")


async def _send(message: Any) -> None:
    raise RuntimeError("nothing is sent before the upgrade")


class AsSeen:
    """A request's ASGI scope as the app behind :class:`TrustedProxies` sees it (the
    client's address and scheme from a trusted proxy's headers; from anyone else
    those headers removed), for a check made before the app is called: a
    websocket's opening refused before the upgrade
    (:func:`rollem.server.conn_guard.guarded_http`), so that check and the app
    read one request alike.  The same middleware runs, to an app that only keeps
    the scope: nothing in it waits, so its coroutine ends at its first step."""

    def __init__(self, trusted: str = "127.0.0.1") -> None:
        self._seen: list[Scope] = []

        async def keep(scope: Scope, receive: Receive, send: Send) -> None:
            self._seen.append(scope)

        self._chain = TrustedProxies(keep, trusted)

    def __call__(self, scope: Scope) -> Scope:
        """The scope the app would be given for ``scope`` (a copy; ``scope`` itself
        is not changed).  Raises :class:`RuntimeError` if the middleware waited."""
        self._seen.clear()
        coro = self._chain(dict(scope), _receive, _send)
        try:
            coro.send(None)
        except StopIteration:
            pass
        else:
            coro.close()
            raise RuntimeError("the proxy headers' middleware waited for something")
        return self._seen.pop()
