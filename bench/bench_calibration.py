"""Calibration of the look-ahead odds at scale (issue 16).

Plays seeded hands by the policy in each game and compares the equity
predicted at seat 0's decisions with the share of the pot it won
(:func:`rollem.odds.calibration.calibrate`; the test suite runs the same
check small). Prints per configuration: predictions, chi-squared over the
bins with its 99.9% point, and per bin the mean predicted and realised
shares with the bin's z-score (its square is the bin's part of chi-squared),
how many predictions a fallback model answered (Roll Your Own's tracked
pool), and the wall-clock time per prediction (median, 99th percentile,
max; wall clock and this process's CPU time; at ``--samples`` worlds per
option).

    .venv/bin/python bench/bench_calibration.py [--hands 600] [--samples 1000] [--json]

With ``--coverage`` it checks instead the intervals shown in play (issue
33): for seat 0's view after its second draw in seeded Roll Your Own hands
at 2 to 6 players (those of ``bench_play_odds.py``), a long run of
:func:`rollem.odds.play.play_odds` (``--long`` batches, no budget) is taken
as the truth, and ``--repeats`` seeded runs at the 1 s budget each count
whether their stated 95% interval covers it (equity, whole pot, nothing).
It also checks Roll Your Own's keep, Stop, Drop and Roll's first decision
and 5-2-1's first draw at 2, 4 and 6 players (``COVERAGE_VIEWS``; an exact
answer states ``± 0`` and covers when it equals the long run). With
``--json`` each run is listed as its equity, half-width, CPU seconds and
its batches (equity, standard error, effective worlds, worlds), so that a
run stated wider than ±1.5 points can be traced to the batches that made it
so.

    .venv/bin/python bench/bench_calibration.py --coverage [--repeats 20] [--long 40]
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

import numpy as np

os.environ.setdefault("OMP_NUM_THREADS", "1")

from rollem.odds.calibration import calibrate

CONFIGS = (
    ("rollem521", 3, "any", "5-2-1, 3 players, every card choice"),
    ("rollyourown", 3, "discard", "Roll Your Own, 3 players, the keep"),
    ("rollyourown", 2, "any", "Roll Your Own heads-up, keep, exposes, wild pick"),
    ("rollyourown", 3, "expose", "Roll Your Own, 3 players, the first expose"),
    ("rollyourown", 3, "late", "Roll Your Own, 3 players, after the seat's second draw"),
    ("rollyourown", 4, "late", "Roll Your Own, 4 players, after the seat's second draw"),
    ("rollyourown", 5, "late", "Roll Your Own, 5 players, after the seat's second draw"),
    ("rollyourown", 6, "late", "Roll Your Own, 6 players, after the seat's second draw"),
    ("sdr", 3, "first", "Stop, Drop and Roll, 3 players, first decision"),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=600)
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only", help="run only the configurations whose label holds this text")
    parser.add_argument("--coverage", action="store_true",
                        help="check the intervals shown in play against a long run instead")
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=1,
                        help="the runs' seeds start here (--coverage; default 1)")
    parser.add_argument("--long", type=int, default=40)
    args = parser.parse_args()
    if args.coverage:
        coverage(args.repeats, args.long, args.only or "", args.json, args.first_seed)
        return
    rows = []
    for game, players, pick, label in CONFIGS:
        if args.only and args.only not in label:
            continue
        t = time.perf_counter()
        cal = calibrate(game, hands=args.hands, players=players, pick=pick,
                        samples=args.samples, seed=20_000)
        above, below = cal.spread()
        times = {}
        for name, got in (("", cal.seconds), ("cpu_", cal.cpu_seconds)):
            took = np.asarray(got) if got else np.zeros(1)
            times[name + "median"] = round(float(np.median(took)), 3)
            times[name + "p99"] = round(float(np.quantile(took, 0.99)), 3)
            times[name + "max"] = round(float(took.max()), 3)
        rows.append({"config": label, "predictions": len(cal.predicted),
                     "fallbacks": cal.fallbacks, "seconds_per_prediction": times,
                     "chi2": round(cal.chi2, 2), "dof": cal.dof, "limit": round(cal.limit, 2),
                     "ok": cal.ok, "above_median": round(above, 3),
                     "below_median": round(below, 3), "kinds": cal.kinds, "models": cal.models,
                     "bins": [[round(x, 3) for x in b] for b in cal.bins],
                     "seconds": round(time.perf_counter() - t, 1)})
        if not args.json:
            r = rows[-1]
            print(f"{label}: {r['predictions']} predictions, chi2 {r['chi2']} on {r['dof']} "
                  f"bins (99.9% point {r['limit']}): {'ok' if r['ok'] else 'FAILS'}; "
                  f"realised above/below the median prediction {above:.3f}/{below:.3f}; "
                  f"models {cal.models} (fallbacks {cal.fallbacks}); {r['seconds']} s; per "
                  f"prediction median {times['median']} s, p99 {times['p99']} s, "
                  f"max {times['max']} s (CPU {times['cpu_median']}, {times['cpu_p99']}, "
                  f"{times['cpu_max']} s; load average {os.getloadavg()[0]:.1f})")
            for lo, hi, n, mp, mr, z in cal.bins:
                print(f"    predicted {lo:.2f}-{min(hi, 1.0):.2f}: n {n:4d}  mean predicted "
                      f"{mp:.3f}  realised {mr:.3f}  z {z:+.2f}  chi2 part {z * z:.2f}")
    if args.json:
        print(json.dumps(rows))


COVERAGE_VIEWS = (
    [("rollyourown", n, h, "late", f"Roll Your Own, {n} players, hand {h}")
     for n, h in ((2, 30001), (3, 30001), (4, 30001), (5, 30001), (5, 30002), (6, 30001),
                  (6, 30002), (6, 30003))]
    + [("rollyourown", 6, h, pick, f"Roll Your Own, 6 players, {what}, hand {h}")
       for pick, what in (("shown", "first exposes seen"), ("drew", "after the first draw"))
       for h in (30001, 30002)]
    + [("rollyourown", n, 30001, "first", f"Roll Your Own, {n} players, the keep, hand 30001")
       for n in (2, 4, 6)]
    + [("sdr", n, 30001, "first", f"Stop, Drop and Roll, {n} players, first decision, "
        "hand 30001") for n in (2, 4, 6)]
    + [("rollem521", n, 30001, "draw", f"5-2-1, {n} players, first draw, hand 30001")
       for n in (2, 4, 6)])
"""The views ``--coverage`` checks (issue 33: every game, its decision
points, 2 to 6 players): seat 0's view in a hand of ``bench_play_odds.py``
(game, players, the hand's seed, which view, label). Roll Your Own's views
after the seat's second draw, and at 6 players after every other player's
first expose and after the seat's first draw (branch s47-odds), are those
read from other players' keeps and exposes; the keep and the other games'
first decisions are counted exactly or drawn forwards."""


def coverage(repeats: int, long: int, only: str, as_json: bool, first_seed: int = 1) -> None:
    """The ``--coverage`` check (see the module doc); prints per view the
    long run, the half-widths stated and how many of ``repeats`` covered."""
    import math
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from bench_play_odds import _view
    from rollem.odds import play
    from rollem.odds.play import play_odds

    # each run's batches, as play combines them (issue 33, branch s49-ryo6:
    # which batches made a run's interval wide)
    combine = play.combine
    last: list[Any] = []
    # the long run weighs its batches by worlds, not pooled by their stated
    # errors (issue 33, branch s49-pool): a truth pooled as the runs are would
    # share their pooling's bias and hide it
    pooled = [True]

    def spy(batches: Any) -> Any:
        last[:] = list(batches)
        return combine(batches, pooled=pooled[0])

    play.combine = spy  # type: ignore[assignment]

    rows = []
    for game, players, hand_seed, pick, label in COVERAGE_VIEWS:
        if only not in label:
            continue
        view = _view(game, players, hand_seed, pick)
        if view is None:
            print(f"{label}: no such view in that hand", flush=True)
            continue
        pooled[0] = False
        truth = play_odds(view, seed=1_000_000, cpu_seconds=math.inf, half_width=0.0,
                          max_batches=long)
        pooled[0] = True
        covered = {"equity": 0, "win": 0, "lose": 0}
        halves, cpu, runs = [], [], []
        exact = 0
        for s in range(first_seed, first_seed + repeats):
            last.clear()  # (an exact answer combines no batches)
            t = time.thread_time()
            got = play_odds(view, seed=s)
            cpu.append(time.thread_time() - t)
            assert got.interval is not None
            halves.append(got.interval)
            exact += got.method == "exact"
            runs.append([round(got.equity, 4), round(got.interval, 4), round(cpu[-1], 3),
                         [[round(b.equity, 4), round(b.stderr, 4), round(b.effective or 0),
                           b.samples] for b in last]])
            for name in covered:
                covered[name] += abs(getattr(got, name) - getattr(truth, name)) <= got.interval
        rows.append({"config": label, "truth_equity": round(truth.equity, 4),
                     "truth_half_width": truth.interval, "truth_effective": truth.effective,
                     "half_width_min": round(min(halves), 4),
                     "half_width_median": round(float(np.median(halves)), 4),
                     "half_width_max": round(max(halves), 4), "covered": covered,
                     "repeats": repeats, "runs": runs,
                     "cpu_median": round(float(np.median(cpu)), 3),
                     "cpu_max": round(float(max(cpu)), 3),
                     "within_1_5": sum(h <= 0.015 + 1e-9 for h in halves), "exact": exact,
                     "load": round(os.getloadavg()[0], 1)})
        if not as_json:
            r = rows[-1]
            worlds = truth.effective if truth.effective is not None else truth.samples
            print(f"{label}: long run {100 * truth.equity:.2f}% ± "
                  f"{100 * (truth.interval or 0):.2f} ({worlds:,.0f} effective, "
                  f"{truth.method}); {exact} of {repeats} exact; at 1 s "
                  f"± {100 * min(halves):.2f} to {100 * max(halves):.2f} (median "
                  f"{100 * float(np.median(halves)):.2f}; {r['within_1_5']} of {repeats} within "
                  f"±1.5), CPU median {r['cpu_median']} s (max {r['cpu_max']}); "
                  f"covered equity {covered['equity']}, whole pot {covered['win']}, nothing "
                  f"{covered['lose']} of {repeats} (load {r['load']})", flush=True)
    if as_json:
        print(json.dumps(rows))


if __name__ == "__main__":
    main()
