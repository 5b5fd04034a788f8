"""Roll Your Own after the discard at 6 players: the Metropolis steps before
branch s46-odds against today's, batch by batch on the same seeds (issue 33).

For seat 0's view after its second draw in ``bench_play_odds.py``'s hands,
runs ``--batches`` batches of :func:`rollem.odds.ryoseen.ryo_seen_look` as
play does (proposals shared, the first batch making them and not counted),
each batch twice in one process: with ``rollem.odds.ryoseen._move`` and with
the steps as they were (``tests/ryo_move_reference.py``), in turn. Both walk
the same chain, so each pair has the same worlds and the same effective
count; only the CPU time (this thread's) differs. Prints per hand the CPU a
batch and the effective worlds per CPU second of each.

    .venv/bin/python bench/bench_ryo_steps.py --batches 10
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

from rollem.odds import ryoseen
from rollem.odds.view import read_view


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=10)
    parser.add_argument("--hands", type=int, nargs="*", default=[30001, 30002, 30003])
    args = parser.parse_args()
    here = Path(__file__).parent
    sys.path.insert(0, str(here))
    sys.path.insert(0, str(here.parent / "tests"))
    from bench_play_odds import _view
    from ryo_move_reference import reference_move

    steps = {"before": reference_move, "now": ryoseen._move}  # type: ignore[attr-defined]
    for hand in args.hands:
        seen = ryoseen.seen_of(read_view(_view("rollyourown", 6, hand, "late")))
        assert seen is not None
        cpu: dict[str, list[float]] = {k: [] for k in steps}
        eff: dict[str, list[float]] = {k: [] for k in steps}
        try:
            with ryoseen.shared_proposals():
                ryoseen.ryo_seen_look(seen, samples=ryoseen.PLACE_WORLDS, seed=1)
                for b in range(args.batches):
                    for name in (("before", "now") if b % 2 else ("now", "before")):
                        ryoseen._move = steps[name]  # type: ignore[attr-defined]
                        t = time.thread_time()
                        odds = ryoseen.ryo_seen_look(seen, samples=ryoseen.PLACE_WORLDS,
                                                     seed=100 + b)
                        cpu[name].append(time.thread_time() - t)
                        assert odds is not None
                        eff[name].append(odds.effective or 0.0)
        finally:
            ryoseen._move = steps["now"]  # type: ignore[attr-defined]
        rate = {k: sum(eff[k]) / sum(cpu[k]) for k in steps}
        print(f"6 players, hand {hand}: CPU a batch before {np.mean(cpu['before']):.3f} s, now "
              f"{np.mean(cpu['now']):.3f} s; effective a batch {np.mean(eff['now']):,.0f}; "
              f"per CPU s before {rate['before']:,.0f}, now {rate['now']:,.0f} "
              f"(x{rate['now'] / rate['before']:.2f}; load {os.getloadavg()[0]:.1f})", flush=True)


if __name__ == "__main__":
    main()
