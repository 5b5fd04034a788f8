"""A league you can trust sooner (issue 31): duplicate heads-up Stop, Drop and
Roll with the cards' luck taken out by a control variate (AIVAT-style, on the
chance events only).

Each deal is played twice with the seats swapped, as ``bench_league.py``
does. For each hand, at every chance event (the hole cards, the Stop, the
Drop, the Roll; R-SDR-1..R-SDR-5) the hero's showdown share with both hands
known, ``e``, is taken from the odds module just before and just after the
cards come; the event's *luck* is ``P * (e_after - e_before)``, ``P`` the
chips in the pot when it came (nothing is bet between). Because ``e`` before
a chance event is the mean of ``e`` after it over the cards that may come
(the remaining deck is uniform; Monte Carlo noise in ``e`` is zero-mean and
independent), every luck term has mean zero, so the hero's chips minus the
hand's luck is an unbiased estimate of the same win rate, with less
variance. The number of deals plain duplicate needs for the interval width
the corrected one reaches is ``var(plain) / var(corrected)`` times as many.

    .venv/bin/python bench/bench_luck.py --hero strong --opponent basic --deals 300 \\
        [--structure fixed-limit] [--seed 1]

Only Stop, Drop and Roll: in Roll Your Own and 5-2-1 the cards between chance
events depend on the players' own card choices (discards, draws, wild picks),
so the share before a chance event is not the mean after it without modelling
those choices (not done). Figures: ``docs/dev/league.md``.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_league import BIG_BET, STACK, bot
from rollem.engine import Hand, SeededSource
from rollem.engine.options import Options
from rollem.odds import sdr_odds


class Shares:
    """Seat 0's showdown share with both hands known, by the cards out so far."""

    def __init__(self, rng: random.Random, samples: int) -> None:
        self.rng = rng
        self.samples = samples
        self.cache: dict[tuple[Any, ...], float] = {}

    def __call__(self, holes: list[list[int]], dead: tuple[int, ...],
                 board: tuple[int, ...]) -> float:
        key = (tuple(holes[0]), tuple(holes[1]), dead, board)
        if key not in self.cache:
            odds = sdr_odds(holes[0], vs=[holes[1]], dead=dead, board=board,
                            samples=self.samples, rng=self.rng, exact_limit=20_000)
            self.cache[key] = float(odds.equity)
        return self.cache[key]


def _cards(hand: Hand) -> tuple[tuple[int, ...], tuple[int, ...]]:
    from rollem.cards import parse_card

    v = hand.view(None)
    return (tuple(int(parse_card(c)) for c in v.dead),
            tuple(int(parse_card(c)) for c in v.board))


def play(hero: str, opp: str, structure: str, deals: list[int], seed: int,
         shares: Shares) -> tuple[list[float], list[float]]:
    """Per deal: the hero's chips (mean of its two seats) and the same less luck."""
    plain = [0.0] * len(deals)
    fixed = [0.0] * len(deals)
    for hero_seat in (0, 1):
        master = random.Random(seed * 2 + hero_seat)
        levels = [opp, opp]
        levels[hero_seat] = hero
        bots = [bot(level, random.Random(master.getrandbits(64))) for level in levels]
        for i, deal in enumerate(deals):
            hand = Hand("sdr", [STACK, STACK], button=i % 2,
                        options=Options(structure=structure), source=SeededSource(deal))
            holes = [[int(c) for c in h] for h in hand.hole]
            sign = 1.0 if hero_seat == 0 else -1.0  # the hero's share: e or 1 - e
            before = _cards(hand)
            e = shares(holes, *before)
            luck = sum(hand.committed) * sign * (e - 0.5)
            while not hand.is_over:
                assert hand.pending is not None
                s = hand.pending.seats[0]
                hand.apply(s, bots[s].act(hand.view(s)))
                pot = sum(hand.committed)  # the round's bets called: the pot the cards meet
                after = _cards(hand)
                if after != before and not any(hand.folded):
                    e_after = shares(holes, *after)
                    luck += pot * sign * (e_after - e)
                    e, before = e_after, after
            assert hand.result is not None
            net = hand.result.net.get(hero_seat, 0)
            plain[i] += net / 2
            fixed[i] += (net - luck) / 2
    return plain, fixed


def _summary(units: list[float]) -> tuple[float, float, float]:
    m = len(units)
    mean = sum(units) / m
    var = sum((u - mean) ** 2 for u in units) / max(1, m - 1)
    half = 1.96 * math.sqrt(var / m)
    scale = 100.0 / BIG_BET
    return mean * scale, half * scale, var


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hero", default="strong")
    parser.add_argument("--opponent", default="basic")
    parser.add_argument("--structure", default="fixed-limit")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--samples", type=int, default=4000,
                        help="Monte Carlo samples of a share when not enumerated")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(f"luck/{args.structure}/{args.seed}")
    deals = [rng.getrandbits(48) for _ in range(args.deals)]
    t = time.perf_counter()
    plain, fixed = play(args.hero, args.opponent, args.structure, deals, args.seed,
                        Shares(random.Random(args.seed), args.samples))
    (pm, ph, pv), (fm, fh, fv) = _summary(plain), _summary(fixed)
    print(f"sdr {args.structure} hu {args.hero} vs {args.opponent}, {len(deals)} deals "
          f"({time.perf_counter() - t:.0f} s)")
    print(f"  plain duplicate   {pm:+8.2f} BB/100 [{pm - ph:+.2f}, {pm + ph:+.2f}]")
    print(f"  luck taken out    {fm:+8.2f} BB/100 [{fm - fh:+.2f}, {fm + fh:+.2f}]")
    print(f"  deals needed for the same width: {pv / fv if fv > 0 else float('inf'):.2f} "
          "times fewer")


if __name__ == "__main__":
    main()
