"""Fast ace-to-five low evaluation from Python (R-C-3)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from rollem.hands.tables import CARD_KEY, CARD_KEY3, LOW5, RANK_WEIGHTS

__all__ = ["low_value"]

_BEST_LOW: dict[int, int] = {}
"""Rank-count key (sum of ``1 << 3*rank``) -> best low value; filled as met."""


def low_value(cards: Sequence[int]) -> int:
    """Ace-to-five low value (R-C-3) of the best five of ``cards``.

    Greater is a better low (A-2-3-4-5 is the greatest); straights and
    flushes do not count, aces are ones, no qualifier.

    Args:
        cards: five or more cards (ints 0..51).

    Raises:
        ValueError: if fewer than five cards are given.
    """
    if len(cards) == 5:
        a, b, c, d, e = cards
        return LOW5[CARD_KEY[a] + CARD_KEY[b] + CARD_KEY[c] + CARD_KEY[d] + CARD_KEY[e]]
    if len(cards) < 5:
        raise ValueError(f"a low hand needs at least five cards, got {len(cards)}")
    key = 0
    for c in cards:
        key += CARD_KEY3[c]
    value = _BEST_LOW.get(key)
    if value is None:
        ranks = [r for r in range(13) for _ in range((key >> (3 * r)) & 7)]
        value = max(
            LOW5[sum(RANK_WEIGHTS[r] for r in five)] for five in set(combinations(ranks, 5))
        )
        _BEST_LOW[key] = value
    return value
