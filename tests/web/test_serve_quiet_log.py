"""``rollem serve --no-access-log`` writes no line per websocket (try-out of stop 52).

The option's help says the access log is "one line per HTTP request and
websocket"; uvicorn (and the ``websockets`` library under it) wrote two or
three lines on ``uvicorn.error`` for every websocket whatever the option said:
``"WebSocket /ws/..." [accepted]``, ``connection open``, ``connection closed``,
and for one turned away ``"WebSocket /ws/..." 429`` and ``connection rejected``.
An address opening websockets as fast as it could wrote 2,884 lines in 8
seconds with the access log off (each refused 429, two lines). Now they are
left out without it (kept with it).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import websockets
from web_harness import ROOT, create_table, free_port, wait_served


def _websockets_then_log(tmp_path: Path, *args: str) -> str:
    """Serve, open one websocket to a table and have one from another site's page
    turned away (403), stop; the server's log."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "rollem", "serve", "--port", str(port),
         "--db", str(tmp_path / "q.db"), *args],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        env=dict(os.environ, PYTHONUNBUFFERED="1", ROLLEM_NO_NUMBA="1"))
    try:
        wait_served(port)
        tid, _host = create_table(f"http://127.0.0.1:{port}", game="holdem")

        async def run() -> None:
            url = f"ws://127.0.0.1:{port}/ws/{tid}"
            async with websockets.connect(url) as ws:
                assert json.loads(await ws.recv())["type"] == "state"
            try:
                await websockets.connect(url, origin="https://elsewhere.example")
            except websockets.InvalidStatus as refused:
                assert refused.response.status_code == 403
            else:
                raise AssertionError("not refused")

        asyncio.run(run())
    finally:
        proc.terminate()
        _out, err = proc.communicate(timeout=20)
    return err


def test_no_access_log_means_no_line_per_websocket(tmp_path: Path) -> None:
    err = _websockets_then_log(tmp_path, "--no-access-log")
    assert "INFO rollem.server: serving " in err, err
    for line in ('"WebSocket /ws/', "connection open", "connection closed",
                 "connection rejected"):
        assert line not in err, err
    assert "Traceback" not in err


def test_with_the_access_log_each_websocket_is_logged(tmp_path: Path) -> None:
    err = _websockets_then_log(tmp_path)
    assert '"WebSocket /ws/' in err and " 403" in err, err
