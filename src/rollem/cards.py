"""Cards and card text (R-C-1).

A card is a :class:`Card`, an ``int`` from 0 to 51 laid out rank-major:
``card = rank * 4 + suit`` where ``rank`` is 0 for a deuce up to 12 for an
ace and ``suit`` is 0..3 for clubs, diamonds, hearts, spades.  Being an
``int`` keeps cards cheap to store, hash, compare and put in numpy arrays.

Card text is the rank ``2..9 T J Q K A`` then the suit ``c d h s``
(``"Qh"``, ``"Tc"``).  Input also accepts ``10`` for ten, either case and the
suit symbols ``♣♦♥♠``; output always uses the short form.

>>> parse_cards("Qs 10d kc")
[Qs, Td, Kc]
>>> format_cards(parse_cards("A♠ 2♥"))
'As 2h'
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable, Sequence
from random import Random

__all__ = [
    "CARDS",
    "RANKS",
    "RANK_NAMES",
    "SUITS",
    "Card",
    "CardError",
    "format_cards",
    "parse_card",
    "parse_cards",
    "parse_rank",
    "shuffled_deck",
]

RANKS = "23456789TJQKA"
"""Rank characters, index = rank number (0 = deuce, 12 = ace)."""
SUITS = "cdhs"
"""Suit characters, index = suit number (clubs, diamonds, hearts, spades)."""
SUIT_SYMBOLS = "♣♦♥♠"
RANK_NAMES = (
    "two", "three", "four", "five", "six", "seven", "eight",
    "nine", "ten", "jack", "queen", "king", "ace",
)  # fmt: skip
RANK_PLURALS = (
    "twos", "threes", "fours", "fives", "sixes", "sevens", "eights",
    "nines", "tens", "jacks", "queens", "kings", "aces",
)  # fmt: skip


class CardError(ValueError):
    """Card text that cannot be read, or a card used twice (R-C-1).

    The message names the offending token and what is allowed.
    """


class Card(int):
    """One playing card; an ``int`` 0..51 (``rank * 4 + suit``).

    Use :data:`CARDS` or :func:`parse_card` rather than the constructor.
    """

    __slots__ = ()

    @property
    def rank(self) -> int:
        """Rank number, 0 (deuce) to 12 (ace)."""
        return int(self) >> 2

    @property
    def suit(self) -> int:
        """Suit number, 0..3 for clubs, diamonds, hearts, spades."""
        return int(self) & 3

    def __str__(self) -> str:
        return RANKS[int(self) >> 2] + SUITS[int(self) & 3]

    __repr__ = __str__

    @property
    def symbol(self) -> str:
        """The card with its suit symbol, e.g. ``Q♥``."""
        return RANKS[self.rank] + SUIT_SYMBOLS[self.suit]


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(52))
"""All 52 cards, indexed by their number."""

_RANK_INPUT = {ch: i for i, ch in enumerate(RANKS)} | {
    ch.lower(): i for i, ch in enumerate(RANKS)
}
_RANK_INPUT["10"] = 8
_SUIT_INPUT = {ch: i for i, ch in enumerate(SUITS)} | {
    ch.upper(): i for i, ch in enumerate(SUITS)
}
_SUIT_INPUT.update({ch: i for i, ch in enumerate(SUIT_SYMBOLS)})
_SUIT_INPUT.update({"♧": 0, "♢": 1, "♡": 2, "♤": 3})
_ALLOWED = "rank 2-9, T (or 10), J, Q, K, A then suit c, d, h, s (or ♣ ♦ ♥ ♠), e.g. Qh, 10c"


def parse_rank(text: str) -> int:
    """Parse a rank character (``"Q"``, ``"t"``, ``"10"``) into 0..12.

    Raises:
        CardError: if ``text`` is not a rank.
    """
    rank = _RANK_INPUT.get(text.strip())
    if rank is None:
        raise CardError(f"bad rank {text!r}: expected one of 2-9, T (or 10), J, Q, K, A")
    return rank


def parse_card(token: str) -> Card:
    """Parse one card's text, e.g. ``"Qh"``, ``"10c"``, ``"a♠"`` (R-C-1).

    Raises:
        CardError: naming ``token`` if it is not a card.
    """
    card = _BY_TEXT.get(token) if isinstance(token, str) else None
    if card is not None:  # a card's own text (``Qs``), as histories and views write it
        return card
    text = _plain_suits(token.strip())
    rank = _RANK_INPUT.get(text[:-1]) if len(text) >= 2 else None
    suit = _SUIT_INPUT.get(text[-1:]) if text else None
    if rank is None or suit is None:
        raise CardError(f"bad card {token!r}: expected {_ALLOWED}")
    return CARDS[rank * 4 + suit]


_BY_TEXT: dict[str, Card] = {str(c): c for c in CARDS}
"""A card's own text -> the card (what :func:`parse_card` gives for it)."""

_SPLIT = re.compile(r"[\s,]+")

_VARIATION_SELECTORS = dict.fromkeys(map(ord, "\ufe0e\ufe0f"))
"""Text and emoji presentation selectors, which phone keyboards add after a
suit symbol (``T♥️`` is ``T``, ``♥``, U+FE0F): not part of the card."""


def _plain_suits(text: str) -> str:
    return text.translate(_VARIATION_SELECTORS)


def parse_cards(text: str | Iterable[str], *, allow_duplicates: bool = False) -> list[Card]:
    """Parse a list of cards: one string (``"Qs Qd Kc"``, commas allowed,
    also run together as ``"QsQdKc"``) or several strings.

    Returns:
        The cards in the order given.

    Raises:
        CardError: naming the bad token, or the card given twice (R-C-1).
    """
    parts = [text] if isinstance(text, str) else list(text)
    tokens: list[str] = []
    for part in parts:
        for chunk in _SPLIT.split(_plain_suits(part).strip()):
            if chunk:
                tokens.extend(_split_run(chunk))
    cards = [parse_card(t) for t in tokens]
    if not allow_duplicates:
        seen: set[int] = set()
        for token, card in zip(tokens, cards, strict=True):
            if card in seen:
                raise CardError(f"card {card} given twice ({token!r}); each card exists once")
            seen.add(card)
    return cards


def _split_run(chunk: str) -> list[str]:
    """Split ``"QsQd10c"`` into ``["Qs", "Qd", "10c"]``.

    A chunk that does not split cleanly into cards is returned whole, so the
    error message quotes exactly what the user typed.
    """
    out: list[str] = []
    i = 0
    while i < len(chunk):
        step = 3 if chunk.startswith("10", i) else 2
        piece = chunk[i : i + step]
        try:
            parse_card(piece)
        except CardError:
            return [chunk]
        out.append(piece)
        i += step
    return out


def format_cards(cards: Iterable[int]) -> str:
    """Format cards as space-separated short text, e.g. ``"Qs Qd Kc"``."""
    return " ".join(str(CARDS[c]) for c in cards)


def shuffled_deck(rng: Random | None = None) -> list[Card]:
    """A shuffled 52-card deck (R-C-13).

    With ``rng`` None the shuffle uses :mod:`secrets` (a cryptographically
    secure source) for real play; pass a seeded :class:`random.Random` for
    simulations, tests and reproducible practice games.
    """
    deck = list(CARDS)
    if rng is None:
        for i in range(len(deck) - 1, 0, -1):
            j = secrets.randbelow(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
    else:
        rng.shuffle(deck)
    return deck


def check_distinct(cards: Sequence[int]) -> None:
    """Raise :class:`CardError` if any card appears twice (R-C-1)."""
    seen: set[int] = set()
    for c in cards:
        if c in seen:
            raise CardError(f"card {CARDS[c]} appears twice; each card exists once")
        seen.add(c)
