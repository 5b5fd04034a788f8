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

from rollem.hands.category import Category
from rollem.hands.core import five_value
from rollem.hands.encoding import pack
from rollem.hands.tables import (
    CARD_KEY,
    CARD_RANK_BIT,
    CARD_SUIT_BIT,
    FLUSH_BEST,
    HIGH5,
    RANK_WEIGHTS,
    rank_multisets,
)

__all__ = ["flush_table", "nonflush_table", "wild_value", "wild_value5"]


@cache
def nonflush_table(wilds: int) -> dict[int, int]:
    """Natural rank key (sum of rank weights) -> best non-flush value with
    ``wilds`` wild cards added (any ranks; five of a kind allowed)."""
    table: dict[int, int] = {}
    fills = combinations_with_replacement(range(13), wilds)
    fill_keys = sorted({sum(RANK_WEIGHTS[r] for r in fill) for fill in fills})
    for naturals in rank_multisets(5 - wilds):
        key = sum(RANK_WEIGHTS[r] for r in naturals)
        if len(set(naturals)) <= 1:
            # Naturals of one rank (or none): the wilds make five of a kind.
            table[key] = pack(Category.FIVE_OF_A_KIND, [naturals[0] if naturals else 12])
        else:
            # Two ranks or more: no rank can reach five, every fill is a real hand.
            table[key] = max(HIGH5[key + fill] for fill in fill_keys)
    return table


@cache
def flush_table(wilds: int, duplicates: bool) -> list[int]:
    """Natural rank mask (5 - wilds distinct ranks of one suit) -> best
    flush or straight flush with ``wilds`` wild cards of that suit."""
    table = [0] * 8192
    fill_masks = [sum(1 << r for r in fill) for fill in combinations(range(13), wilds)]
    for naturals in combinations(range(13), 5 - wilds):
        mask = sum(1 << r for r in naturals)
        best = max(FLUSH_BEST[mask | fill] for fill in fill_masks if not mask & fill)
        if duplicates:
            best = max(best, five_value(naturals + (12,) * wilds, True))
        table[mask] = best
    return table


_CARD_INFO: dict[int, tuple[list[int], list[int]]] = {}


def _card_info(wild_bits: int) -> tuple[list[int], list[int]]:
    """Per card, for the wild ranks in ``wild_bits``: a word summing to
    (natural rank key | wild count << 20 | natural rank bits << 24), and its
    suit bit (all four for a wild card)."""
    words = []
    suit_bits = []
    for c in range(52):
        if wild_bits >> (c >> 2) & 1:
            words.append(1 << 20)
            suit_bits.append(15)
        else:
            words.append(CARD_KEY[c] | CARD_RANK_BIT[c] << 24)
            suit_bits.append(CARD_SUIT_BIT[c])
    _CARD_INFO[wild_bits] = (words, suit_bits)
    return words, suit_bits


_TABLES: dict[bool, list[tuple[dict[int, int], list[int]]]] = {False: [], True: []}
"""Per ``wild_duplicates``: for 0..5 wild cards, (non-flush table, flush table)."""


def wild_value5(
    cards: Sequence[int],
    wild_ranks: Collection[int],
    wild_duplicates: bool = False,
    natural_beats_wild: bool = False,
) -> int:
    """:func:`wild_value` of exactly five cards (positional options)."""
    return wild_value(
        cards, wild_ranks, wild_duplicates=wild_duplicates, natural_beats_wild=natural_beats_wild
    )


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

    With more than five cards the best five are taken, and a wild card may
    stand for any card outside those five (the games here hold exactly five).

    Args:
        cards: five or more distinct cards.
        wild_ranks: rank numbers (0..12) that are wild; may be empty.
        wild_duplicates: let a wild duplicate a card already held (the
            double-ace flush).
        natural_beats_wild: break ties in favour of a hand without wilds.

    Raises:
        ValueError: if fewer than five cards are given.
    """
    if len(cards) != 5:
        return _wild_value_many(cards, wild_ranks, wild_duplicates, natural_beats_wild)
    wild_bits = 0
    for r in wild_ranks:
        wild_bits |= 1 << r
    info = _CARD_INFO.get(wild_bits)
    if info is None:
        info = _card_info(wild_bits)
    words, suit_bits = info
    a, b, c, d, e = cards
    total = words[a] + words[b] + words[c] + words[d] + words[e]
    suits = suit_bits[a] & suit_bits[b] & suit_bits[c] & suit_bits[d] & suit_bits[e]
    wilds = (total >> 20) & 7
    key = total & 0xFFFFF
    mask = total >> 24  # the natural ranks; exact when they share a suit (all distinct)
    if not wilds:
        value = FLUSH_BEST[mask] if suits else HIGH5[key]
        return value * 2 + 1 if natural_beats_wild else value
    tables = _TABLES[wild_duplicates]
    if not tables:
        tables.extend((nonflush_table(k), flush_table(k, wild_duplicates)) for k in range(6))
    nonflush, flushes = tables[wilds]
    value = nonflush[key]
    if suits:
        flush = flushes[mask]
        if flush > value:
            value = flush
    if natural_beats_wild:
        return value * 2 + (wilds == 0)
    return value


def _wild_value_many(
    cards: Sequence[int],
    wild_ranks: Collection[int],
    wild_duplicates: bool,
    natural_beats_wild: bool,
) -> int:
    if any(not 0 <= r < 13 for r in wild_ranks):
        raise ValueError(f"bad wild rank in {sorted(wild_ranks)}: expected 0..12")
    if len(cards) < 5:
        raise ValueError(f"a high hand needs at least five cards, got {len(cards)}")
    return max(
        wild_value5(five, wild_ranks, wild_duplicates, natural_beats_wild)
        for five in combinations(cards, 5)
    )
