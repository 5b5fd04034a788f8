"""``rollem serve``: run the web table on this machine (CLI.md).

Prints the URL to open; binds to 127.0.0.1 unless ``--host`` says
otherwise; with ``--host 0.0.0.0`` (or ``::``, or ``''``) also prints this
machine's LAN address for friends on the same network.

The database is opened and locked (one server per SQLite database; on
PostgreSQL several servers share it, each table leased to one of them:
docs/hosting.md, "Running many tables") and the listening socket bound
*before* anything is printed, so a bad ``--db``, a SQLite database
another server uses, or an address that cannot be used is one line on
stderr (exit 2), and ``--port 0`` prints the port the system picked.

Every option may also come from the environment: ``ROLLEM_`` and the option's
name in capitals (``ROLLEM_PORT``, ``ROLLEM_PUBLIC_URL``, ...).  Logs go to
stderr with the time and level (``--log-level``), with an access log line per
request unless ``--no-access-log``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import gc
import ipaddress
import logging
import socket
import sqlite3
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from rollem.cli.errors import fail
from rollem.cli.numbers import NumberRange, OneOf, WholeRange
from rollem.server.config import DECISION_SECONDS, STORED_SHORTEST_DECISION

DEFAULT_DB = "rollem.db"
ANY_HOSTS = ("0.0.0.0", "", "::")
_F = TypeVar("_F", bound=Callable[..., Any])
ODDS_READY_WAIT = 60
"""Seconds ``rollem serve`` waits, at most, for the practice-odds workers before
serving (issue 34); past it, it serves anyway and logs a warning."""
ODDS_NOTICE_AFTER = 3.0
"""Seconds of that wait after which ``rollem serve`` says on stdout what it waits
for, and says again when it serves (s73-newcomer: the README's first command on a
fresh install printed the URL, then compiled the odds for about 50 s in silence
while the browser's page hung)."""
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
LEVELS = ("debug", "info", "warning", "error")


WEBSOCKET_LINES = frozenset({
    '%s - "WebSocket %s" [accepted]', '%s - "WebSocket %s" 403', '%s - "WebSocket %s" %d',
    "connection open", "connection closed", "connection rejected (%d %s)",
})
"""The lines uvicorn (and the ``websockets`` library under it) log on its
``uvicorn.error`` logger for every websocket: opened, closed, turned away (their
format strings)."""


class WebsocketLines(logging.Filter):
    """Drops :data:`WEBSOCKET_LINES` (with ``--no-access-log``: one line per HTTP
    request and websocket is the access log's; uvicorn writes two or three a
    websocket on its own logger whatever the option says, so that each opening
    refused to a flooding address wrote two lines: try-out of stop 52)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.msg not in WEBSOCKET_LINES


class ForwardedClients(logging.Filter):
    """An access-log line's client as the trusted proxy said it: ``203.0.113.9``,
    not uvicorn's ``203.0.113.9:0`` (a client address taken from
    ``X-Forwarded-For`` has no port, and uvicorn writes ``:0`` for it; a TCP
    peer's port is never 0). Only a trusted proxy's header gives such an
    address (:mod:`rollem.server.proxies`); anyone else's line shows its own
    address and port, whatever headers it sends (s59-tidy)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and args and isinstance(args[0], str) \
                and args[0].endswith(":0"):
            record.args = (args[0][:-2], *args[1:])
        return True


def log_config(level: str, access_log: bool) -> dict[str, Any]:
    """The logging setup of ``rollem serve`` (uvicorn's loggers and rollem's):
    every line on stderr with the time, level and logger name; without
    ``access_log``, no line per request or websocket (:class:`WebsocketLines`)."""
    handler = {"class": "logging.StreamHandler", "formatter": "plain",
               "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"plain": {"format": LOG_FORMAT}},
        "filters": {"websocket_lines": {"()": WebsocketLines},
                    "forwarded_clients": {"()": ForwardedClients}},
        "handlers": {"stderr": handler},
        "loggers": {
            "rollem": {"handlers": ["stderr"], "level": level.upper(), "propagate": False},
            "uvicorn": {"handlers": ["stderr"], "level": level.upper(), "propagate": False},
            "uvicorn.error": {"level": level.upper(),
                              "filters": ["forwarded_clients"] if access_log
                              else ["websocket_lines"]},
            "uvicorn.access": {"handlers": ["stderr"] if access_log else [],
                               "level": "INFO" if access_log else "CRITICAL",
                               "filters": ["forwarded_clients"], "propagate": False},
        },
    }


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


def _check_db_url(url: str) -> None:
    """Connect to the PostgreSQL database and migrate it; exits 2 if rollem cannot use it."""
    from rollem.server.stores import open_store, shown_db

    try:
        open_store(url).close()
    except sqlite3.Error as err:
        fail(f"cannot use the database {shown_db(url)} ({err}); give another --db")


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _opt(*names: str, **kwargs: Any) -> Callable[[_F], _F]:
    """A serve option that may also come from ``ROLLEM_<NAME>``."""
    long = next(n for n in names if n.startswith("--"))
    env = "ROLLEM_" + long[2:].split("/")[0].replace("-", "_").upper()
    return click.option(*names, envvar=env, show_envvar=True, **kwargs)


@click.command(name="serve",
               short_help="Run the web table, to play with friends in their browsers.")
@_opt("--host", metavar="ADDRESS", default="127.0.0.1", show_default=True,
      help="Address to listen on; 0.0.0.0 (or :: for IPv6 too) lets friends "
           "on your network join.")
@_opt("--port", metavar="PORT", default=8000, show_default=True, type=WholeRange(0, 65535),
      help="TCP port; 0 picks a free one (the URL printed shows it).")
@_opt("--db", "db", metavar="DB", default=DEFAULT_DB, show_default=True,
      help="SQLite file holding every table and hand (created if missing), or a "
           "PostgreSQL database: postgresql://user@host/dbname.")
@_opt("--public-url", metavar="URL", default=None,
      help="The address friends open, e.g. https://poker.example.org behind a reverse "
           "proxy: invite links use it, its pages may connect, https makes cookies Secure.")
@_opt("--allowed-origin", "allowed_origins", metavar="ORIGIN", multiple=True,
      help="Another origin (scheme://host[:port]) whose pages may connect; repeat for "
           "more (from the environment: separated by spaces).")
@_opt("--forwarded-allow-ips", metavar="ADDRESSES", default="127.0.0.1", show_default=True,
      help="Proxies trusted to say the client's address, scheme and host (X-Forwarded-For, "
           "-Proto, -Host), comma separated (addresses or networks); '*' trusts any. "
           "From anyone else those headers are ignored.")
@_opt("--log-level", default="info", show_default=True, type=OneOf(LEVELS),
      help="Least important log lines shown (stderr, with time and level).")
@_opt("--access-log/--no-access-log", default=True, show_default=True,
      help="Log one line per HTTP request and websocket.")
@_opt("--retention", "retention", metavar="DAYS", default=30.0, show_default=True,
      type=NumberRange(min=0, min_open=True),
      help="Days after its last hand a table is deleted with its hands.")
@_opt("--unplayed-minutes", metavar="MINUTES", default=60.0, show_default=True,
      type=NumberRange(min=0, min_open=True),
      help="Minutes after its last change a table never dealt a hand, with nobody "
           "seated, is deleted (not while anyone has it open), so abandoned tables "
           "do not fill --max-tables.")
@_opt("--idle-minutes", metavar="MINUTES", default=10.0, show_default=True,
      type=NumberRange(min=0, min_open=True),
      help="Minutes with nobody connected after which a table stops dealing and is "
           "unloaded (it comes back as it was when opened).")
@_opt("--hand-seconds", metavar="SECONDS", default=1.0, show_default=True, type=NumberRange(0, 600),
      help="Least seconds from one deal to the next at every table (a host may ask "
           "for more).")
@_opt("--unattended-hand-seconds", metavar="SECONDS", default=5.0, show_default=True,
      type=NumberRange(0, 600),
      help="Least seconds from one deal to the next when no person played the last "
           "hand (computer players and the clock did; a person at most folded).")
@_opt("--unattended-minutes", metavar="MINUTES", default=10.0, show_default=True,
      type=NumberRange(min=0, min_open=True),
      help="Minutes without a person playing a hand after which a table stops dealing "
           "(a player sitting down, or the host's Deal now, deals again); a table no "
           "person ever played is deleted after --unplayed-minutes.")
@_opt("--table-storage-mb", metavar="MB", default=100.0, show_default=True,
      type=NumberRange(min=0, min_open=True),
      help="Megabytes of stored hands one table may hold; then it deals no more and "
           "says why.")
@_opt("--storage-mb", metavar="MB", default=4000.0, show_default=True,
      type=NumberRange(min=0, min_open=True),
      help="Megabytes of stored hands all tables together may hold; then none deals "
           "more until old tables are deleted.")
@_opt("--messages-per-second", metavar="N", default=20.0, show_default=True,
      type=NumberRange(min=0, min_open=True),
      help="Messages a connection may send each second (bursts of 3 seconds' worth); "
           "beyond: an error, then the connection is closed.")
@_opt("--connections-per-address", metavar="N", default=32, show_default=True, type=WholeRange(1),
      help="Open websockets from one address.")
@_opt("--connects-per-minute", metavar="N", default=60.0, show_default=True,
      type=NumberRange(0, min_open=True),
      help="Websockets one address may open a minute (bursts of 64), a seat's own "
           "too; beyond: refused, and the page tries again within 5 s.")
@_opt("--joins-per-minute", metavar="N", default=30.0, show_default=True,
      type=NumberRange(0, min_open=True),
      help="Attempts one address may make a minute to sit down or to ask to watch, "
           "at all tables together (bursts of two thirds of it); beyond: HTTP 429 "
           "with Retry-After.")
@_opt("--connections-per-table", metavar="N", default=64, show_default=True, type=WholeRange(1),
      help="Open websockets to one table: players and watchers each (a watcher never "
           "takes a player's place).")
@_opt("--connections-per-seat", metavar="N", default=4, show_default=True, type=WholeRange(1),
      help="Open websockets of one seat (tabs or devices; the host's cookie too): a "
           "newer one replaces the oldest, which is told why. A seat's own connection "
           "is never refused for the two counts above.")
@_opt("--http-timeout", metavar="SECONDS", default=20.0, show_default=True,
      type=NumberRange(min=0, min_open=True, max=300),
      help="Seconds a connection has to send a whole HTTP request (head and body) from "
           "when it opens or its last answer went out; then it is closed, so idle and "
           "slow connections cannot hold the server's file handles.")
@_opt("--http-connections-per-address", metavar="N", default=64, show_default=True,
      type=WholeRange(1),
      help="Open HTTP connections (not yet websockets) from one address; a trusted "
           "proxy's are not counted. Past it the address's oldest connection still "
           "waiting for its request is closed to make room.")
@_opt("--tables-per-hour", metavar="N", default=30, show_default=True, type=WholeRange(1),
      help="New tables one address may create in an hour (with a PostgreSQL --db: "
           "over all the servers on it).")
@_opt("--seats-per-address", metavar="N", default=20, show_default=True, type=WholeRange(1),
      help="Seats one address may hold at once, at all tables together (with a "
           "PostgreSQL --db: all the servers' tables); past it a sit-down is refused "
           "until the address leaves one.")
@_opt("--costly-requests-per-minute", metavar="N", default=120.0, show_default=True,
      type=NumberRange(min=0, min_open=True),
      help="Requests one address may make each minute for hand lists, replays, hand "
           "histories, rules and /healthz (bursts of a quarter minute's worth); "
           "beyond: HTTP 429 with Retry-After.")
@_opt("--max-tables", metavar="N", default=10_000, show_default=True, type=WholeRange(1),
      help="Tables the database may hold (until the retention deletes old ones).")
@_opt("--max-body", metavar="BYTES", default=16_384, show_default=True, type=WholeRange(1),
      help="Largest request body in bytes (cut off while read: 413); creating a table "
           "may send 128 KB more (a game file of up to 64 KB).")
@_opt("--max-head", metavar="BYTES", default=65_536, show_default=True, type=WholeRange(1024),
      help="Largest request line and headers (cookies included) of one HTTP request "
           "in bytes; beyond: 431, and the connection is closed.")
@_opt("--shortest-decision", metavar="SECONDS", default=DECISION_SECONDS[0], show_default=True,
      type=NumberRange(min=STORED_SHORTEST_DECISION, max=DECISION_SECONDS[1]),
      help="Shortest decision clock in seconds a new table may ask for (the create "
           "form's minimum too); a server for quick test tables may lower it.")
@_opt("--lease-seconds", metavar="SECONDS", default=10.0, show_default=True,
      type=NumberRange(min=0, min_open=True),
      help="PostgreSQL, several servers: a table's lease time; a stopped server's "
           "tables move to another after it.")
@_opt("--advertise-url", metavar="URL", default=None,
      help="PostgreSQL, several servers: where the others and the proxy reach this "
           "server (default: http://<host>:<port>).")
def serve_command(host: str, port: int, db: str, public_url: str | None,
                  allowed_origins: tuple[str, ...], forwarded_allow_ips: str, log_level: str,
                  access_log: bool, retention: float, unplayed_minutes: float,
                  idle_minutes: float, hand_seconds: float,
                  unattended_hand_seconds: float, unattended_minutes: float,
                  table_storage_mb: float, storage_mb: float,
                  messages_per_second: float, connections_per_address: int,
                  connects_per_minute: float, joins_per_minute: float,
                  connections_per_table: int, connections_per_seat: int,
                  http_timeout: float, http_connections_per_address: int,
                  tables_per_hour: int, seats_per_address: int,
                  costly_requests_per_minute: float, max_tables: int,
                  max_body: int, max_head: int, shortest_decision: float,
                  lease_seconds: float,
                  advertise_url: str | None) -> None:
    """Run the web table: open the printed URL, create a table, send the
    invite link to your friends.

    Every table and hand is saved as it is played; stop the server (Ctrl-C)
    and start it again with the same --db to carry on where you were.
    Hosting on the internet (a reverse proxy, HTTPS, systemd, backups):
    docs/hosting.md.
    """
    try:
        import uvicorn

        from rollem.server.app import create_app
        from rollem.server.conn_guard import (
            ConnectionGuard,
            guarded_http,
            handle_limit,
            quiet_denials,
            raise_handle_limit,
        )
        from rollem.server.net import lan_address
    except ImportError as err:
        fail(f"the web table needs its extra packages ({err.name}); "
             "install them with: pip install -e '.[web]'")
    from rollem.server.config import ConfigError, ServerSettings
    from rollem.server.lock import DatabaseLocked, lock_database

    origins = tuple(o for item in allowed_origins for o in item.split())
    settings = ServerSettings(
        public_url=public_url.rstrip("/") if public_url else None, allowed_origins=origins,
        forwarded_allow_ips=forwarded_allow_ips,
        messages_per_second=messages_per_second, message_burst=max(1, int(messages_per_second * 3)),
        connections_per_address=connections_per_address,
        connects_per_minute=connects_per_minute,
        joins_per_minute=joins_per_minute,
        join_burst=max(1, round(joins_per_minute * 2 / 3)),
        connections_per_table=connections_per_table,
        connections_per_seat=connections_per_seat,
        http_timeout=http_timeout, http_connections_per_address=http_connections_per_address,
        tables_per_address_per_hour=tables_per_hour, max_tables=max_tables,
        seats_per_address=seats_per_address,
        costly_requests_per_minute=costly_requests_per_minute,
        costly_burst=max(1, int(costly_requests_per_minute / 4)),
        max_body_bytes=max_body, max_head_bytes=max_head,
        idle_seconds=idle_minutes * 60, retention_days=retention,
        unplayed_seconds=unplayed_minutes * 60,
        hand_seconds=hand_seconds, unattended_hand_seconds=unattended_hand_seconds,
        unattended_seconds=unattended_minutes * 60, table_storage_mb=table_storage_mb,
        storage_mb=storage_mb,
        shortest_decision=shortest_decision, lease_seconds=lease_seconds,
        advertise_url=advertise_url.rstrip("/") if advertise_url else None,
    )  # fmt: skip
    try:
        settings.check()
    except ConfigError as err:
        fail(f"bad setting: {err}")
    from rollem.server.stores import is_postgres_url, shown_db

    lock: contextlib.AbstractContextManager[object] = contextlib.nullcontext()
    if is_postgres_url(db):  # issue 17: several servers share it, each table leased
        _check_db_url(db)
    else:
        if Path(db).exists() and not Path(db).is_file():  # a pipe would block the open
            fail(f"--db {db}: not a regular file (a folder, a device or a pipe); give a "
                 "database file (created if missing)")
        try:
            lock = lock_database(Path(db))
        except DatabaseLocked as err:
            fail(str(err))
        except OSError as err:
            fail(f"cannot write the lock file next to {db}: {err.strerror}")
        _check_db(Path(db))
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
    click.echo(f"saving to {shown_db(db)} (Ctrl-C to stop; start again to continue)")
    if is_postgres_url(db) and settings.advertise_url is None:
        lan = lan_address() if everywhere else None
        settings = dataclasses.replace(settings, advertise_url=f"http://{lan or shown}:{port}")
    if settings.public_url:
        click.echo(f"invite links use {settings.public_url}")
    # Fewer full garbage collections: a full pass over every table's hand can
    # stall all tables for tens of milliseconds (bench/bench_web_load.py).
    # The engine, games, computer players and narration are loaded now, not by
    # the first hands on the event loop (a stall of every table for a second).
    # The practice-odds workers' fork server loads the odds in its own process,
    # a second or more; started now, beside the warm-up, and waited for before
    # the first request is served, so that the first friend to ask for odds
    # does not wait for it (issue 34).  Not in create_app: test servers would
    # each start one.
    from rollem.server.game_session import warm_up
    from rollem.server.live_table import warm_odds_workers
    from rollem.server.proxies import AsSeen

    odds_ready = warm_odds_workers()
    warmed = warm_up()
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 50, 1000)
    # The store's writer thread gives up the GIL at every SQLite statement and
    # must get it back from the event loop before its commit is done: with
    # Python's default 5 ms switch interval each such wait can add 5 ms to a
    # commit that every client of the table waits for.
    sys.setswitchinterval(0.001)
    app = create_app(db, settings)
    odds_waited = time.perf_counter()
    told = not odds_ready.wait(min(ODDS_NOTICE_AFTER, ODDS_READY_WAIT))
    if told:
        click.echo("preparing the odds (up to a minute the first time); the page opens after")
    if told and not odds_ready.wait(max(0.0, ODDS_READY_WAIT - ODDS_NOTICE_AFTER)):
        logging.getLogger("rollem.server").warning(
            "the practice-odds workers did not start within %d s; serving anyway "
            "(the first odds request starts one)", ODDS_READY_WAIT)
    odds_waited = time.perf_counter() - odds_waited
    if told:
        click.echo(f"ready after {odds_waited:.0f} s: open http://{shown}:{port}/")
    # Idle and slow connections are closed, and the connections kept below the
    # open-file limit, raised first as far as the system allows (issue 34).
    handles, _hard = raise_handle_limit()
    guard = ConnectionGuard(settings.http_timeout, settings.http_connections_per_address,
                            handle_limit(), settings.forwarded_allow_ips,
                            settings.max_head_bytes)
    # A websocket refused for what its request says is answered before the upgrade.
    guard.before_upgrade = app.state.refuse_before_upgrade()
    guard.as_seen = AsSeen(settings.forwarded_allow_ips)  # (its log line's client)
    config = uvicorn.Config(app, log_config=log_config(log_level, access_log),
                            log_level=log_level, access_log=access_log, ws_max_size=65536,
                            ws_ping_interval=20, ws_ping_timeout=20,
                            # No permessage-deflate (stop 55): a compressed message's size
                            # tells what it repeats, so one who sees a player's encrypted
                            # traffic and chats (or sits down) with a guess of their hand's
                            # name learns whether it is right (CRIME).
                            ws_per_message_deflate=False,
                            http=guarded_http(guard), ws=quiet_denials(),
                            timeout_keep_alive=min(5, max(1, int(settings.http_timeout))),
                            proxy_headers=False)  # the app's own: rollem.server.proxies
    server_log = logging.getLogger("rollem.server")
    server_log.info("serving %s on %s:%s (warmed up in %.1f s, then %.1f s for the "
                    "practice-odds workers)", shown_db(db), shown, port, warmed, odds_waited)
    server_log.info("open-file limit %d: at most %d connections at once; a request must "
                    "arrive within %g s", handles, guard.most_open, settings.http_timeout)
    # Ctrl-C: uvicorn has shut down cleanly; exit 0 as uvicorn.run does.
    with lock, contextlib.suppress(KeyboardInterrupt):
        uvicorn.Server(config).run(sockets=[sock])
