"""Fixed wild ranks (deuces wild): :class:`FixedWild` sets ``hand.wild_ranks``.

Wild cards then count in the showing hands that open betting rounds
(R-C-8) and at a showdown built with ``wild=True`` (the wild evaluation,
house options ``wild_duplicates`` and ``natural_beats_wild``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rollem.cards import RANKS
from rollem.engine.decisions import Pending
from rollem.engine.events import Event
from rollem.engine.step import Step

if TYPE_CHECKING:
    from rollem.engine.hand import Hand

__all__ = ["FixedWild"]


class FixedWild(Step):
    """Make ``ranks`` (rank numbers 0..12, deuce = 0) wild for the whole hand."""

    name = "wild ranks"

    def __init__(self, ranks: tuple[int, ...]) -> None:
        self.ranks = ranks

    def start(self, hand: Hand) -> Pending | None:
        hand.wild_ranks = tuple(sorted(set(hand.wild_ranks) | set(self.ranks)))
        hand.events.append(Event("wild_ranks", None,
                                 {"ranks": [RANKS[r] for r in hand.wild_ranks]}))
        return None
