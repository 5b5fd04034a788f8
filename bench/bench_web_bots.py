"""Computer players shared fairly: one table's bot decisions while others keep bots busy.

Starts ``rollem serve`` on a fresh SQLite database with the server's own
timings on (``ROLLEM_TRACE_DIR``, its ``bot`` lines), then over HTTP and
websockets creates ``--busy`` busy tables -- Roll Your Own (R-RYO), 8 seats, 7
``strong`` computer players and one person who folds whenever folding is
allowed (else plays a random legal action), bots acting ``--busy-delay``
seconds after their turn comes and hands ``--busy-between`` seconds apart
(both 0 by default: as fast as any client may ask; the table defaults are 0.8
and 4) -- and one probe table:
``--probe-game``, 2 seats, one ``strong`` computer player (``bot_delay``
``--probe-delay``, no wait between hands) and a person who checks or calls
(else a random legal choice), so the probe's bot decides all hand long.

After ``--warmup`` seconds it measures for ``--seconds``: for every computer
player's decision, the milliseconds from asking (its ``bot_delay`` over) to
the decision back on the event loop, which includes the wait in the bot
thread's queue.  Reports the probe table's median, 99th percentile, max and
count, its queue wait alone, the same over the busy tables, the server's CPU
and the load average.

    .venv/bin/python bench/bench_web_bots.py [--busy 10] [--busy-delay 0] [--busy-between 0]
        [--seconds 40] [--warmup 10]
        [--probe-game rollyourown] [--probe-delay 0.05] [--json]

Run it on an otherwise idle machine (``flock /tmp/webbench.lock``): the figure
is a latency, and another process on the cores adds its own wait.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_web_load import _cpu_of, start_server
from rollem.server.game_session import random_wire_action


def fold_else_random(legal: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The busy tables' person: folds when allowed, else a random legal action."""
    if "fold" in legal["actions"]:
        return {"kind": "fold"}
    return random_wire_action(legal, rng)


def check_or_call(legal: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The probe table's person: checks, else calls, else a random legal choice."""
    for kind in ("check", "call"):
        if kind in legal["actions"]:
            return {"kind": kind}
    return random_wire_action(legal, rng)


async def person(url: str, cookie: str, policy: Any, rng: random.Random,
                 ready: asyncio.Event, host: list[Any]) -> None:
    """A person at a table: answers every decision at once by ``policy``;
    ``host``: if not empty, this client deals the first hand once connected."""
    async with websockets.connect(url, additional_headers={"Cookie": cookie},
                                  open_timeout=60, max_size=2**24, compression=None) as ws:
        acted_for: object = None
        while True:
            msg = orjson.loads(await ws.recv())
            if msg["type"] != "state":
                continue
            if host:
                host.clear()
                await ws.send(json.dumps({"type": "start", "seq": msg["seq"]}))
                ready.set()
                continue
            hand, you = msg["hand"], msg["you"]
            if (not hand or hand.get("result") or not hand.get("legal")
                    or not hand["legal"]["actions"] or you["decision_seq"] is None):
                continue
            key = (hand["hand_no"], you["decision_seq"], hand["pending"])
            if key == acted_for:
                continue
            acted_for = key
            await ws.send(json.dumps({"type": "action", "hand": hand["hand_no"],
                                      "seq": msg["seq"],
                                      "action": policy(hand["legal"], rng)}))


async def new_table(http: httpx.AsyncClient, ws_base: str, settings: dict[str, Any],
                    policy: Any, rng: random.Random) -> tuple[str, asyncio.Task[None]]:
    """Create a table, sit one person in seat 0 (the host's connection deals)."""
    r = await http.post("/api/tables", json=settings)
    r.raise_for_status()
    tid = r.json()["id"]
    host = r.cookies[f"rollem_host_{tid}"]
    http.cookies.clear()
    j = await http.post(f"/api/tables/{tid}/join", json={"name": "Person", "seat": 0})
    j.raise_for_status()
    seat = j.cookies[f"rollem_seat_{tid}"]
    http.cookies.clear()
    ready = asyncio.Event()
    cookie = f"rollem_seat_{tid}={seat}; rollem_host_{tid}={host}"
    task = asyncio.create_task(person(f"{ws_base}/ws/{tid}", cookie, policy, rng, ready,
                                      ["deal"]))
    await asyncio.wait_for(ready.wait(), 60)
    return tid, task


def figures(ms: list[float]) -> dict[str, Any]:
    ms = sorted(ms)
    if not ms:
        return {"n": 0}
    return {"n": len(ms), "p50_ms": round(statistics.median(ms), 2),
            "p99_ms": round(ms[int(0.99 * (len(ms) - 1))], 2), "max_ms": round(ms[-1], 2)}


async def run(args: argparse.Namespace, base: str, trace_dir: str, pid: int) -> dict[str, Any]:
    rng = random.Random(args.seed)
    ws_base = "ws" + base.removeprefix("http")
    tasks = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        probe, task = await new_table(http, ws_base, {
            "game": args.probe_game, "seats": 2, "bots": 1, "bot_level": "strong",
            "bot_delay": args.probe_delay, "between_hands": 0, "decision_seconds": 600,
            "stack": 1000}, check_or_call, random.Random(rng.random()))
        tasks.append(task)
        for _ in range(args.busy):
            _tid, task = await new_table(http, ws_base, {
                "game": "rollyourown", "seats": 8, "bots": 7, "bot_level": "strong",
                "bot_delay": args.busy_delay, "between_hands": args.busy_between,
                "decision_seconds": 600}, fold_else_random, random.Random(rng.random()))
            tasks.append(task)
    await asyncio.sleep(args.warmup)
    start, cpu0 = time.time(), _cpu_of(pid)
    await asyncio.sleep(args.seconds)
    end, cpu = time.time(), _cpu_of(pid) - cpu0
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    probe_total, probe_wait, busy_total, busy_wait = [], [], [], []
    for path in Path(trace_dir).glob("bot.*"):
        for line in path.read_text().splitlines():
            at, tid, _seat, wait, total = line.split()
            if not start <= float(at) <= end:
                continue
            if tid == probe:
                probe_total.append(float(total))
                probe_wait.append(float(wait))
            else:
                busy_total.append(float(total))
                busy_wait.append(float(wait))
    return {
        "busy_tables": args.busy, "busy_bot_delay": args.busy_delay,
        "busy_between_hands": args.busy_between, "seconds": args.seconds,
        "probe_game": args.probe_game, "probe_bot_delay": args.probe_delay,
        "probe": figures(probe_total), "probe_queue_wait": figures(probe_wait),
        "busy": figures(busy_total), "busy_queue_wait": figures(busy_wait),
        "server_cpu_share": round(cpu / (end - start), 2),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--busy", type=int, default=10, help="tables of 7 strong bots")
    parser.add_argument("--busy-delay", type=float, default=0.0,
                        help="the busy tables' bot_delay (seconds; 0.8 is the default)")
    parser.add_argument("--busy-between", type=float, default=0.0,
                        help="the busy tables' between_hands (seconds; 4 is the default)")
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--probe-game", default="rollyourown")
    parser.add_argument("--probe-delay", type=float, default=0.05,
                        help="the probe table's bot_delay (seconds)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one line of JSON")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc, port = start_server(Path(tmp) / "bots.db", trace_dir=tmp)
        try:
            out = asyncio.run(run(args, f"http://127.0.0.1:{port}", tmp, proc.pid))
        finally:
            proc.terminate()
            proc.wait(10)
    print(json.dumps(out) if args.json else json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
