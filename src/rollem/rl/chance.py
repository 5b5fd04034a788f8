"""A hand whose random outcomes are explicit chance events, one card at a time (issue 30).

OpenSpiel and the research tools built on it want every random event as a
chance node with its outcomes and their probabilities. The engine shuffles
the whole deck when a hand starts (R-C-13); here the deck is instead decided
card by card, at the moment the engine deals it:

- every card taken off the stub (hole card, board card, burn, dead card,
  replacement in a draw) is one chance event: any card not yet dealt, each
  with probability ``1 / cards left``;
- a pool shuffle (R-RYO-2, label ``"pool"``) and a reshuffle of the
  discards (R-521-5, label ``"reshuffle"``) of ``m`` cards are ``m - 1``
  chance events, one per position from the top: any card of the shuffled set
  not yet placed, uniformly; the last card is then known.

Outcomes are card numbers (0..51, :data:`rollem.cards.CARDS`). Dealing a
uniformly random card each time is the same distribution as shuffling the
deck first, so the game is unchanged.

The engine runs a hand from start to end in one go and cannot pause in the
middle of a deal, so :class:`ChanceHand` replays: it is built from the list of
chance outcomes and of decisions so far; when the engine asks for a card no
outcome was given for, :class:`NeedChance` stops the run and says which
outcomes may come next. Adding that outcome and replaying continues the hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rollem.cards import CARDS, Card
from rollem.engine.errors import EngineError
from rollem.engine.game import Game
from rollem.engine.hand import Hand
from rollem.engine.options import Options
from rollem.engine.randomness import RandomSource

__all__ = ["ChanceHand", "NeedChance", "Script"]


class NeedChance(Exception):
    """The hand needs a chance outcome it was not given.

    Attributes:
        label: ``"deal"`` (a card off the stub), ``"pool"`` or ``"reshuffle"``.
        outcomes: the cards that may come next, each equally likely (sorted).
    """

    def __init__(self, label: str, outcomes: Sequence[int]) -> None:
        super().__init__(label)
        self.label = label
        self.outcomes = tuple(sorted(outcomes))


@dataclass
class Script:
    """The chance outcomes a replay feeds in, in order (``pos`` = next one)."""

    cards: list[int]
    pos: int = 0

    def take(self, label: str, allowed: Sequence[int]) -> Card:
        """The next outcome, which must be in ``allowed``.

        Raises:
            NeedChance: no outcome left: ``allowed`` may come next.
            EngineError: the next outcome is not in ``allowed``.
        """
        if self.pos >= len(self.cards):
            raise NeedChance(label, allowed)
        card = self.cards[self.pos]
        if card not in allowed:
            raise EngineError(f"chance outcome {self.pos} is card {card}, which cannot come "
                              f"now ({label}); allowed: {sorted(allowed)}")
        self.pos += 1
        return CARDS[card]


class _ScriptSource(RandomSource):
    """Pool shuffles and reshuffles from the script, one position at a time.

    The deck shuffle at the start keeps the cards in order: ``ChanceHand``
    decides each stub card as it is dealt."""

    def __init__(self, script: Script) -> None:
        super().__init__()
        self.script = script
        self.hand: ChanceHand | None = None

    def _shuffle(self, label: str, cards: Sequence[int]) -> list[Card]:
        if label == "deck":
            return [CARDS[c] for c in cards]
        left = [int(c) for c in cards]
        out: list[Card] = []
        while len(left) > 1:
            card = self.script.take(label, left)
            left.remove(card)
            out.append(card)
        out.extend(CARDS[c] for c in left)
        if label == "reshuffle" and self.hand is not None:
            self.hand.stub_known = True  # the whole new stub came from chance outcomes
        return out


class ChanceHand(Hand):
    """A :class:`Hand` that takes each stub card from a :class:`Script`.

    Args are those of :class:`Hand` (without ``source``/``preset``) plus
    ``script``. Construction raises :class:`NeedChance` when the first
    decision needs cards the script does not hold (and so may
    :meth:`apply`); the object is then unusable: replay with one more outcome.

    ``deck[:deck_pos]`` always holds the cards dealt off the stub, in order,
    and ``deck[deck_pos:]`` the cards not dealt (in card order until a
    reshuffle; after one, the stub's order is itself decided by chance,
    ``stub_known``).
    """

    def __init__(self, game: Game | str, stacks: Sequence[int], *, button: int,
                 options: Options, script: Script) -> None:
        self.script = script
        self.stub_known = False
        source = _ScriptSource(script)
        source.hand = self
        super().__init__(game, stacks, button=button, options=options, source=source)

    def deal_card(self, kind: str, seat: int | None = None) -> Card:
        """The next stub card: a chance outcome among the cards not yet dealt."""
        if self.stub_known:
            return super().deal_card(kind, seat)
        pos = self.deck_pos
        deck = self.deck
        if pos >= len(deck):
            raise EngineError("the stub is empty")
        card = self.script.take("deal", deck[pos:])
        i = deck.index(card, pos)
        deck[pos], deck[i] = deck[i], deck[pos]
        self.deck_pos = pos + 1
        return card
