"""High hands with wild cards (R-RYO-9).

A wild card stands for any card not already in its holder's hand, except
that wild cards may make five of a kind (above a straight flush).  So apart
from five of a kind only flushes care which exact cards the wilds become:
a non-flush hand is fixed by its rank multiset (four suits always leave room
for up to four of a rank), and a flush takes the best ranks its suit lacks
(or, with ``wild_duplicates``, aces again: the "double-ace flush").

Tables, built on first use, give for ``k`` wild cards the best value over
the natural cards' rank multiset (non-flush) and over their rank mask when
they share a suit (flush / straight flush).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement

from rollem.hands.core import five_value
from rollem.hands.tables import CARD_KEY, CARD_RANK_BIT, CARD_SUIT_BIT, RANK_WEIGHTS, rank_multisets

__all__ = ["flush_table", "nonflush_table", "wild_value", "wild_value5"]


@cache
def nonflush_table(wilds: int) -> dict[int, int]:
    """Natural rank key (sum of rank weights) -> best non-flush value with
    ``wilds`` wild cards added (any ranks; five of a kind allowed)."""
    table: dict[int, int] = {}
    fills = list(combinations_with_replacement(range(13), wilds))
    for naturals in rank_multisets(5 - wilds):
        key = sum(RANK_WEIGHTS[r] for r in naturals)
        table[key] = max(five_value(naturals + fill, False) for fill in fills)
    return table


@cache
def flush_table(wilds: int, duplicates: bool) -> list[int]:
    """Natural rank mask (5 - wilds distinct ranks of one suit) -> best
    flush or straight flush with ``wilds`` wild cards of that suit."""
    table = [0] * 8192
    for naturals in combinations(range(13), 5 - wilds):
        mask = sum(1 << r for r in naturals)
        missing = [r for r in range(13) if not mask >> r & 1]
        best = max(five_value(naturals + fill, True) for fill in combinations(missing, wilds))
        if duplicates:
            best = max(best, five_value(naturals + (12,) * wilds, True))
        table[mask] = best
    return table


def wild_value5(
    cards: Sequence[int],
    wild_ranks: Collection[int],
    wild_duplicates: bool = False,
    natural_beats_wild: bool = False,
) -> int:
    """:func:`wild_value` of exactly five cards."""
    wilds = 0
    key = 0
    mask = 0
    suits = 15
    for c in cards:
        if c >> 2 in wild_ranks:
            wilds += 1
        else:
            key += CARD_KEY[c]
            mask |= CARD_RANK_BIT[c]
            suits &= CARD_SUIT_BIT[c]
    value = nonflush_table(wilds)[key]
    if suits:
        value = max(value, flush_table(wilds, wild_duplicates)[mask])
    if natural_beats_wild:
        return value * 2 + (wilds == 0)
    return value


def wild_value(
    cards: Sequence[int],
    wild_ranks: Collection[int],
    *,
    wild_duplicates: bool = False,
    natural_beats_wild: bool = False,
) -> int:
    """High value (R-C-2, R-RYO-9) of the best five of ``cards`` where every
    card whose rank is in ``wild_ranks`` is wild.

    Values are comparable with other :func:`wild_value` results under the
    same options; greater is better, five of a kind tops.  Without
    ``natural_beats_wild`` the value equals :func:`high_value` for a hand of
    naturals; with it the value is ``2 * that + 1`` for a five-card hand made
    without wild cards and ``2 * that`` otherwise (a natural beats an equal
    wild hand).

    Args:
        cards: five or more distinct cards.
        wild_ranks: rank numbers (0..12) that are wild; may be empty.
        wild_duplicates: let a wild duplicate a card already held (the
            double-ace flush).
        natural_beats_wild: break ties in favour of a hand without wilds.

    Raises:
        ValueError: if fewer than five cards are given.
    """
    if len(cards) == 5:
        return wild_value5(cards, wild_ranks, wild_duplicates, natural_beats_wild)
    if len(cards) < 5:
        raise ValueError(f"a high hand needs at least five cards, got {len(cards)}")
    return max(
        wild_value5(five, wild_ranks, wild_duplicates, natural_beats_wild)
        for five in combinations(cards, 5)
    )
