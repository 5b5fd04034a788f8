"""What a sit-down costs ``rollem serve`` on PostgreSQL (server CPU, from /proc).

``taken``: ``--n`` sit-downs of one address at ten-seat tables (made by other
addresses), each answered 200; ``refused``: one sit-down with
``--seats-per-address 1``, then ``--n`` more refused 429 ``too_many_seats``.
Each arm is a fresh server from the tree given (``--src``, on ``PYTHONPATH``)
on a fresh database of one private PostgreSQL cluster (Debian's, as the tests
start it: ``tests/web/pg_cluster.py``), in turn (ABAB: ``--src A --src B
--rounds 2``).  Prints: tree, kind, sit-downs, server CPU ms per sit-down
(utime + stime of the server process, 10 ms ticks; PostgreSQL's own CPU is
not counted).

    nice -n 15 python bench/bench_sit_downs.py --src src --src /tmp/before/src
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from pg_cluster import PgCluster

from serve_cpu import abab, cpu_ms, free_port, serving


def run(cluster: PgCluster, src: str, kind: str, n: int) -> float:
    port = free_port()
    most = "1" if kind == "refused" else "1000000"
    with serving(src, port, ["--db", cluster.new_database(), "--no-access-log",
                             "--seats-per-address", most,
                             "--advertise-url", f"http://127.0.0.1:{port}"],
                 tries=900) as proc:
        base = f"http://127.0.0.1:{port}"
        client = httpx.Client(base_url=base, timeout=30)
        tables = [client.post("/api/tables", json={"game": "holdem", "bots": 0, "seats": 10},
                              headers={"X-Forwarded-For": f"192.0.2.{i % 250 + 1}"}
                              ).json()["id"] for i in range(n // 10 + 1)]
        client.cookies.clear()
        if kind == "refused":
            assert client.post(f"/api/tables/{tables[0]}/join", json={"name": "first"},
                               headers={"X-Forwarded-For": "198.51.100.1"}).status_code == 200
        time.sleep(0.5)
        before = cpu_ms(proc.pid)
        want = 429 if kind == "refused" else 200
        for i in range(n):
            client.cookies.clear()  # (each sit-down a new browser)
            r = client.post(f"/api/tables/{tables[i // 10]}/join", json={"name": f"p{i}"},
                            headers={"X-Forwarded-For": "198.51.100.1"})
            if r.status_code != want:
                raise SystemExit(f"{src} {kind}: {r.status_code} {r.text}")
        spent = cpu_ms(proc.pid) - before
        return spent / n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", action="append", required=True)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--kinds", default="taken,refused")
    args = ap.parse_args()
    cluster = PgCluster()
    try:
        abab(args.src, args.kinds.split(","), args.rounds, args.n,
             lambda src, kind: run(cluster, src, kind, args.n))
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
