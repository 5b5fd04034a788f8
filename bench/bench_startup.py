"""Start-up time of the ``rollem`` command against bare Python, in the same run.

Each command runs ``--runs`` times in a fresh process (``python -m`` style,
the same interpreter and ``sys.path`` as the installed ``rollem`` script),
interleaved with the anchor ``python3 -c pass``; the median wall time of each
is printed with its difference from the anchor and the ratio. Goal (issue
14): ``rollem --help`` within 0.1 s of bare Python.

    .venv/bin/python bench/bench_startup.py [--runs 15]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

ENTRY = "from rollem.cli.app import main; main()"
"""What the ``rollem`` console script runs."""

CASES: list[tuple[str, list[str]]] = [
    ("python3 -c pass (anchor)", ["-c", "pass"]),
    ("rollem --help", ["-c", ENTRY, "--help"]),
    ("rollem rules sdr (piped)", ["-c", ENTRY, "rules", "sdr"]),
    ("rollem eval As Ks Qs Js Ts", ["-c", ENTRY, "eval", "As Ks Qs Js Ts"]),
]


def once(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command")
    runs = parser.parse_args().runs
    times: dict[str, list[float]] = {name: [] for name, _ in CASES}
    for _name, args in CASES:  # warm the file cache and any on-disk caches first
        once(args)
    for _ in range(runs):
        for name, args in CASES:
            times[name].append(once(args))
    anchor = statistics.median(times[CASES[0][0]])
    print(f"{'command':<30} {'median s':>9} {'- anchor':>9} {'ratio':>6}")
    for name, _ in CASES:
        t = statistics.median(times[name])
        print(f"{name:<30} {t:9.3f} {t - anchor:+9.3f} {t / anchor:6.1f}")
    helped = statistics.median(times["rollem --help"]) - anchor
    print(f"rollem --help is {helped:.3f} s slower than bare Python (goal: at most 0.100 s)")


if __name__ == "__main__":
    main()
