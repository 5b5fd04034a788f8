"""Lookup tables for the fast evaluators, built once in memory.

Five-card keys: each rank has a weight (:data:`RANK_WEIGHTS`) chosen so that
every multiset of five ranks (each at most four times) has a distinct sum,
the largest being :data:`MAX_KEY5`.  A non-flush five-card hand is then one
list index; a flush is one index by its 13-bit rank mask.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, combinations_with_replacement

from rollem.hands.core import best_flush, five_value, low_five_value

__all__ = [
    "CARD_KEY",
    "CARD_KEY3",
    "CARD_RANK_BIT",
    "CARD_SUIT_BIT",
    "CARD_SUIT_COUNT",
    "FLUSH_BEST",
    "HIGH5",
    "LOW5",
    "MAX_KEY5",
    "RANK_WEIGHTS",
    "rank_multisets",
]

RANK_WEIGHTS = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)
"""Per-rank weights; five-rank multisets have distinct sums (checked in tests)."""
MAX_KEY5 = 4 * RANK_WEIGHTS[12] + RANK_WEIGHTS[11]

CARD_KEY: list[int] = [RANK_WEIGHTS[c >> 2] for c in range(52)]
"""Card -> its rank weight."""
CARD_KEY3: list[int] = [1 << (3 * (c >> 2)) for c in range(52)]
"""Card -> ``1 << 3*rank``: sums are rank-count vectors of any hand size."""
CARD_RANK_BIT: list[int] = [1 << (c >> 2) for c in range(52)]
CARD_SUIT_BIT: list[int] = [1 << (c & 3) for c in range(52)]
CARD_SUIT_COUNT: list[int] = [1 << (4 * (c & 3)) for c in range(52)]
"""Card -> ``1 << 4*suit``: sums hold a 4-bit count per suit."""


def rank_multisets(size: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of ``size`` ranks (sorted tuples) with no rank more
    than four times: the rank patterns real cards can make."""
    for ranks in combinations_with_replacement(range(13), size):
        if all(ranks.count(r) <= 4 for r in set(ranks)):
            yield ranks


def _build() -> tuple[list[int], list[int], list[int]]:
    high5 = [0] * (MAX_KEY5 + 1)
    low5 = [0] * (MAX_KEY5 + 1)
    for ranks in rank_multisets(5):
        key = sum(RANK_WEIGHTS[r] for r in ranks)
        high5[key] = five_value(ranks, False)
        low5[key] = low_five_value(ranks)
    flush_best = [0] * 8192
    for size in range(5, 14):
        for chosen in combinations(range(13), size):
            mask = sum(1 << r for r in chosen)
            flush_best[mask] = best_flush(mask)
    return high5, low5, flush_best


HIGH5, LOW5, FLUSH_BEST = _build()
"""``HIGH5[key]``: non-flush five-card high value; ``LOW5[key]``: ace-to-five
low value; ``FLUSH_BEST[mask]``: best flush/straight flush of a suit's ranks."""
