"""Roll Your Own after the discard: where a batch's weights collapse (issue 33).

For seat 0's view in one of ``bench_play_odds.py``'s seeded hands, runs a
pilot and ``--batches`` batches of :func:`rollem.odds.ryoseen.ryo_seen_look`
as play draws them (proposals shared, ``--part`` of a whole batch), each
traced (:func:`rollem.odds.ryoseen.traced`), and prints per opponent's
step, in the order they are read, the medians over the batches of: the
share of effective worlds after the step (since the last resampling), that
of the step's own factor, that within the opponent's origins and that
between them (branch s59-ryo, docs/dev/odds-precision.md); then how many
of the layout's worlds a batch's final worlds descend from and their
effective number (the independent worlds a batch's error and spread rest
on).

    .venv/bin/python bench/bench_ryo_ess.py --players 6 --view "after the wild card" \\
        --part 0.25 --batches 10
    .venv/bin/python bench/bench_ryo_ess.py --players 6 --view "third card up" --part 0.5 \\
        '{"PLACE_CANDIDATES": 128}'

A setting (JSON) sets upper-case constants of ``rollem.odds.ryoseen`` as
``bench_ryo_batch.py`` does.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

from rollem.odds import ryoseen
from rollem.odds.view import read_view

VIEWS = {"late": "late", "third card up": "at:third card up|",
         "after the wild card": "at:after the wild card|"}
"""The views ``--view`` names, as ``bench_play_odds._view`` takes them."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("settings", nargs="*", default=["{}"])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--hand", type=int, default=30001)
    parser.add_argument("--view", default="after the wild card", choices=sorted(VIEWS))
    parser.add_argument("--part", type=float, default=0.25,
                        help="the share of a whole batch each batch draws (as play's)")
    parser.add_argument("--batches", type=int, default=10)
    parser.add_argument("--pilot-seed", type=int, default=1)
    parser.add_argument("--first-seed", type=int, default=100)
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_play_odds import _view

    seen = ryoseen.seen_of(read_view(_view("rollyourown", args.players, args.hand,
                                           VIEWS[args.view])))
    assert seen is not None
    defaults = {k: getattr(ryoseen, k) for k in dir(ryoseen) if k.isupper()}
    for text in args.settings:
        setting = json.loads(text)
        for k, v in {**defaults, **setting}.items():
            setattr(ryoseen, k, v)
        place = len(seen.opponents) >= ryoseen.PLACE_FROM
        worlds = round((ryoseen.PLACE_WORLDS if place else ryoseen.MIN_WORLDS) * args.part)
        with ryoseen.shared_proposals(), ryoseen.part_of_batch(args.part), \
                ryoseen.traced() as trace:
            ryoseen.ryo_seen_look(seen, samples=worlds, seed=args.pilot_seed)
            trace.clear()  # (the pilot's)
            for b in range(args.batches):
                ryoseen.ryo_seen_look(seen, samples=worlds, seed=args.first_seed + b)
        runs = [t for t in trace if t["moves"] or not place]
        print(f"{args.players} players, hand {args.hand}, {args.view}, part {args.part}, "
              f"{setting or 'as shipped'}: {len(runs)} batches of {worlds} worlds "
              f"(load {os.getloadavg()[0]:.1f})")
        print("  seat  kish after  step's own  within origins  between origins")
        for i, step in enumerate(runs[0]["steps"] if runs else []):
            cols = [float(np.median([r["steps"][i][c] for r in runs]))
                    for c in ("kish", "step_kish", "within", "between")]
            print(f"  {step['seat']:>4}  " + "  ".join(f"{x:10.3f}" for x in cols))
        anc = [r["ancestors"] for r in runs]
        kish = [r["ancestor_kish"] for r in runs]
        if runs:
            print(f"  ancestors {min(anc)} to {max(anc)} (median {np.median(anc):.0f}), "
                  f"effective {min(kish):.1f} to {max(kish):.1f} (median "
                  f"{np.median(kish):.1f})")
    for k, v in defaults.items():
        setattr(ryoseen, k, v)


if __name__ == "__main__":
    main()
