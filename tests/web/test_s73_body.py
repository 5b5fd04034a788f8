"""A request body cut short logs no traceback (stop 73, s73-hostile).

A client that sent a request's head and part of its body, then went (or was
closed for ``--http-timeout``), made uvicorn log "Exception in ASGI
application" with a whole traceback (about 5 KB for 200 bytes sent; nothing
throttles it): a cheap way to fill the log's disk.
"""

from __future__ import annotations

import logging
import socket
import time
from pathlib import Path

import httpx
from web_harness import ServerThread, create_table


def test_a_body_cut_short_logs_no_traceback(tmp_path: Path) -> None:
    """A client that sends a request's head and part of its body, then goes (or is
    closed for its deadline), wrote a whole traceback to the log for each such
    request (uvicorn's "Exception in ASGI application", some 5 KB: 200 bytes
    sent, unthrottled); now nothing is logged for it, and the server answers."""
    server = ServerThread(tmp_path / "t.db")
    errors: list[logging.LogRecord] = []
    catch = logging.Handler(logging.ERROR)
    catch.emit = errors.append  # type: ignore[method-assign]
    logging.getLogger("uvicorn.error").addHandler(catch)  # (it does not propagate)
    try:
        tid, _ = create_table(server.url, game="holdem", bots=1)
        for path in ("/api/tables", f"/api/tables/{tid}/join"):
            for _ in range(10):
                with socket.create_connection(("127.0.0.1", server.port)) as s:
                    s.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: "
                              "application/json\r\nContent-Length: 100\r\n\r\n{".encode())
                    time.sleep(0.02)  # (the app reads the head and waits for the body)
        r = httpx.get(f"{server.url}/api/tables/{tid}", timeout=10)
        assert r.status_code == 200
        time.sleep(0.2)
        assert [e.getMessage() for e in errors] == []  # main: 20 tracebacks
    finally:
        logging.getLogger("uvicorn.error").removeHandler(catch)
        server.stop()
