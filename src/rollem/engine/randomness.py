"""The random source: every random outcome of a hand goes through here (R-C-13).

A hand asks its source for each shuffle (``label`` says which: ``"deck"``,
``"pool"``, ``"reshuffle"``) and the source returns the cards in their new
order, recording ``(label, order)`` in :attr:`RandomSource.outcomes`. On
replay, :class:`ReplaySource` feeds recorded outcomes back in the same order,
checking that each is a permutation of the cards asked about.

- :class:`SecureSource`: real play, shuffles with :mod:`secrets`.
- :class:`SeededSource`: simulations, tests, practice games, a seeded
  :class:`random.Random`.
- :class:`ReplaySource`: recorded outcomes (hand histories).
- :class:`rollem.engine.commit_reveal.CommittedSource`: a committed deck
  that every player can check after the hand (issue 32).

A source's :attr:`~RandomSource.proof` is the hand's
:class:`~rollem.engine.commit_reveal.DealProof` where its shuffles come from
a committed deck (the history writes its fields), else ``None``.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from random import Random
from typing import TYPE_CHECKING

from rollem.cards import CARDS, Card
from rollem.engine.errors import EngineError

if TYPE_CHECKING:
    from rollem.engine.commit_reveal import DealProof

__all__ = ["RandomSource", "ReplaySource", "SecureSource", "SeededSource"]


class RandomSource:
    """Base class: subclasses implement :meth:`_shuffle`; outcomes are recorded here."""

    def __init__(self) -> None:
        self.outcomes: list[tuple[str, tuple[Card, ...]]] = []
        self.proof: DealProof | None = None

    def shuffle(self, label: str, cards: Sequence[int]) -> list[Card]:
        """Return ``cards`` in a random order and record it under ``label``."""
        order = self._shuffle(label, cards)
        self.outcomes.append((label, tuple(order)))
        return order

    def _shuffle(self, label: str, cards: Sequence[int]) -> list[Card]:
        raise NotImplementedError


class SecureSource(RandomSource):
    """Cryptographically secure shuffles for real play (R-C-13)."""

    def _shuffle(self, label: str, cards: Sequence[int]) -> list[Card]:
        out = [CARDS[c] for c in cards]
        for i in range(len(out) - 1, 0, -1):
            j = secrets.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


class SeededSource(RandomSource):
    """Reproducible shuffles from a seed or a given :class:`random.Random`."""

    def __init__(self, seed: int | Random | None = None) -> None:
        super().__init__()
        self.rng = seed if isinstance(seed, Random) else Random(seed)

    def _shuffle(self, label: str, cards: Sequence[int]) -> list[Card]:
        out = [CARDS[c] for c in cards]
        self.rng.shuffle(out)
        return out


class ReplaySource(RandomSource):
    """Feeds back recorded outcomes, in order.

    Raises:
        EngineError: when the hand asks for more shuffles than recorded, for a
            different label, or the recorded order is not a permutation of
            the cards being shuffled.
    """

    def __init__(self, recorded: Sequence[tuple[str, Sequence[int]]]) -> None:
        super().__init__()
        self._recorded = [(label, [CARDS[c] for c in order]) for label, order in recorded]
        self._next = 0

    def _shuffle(self, label: str, cards: Sequence[int]) -> list[Card]:
        if self._next >= len(self._recorded):
            raise EngineError(
                f"the hand needs a {label!r} shuffle but only {len(self._recorded)} "
                "random outcomes were recorded"
            )
        rec_label, order = self._recorded[self._next]
        self._next += 1
        if rec_label != label:
            raise EngineError(f"recorded outcome {self._next} is a {rec_label!r} shuffle; "
                              f"the hand needs a {label!r} shuffle here")
        if sorted(order) != sorted(cards):
            raise EngineError(
                f"recorded {label!r} order is not a permutation of the {len(cards)} cards "
                "being shuffled"
            )
        return list(order)

    @property
    def unused(self) -> int:
        """Recorded outcomes not asked for (0 after a faithful replay)."""
        return len(self._recorded) - self._next
