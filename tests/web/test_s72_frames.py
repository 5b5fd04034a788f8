"""What a client sends below the app's messages, and bytes the app read as other
text (stop 72's hostile pass, docs/dev/hostile.md).

- **Frames the app never sees are bounded.**  uvicorn answers each websocket ping
  frame itself, on the event loop, and takes pongs and zero-length fragments
  without limit; none of them is counted by the app's ``--messages-per-second``.
  One connection sending empty pings as fast as it could held every table of the
  process (another table's page could not open its websocket, a table could not
  be created, for as long as it lasted).  Now past
  :data:`~rollem.server.conn_guard.CONTROL_FRAME_BURST` of them at once the
  connection is closed, 1008 with its reason; the others at the table play on.
- **Only UTF-8 is read as JSON.**  ``json.loads`` of bytes takes UTF-16 and
  UTF-32 too, and the depth check, which reads the bytes, was blind in them: a
  character whose UTF-16 holds the byte of ``"`` hid the brackets after it (900
  levels passed the limit of 16).  A request body or a binary websocket frame
  that is not UTF-8 is refused ``malformed``; on main a UTF-16 join sat down.
"""

from __future__ import annotations

import asyncio
import base64
import os
import socket
from collections.abc import Iterator
from dataclasses import replace

import httpx
import pytest
from web_harness import UNLIMITED, Player, ServerThread, create_table, join

from rollem.server.conn_guard import CONTROL_FLOOD_REASON

JSON = {"content-type": "application/json"}


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    # the app's own message limit as served (the tests' servers have none), so that
    # the app closes a connection that floods messages
    s = ServerThread(tmp_path_factory.mktemp("s72-frames") / "t.db",
                     replace(UNLIMITED, messages_per_second=20.0, message_burst=60))
    try:
        yield s
    finally:
        s.stop()


def _frame(opcode: int, payload: bytes = b"", fin: bool = True) -> bytes:
    """One client frame (masked, as a client must), payload under 126 bytes."""
    mask = b"\x01\x02\x03\x04"
    return (bytes([(0x80 if fin else 0) | opcode, 0x80 | len(payload)]) + mask
            + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


class RawSocket:
    """A websocket opened by hand, to send frames no client library sends."""

    def __init__(self, port: int, tid: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /ws/{tid} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                           "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
                           ).encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        assert head.startswith(b"HTTP/1.1 101"), head
        self.buffer = b""

    def frames(self, seconds: float) -> list[tuple[int, bytes]]:
        """The server's frames (opcode, payload) until it closes the connection or
        sends nothing for ``seconds``."""
        self.sock.settimeout(seconds)
        while True:
            try:
                data = self.sock.recv(65536)
            except (TimeoutError, ConnectionResetError):
                break
            if not data:
                break
            self.buffer += data
        out = []
        buf = self.buffer
        while len(buf) >= 2:
            n = buf[1] & 0x7F
            at = 2
            if n == 126:
                n, at = int.from_bytes(buf[2:4], "big"), 4
            elif n == 127:
                n, at = int.from_bytes(buf[2:10], "big"), 10
            if len(buf) < at + n:
                break
            out.append((buf[0] & 0x0F, buf[at:at + n]))
            buf = buf[at + n:]
        self.buffer = buf
        return out

    def close(self) -> None:
        self.sock.close()


def _pongs(frames: list[tuple[int, bytes]]) -> int:
    return sum(1 for op, _ in frames if op == 0xA)


def _close(frames: list[tuple[int, bytes]]) -> tuple[int, str] | None:
    for op, payload in frames:
        if op == 0x8:
            return int.from_bytes(payload[:2], "big"), payload[2:].decode()
    return None


def _honest_ping(srv: ServerThread, tid: str, token: str) -> str:
    async def go() -> str:
        async with Player(srv.ws_url, tid, token) as ann:
            await ann.send({"type": "ping"})
            while True:
                got = await ann.recv()
                if got["type"] == "pong":
                    return "pong"
    return asyncio.run(go())


def test_a_few_pings_are_answered_a_flood_closes_that_connection_only(srv: ServerThread) -> None:
    tid, _host = create_table(srv.url, game="holdem", seats=3, bots=0)
    _seat, token = join(srv.url, tid, "Ann", 0)
    watcher = RawSocket(srv.port, tid)
    try:
        # a client library's keepalive (one ping in 20 s) and more: answered, still open
        watcher.sock.sendall(_frame(0x9, b"k") * 20)
        frames = watcher.frames(1.0)
        assert _pongs(frames) == 20 and _close(frames) is None
        # a flood: closed once past the burst, with the reason, and nothing after it
        # (the pongs of the frames already read in the same slice go out before it)
        watcher.sock.sendall(_frame(0x9) * 400)
        frames = watcher.frames(3.0)
        assert _close(frames) == (1008, CONTROL_FLOOD_REASON)  # main: None, 400 pongs
        assert frames[-1][0] == 0x8
    finally:
        watcher.close()
    # the table's player is not touched
    assert _honest_ping(srv, tid, token) == "pong"


def test_empty_fragments_of_a_message_count_as_frames_too(srv: ServerThread) -> None:
    tid, _host = create_table(srv.url, game="holdem", seats=3, bots=0)
    watcher = RawSocket(srv.port, tid)
    try:
        # a text message begun and never ended: zero-length continuation frames
        # add nothing to its size, so its size limit never came
        watcher.sock.sendall(_frame(0x1, b"", fin=False) + _frame(0x0, b"", fin=False) * 300)
        frames = watcher.frames(3.0)
        assert _close(frames) == (1008, CONTROL_FLOOD_REASON)  # main: None
    finally:
        watcher.close()


def test_whole_messages_after_the_server_closed_count_too(srv: ServerThread) -> None:
    """The app closes a connection past its message rate (4429); uvicorn then read
    and dropped whatever whole messages came until the peer's close reply or 10 s,
    at the speed they came (in a live pair 2.5 s of the server's CPU in those 10 s
    on main, 0.0 here).  Now they count as the frames above: past the burst the
    server stops reading, so 32 MB more cannot be sent (main: all read)."""
    tid, _host = create_table(srv.url, game="holdem", seats=3, bots=0)
    flooder = RawSocket(srv.port, tid)
    try:
        flooder.sock.sendall(_frame(0x1, b'{"type": "sync"}') * 80)
        frames = flooder.frames(2.0)
        assert _close(frames) is not None and _close(frames)[0] == 4429  # (the app's)
        message = _frame(0x1, b"[" + b"1," * 60 + b"1]")
        flooder.sock.settimeout(20)
        with pytest.raises(OSError):  # main: sent, read and dropped
            flooder.sock.sendall(message * (32 * 2**20 // len(message)))
    finally:
        flooder.close()


def _utf(text: str, codec: str) -> bytes:
    return text.encode(codec)


def test_a_body_or_frame_not_in_utf8_is_refused(srv: ServerThread) -> None:
    tid, _host = create_table(srv.url, game="holdem", seats=3, bots=0)
    url = f"{srv.url}/api/tables/{tid}/join"
    for codec in ("utf-16", "utf-32"):
        r = httpx.post(url, content=_utf('{"name": "Ann"}', codec), headers=JSON)
        assert r.status_code == 400 and r.json() == {  # main: 200, Ann seated
            "error": "malformed", "message": "the request body must be JSON text in UTF-8"}
    # U+2200 is 00 22 in UTF-16-LE: the byte of '"' opened a string to the depth
    # check's eyes and hid the 900 levels after it (main: unknown_field 'x', read)
    deep = '{"name": "\u2200", "seat": ' + "[" * 900 + "]" * 900 + ', "x": 1}'
    r = httpx.post(url, content=deep.encode("utf-16-le"), headers=JSON)
    assert r.status_code == 400 and r.json()["error"] == "malformed", r.text
    assert all(s.get("free") for s in httpx.get(f"{srv.url}/api/tables/{tid}").json()["seats"])
    _seat, token = join(srv.url, tid, "Ann", 0)

    async def go() -> list[dict[str, object]]:
        async with Player(srv.ws_url, tid, token) as ann:
            await ann.ws.send('{"type": "sit_out", "out": true}'.encode("utf-16"))
            await ann.send({"type": "ping"})
            got = []
            while not got or got[-1]["type"] != "pong":
                got.append(await ann.recv())
            return [m for m in got if m["type"] == "error"]

    errors = asyncio.run(go())
    assert [(e["code"], e["message"]) for e in errors] == [  # main: none, Ann sat out
        ("malformed", "a message must be JSON text in UTF-8")]
    assert httpx.get(f"{srv.url}/api/tables/{tid}").json()["sitting_out"] == []
