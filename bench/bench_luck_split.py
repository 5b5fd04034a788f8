"""Where duplicate's variance sits (issue 31): the deal's own edge, the cards
that come after the deal, and the bots' own coins.

Each deal (``strong`` against ``basic`` heads-up, both seatings as
``bench_luck.py``) is played ``--reps`` times. ``--mode deck``: the deal kept,
the undealt deck and the pool reshuffled and the bots reseeded (alike in both
seatings of a replay); ``--mode bots``: the whole deck kept, only the bots
reseeded. The variance of a deal's duplicate result splits into the part
between deals (the *edge* the cards dealt give, which no estimator that looks
at one deal can take out) and the part within a deal (what a perfect value of
the positions after the deal could take out): ``total / edge`` is that
ceiling on "times fewer deals".

    .venv/bin/python bench/bench_luck_split.py --game rollem521 --deals 150 --reps 4
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_league import STACK, bot
from rollem.engine import Hand, SeededSource
from rollem.engine.options import Options
from rollem.engine.randomness import SeededSource as _Reseed


def split(game: str, structure: str, deals: list[int], reps: int, seed: int,
          mode: str) -> list[list[float]]:
    """Every deal's duplicate result (chips, mean of the two seatings) in each
    of ``reps`` replays (the first one the real deck)."""
    opts = Options(structure=structure)
    out = [[0.0] * reps for _ in deals]
    for r in range(reps):
        for hero in (0, 1):
            master = random.Random(f"{seed}/{r}/{hero}")
            levels = ["basic", "basic"]
            levels[hero] = "strong"
            bots = [bot(level, random.Random(master.getrandbits(64))) for level in levels]
            for i, deal in enumerate(deals):
                hand = Hand(game, [STACK, STACK], button=i % 2, options=opts,
                            source=SeededSource(deal))
                if r > 0 and mode == "deck":  # the deal kept, what follows redrawn
                    crn = random.Random(f"{deal}/{r}")
                    hand.source = _Reseed(crn.getrandbits(64))
                    rest = hand.deck[hand.deck_pos:]
                    crn.shuffle(rest)
                    hand.deck[hand.deck_pos:] = rest
                    crn.shuffle(hand.pool)
                while not hand.is_over:
                    assert hand.pending is not None
                    s = hand.pending.seats[0]
                    hand.apply(s, bots[s].act(hand.view(s)))
                assert hand.result is not None
                out[i][r] += hand.result.net.get(hero, 0) / 2
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="rollem521")
    parser.add_argument("--structure", default="fixed-limit")
    parser.add_argument("--deals", type=int, default=150)
    parser.add_argument("--reps", type=int, default=4)
    parser.add_argument("--mode", choices=("deck", "bots"), default="deck")
    parser.add_argument("--seed", type=int, default=2)
    args = parser.parse_args()
    if args.reps < 2 or args.deals < 2:
        parser.error("--reps and --deals must be at least 2")
    rng = random.Random(f"decomp/{args.game}/{args.structure}/{args.seed}")
    deals = [rng.getrandbits(48) for _ in range(args.deals)]
    t = time.process_time()
    res = split(args.game, args.structure, deals, args.reps, args.seed, args.mode)
    total = statistics.variance([x for row in res for x in row])
    within = statistics.mean(statistics.variance(row) for row in res)
    edge = statistics.variance([statistics.mean(row) for row in res]) - within / args.reps
    print(f"{args.mode}: {args.game} {args.structure}, {args.deals} deals x {args.reps}: "
          f"variance {total:.1f} chips^2, within a deal {within:.1f}, edge {edge:.1f}, "
          f"total/edge {total / edge if edge > 0 else float('inf'):.2f} "
          f"({time.process_time() - t:.0f} s CPU)")


if __name__ == "__main__":
    main()
