"""Plain ranking of rank lists: the definitions every table is built from.

These functions are straightforward (not fast); :mod:`rollem.hands.tables`
runs them once over every rank multiset and bit mask so the hot paths are
table lookups.  Ranks are 0 (deuce) .. 12 (ace).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rollem.hands.category import Category
from rollem.hands.encoding import LOW_BASE, pack

__all__ = [
    "best_flush",
    "best_nonflush",
    "five_value",
    "grouped_ranks",
    "low_five_value",
    "partial_low_value",
    "partial_value",
    "straight_top",
]

_WHEEL = (1 << 12) | 0b1111
_PATTERNS: dict[tuple[int, ...], Category] = {
    (5,): Category.FIVE_OF_A_KIND,
    (4, 1): Category.FOUR_OF_A_KIND,
    (3, 2): Category.FULL_HOUSE,
    (3, 1, 1): Category.THREE_OF_A_KIND,
    (2, 2, 1): Category.TWO_PAIR,
    (2, 1, 1, 1): Category.ONE_PAIR,
    (1, 1, 1, 1, 1): Category.HIGH_CARD,
    # partial hands (R-C-8)
    (4,): Category.FOUR_OF_A_KIND,
    (3, 1): Category.THREE_OF_A_KIND,
    (3,): Category.THREE_OF_A_KIND,
    (2, 2): Category.TWO_PAIR,
    (2, 1, 1): Category.ONE_PAIR,
    (2, 1): Category.ONE_PAIR,
    (2,): Category.ONE_PAIR,
    (1, 1, 1, 1): Category.HIGH_CARD,
    (1, 1, 1): Category.HIGH_CARD,
    (1, 1): Category.HIGH_CARD,
    (1,): Category.HIGH_CARD,
}


def grouped_ranks(ranks: Sequence[int]) -> tuple[tuple[int, ...], list[int]]:
    """Group ranks by how often they occur, largest group first, then by
    rank, highest first: ``(counts, distinct ranks)``."""
    groups = sorted(Counter(ranks).items(), key=lambda g: (g[1], g[0]), reverse=True)
    return tuple(n for _, n in groups), [r for r, _ in groups]


def straight_top(mask: int) -> int:
    """Top rank of the highest straight in a 13-bit rank mask, 3 for the
    wheel (A-2-3-4-5), or -1 if none (R-C-2: no wrap-around)."""
    for top in range(12, 3, -1):
        window = 0b11111 << (top - 4)
        if mask & window == window:
            return top
    return 3 if mask & _WHEEL == _WHEEL else -1


def _pairing_value(ranks: Sequence[int]) -> int:
    counts, distinct = grouped_ranks(ranks)
    return pack(_PATTERNS[counts], distinct)


def five_value(ranks: Sequence[int], flush: bool) -> int:
    """High value (R-C-2) of exactly five ranks; ``flush`` if all one suit.

    Five equal ranks are five of a kind.  With ``flush`` the ranks may repeat
    (a wild-duplicates flush, R-RYO-9); the better of the pairing and the
    flush reading is returned.
    """
    value = _pairing_value(ranks)
    mask = 0
    for r in ranks:
        mask |= 1 << r
    top = straight_top(mask) if mask.bit_count() == 5 else -1
    if top >= 0:
        category = Category.STRAIGHT_FLUSH if flush else Category.STRAIGHT
        return max(value, pack(category, [top]))
    if flush:
        return max(value, pack(Category.FLUSH, sorted(ranks, reverse=True)))
    return value


def _top_ranks(mask: int, count: int, skip: int = 0) -> list[int]:
    out = []
    for r in range(12, -1, -1):
        if mask >> r & 1 and not skip >> r & 1:
            out.append(r)
            if len(out) == count:
                break
    return out


def best_nonflush(counts: Sequence[int]) -> int:
    """Best high value of five cards taken from a hand of at least five
    distinct cards, ignoring flushes.  ``counts[r]`` is how many cards of
    rank ``r`` the hand holds (each at most 4)."""
    present = 0
    for r in range(13):
        if counts[r]:
            present |= 1 << r
    quads = [r for r in range(12, -1, -1) if counts[r] >= 4]
    if quads:
        q = quads[0]
        return pack(Category.FOUR_OF_A_KIND, [q, *_top_ranks(present, 1, 1 << q)])
    trips = [r for r in range(12, -1, -1) if counts[r] >= 3]
    pairs = [r for r in range(12, -1, -1) if counts[r] >= 2]
    if trips:
        t = trips[0]
        others = [r for r in pairs if r != t]
        if others:
            return pack(Category.FULL_HOUSE, [t, others[0]])
    top = straight_top(present)
    if top >= 0:
        return pack(Category.STRAIGHT, [top])
    if trips:
        t = trips[0]
        return pack(Category.THREE_OF_A_KIND, [t, *_top_ranks(present, 2, 1 << t)])
    if len(pairs) >= 2:
        p, q = pairs[0], pairs[1]
        kicker = _top_ranks(present, 1, (1 << p) | (1 << q))
        return pack(Category.TWO_PAIR, [p, q, *kicker])
    if pairs:
        p = pairs[0]
        return pack(Category.ONE_PAIR, [p, *_top_ranks(present, 3, 1 << p)])
    return pack(Category.HIGH_CARD, _top_ranks(present, 5))


def best_flush(mask: int) -> int:
    """Best flush or straight flush among the ranks of one suit (a 13-bit
    mask with at least five bits); 0 if fewer than five."""
    if mask.bit_count() < 5:
        return 0
    top = straight_top(mask)
    if top >= 0:
        return pack(Category.STRAIGHT_FLUSH, [top])
    return pack(Category.FLUSH, _top_ranks(mask, 5))


def low_five_value(ranks: Sequence[int]) -> int:
    """Ace-to-five low value (R-C-3) of five ranks; greater is a better low.

    Aces count as ones; straights and flushes are ignored.  The value is
    ``LOW_BASE - badness`` with ``badness`` packed like a high value over
    low ranks (ace 0, deuce 1, .. king 12).
    """
    counts, distinct = grouped_ranks([(r + 1) % 13 for r in ranks])
    return LOW_BASE - pack(_PATTERNS[counts], distinct)


def partial_value(ranks: Sequence[int]) -> int:
    """High value of one to four exposed ranks (R-C-8): pairs, trips and
    quads count, straights and flushes do not.  Comparable among partial
    hands of the same size."""
    counts, distinct = grouped_ranks(ranks)
    return pack(_PATTERNS[counts], distinct)


def partial_low_value(ranks: Sequence[int]) -> int:
    """Ace-to-five low value of one to four ranks (R-C-3 with R-C-8):
    comparable among partial hands of the same size; greater is lower."""
    counts, distinct = grouped_ranks([(r + 1) % 13 for r in ranks])
    return LOW_BASE - pack(_PATTERNS[counts], distinct)
