"""``rollem serve``: run the web table on this machine (CLI.md).

Prints the URL to open; binds to 127.0.0.1 unless ``--host`` says
otherwise; with ``--host 0.0.0.0`` (or ``::``, or ``''``) also prints this
machine's LAN address for friends on the same network.

The database is opened and the listening socket bound *before* anything is
printed, so a bad ``--db`` or an address that cannot be used is one line on
stderr (exit 2), and ``--port 0`` prints the port the system picked.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import ipaddress
import socket
import sqlite3
from pathlib import Path

import click

from rollem.cli.errors import fail

DEFAULT_DB = "rollem.db"
ANY_HOSTS = ("0.0.0.0", "", "::")


def _bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port``; exits 2 with the real cause if it cannot."""
    shown = f"[{host}]" if ":" in host else host
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError):
        fail(f"cannot resolve host {host!r}: use an address of this machine such as "
             "127.0.0.1, ::1, 0.0.0.0 or ::")
    if host == "":
        infos = [i for i in infos if i[0] == socket.AF_INET] or infos
    family, kind, proto, _name, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6 and host == "::":
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)  # IPv4 too
        sock.bind(address)
        sock.listen(2048)
    except OSError as err:
        sock.close()
        if err.errno == errno.EADDRINUSE:
            fail(f"port {port} on {shown} is in use; choose another with --port "
                 "(--port 0 picks a free one)")
        if err.errno == errno.EADDRNOTAVAIL:
            fail(f"address {shown} is not available on this machine; use 127.0.0.1, "
                 "0.0.0.0 or one of this machine's addresses")
        if err.errno == errno.EACCES:
            fail(f"permission denied to listen on port {port} of {shown} (ports below 1024 "
                 "usually need administrator rights); choose --port 1024 or above")
        fail(f"cannot listen on {shown} port {port}: {err.strerror or err}")
    return sock


def _check_db(db: Path) -> None:
    """Open (or create) the table database; exits 2 if it is not one rollem can use."""
    try:
        db.parent.mkdir(parents=True, exist_ok=True)
        with open(db, "ab"):
            pass
    except OSError as err:
        fail(f"cannot write the database file {db}: {err.strerror}")
    try:
        from rollem.server.store import Store

        Store(db).close()
    except sqlite3.Error as err:
        fail(f"{db} is not a rollem database ({err}); give another file with --db")


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@click.command(name="serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; 0.0.0.0 (or :: for IPv6 too) lets friends "
                   "on your network join.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="TCP port; 0 picks a free one (the URL printed shows it).")
@click.option("--db", "db", default=DEFAULT_DB, show_default=True,
              type=click.Path(dir_okay=False, path_type=Path),
              help="SQLite file holding every table and hand (created if missing).")
def serve_command(host: str, port: int, db: Path) -> None:
    """Run the web table: open the printed URL, create a table, send the
    invite link to your friends.

    Every table and hand is saved as it is played; stop the server (Ctrl-C)
    and start it again with the same --db to carry on where you were.
    """
    try:
        import uvicorn

        from rollem.server.app import create_app
        from rollem.server.net import lan_address
    except ImportError as err:
        fail(f"the web table needs its extra packages ({err.name}); "
             "install them with: pip install -e '.[web]'")
    _check_db(db)
    host = host.strip()
    sock = _bind(host, port)
    port = int(sock.getsockname()[1])
    everywhere = host in ANY_HOSTS
    if everywhere:
        shown = "[::1]" if host == "::" else "127.0.0.1"
    else:
        shown = f"[{host}]" if ":" in host else host
    click.echo(f"rollem web table: open http://{shown}:{port}/")
    if everywhere:
        lan = lan_address()
        if lan:
            click.echo(f"friends on your network: http://{lan}:{port}/")
        else:
            click.echo("friends on your network: http://<this machine's address>:"
                       f"{port}/ (no LAN address found)")
    elif _is_loopback(host):
        click.echo("only this machine can connect; use --host 0.0.0.0 to let friends join")
    else:
        click.echo(f"friends who can reach {shown} may join at the same address")
    click.echo(f"saving to {db} (Ctrl-C to stop; start again to continue)")
    # Fewer full garbage collections: a full pass over every table's hand can
    # stall all tables for tens of milliseconds (bench/bench_web_load.py).
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 50, 1000)
    app = create_app(db)
    config = uvicorn.Config(app, log_level="warning", ws_max_size=65536,
                            ws_ping_interval=20, ws_ping_timeout=20)
    # Ctrl-C: uvicorn has shut down cleanly; exit 0 as uvicorn.run does.
    with contextlib.suppress(KeyboardInterrupt):
        uvicorn.Server(config).run(sockets=[sock])
