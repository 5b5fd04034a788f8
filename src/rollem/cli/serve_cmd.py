"""``rollem serve``: run the web table on this machine (CLI.md).

Prints the URL to open; binds to 127.0.0.1 unless ``--host`` says
otherwise; with ``--host 0.0.0.0`` also prints this machine's LAN address
for friends on the same network.
"""

from __future__ import annotations

import gc
import socket
from pathlib import Path

import click

from rollem.cli.errors import fail

DEFAULT_DB = "rollem.db"


def _port_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


@click.command(name="serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; 0.0.0.0 lets friends on your network join.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="TCP port.")
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
    try:
        db.parent.mkdir(parents=True, exist_ok=True)
        with open(db, "ab"):
            pass
    except OSError as err:
        fail(f"cannot write the database file {db}: {err.strerror}")
    bind = "0.0.0.0" if host in ("0.0.0.0", "") else host
    if port and not _port_free(bind, port):
        fail(f"port {port} on {bind} is in use; choose another with --port")
    shown = "127.0.0.1" if bind == "0.0.0.0" else host
    click.echo(f"rollem web table: open http://{shown}:{port}/")
    if bind == "0.0.0.0":
        lan = lan_address()
        if lan:
            click.echo(f"friends on your network: http://{lan}:{port}/")
        else:
            click.echo("friends on your network: http://<this machine's address>:"
                       f"{port}/ (no LAN address found)")
    else:
        click.echo("only this machine can connect; use --host 0.0.0.0 to let friends join")
    click.echo(f"saving to {db} (Ctrl-C to stop; start again to continue)")
    # Fewer full garbage collections: a full pass over every table's hand can
    # stall all tables for tens of milliseconds (bench/bench_web_load.py).
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 50, 1000)
    app = create_app(db)
    uvicorn.run(app, host=bind, port=port, log_level="warning", ws_max_size=65536,
                ws_ping_interval=20, ws_ping_timeout=20)
