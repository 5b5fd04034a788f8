"""Partial hands for "highest/lowest showing" (R-C-8)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from itertools import combinations_with_replacement

from rollem.hands.core import partial_value
from rollem.hands.high import high_value
from rollem.hands.wild import wild_value

__all__ = ["best_partial", "showing_value"]


def best_partial(
    cards: Sequence[int], wild_ranks: Collection[int] = ()
) -> tuple[int, tuple[int, ...]]:
    """Best partial-hand value of one to four cards and the ranks the wild
    cards (in the order given) take: ``(value, fill ranks)``."""
    naturals = tuple(c >> 2 for c in cards if c >> 2 not in wild_ranks)
    wilds = len(cards) - len(naturals)
    best: tuple[int, tuple[int, ...]] = (-1, ())
    # Ranks ascending, so among equal values the lowest fill is kept (it never matters).
    for fill in combinations_with_replacement(range(13), wilds):
        value = partial_value(naturals + fill)
        if value > best[0]:
            best = (value, fill)
    return best


def showing_value(cards: Sequence[int], wild_ranks: Collection[int] = ()) -> int:
    """Rank 1..5 exposed cards as a partial poker hand (R-C-8).

    Pairs, trips and quads count (R-C-2); straights and flushes only when
    five cards show.  Cards whose rank is in ``wild_ranks`` are wild and
    play as the best rank (R-RYO-9).  Values are comparable among hands with
    the same number of cards: the highest hand showing has the greatest
    value, the lowest hand showing the smallest.  Position breaks ties
    (the caller's job).

    Raises:
        ValueError: if ``cards`` is empty.
    """
    if not cards:
        raise ValueError("a hand showing needs at least one card")
    if len(cards) >= 5:
        return wild_value(cards, wild_ranks) if wild_ranks else high_value(cards)
    if not wild_ranks:
        return partial_value([c >> 2 for c in cards])
    return best_partial(cards, wild_ranks)[0]
