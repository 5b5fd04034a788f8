"""The step protocol: a game is a list of steps the :class:`Hand` runs in order.

A step is an object with three methods (subclass :class:`Step`):

- ``start(hand) -> Pending | None``: called once when the hand reaches the
  step. Do the automatic part (deal, burn, post antes ...) by mutating the
  hand and appending events. Return ``None`` when the step is complete, or a
  :class:`Pending` naming the seat(s) that must decide.
- ``legal(hand, seat) -> Legal``: what ``seat`` may do now.
- ``act(hand, seat, action) -> Pending | None``: apply one seat's action.
  Validate *first* and raise :class:`IllegalAction` before changing
  anything; then mutate, append events, and return the next
  :class:`Pending` or ``None`` when the step is complete.

Steps are built fresh for every hand (``Game.build(options)``), so a step may
keep its own per-hand state on ``self``. All-at-once decisions subclass
:class:`rollem.engine.simultaneous.AllAtOnceStep`, which handles hiding and
revealing; betting rounds are :class:`rollem.engine.betting.BettingRound`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rollem.engine.decisions import Legal, Pending
from rollem.engine.errors import IllegalAction

if TYPE_CHECKING:
    from rollem.engine.hand import Hand

__all__ = ["Step"]


class Step:
    """Base class of a step. ``name`` labels it in events and errors."""

    name: str = "step"

    def start(self, hand: Hand) -> Pending | None:
        """Run the automatic part; return the first pending decision or ``None``."""
        return None

    def legal(self, hand: Hand, seat: int) -> Legal:
        """What ``seat`` may do now (default: nothing)."""
        return Legal(kind=self.name)

    def act(self, hand: Hand, seat: int, action: object) -> Pending | None:
        """Apply ``action`` by ``seat`` (default: refuse; automatic steps take no actions)."""
        raise IllegalAction(f"seat {seat} cannot act during {self.name}: nothing to decide")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
