"""CPU seconds per test and per test file: a pytest plugin and its summary.

The wall seconds of ``scripts/file_times.py`` grow with the machine's load (a
CPU-bound file waits longest for the CPU); CPU seconds move less, and they are
what the two workers share.  As a plugin (``-p cpu_times``, with ``scripts`` on
``PYTHONPATH``) it writes one line a test to ``cpu-WORKER.tsv`` in the folder
``$CPU_TIMES_DIR`` (default ``.``): the node id, then user, system, children's user,
children's system and wall seconds, from :func:`os.times` around the test's setup,
call and teardown (a module fixture's teardown counts in its file's last test;
threads of the process, a server thread included, count in whichever test runs;
a child process counts once it has been waited for: Chromium when its browser
closes, a server process when it is stopped).  Run as a script, it sums them:

    CPU_TIMES_DIR=/tmp/cpu PYTHONPATH=scripts .venv/bin/pytest -n 2 --dist loadfile -p cpu_times
    .venv/bin/python scripts/cpu_times.py /tmp/cpu --top 30

Collection (each worker's import of every test module) is not in any test.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

import pytest

_out: TextIO | None = None


def _file() -> TextIO:
    global _out
    if _out is None:
        folder = Path(os.environ.get("CPU_TIMES_DIR", "."))
        folder.mkdir(parents=True, exist_ok=True)
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        _out = open(folder / f"cpu-{worker}.tsv", "a", buffering=1)  # noqa: SIM115
    return _out


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: Any, nextitem: Any) -> Iterator[None]:
    """Time one test (setup, call, teardown) and write its line."""
    before, wall = os.times(), time.monotonic()
    yield
    after = os.times()
    parts = (after.user - before.user, after.system - before.system,
             after.children_user - before.children_user,
             after.children_system - before.children_system, time.monotonic() - wall)
    _file().write("\t".join([item.nodeid, *(f"{p:.3f}" for p in parts)]) + "\n")


def read(folder: Path) -> list[tuple[str, float, float]]:
    """``(node id, CPU seconds, wall seconds)`` of every line in ``folder``'s
    ``cpu-*.tsv`` files."""
    rows = []
    for path in sorted(folder.glob("cpu-*.tsv")):
        for line in path.read_text().splitlines():
            node, *numbers = line.split("\t")
            user, system, child_user, child_system, wall = map(float, numbers)
            rows.append((node, user + system + child_user + child_system, wall))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", type=Path, help="the folder of the cpu-*.tsv files")
    ap.add_argument("--top", type=int, default=30, help="files and tests to list (30)")
    args = ap.parse_args(argv)
    rows = read(args.folder)
    files: dict[str, list[float]] = {}
    for node, cpu, wall in rows:
        f = files.setdefault(node.split("::")[0], [0.0, 0.0, 0])
        f[0] += cpu
        f[1] += wall
        f[2] += 1
    print(f"{len(rows)} tests, {sum(r[1] for r in rows):.1f} CPU-s, "
          f"{sum(r[2] for r in rows):.1f} s of test time")
    print("   CPU-s   wall-s  tests  file")
    for name, (cpu, wall, n) in sorted(files.items(), key=lambda x: -x[1][0])[:args.top]:
        print(f"{cpu:8.1f} {wall:8.1f} {int(n):6d}  {name}")
    print("   CPU-s   wall-s  test")
    for node, cpu, wall in sorted(rows, key=lambda r: -r[1])[:args.top]:
        print(f"{cpu:8.1f} {wall:8.1f}  {node}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
