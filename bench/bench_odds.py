"""Odds speed: exact heads-up Stop, Drop and Roll equity vs PokerKit, same run.

The question (issue 8): the seat's hole cards against one unknown hand, the
Stop and the Drop known, before the Roll: 1,128 opponent hands x 15,180
Rolls = 17,123,040 showdowns, enumerated exactly by
:func:`rollem.odds.sdr_odds` on one core (numpy, no threads used by the ops
involved). Target: at most 2 s.

PokerKit's ``calculate_equities`` answers the comparable hold'em question
(the same 48 unseen cards: As Kd against any two cards, two board cards
known, three to come; seven-card hands) by Monte Carlo, single-threaded; its
time per showdown is measured on a sample and scaled to 17,123,040
showdowns. Printed: both times and the ratio (PokerKit / rollem).

    .venv/bin/python bench/bench_odds.py [--repeat 3] [--pokerkit-samples 20000]
"""

from __future__ import annotations

import argparse
import json
import os
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from rollem.odds import sdr_odds

HAND, DEAD = "As Kd", "Qh 7c"
SHOWDOWNS = 1128 * 15180


def rollem_exact(repeat: int) -> tuple[float, float]:
    """Best time (s) of ``repeat`` exact runs, and the equity."""
    sdr_odds(HAND, dead=DEAD, board="2d")  # warm the tables
    best = float("inf")
    equity = 0.0
    for _ in range(repeat):
        t = time.perf_counter()
        odds = sdr_odds(HAND, dead=DEAD, opponents=1)
        best = min(best, time.perf_counter() - t)
        assert odds.method == "exact" and odds.samples == SHOWDOWNS, odds
        equity = odds.equity
    return best, equity


def pokerkit_per_showdown(samples: int) -> tuple[float, float]:
    """Seconds per showdown of PokerKit's calculate_equities (one thread)."""
    from itertools import combinations

    from pokerkit import Card, Deck, StandardHighHand, calculate_equities

    hero = list(Card.parse("AsKd"))
    board = list(Card.parse("Qh7c"))
    used = {repr(c) for c in hero + board}
    rest = [c for c in Deck.STANDARD if repr(c) not in used]
    anyhand = [list(pair) for pair in combinations(rest, 2)]
    calculate_equities([[hero], anyhand], board, 2, 5, Deck.STANDARD, (StandardHighHand,),
                       sample_count=200)
    t = time.perf_counter()
    eq = calculate_equities([[hero], anyhand], board, 2, 5, Deck.STANDARD,
                            (StandardHighHand,), sample_count=samples)
    return (time.perf_counter() - t) / samples, eq[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pokerkit-samples", type=int, default=20_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    seconds, equity = rollem_exact(args.repeat)
    per, pk_equity = pokerkit_per_showdown(args.pokerkit_samples)
    pk_seconds = per * SHOWDOWNS
    out = {
        "showdowns": SHOWDOWNS,
        "rollem_exact_s": round(seconds, 3),
        "rollem_equity": equity,
        "pokerkit_s_per_showdown": per,
        "pokerkit_s_for_same_count": round(pk_seconds, 1),
        "pokerkit_equity_holdem": pk_equity,
        "ratio_pokerkit_over_rollem": round(pk_seconds / seconds, 1),
        "target_s": 2.0,
    }
    if args.json:
        print(json.dumps(out))
        return
    print(f"rollem exact SDR heads-up: {SHOWDOWNS:,} showdowns in {seconds:.3f} s "
          f"(equity {equity:.4f}; target <= 2 s)")
    print(f"PokerKit calculate_equities (hold'em, comparable): {per * 1e6:.1f} us per "
          f"showdown -> {pk_seconds:,.0f} s for the same count (equity {pk_equity:.4f})")
    print(f"ratio PokerKit / rollem: {pk_seconds / seconds:,.0f}x")


if __name__ == "__main__":
    main()
