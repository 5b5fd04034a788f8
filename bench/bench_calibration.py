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

With ``--all`` it checks every decision point play shows odds at, in every
game (the three home games and every game file), at ``--players`` (2 to 6);
``--out F`` appends each view's row to ``F`` as it is done, and ``--table
F ...`` prints those rows as the tables of docs/dev/odds-precision.md
(issue 33, branch s50-odds):

    .venv/bin/python bench/bench_calibration.py --coverage --all --games rollyourown \
        --repeats 20 --long-seconds 4 --out rows.jsonl
    .venv/bin/python bench/bench_calibration.py --table rows.jsonl
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
    parser.add_argument("--long-seconds", type=float, default=float("inf"),
                        help="the long run stops after this much CPU too (--coverage)")
    parser.add_argument("--all", action="store_true",
                        help="--coverage at every decision point of every game play shows "
                             "odds in (not only COVERAGE_VIEWS)")
    parser.add_argument("--players", default="2,3,4,5,6",
                        help="with --all: these player counts (comma-separated)")
    parser.add_argument("--games", default="",
                        help="with --all: only these game ids (comma-separated)")
    parser.add_argument("--out", help="--coverage: append each view's row to this file "
                        "(JSON lines) as it is done")
    parser.add_argument("--table", nargs="+", metavar="FILE",
                        help="print the rows of --out files as a markdown table")
    args = parser.parse_args()
    if args.table:
        table(args.table)
        return
    if args.coverage:
        views = (_all_views(tuple(int(x) for x in args.players.split(",")))
                 if args.all else None)
        if views is not None and args.games:
            views = [v for v in views if v[0] in args.games.split(",")]
        coverage(args.repeats, args.long, args.only or "", args.json, args.first_seed,
                 views=views, long_seconds=args.long_seconds, out=args.out)
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


def _all_views(players: tuple[int, ...] = (2, 3, 4, 5, 6)) -> list[tuple[str, int, int, str, str]]:
    """Every decision point play shows odds at (issue 33, branch s50-odds):
    seat 0's views in hand 30001 of ``bench_play_odds.py`` at each player
    count, in the three home games and in every game file play deals
    (``src/rollem/games/files``), as :data:`COVERAGE_VIEWS`' tuples."""
    ryo = [("first", "the keep"), ("at:|expose", "the first expose"),
           ("shown", "first exposes seen"), ("drew", "after the first draw"),
           ("late", "after the second draw"), ("at:third card up|", "third card up"),
           ("at:after the wild card|", "after the wild card")]
    sdr = [(f"at:{r}|", r) for r in ("before the stop", "after the stop", "after the drop",
                                     "after the roll")]
    r521 = [("at:before the draw|bet", "first bet"), ("at:before the draw|draw", "first draw"),
            ("at:after the first draw|draw", "second draw"),
            ("at:after the first draw|stack", "the stack"),
            ("at:first card up|", "first card up"), ("at:third card up|", "third card up"),
            ("at:fourth card up|declare", "the declare")]
    board = [(f"at:{r}|", r) for r in ("preflop", "flop", "turn", "river")]
    stud = [(f"at:{r} street|", f"{r} street")
            for r in ("third", "fourth", "fifth", "sixth", "seventh")]
    draw = [("at:before the draw|bet", "before the draw"),
            ("at:before the draw|draw", "the draw"), ("at:after the draw|", "after the draw")]
    games = ([("rollyourown", "Roll Your Own", ryo), ("sdr", "Stop, Drop and Roll", sdr),
              ("rollem521", "5-2-1", r521)]
             + [(g, g, board) for g in ("holdem", "omaha", "omaha8")]
             + [(g, g, stud) for g in ("stud", "stud8", "razz")]
             + [(g, g, draw) for g in ("draw5", "deuces-wild")])
    return [(game, n, 30001, pick, f"{name}, {n} players, {what}, hand 30001")
            for game, name, points in games for n in players for pick, what in points]


def _wilson(k: int, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of a binomial share ``k`` of ``n``."""
    import math

    if n == 0:
        return 0.0, 1.0
    z, p = 1.96, k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)


def coverage(repeats: int, long: int, only: str, as_json: bool, first_seed: int = 1,
             views: Any = None, long_seconds: float = float("inf"), out: str | None = None
             ) -> None:
    """The ``--coverage`` check (see the module doc); prints per view the
    long run, the half-widths stated and how many of ``repeats`` covered.

    CPU is this process's (``time.process_time``, issue 33 branch s50-odds:
    the budget's own clock is the thread's; the process is single-threaded
    with ``OMP_NUM_THREADS=1``). Per view also: ``z`` of each run, its
    distance from the long run over the two stated standard errors together
    (the run's equity error and the long run's), its root mean square, and
    coverage with the long run's own error added (``covered_joint``: within
    the interval shown and the long run's 95% error together, in
    quadrature). An exact answer is run twice only."""
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

    def spy(batches: Any, pooled_here: bool = True) -> Any:
        # (play's own choice, branch s50-ryo: some views are never pooled)
        last[:] = list(batches)
        return combine(batches, pooled=pooled[0] and pooled_here)

    play.combine = spy  # type: ignore[assignment]

    rows = []
    for game, players, hand_seed, pick, label in (COVERAGE_VIEWS if views is None else views):
        if only not in label:
            continue
        view = _view(game, players, hand_seed, pick)
        if view is None:
            print(f"{label}: no such view in that hand", flush=True)
            continue
        pooled[0] = False
        t = time.process_time()
        truth = play_odds(view, seed=1_000_000, cpu_seconds=long_seconds, half_width=0.0,
                          max_batches=long, batch_part=1.0)
        truth_cpu = time.process_time() - t
        truth_batches = len(last)
        pooled[0] = True
        covered = {"equity": 0, "win": 0, "lose": 0}
        halves, cpu, runs, zs = [], [], [], []
        exact = joint = 0
        for s in range(first_seed, first_seed + repeats):
            last.clear()  # (an exact answer combines no batches)
            t = time.process_time()
            got = play_odds(view, seed=s)
            cpu.append(time.process_time() - t)
            assert got.interval is not None
            halves.append(got.interval)
            exact += got.method == "exact"
            runs.append([round(got.equity, 4), round(got.interval, 4), round(cpu[-1], 3),
                         [[round(b.equity, 4), round(b.stderr, 4), round(b.effective or 0),
                           b.samples] for b in last]])
            for name in covered:
                covered[name] += abs(getattr(got, name) - getattr(truth, name)) <= (
                    got.interval + 1e-12)
            both = math.hypot(got.stderr if got.method != "exact" else 0.0,
                              truth.stderr if truth.method != "exact" else 0.0)
            d = got.equity - truth.equity
            joint += abs(d) <= math.hypot(got.interval, 1.96 * (
                truth.stderr if truth.method != "exact" else 0.0)) + 1e-12
            if both > 0:
                zs.append(d / both)
            if got.method == "exact" and len(cpu) >= 2:
                break
        n = len(cpu)
        lo, hi = _wilson(covered["equity"], n)
        rows.append({"config": label, "game": game, "players": players, "pick": pick,
                     "truth_equity": round(truth.equity, 4),
                     "truth_stderr": round(truth.stderr, 5), "truth_method": truth.method,
                     "truth_batches": truth_batches, "truth_cpu": round(truth_cpu, 2),
                     "truth_half_width": truth.interval, "truth_effective": truth.effective,
                     "half_width_min": round(min(halves), 4),
                     "half_width_median": round(float(np.median(halves)), 4),
                     "half_width_max": round(max(halves), 4), "covered": covered,
                     "covered_wilson": [round(lo, 3), round(hi, 3)],
                     "covered_joint": joint, "rms_z": (round(math.sqrt(
                         sum(z * z for z in zs) / len(zs)), 3) if zs else None),
                     "repeats": n, "runs": runs,
                     "cpu_median": round(float(np.median(cpu)), 3),
                     "cpu_max": round(float(max(cpu)), 3),
                     "within_1_5": sum(h <= 0.015 + 1e-9 for h in halves), "exact": exact,
                     "load": round(os.getloadavg()[0], 1),
                     "utc": time.strftime("%H:%M", time.gmtime())})
        if out is not None:
            with open(out, "a") as f:
                f.write(json.dumps(rows[-1]) + "\n")
        if not as_json:
            r = rows[-1]
            worlds = truth.effective if truth.effective is not None else truth.samples
            print(f"{label}: long run {100 * truth.equity:.2f}% ± "
                  f"{100 * (truth.interval or 0):.2f} ({worlds:,.0f} effective, "
                  f"{truth.method}); {exact} of {n} exact; at 1 s "
                  f"± {100 * min(halves):.2f} to {100 * max(halves):.2f} (median "
                  f"{100 * float(np.median(halves)):.2f}; {r['within_1_5']} of {n} within "
                  f"±1.5), CPU median {r['cpu_median']} s (max {r['cpu_max']}); "
                  f"covered equity {covered['equity']}, whole pot {covered['win']}, nothing "
                  f"{covered['lose']} of {n} (joint {joint}); rms z {r['rms_z']} "
                  f"(load {r['load']})", flush=True)
    if as_json:
        print(json.dumps(rows))


def table(paths: list[str]) -> None:
    """``--table``: the rows of ``--out`` files (JSON lines) as a markdown
    table, one line a view, then the totals per game and in all (issue 33,
    branch s50-odds). A view run more than once is listed once, its row with
    the most runs."""
    import math
    from pathlib import Path

    best: dict[str, Any] = {}
    for p in paths:
        for line in Path(p).read_text().splitlines():
            if line.strip():
                r = json.loads(line)
                if r["config"] not in best or r["repeats"] > best[r["config"]]["repeats"]:
                    best[r["config"]] = r
    rows = list(best.values())
    for r in rows:  # the interval shown and the long run's 95% error together
        ts = 1.96 * r["truth_stderr"] if r["truth_method"] != "exact" else 0.0
        r["covered_joint"] = sum(abs(run[0] - r["truth_equity"]) <= math.hypot(run[1], ts)
                                 + 1e-4 for run in r["runs"])
    print("| view | truth ± 95% | runs | ± shown (min to max) | within ±1.5 | covered "
          "(Wilson 95%) | covered, truth's error added | rms z | CPU s median, max | load |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        n = r["repeats"]
        lo, hi = r["covered_wilson"]
        if r["exact"] == n:
            print(f"| {r['config']} | {100 * r['truth_equity']:.2f} exact | {n} | exact | {n} | "
                  f"{r['covered']['equity']} | {r['covered_joint']} | - | {r['cpu_median']}, "
                  f"{r['cpu_max']} | {r['load']} |")
            continue
        th = 196 * r["truth_stderr"]
        z = "-" if r["rms_z"] is None else f"{r['rms_z']:.2f}"
        print(f"| {r['config']} | {100 * r['truth_equity']:.2f} ± {th:.2f} | {n} | "
              f"{100 * r['half_width_min']:.2f} to {100 * r['half_width_max']:.2f} | "
              f"{r['within_1_5']} | {r['covered']['equity']} ({100 * lo:.0f} to "
              f"{100 * hi:.0f}%) | {r['covered_joint']} | {z} | {r['cpu_median']}, "
              f"{r['cpu_max']} | {r['load']} |")
    print()
    print("| game | views | runs | within ±1.5 | covered (Wilson 95%) | covered, truth's error "
          "added | rms z (all runs) | CPU s max | runs over 1 s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for game in [*dict.fromkeys(r["game"] for r in rows), None]:
        mine = [r for r in rows if game is None or r["game"] == game]
        runs = sum(r["repeats"] for r in mine)
        cov = sum(r["covered"]["equity"] for r in mine)
        lo, hi = _wilson(cov, runs)
        zn = [(r["rms_z"] ** 2, r["repeats"]) for r in mine if r["rms_z"] is not None]
        z = (sum(a * b for a, b in zn) / max(1, sum(b for _, b in zn))) ** 0.5
        over = sum(run[2] > 1.0 for r in mine for run in r["runs"])
        print(f"| {game or 'all'} | {len(mine)} | {runs} | "
              f"{sum(r['within_1_5'] for r in mine)} | {cov} ({100 * lo:.1f} to "
              f"{100 * hi:.1f}%) | {sum(r['covered_joint'] for r in mine)} | {z:.2f} | "
              f"{max(r['cpu_max'] for r in mine)} | {over} |")


if __name__ == "__main__":
    main()
