"""``rollem simulate`` hands per second with 1 and 2 worker processes, in the same run.

Each configuration plays the same seeded session (``--hands`` hands of
``--game`` among ``--players`` random bots) through
:func:`rollem.simulate.run_simulation`; the figure is hands per second of
wall time, process start-up included, and the ratio is workers 2 over
workers 1 (ideal: 2.0 on two idle cores). Each configuration is run
``--repeat`` times and the best kept.

    .venv/bin/python bench/bench_simulate.py --hands 4000 [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import time

from rollem.simulate import run_simulation


def measure(game: str, players: int, hands: int, workers: int, repeat: int) -> float:
    """Best hands/s of ``repeat`` runs with ``workers`` processes."""
    best = 0.0
    for _ in range(repeat):
        start = time.perf_counter()
        result = run_simulation(game, players, hands, ["random"] * players, seed=1,
                                workers=workers)
        seconds = time.perf_counter() - start
        assert result.chips_start == result.chips_end  # R-C-4: nothing lost when joined
        best = max(best, hands / seconds)
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
    ratio = rows[2] / rows[1]
    print(f"{args.game}, {args.players} players, {args.hands} hands, "
          f"{os.cpu_count()} cpus")
    for w, hps in rows.items():
        print(f"  --workers {w}: {hps:8.1f} hands/s")
    print(f"  speed-up workers 2 / workers 1: {ratio:.2f}")
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump({"game": args.game, "players": args.players, "hands": args.hands,
                       "hands_per_second": {str(w): round(h, 1) for w, h in rows.items()},
                       "speedup": round(ratio, 3)}, f, indent=2)


if __name__ == "__main__":
    main()
