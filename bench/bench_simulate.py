"""``rollem simulate`` hands per second with 1 and 2 worker processes, in the same run.

Each configuration plays the same seeded session (``--hands`` hands of
``--game`` among ``--players`` random bots) through
:func:`rollem.simulate.run_simulation`; the figure is hands per second of
wall time, process start-up included, and the ratio is workers 2 over
workers 1 (ideal: 2.0 on two idle cores). Each configuration is run
``--repeat`` times and the best kept.

Where the rest goes: each worker part's own hands/s (its playing time, the
first hand's lazy imports included) and hands per CPU second of its process
(lower than the one process's when the two cores slow each other down, as
two virtual CPUs sharing one physical core do) against the one process's, the wall time
spent outside the parts (starting the processes, imports, sending the results
back, joining), and the CPU time the hypervisor gave to others while the run
waited (``steal``, from ``/proc/stat``) and the load average.

    .venv/bin/python bench/bench_simulate.py --hands 4000 [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

from rollem.parallel import split_counts
from rollem.simulate import run_simulation


def _steal_seconds() -> float:
    """CPU seconds stolen by the hypervisor so far, all CPUs (``/proc/stat``)."""
    try:
        fields = Path("/proc/stat").read_text().splitlines()[0].split()
    except OSError:
        return 0.0
    return int(fields[8]) / os.sysconf("SC_CLK_TCK") if len(fields) > 8 else 0.0


def measure(game: str, players: int, hands: int, workers: int,
            repeat: int) -> dict[str, Any]:
    """The best of ``repeat`` runs with ``workers`` processes: hands/s of wall
    time, each part's own hands/s, seconds outside the parts, steal, load."""
    best: dict[str, Any] = {}
    for _ in range(repeat):
        steal = _steal_seconds()
        start = time.perf_counter()
        result = run_simulation(game, players, hands, ["random"] * players, seed=1,
                                workers=workers)
        seconds = time.perf_counter() - start
        assert result.chips_start == result.chips_end  # R-C-4: nothing lost when joined
        counts = split_counts(hands, workers)
        row = {"hands_per_second": hands / seconds, "seconds": seconds,
               "part_hands_per_second": [n / t for n, t in
                                         zip(counts, result.part_seconds, strict=True)],
               "part_hands_per_cpu_second": [n / t for n, t in
                                             zip(counts, result.part_cpu_seconds, strict=True)],
               "outside_parts_seconds": seconds - max(result.part_seconds),
               "steal_seconds": _steal_seconds() - steal,
               "load_average": os.getloadavg()[0]}
        if row["hands_per_second"] > best.get("hands_per_second", 0.0):
            best = row
    return best


def main() -> None:
    """Command line: see the module docstring."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="sdr")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--hands", type=int, default=4000)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--json", dest="json_out")
    args = ap.parse_args()
    rows = {w: measure(args.game, args.players, args.hands, w, args.repeat) for w in (1, 2)}
    ratio = rows[2]["hands_per_second"] / rows[1]["hands_per_second"]
    print(f"{args.game}, {args.players} players, {args.hands} hands, "
          f"{os.cpu_count()} cpus")
    for w, row in rows.items():
        parts = ", ".join(f"{h:.1f}" for h in row["part_hands_per_second"])
        cpu = ", ".join(f"{h:.1f}" for h in row["part_hands_per_cpu_second"])
        print(f"  --workers {w}: {row['hands_per_second']:8.1f} hands/s "
              f"({row['seconds']:.1f} s; each part's own hands/s: {parts}, "
              f"per CPU second: {cpu}; "
              f"{row['outside_parts_seconds']:.2f} s outside the parts; "
              f"steal {row['steal_seconds']:.2f} s; load {row['load_average']:.2f})")
    print(f"  speed-up workers 2 / workers 1: {ratio:.2f}")
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump({"game": args.game, "players": args.players, "hands": args.hands,
                       "hands_per_second": {str(w): round(r["hands_per_second"], 1)
                                            for w, r in rows.items()},
                       "runs": {str(w): r for w, r in rows.items()},
                       "speedup": round(ratio, 3)}, f, indent=2)


if __name__ == "__main__":
    main()
