"""Worlds per CPU second of play's odds, two source trees side by side (issue 33).

Roll Your Own's odds in play (:func:`rollem.odds.play.play_odds`) run batches
until a second of CPU is spent; a faster sampler draws more of the same
batches in that second (branch s67-fast). For seat 0's view in each hand
(``bench_play_odds._view``), this

- ``run``: plays the odds at the budget in this process's tree and prints,
  per run, JSON: CPU seconds, batches, worlds, worlds per CPU second and the
  interval (points);
- ``digest``: plays a fixed number of batches on a counting clock (what the
  machine's speed cannot change) and prints every figure, so two trees'
  digests are compared for equality (the same worlds, weights and answers);
- ``compare OLD NEW``: alternates ``run`` between two trees (``src`` folders),
  hand after hand in one load window, checks their digests agree, and
  prints each tree's median worlds per CPU second, median interval and the
  ratio NEW/OLD (paired by hand and seed), with the load average.

    OMP_NUM_THREADS=1 nice -n 15 python bench/bench_ryo_speed.py compare \\
        /work/main/src src --players 6 --hands 31091,31081,31014 --seeds 1-3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")

WILD = "at:after the wild card|"
WIDE = "31091,31081,31092,31069,31014,31040,31027,31012"
"""The wide hands at 6 players after the wild card (branch s67-six)."""


def _seeds(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def _play(args: argparse.Namespace, fixed: bool) -> None:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from bench_play_odds import _view
    from rollem.odds import compiled, play

    compiled.wait()
    seen: list[int] = []
    combine = play.combine

    def spy(runs: Any, *a: Any, **k: Any) -> Any:
        seen[:] = [len(runs)]
        return combine(runs, *a, **k)

    play.combine = spy  # type: ignore[assignment]
    views = [(h, _view("rollyourown", args.players, h, args.at))
             for h in (int(x) for x in args.hands.split(","))]
    if not fixed:  # (the first run's caches warmed, as in a table's worker)
        play.play_odds(views[0][1], seed=10_000)
    for hand, view in views:
        for seed in _seeds(args.seeds):
            t = time.thread_time()
            if fixed:
                odds = play.play_odds(view, seed=seed, max_batches=args.batches,
                                      clock=lambda: 0.0)
            else:
                odds = play.play_odds(view, seed=seed)
            cpu = time.thread_time() - t
            row: dict[str, Any] = {"hand": hand, "seed": seed, "batches": seen[0],
                                   "worlds": odds.samples}
            if fixed:
                row["figures"] = repr((odds.win, odds.tie, odds.lose, odds.equity,
                                       odds.stderr, odds.interval, odds.effective,
                                       [(c.action, c.equity, c.stderr, c.interval)
                                        for c in (odds.advice.choices if odds.advice else [])]))
            else:
                row.update(cpu=round(cpu, 4), per_cpu_s=round(odds.samples / cpu),
                           half=round(100 * (odds.interval or 0.0), 3))
            print(json.dumps(row), flush=True)


def _child(tree: str, args: argparse.Namespace, mode: str, hands: str, seeds: str
           ) -> list[dict[str, Any]]:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree), OMP_NUM_THREADS="1")
    out = subprocess.run([sys.executable, os.path.abspath(__file__), mode, "--players",
                          str(args.players), "--at", args.at, "--hands", hands, "--seeds",
                          seeds, "--batches", str(args.batches)],
                         env=env, capture_output=True, text=True, check=True).stdout
    return [json.loads(x) for x in out.splitlines() if x.startswith("{")]


def _compare(args: argparse.Namespace) -> None:
    old, new = args.trees
    same = (_child(old, args, "digest", args.hands, args.seeds)
            == _child(new, args, "digest", args.hands, args.seeds))
    print(f"digests at {args.batches} batches (counting clock): "
          f"{'the same' if same else 'DIFFERENT'}", flush=True)
    rows: dict[str, list[dict[str, Any]]] = {old: [], new: []}
    loads = [os.getloadavg()[0]]
    for i, hand in enumerate(args.hands.split(",")):
        pair = (old, new) if i % 2 == 0 else (new, old)  # (alternated: neither always first)
        for tree in pair:
            got = _child(tree, args, "run", hand, args.seeds)
            rows[tree] += got
            for r in got:
                print(f"{'new' if tree == new else 'old'} {r}", flush=True)
        loads.append(os.getloadavg()[0])
    ratios = [b["per_cpu_s"] / a["per_cpu_s"] for a, b in zip(rows[old], rows[new], strict=True)]
    for name, tree in (("old", old), ("new", new)):
        got = rows[tree]
        print(f"{name} ({tree}): median {statistics.median(r['per_cpu_s'] for r in got):,.0f} "
              f"worlds/CPU s, {statistics.median(r['batches'] for r in got)} batches, "
              f"median ±{statistics.median(r['half'] for r in got):.2f} points, CPU at most "
              f"{max(r['cpu'] for r in got):.3f} s")
    print(f"worlds/CPU s new/old: median x{statistics.median(ratios):.3f}, geometric mean "
          f"x{statistics.geometric_mean(ratios):.3f} over {len(ratios)} runs; load "
          f"{min(loads):.1f}-{max(loads):.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["run", "digest", "compare"])
    parser.add_argument("trees", nargs="*", help="compare: the OLD and NEW src folders")
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--at", default=WILD, help="the view (bench_play_odds._view's want)")
    parser.add_argument("--hands", default=WIDE)
    parser.add_argument("--seeds", default="1-3", help="e.g. 1-3")
    parser.add_argument("--batches", type=int, default=6, help="digest: batches a run")
    args = parser.parse_args()
    if args.mode == "compare":
        if len(args.trees) != 2:
            parser.error("compare takes two src folders")
        _compare(args)
    else:
        _play(args, fixed=args.mode == "digest")


if __name__ == "__main__":
    main()
