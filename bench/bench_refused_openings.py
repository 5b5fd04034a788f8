"""What a refused websocket opening costs ``rollem serve`` (server CPU, from /proc).

Two kinds of refusal, each from one address, one opening after another:

- ``count``: past ``--connections-per-address`` (1, held by a watcher): the
  app answers after the websocket handshake (``too_many_connections``, told on
  the websocket, closed 4429), since a seat's cookie may let it in;
- ``rate``: past ``--connects-per-minute`` (its burst of 64 spent first): the
  HTTP protocol answers 429 before the upgrade (stop 53).

Each arm is a fresh server from the tree given (``--src``, the one on
``PYTHONPATH``), SQLite, in turn (ABAB...: ``--src A --src B --rounds 2``).
Prints one line per run: tree, kind, openings, server CPU ms per opening
(utime + stime of the server process, 10 ms ticks over all the openings).

    nice -n 15 python bench/bench_refused_openings.py --src src \
        --src /tmp/before/src --rounds 2 --n 1000
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serve_cpu import abab, cpu_ms, free_port, serving


def run(src: str, kind: str, n: int) -> float:
    port = free_port()
    tmp = tempfile.mkdtemp(prefix="refused-")
    limits = (["--connections-per-address", "1", "--connects-per-minute", "1000000"]
              if kind == "count" else ["--connects-per-minute", "0.001"])
    with serving(src, port, ["--db", f"{tmp}/t.db", "--no-access-log", *limits],
                 tries=600) as proc:
        base = f"http://127.0.0.1:{port}"
        tid = httpx.post(base + "/api/tables", json={"game": "holdem"}).json()["id"]
        url = f"ws://127.0.0.1:{port}/ws/{tid}"
        held = connect(url)
        held.recv(10)
        if kind == "rate":
            for _ in range(70):  # the burst spent
                try:
                    with connect(url):
                        pass
                except InvalidStatus:
                    break
        time.sleep(0.5)
        before = cpu_ms(proc.pid)
        refused = 0
        for _ in range(n):
            try:
                with connect(url) as ws:
                    refused += "too_many_connections" in str(ws.recv(10))
            except InvalidStatus as err:
                refused += err.response.status_code == 429
        time.sleep(0.3)  # (the last ones' closing)
        spent = cpu_ms(proc.pid) - before
        held.close()
        if refused != n:
            raise SystemExit(f"{src} {kind}: {refused} of {n} refused")
        return spent / n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", action="append", required=True)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--kinds", default="count,rate")
    args = ap.parse_args()
    abab(args.src, args.kinds.split(","), args.rounds, args.n,
         lambda src, kind: run(src, kind, args.n))


if __name__ == "__main__":
    main()
