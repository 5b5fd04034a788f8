"""``rollem serve`` does not compress websocket messages (stop 55).

With permessage-deflate (uvicorn's default, and every browser offers it) the
messages of one connection share one compression window: a chat line, or a
name at the table, that repeats what the player's own state holds (its
``hand_name``: "pair of aces") comes out shorter.  Someone who sees that
player's encrypted traffic (TLS hides content, not length: the same Wi-Fi) and
chats guesses learns their hand: in a simulation of the server's window
(12 bits) one chat line per rank named every pocket pair of 201 exactly
(docs/dev/hostile.md).  The server now declines the extension; the page and
any client work as before.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx
import websockets
from web_harness import ServerProcess


def test_rollem_serve_declines_permessage_deflate(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "t.db")
    try:
        r = httpx.post(server.url + "/api/tables", json={"game": "holdem", "seats": 2, "bots": 1})
        assert r.status_code == 200, r.text
        tid = r.json()["id"]

        async def connect() -> tuple[str | None, dict[str, object]]:
            # (the client offers permessage-deflate, as browsers do)
            async with websockets.connect(f"{server.ws_url}/ws/{tid}",
                                          additional_headers={"Origin": server.url}) as ws:
                offered = ws.request.headers.get("Sec-WebSocket-Extensions")
                assert offered is not None and "permessage-deflate" in offered
                answered = ws.response.headers.get("Sec-WebSocket-Extensions")
                return answered, json.loads(await asyncio.wait_for(ws.recv(), 10))

        answered, first = asyncio.run(connect())
        assert answered is None  # main: "permessage-deflate; server_max_window_bits=12; ..."
        assert first["type"] == "state" and first["table"]["id"] == tid
    finally:
        server.kill()
