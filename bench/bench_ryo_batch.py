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

``--view`` picks the view by the bench's words (``late``, after the seat's
second draw; ``third card up`` and ``after the wild card``, its first
decision in that round, as ``bench_calibration.py`` names them), ``--part``
the share of a whole batch each batch draws (as play's ``batch_part``:
:func:`rollem.odds.ryoseen.play_part`), and ``--pilot-seeds`` several
pilots, each with its own batches (the spread depends on the pilot as much
as on a setting; issue 33, branch s54-ryo), their rows then one line over
all of them. Any upper-case constant of ``rollem.odds.ryoseen`` may be set.

    .venv/bin/python bench/bench_ryo_batch.py --players 5 --view "third card up" \\
        --part 0.5 --pilot-seeds 7,11,12 --batches 24 '{}' '{"LATE_CANDIDATES": 8}'
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
    parser.add_argument("--pilot-seeds", default=None,
                        help="several pilots, comma-separated (each its own batches, from "
                             "--first-seed + 1000 × its index)")
    parser.add_argument("--view", default="late", choices=sorted(VIEWS),
                        help="the seat's view (default: after its second draw)")
    parser.add_argument("--part", type=float, default=1.0,
                        help="the share of a whole batch each batch draws (as play's)")
    parser.add_argument("--first-seed", type=int, default=100,
                        help="the batches' seeds are this and the next ones")
    args = parser.parse_args()
    pilots = ([int(x) for x in args.pilot_seeds.split(",")] if args.pilot_seeds
              else [args.pilot_seed])
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
        every: list[float] = []
        for i, pilot_seed in enumerate(pilots):
            eq, se, cpu, eff = _batches(seen, worlds, args.part, pilot_seed,
                                        args.first_seed + 1000 * i, args.batches)
            every += eq
            _row(f"{args.players} players, hand {args.hand}, {args.view}, part {args.part}, "
                 f"{setting or 'as shipped'}, pilot {pilot_seed}", eq, se, cpu, eff)
        if len(pilots) > 1:
            print(f"  all {len(every)} batches: mean {100 * np.mean(every):.2f} ± "
                  f"{100 * np.std(every, ddof=1) / np.sqrt(len(every)):.2f}, spread "
                  f"{100 * np.std(every, ddof=1):.2f}", flush=True)
    for k, v in defaults.items():
        setattr(ryoseen, k, v)


VIEWS = {"late": "late", "third card up": "at:third card up|",
         "after the wild card": "at:after the wild card|"}
"""The views ``--view`` names, as ``bench_play_odds._view`` takes them."""


def _batches(seen: ryoseen.SeenPool, worlds: int, part: float, pilot_seed: int,
             first_seed: int, n: int) -> tuple[list[float], list[float], list[float],
                                               list[float]]:
    """One pilot, then ``n`` batches sharing its proposals: each batch's
    equity, stated error, CPU seconds (this thread's) and effective worlds."""
    eq, se, cpu, eff = [], [], [], []
    with ryoseen.shared_proposals(), ryoseen.part_of_batch(part):
        ryoseen.ryo_seen_look(seen, samples=worlds, seed=pilot_seed)
        for b in range(n):
            t = time.thread_time()
            odds = ryoseen.ryo_seen_look(seen, samples=worlds, seed=first_seed + b)
            cpu.append(time.thread_time() - t)
            assert odds is not None
            eq.append(odds.equity)
            se.append(odds.stderr)
            eff.append(odds.effective or 0.0)
    return eq, se, cpu, eff


def _row(head: str, eq: list[float], se: list[float], cpu: list[float],
         eff: list[float]) -> None:
    """Prints one pilot's line."""
    spread = float(np.std(eq, ddof=1))
    stated = float(np.sqrt(np.mean(np.square(se))))
    each = float(np.mean(cpu))
    print(f"{head}: "
          f"mean {100 * np.mean(eq):.2f} ± {100 * spread / np.sqrt(len(eq)):.2f}, "
          f"spread {100 * spread:.2f}, stated {100 * stated:.2f}, CPU {each:.3f} s a "
          f"batch, spread² × time {1e4 * spread * spread * each:.2f} × 10⁻⁴, effective "
          f"{np.median(eff):,.0f} a batch (median), {sum(eff) / sum(cpu):,.0f} per CPU s "
          f"(load {os.getloadavg()[0]:.1f})", flush=True)


if __name__ == "__main__":
    main()
