"""Practice odds under attack (issue 34, item 2): two attacker tables of the
costly game file (:func:`hostile.costly_game_file`, the costliest a new table
accepts since issue 34 item 1) ask for their practice odds
while an honest player at a Stop, Drop and Roll practice table asks for hers at
every change and pings ten times a second.  Used by
``bench/bench_web_hostile.py --odds`` (the figures) -- the server is a real
``rollem serve`` with its default limits, in its own process.

Two ways to attack (``mode``):

- ``"odds"``: each attacker asks at the start of every hand, waits for the
  answer (``too_costly`` after the budget), then folds: a new hand at once,
  asked again -- the odds workers as busy as two tables can keep them, without
  the showdowns' own cost (item 1, another matter);
- ``"play"``: each attacker plays every hand to its showdown (check or call),
  flat out (``bot_delay`` 0, ``between_hands`` 0), asking at every change as
  the table page does.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import websockets
from hostile import costly_game_file
from web_harness import ROOT, Player, create_table, free_port, join, wait_served


def _cpu_seconds(pid: int) -> float:
    """CPU seconds used by ``pid`` and every process under it (with the children
    they have reaped), from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    todo = [pid]
    while todo:
        p = todo.pop()
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += sum(int(x) for x in fields[11:15]) / tick  # utime stime cutime cstime
            for task in Path(f"/proc/{p}/task").iterdir():
                with contextlib.suppress(OSError):
                    todo += [int(c) for c in (task / "children").read_text().split()]
    return total


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _ms(seconds: float, digits: int = 0) -> float | None:
    """Milliseconds, rounded; ``None`` for no figure (nothing answered)."""
    if seconds != seconds:  # (NaN)
        return None
    return round(1000 * seconds, digits) if digits else round(1000 * seconds)


class _Seat:
    """One seated client: asks for its odds as the page does (one request at a time,
    again when the table has moved on) and records the answers."""

    def __init__(self, mode: str) -> None:
        self.p: Player = None  # type: ignore[assignment]  # (set at each connection)
        self.started = False
        self.mode = mode
        self.asked: tuple[int, int] | None = None  # (hand, seq) of the request in flight
        self.asked_at = 0.0
        self.last_key: tuple[int, int] | None = None
        self.answered_hand: int | None = None
        self.latencies: list[float] = []
        self.asked_when: list[float] = []  # (monotonic time of each answered request)
        self.answers: dict[str, int] = {}
        self.other_errors: dict[str, int] = {}
        self.reconnects = 0
        self.acted: Any = None

    async def step(self, msg: dict[str, Any]) -> None:
        p, st = self.p, self.p.state
        if msg["type"] == "error" and (msg.get("ref") or {}).get("type") != "odds":
            self.other_errors[msg["code"]] = self.other_errors.get(msg["code"], 0) + 1
        if msg["type"] == "odds" or (msg["type"] == "error" and (msg.get("ref") or {}).get(
                "type") == "odds"):
            kind = "odds" if msg["type"] == "odds" else msg["code"]
            self.answers[kind] = self.answers.get(kind, 0) + 1
            if self.asked is not None:
                self.latencies.append(time.monotonic() - self.asked_at)
                self.asked_when.append(self.asked_at)
                self.answered_hand = self.asked[0]
            self.asked = None
        if st is None or st["hand"] is None or st["hand"].get("result"):
            return
        hand_no, seq = st["hand"]["hand_no"], st["seq"]
        me = st["hand"]["seats"][st["you"]["seat"]]
        if self.asked is None and (hand_no, seq) != self.last_key and me["dealt"] \
                and not me["folded"] and (self.mode != "odds" or self.answered_hand != hand_no):
            self.last_key = self.asked = (hand_no, seq)
            self.asked_at = time.monotonic()
            await p.send({"type": "odds", "hand": hand_no, "seq": seq})
        if p.my_decision() and st["you"]["decision_seq"] != self.acted:
            if self.mode == "odds" and self.answered_hand != hand_no:
                return  # (fold once the answer came)
            self.acted = st["you"]["decision_seq"]
            if self.mode == "odds":
                await p.send({"type": "action", "hand": hand_no, "seq": seq,
                              "action": {"kind": "fold"}})
            else:
                await p.act_random(passive=True)


async def _sit(ws_url: str, tid: str, token: str, host: str, mode: str, until: float,
               pings: list[float] | None) -> _Seat:
    """Sit at the table until ``until``; a connection the server closes (an attacker
    over the message rate limit) is opened again half a second later, as the page
    does."""
    seat = _Seat(mode)
    while time.monotonic() < until:
        try:
            await _connected(ws_url, tid, token, host, until, pings, seat)
        except websockets.ConnectionClosed:
            seat.reconnects += 1
            seat.asked = None
            await asyncio.sleep(0.5)
    return seat


async def _connected(ws_url: str, tid: str, token: str, host: str, until: float,
                     pings: list[float] | None, seat: _Seat) -> None:
    async with Player(ws_url, tid, token, host) as p:
        seat.p = p
        if not seat.started:
            await p.until(lambda st: st["you"]["host"])
            await p.send({"type": "start", "seq": p.state["seq"]})  # type: ignore[index]
            seat.started = True
        sent: list[float] = []

        async def pinger() -> None:
            while time.monotonic() < until:
                sent.append(time.monotonic())
                await p.send({"type": "ping"})
                await asyncio.sleep(0.1)

        task = asyncio.create_task(pinger()) if pings is not None else None
        try:
            while time.monotonic() < until:
                try:
                    msg = await p.recv(max(0.01, until - time.monotonic()))
                except TimeoutError:
                    break
                if msg["type"] == "pong" and pings is not None and sent:
                    pings.append(time.monotonic() - sent.pop(0))
                await seat.step(msg)
        finally:
            if task is not None:
                task.cancel()


def run_odds_attack(tmp: Path, *, seconds: float = 45.0, mode: str = "odds") -> dict[str, Any]:
    """Serve, seat two attackers and the honest player, run ``seconds``; the figures."""
    db, log = tmp / "odds-attack.db", tmp / "serve.log"
    port = free_port()
    with log.open("w") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "rollem", "serve", "--port", str(port), "--db", str(db)],
            stdout=out, stderr=subprocess.STDOUT, cwd=ROOT,
            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    try:
        wait_served(port, 60)
        base, ws_url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
        attack = {"game_file": costly_game_file((5, 5)), "game": "big-wild", "seats": 2,
                  "bots": 1,
                  "bot_delay": 0, "between_hands": 0, "decision_seconds": 60,
                  "practice_odds": True}
        honest = {"game": "sdr", "seats": 2, "bots": 1, "bot_delay": 0.3,
                  "between_hands": 1, "decision_seconds": 60, "practice_odds": True}
        tables = [create_table(base, **attack), create_table(base, **attack),
                  create_table(base, **honest)]
        seats = [(tid, host, join(base, tid, name)[1])
                 for (tid, host), name in zip(tables, ("Mallory", "Mel", "Ann"), strict=True)]
        cpu0, t0 = _cpu_seconds(server.pid), time.monotonic()
        until = t0 + seconds
        pings: list[float] = []

        async def everyone() -> list[_Seat]:
            jobs = [_sit(ws_url, tid, token, host, mode, until, None)
                    for tid, host, token in seats[:2]]
            jobs.append(_sit(ws_url, seats[2][0], seats[2][2], seats[2][1], "play", until,
                             pings))
            return list(await asyncio.gather(*jobs))

        out_seats = asyncio.run(everyone())
        took = time.monotonic() - t0
        cpu = _cpu_seconds(server.pid) - cpu0
        info = httpx.get(base + "/api/info").status_code
    finally:
        server.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(20)
        if server.poll() is None:
            server.kill()
    text = log.read_text()
    ann = out_seats[2]
    attackers = out_seats[:2]
    return {
        "mode": mode, "seconds": round(took, 1),
        "honest_odds_asked": len(ann.latencies) + (ann.asked is not None),
        "honest_odds_answered": ann.answers,
        "honest_odds_ms": {"p50": _ms(_pct(ann.latencies, 0.5)),
                           "p99": _ms(_pct(ann.latencies, 0.99)),
                           "max": _ms(max(ann.latencies, default=float("nan")))},
        "honest_odds_ms_after_10s": {  # (the workers' fork server loads meanwhile)
            "p99": _ms(_pct(later := [x for x, at in zip(
                ann.latencies, ann.asked_when, strict=True) if at >= t0 + 10], 0.99)),
            "max": _ms(max(later, default=float("nan"))), "count": len(later)},
        "honest_odds_pending_at_end_ms": (round(1000 * (until - ann.asked_at))
                                          if ann.asked is not None else None),
        "honest_ping_ms": {"p50": _ms(_pct(pings, 0.5), 1),
                           "p99": _ms(_pct(pings, 0.99), 1), "count": len(pings)},
        "attacker_answers": [a.answers for a in attackers],
        "attacker_other_errors": [a.other_errors for a in attackers],
        "attacker_reconnects": [a.reconnects for a in attackers],
        "honest_other_errors": ann.other_errors,
        "attacker_ms_median": [round(1000 * statistics.median(a.latencies))
                               if a.latencies else None for a in attackers],
        "server_cpu_share": round(cpu / took, 2),
        "log_lines_practice_odds": sum("practice odds" in ln for ln in text.splitlines()),
        "tracebacks": text.count("Traceback"),
        "first_traceback": text[text.index("Traceback"):][:3000] if "Traceback" in text else None,
        "server_answered_at_end": info,
    }
