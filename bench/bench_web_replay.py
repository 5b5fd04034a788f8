"""Replays must not slow another table: a player at one table pings ten times a
second while other clients fetch replays (``GET /api/tables/<id>/hands/<n>``)
of finished 10-player 5-2-1 hands from another table.

Starts ``rollem serve`` (default limits) on a fresh database, lets nine computer
players (and one player who times out) finish a few hands of 5-2-1 at a
10-seat table, then runs, each while the honest player pings:

- ``burst``: 30 replay requests at once (the costly-request burst one address is
  allowed), over the finished hands and viewers (a watcher, the timed-out player);
- ``burst_again``: the same (a replay kept from the first burst);
- ``parallel``: 8 clients fetching replays back to back for 8 seconds (each from
  its own address, within the per-address limit).

The replay requests come from a child process, so that the pinging player's
figures are the server's delay, not its own process's.

Reports the replay's size (as sent, and its JSON without compression), the
ping median / p99 / max in each phase and how many replays were served.

    .venv/bin/python bench/bench_web_replay.py [--server-src DIR]

``--server-src DIR`` runs the server from another checkout's ``src`` (e.g. the
code before a change: ``git archive main src | tar -x -C /tmp/old``) for a
before/after comparison.  Client and server share this machine.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))

from hostile import HONEST, Report, honest_pings
from web_harness import ROOT, cookie_header, free_port, wait_served

HANDS = 8
"""Finished hands to replay."""


def _ms(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"pings": len(ordered),
            "median_ms": round(statistics.median(ordered) * 1000, 1),
            "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 1),
            "max_ms": round(ordered[-1] * 1000, 1)}


async def _phase(ws_url: str, tid: str, cookie: str, work: Any) -> dict[str, Any]:
    """Ping while ``work()`` runs (plus 0.5 s before and after); the ping figures."""
    report, stop = Report(), asyncio.Event()
    pinger = asyncio.create_task(honest_pings(ws_url, tid, cookie, stop, report))
    await asyncio.sleep(0.5)
    out = await work()
    await asyncio.sleep(0.5)
    stop.set()
    await pinger
    return {**out, **_ms(report.pings)}


async def _load(kind: str, base: str, urls: list[tuple[str, dict[str, str]]]) -> dict[str, Any]:
    """(The load's own process, apart from the pinging player, as other machines'
    clients would be.)  ``burst``: 30 replays at once from one address;
    ``parallel``: 8 clients (an address each) back to back for 8 s."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        t = time.perf_counter()
        if kind.startswith("burst"):  # (burst, burst2: each from its own address)
            rs = await asyncio.gather(*(
                http.get(u, cookies=c, headers={"X-Forwarded-For": f"10.9.2.{len(kind)}"})
                for u, c in (urls[i % len(urls)] for i in range(30))))
            return {"served": sum(x.status_code == 200 for x in rs),
                    "seconds": round(time.perf_counter() - t, 2)}
        served = 0
        end = t + 8

        async def client(k: int) -> None:
            nonlocal served
            i = k
            while time.perf_counter() < end:
                u, c = urls[i % len(urls)]
                x = await http.get(u, cookies=c, headers={"X-Forwarded-For": f"10.9.3.{k}"})
                served += x.status_code == 200
                i += 8
        await asyncio.gather(*(client(k) for k in range(8)))
        return {"served": served}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--server-src", help="run the server from this src directory")
    ap.add_argument("--load", help=argparse.SUPPRESS)
    ap.add_argument("--base", help=argparse.SUPPRESS)
    ap.add_argument("--urls", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.load:
        print(json.dumps(asyncio.run(_load(args.load, args.base, json.loads(args.urls)))))
        return
    env = dict(os.environ)
    if args.server_src:
        env["PYTHONPATH"] = str(Path(args.server_src).resolve())
    with tempfile.TemporaryDirectory() as tmp:
        db, log = Path(tmp) / "replay.db", Path(tmp) / "serve.log"
        port = free_port()
        with open(log, "w") as err:
            server = subprocess.Popen(
                [sys.executable, "-m", "rollem", "serve", "--port", str(port), "--db", str(db),
                 "--no-access-log", "--log-level", "warning", "--shortest-decision", "0.2"],
                cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err, env=env)
        try:
            wait_served(port)
            print(json.dumps(asyncio.run(_run(port))))
        finally:
            server.terminate()
            server.wait(20)
        if "Traceback" in log.read_text():
            print(log.read_text(), file=sys.stderr)
            sys.exit(1)


async def _run(port: int) -> dict[str, Any]:
    base, ws_url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        # The replayed table: 9 computer players and Ann, who times out (and folds).
        r = await http.post("/api/tables", headers={"X-Forwarded-For": "10.9.0.1"}, json={
            "game": "rollem521", "bots": 9, "seats": 10, "bot_level": "basic",
            "decision_seconds": 0.2, "time_bank_seconds": 0, "bot_delay": 0, "between_hands": 0.1})
        big = r.json()["id"]
        host = r.cookies[f"rollem_host_{big}"]
        r = await http.post(f"/api/tables/{big}/join", json={"name": "Ann"},
                            headers={"X-Forwarded-For": "10.9.0.1"})
        ann = r.cookies[f"rollem_seat_{big}"]
        # The honest player's table.
        r = await http.post("/api/tables", headers={"X-Forwarded-For": HONEST}, json={
            "game": "sdr", "bots": 2, "seats": 3, "decision_seconds": 30,
            "time_bank_seconds": 0, "bot_delay": 0.05, "between_hands": 0.1})
        tid = r.json()["id"]
        r = await http.post(f"/api/tables/{tid}/join", json={"name": "Bo"},
                            headers={"X-Forwarded-For": HONEST})
        cookie = cookie_header(tid, r.cookies[f"rollem_seat_{tid}"])
        async with websockets.connect(f"{ws_url}/ws/{big}", max_size=2**24, additional_headers={
                "Cookie": cookie_header(big, ann, host), "X-Forwarded-For": "10.9.0.1"}) as ws:
            await ws.recv()
            await ws.send('{"type": "start", "seq": 0}')
            t0 = time.perf_counter()
            while (await http.get(f"/api/tables/{big}")).json()["hand_no"] <= HANDS:
                if time.perf_counter() - t0 > 300:
                    raise SystemExit("the hands did not finish in 5 minutes")
                await asyncio.sleep(0.5)
        urls = [(f"/api/tables/{big}/hands/{n}", c) for n in range(1, HANDS + 1)
                for c in ({}, {f"rollem_seat_{big}": ann})]
        def load(kind: str) -> Any:
            async def run() -> dict[str, Any]:
                proc = await asyncio.create_subprocess_exec(
                    sys.executable, __file__, "--load", kind, "--base", base,
                    "--urls", json.dumps(urls), stdout=subprocess.PIPE)
                text, _ = await proc.communicate()
                return dict(json.loads(text))
            return run

        out: dict[str, Any] = {}
        out["idle"] = await _phase(ws_url, tid, cookie, lambda: asyncio.sleep(3, {}))
        out["burst"] = await _phase(ws_url, tid, cookie, load("burst"))
        out["burst_again"] = await _phase(ws_url, tid, cookie, load("burst2"))
        out["parallel"] = await _phase(ws_url, tid, cookie, load("parallel"))
        sizes = {}
        for n in range(1, HANDS + 1):  # the longest hand (most frames) for the sizes
            x = await http.get(f"/api/tables/{big}/hands/{n}",
                               headers={"X-Forwarded-For": f"10.9.1.{n}"})
            sizes[n] = len(x.json()["frames"])
        longest = max(sizes, key=lambda n: sizes[n])
        url = f"/api/tables/{big}/hands/{longest}"
        plain = await http.get(url, headers={"Accept-Encoding": "identity",
                                             "X-Forwarded-For": "10.9.1.100"})
        zipped = await http.get(url, headers={"Accept-Encoding": "gzip",
                                              "X-Forwarded-For": "10.9.1.101"})
        body = plain.json()
        out.update({
            "frames_per_hand": list(sizes.values()),
            "longest_frames": len(body["frames"]),
            "json_bytes": len(plain.content),
            "gzip_bytes_sent": int(zipped.headers.get("content-length", 0) or 0),
            "gzip_would_be": len(gzip.compress(plain.content, 6)),
        })
        out["load_average"] = [round(x, 2) for x in os.getloadavg()]
        return out


if __name__ == "__main__":
    main()
