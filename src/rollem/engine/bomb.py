"""Bomb pots (issue 27; RULES.md has no rule): every player dealt in antes the
same amount, replacing the game's forced bets, and the first betting round is
not played, so the next cards (a flop, the Stop) come at once.

- :class:`BombPotAnte` (a step, where the game's first forced bet was): each
  player dealt in posts ``amount`` chips; a short stack posts all it has and is
  all-in (side pots as usual, R-C-10). Its ``ante`` events carry ``"bomb_pot":
  true``.
- :class:`SkippedRound` (a step, in place of the first betting round): one
  public ``bomb_pot`` event ``{"amount", "round"}`` saying that round is not
  played.

Which games may have one, and the amount by default, are the game builder's
(:func:`rollem.games.build.bomb_pot_refusal`): the engine knows no particular
game. Chips are whole numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rollem.engine.decisions import Pending
from rollem.engine.events import Event
from rollem.engine.step import Step

if TYPE_CHECKING:
    from rollem.engine.hand import Hand

__all__ = ["BombPotAnte", "SkippedRound"]


class BombPotAnte(Step):
    """Every dealt-in player antes ``amount`` chips (all-in for less).

    Args:
        amount: chips (a whole number >= 1).
    """

    name = "bomb pot"

    def __init__(self, amount: int) -> None:
        self.amount = amount

    def start(self, hand: Hand) -> Pending | None:
        stacks, committed = hand.stacks, hand.committed
        for s in hand.live_from_left():
            chips = min(self.amount, stacks[s])
            stacks[s] -= chips
            committed[s] += chips
            hand.events.append(Event("ante", s, {"amount": chips, "all_in": stacks[s] == 0,
                                                 "bomb_pot": True}))
        return None


class SkippedRound(Step):
    """The first betting round of a bomb pot: not played (one ``bomb_pot`` event).

    Args:
        round_name: the skipped round's label (``"round 1"``).
        amount: the bomb pot's ante in chips (for the event).
    """

    name = "bomb pot"

    def __init__(self, round_name: str, amount: int) -> None:
        self.round_name = round_name
        self.amount = amount

    def start(self, hand: Hand) -> Pending | None:
        hand.events.append(Event("bomb_pot", None, {"round": self.round_name,
                                                    "amount": self.amount}))
        return None
