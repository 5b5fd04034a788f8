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
middle of a deal, so a :class:`ChanceHand` is run from a :class:`Script`, the
chance outcomes so far. When the engine asks for a card beyond them, the
script *probes*: it hands out a stand-in (the lowest card allowed) and
records what was asked (the card set allowed, and which deal or shuffle it
belongs to), and the engine runs on to the next decision. The probed events
are the chance nodes up to that decision; the stand-ins are never shown to
anyone: the hand that used them is thrown away and, once every outcome of the
batch is known, the hand is replayed with the real ones. So a batch of ``k``
cards costs one replay, not ``k``. This relies on the engine dealing the same
number of cards, from the same sets, whatever the cards are, between two
decisions (true of every step: deals and shuffles depend on counts and on
earlier decisions only); a replay that disagrees raises :class:`EngineError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rollem.cards import CARDS, Card
from rollem.engine.declare import DeclareShowdown
from rollem.engine.errors import EngineError
from rollem.engine.game import Game
from rollem.engine.hand import Hand
from rollem.engine.options import Options
from rollem.engine.randomness import RandomSource
from rollem.engine.showdown import PotShowdown

__all__ = ["GROUPED_KINDS", "ChanceHand", "NeedChance", "Probe", "Script", "batch_outcomes",
           "deal_groups"]


@dataclass(frozen=True)
class NeedChance:
    """The chance event a hand waits for.

    Attributes:
        label: ``"deal"`` (a card off the stub), ``"pool"`` or ``"reshuffle"``.
        outcomes: the cards that may come next, each equally likely (sorted).
    """

    label: str
    outcomes: tuple[int, ...]


@dataclass(frozen=True)
class Probe:
    """One chance event met beyond the script: ``group`` (``"deal"`` or the
    shuffle's number), ``label``, the cards ``allowed`` then, and the
    ``stand_in`` handed out; for a card off the stub, ``kind`` and ``seat``
    (as :meth:`Hand.deal_card` names them) and ``step`` (the hand's step
    index), which say where it goes (:func:`deal_groups`)."""

    group: object
    label: str
    allowed: tuple[int, ...]
    stand_in: int
    kind: str = ""
    seat: int | None = None
    step: int = -1


@dataclass
class Script:
    """The chance outcomes a run feeds in, in order (``pos`` = next one), and
    the events probed beyond them (:attr:`probed`)."""

    cards: list[int]
    pos: int = 0
    probed: list[Probe] = field(default_factory=list)

    def take(self, label: str, allowed: Sequence[int], group: object, kind: str = "",
             seat: int | None = None, step: int = -1) -> Card:
        """The next outcome, which must be in ``allowed``; beyond the script,
        a stand-in, recorded in :attr:`probed` (with ``kind``, ``seat`` and
        ``step`` of a card off the stub).

        Raises:
            EngineError: the next outcome is not in ``allowed``.
        """
        if self.pos >= len(self.cards):
            choices = tuple(sorted(allowed))
            self.probed.append(Probe(group, label, choices, choices[0], kind, seat, step))
            return CARDS[choices[0]]
        card = self.cards[self.pos]
        if card not in allowed:
            raise EngineError(f"chance outcome {self.pos} is card {card}, which cannot come "
                              f"now ({label}); allowed: {sorted(allowed)}")
        self.pos += 1
        return CARDS[card]


def batch_outcomes(batch: Sequence[Probe], chosen: Sequence[int]) -> NeedChance:
    """The event after ``chosen`` (the real outcomes of the batch's first
    events): its cards are those the probe allowed, less the real cards taken
    earlier in the same deal or shuffle, plus the stand-ins handed out there."""
    j = len(chosen)
    event = batch[j]
    allowed = set(event.allowed)
    for i in range(j):
        if batch[i].group == event.group:
            allowed.add(batch[i].stand_in)
    for i in range(j):
        if batch[i].group == event.group:
            allowed.discard(chosen[i])
    return NeedChance(event.label, tuple(sorted(allowed)))


GROUPED_KINDS = frozenset(("hole", "board", "dead", "burn"))
"""The kinds of card off the stub that :func:`deal_groups` groups (a draw's
replacements stay one card a node)."""


def deal_groups(batch: Sequence[Probe]) -> list[list[int]]:
    """The chance nodes of ``batch`` when the cards of one deal go out together
    (``chance="hand"``, :mod:`rollem.rl.state`): the indices of its events,
    grouped, in the order of each group's first event.

    The cards a step deals to one seat (or to the board, or as dead cards or
    burns) form one group: one outcome is the set of those cards, each set
    equally likely. Dealing them one at a time, round the table, gives every
    seat's set with the same probabilities (the cards of a deck in random
    order are exchangeable), and the order of a seat's cards within one step
    tells nobody anything, so the game is the same. Every other event (a
    draw's card, a position of a pool shuffle or reshuffle) is a group of its own.
    """
    groups: list[list[int]] = []
    where: dict[tuple[object, ...], int] = {}
    for i, probe in enumerate(batch):
        if probe.group == "deal" and probe.kind in GROUPED_KINDS:
            key: tuple[object, ...] = (probe.step, probe.kind, probe.seat)
            j = where.get(key)
            if j is not None:
                groups[j].append(i)
                continue
            where[key] = len(groups)
        groups.append([i])
    return groups


class _ScriptSource(RandomSource):
    """Pool shuffles and reshuffles from the script, one position at a time.

    The deck shuffle at the start keeps the cards in order: ``ChanceHand``
    decides each stub card as it is dealt. A reduced ``deck`` (card numbers)
    leaves the other cards out of the hand."""

    def __init__(self, script: Script, deck: Sequence[int] | None = None) -> None:
        super().__init__()
        self.script = script
        self.deck = deck
        self.hand: ChanceHand | None = None
        self.shuffles = 0

    def _shuffle(self, label: str, cards: Sequence[int]) -> list[Card]:
        if label == "deck":
            if self.deck is not None:
                return [CARDS[c] for c in sorted(self.deck)]
            return [CARDS[c] for c in cards]
        left = [int(c) for c in cards]
        out: list[Card] = []
        self.shuffles += 1
        while len(left) > 1:
            card = self.script.take(label, left, self.shuffles)
            left.remove(card)
            out.append(card)
        out.extend(CARDS[c] for c in left)
        if label == "reshuffle" and self.hand is not None:
            self.hand.stub_known = True  # the whole new stub came from chance outcomes
        return out


class ChanceHand(Hand):
    """A :class:`Hand` that takes each stub card from a :class:`Script`.

    Args are those of :class:`Hand` (without ``source``/``preset``) plus
    ``script`` and ``deck``, the card numbers of a reduced deck (``None``: all
    52). When the engine deals beyond the script (from the
    constructor or :meth:`apply`), ``script.probed`` is not empty and the
    hand holds stand-ins: it must not be shown; replay it once the real
    outcomes are known.

    ``deck[:deck_pos]`` always holds the cards dealt off the stub, in order,
    and ``deck[deck_pos:]`` the cards not dealt (in card order until a
    reshuffle; after one, the stub's order is itself decided by chance,
    ``stub_known``).
    """

    def __init__(self, game: Game | str, stacks: Sequence[int], *, button: int,
                 options: Options, script: Script, deck: Sequence[int] | None = None) -> None:
        self.script = script
        self.stub_known = False
        source = _ScriptSource(script, deck)
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
        card = self.script.take("deal", deck[pos:], "deal", kind, seat, self.step_index)
        i = deck.index(card, pos)
        deck[pos], deck[i] = deck[i], deck[pos]
        self.deck_pos = pos + 1
        return card

    def _advance(self) -> None:
        """As :meth:`Hand._advance`, but a run holding stand-ins stops at the
        showdown (no card is dealt after it; the run is thrown away, so its
        hands need not be evaluated): it ends with an empty result."""
        steps = self.steps
        while self.pending is None and self.result is None:
            i = self.step_index
            if self.script.probed and i < len(steps) \
                    and isinstance(steps[i], PotShowdown | DeclareShowdown):
                self.finish([], showdown=False)
                return
            if i >= len(steps):
                raise EngineError(f"{self.game.name} ran out of steps without a showdown")
            if self.options.run_twice:  # off in rollem.rl (load_setup); kept as the engine
                from rollem.engine.runtwice import maybe_offer

                maybe_offer(self)
            p = steps[i].start(self)
            if p is None:
                self.step_index += 1
            else:
                p.hand = self
                self.pending = p
