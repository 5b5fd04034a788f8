"""A ``rollem serve`` of a tree, and its CPU, for the server-cost benches
(``bench_refused_openings.py``, ``bench_sit_downs.py``).

- :func:`free_port`: a free TCP port on 127.0.0.1.
- :func:`cpu_ms`: a process's CPU so far, utime + stime from ``/proc/PID/stat``,
  in ms (the kernel's ticks: 10 ms at 100 Hz).
- :func:`serving`: ``python -m rollem serve --port PORT ARGS...`` with the tree
  ``src`` on ``PYTHONPATH`` (output discarded), waited for until ``/api/info``
  answers 200 (up to ``tries`` polls 0.1 s apart; past them the bench's first
  request fails), stopped at the end (SIGTERM, up to 20 s to exit).
- :func:`abab`: every tree in turn, each kind in turn, ``rounds`` times; one line
  per run: tree, kind, n, ms, load (1-minute load average before the run).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import httpx


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_ms(pid: int) -> float:
    """CPU ms process ``pid`` has used (user + system; its threads, not its children)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000.0 / os.sysconf("SC_CLK_TCK")


@contextmanager
def serving(src: str, port: int, args: Sequence[str], *,
            tries: int = 600) -> Iterator[subprocess.Popen[bytes]]:
    """A ``rollem serve`` of tree ``src`` on ``port`` with ``args`` (``--db`` and
    the limits), up once ``/api/info`` answers; terminated when the block ends."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "rollem", "serve", "--port", str(port), *args],
        # (sit-downs unbounded by --joins-per-minute, s60-safe: what is measured is their
        # cost; given as the environment, which a tree without the option ignores)
        env=dict(os.environ, PYTHONPATH=src, ROLLEM_JOINS_PER_MINUTE="1000000"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(tries):
            try:
                if httpx.get(base + "/api/info", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        yield proc
    finally:
        proc.terminate()
        proc.wait(20)


def abab(srcs: Sequence[str], kinds: Sequence[str], rounds: int, n: int,
         run: Callable[[str, str], float]) -> None:
    """``run(src, kind)`` (ms per operation) for every tree and kind, ``rounds``
    times over (ABAB...), each printed as ``src kind n ms load`` (tab-separated)."""
    for _ in range(rounds):
        for src in srcs:
            for kind in kinds:
                load = os.getloadavg()[0]
                ms = run(src, kind)
                print(f"{src}\t{kind}\t{n}\t{ms:.3f} ms\tload {load:.1f}", flush=True)
