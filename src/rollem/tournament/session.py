"""A tournament's progress over the hands of one table (issue 28): the level
of each hand, the bust-outs, and at the end the finishing places and the
prize pool paid by place.  :class:`rollem.table.Table` keeps one when it
plays a tournament (``Table(..., tournament=...)``): the terminal, ``simulate``
and the web table share it.

Levels rise by hands here (the web's clock can also move them by minutes:
:meth:`Tournament.at_minute`).  Players who bust are not dealt in again; no
rebuys.  Chips are whole numbers, the buy-in and prizes whole units.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from rollem.engine.options import Options
from rollem.tournament.payouts import pay_places, payout_percentages
from rollem.tournament.places import Bust, finishing_places
from rollem.tournament.schedule import Level, Schedule

__all__ = ["Tournament"]


class Tournament:
    """A sit-and-go at one table.

    Args:
        schedule: the levels and the starting stack.
        entrants: the players who bought in (2 to 10), seats ``0..entrants-1``.
        buy_in: each entrant's buy-in, in whole units (money or points); the
            prize pool is ``buy_in * entrants``.
        percentages: the payout percentages by place (default: the shipped
            table for the field, :func:`payout_percentages`).

    Raises:
        ValueError: entrants outside 2 to 10, a negative buy-in, percentages
            that do not add up to 100.
    """

    def __init__(self, schedule: Schedule, entrants: int, *, buy_in: int = 1,
                 percentages: Sequence[int] | None = None) -> None:
        if not 2 <= entrants <= 10:
            raise ValueError(f"a sit-and-go takes 2 to 10 entrants, not {entrants}")
        if buy_in < 0:
            raise ValueError("the buy-in cannot be negative")
        self.schedule = schedule
        self.entrants = entrants
        self.buy_in = buy_in
        self.percentages = tuple(percentages) if percentages is not None \
            else payout_percentages(entrants)
        if sum(self.percentages) != 100:
            raise ValueError("payout percentages must add up to 100")
        self.hands_played = 0
        self.minutes: float | None = None  # the web's level clock, when it drives
        self.busts: list[Bust] = []

    @property
    def prize_pool(self) -> int:
        return self.buy_in * self.entrants

    @property
    def level(self) -> int:
        """The level (0-based) of the next hand."""
        by_hands = self.schedule.level_at_hand(self.hands_played)
        if self.minutes is None:
            return by_hands
        return self.schedule.level_at_minute(self.minutes)

    def at_minute(self, minutes: float) -> None:
        """Drive the levels by the clock instead: ``minutes`` of play so far."""
        self.minutes = minutes

    @property
    def stakes(self) -> Level:
        return self.schedule.levels[self.level]

    def options(self, base: Options) -> Options:
        """``base`` (the table's structure, caps and house options) at this
        level's ante and bets."""
        lv = self.stakes
        return dataclasses.replace(base, ante=lv.ante, small_bet=lv.small_bet,
                                   big_bet=lv.big_bet)

    def record(self, start_stacks: Sequence[int], stacks: Sequence[int]) -> list[int]:
        """A hand ended: count it and note who busted in it (a seat that started
        it with chips and has none left).  Returns the busted seats."""
        self.hands_played += 1
        busted = [s for s, (before, after) in enumerate(zip(start_stacks, stacks, strict=True))
                  if before > 0 and after == 0]
        self.busts += [Bust(self.hands_played, s, start_stacks[s]) for s in busted]
        return busted

    def left(self, stacks: Sequence[int]) -> list[int]:
        """The entrants still holding chips."""
        return [s for s in range(self.entrants) if stacks[s] > 0]

    def over(self, stacks: Sequence[int]) -> bool:
        """One player holds every chip."""
        return len(self.left(stacks)) <= 1

    def places(self, stacks: Sequence[int]) -> dict[int, int]:
        """Finishing places so far (1 = best): the busted, and the survivors
        (one survivor: the winner)."""
        return finishing_places(self.entrants, self.busts, self.left(stacks))

    def payouts(self, stacks: Sequence[int]) -> dict[int, int]:
        """What each entrant wins once the tournament is over (seat -> units)."""
        return pay_places(self.prize_pool, self.percentages, self.places(stacks))

    def to_dict(self, stacks: Sequence[int]) -> dict[str, Any]:
        """JSON form: the schedule, the level and its stakes, hands to the next
        level, the places and (when over) the payouts."""
        return {
            "schedule": self.schedule.name, "level": self.level + 1,
            "stakes": self.stakes.to_dict(),
            "hands_to_next": self.schedule.hands_to_next(self.hands_played),
            "prize_pool": self.prize_pool, "percentages": list(self.percentages),
            "places": {str(s): p for s, p in self.places(stacks).items()},
            "payouts": ({str(s): v for s, v in self.payouts(stacks).items()}
                        if self.over(stacks) else None),
        }  # fmt: skip
