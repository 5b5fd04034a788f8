"""Web table under load: many tables of computer players through real websockets.

Starts ``rollem serve`` in a child process on a fresh database, creates
``--tables`` tables of ``--seats`` seats, sits a websocket client in every
seat (each plays random legal actions, from its own view only) and paces
every table at ``--pace`` actions per second. For each action it measures
the time from sending it to the moment *every* client of that table has
received the resulting state; reports hands completed, the 50th/99th
percentiles of that time, and errors. With ``--search`` it then raises the
pace until the 99th percentile passes the goal (50 ms); with ``--search-tables``
it keeps the pace and raises the table count instead, and reports the largest
count whose 99th percentile stayed within the goal (issue 17's "tables held").

    .venv/bin/python bench/bench_web_load.py [--tables 100] [--seats 6] [--seconds 60]
        [--pace 1.0] [--game dealers-choice] [--search] [--search-seconds 20]
        [--search-tables --tables 20 --table-step 10]
        [--db postgresql://... | --pg] [--processes 2]

``--processes 2`` starts two servers and spreads the tables over them in turn
(each table's clients talk to the server holding it): on PostgreSQL both share
the database, each table leased to one (issue 17); on SQLite each has its own
file.  Client and server share this machine: the figure includes the clients' own
time to read their messages.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

from rollem.server.game_session import random_wire_action

GOAL_MS = 50.0

PG_TRACE_SETTINGS = {
    "log_min_duration_statement": "20",  # ms: with the text
    "log_duration": "on",  # every statement's time, without the text
    "log_lock_waits": "on", "deadlock_timeout": "10ms",  # a lock wait past 10 ms
    "log_checkpoints": "on", "log_autovacuum_min_duration": "0",
    "track_wal_io_timing": "on",  # pg_stat_wal's sync time
    "log_line_prefix": "%m [%p] %a ",  # milliseconds
}
"""PostgreSQL's own logging for ``--pg --trace-dir``."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _cpu_of(pid: int) -> float:
    """CPU seconds (user + system) used so far by process ``pid`` (Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _db_cpu(data_dir: str | None) -> float:
    """CPU seconds used so far by the PostgreSQL cluster in ``data_dir`` (its
    postmaster and the postmaster's children alive now); 0 without one."""
    if data_dir is None:
        return 0.0
    try:
        master = int(Path(data_dir, "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0.0
    total = _cpu_of(master)
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == master:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _wal_stats(url: str | None) -> dict[str, float]:
    """PostgreSQL's write-ahead log counters (``pg_stat_wal``) and checkpoints so far
    (empty without ``url``)."""
    if url is None or not url.startswith("postgresql"):
        return {}
    import psycopg

    try:
        conn = psycopg.connect(url, autocommit=True)
    except psycopg.Error:
        return {}
    with conn:
        try:
            row = conn.execute(
                "SELECT wal_bytes, wal_fpi, wal_write, wal_sync, wal_sync_time, "
                "wal_buffers_full, "
                "(SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter), "
                "(SELECT count(*) FROM pg_ls_waldir()) FROM pg_stat_wal").fetchone()
        except psycopg.Error:  # not allowed to read them (--db of another server)
            return {}
    assert row is not None
    keys = ("bytes", "fpi", "writes", "syncs", "sync_ms", "buffers_full", "checkpoints",
            "segments")
    return {k: float(v) for k, v in zip(keys, row, strict=True)}


def start_server(db: Path | str, trace_dir: str | None = None,
                 ) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = dict(os.environ)
    if trace_dir is not None:  # the server's own timings (rollem.server.trace)
        env["ROLLEM_TRACE_DIR"] = trace_dir
    proc = subprocess.Popen(
        [sys.executable, "-m", "rollem", "serve", "--port", str(port), "--db", str(db),
         # Every client runs on this machine: one address, bots acting at once.
         "--connections-per-address", "100000", "--connections-per-table", "100000",
         "--tables-per-hour", "100000", "--messages-per-second", "100000",
         "--joins-per-minute", "100000", "--no-access-log"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
    )
    end = time.time() + 30
    while time.time() < end:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc, port
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError("the server did not start")


class Table:
    """One table: its clients, its pacing and its latency records."""

    def __init__(self, tid: str, pace: float, rng: random.Random) -> None:
        self.tid = tid
        self.interval = 1.0 / pace
        self.next_slot = 0.0
        self.rng = rng
        self.clients: list[Client] = []
        self.inflight: dict[int, tuple[float, set[int]]] = {}  # sent seq -> (t0, waiting)
        self.latencies: list[float] = []
        self.sent_at: list[float] = []  # when each measured action was sent (``--trace``)
        self.measure_from = float("inf")  # actions sent before (the warm-up) are not counted
        self.hands = 0
        self.errors: list[str] = []
        self.lock = asyncio.Lock()

    async def paced(self) -> None:
        """Wait for this table's next action slot."""
        async with self.lock:
            now = time.perf_counter()
            # Slots stay on this table's own grid (its random phase): a late table
            # does not fall into step with the others.
            slot = self.next_slot
            if slot < now:
                slot += -((slot - now) // self.interval) * self.interval
            wait = slot - now
            self.next_slot = slot + self.interval
        if wait > 0:
            await asyncio.sleep(wait)

    def received(self, client_index: int, seq: int, now: float) -> None:
        for sent_seq in list(self.inflight):
            if seq > sent_seq:
                t0, waiting = self.inflight[sent_seq]
                waiting.discard(client_index)
                if not waiting:
                    if t0 >= self.measure_from:
                        self.latencies.append(now - t0)
                        self.sent_at.append(t0)
                    del self.inflight[sent_seq]


class Client:
    def __init__(self, table: Table, index: int, token: str, host: str | None) -> None:
        self.table = table
        self.index = index
        cookie = f"rollem_seat_{table.tid}={token}"
        if host:
            cookie += f"; rollem_host_{table.tid}={host}"
        self.headers = {"Cookie": cookie}
        self.state: dict[str, Any] | None = None
        self.acted_for: object = None
        self.ws: Any = None

    async def run(self, url: str) -> None:
        table = self.table
        async with websockets.connect(url, additional_headers=self.headers, open_timeout=120,
                                      max_size=2**24, compression=None) as ws:
            self.ws = ws
            while True:  # until the run cancels this task
                text = await ws.recv()
                now = time.perf_counter()
                msg = orjson.loads(text)
                if msg["type"] == "error":
                    table.errors.append(msg["code"] + ": " + msg["message"])
                    self.acted_for = None
                    continue
                if msg["type"] != "state":
                    continue
                self.state = msg
                table.received(self.index, msg["seq"], now)
                result = msg["table"]["last_result"]
                if self.index == 0 and result and result["hand"] > table.hands:
                    table.hands = result["hand"]
                await self.maybe_act(now)

    async def maybe_act(self, now: float) -> None:
        st = self.state
        assert st is not None
        you = st["you"]
        choice = st["table"]["choice"]
        if you["choose_game"] and choice:
            key: object = ("choice", choice["hand"])
            if key == self.acted_for:
                return
            self.acted_for = key
            asyncio.get_running_loop().create_task(self.send_later({
                "type": "choose_game", "hand": choice["hand"], "seq": st["seq"],
                "game": self.table.rng.choice(choice["games"])}, st["seq"]))
            return
        hand = st["hand"]
        if (not hand or hand.get("result") or not hand.get("legal")
                or not hand["legal"]["actions"] or you["decision_seq"] is None):
            return
        key = (hand["hand_no"], you["decision_seq"], hand["pending"])
        if key == self.acted_for:
            return
        self.acted_for = key
        action = random_wire_action(hand["legal"], self.table.rng)
        asyncio.get_running_loop().create_task(self.send_later({
            "type": "action", "hand": hand["hand_no"], "seq": st["seq"], "action": action},
            st["seq"]))

    async def send_later(self, msg: dict[str, Any], seq: int) -> None:
        table = self.table
        await table.paced()
        # The latest state may have moved on (another seat's all-at-once choice).
        if self.state is not None:
            msg["seq"] = self.state["seq"]
            seq = self.state["seq"]
        t0 = time.perf_counter()
        table.inflight[seq] = (t0, set(range(len(table.clients))))
        try:
            await self.ws.send(json.dumps(msg))
        except websockets.ConnectionClosed:
            table.inflight.pop(seq, None)  # the run is over


async def run_load(bases: list[str], tables: int, seats: int, seconds: float,
                   pace: float, game: str, seed: int,
                   server_pids: list[int], warmup: float = 5.0,
                   db_dir: str | None = None, trace: str | None = None,
                   db_url: str | None = None) -> dict[str, Any]:
    """Tables are created on the servers ``bases`` in turn; each table's clients
    connect to the server that created (and holds) it."""
    rng = random.Random(seed)
    all_tables: list[Table] = []
    ws_of: dict[str, str] = {}
    for n in range(tables):
        base = bases[n % len(bases)]
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            r = await http.post("/api/tables", json={
                "game": game, "seats": seats, "bots": 0, "decision_seconds": 600,
                "between_hands": 0, "stack": 200})
            r.raise_for_status()
            tid = r.json()["id"]
            host = r.cookies[f"rollem_host_{tid}"]
            http.cookies.clear()
            table = Table(tid, pace, random.Random(rng.random()))
            for i in range(seats):
                j = await http.post(f"/api/tables/{tid}/join", json={"name": f"cpu{i}"})
                j.raise_for_status()
                token = j.cookies[f"rollem_seat_{tid}"]
                http.cookies.clear()
                table.clients.append(Client(table, i, token, host if i == 0 else None))
            all_tables.append(table)
            ws_of[tid] = "ws" + base.removeprefix("http")
    tasks = [asyncio.create_task(c.run(f"{ws_of[t.tid]}/ws/{t.tid}"))
             for t in all_tables for c in t.clients]
    # Wait until everyone is connected, then deal everywhere.
    while any(c.state is None for t in all_tables for c in t.clients):
        failed = [task for task in tasks if task.done()]
        if failed:  # a client could not connect: say why rather than wait for ever
            raise RuntimeError(f"{len(failed)} clients ended before the start") from (
                failed[0].exception())
        await asyncio.sleep(0.05)
    # The 600 clients stand for 600 browsers, each with its own memory: a full
    # garbage collection of this one process would stall every table's clients
    # at once (hundreds of ms), so collect now and keep what was set up out of
    # later collections, as the server does.
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 50, 1000)
    pauses: list[float] = []
    pause_at: list[float] = []  # when each pause began (``--trace``)
    gc_start = [0.0]

    def gc_timer(phase: str, _info: dict[str, Any]) -> None:
        if phase == "start":
            gc_start[0] = time.perf_counter()
        else:
            pauses.append(time.perf_counter() - gc_start[0])
            pause_at.append(gc_start[0])

    gc.callbacks.append(gc_timer)
    begin = time.perf_counter()
    for t in all_tables:  # tables keep their own rhythm, not one shared beat
        t.next_slot = begin + t.rng.random() * t.interval
    for t in all_tables:
        host = t.clients[0]
        await host.ws.send(json.dumps({"type": "start", "seq": host.state["seq"]}))
    # Every table deals its first hand at the same moment: that burst is not
    # the steady play measured, so the figures start after ``warmup`` seconds.
    await asyncio.sleep(warmup)
    print(f"playing: {len(tasks)} clients connected", file=sys.stderr, flush=True)
    start = time.perf_counter()
    for t in all_tables:
        t.measure_from = start
    hands_before = sum(t.hands for t in all_tables)
    cpu_before = sum(_cpu_of(pid) for pid in server_pids)
    db_before = _db_cpu(db_dir)
    wal_before = _wal_stats(db_url)
    own = resource.getrusage(resource.RUSAGE_SELF)
    pauses.clear()
    pause_at.clear()
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - start
    server_cpu = sum(_cpu_of(pid) for pid in server_pids) - cpu_before
    db_cpu = _db_cpu(db_dir) - db_before
    wal = {k: v - wal_before[k] for k, v in _wal_stats(db_url).items()}
    own_end = resource.getrusage(resource.RUSAGE_SELF)
    for t in all_tables:
        t.measure_from = float("inf")  # what arrives from now on is not counted
    gc.callbacks.remove(gc_timer)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    clients_cpu = (own_end.ru_utime + own_end.ru_stime) - (own.ru_utime + own.ru_stime)
    lat = sorted(x for t in all_tables for x in t.latencies)
    if trace is not None:  # every action: seconds into the run, milliseconds, table,
        wall = time.time() - time.perf_counter()  # and when it was sent (wall clock)
        with open(trace, "a") as out:  # (a search's runs one after another)
            # The run's start on this machine's monotonic clock (time.perf_counter,
            # shared by every process) and the clients' own collections, to line
            # the actions up with what a server-side probe logged.
            out.write(f"# start {start:.4f}\n")
            for at, pause in zip(pause_at, pauses, strict=True):
                out.write(f"# clients-gc {at - start:.4f} {1000 * pause:.2f}\n")
            for n, t in enumerate(all_tables):
                for t0, x in zip(t.sent_at, t.latencies, strict=True):
                    out.write(f"{t0 - start:.4f} {1000 * x:.2f} {n} {t0 + wall:.4f}\n")
    errors = [e for t in all_tables for e in t.errors]
    return {
        "tables": tables,
        "seats": seats,
        "pace": pace,
        "seconds": round(elapsed, 1),
        "actions": len(lat),
        "actions_per_second": round(len(lat) / elapsed, 1),
        "hands": sum(t.hands for t in all_tables) - hands_before,
        "p50_ms": round(1000 * statistics.median(lat), 2) if lat else None,
        "p99_ms": round(1000 * lat[int(0.99 * (len(lat) - 1))], 2) if lat else None,
        "max_ms": round(1000 * lat[-1], 2) if lat else None,
        "errors": len(errors),
        "error_kinds": sorted({e.split(":")[0] for e in errors}),
        # CPU while playing (not setting up): what each action costs, whatever the load
        "server_cpu_s": round(server_cpu, 1),
        "clients_cpu_s": round(clients_cpu, 1),
        "server_cpu_ms_per_action": round(1000 * server_cpu / len(lat), 2) if lat else None,
        # the clients' own stalls (this process), which the latencies include
        "clients_gc_max_ms": round(1000 * max(pauses), 1) if pauses else 0.0,
        "stalls": stalls(all_tables, start),
        "warmup_s": warmup,
        # --pg: the PostgreSQL server's own processes (another process on the same cores)
        **({"db_cpu_ms_per_action": round(1000 * db_cpu / len(lat), 2) if lat else None}
           if db_dir is not None else {}),
        # PostgreSQL's write-ahead log while playing: volume, disk syncs (their mean time
        # with track_wal_io_timing=on), checkpoints, new 16 MB segment files
        **({"wal_kb_per_action": round(wal["bytes"] / 1024 / max(1, len(lat)), 2),
            "wal_full_pages": int(wal["fpi"]), "wal_syncs": int(wal["syncs"]),
            "wal_sync_ms_mean": round(wal["sync_ms"] / max(1, wal["syncs"]), 2),
            "wal_buffers_full": int(wal["buffers_full"]),
            "checkpoints": int(wal["checkpoints"]), "wal_segments_added": int(wal["segments"])}
           if wal else {}),
    }


STALL_TABLES = 10  # actions over the goal at this many tables at once: a stall of the server
STALL_GAP_S = 0.25  # slow actions sent within this of each other belong to one stall


def stalls(tables: list[Table], start: float) -> list[list[float]]:
    """The moments when many tables were slow at once: actions over the goal
    (50 ms), grouped by when they were sent (within ``STALL_GAP_S`` of the
    previous one); a group spanning at least ``STALL_TABLES`` tables is a
    stall of the whole server (a collection, a disk sync, a long step of the
    event loop) rather than of one table.  Each: seconds into the run, tables,
    slowest action (ms)."""
    slow = sorted((t0, x, n) for n, t in enumerate(tables)
                  for t0, x in zip(t.sent_at, t.latencies, strict=True) if 1000 * x > GOAL_MS)
    groups: list[list[tuple[float, float, int]]] = []
    for item in slow:
        if groups and item[0] - groups[-1][-1][0] <= STALL_GAP_S:
            groups[-1].append(item)
        else:
            groups.append([item])
    return [[round(g[0][0] - start, 2), len({n for _t, _x, n in g}),
             round(1000 * max(x for _t, x, _n in g), 1)]
            for g in groups if len({n for _t, _x, n in g}) >= STALL_TABLES]


def one_run(args: argparse.Namespace, pace: float, seconds: float) -> dict[str, Any]:
    """One run with ``args.processes`` servers: on PostgreSQL all on the one database
    (each table leased to the server that created it), on SQLite each on its own
    file (a SQLite database has one server)."""
    new_db = getattr(args, "new_db", None)
    db = new_db() if new_db is not None else args.db  # --pg: a fresh database each run
    with tempfile.TemporaryDirectory() as tmp:
        servers = [start_server(db or Path(tmp) / f"load{k}.db", args.trace_dir)
                   for k in range(args.processes)]
        try:
            report = asyncio.run(run_load([f"http://127.0.0.1:{port}" for _p, port in servers],
                                          args.tables, args.seats, seconds, pace, args.game,
                                          args.seed, [proc.pid for proc, _port in servers],
                                          args.warmup, getattr(args, "db_dir", None),
                                          args.trace or (args.trace_dir and
                                                         os.path.join(args.trace_dir, "actions")),
                                          db if isinstance(db, str) else None))
            report["processes"] = args.processes
            report["store"] = "postgresql" if args.db else "sqlite"
            report["load_average"] = os.getloadavg()[0]
            return report
        finally:
            for proc, _port in servers:
                proc.terminate()
            for proc, _port in servers:
                proc.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seats", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--pace", type=float, default=1.0, help="actions per second per table")
    parser.add_argument("--game", default="dealers-choice")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--trace", default=None,
                        help="write every measured action to this file: seconds into the "
                             "run, milliseconds, table number (to see when the slow ones were)")
    parser.add_argument("--trace-dir", default=None,
                        help="write timings to this directory: every action (as --trace, "
                             "file actions), the servers' commits, event-loop stalls and "
                             "garbage collections (ROLLEM_TRACE_DIR: rollem.server.trace), "
                             "and with --pg PostgreSQL's log (postgresql.log) with slow "
                             "statements, lock waits, checkpoints and autovacuum logged")
    parser.add_argument("--warmup", type=float, default=5.0,
                        help="seconds of play before the figures start (every table deals "
                             "its first hand at once)")
    parser.add_argument("--search", action="store_true",
                        help="then raise the pace until p99 passes 50 ms")
    parser.add_argument("--search-seconds", type=float, default=20.0)
    parser.add_argument("--step", type=float, default=0.25, help="pace step of the search")
    parser.add_argument("--search-tables", action="store_true",
                        help="instead: keep the pace and raise the table count from --tables "
                             "by --table-step while p99 stays within 50 ms (runs of "
                             "--search-seconds), then try halfway to the count that failed; "
                             "report the largest count held")
    parser.add_argument("--table-step", type=int, default=10,
                        help="table count step of --search-tables")
    parser.add_argument("--min-actions", type=int, default=400,
                        help="--search-tables: a run lasts long enough for this many actions "
                             "(at most 3 x --search-seconds)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--db", default=None,
                        help="a PostgreSQL URL to serve from (default: a fresh SQLite file)")
    parser.add_argument("--pg", action="store_true",
                        help="serve from a private PostgreSQL cluster started for the run "
                             "(Debian's postgresql, as the tests do)")
    parser.add_argument("--pg-setting", action="append", default=[], metavar="NAME=VALUE",
                        help="--pg: a setting of the cluster (repeat for more), as "
                             "synchronous_commit=off to see what the commit's disk sync costs")
    parser.add_argument("--processes", type=int, default=1,
                        help="rollem serve processes (PostgreSQL: sharing the database; "
                             "SQLite: one file each); tables are spread over them in turn")
    args = parser.parse_args()
    if args.pg:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))
        from pg_cluster import PgCluster

        settings = dict(PG_TRACE_SETTINGS) if args.trace_dir else {}
        settings.update(s.split("=", 1) for s in args.pg_setting)
        cluster = PgCluster(settings)
        try:
            args.db = cluster.new_database()
            args.new_db = cluster.new_database
            args.db_dir = cluster.data
            run_all(args)
        finally:
            if args.trace_dir:
                shutil.copy(cluster.log, os.path.join(args.trace_dir, "postgresql.log"))
            cluster.stop()
        return
    run_all(args)


def search_tables(args: argparse.Namespace) -> None:
    """Raise the table count by ``--table-step`` (from ``--tables``) while a run's p99
    stays within the goal with no errors, then try once halfway between the last
    count held and the first that failed; print each run and then the largest
    count held.  When the first count already fails, halve it until one holds."""

    def holds(tables: int) -> bool:
        args.tables = tables
        # A p99 of few actions is their largest: one stall of this shared machine
        # would decide it, so a small count runs longer (--min-actions; at most
        # three times --search-seconds).
        seconds = min(max(args.search_seconds, args.min_actions / (tables * args.pace)),
                      3 * args.search_seconds)
        r = one_run(args, args.pace, seconds)
        print(json.dumps(r), flush=True)
        return r["p99_ms"] is not None and r["p99_ms"] <= GOAL_MS and not r["errors"]

    held: int | None = None
    tables = args.tables
    if holds(tables):
        held = tables
        while holds(tables + args.table_step):
            tables += args.table_step
            held = tables
        half = held + args.table_step // 2
        if half > held and holds(half):
            held = half
    else:
        while tables > 1:
            tables //= 2
            if holds(tables):
                held = tables
                break
    print(json.dumps({"store": "postgresql" if args.db else "sqlite",
                      "processes": args.processes, "pace": args.pace,
                      "largest_tables_held": held, "goal_p99_ms": GOAL_MS,
                      "load_average": os.getloadavg()}), flush=True)


def run_all(args: argparse.Namespace) -> None:
    print(f"cpus: {os.cpu_count()}; client and server on this machine", file=sys.stderr)
    if args.search_tables:
        search_tables(args)
        return
    report = one_run(args, args.pace, args.seconds)
    print(json.dumps(report), flush=True)
    if args.search:
        best = args.pace if report["p99_ms"] is not None and report["p99_ms"] <= GOAL_MS else None
        pace = args.pace
        while True:
            pace += args.step
            r = one_run(args, pace, args.search_seconds)
            print(json.dumps(r), flush=True)
            if r["p99_ms"] is None or r["p99_ms"] > GOAL_MS or r["errors"]:
                break
            best = pace
        print(json.dumps({"highest_pace_under_goal": best, "goal_p99_ms": GOAL_MS}))


if __name__ == "__main__":
    main()
