"""Short-deck hold'em hands (PHH variant NS, issue 29), as PokerKit's
``ShortDeckHoldemHand`` ranks them.

The deck has 36 cards, sixes to aces (:data:`SHORT_DECK`). The hands rank as
high hands (R-C-2) but for two things: a flush beats a full house, and the
ace plays low in ``A-6-7-8-9``, the lowest straight (nine high). Three of a
kind still loses to a straight.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from rollem.hands.category import Category
from rollem.hands.encoding import CATEGORY_SHIFT, pack

__all__ = ["SHORT_DECK", "describe_short_deck", "short_deck_value"]

SHORT_DECK = tuple(range(4 * 4, 52))
"""The 36 cards of a short deck (sixes to aces) as ints, in deck order."""

_LOW_STRAIGHT = frozenset({12, 4, 5, 6, 7})  # A-6-7-8-9 (rank numbers, deuce 0)
_NINE = 7
_FIELDS = (1 << CATEGORY_SHIFT) - 1


def _five_value(five: Sequence[int]) -> int:
    from rollem.hands import high_value

    value = high_value(five)
    category = value >> CATEGORY_SHIFT
    if {c >> 2 for c in five} == _LOW_STRAIGHT:
        flush = len({c & 3 for c in five}) == 1
        return pack(Category.STRAIGHT_FLUSH if flush else Category.STRAIGHT, [_NINE])
    if category == Category.FLUSH:
        return (Category.FULL_HOUSE << CATEGORY_SHIFT) | (value & _FIELDS)
    if category == Category.FULL_HOUSE:
        return (Category.FLUSH << CATEGORY_SHIFT) | (value & _FIELDS)
    return value


def short_deck_value(cards: Sequence[int]) -> int:
    """Short-deck value of the best five of ``cards`` (five or more ints
    0..51); greater is better. Packed as :mod:`rollem.hands.encoding`, with
    the category field of a flush and of a full house swapped (a value's
    category is :class:`Category` ``FULL_HOUSE`` for a flush, ``FLUSH`` for
    a full house), and ``A-6-7-8-9`` a nine-high straight.

    Raises:
        ValueError: fewer than five cards.
    """
    if len(cards) < 5:
        raise ValueError(f"a hand needs at least five cards, got {len(cards)}")
    return max(_five_value(five) for five in combinations(cards, 5))


def describe_short_deck(cards: Sequence[int]) -> str:
    """What a player would say of the best five of ``cards``: as a high hand
    (``"ace-high flush, nine-seven-six-deuce"``), ``A-6-7-8-9`` as
    ``"nine-high straight"`` (``"nine-high straight flush"``)."""
    from rollem.hands import evaluate

    best = max(combinations(cards, 5), key=_five_value)
    if {c >> 2 for c in best} == _LOW_STRAIGHT:
        flush = len({c & 3 for c in best}) == 1
        return "nine-high straight flush" if flush else "nine-high straight"
    return str(evaluate(best).description)
