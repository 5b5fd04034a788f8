"""The integer a hand ranks by, and how to read it back.

A high value is ``category << 20`` plus up to five 4-bit rank fields, most
important first (bits 16..19 hold the first): the ranks that define the
hand then its kickers, e.g. a full house ``KKK77`` packs ``K, 7``; a straight
packs only its top card (5 for the wheel).  Greater is better (R-C-2).  Such a
value fits in 24 bits, so numpy tables store it as ``int32``.

An ace-to-five low value (R-C-3) is ``LOW_BASE - badness`` where ``badness``
is packed the same way with aces as rank 0 and the other ranks one higher
(deuce 1 .. king 12), straights and flushes ignored; again greater is better.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "CATEGORY_SHIFT",
    "LOW_BASE",
    "pack",
    "unpack",
]

CATEGORY_SHIFT = 20
LOW_BASE = 1 << 24
"""Low values are ``LOW_BASE - badness``; every low value is in ``1..LOW_BASE``."""


def pack(category: int, ranks: Sequence[int]) -> int:
    """Pack a category and up to five rank numbers (0..15) into a value."""
    value = category << CATEGORY_SHIFT
    shift = 16
    for r in ranks:
        value |= r << shift
        shift -= 4
    return value


def unpack(value: int, count: int = 5) -> tuple[int, list[int]]:
    """Inverse of :func:`pack`: ``(category, [count rank fields])``."""
    fields = [(value >> (16 - 4 * i)) & 15 for i in range(count)]
    return value >> CATEGORY_SHIFT, fields
