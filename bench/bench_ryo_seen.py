"""Roll Your Own after the discard: effective worlds per batch (issue 33).

For seat 0's view after its second draw in the seeded hands of
``bench_play_odds.py`` (5 and 6 players, hands 30001 to 30003), runs
:func:`rollem.odds.ryoseen.ryo_seen_look` as play does (4,000 worlds a
batch, proposals shared within :func:`rollem.odds.ryoseen.shared_proposals`,
the first batch paying for them and not counted), twice from two seeds, and
prints per view and ``--candidates`` value the effective worlds per batch
(mean, median), the CPU seconds per batch (this thread's) and effective
worlds per CPU second, and one batch's 95% interval as play would show it
(the widest figure's, :func:`rollem.odds.play.combine`; median). With
``--futures`` it compares orders of the pool left per world
(:data:`rollem.odds.ryoseen.FUTURES`) instead.

With many candidates per opponent (64: each world's likelihood of every
opponent's keep and exposes is then nearly exact) the effective worlds show
the most any better proposal for an opponent's hidden cards within a world
could give: the rest of the weights' spread lies between worlds (the pool's
order, the origins of the up cards, what earlier opponents' steps named).

    .venv/bin/python bench/bench_ryo_seen.py [--candidates 4 64] [--futures 1 8]
        [--batches 8] [--only 6p]
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
from rollem.odds.play import combine
from rollem.odds.ryoseen import SeenPool, ryo_seen_look, seen_of, shared_proposals
from rollem.odds.view import read_view


def views(only: str = "") -> list[tuple[str, SeenPool]]:
    """The views measured, as ``(label, seen)``."""
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_play_odds import _view

    out = []
    for players in (5, 6):
        for hand in (30001, 30002, 30003):
            label = f"{players}p/{hand}"
            if only not in label:
                continue
            seen = seen_of(read_view(_view("rollyourown", players, hand, "late")))
            assert seen is not None
            out.append((label, seen))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidates", type=int, nargs="+", default=[4])
    parser.add_argument("--futures", type=int, nargs="+", default=[ryoseen.FUTURES])
    parser.add_argument("--batches", type=int, default=8, help="counted batches per view")
    parser.add_argument("--only", default="", help="only the views whose label holds this")
    args = parser.parse_args()
    for label, seen in views(args.only):
        for cands in args.candidates:
            for fut in args.futures:
                ryoseen.FUTURES = fut
                effective: list[float] = []
                half: list[float] = []
                cpu = 0.0
                for rep in range(2):
                    with shared_proposals():
                        ryo_seen_look(seen, samples=4000, seed=rep * 1000 + 1,
                                      candidates=cands)
                        t = time.thread_time()
                        for b in range(args.batches // 2):
                            odds = ryo_seen_look(seen, samples=4000,
                                                 seed=rep * 1000 + 2 + b, candidates=cands)
                            assert odds is not None and odds.effective is not None
                            effective.append(odds.effective)
                            half.append(combine([odds]).interval or 0.0)
                        cpu += time.thread_time() - t
                print(f"{label}, {cands} candidates, {fut} orders: effective per 4,000-world "
                      f"batch mean {np.mean(effective):.0f} (median {np.median(effective):.0f}),"
                      f" one batch ±{100 * np.median(half):.2f} points; "
                      f"{cpu / len(effective):.3f} s a batch; {sum(effective) / cpu:.0f} "
                      f"effective per CPU s (load {os.getloadavg()[0]:.1f})", flush=True)

if __name__ == "__main__":
    main()
