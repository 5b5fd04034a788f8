"""All-at-once decisions: every seat chooses hidden, then all are revealed together.

Subclass :class:`AllAtOnceStep` and implement:

- ``seats(hand)``: who chooses (default: every seat still in the hand,
  all-in ones included, R-C-14);
- ``legal_for(hand, seat) -> Legal``;
- ``check(hand, seat, action)``: raise :class:`IllegalAction` if not allowed
  (must not change anything);
- ``resolve(hand, choices)``: called once when every seat has chosen, with
  ``{seat: action}``; apply them all and append the reveal events (with
  whatever visibility the game needs: an exposed card is public, a discard
  to the pool stays visible only to its owner).

While choosing, the hand's log gets a public ``chose`` event (only *that*
the seat has chosen) and an event visible only to the chooser with its
choice; the choice itself is kept on the step, never in a view of another
seat. A seat may not change its choice once made.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rollem.engine.actions import Expose, action_to_text, action_words
from rollem.engine.decisions import Legal, Pending
from rollem.engine.errors import IllegalAction
from rollem.engine.events import Event
from rollem.engine.step import Step

if TYPE_CHECKING:
    from rollem.engine.hand import Hand

__all__ = ["AllAtOnceStep", "ExposeOne"]


class AllAtOnceStep(Step):
    """Base class of an all-at-once decision (see the module doc)."""

    name = "all-at-once"
    kind = "choose"

    def __init__(self) -> None:
        self.choices: dict[int, object] = {}
        self.waiting: tuple[int, ...] = ()

    def seats(self, hand: Hand) -> list[int]:
        """Seats that must choose (default: all still in the hand, from the dealer's left)."""
        return hand.live_from_left()

    def legal_for(self, hand: Hand, seat: int) -> Legal:
        """What ``seat`` may choose."""
        raise NotImplementedError

    def check(self, hand: Hand, seat: int, action: object) -> None:
        """Raise :class:`IllegalAction` if ``action`` is not allowed for ``seat``."""
        raise NotImplementedError

    def resolve(self, hand: Hand, choices: dict[int, object]) -> None:
        """Apply every seat's choice at once and append the reveal events."""
        raise NotImplementedError

    def start(self, hand: Hand) -> Pending | None:
        self.choices = {}
        self.waiting = tuple(self.seats(hand))
        if not self.waiting:
            return None
        hand.events.append(Event("choose", None, {"step": self.name, "seats": list(self.waiting)}))
        return Pending(self.kind, self.waiting, simultaneous=True)

    def legal(self, hand: Hand, seat: int) -> Legal:
        if seat not in self.waiting:
            return Legal(kind=self.kind)
        return self.legal_for(hand, seat)

    def act(self, hand: Hand, seat: int, action: object) -> Pending | None:
        self.check(hand, seat, action)
        self.choices[seat] = action
        self.waiting = tuple(s for s in self.waiting if s != seat)
        hand.events.append(
            Event("chose", seat, {"step": self.name, "action": action_to_text(action)},
                  frozenset((seat,)), {"step": self.name})
        )
        if self.waiting:
            return Pending(self.kind, self.waiting, simultaneous=True)
        self.resolve(hand, self.choices)
        return None


class ExposeOne(AllAtOnceStep):
    """All at once, each seat turns one of its down cards face up (R-RYO-3, R-RYO-5)."""

    name = "expose"
    kind = "expose"

    def _down(self, hand: Hand, seat: int) -> tuple[int, ...]:
        return tuple(c for c, u in zip(hand.hole[seat], hand.up[seat], strict=True) if not u)

    def legal_for(self, hand: Hand, seat: int) -> Legal:
        return Legal(kind="expose", actions=("expose",), cards=self._down(hand, seat),  # type: ignore[arg-type]
                     min_count=1, max_count=1)

    def check(self, hand: Hand, seat: int, action: object) -> None:
        down = self._down(hand, seat)
        if not isinstance(action, Expose) or action.card not in down:
            from rollem.cards import format_cards

            raise IllegalAction(
                f"seat {seat} must expose one of its down cards: Expose(card) with card in "
                f"{format_cards(down)}; got {action_words(action)}"
            )

    def resolve(self, hand: Hand, choices: dict[int, object]) -> None:
        for seat, action in choices.items():
            assert isinstance(action, Expose)
            i = hand.hole[seat].index(action.card)
            hand.up[seat][i] = True
        for seat in self.seats(hand):
            action = choices[seat]
            assert isinstance(action, Expose)
            hand.events.append(Event("expose", seat, {"card": action.card}))
