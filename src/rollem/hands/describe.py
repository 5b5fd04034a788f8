"""Words for hand values: what a player would say ("aces full of kings").

A description names every rank that can decide a tie between two hands of
the same category (R-C-2): ``"pair of sixes, king-ten-deuce"`` (all three
kickers), ``"two pair, kings and sevens, ace kicker"``, ``"ace high,
jack-nine-seven-deuce"``. An ace-to-five low (R-C-3) is named as a low by its
two top cards, then the rest: ``"eight-seven low, five-three-deuce"``; the
best low is ``"five-four low, three-deuce-ace (the wheel)"``.
"""

from __future__ import annotations

from rollem.cards import RANK_NAMES, RANK_PLURALS
from rollem.hands.category import Category
from rollem.hands.encoding import LOW_BASE, unpack

__all__ = ["KICKER_NAMES", "category_of", "describe_value", "field_count"]

KICKER_NAMES = ("deuce", *RANK_NAMES[1:])
"""Rank names as players say them in a list of cards: a two is a deuce
(``"king-ten-deuce"``)."""


def field_count(category: Category, size: int) -> int:
    """How many rank fields a value of ``category`` packs for ``size`` cards."""
    return {
        Category.HIGH_CARD: size,
        Category.ONE_PAIR: size - 1,
        Category.TWO_PAIR: size - 2,
        Category.THREE_OF_A_KIND: size - 2,
        Category.STRAIGHT: 1,
        Category.FLUSH: 5,
        Category.FULL_HOUSE: 2,
        Category.FOUR_OF_A_KIND: size - 3,
        Category.STRAIGHT_FLUSH: 1,
        Category.FIVE_OF_A_KIND: 1,
    }[category]


def category_of(value: int, *, low: bool = False) -> Category:
    """The category of a high value, or of an ace-to-five low value (R-C-3)."""
    return Category((LOW_BASE - value if low else value) >> 20)


_MANY = {2: "double", 3: "triple", 4: "quadruple"}
"""A flush's top rank held more than once (wild duplicates): its word."""


def _kickers(fields: list[int]) -> str:
    """``", ace kicker"`` for one, ``", king-ten-deuce"`` for several, ``""`` for none."""
    if not fields:
        return ""
    if len(fields) == 1:
        return f", {KICKER_NAMES[fields[0]]} kicker"
    return ", " + "-".join(KICKER_NAMES[f] for f in fields)


def describe_value(value: int, *, low: bool = False, size: int = 5) -> str:
    """Describe a value from :func:`high_value`, :func:`wild_value` (without
    ``natural_beats_wild``), :func:`low_value` (``low=True``) or
    :func:`showing_value` (``size`` = number of cards, 1..5), naming every
    rank that breaks a tie (R-C-2, R-C-3).

    >>> from rollem.hands.core import five_value
    >>> describe_value(five_value([4, 4, 12, 8, 0], False))
    'pair of sixes, ace-ten-deuce'
    """
    raw = LOW_BASE - value if low else value
    category = Category(raw >> 20)
    _, fields = unpack(raw, field_count(category, size))
    if low:
        fields = [(f - 1) % 13 for f in fields]  # low rank -> card rank
    name = [RANK_NAMES[f] for f in fields]
    plural = [RANK_PLURALS[f] for f in fields]
    if category is Category.FIVE_OF_A_KIND:
        return f"five {plural[0]}"
    if category is Category.STRAIGHT_FLUSH:
        if fields[0] == 12:
            return "royal flush"
        return f"{name[0]}-high straight flush"
    if category is Category.FOUR_OF_A_KIND:
        return f"four {plural[0]}{_kickers(fields[1:])}"
    if category is Category.FULL_HOUSE:
        return f"{plural[0]} full of {plural[1]}"
    if category is Category.FLUSH:
        held = fields.count(fields[0])
        if held > 1:
            # wild_duplicates (R-RYO-9): wild cards played as the ace already held,
            # the double-ace flush (A-A-K-Q-4) or the triple-ace flush (A-A-A-K-6):
            # the aces counted once, the rest after them (s58-tidy: "double-ace
            # flush, ace-king-six" named three aces as two and the third again)
            many = _MANY.get(held, f"{held}-times")
            return f"{many}-{name[0]} flush, " + "-".join(KICKER_NAMES[f] for f in fields[held:])
        return f"{name[0]}-high flush, " + "-".join(KICKER_NAMES[f] for f in fields[1:])
    if category is Category.STRAIGHT:
        return "five-high straight (wheel)" if fields[0] == 3 else f"{name[0]}-high straight"
    if category is Category.THREE_OF_A_KIND:
        return f"three {plural[0]}{_kickers(fields[1:])}"
    if category is Category.TWO_PAIR:
        return f"two pair, {plural[0]} and {plural[1]}{_kickers(fields[2:])}"
    if category is Category.ONE_PAIR:
        return f"pair of {plural[0]}{_kickers(fields[1:])}"
    words = [KICKER_NAMES[f] for f in fields]
    if low:
        top = "-".join(words[:2])
        rest = f", {'-'.join(words[2:])}" if len(words) > 2 else ""
        wheel = " (the wheel)" if size == 5 and fields == [3, 2, 1, 0, 12] else ""
        return f"{top} low{rest}{wheel}"
    if len(name) == 1:
        return f"{name[0]} high"
    return f"{name[0]} high, {'-'.join(words[1:])}"
