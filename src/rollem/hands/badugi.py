"""Badugi hands (PHH variant FB, issue 29), as PokerKit's ``BadugiHand`` ranks them.

A player holds four cards and plays the largest set of them with no two of
a suit and no two of a rank (a four-card set is a *badugi*); any four-card
set beats any three-card one, and so on down to one card. Between sets of
the same size the lowest wins, compared from the highest card down, aces
low: ``4-3-2-A`` (a four-card badugi of four suits) is the best hand,
``8-7-5-3`` beats ``9-6-4-2``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from rollem.cards import CARDS, Card
from rollem.hands.describe import KICKER_NAMES

__all__ = ["badugi_cards", "badugi_value", "describe_badugi"]

_SIZE_SHIFT = 16
_SIZES = ("one-card hand", "two-card hand", "three-card hand", "badugi")


def _ace_low(card: int) -> int:
    """A card's badugi rank: ace 0, deuce 1 ... king 12."""
    return ((card >> 2) + 1) % 13


def _value(cards: Sequence[int]) -> int:
    ranks = sorted((_ace_low(c) for c in cards), reverse=True)
    value = len(ranks) << _SIZE_SHIFT
    for i, r in enumerate(ranks):
        value |= (12 - r) << (4 * (3 - i))
    return value


def _badugi(cards: Sequence[int]) -> bool:
    return (len({c & 3 for c in cards}) == len(cards)
            and len({c >> 2 for c in cards}) == len(cards))


def badugi_cards(cards: Sequence[int]) -> tuple[Card, ...]:
    """The cards that play: the best set of ``cards`` with distinct suits and
    distinct ranks (highest card first).

    Raises:
        ValueError: no cards, or a card given twice.
    """
    if not cards:
        raise ValueError("a badugi hand needs at least one card, got none")
    if len(set(cards)) != len(cards):
        raise ValueError("a badugi hand holds each card once")
    for size in range(min(len(cards), 4), 0, -1):
        sets = [s for s in combinations(cards, size) if _badugi(s)]
        if sets:
            best = max(sets, key=_value)
            return tuple(CARDS[c] for c in sorted(best, key=_ace_low, reverse=True))
    raise AssertionError("one card is always a badugi set")  # pragma: no cover


def badugi_value(cards: Sequence[int]) -> int:
    """The badugi value of ``cards`` (ints 0..51; four at the showdown):
    greater is better. ``size << 16`` for the size of the set that plays,
    then a 4-bit field a card, highest first, of ``12 - rank`` (aces low).

    Raises:
        ValueError: no cards, or a card given twice.
    """
    return _value(badugi_cards(cards))


def describe_badugi(cards: Sequence[int]) -> str:
    """What a player would say: ``"badugi, eight-seven-five-three"``,
    ``"three-card hand, nine-six-four"``, ``"one-card hand, ace"``."""
    best = badugi_cards(cards)
    names = "-".join(KICKER_NAMES[c >> 2] for c in best)
    return f"{_SIZES[len(best) - 1]}, {names}"
