"""A hostile client (issue 13): floods of every message type, 1 MB bodies,
deep JSON, a thousand table creations from one address and 200 simultaneous
connections, while a player at another table pings.  The server keeps its
real default limits.  Checked: every attack meets its limit with a clear
error, the player's pings are answered throughout and the server's event loop
never computed for longer than :data:`NOT_STARVED_LOOP_CPU_MS` at a stretch (its
own CPU time in each stall, rollem.server.trace: the ping times, printed, and the
50 ms goal, checked by bench/bench_web_hostile.py, grow with the machine's
load), no traceback is logged, and every table's chips are conserved."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import websockets
from hostile import HONEST, Report, ping_until
from web_harness import ROOT, cookie_header, free_port, wait_served

NOT_STARVED_LOOP_CPU_MS = 250.0
"""The most CPU milliseconds the server's event-loop thread may use within one
stall of the loop while the attack lasts (``ROLLEM_TRACE_DIR``'s ``loop`` lines):
five times the 50 ms ping goal.  CPU time, not the stall's length: on a loaded
machine the loop also waits for a CPU (a bound of 250 ms on the pings' p99 failed
on CI with a 286 ms ping; at a load of 19 to 38 on two cores the p99 was 356 to 516 ms
and the loop's longest own stall 34 to 68 CPU ms); a stall of the server's own
work still fails (before issue 13 one sync flood stalled every table for seconds;
a deal on the event loop that loads the engine stalls for a second)."""


def _unbalanced(db: Path) -> list[str]:
    """Tables between hands whose stacks + carried differ from what was brought."""
    con = sqlite3.connect(db)
    bad = []
    for tid, session_text in con.execute("SELECT id, session FROM tables"):
        session = json.loads(session_text)
        if session.get("in_hand"):
            continue
        rows = con.execute("SELECT stack, brought FROM seats WHERE table_id=?", (tid,))
        departed = session.get("departed", [])
        held, brought = int(session.get("carried", 0)), 0
        for stack, paid in rows:
            held, brought = held + stack, brought + paid
        held += sum(d["stack"] for d in departed)
        brought += sum(d["brought"] for d in departed)
        if held != brought:
            bad.append(f"{tid}: {held} != {brought}")
    con.close()
    return bad


async def _start(ws: Any) -> None:
    """The host starts the first hand at the seq of the latest state: a start at an
    older one is refused ``too_late`` (the table's seq moves as players connect), so
    it is sent again until the hand is dealt."""
    seq = 0
    for _ in range(20):
        msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if msg.get("type") == "state":
            if msg.get("hand"):
                return
            seq = msg["seq"]
            await ws.send(json.dumps({"type": "start", "seq": seq}))
    raise AssertionError("the honest table's first hand was never dealt")


def run_hostile(tmp: Path, *, floods: int, bodies: int, tables: int,
                connections: int) -> dict[str, Any]:
    """Serve (rollem serve, default limits), start a hand at an honest table, attack
    from another process, ping meanwhile; returns the figures and the server log."""
    db, log, traces = tmp / "hostile.db", tmp / "serve.log", tmp / "trace"
    traces.mkdir()
    port = free_port()
    with open(log, "w") as err:
        server = subprocess.Popen(
            [sys.executable, "-m", "rollem", "serve", "--port", str(port), "--db", str(db),
             "--no-access-log", "--log-level", "warning", "--shortest-decision", "0.2"],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err,
            env={**os.environ, "ROLLEM_TRACE_DIR": str(traces), "ROLLEM_NO_NUMBA": "1"})
    base, ws_url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    out: dict[str, Any] = {}
    try:
        wait_served(port)
        headers = {"X-Forwarded-For": HONEST}
        r = httpx.post(base + "/api/tables", headers=headers, json={
            "game": "sdr", "bots": 2, "seats": 3, "decision_seconds": 0.2,
            "time_bank_seconds": 0, "bot_delay": 0.05, "between_hands": 0.1})
        tid = r.json()["id"]
        host = r.cookies[f"rollem_host_{tid}"]
        r = httpx.post(f"{base}/api/tables/{tid}/join", json={"name": "Ann"}, headers=headers)
        seat_token = r.cookies[f"rollem_seat_{tid}"]
        figures = tmp / "attack.json"

        async def run() -> Report:
            async with websockets.connect(f"{ws_url}/ws/{tid}", additional_headers={
                    "Cookie": cookie_header(tid, seat_token, host), **headers}) as ws:
                await _start(ws)
                attack[0] = time.time()
                attacker = subprocess.Popen(
                    [sys.executable, str(Path(__file__).with_name("hostile.py")), str(port),
                     str(figures), str(floods), str(bodies), str(tables), str(connections)])
                report = Report()
                await ping_until(ws_url, tid, cookie_header(tid, seat_token),
                                 lambda: attacker.poll() is not None, report)
                attack[1] = time.time()
                assert attacker.returncode == 0
                return report

        attack = [0.0, 0.0]   # when the attack began and ended (wall clock, as the traces)
        t0 = time.perf_counter()
        report = asyncio.run(run())
        out.update(json.loads(figures.read_text()))
        out.update(seconds=time.perf_counter() - t0, pings=len(report.pings),
                   p99_ms=report.p99() * 1000, max_ms=max(report.pings) * 1000,
                   slowest=[(round(at, 2), round(ms * 1000, 1))
                            for at, ms in report.slowest()])
        out["hands"] = httpx.get(f"{base}/api/tables/{tid}").json()["hand_no"]
    finally:
        server.terminate()
        server.wait(20)
    out["log"] = log.read_text()
    out["unbalanced"] = _unbalanced(db)
    # The event loop's stalls while the attack lasted: (seconds into it, ms late,
    # ms waiting for a CPU, the loop's own CPU ms)
    stalls = [[float(v) for v in line.split()] for f in traces.glob("loop.*")
              for line in f.read_text().splitlines()]
    out["stalls"] = sorted(([round(at - attack[0], 2), late, wait, cpu]
                            for at, late, wait, cpu in stalls if attack[0] <= at <= attack[1]),
                           key=lambda s: -s[3])
    out["loop_cpu_ms"] = max((s[3] for s in out["stalls"]), default=0.0)
    return out


def test_a_hostile_client_does_not_stall_the_honest_player(tmp_path: Path) -> None:
    # Sized for the test budget; bench/bench_web_hostile.py runs the full sizes
    # (1,000 tables) and reports the p99 against its 50 ms goal.
    out = run_hostile(tmp_path, floods=100, bodies=2, tables=300, connections=200)
    print(f"\nhostile: {out['seconds']:.1f} s, {out['pings']} pings, p99 {out['p99_ms']:.1f} ms,"
          f" max {out['max_ms']:.1f} ms; the loop's longest own stall"
          f" {out['loop_cpu_ms']:.1f} CPU ms of {len(out['stalls'])} stalls;"
          f" {out['codes']}; http {out['http']}; "
          f"accepted {out['accepted']}; honest hands {out['hands']}")
    codes, http = out["codes"], {int(k): v for k, v in out["http"].items()}
    # Every flood met the token bucket: an error, then the connection closed (4429).
    assert codes.get("rate_limited", 0) == 10 and codes.get("closed 4429", 0) == 10
    # 1 MB bodies cut off (413); deep JSON malformed (400); 30 tables an hour per
    # address: of 300 asked (plus the attacker's first), 271 refused with 429.
    assert http[413] == 2 and http[400] == 2
    assert http[200] == 29 and http[429] == 271
    # 100 requests to the costly routes: 30 (the burst) and 2 a second more are
    # answered, the rest refused (429) before any work.
    assert codes.get("costly 429", 0) >= 100 - 30 - 2 * out["seconds"] - 1, codes
    assert codes.get("costly 429", 0) + sum(
        v for k, v in codes.items() if k.startswith("costly ") and k != "costly 429") == 100
    # 200 simultaneous connections from 200 addresses to one table: at most 64 at once.
    assert out["accepted"] <= 64
    assert codes.get("too_many_connections", 0) >= 200 - 64 - 10
    # The honest player was answered throughout and played on, never starved.  (Before
    # issue 13 one watcher's sync flood alone stalled every table for seconds; the
    # timing goal, p99 < 50 ms, is the bench's.)
    # A ping every 0.1 s while the attack lasts (1.5 s to 30 s, by machine), each
    # answered (within 10 s: hostile.honest_pings), and the server's event loop
    # never busy with its own work for long at a stretch, whatever the machine's load.
    assert out["pings"] >= 5, out
    assert out["loop_cpu_ms"] <= NOT_STARVED_LOOP_CPU_MS, (out["stalls"][:5], out["slowest"])
    assert out["hands"] >= 1
    assert "Traceback" not in out["log"] and " ERROR " not in out["log"], out["log"][-2000:]
    assert out["unbalanced"] == []
