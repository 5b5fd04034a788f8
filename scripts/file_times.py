"""Each test file's seconds from pytest's ``--junitxml`` reports, for the order in
which ``scripts/test.sh`` hands out the test files to its two workers
(tests/conftest.py ``pytest_xdist_make_scheduler``: longest first).

    .venv/bin/pytest -n 2 --dist loadfile --junitxml=/tmp/run.xml
    .venv/bin/python scripts/file_times.py /tmp/run.xml            # -> tests/file_times.txt
    .venv/bin/python scripts/file_times.py /tmp/run.xml --top 20 --out -   # a table
    .venv/bin/python scripts/file_times.py /tmp/run.xml --simulate          # the orders' walls

A test's seconds are its setup, call and teardown together (a module fixture's
teardown counts in its file's last test).  Several reports: a file's seconds are
the largest of its sums (a file that one run left out keeps the other's).
"""

from __future__ import annotations

import argparse
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_file(classname: str) -> str:
    """The test file of a junit ``classname`` ("tests.web.test_x" or
    "tests.test_y.TestZ"): "tests/web/test_x.py", "tests/test_y.py"."""
    parts = classname.split(".")
    for n in range(len(parts), 0, -1):
        path = "/".join(parts[:n]) + ".py"
        if (ROOT / path).exists():
            return path
    return "/".join(parts) + ".py"


def file_times(report: Path) -> dict[str, float]:
    """Seconds per test file in one junit report."""
    out: dict[str, float] = {}
    for case in ET.parse(report).iter("testcase"):
        name = test_file(case.get("classname", ""))
        out[name] = out.get(name, 0.0) + float(case.get("time", 0.0))
    return out


def test_times(report: Path) -> dict[str, list[float]]:
    """Each test file's tests' seconds, in the report's order."""
    out: dict[str, list[float]] = {}
    for case in ET.parse(report).iter("testcase"):
        out.setdefault(test_file(case.get("classname", "")), []).append(
            float(case.get("time", 0.0)))
    return out


def simulate(tests: dict[str, list[float]], order: list[str], workers: int = 2) -> list[float]:
    """Each worker's busy seconds when pytest-xdist's ``--dist loadfile`` hands out
    the files in ``order``: a worker gets one more file whenever 2 or fewer of its
    tests are left (xdist 3's rule), the tests taking their measured seconds (no
    start-up, no load).  Returns the workers' seconds; the wall is the largest."""
    queue = list(order)
    pending: list[list[float]] = [[] for _ in range(workers)]
    clock = [0.0] * workers

    def give(w: int) -> None:
        if queue:
            pending[w].extend(tests[queue.pop(0)])

    for w in range(workers):
        give(w)
    for w in range(workers):
        if len(pending[w]) <= 2:
            give(w)
    while any(pending):
        w = min((w for w in range(workers) if pending[w]), key=lambda w: clock[w] + pending[w][0])
        clock[w] += pending[w].pop(0)
        if len(pending[w]) <= 2:
            give(w)
    return clock


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("reports", nargs="+", type=Path, help="pytest --junitxml files")
    ap.add_argument("--out", default=str(ROOT / "tests" / "file_times.txt"),
                    help="file to write ('-': standard output; default tests/file_times.txt)")
    ap.add_argument("--top", type=int, default=0, help="only the N longest files")
    ap.add_argument("--simulate", action="store_true",
                    help="print two workers' seconds with xdist's order (most tests first) "
                         "and with the longest file first, for the first report")
    args = ap.parse_args(argv)
    if args.simulate:
        tests = test_times(args.reports[0])
        total = sum(map(sum, tests.values()))
        most = sorted(tests, key=lambda f: -len(tests[f]))
        longest = sorted(tests, key=lambda f: -sum(tests[f]))
        for name, order in (("most tests first (xdist)", most), ("longest first", longest)):
            clock = simulate(tests, order)
            print(f"{name}: wall {max(clock):.0f} s, workers "
                  f"{' + '.join(f'{c:.0f}' for c in clock)} s (all tests {total:.0f} s)")
        return 0
    seconds: dict[str, float] = {}
    for report in args.reports:
        for name, s in file_times(report).items():
            seconds[name] = max(s, seconds.get(name, 0.0))
    rows = sorted(seconds.items(), key=lambda kv: (-kv[1], kv[0]))
    if args.top:
        rows = rows[:args.top]
    lines = [f"{s:8.1f} {name}" for name, s in rows]
    text = "\n".join(lines) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        header = ("# Seconds per test file, longest first (scripts/file_times.py from a\n"
                  "# --junitxml report); scripts/test.sh's workers take them in this order.\n")
        Path(args.out).write_text(header + text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
