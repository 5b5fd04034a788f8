"""Fast high-hand evaluation from Python (R-C-2)."""

from __future__ import annotations

from collections.abc import Sequence

from rollem.hands.core import best_nonflush
from rollem.hands.tables import (
    CARD_KEY,
    CARD_KEY3,
    CARD_RANK_BIT,
    CARD_SUIT_COUNT,
    FLUSH_BEST,
    HIGH5,
)

__all__ = ["high_value"]

_NONFLUSH: dict[int, int] = {}
"""Rank-count key (sum of ``1 << 3*rank``) -> best non-flush value; filled as met."""
_FLUSH_TEST = 0x8888
_SUIT_OFFSET = 0x3333


def high_value(cards: Sequence[int]) -> int:
    """High value (R-C-2) of the best five of ``cards``; greater is better.

    Args:
        cards: five or more distinct cards (ints 0..51).  Distinctness is not
            checked here (use :func:`rollem.hands.evaluate` for checked input).

    Returns:
        An ``int`` below ``2**24`` (see :mod:`rollem.hands.encoding`); equal
        values split the pot.

    Raises:
        ValueError: if fewer than five cards are given.
    """
    if len(cards) == 5:
        a, b, c, d, e = cards
        if (a & 3) == (b & 3) == (c & 3) == (d & 3) == (e & 3):
            return FLUSH_BEST[
                CARD_RANK_BIT[a] | CARD_RANK_BIT[b] | CARD_RANK_BIT[c] | CARD_RANK_BIT[d]
                | CARD_RANK_BIT[e]
            ]
        return HIGH5[CARD_KEY[a] + CARD_KEY[b] + CARD_KEY[c] + CARD_KEY[d] + CARD_KEY[e]]
    if len(cards) < 5:
        raise ValueError(f"a high hand needs at least five cards, got {len(cards)}")
    if len(cards) == 7:
        a, b, c, d, e, f, g = cards
        key = (
            CARD_KEY3[a] + CARD_KEY3[b] + CARD_KEY3[c] + CARD_KEY3[d] + CARD_KEY3[e]
            + CARD_KEY3[f] + CARD_KEY3[g]
        )
        suits = (
            CARD_SUIT_COUNT[a] + CARD_SUIT_COUNT[b] + CARD_SUIT_COUNT[c] + CARD_SUIT_COUNT[d]
            + CARD_SUIT_COUNT[e] + CARD_SUIT_COUNT[f] + CARD_SUIT_COUNT[g]
        )
    else:
        key = 0
        suits = 0
        for c in cards:
            key += CARD_KEY3[c]
            suits += CARD_SUIT_COUNT[c]
    value = _NONFLUSH.get(key)
    if value is None:
        value = best_nonflush([(key >> (3 * r)) & 7 for r in range(13)])
        _NONFLUSH[key] = value
    if len(cards) <= 7:
        if not (suits + _SUIT_OFFSET) & _FLUSH_TEST:
            return value
        # With at most seven cards, a flush rules out quads and full houses.
        flush_suit = ((suits + _SUIT_OFFSET) & _FLUSH_TEST).bit_length() // 4 - 1
        mask = 0
        for c in cards:
            if c & 3 == flush_suit:
                mask |= CARD_RANK_BIT[c]
        return FLUSH_BEST[mask]
    for suit in range(4):
        if (suits >> (4 * suit)) & 15 >= 5:
            mask = 0
            for c in cards:
                if c & 3 == suit:
                    mask |= CARD_RANK_BIT[c]
            value = max(value, FLUSH_BEST[mask])
    return value
