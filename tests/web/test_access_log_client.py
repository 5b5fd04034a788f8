"""The access log names a proxied client by the address the trusted proxy gave
(s59-tidy; left by the hosting try-out of stop 57: "127.0.0.1:0").

Behind the docs' Caddy or nginx (a trusted proxy, ``--forwarded-allow-ips``,
default ``127.0.0.1``) the client's address comes from ``X-Forwarded-For``,
which has no port, and uvicorn wrote it as ``ADDRESS:0``; a websocket opening
refused before the upgrade named the proxy itself. Now each line names the
client as the proxy said (``203.0.113.9``, no made-up port); from a peer that
is not trusted the header is dropped and the line names the peer and its port.
"""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from pathlib import Path

import httpx
import websockets
from web_harness import ROOT, create_table, free_port, wait_served

CLIENT = "203.0.113.9"


def _log_of(tmp_path: Path, *args: str) -> str:
    """Serve; a GET, a websocket and a websocket from another site's page (403
    before the upgrade), each saying it is for ``CLIENT``; stop; the log."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "rollem", "serve", "--port", str(port),
         "--db", str(tmp_path / "a.db"), *args],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        env=dict(os.environ, PYTHONUNBUFFERED="1", ROLLEM_NO_NUMBA="1"))
    try:
        wait_served(port)
        base = f"http://127.0.0.1:{port}"
        tid, _host = create_table(base, game="holdem")
        said = {"X-Forwarded-For": CLIENT}
        assert httpx.get(base + "/api/info", headers=said).status_code == 200

        async def run() -> None:
            url = f"ws://127.0.0.1:{port}/ws/{tid}"
            async with websockets.connect(url, additional_headers=said) as ws:
                await ws.recv()
            try:
                await websockets.connect(url, origin="https://elsewhere.example",
                                         additional_headers=said)
            except websockets.InvalidStatus as refused:
                assert refused.response.status_code == 403
            else:
                raise AssertionError("not refused")

        asyncio.run(run())
    finally:
        proc.terminate()
        _out, err = proc.communicate(timeout=20)
    return err


def _clients(err: str) -> dict[str, str]:
    """Each kind of line's client: the GET, the websocket accepted, the one refused."""
    out = {}
    for kind, pattern in (("get", r'uvicorn.access: (\S+) - "GET /api/info'),
                          ("accepted", r'(\S+) - "WebSocket /ws/[\w-]+" \[accepted\]'),
                          ("refused", r'(\S+) - "WebSocket /ws/[\w-]+" 403')):
        found = re.findall(pattern, err)
        assert found, (kind, err)
        out[kind] = found[-1]
    return out


def test_a_trusted_proxys_client_is_logged_by_its_address(tmp_path: Path) -> None:
    """main: ``203.0.113.9:0`` for the GET and the accepted websocket,
    ``127.0.0.1:PORT`` (the proxy) for the refused one."""
    err = _log_of(tmp_path)
    assert _clients(err) == {"get": CLIENT, "accepted": CLIENT, "refused": CLIENT}, err
    assert f"{CLIENT}:0" not in err and "Traceback" not in err


def test_an_untrusted_peer_cannot_name_another_client(tmp_path: Path) -> None:
    """The header from a peer not trusted is dropped: every line names the peer
    with its own port (passes on main too: the header was never believed)."""
    err = _log_of(tmp_path, "--forwarded-allow-ips", "10.9.9.9")
    clients = _clients(err)
    assert all(re.fullmatch(r"127\.0\.0\.1:[1-9]\d*", c) for c in clients.values()), clients
    assert CLIENT not in err
