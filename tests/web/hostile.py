"""A hostile client against a live server while an honest player pings (issue 13).

Used by tests/web/test_hostile_client.py (small sizes) and
bench/bench_web_hostile.py (full sizes).  The attacker and the honest player
come from different addresses (``X-Forwarded-For`` through the trusted local
proxy address, as behind Caddy or nginx).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

ATTACKER = "203.0.113.66"
HONEST = "198.51.100.7"
OPEN_TIMEOUT = 120.0
"""Seconds a connection's opening handshake may take (websockets' own 10 s): the
attacker's connections open while 200 others do, in a process at a lower priority
(its connect timed out at a load of 35 on two cores, the attack left unfinished);
what the server answers is checked, not how fast."""

FLOOD_TYPES: list[Any] = [
    {"type": "sync"}, {"type": "ping"}, {"type": "odds", "hand": 1, "seq": 0},
    {"type": "action", "hand": 1, "seq": 0, "action": {"kind": "fold"}},
    {"type": "choose_game", "hand": 1, "seq": 0, "game": "sdr"}, {"type": "start", "seq": 0},
    {"type": "rebuy", "seq": 0}, {"type": "nonsense"}, "not json", "[" * 4000,
]


def costly_game_file(cards: tuple[int, ...] = (10, 10, 6), players: int = 2) -> str:
    """A game file dealing ``cards`` (one deal step each, a betting round after
    each) to ``players`` players, deuces and treys wild.  The default is the file
    of issue 34 (26 cards a player: 2,631,200 evaluations a showdown, refused);
    ``(5, 5)`` is the costliest of its kind still accepted (10 cards: 10,080 of the
    15,000 allowed, :mod:`rollem.games.cost`)."""
    text = (f'id = "big-wild"\nname = "Big Wild"\nplayers = [{players}, {players}]\n'
            'rules = "Many cards each, deuces and treys wild."\n'
            '[[steps]]\nstep = "ante"\n')
    for n in cards:
        text += (f'[[steps]]\nstep = "deal"\ncards = {n}\n'
                 '[[steps]]\nstep = "bet"\nsize = "small"\ncap = 3\n')
    return (text + '[[steps]]\nstep = "wild"\nranks = ["2", "3"]\n'
            '[[steps]]\nstep = "showdown"\nwild = true\n')


@dataclass
class Report:
    pings: list[float] = field(default_factory=list)
    sent_at: list[float] = field(default_factory=list)  # when each ping left (perf_counter)
    codes: dict[str, int] = field(default_factory=dict)
    http: dict[int, int] = field(default_factory=dict)
    accepted_connections: int = 0

    def count(self, key: str, by: int = 1) -> None:
        self.codes[key] = self.codes.get(key, 0) + by

    def p99(self) -> float:
        ordered = sorted(self.pings)
        return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else 0.0

    def slowest(self, count: int = 5) -> list[tuple[float, float]]:
        """The ``count`` slowest pings as (seconds into the run, latency seconds)."""
        start = self.sent_at[0] if self.sent_at else 0.0
        pairs = sorted(zip(self.pings, self.sent_at, strict=True), reverse=True)[:count]
        return [(at - start, latency) for latency, at in pairs]


async def honest_pings(ws_url: str, tid: str, cookie: str, stop: asyncio.Event,
                       report: Report, every: float = 0.1) -> None:
    """The honest player pings (well within its own message budget) and times the pongs."""
    async with websockets.connect(f"{ws_url}/ws/{tid}", max_size=2**24,
                                  open_timeout=OPEN_TIMEOUT, additional_headers={
            "Cookie": cookie, "X-Forwarded-For": HONEST}) as ws:
        while not stop.is_set():
            sent = time.perf_counter()
            await ws.send('{"type":"ping"}')
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if msg["type"] == "pong":
                    break
            report.pings.append(time.perf_counter() - sent)
            report.sent_at.append(sent)
            await asyncio.sleep(every)


async def flood(ws_url: str, tid: str, message: Any, count: int, report: Report) -> None:
    """One connection sends ``count`` copies of ``message`` as fast as it can."""
    text = message if isinstance(message, str) else json.dumps(message)
    try:
        async with websockets.connect(f"{ws_url}/ws/{tid}", max_size=2**24,
                                      open_timeout=OPEN_TIMEOUT,
                                      additional_headers={"X-Forwarded-For": ATTACKER}) as ws:
            for _ in range(count):
                await ws.send(text)
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if msg["type"] == "error":
                    report.count(msg["code"])
    except websockets.ConnectionClosed as closed:
        report.count(f"closed {closed.rcvd.code if closed.rcvd else None}")
    except websockets.InvalidStatus as err:
        report.count(f"refused {err.response.status_code}")


async def big_bodies(base: str, tid: str, count: int, report: Report) -> None:
    headers = {"content-type": "application/json", "X-Forwarded-For": ATTACKER}
    body = b'{"name": "' + b"x" * 1_000_000 + b'"}'
    async with httpx.AsyncClient(timeout=30) as client:
        for i in range(count):
            url = f"{base}/api/tables" if i % 2 else f"{base}/api/tables/{tid}/join"
            r = await client.post(url, content=body, headers=headers)
            report.http[r.status_code] = report.http.get(r.status_code, 0) + 1
            r = await client.post(url, content=b"[" * 10_000, headers=headers)
            report.http[r.status_code] = report.http.get(r.status_code, 0) + 1


async def create_tables(base: str, count: int, report: Report, workers: int = 8) -> None:
    headers = {"X-Forwarded-For": ATTACKER}
    left = iter(range(count))

    async def worker(client: httpx.AsyncClient) -> None:
        for _ in left:
            r = await client.post(f"{base}/api/tables", json={"game": "sdr", "bots": 3,
                                  "seats": 4, "bot_delay": 0}, headers=headers)
            report.http[r.status_code] = report.http.get(r.status_code, 0) + 1

    async with httpx.AsyncClient(timeout=30) as client:
        await asyncio.gather(*(worker(client) for _ in range(workers)))


async def costly_requests(base: str, tid: str, count: int, report: Report) -> None:
    """``count`` requests to the routes that build something (hand list, replays,
    histories, rules, health checks): past the per-address bucket, 429s."""
    headers = {"X-Forwarded-For": ATTACKER}
    paths = [f"/api/tables/{tid}/hands", f"/api/tables/{tid}/hands/1",
             f"/api/tables/{tid}/hands/1/history.toml", f"/api/tables/{tid}/rules", "/healthz"]
    async with httpx.AsyncClient(timeout=30) as client:
        for i in range(count):
            r = await client.get(base + paths[i % len(paths)], headers=headers)
            report.count(f"costly {r.status_code}")


async def many_connections(ws_url: str, tid: str, count: int, report: Report) -> None:
    """``count`` simultaneous connections (from as many addresses) to one table."""
    opened: list[Any] = []

    async def one(i: int) -> None:
        addr = f"10.{i // 250}.{i % 250}.1"
        try:
            ws = await websockets.connect(f"{ws_url}/ws/{tid}", max_size=2**24,
                                          open_timeout=OPEN_TIMEOUT,
                                          additional_headers={"X-Forwarded-For": addr})
        except websockets.InvalidStatus as err:
            report.count(f"refused {err.response.status_code}")
            return
        opened.append(ws)
        with contextlib.suppress(Exception):
            msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if msg["type"] == "state":
                report.accepted_connections += 1
            else:
                report.count(msg.get("code", msg["type"]))

    await asyncio.gather(*(one(i) for i in range(count)))
    await asyncio.sleep(0.5)
    for ws in opened:
        with contextlib.suppress(Exception):
            await ws.close()


async def attack(base: str, ws_url: str, *, flood_count: int, bodies: int, tables: int,
                 connections: int) -> Report:
    """Every attack at once, on a table of the attacker's own; returns the figures."""
    report = Report()
    r = httpx.post(f"{base}/api/tables", json={"game": "sdr", "bots": 1},
                   headers={"X-Forwarded-For": ATTACKER})
    target = r.json()["id"]
    await asyncio.gather(
        *(flood(ws_url, target, m, flood_count, report) for m in FLOOD_TYPES),
        big_bodies(base, target, bodies, report),
        create_tables(base, tables, report),
        costly_requests(base, target, flood_count, report),
        many_connections(ws_url, target, connections, report),
    )
    return report


async def costly_table(base: str, ws_url: str, seconds: float, report: Report) -> None:
    """One attacker table (issue 34): the costliest game file still accepted
    (:func:`costly_game_file` ``(5, 5)``), the attacker and one computer player
    at ``bot_delay`` 0 and ``between_hands`` 0, the attacker checking or calling
    at once, for ``seconds``; meanwhile it downloads the last finished hand's
    history again and again (inside the per-address limit: 429s counted)."""
    headers = {"X-Forwarded-For": ATTACKER}
    async with httpx.AsyncClient(timeout=30, headers=headers) as client:
        r = await client.post(f"{base}/api/tables", json={
            "game": "big-wild", "game_file": costly_game_file((5, 5)), "seats": 2, "bots": 1,
            "bot_level": "random", "bot_delay": 0, "between_hands": 0, "decision_seconds": 60})
        r.raise_for_status()
        tid = r.json()["id"]
        host = r.cookies[f"rollem_host_{tid}"]
        r = await client.post(f"{base}/api/tables/{tid}/join", json={"name": "Mallory"})
        seat = r.cookies[f"rollem_seat_{tid}"]
        cookies = {f"rollem_seat_{tid}": seat}
        end = time.monotonic() + seconds
        last = [0]

        async def download() -> None:
            while time.monotonic() < end:
                if last[0]:
                    r = await client.get(f"{base}/api/tables/{tid}/hands/{last[0]}/history.toml",
                                         cookies=cookies)
                    report.count(f"history {r.status_code}")
                await asyncio.sleep(0.2)

        async def play() -> None:
            async with websockets.connect(f"{ws_url}/ws/{tid}", max_size=2**24,
                                          additional_headers={**headers, "Cookie": (
                                              f"rollem_seat_{tid}={seat}; "
                                              f"rollem_host_{tid}={host}")}) as ws:
                await ws.send('{"type": "start", "seq": 0}')
                while time.monotonic() < end:
                    try:
                        msg = json.loads(await asyncio.wait_for(ws.recv(), 5))
                    except TimeoutError:
                        continue
                    if msg["type"] != "state":
                        continue
                    result = msg["table"].get("last_result")
                    if result:
                        last[0] = int(result["hand"])
                    hand, you = msg.get("hand"), msg["you"]
                    legal = (hand or {}).get("legal") or {}
                    if (hand and not hand.get("result") and you.get("decision_seq") is not None
                            and legal.get("actions")):
                        kind = "check" if "check" in legal["actions"] else "call"
                        await ws.send(json.dumps({"type": "action", "hand": hand["hand_no"],
                                                  "seq": msg["seq"], "action": {"kind": kind}}))
                report.count("hands", last[0])

        await asyncio.gather(play(), download())


async def ping_until(ws_url: str, tid: str, cookie: str, done: Any, report: Report) -> None:
    """The honest player pings until ``done()`` is true."""
    stop = asyncio.Event()

    async def watch() -> None:
        while not done():
            await asyncio.sleep(0.05)
        stop.set()

    await asyncio.gather(honest_pings(ws_url, tid, cookie, stop, report), watch())


def main() -> None:
    """``python hostile.py PORT OUT.json FLOODS BODIES TABLES CONNECTIONS``: attack the
    server on 127.0.0.1:PORT (its own process, apart from the player it must not stall)."""
    import os
    import sys

    # The attacker stands for other machines on the internet: its own CPU is not the
    # server's to share, so on this machine it runs at a lower priority than the
    # server and the honest player (it still sends as fast as the server reads).
    os.nice(10)
    if sys.argv[1] == "costly":  # hostile.py costly PORT OUT.json SECONDS TABLES
        port, out, seconds, tables = sys.argv[2], sys.argv[3], float(sys.argv[4]), int(sys.argv[5])
        report = Report()

        async def costly() -> None:
            await asyncio.gather(*(costly_table(f"http://127.0.0.1:{port}",
                                                f"ws://127.0.0.1:{port}", seconds, report)
                                   for _ in range(tables)))

        asyncio.run(costly())
        with open(out, "w") as f:
            json.dump({"codes": report.codes}, f)
        return
    port, out = sys.argv[1], sys.argv[2]
    floods, bodies, tables, conns = (int(v) for v in sys.argv[3:7])
    report = asyncio.run(attack(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}",
                                flood_count=floods, bodies=bodies, tables=tables,
                                connections=conns))
    with open(out, "w") as f:
        json.dump({"codes": report.codes, "http": report.http,
                   "accepted": report.accepted_connections}, f)


if __name__ == "__main__":
    main()
