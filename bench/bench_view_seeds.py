"""Plain duplicate with the bots' coins seeded per view (issue 31, common random
numbers): how much variance per deal it takes out, on the same deals.

Each deal is played heads-up twice with the seats swapped, as
``bench_league.py`` does, once with every seating's bots drawing their coins
from their own seeded ``Random`` (``independent``, the league's default) and
once with :class:`bench_league.ViewSeeded` bots (``per view``: each decision's
coins seeded by a hash of one match seed, shared by the two seatings, and the
seat's view). Both are unbiased estimates of the same win rate (a decision's
law, averaged over match seeds, is the bot's own); "times fewer" is
var(independent) / var(per view), with a 95% bootstrap interval over the
deals (the same deals in both, resampled together). ``identical`` counts the
deals whose two seatings played the same way from the seat holding each hand
(the hero's chips exactly zero: every decision of the pair met the same view).

    .venv/bin/python bench/bench_view_seeds.py --game rollyourown \\
        --structure fixed-limit --deals 400 --seed 1 [--json out.json]

Figures: ``docs/dev/league.md``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_league import BIG_BET, STACK, _job, seat_bots, view_seed
from rollem.engine import Hand, SeededSource
from rollem.engine.options import Options


def units(game: str, structure: str, deals: list[int], seed: int, hero: str, opp: str,
          view_seeds: bool) -> tuple[list[float], float]:
    """The hero's chips per deal (mean of its two seatings) and the CPU seconds."""
    t = time.process_time()
    out = _job((game, hero, opp, "hu", structure, deals, seed, (0, 1), view_seeds))
    return out, time.process_time() - t


def alignment(game: str, structure: str, deals: list[int], seed: int, hero: str,
              opp: str, view_seeds: bool = True) -> dict[str, int]:
    """How often the two seatings of a deal meet the same view (per-view seeds):
    ``decisions`` of either seat in either seating, ``shared`` those whose view
    (by its :func:`bench_league.view_seed`) the same seat also meets in the
    other seating, ``same`` those of them where the two seatings' bots (one
    ``hero``, one ``opp``: the seat changes hands) took the same action.
    ``view_seeds`` False: the bots' own independent coins, for comparison."""
    out = {"decisions": 0, "shared": 0, "same": 0}
    plays: list[list[dict[tuple[int, int], object]]] = []
    for hero_seat in (0, 1):
        levels = [opp, opp]
        levels[hero_seat] = hero
        bots = seat_bots(levels, seed * 2 + hero_seat, seed * 7919 if view_seeds else None)
        per_deal = []
        for i, deal in enumerate(deals):
            hand = Hand(game, [STACK, STACK], button=i % 2,
                        options=Options(structure=structure), source=SeededSource(deal))
            seen: dict[tuple[int, int], object] = {}
            while not hand.is_over:
                assert hand.pending is not None
                s = hand.pending.seats[0]
                view = hand.view(s)
                action = bots[s].act(view)
                seen[(s, view_seed(0, view))] = action
                hand.apply(s, action)
            per_deal.append(seen)
        plays.append(per_deal)
    for a, b in zip(plays[0], plays[1], strict=True):
        for here, there in ((a, b), (b, a)):
            for key, action in here.items():
                out["decisions"] += 1
                if key in there:
                    out["shared"] += 1
                    out["same"] += int(there[key] == action)
    return out


def ratio_interval(a: Sequence[float], b: Sequence[float], draws: int = 2000,
                   seed: int = 0, level: float = 0.95) -> tuple[float, float, float]:
    """var(a) / var(b) over paired samples and its percentile bootstrap
    interval at ``level`` (0.95 by default; deals resampled with replacement,
    the pairs kept).

    Raises:
        ValueError: fewer than 3 pairs, or lengths that differ.
    """
    import numpy as np

    if len(a) != len(b) or len(a) < 3:
        raise ValueError(f"need at least 3 paired values, got {len(a)} and {len(b)}")
    if not 0.5 <= level < 1:
        raise ValueError(f"level must be at least 0.5 and below 1, got {level}")
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    point = float(x.var(ddof=1) / y.var(ddof=1))
    idx = np.random.default_rng(seed).integers(0, len(x), size=(draws, len(x)))
    vx, vy = x[idx].var(axis=1, ddof=1), y[idx].var(axis=1, ddof=1)
    ratios = np.sort(vx[vy > 0] / vy[vy > 0])
    tail = (1 - level) / 2
    return (point, float(ratios[int(tail * len(ratios))]),
            float(ratios[int((1 - tail) * len(ratios)) - 1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="sdr")
    parser.add_argument("--structure", default="fixed-limit")
    parser.add_argument("--hero", default="strong")
    parser.add_argument("--opponent", default="basic")
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", default=None)
    parser.add_argument("--alignment", action="store_true",
                        help="instead count the decisions whose view both seatings meet "
                             "(alignment)")
    args = parser.parse_args()
    if args.deals < 3:
        parser.error(f"--deals must be at least 3, got {args.deals}")
    rng = random.Random(f"view-seeds/{args.game}/{args.structure}/{args.seed}")
    deals = [rng.getrandbits(48) for _ in range(args.deals)]
    if args.alignment:
        for on in (True, False):
            counts = alignment(args.game, args.structure, deals, args.seed, args.hero,
                               args.opponent, on)
            print(f"{args.game} {args.structure} {len(deals)} deals, "
                  f"{'per view' if on else 'independent'}: {counts}")
        return
    plain, cpu_plain = units(args.game, args.structure, deals, args.seed, args.hero,
                             args.opponent, False)
    seeded, cpu_seeded = units(args.game, args.structure, deals, args.seed, args.hero,
                               args.opponent, True)
    scale = 100.0 / BIG_BET
    print(f"{args.game} {args.structure} hu {args.hero} vs {args.opponent}, "
          f"{len(deals)} deals (seed {args.seed})")
    for name, u, cpu in (("independent", plain, cpu_plain), ("per view", seeded, cpu_seeded)):
        m, v = statistics.mean(u), statistics.variance(u)
        half = 1.96 * (v / len(u)) ** 0.5
        zero = sum(1 for x in u if x == 0)
        print(f"  {name:12s} {m * scale:+8.2f} BB/100 [{(m - half) * scale:+.2f}, "
              f"{(m + half) * scale:+.2f}]  var {v:8.2f} chips^2  identical {zero:4d}  "
              f"{cpu / len(u):.3f} s CPU a deal")
    r, lo, hi = ratio_interval(plain, seeded)
    print(f"  times fewer (independent / per view): {r:.2f} [{lo:.2f}, {hi:.2f}]")
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"game": args.game, "structure": args.structure, "seed": args.seed,
             "hero": args.hero, "opponent": args.opponent, "independent": plain,
             "per_view": seeded, "cpu": [cpu_plain, cpu_seeded], "ratio": [r, lo, hi]}))


if __name__ == "__main__":
    main()
