"""Hand categories (R-C-2), lowest first, with the names CLI.md uses."""

from __future__ import annotations

from enum import IntEnum

__all__ = ["Category"]

_LABELS = (
    "high card",
    "one pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
    "five of a kind",
)


class Category(IntEnum):
    """A poker hand category; a greater member is a better high hand (R-C-2).

    ``FIVE_OF_A_KIND`` is only possible with wild cards (R-RYO-9).
    """

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    FIVE_OF_A_KIND = 9

    @property
    def label(self) -> str:
        """The category's name as CLI.md writes it, e.g. ``"straight flush"``."""
        return _LABELS[self.value]
