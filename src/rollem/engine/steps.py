"""Automatic steps: ante, deal hole cards, burn, turn up a dead card, deal the board.

Each takes no decisions; ``start`` does the work and returns ``None``.
Cards are dealt one at a time, clockwise from the dealer's left (R-C-13);
events group one seat's cards of a step into one event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rollem.engine.decisions import Pending
from rollem.engine.events import Event
from rollem.engine.step import Step

if TYPE_CHECKING:
    from rollem.engine.hand import Hand

__all__ = ["Ante", "Burn", "DealBoard", "DealHole", "TurnDead"]


class Ante(Step):
    """Every dealt-in player posts the ante; a short stack posts all and is all-in (R-C-5)."""

    name = "ante"

    def __init__(self, ante: int) -> None:
        self.ante = ante

    def start(self, hand: Hand) -> Pending | None:
        if self.ante <= 0:
            return None
        stacks, committed = hand.stacks, hand.committed
        for s in hand.live_from_left():
            amount = self.ante if self.ante < stacks[s] else stacks[s]
            stacks[s] -= amount
            committed[s] += amount
            hand.events.append(Event("ante", s, {"amount": amount, "all_in": stacks[s] == 0}))
        return None


class DealHole(Step):
    """Deal ``count`` cards to each player still in the hand, one at a time,
    clockwise from the dealer's left; face down unless ``face_up``."""

    name = "deal"

    def __init__(self, count: int, face_up: bool = False) -> None:
        self.count = count
        self.face_up = face_up

    def start(self, hand: Hand) -> Pending | None:
        seats = hand.live_from_left()
        got: dict[int, list[int]] = {s: [] for s in seats}
        for _ in range(self.count):
            for s in seats:
                c = hand.deal_card("hole", s)
                hand.hole[s].append(c)
                hand.up[s].append(self.face_up)
                got[s].append(c)
        for s in seats:
            if self.face_up:
                hand.events.append(Event("deal_up", s, {"cards": got[s]}))
            else:
                hand.events.append(Event("deal_hole", s, {"cards": got[s]}, frozenset((s,)),
                                         {"count": self.count}))
        return None


class Burn(Step):
    """Burn one card face down (nobody sees it)."""

    name = "burn"

    def start(self, hand: Hand) -> Pending | None:
        c = hand.deal_card("burn")
        hand.burned.append(c)
        hand.events.append(Event("burn", None, {"card": c}, frozenset(), {}))
        return None


class TurnDead(Step):
    """Turn up a dead card, shown to all and part of no hand (R-SDR-3, R-SDR-4).

    ``label`` names it (``"stop"``, ``"drop"``).
    """

    def __init__(self, label: str) -> None:
        self.name = label

    def start(self, hand: Hand) -> Pending | None:
        c = hand.deal_card("dead")
        hand.dead.append(c)
        hand.events.append(Event("dead", None, {"card": c, "label": self.name}))
        return None


class DealBoard(Step):
    """Deal ``count`` community cards face up (R-SDR-5 the Roll)."""

    def __init__(self, count: int, label: str = "board") -> None:
        self.count = count
        self.name = label

    def start(self, hand: Hand) -> Pending | None:
        cards = [hand.deal_card("board") for _ in range(self.count)]
        hand.board.extend(cards)
        hand.events.append(Event("board", None, {"cards": cards, "label": self.name}))
        return None
