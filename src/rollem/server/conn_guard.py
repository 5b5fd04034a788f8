"""HTTP connections that hold file handles without asking for anything (issue 34).

uvicorn closes an idle keep-alive connection after a response
(``timeout_keep_alive``), but has no timeout for a request's head or body:
a TCP connection that sends nothing, or a request head a byte a second
(slowloris), stays open for ever, and with the usual 1,024-handle limit a
thousand of them block every new page and websocket.  This module wraps
uvicorn's HTTP protocol (:func:`guarded_http`):

- **A deadline per request**: a connection must send a whole request (head
  and body) within ``timeout`` seconds of opening, or of its last answer;
  else it is closed.  A request fully read is the app's: no deadline while
  it is answered.  Websockets leave the guard once upgraded (their own ping
  timeout, and the app's per-address and per-table counts, bound them).
- **A cap per address** (:func:`~rollem.server.limits.limit_key`: IPv4 address,
  IPv6 /64) of open HTTP connections; a trusted proxy's are not counted
  (every visitor comes from it).
- **A cap in total** (``most_open``, below the process's open-file limit,
  websockets included): the server never runs out of handles, so it can
  always accept and answer.
- **A cap on a request's head** (``max_head`` bytes of request line and
  headers; httptools reads any size, h11 stops at 16 KB): past it, 431 and
  closed (:meth:`ConnectionGuard.refuse_head`).
- **A websocket refused for its request alone** is answered before the
  upgrade (:meth:`ConnectionGuard.refuse_upgrade`, the app's checks).

At either cap the *oldest connection still waiting for its request* is
closed to make room (an honest browser's request head arrives within
milliseconds of its connection; an idle keep-alive connection it will simply
open again), so a new visitor is never kept out by idle or slow connections;
only when none is waiting is the new connection refused (HTTP 503).  Every
refusal and every connection closed to make room is logged, at most one line
per kind every :data:`LOG_EVERY` seconds with the count since the last
(:class:`ThrottledLog`), so a flood cannot flood the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import resource
import time
from collections import defaultdict
from collections.abc import Callable, Mapping
from http import HTTPStatus
from typing import Any

from rollem.server.proxies import parse_trusted

__all__ = ["CONTROL_FLOOD_REASON", "CONTROL_FRAMES_PER_SECOND", "CONTROL_FRAME_BURST",
           "READ_SLICE", "ConnectionGuard", "ThrottledLog", "guarded_http", "handle_limit",
           "quiet_denials", "raise_handle_limit"]

log = logging.getLogger("rollem.server.connections")

LOG_EVERY = 10.0
"""Seconds between two log lines of one kind (refusals, closings to make room)."""

HANDLE_RESERVE = 128
"""Open files kept back from connections (the database, its journal, logs, pages
being sent, threads' pipes): :func:`handle_limit`."""

_BUSY = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
         b"connection: close\r\nretry-after: 5\r\ncontent-length: 43\r\n\r\n"
         b"this server is busy: try again in a moment\n")


def raise_handle_limit() -> tuple[int, int]:
    """Raise this process's soft limit of open files to its hard limit (the soft
    one is often 1,024, far below what the system allows); returns (soft, hard)
    after.  Left as it is where the system refuses."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != soft and (hard == resource.RLIM_INFINITY or hard > soft):
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft, hard


def handle_limit() -> int:
    """Connections (HTTP and websockets) this process may hold open at once: its
    soft open-file limit less :data:`HANDLE_RESERVE` (a quarter of a small one)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        soft = 1 << 20
    return max(8, soft - min(HANDLE_RESERVE, soft // 4))


class ThrottledLog:
    """Warnings of one kind at most every ``every`` seconds: the first at once,
    the others counted and told in the next line (or ``every`` seconds later)."""

    def __init__(self, logger: logging.Logger, every: float = LOG_EVERY,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.logger = logger
        self.every = every
        self.clock = clock
        self.last: dict[str, float] = {}
        self.pending: dict[str, tuple[int, str]] = {}
        self.levels: dict[str, int] = {}
        self.scheduled: set[str] = set()

    def note(self, kind: str, detail: str, level: int = logging.WARNING) -> None:
        """One event of ``kind`` (``detail``: what the latest was), told at ``level``."""
        now = self.clock()
        self.levels[kind] = level
        count, _ = self.pending.get(kind, (0, ""))
        self.pending[kind] = (count + 1, detail)
        last = self.last.get(kind)
        if last is None or now - last >= self.every:
            self.flush(kind)
        elif kind not in self.scheduled:
            self.scheduled.add(kind)
            with contextlib.suppress(RuntimeError):  # (no loop: told at the next note)
                asyncio.get_running_loop().call_later(last + self.every - now,
                                                      self.flush, kind)

    def flush(self, kind: str) -> None:
        self.scheduled.discard(kind)
        count, detail = self.pending.pop(kind, (0, ""))
        if not count:
            return
        self.last[kind] = self.clock()
        self.logger.log(self.levels.get(kind, logging.WARNING),
                        "%s: %d in the last %g s (latest: %s)", kind, count, self.every,
                        detail)


class ConnectionGuard:
    """The connection counts and deadlines of one server (module docstring).

    Args:
        timeout: seconds a connection has to send a whole request (more than 0).
        per_address: open HTTP connections from one address (at least 1).
        most_open: connections in total, websockets included (at least 1).
        trusted: the ``--forwarded-allow-ips`` spec: these peers are not capped.
        max_head: bytes of one request's line and headers (httptools; more: 431).
    """

    def __init__(self, timeout: float, per_address: int, most_open: int,
                 trusted: str = "127.0.0.1", max_head: int = 65_536) -> None:
        self.timeout = timeout
        self.max_head = max_head
        self.per_address = per_address
        self.most_open = most_open
        self.anyone, self.networks, self.literals = parse_trusted(trusted)
        self.http: dict[Any, str | None] = {}  # open HTTP protocol -> its address key
        self.waiting: dict[Any, asyncio.TimerHandle | None] = {}  # oldest first
        self.by_address: dict[str, int] = defaultdict(int)
        self.sockets: set[Any] = set()  # transports of upgraded websockets
        self._prune_at = 64  # (closed ones are dropped when the set reaches it)
        self.log = ThrottledLog(log)
        self.timed_out = 0  # connections closed for their deadline (tests read it)
        self.before_upgrade: Callable[[dict[str, Any]], Any] | None = None
        """Asked of each websocket's opening request before the upgrade (its ASGI
        scope, as the server built it): ``None`` to upgrade, else a Starlette
        ``Response`` sent instead, the connection then closed
        (:func:`guarded_http`; the app's ``refuse_before_upgrade``)."""
        self.refused_upgrades = 0  # (tests and benches read it)
        self.as_seen: Callable[[dict[str, Any]], Mapping[str, Any]] | None = None
        """The scope as the app sees it (:class:`rollem.server.proxies.AsSeen`):
        the client a refused opening's access-log line names (a trusted proxy's
        client, not the proxy)."""

    # -- counting --------------------------------------------------------------

    def _key(self, peer: str) -> str | None:
        """What ``peer`` is counted under, or ``None`` for a trusted proxy."""
        from rollem.server.limits import limit_key

        if self.anyone or peer in self.literals:
            return None
        key = limit_key(peer)
        try:
            address = ipaddress.ip_address(peer.split("%", 1)[0])
        except ValueError:
            return key
        if any(address in net for net in self.networks):
            return None
        return key

    def open_count(self) -> int:
        """Open connections: HTTP ones and websockets not yet closing."""
        if len(self.http) + len(self.sockets) >= self.most_open:
            self.sockets = {t for t in self.sockets if not t.is_closing()}
        return len(self.http) + len(self.sockets)

    def opened(self, proto: Any, peer: str) -> bool:
        """Count a new connection from ``peer``; ``False`` when it was refused
        (answered 503 and closed).  Makes room first (module docstring)."""
        key = self._key(peer)
        if key is not None and self.by_address[key] >= self.per_address:
            victim = next((p for p in self.waiting if self.http.get(p) == key), None)
            if victim is None:
                self._refuse(proto, f"{peer}: {self.per_address} connections from its "
                             "address, each busy")
                return False
            self.log.note("closed a waiting connection to make room for a new one from "
                          "its address", f"{peer}, {self.per_address} open from it")
            self._close(victim)
        if self.open_count() >= self.most_open:
            victim = next(iter(self.waiting), None)
            if victim is None:
                self._refuse(proto, f"{peer}: {self.most_open} connections open, each "
                             "busy (the open-file limit)")
                return False
            self.log.note("closed the oldest waiting connection to make room (open "
                          "connections at the limit)", f"for {peer}, {self.most_open} open")
            self._close(victim)
        self.http[proto] = key
        if key is not None:
            self.by_address[key] += 1
        self.wait_for_request(proto)
        return True

    def _refuse(self, proto: Any, detail: str) -> None:
        self.log.note("refused new HTTP connections", detail)
        transport = proto.transport
        if transport is not None and not transport.is_closing():
            transport.write(_BUSY)
            transport.close()

    def _close(self, proto: Any) -> None:
        self.done(proto)
        transport = proto.transport
        if transport is not None and not transport.is_closing():
            transport.close()

    def wait_for_request(self, proto: Any) -> None:
        """``proto`` now waits for a request: it has ``timeout`` seconds to send it."""
        if proto not in self.http:
            return
        self._stop_clock(proto)
        loop = asyncio.get_running_loop()
        self.waiting[proto] = loop.call_later(self.timeout, self._deadline, proto)

    def request_read(self, proto: Any) -> None:
        """``proto``'s request is all read: the app answers it, no deadline."""
        if proto in self.waiting:
            self._stop_clock(proto)

    def _stop_clock(self, proto: Any) -> None:
        timer = self.waiting.pop(proto, None)
        if timer is not None:
            timer.cancel()

    def _deadline(self, proto: Any) -> None:
        if proto in self.waiting:
            self.waiting.pop(proto)
            cycle = getattr(proto, "cycle", None)
            if cycle is not None and not cycle.response_complete and not cycle.more_body:
                return  # a request all read (a pipelined one): the app's to answer
            self.timed_out += 1
            peer = proto.transport.get_extra_info("peername") if proto.transport else None
            self.log.note(f"closed connections that sent no whole request in {self.timeout:g} s",
                          str(peer[0]) if isinstance(peer, tuple) and peer else "?",
                          logging.INFO)
            self._close(proto)

    def refuse_head(self, proto: Any) -> None:
        """``proto`` has sent more than :attr:`max_head` bytes of one request's line
        and headers: answer 431 and close it (try-out of stop 53: a 1 MB header
        was read whole and answered, 4 ms of the server's CPU; 125,000 small
        headers, 40 ms).  Logged at most once per :data:`LOG_EVERY` seconds."""
        peer = proto.transport.get_extra_info("peername") if proto.transport else None
        self.log.note("refused request heads too large",
                      f"{peer[0] if isinstance(peer, tuple) and peer else '?'}: more than "
                      f"{self.max_head} bytes")
        text = (f"request head too large: at most {self.max_head} bytes of request line "
                "and headers\n").encode()
        transport = proto.transport
        self.done(proto)
        if transport is not None and not transport.is_closing():
            transport.write(b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
                            b"content-type: text/plain; charset=utf-8\r\nconnection: close\r\n"
                            + f"content-length: {len(text)}\r\n\r\n".encode() + text)
            transport.close()

    def refuse_upgrade(self, proto: Any, event: Any = None) -> bool:
        """Ask :attr:`before_upgrade` of ``proto``'s websocket request; on a refusal
        send its answer, close the connection and return ``True``.  The request's
        head is all read; nothing else is (no websocket handshake, no ASGI task):
        an address flooding openings costs the HTTP parse only (try-out of stop
        53).  ``event``: h11's request (its target), httptools' is ``proto.url``."""
        if self.before_upgrade is None:
            return False
        scope = getattr(proto, "scope", None)
        if not isinstance(scope, dict):
            return False
        target = event.target if event is not None else getattr(proto, "url", b"")
        path, _, query = bytes(target).partition(b"?")
        ws_scope = {
            "type": "websocket", "asgi": {"version": "3.0"},
            "http_version": scope.get("http_version", "1.1"),
            "scheme": "wss" if getattr(proto, "scheme", "http") == "https" else "ws",
            "server": getattr(proto, "server", None), "client": getattr(proto, "client", None),
            "root_path": scope.get("root_path", ""),
            "path": path.decode("latin-1"), "raw_path": path, "query_string": query,
            "headers": scope.get("headers", []),
        }  # fmt: skip
        answer = self.before_upgrade(ws_scope)
        if answer is None:
            return False
        self.refused_upgrades += 1
        status = int(answer.status_code)
        head = [f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\n".encode("latin-1")]
        head += [name + b": " + value + b"\r\n" for name, value in answer.raw_headers]
        head.append(b"connection: close\r\n\r\n")
        logger = getattr(proto, "logger", None)
        if getattr(proto, "access_log", False) and logger is not None:
            # (as uvicorn words a websocket refused with an HTTP answer)
            seen = self.as_seen(ws_scope) if self.as_seen is not None else ws_scope
            logger.info('%s - "WebSocket %s" %d', _client_text(seen.get("client")),
                        ws_scope["path"], status)
        transport = proto.transport
        self.done(proto)
        if transport is not None and not transport.is_closing():
            transport.write(b"".join(head) + bytes(answer.body))
            transport.close()
        return True

    def upgraded(self, proto: Any) -> None:
        """``proto`` became a websocket: counted in the total until it closes."""
        self.done(proto)
        if proto.transport is not None:
            self.sockets.add(proto.transport)
            if len(self.sockets) >= self._prune_at:
                self.sockets = {t for t in self.sockets if not t.is_closing()}
                self._prune_at = 2 * len(self.sockets) + 64

    def done(self, proto: Any) -> None:
        """``proto`` closed (or left HTTP): count it off."""
        self._stop_clock(proto)
        if proto not in self.http:
            return
        key = self.http.pop(proto)
        if key is not None:
            self.by_address[key] -= 1
            if self.by_address[key] <= 0:
                del self.by_address[key]


def _client_text(client: Any) -> str:
    """``host:port`` of an ASGI scope's ``client`` (uvicorn's access-log form);
    ``host`` alone for a trusted proxy's client (port 0: the header gives none)."""
    if isinstance(client, tuple | list) and len(client) == 2:
        return f"{client[0]}:{client[1]}" if client[1] else str(client[0])
    return ""


def guarded_http(guard: ConnectionGuard) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol class (httptools, else h11) with ``guard`` on every
    connection: pass it as ``uvicorn.Config(http=...)``."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    # httptools reads a request head of any size (h11 stops at 16 KB itself):
    # its bytes are counted from the request's start to its head's end.
    counts_heads = hasattr(AutoHTTPProtocol, "on_headers_complete")

    class GuardedHTTP(AutoHTTPProtocol):  # type: ignore[misc, valid-type]
        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            peer = transport.get_extra_info("peername")
            host = str(peer[0]) if isinstance(peer, tuple) and peer else str(peer or "")
            guard.opened(self, host)

        def connection_lost(self, exc: Exception | None) -> None:
            guard.done(self)
            super().connection_lost(exc)

        head_bytes = 0  # (httptools) bytes read of the request head in progress
        in_head = True  # (httptools) a request head is awaited or being read
        head_refused = False

        def data_received(self, data: bytes) -> None:
            if self.head_refused:
                return
            if counts_heads and self.in_head:
                self.head_bytes += len(data)
            super().data_received(data)
            if counts_heads and self.in_head and self.head_bytes > guard.max_head:
                self.head_refused = True  # (a head still coming: all its bytes so far)
            if self.head_refused:
                if not self.transport.is_closing():
                    guard.refuse_head(self)
                return
            cycle = self.cycle
            if cycle is not None and not cycle.response_complete and not cycle.more_body:
                guard.request_read(self)

        if counts_heads:
            def on_message_begin(self) -> None:
                self.in_head = True
                super().on_message_begin()

            def on_headers_complete(self) -> None:
                self.in_head, self.head_bytes = False, 0
                # (a head read in one go: its size as parsed, the line and each header)
                size = len(self.url) + sum(len(n) + len(v) + 4 for n, v in self.headers)
                if size > guard.max_head:
                    self.head_refused = True  # (answered once the parser returns)
                    return
                super().on_headers_complete()

            def on_body(self, body: bytes) -> None:
                if not self.head_refused:
                    super().on_body(body)

            def on_message_complete(self) -> None:
                self.in_head, self.head_bytes = True, 0
                if not self.head_refused:
                    super().on_message_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                guard.wait_for_request(self)

        def handle_websocket_upgrade(self, *args: Any) -> None:
            if self.head_refused:
                return
            if guard.refuse_upgrade(self, args[0] if args else None):
                return
            guard.upgraded(self)
            super().handle_websocket_upgrade(*args)

    return GuardedHTTP


CONTROL_FRAME_BURST = 50
"""Websocket frames the app never sees (pings, pongs, the pieces of a message sent
in fragments) one connection may send at once ..."""
CONTROL_FRAMES_PER_SECOND = 10.0
"""... then this many a second; past it the connection is closed (code 1008,
:data:`CONTROL_FLOOD_REASON`).  A browser sends none (its WebSocket API cannot
ping or fragment a small message); a Python client pings once every 20 s.  The
app's own messages are counted by the app (``--messages-per-second``)."""
CONTROL_FLOOD_REASON = (f"too many ping, pong or fragment frames (at most "
                        f"{CONTROL_FRAME_BURST} at once, then {CONTROL_FRAMES_PER_SECOND:g} "
                        "a second)")
"""The close frame's reason (at most 123 bytes) for a connection past them."""
READ_SLICE = 4096
"""Bytes of a read handed to the websocket parser at a time: the frames of one
slice are handled, and the connection closed if they were too many, before the
next is parsed (asyncio reads up to 256 KiB at once: 43,000 empty pings)."""


def quiet_denials() -> type[asyncio.Protocol]:
    """uvicorn's websocket protocol (``websockets-sansio``, its default) without the
    ``ERROR ... ASGI callable returned without completing handshake`` it logs after
    every websocket turned away with an HTTP response (ASGI's denial response, as
    the 307 to a table's holder: issue 34, item 10).  The response is sent whole
    and the connection closed as before; the protocol only forgets to count the
    handshake as done, as its wsproto sibling does (uvicorn pull request 3138).

    It also bounds the frames that never reach the app (s72-hostile): uvicorn
    answers each ping frame itself, on the event loop, with a write of its own,
    and takes pongs and zero-length fragments without limit, none of them counted
    by the app's message rate, and once the server has sent its close it reads and
    drops whole messages without limit for 10 s.  One connection sending empty pings as fast as it
    could (about 200,000 a second on one core) held every table of the process:
    another table's page could not connect, a table could not be created.  Past
    :data:`CONTROL_FRAME_BURST` such frames at once, then
    :data:`CONTROL_FRAMES_PER_SECOND`, the connection is closed (1008, its reason
    :data:`CONTROL_FLOOD_REASON`) and the rest of what it sent is not read."""
    from uvicorn.protocols.websockets.websockets_sansio_impl import (
        WebSocketsSansIOProtocol,
    )

    from rollem.server.limits import TokenBucket

    class QuietDenials(WebSocketsSansIOProtocol):
        flooded = False

        async def send(self, message: Any) -> None:
            await super().send(message)
            if (message.get("type") == "websocket.http.response.body"
                    and not message.get("more_body", False)):
                self.handshake_complete = True  # the denial is on the wire, whole

        def data_received(self, data: bytes) -> None:
            for start in range(0, len(data), READ_SLICE):
                if self.flooded or (self.transport is not None and self.transport.is_closing()):
                    return
                super().data_received(data[start:start + READ_SLICE])

        def _spent(self) -> bool:
            """One frame the app does not count; False (and the connection closed)
            past the budget."""
            if self.flooded:
                return False
            bucket = self.__dict__.get("_control")
            if bucket is None:
                bucket = self.__dict__["_control"] = TokenBucket(
                    CONTROL_FRAMES_PER_SECOND, CONTROL_FRAME_BURST)
            if bucket.take():
                return True
            self.flooded = True
            _flood_log.note("websockets closed for a flood of frames", _peer(self))
            with contextlib.suppress(Exception):
                self.conn.fail(1008, CONTROL_FLOOD_REASON)
                self.transport.write(b"".join(self.conn.data_to_send()))
            self.close_sent = True
            self.transport.close()
            # (a peer that never reads would keep the close frame, and the
            # connection, waiting to be sent: dropped a little later)
            self.loop.call_later(2.0, self.transport.abort)
            return False

        def handle_ping(self) -> None:
            if self._spent():
                super().handle_ping()

        def handle_pong(self, event: Any) -> None:
            if self._spent():
                super().handle_pong(event)

        def handle_cont(self, event: Any) -> None:
            if self._spent():
                super().handle_cont(event)

        def handle_text(self, event: Any) -> None:
            # (a whole message: the app counts it; once the server has closed,
            # nothing reads them and uvicorn drops them until the peer's close
            # reply or 10 s: they count here)
            if (event.fin and not self.close_sent) or self._spent():
                super().handle_text(event)

        def handle_bytes(self, event: Any) -> None:
            if (event.fin and not self.close_sent) or self._spent():
                super().handle_bytes(event)

    return QuietDenials


_flood_log = ThrottledLog(log)
"""The connections closed for their frames: one log line per :data:`LOG_EVERY` s at most."""


def _peer(proto: Any) -> str:
    client = getattr(proto, "client", None)
    return f"{client[0]}:{client[1]}" if client else "(unknown)"
