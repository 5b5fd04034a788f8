"""Stacking and rolling up (R-521-6, R-521-7).

- :class:`StackOrder`: all at once, every player still in the hand (all-in
  players included, R-C-14) puts their down cards in the order they will
  show them, top first (:class:`rollem.engine.actions.Stack`). The order is
  hidden from everybody else and fixed once chosen; on resolve each seat's
  ``hand.hole[seat]`` is put in that order (still face down), and a
  ``stacked`` event tells the seat its order (others only learn that it
  stacked).
- :class:`RollUp`: every player still in the hand turns up the top card of
  their stack (the first of their cards still face down) at the same time:
  public ``roll`` events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rollem.cards import format_cards
from rollem.engine.actions import Stack, action_words
from rollem.engine.decisions import Legal, Pending
from rollem.engine.draw import held_in_places
from rollem.engine.errors import IllegalAction
from rollem.engine.events import Event
from rollem.engine.simultaneous import AllAtOnceStep
from rollem.engine.step import Step

if TYPE_CHECKING:
    from rollem.engine.hand import Hand

__all__ = ["RollUp", "StackOrder"]


class StackOrder(AllAtOnceStep):
    """All at once, each seat fixes the order its cards will be rolled up (R-521-6)."""

    name = "stack"
    kind = "stack"

    def legal_for(self, hand: Hand, seat: int) -> Legal:
        """Stack all of ``seat``'s cards; ``cards`` lists them in the places they
        were dealt (:func:`~rollem.engine.draw.held_in_places`), the order a
        player who keeps "this order" keeps: ``hand.hole`` holds a draw's
        replacements last, so keeping that order told the table, as the cards
        roll up, which cards were drawn (stop 74)."""
        n = len(hand.hole[seat])
        return Legal(kind=self.kind, actions=("stack",), cards=held_in_places(hand, seat),
                     min_count=n, max_count=n)

    def check(self, hand: Hand, seat: int, action: object) -> None:
        held = hand.hole[seat]
        if not isinstance(action, Stack) or sorted(action.order) != sorted(held) \
                or any(hand.up[seat]):
            raise IllegalAction(
                f"seat {seat} must stack all its cards: Stack(order) with every one of "
                f"{format_cards(held)} once, top first; got {action_words(action)}"
            )

    def resolve(self, hand: Hand, choices: dict[int, object]) -> None:
        for seat, action in choices.items():
            assert isinstance(action, Stack)
            hand.hole[seat] = list(action.order)
            hand.up[seat] = [False] * len(action.order)
        for seat in self.seats(hand):
            action = choices[seat]
            assert isinstance(action, Stack)
            hand.events.append(Event("stacked", seat, {"cards": list(action.order)},
                                     frozenset((seat,)), {}))


class RollUp(Step):
    """All players still in the hand turn up their top down card together (R-521-7).

    Args:
        name: label (``"roll 1"``).
    """

    def __init__(self, name: str = "roll") -> None:
        self.name = name

    def start(self, hand: Hand) -> Pending | None:
        for seat in hand.live_from_left():
            up = hand.up[seat]
            for i, u in enumerate(up):
                if not u:
                    up[i] = True
                    hand.events.append(Event("roll", seat, {"card": hand.hole[seat][i],
                                                            "label": self.name}))
                    break
        return None
