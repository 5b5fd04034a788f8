"""Roll Your Own after the discard: a batch's spread against its CPU time (issue 33).

For seat 0's view after its second draw in one of ``bench_play_odds.py``'s
seeded hands, runs ``--batches`` batches of
:func:`rollem.odds.ryoseen.ryo_seen_look` as play does (proposals shared,
the first batch making them and not counted) for each setting given, and
prints the batches' mean equity, the spread of their equities (standard
deviation), the error they state (root mean square), the CPU seconds a batch
(this thread's), the spread squared times the CPU time (what the 1 s
interval in play goes with: lower is better), and the effective worlds a
batch states (``Odds.effective``, what the chances' intervals in play are
counted over) per CPU second (higher is better; issue 33, branch s46-odds). A
setting is a JSON object of
``rollem.odds.ryoseen`` constants, e.g. ``{"PLACE_WORLDS": 4000,
"PLACE_MOVES": 32}``.

    .venv/bin/python bench/bench_ryo_batch.py --hand 30001 --batches 60 \\
        '{}' '{"PLACE_WORLDS": 4000, "PLACE_MOVES": 32}'
"""

from __future__ import annotations

import argparse
import json
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
    parser.add_argument("settings", nargs="*", default=["{}"])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--hand", type=int, default=30001)
    parser.add_argument("--batches", type=int, default=24)
    parser.add_argument("--pilot-seed", type=int, default=1,
                        help="the seed of the batch that makes the proposals (the pilot)")
    parser.add_argument("--first-seed", type=int, default=100,
                        help="the batches' seeds are this and the next ones")
    args = parser.parse_args()
    pilot_seed, first_seed = args.pilot_seed, args.first_seed
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_play_odds import _view

    seen = ryoseen.seen_of(read_view(_view("rollyourown", args.players, args.hand, "late")))
    assert seen is not None
    names = ("MOVES", "CANDIDATES", "PLACE_EVERY", "MIN_WORLDS", "FUTURES", "PLACE_WORLDS",
             "PLACE_MOVES", "PLACE_CANDIDATES", "GUIDE_X", "PILOT", "DEFENSIVE", "GUIDED_EVERY")
    defaults = {k: getattr(ryoseen, k) for k in names}
    for text in args.settings:
        setting = json.loads(text)
        for k, v in {**defaults, **setting}.items():
            setattr(ryoseen, k, v)
        place = len(seen.opponents) >= ryoseen.PLACE_FROM
        worlds = ryoseen.PLACE_WORLDS if place else ryoseen.MIN_WORLDS
        eq, se, cpu, eff = [], [], [], []
        with ryoseen.shared_proposals():
            ryoseen.ryo_seen_look(seen, samples=worlds, seed=pilot_seed)
            for b in range(args.batches):
                t = time.thread_time()
                odds = ryoseen.ryo_seen_look(seen, samples=worlds, seed=first_seed + b)
                cpu.append(time.thread_time() - t)
                assert odds is not None
                eq.append(odds.equity)
                se.append(odds.stderr)
                eff.append(odds.effective or 0.0)
        spread = float(np.std(eq, ddof=1))
        stated = float(np.sqrt(np.mean(np.square(se))))
        each = float(np.mean(cpu))
        print(f"{args.players} players, hand {args.hand}, {setting or 'as shipped'}: "
              f"mean {100 * np.mean(eq):.2f} ± {100 * spread / np.sqrt(len(eq)):.2f}, "
              f"spread {100 * spread:.2f}, stated {100 * stated:.2f}, CPU {each:.3f} s a "
              f"batch, spread² × time {1e4 * spread * spread * each:.2f} × 10⁻⁴, effective "
              f"{np.median(eff):,.0f} a batch (median), {sum(eff) / sum(cpu):,.0f} per CPU s "
              f"(load {os.getloadavg()[0]:.1f})", flush=True)
    for k, v in defaults.items():
        setattr(ryoseen, k, v)


if __name__ == "__main__":
    main()
