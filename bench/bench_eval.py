"""Hand-evaluation speed: rollem vs treys, phevaluator and pokerkit, in one run.

On the same random hands:

- single five-card (and seven-card) evaluation from Python, returning the
  integer: rollem ``high_value``, ``low_value``, ``wild_value`` vs treys
  ``Evaluator.evaluate``, phevaluator ``evaluate_cards``, pokerkit
  ``StandardHighHand.from_game`` / ``RegularLowHand.from_game`` (fewer
  hands: it is slow);
- numpy batch (``rollem.hands.batch``), one core: high, low and wild (queens
  and deuces wild) five-card hands per second.

Targets: batch high and low >= 30M hands/s and >= 16x treys; batch wild
>= 10M hands/s; single five-card high at least as fast as treys.

    .venv/bin/python bench/bench_eval.py [--hands 200000] [--batch 2000000]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
from phevaluator import evaluate_cards
from pokerkit import RegularLowHand, StandardHighHand
from treys import Card as TreysCard
from treys import Evaluator

from rollem.cards import CARDS
from rollem.hands import high_value, low_value, wild_value
from rollem.hands.batch import high_values, low_values, wild_values

WILD = frozenset({0, 10})  # deuces and queens


def random_hands(n: int, size: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52), dtype=np.float32), axis=1)[:, :size].astype(np.uint8)


def rate(fn: Callable[[], object], n: int, repeat: int = 3) -> float:
    """Best-of-``repeat`` items per second of ``fn`` (which handles ``n`` items)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return n / best


def single_rates(hands: list[list[int]], pk_count: int) -> dict[str, float]:
    evaluator = Evaluator()
    tc = [TreysCard.new(str(c)) for c in CARDS]
    treys_hands = [([tc[h[0]], tc[h[1]]], [tc[c] for c in h[2:]]) for h in hands]
    text = ["".join(str(CARDS[c]) for c in h) for h in hands[:pk_count]]
    n = len(hands)
    ev = evaluator.evaluate
    high_hand, low_hand = StandardHighHand.from_game, RegularLowHand.from_game
    return {
        "rollem high_value": rate(lambda: [high_value(h) for h in hands], n),
        "rollem low_value": rate(lambda: [low_value(h) for h in hands], n),
        "rollem wild_value": rate(lambda: [wild_value(h, WILD) for h in hands], n),
        "treys evaluate": rate(lambda: [ev(a, b) for a, b in treys_hands], n),
        "phevaluator evaluate_cards": rate(lambda: [evaluate_cards(*h) for h in hands], n),
        "pokerkit StandardHighHand": rate(lambda: [high_hand(t) for t in text], pk_count, 1),
        "pokerkit RegularLowHand": rate(lambda: [low_hand(t) for t in text], pk_count, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000, help="single-hand sample size")
    parser.add_argument("--batch", type=int, default=2_000_000, help="batch size")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    five = random_hands(args.hands, 5, args.seed)
    seven = random_hands(args.hands // 4, 7, args.seed + 1)
    wild_values(five[:10], WILD)  # build (or load) the wild tables before timing

    rows: list[tuple[str, str, float]] = []
    r5 = single_rates(five.tolist(), max(2_000, args.hands // 20))
    treys5 = r5["treys evaluate"]
    for name, value in r5.items():
        rows.append(("single 5-card", name, value))
    r7 = single_rates(seven.tolist(), max(1_000, args.hands // 80))
    treys7 = r7["treys evaluate"]
    for name, value in r7.items():
        rows.append(("single 7-card", name, value))

    batch = random_hands(args.batch, 5, args.seed + 2)
    n = len(batch)
    for name, fn in (
        ("batch high_values", lambda: high_values(batch)),
        ("batch low_values", lambda: low_values(batch)),
        ("batch wild_values", lambda: wild_values(batch, WILD)),
        (
            "batch wild_values (dup, natural)",
            lambda: wild_values(batch, WILD, wild_duplicates=True, natural_beats_wild=True),
        ),
    ):
        rows.append(("batch 5-card", name, rate(fn, n)))
    batch7 = random_hands(n // 4, 7, args.seed + 3)
    rows.append(("batch 7-card", "batch high_values", rate(lambda: high_values(batch7), n // 4)))

    print(f"{'what':16} {'evaluator':36} {'hands/s':>14} {'x treys':>9}")
    for what, name, value in rows:
        base = treys7 if "7-card" in what else treys5
        print(f"{what:16} {name:36} {value:14,.0f} {value / base:9.1f}")


if __name__ == "__main__":
    main()
