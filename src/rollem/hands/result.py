"""The rich result of evaluating a hand: category, words, cards, wilds."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from itertools import combinations, combinations_with_replacement

from rollem.cards import CARDS, Card, CardError, check_distinct
from rollem.hands.category import Category
from rollem.hands.core import five_value, partial_low_value, partial_value
from rollem.hands.describe import category_of, describe_value
from rollem.hands.high import high_value
from rollem.hands.low import low_value
from rollem.hands.showing import best_partial
from rollem.hands.wild import wild_value5

__all__ = ["HandResult", "evaluate"]


@dataclass(frozen=True, slots=True)
class HandResult:
    """What a hand is worth and why.

    Attributes:
        category: the hand's :class:`Category` (for a low, the pairing
            category: a no-pair low is ``HIGH_CARD``).
        description: what a player would say, e.g. ``"aces full of kings"``.
        cards: the five cards used (all of them for a partial hand), in
            reading order (the ranks that define the hand first).
        wilds: each wild card used -> the card it stands for (R-RYO-9).
        value: the same integer :func:`high_value`, :func:`low_value`,
            :func:`wild_value` or :func:`showing_value` gives; greater is
            better under that ranking.
        low: whether this is an ace-to-five low (R-C-3).
    """

    category: Category
    description: str
    cards: tuple[Card, ...]
    wilds: dict[Card, Card] = field(default_factory=dict)
    value: int = 0
    low: bool = False


def _checked(cards: Iterable[int]) -> list[Card]:
    out: list[Card] = []
    for c in cards:
        if not 0 <= int(c) < 52:
            raise CardError(f"bad card number {c!r}: expected 0..51")
        out.append(CARDS[int(c)])
    check_distinct(out)
    if not out:
        raise CardError("no cards given: expected at least one card")
    return out


def _stand_ins(
    wild_cards: list[Card], fill: tuple[int, ...], taken: set[int], suit: int | None
) -> dict[Card, Card]:
    """Pick the card each wild stands for: ``fill`` ranks in order, of
    ``suit`` (a flush) or else a suit not yet taken, preferring the wild's own
    (five of a kind repeats a card, R-RYO-9)."""
    out: dict[Card, Card] = {}
    for wild, rank in zip(wild_cards, sorted(fill, reverse=True), strict=True):
        if suit is not None:
            card = rank * 4 + suit
        else:
            own = rank * 4 + (wild & 3)
            free = [rank * 4 + s for s in range(4) if rank * 4 + s not in taken]
            card = own if own not in taken or not free else free[0]
        taken.add(card)
        out[wild] = CARDS[card]
    return out


def _resolve_wilds(
    five: list[Card], wild_ranks: Collection[int], duplicates: bool
) -> tuple[int, dict[Card, Card]]:
    """Best value of five cards with wilds (no natural flag) and the stand-ins."""
    naturals = [c for c in five if c >> 2 not in wild_ranks]
    wild_cards = [c for c in five if c >> 2 in wild_ranks]
    if not wild_cards:
        return high_value(five), {}
    k = len(wild_cards)
    ranks = tuple(c >> 2 for c in naturals)
    best_value = -1
    best_fill: tuple[int, ...] = ()
    for fill in combinations_with_replacement(range(13), k):
        value = five_value(ranks + fill, False)
        if value > best_value:
            best_value, best_fill = value, fill
    flush_suit = None
    suits = {c & 3 for c in naturals} or {wild_cards[0] & 3}
    if len(suits) == 1:
        suit = suits.pop()
        missing = [r for r in range(13) if r not in ranks]
        fills = list(combinations(missing, k))
        if duplicates:
            fills.append((12,) * k)
        for fill in fills:
            value = five_value(ranks + fill, True)
            if value > best_value:
                best_value, best_fill, flush_suit = value, fill, suit
    taken = {int(c) for c in naturals}
    return best_value, _stand_ins(wild_cards, best_fill, taken, flush_suit)


def _reading_order(cards: list[Card], wilds: dict[Card, Card], low: bool) -> tuple[Card, ...]:
    def rank(c: Card) -> int:
        r = wilds.get(c, c) >> 2
        return (r + 1) % 13 if low else r

    counts = Counter(rank(c) for c in cards)
    # natural cards before the wild cards standing for the same rank
    ordered = sorted(cards, key=lambda c: (counts[rank(c)], rank(c), c not in wilds),
                     reverse=True)
    if not low and len(cards) == 5 and {rank(c) for c in cards} == {12, 0, 1, 2, 3}:
        ordered = ordered[1:] + ordered[:1]  # the wheel: 5-4-3-2-A
    return tuple(ordered)


def evaluate(
    cards: Iterable[int],
    *,
    wild_ranks: Collection[int] = (),
    low: bool = False,
    wild_duplicates: bool = False,
    natural_beats_wild: bool = False,
) -> HandResult:
    """Evaluate a hand: the best five of five or more cards (R-C-2, R-C-3,
    R-RYO-9), or one to four cards as a partial hand (R-C-8).

    Args:
        cards: one or more distinct cards (ints 0..51).
        wild_ranks: rank numbers 0..12 whose cards are wild (high only).
        low: rank as an ace-to-five low instead (R-C-3).
        wild_duplicates, natural_beats_wild: the R-RYO-9 house options.

    Returns:
        A :class:`HandResult` whose ``value`` equals what the matching fast
        function returns (:func:`high_value`, :func:`low_value`,
        :func:`wild_value` with the same options, :func:`showing_value`).

    Raises:
        CardError: a card out of range, given twice, or no cards.
        ValueError: a wild rank out of 0..12, or wild ranks with ``low``.
    """
    hand = _checked(cards)
    wild_set = frozenset(int(r) for r in wild_ranks)
    if any(not 0 <= r < 13 for r in wild_set):
        raise ValueError(f"bad wild rank in {sorted(wild_set)}: expected 0..12")
    if low and wild_set:
        raise ValueError("wild cards apply to high hands only, not to an ace-to-five low")
    size = min(len(hand), 5)
    wilds: dict[Card, Card] = {}
    if len(hand) < 5:
        used = hand
        if low:
            value = shown = partial_low_value([c >> 2 for c in hand])
        elif wild_set:
            value, fill = best_partial(hand, wild_set)
            shown = value
            wild_cards = [c for c in hand if c >> 2 in wild_set]
            taken = {int(c) for c in hand if c >> 2 not in wild_set}
            wilds = _stand_ins(wild_cards, fill, taken, None)
        else:
            value = shown = partial_value([c >> 2 for c in hand])
    elif low:
        fives: list[tuple[int, ...]] = list(combinations(hand, 5))
        used = [CARDS[c] for c in max(fives, key=low_value)]
        value = shown = low_value(used)
    elif wild_set:
        fives = list(combinations(hand, 5))
        # among equal hands, the one using the fewest wild cards (naturals read first)
        best = max(
            fives, key=lambda f: (wild_value5(f, wild_set, wild_duplicates, natural_beats_wild),
                                  -sum(c >> 2 in wild_set for c in f))
        )
        used = [CARDS[c] for c in best]
        shown, wilds = _resolve_wilds(used, wild_set, wild_duplicates)
        value = wild_value5(used, wild_set, wild_duplicates, natural_beats_wild)
    else:
        fives = list(combinations(hand, 5))
        used = [CARDS[c] for c in max(fives, key=high_value)]
        value = shown = high_value(used)
    return HandResult(
        category=category_of(shown, low=low),
        description=describe_value(shown, low=low, size=size),
        cards=_reading_order(used, wilds, low),
        wilds=wilds,
        value=value,
        low=low,
    )
