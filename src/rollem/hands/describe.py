"""Words for hand values: what a player would say ("aces full of kings")."""

from __future__ import annotations

from rollem.cards import RANK_NAMES, RANK_PLURALS
from rollem.hands.category import Category
from rollem.hands.encoding import LOW_BASE, unpack

__all__ = ["category_of", "describe_value", "field_count"]


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


def _kickers(names: list[str]) -> str:
    if not names:
        return ""
    return f", {'-'.join(names)} kicker{'s' if len(names) > 1 else ''}"


def describe_value(value: int, *, low: bool = False, size: int = 5) -> str:
    """Describe a value from :func:`high_value`, :func:`wild_value` (without
    ``natural_beats_wild``), :func:`low_value` (``low=True``) or
    :func:`showing_value` (``size`` = number of cards, 1..5).

    >>> from rollem.hands.core import five_value
    >>> describe_value(five_value([5, 5, 5, 5, 11], False))
    'four sevens, king kicker'
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
        return f"four {plural[0]}{_kickers(name[1:])}"
    if category is Category.FULL_HOUSE:
        return f"{plural[0]} full of {plural[1]}"
    if category is Category.FLUSH:
        if fields[0] == fields[1]:
            return f"double-{name[0]} flush"  # wild_duplicates (R-RYO-9)
        return f"{name[0]}-high flush"
    if category is Category.STRAIGHT:
        return "five-high straight (wheel)" if fields[0] == 3 else f"{name[0]}-high straight"
    if category is Category.THREE_OF_A_KIND:
        return f"three {plural[0]}{_kickers(name[1:])}"
    if category is Category.TWO_PAIR:
        return f"two pair, {plural[0]} and {plural[1]}{_kickers(name[2:])}"
    if category is Category.ONE_PAIR:
        return f"pair of {plural[0]}{_kickers(name[1:2])}"
    if low:
        if size == 5 and fields == [3, 2, 1, 0, 12]:
            return "wheel (five-four low)"
        return f"{'-'.join(name[:2])} low"
    if len(name) == 1:
        return f"{name[0]} high"
    return f"{name[0]} high, {'-'.join(name[1:])}"
