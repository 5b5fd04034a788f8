"""Hands in words: the description plus what each wild card plays as."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from math import comb

from rollem.cards import CARDS, RANKS, Card, parse_card
from rollem.games.cost import MAX_SHOWDOWN_EVALUATIONS, naming_evaluations
from rollem.hands.result import HandResult, evaluate

__all__ = ["half_words", "hand_words", "high_low_words", "low_words", "wild_note",
           "with_wild_note"]


def wild_note(wilds: Mapping[Card, Card]) -> str:
    """``" (wild 5d plays as 8d)"`` for each wild card used (R-RYO-9); ``""`` for none."""
    if not wilds:
        return ""
    return " (" + ", ".join(f"wild {w} plays as {c}" for w, c in wilds.items()) + ")"


def _cards(cards: Iterable[int | str]) -> list[Card]:
    return [parse_card(c) if isinstance(c, str) else CARDS[int(c)] for c in cards]


def hand_words(
    cards: Iterable[int | str],
    *,
    wild_ranks: Collection[int | str] = (),
    low: bool = False,
    wild_duplicates: bool = False,
    natural_beats_wild: bool = False,
) -> str:
    """What a player would say about ``cards`` (the best five; 1-4 cards: a
    partial hand, R-C-8): every rank that breaks a tie (R-C-2), a low named as
    a low (R-C-3), each wild card with what it plays as (R-RYO-9).

    Args:
        cards: cards as ints 0..51 or text (``"Qh"``).
        wild_ranks: wild ranks, as rank numbers 0..12 or characters (``"Q"``).
        low: describe the ace-to-five low instead.
        wild_duplicates, natural_beats_wild: the R-RYO-9 house options.

    Raises:
        CardError: a bad or repeated card, or no cards.
        ValueError: a bad wild rank, or wild ranks with ``low``.

    >>> hand_words(["5d", "8s", "8h", "2h", "Ad"], wild_ranks=["5"])
    'three eights, ace-deuce (wild 5d plays as 8d)'
    """
    ranks = {RANKS.index(r) if isinstance(r, str) else int(r) for r in wild_ranks}
    result: HandResult = evaluate(_cards(cards), wild_ranks=ranks, low=low,
                                  wild_duplicates=wild_duplicates,
                                  natural_beats_wild=natural_beats_wild)
    return result.description + wild_note(result.wilds)


def with_wild_note(description: str, cards: Iterable[int | str],
                   wild_ranks: Collection[int | str], options: Mapping[str, object]) -> str:
    """The engine's words for a hand (a game file's showdown, which words no wild
    card) with what each wild card plays as, when ``cards`` (the seat's cards and
    the board) evaluated with ``wild_ranks`` give those very words (R-RYO-9; issue
    33: "Bob shows Ac 2s: four sixes, ace kicker." never said the 2s played as a
    six).  Any other description (an Omaha or high-low one, no wild rank, no
    cards) is returned unchanged, as is one of more than 11 cards (C(12, 5) wild
    hands cost more than :data:`rollem.games.cost.MAX_SHOWDOWN_EVALUATIONS` to
    check: :func:`rollem.games.cost.naming_evaluations`; only a stored game file
    accepted before that bound deals so many).

    >>> with_wild_note("four sixes, ace kicker", ["Ac", "2s", "6h", "6d", "6c", "9s"],
    ...                ["2"], {})
    'four sixes, ace kicker (wild 2s plays as 6s)'
    """
    if not wild_ranks or not description:
        return description
    cards = list(cards)
    if naming_evaluations(comb(len(cards), 5), wild=True) > MAX_SHOWDOWN_EVALUATIONS:
        return description  # (a stored file over the bound: too costly to check, stop 63)
    try:
        ranks = {RANKS.index(r) if isinstance(r, str) else int(r) for r in wild_ranks}
        result = evaluate(_cards(cards), wild_ranks=ranks,
                          wild_duplicates=bool(options.get("wild_duplicates", False)),
                          natural_beats_wild=bool(options.get("natural_beats_wild", False)))
    except ValueError:  # CardError included: not a hand these words can check
        return description
    if result.description != description:
        return description
    return description + wild_note(result.wilds)


PAIRED_LOW = "paired low ({})"
"""How a low with a pair or more is named (:func:`low_words`)."""


def low_words(description: str) -> str:
    """An ace-to-five low's words (R-C-3) named as a low, for a hand declared
    low (R-521-8): an unpaired low says so already (``"seven-six low,
    four-three-deuce"``, unchanged); a hand with a pair or more is still a low
    (R-C-3 has no qualifier: every unpaired low beats it, one pair beats two
    pair) but its words are a high hand's, so it is named
    ``"paired low (pair of kings, jack-ten-eight)"`` (stop 54: "You show pair of
    kings, jack-ten-eight: it loses to ... seven-six low" read as a high hand).

    >>> low_words("pair of sixes, ten-five-deuce")
    'paired low (pair of sixes, ten-five-deuce)'
    >>> low_words("seven-six low, four-three-deuce")
    'seven-six low, four-three-deuce'
    """
    if not description or " low" in description:
        return description
    return PAIRED_LOW.format(description)


def high_low_words(cards: Iterable[int | str], side: str) -> str:
    """A high-low hand as declared (R-521-8): ``side`` ``"high"`` -> the high
    hand, ``"low"`` -> the low (:func:`low_words`: a paired low named so),
    ``"both"`` -> ``"<high> for high and <low> for low"``, or ``"<hand> for high
    and low"`` where both halves have the same words (a paired hand with no ace)."""
    cs = _cards(cards)
    if side == "high":
        return hand_words(cs)
    if side == "low":
        return low_words(hand_words(cs, low=True))
    high, low = hand_words(cs), hand_words(cs, low=True)
    return f"{high} for high and low" if high == low else f"{high} for high and {low} for low"


def half_words(description: str, side: str) -> str:
    """One half of a high-low hand as the engine words it (``"<high> for high and <low>
    for low"``, ``"<high> for high, no low"``, ``"<hand> for high and low"``):
    ``side`` ``"high"`` or ``"low"`` (``"no low"``); any other description unchanged
    (issue 26: a line about one half names only that half).

    >>> half_words("ten-high straight for high, no low", "high")
    'ten-high straight'
    >>> half_words("two pair, aces and fours, six kicker for high and six-five low, "
    ...            "four-deuce-ace for low", "low")
    'six-five low, four-deuce-ace'
    >>> half_words("pair of sixes, ten-five-deuce for high and low", "low")
    'pair of sixes, ten-five-deuce'
    """
    if description.endswith(" for high and low"):
        high = low = description[:-len(" for high and low")]
    elif " for high and " in description and description.endswith(" for low"):
        high, low = description[:-len(" for low")].split(" for high and ", 1)
    elif description.endswith(" for high, no low"):
        high, low = description[:-len(" for high, no low")], "no low"
    else:
        return description
    return high if side == "high" else low if side == "low" else description
