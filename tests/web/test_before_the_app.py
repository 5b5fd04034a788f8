"""What ``rollem serve``'s HTTP protocol refuses before the app (try-out of stop 53).

**A websocket refused for what its request alone says is answered before the
upgrade.**

``rollem serve`` refused an address opening websockets too fast
(``--connects-per-minute``) and a page of another site from inside the app:
each refused attempt still had uvicorn hand the connection to its websocket
protocol, parse the handshake again, start a task and run the middleware and
the router (0.41 to 0.45 ms of the server's CPU an attempt, against 0.20 to
0.22 ms now, measured on live servers at load 8). Now the HTTP protocol asks
the app's checks (:func:`rollem.server.conn_guard.guarded_http`, the app's
``refuse_before_upgrade``) and answers the refusal itself: the app never sees
the websocket. The same answer as before (429 ``rate_limited`` with
``Retry-After``, 403 for another site's page, now with a JSON reason), the
address read through the trusted proxy's ``X-Forwarded-For`` as the app reads
it, another address untouched, each opening spent once.

**A request's head has a size limit** (``--max-head``, 64 KB of request line
and headers): httptools, under uvicorn, read a head of any size (a 1 MB header
was read whole and answered, 4 ms of the server's CPU; 125,000 small headers,
40 ms: measured at load 15). Past it now: 431 and the connection closed, a
head sent in one piece or in many.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
import websockets
from web_harness import UNLIMITED, _PromptServer, create_table, free_port

from rollem.server.app import create_app
from rollem.server.conn_guard import ConnectionGuard, guarded_http, quiet_denials

MALLORY = "203.0.113.9"
HONEST = "198.51.100.7"


class Guarded:
    """The app under uvicorn with ``rollem serve``'s HTTP protocol and guard, the
    websocket scopes that reach the app counted."""

    def __init__(self, db: Path) -> None:
        settings = replace(UNLIMITED, connects_per_minute=1.0, connect_burst=3)
        self.app = create_app(db, settings)
        self.seen: list[str] = []

        async def counting(scope: Any, receive: Any, send: Any) -> None:
            if scope["type"] == "websocket":
                self.seen.append(scope["path"])
            await self.app(scope, receive, send)

        self.guard = ConnectionGuard(20.0, 64, 1000, settings.forwarded_allow_ips)
        hand_over = getattr(self.app.state, "refuse_before_upgrade", None)  # (main: none)
        self.guard.before_upgrade = hand_over() if hand_over is not None else None
        self.port = free_port()
        config = uvicorn.Config(counting, host="127.0.0.1", port=self.port,
                                log_level="warning", lifespan="on", proxy_headers=False,
                                http=guarded_http(self.guard), ws=quiet_denials())
        self.server = _PromptServer(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        end = time.monotonic() + 20
        while not self.server.started:
            assert self.thread.is_alive() and time.monotonic() < end
            time.sleep(0.005)

    def stop(self) -> None:
        self.server.should_exit = True
        self.server.wake()
        self.thread.join(15)


@pytest.fixture
def guarded(tmp_path: Path) -> Iterator[Guarded]:
    srv = Guarded(tmp_path / "g.db")
    try:
        yield srv
    finally:
        srv.stop()


async def _open(url: str, address: str, **kw: Any) -> Any:
    """Open a websocket from ``address``: the connection, or the refusal's response."""
    try:
        ws = await websockets.connect(url, additional_headers={"X-Forwarded-For": address},
                                      **kw)
    except websockets.InvalidStatus as refused:
        return refused.response
    assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "state"
    await ws.close()
    return ws


def test_openings_refused_for_their_request_never_reach_the_app(guarded: Guarded) -> None:
    tid, _host = create_table(f"http://127.0.0.1:{guarded.port}", game="holdem")
    url = f"ws://127.0.0.1:{guarded.port}/ws/{tid}"

    async def run() -> tuple[list[Any], Any, Any]:
        mallory = [await _open(url, MALLORY) for _ in range(8)]
        other_site = await _open(url, HONEST, origin="https://elsewhere.example")
        honest = await _open(url, HONEST)
        return mallory, other_site, honest

    mallory, other_site, honest = asyncio.run(run())
    # the burst of 3 opened (each spent once: the route asks nothing again) ...
    assert [getattr(m, "status_code", 101) for m in mallory] == [101] * 3 + [429] * 5
    # ... and only those, the honest one and nothing else reached the app
    assert guarded.seen == [f"/ws/{tid}"] * 4, guarded.seen
    assert guarded.guard.refused_upgrades == 6  # (5 too fast, 1 from another site)
    refusal = mallory[-1]
    body = json.loads(bytes(refusal.body))
    assert body["error"] == "rate_limited"
    assert "too many new connections from your address (at most 3 at once" in body["message"]
    assert int(refusal.headers["Retry-After"]) >= 1
    assert refusal.headers["Content-Type"] == "application/json"
    assert other_site.status_code == 403
    assert json.loads(bytes(other_site.body))["error"] == "bad_origin"
    assert getattr(honest, "status_code", 101) == 101  # another address: untouched


def _raw(port: int, head: bytes, pieces: int = 1) -> bytes:
    """Send ``head`` in ``pieces`` writes; the answer's status line and body."""
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        step = -(-len(head) // pieces)
        try:
            for i in range(0, len(head), step):
                sock.sendall(head[i:i + step])
                time.sleep(0.01 if pieces > 1 else 0)
        except (BrokenPipeError, ConnectionResetError):
            pass  # (answered and closed before the rest was sent)
        got = b""
        while chunk := sock.recv(65536):
            got += chunk
    return got


def test_a_request_head_past_its_limit_is_refused(guarded: Guarded) -> None:
    base = f"http://127.0.0.1:{guarded.port}"
    with httpx.Client(base_url=base) as client:  # one connection, kept alive
        assert client.get("/api/info", headers={"X-Pad": "a" * 60_000}).status_code == 200
        made = client.post("/api/tables", json={"game": "holdem", "bots": 0})
        assert made.status_code == 200  # (a body, then the next head on one connection)
        assert client.get(made.json()["url"]).status_code == 200
    big = b"GET /api/info HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * 70_000 + b"\r\n\r\n"
    for pieces in (1, 8):  # read in one go, and arriving in pieces
        answer = _raw(guarded.port, big, pieces)
        assert answer.startswith(b"HTTP/1.1 431 Request Header Fields Too Large"), answer[:80]
        assert answer.endswith(b"request head too large: at most 65536 bytes of request "
                               b"line and headers\n")
    many = (b"GET /api/info HTTP/1.1\r\nHost: x\r\n"
            + b"".join(b"X-%d: a\r\n" % i for i in range(100_000)) + b"\r\n")
    assert _raw(guarded.port, many, 16).startswith(b"HTTP/1.1 431")
    # a websocket's opening too, before the app sees it
    tid = made.json()["id"]
    cookie = "; ".join(f"c{i}={'v' * 60}" for i in range(1200))
    before = len(guarded.seen)

    async def opening() -> int:
        try:
            await websockets.connect(f"ws://127.0.0.1:{guarded.port}/ws/{tid}",
                                     additional_headers={"Cookie": cookie})
        except websockets.InvalidStatus as refused:
            return int(refused.response.status_code)
        return 101

    assert asyncio.run(opening()) == 431
    assert len(guarded.seen) == before
