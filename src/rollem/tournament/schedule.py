"""A tournament's level schedule (issue 28): the stakes of each level and how
long it lasts, in hands (the terminal, ``simulate`` and the web table) or in
minutes (the web table's clock).

A level's stakes are the table options that rise: the ante, the small bet
and the big bet (the blinds and the bring-in of the standard games follow
from the small bet, as the game files say).  After the last level the last
stakes stay.  Chips are whole numbers.

A level may end with a break (``break_minutes``, stop 59): on the web table's
clock, once the level's time is up and the hand in play has ended, nothing is
dealt for that many minutes and the level clock stands still; then the next
level starts in full.  The terminal and ``simulate`` (levels by hands) take no
breaks.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from typing import Any

from rollem import toml_input

__all__ = ["SCHEDULES", "Level", "Schedule", "load_schedule"]

MAX_LEVELS = 60
MAX_CHIPS = 10**9
MAX_BREAK_MINUTES = 120
"""The longest break after a level, in minutes."""


@dataclass(frozen=True)
class Level:
    """One level: ``ante``, ``small_bet``, ``big_bet`` (chips) for ``hands`` hands
    (or ``minutes`` minutes on a clock), then a break of ``break_minutes``
    minutes on the web table's clock (0: none)."""

    ante: int
    small_bet: int
    big_bet: int
    hands: int = 10
    minutes: float = 10.0
    break_minutes: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON form; ``break`` (minutes) only when the level ends with a break."""
        out: dict[str, Any] = {"ante": self.ante, "small_bet": self.small_bet,
                               "big_bet": self.big_bet, "hands": self.hands,
                               "minutes": self.minutes}
        if self.break_minutes:
            out["break"] = self.break_minutes
        return out


@dataclass(frozen=True)
class Schedule:
    """The levels in order, and the chips each player starts with."""

    name: str
    levels: tuple[Level, ...]
    stack: int

    def level_at_hand(self, hands_played: int) -> int:
        """The level (0-based) of the next hand after ``hands_played`` hands
        (levels by hands; after the last level, the last)."""
        done = 0
        for i, level in enumerate(self.levels):
            done += level.hands
            if hands_played < done:
                return i
        return len(self.levels) - 1

    def level_at_minute(self, minutes: float) -> int:
        """The level (0-based) after ``minutes`` minutes of play (the web's clock)."""
        done = 0.0
        for i, level in enumerate(self.levels):
            done += level.minutes
            if minutes < done:
                return i
        return len(self.levels) - 1

    def hands_to_next(self, hands_played: int) -> int | None:
        """Hands left in the current level, or ``None`` in the last level."""
        level = self.level_at_hand(hands_played)
        if level == len(self.levels) - 1:
            return None
        return sum(lv.hands for lv in self.levels[:level + 1]) - hands_played

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "stack": self.stack,
                "levels": [lv.to_dict() for lv in self.levels]}


def _levels(rows: list[tuple[int, int, int]], hands: int, minutes: float,
            break_every: int = 4, break_minutes: float = 5.0) -> tuple[Level, ...]:
    """``rows`` (ante, small bet, big bet) as levels, a break of ``break_minutes``
    after every ``break_every``-th level but the last."""
    return tuple(Level(a, s, b, hands, minutes,
                       break_minutes if (i + 1) % break_every == 0 and i + 1 < len(rows)
                       else 0.0)
                 for i, (a, s, b) in enumerate(rows))


_RISE = [(1, 2, 4), (1, 3, 6), (2, 4, 8), (2, 6, 12), (3, 8, 16), (4, 10, 20),
         (5, 15, 30), (10, 20, 40), (10, 30, 60), (15, 40, 80), (20, 50, 100),
         (25, 75, 150), (50, 100, 200), (50, 150, 300), (75, 200, 400),
         (100, 300, 600), (150, 400, 800), (200, 500, 1000)]

SCHEDULES: dict[str, Schedule] = {
    "turbo": Schedule("turbo", _levels(_RISE, hands=6, minutes=5.0), stack=100),
    "regular": Schedule("regular", _levels(_RISE, hands=10, minutes=10.0), stack=200),
    "slow": Schedule("slow", _levels(_RISE, hands=15, minutes=15.0), stack=300),
}
"""The shipped schedules: the same stakes rising every 6 hands (turbo, 100 chips),
10 hands (regular, 200 chips) or 15 hands (slow, 300 chips); on the web's clock
every 5, 10 or 15 minutes, with a 5-minute break after every 4th level (after
20, 40 or 60 minutes of play, and so on)."""


class ScheduleError(ValueError):
    """A custom schedule that cannot be used (the message says why, in one line)."""


def load_schedule(text: str, name: str = "custom") -> Schedule:
    """A custom schedule from TOML text, named ``name`` (the terminal: the file's
    name without ``.toml``); a shipped schedule's name becomes ``custom NAME``
    (a hand's history names its schedule, and a shipped one's levels are checked
    against it: a file ``turbo.toml`` is the schedule ``custom turbo``)::

        stack = 150
        [[levels]]
        ante = 1
        small_bet = 2
        big_bet = 4
        hands = 8        # optional, default 10
        minutes = 8      # optional, default 10
        break = 10       # optional: a 10-minute break after this level (web clock)

    Raises:
        ScheduleError: bad TOML, a missing or wrong field, stakes that fall, a
            big bet below the small bet, more than 60 levels, a ``break`` not a
            number of minutes from 0 to :data:`MAX_BREAK_MINUTES`, or one after the
            last level.
    """
    if len(text) > 64_000:
        raise ScheduleError("a schedule file is at most 64 KB")
    try:
        data = toml_input.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ScheduleError(f"not TOML: {err}") from None
    except RecursionError:  # tomllib recurses once per level of [ or {
        raise ScheduleError("arrays or tables nested too deeply") from None
    if "steps" in data and "levels" not in data:  # (it said "stack ..., not None")
        raise ScheduleError("this is a game file, not a tournament schedule: play it with "
                            "--game-file FILE")
    stack = data.get("stack")
    if stack is None:
        raise ScheduleError("stack is missing: give every player's starting chips "
                            "(e.g. stack = 1500)")
    if type(stack) is not int or not 1 <= stack <= MAX_CHIPS:
        raise ScheduleError(f"stack must be a whole number of chips from 1, not {stack!r}")
    raw = data.get("levels")
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_LEVELS:
        raise ScheduleError(f"levels must be a list of 1 to {MAX_LEVELS} [[levels]] tables")
    levels: list[Level] = []
    for i, row in enumerate(raw):
        if not isinstance(row, dict):
            raise ScheduleError(f"levels[{i}] must be a table")
        extra = sorted(set(row) - {"ante", "small_bet", "big_bet", "hands", "minutes", "break"})
        if extra:
            raise ScheduleError(f"levels[{i}]: unknown {', '.join(extra)}; allowed: ante, "
                                "small_bet, big_bet, hands, minutes, break")
        values = []
        for key, low in (("ante", 0), ("small_bet", 1), ("big_bet", 1)):
            v = row.get(key)
            if v is None:
                raise ScheduleError(f"levels[{i}].{key} is missing: a whole number of chips "
                                    f"from {low}")
            if type(v) is not int or not low <= v <= MAX_CHIPS:
                raise ScheduleError(f"levels[{i}].{key} must be a whole number of chips "
                                    f"from {low}, not {v!r}")
            values.append(v)
        hands = row.get("hands", 10)
        minutes = row.get("minutes", 10)
        if type(hands) is not int or not 1 <= hands <= 10_000:
            raise ScheduleError(f"levels[{i}].hands must be 1 to 10000, not {hands!r}")
        if isinstance(minutes, bool) or not isinstance(minutes, int | float) \
                or not 0.1 <= minutes <= 600:
            raise ScheduleError(f"levels[{i}].minutes must be 0.1 to 600, not {minutes!r}")
        pause = row.get("break", 0)
        if isinstance(pause, bool) or not isinstance(pause, int | float) \
                or not 0 <= pause <= MAX_BREAK_MINUTES:
            raise ScheduleError(f"levels[{i}].break must be the minutes of a break after "
                                f"this level, 0 to {MAX_BREAK_MINUTES} (0: none), not {pause!r}")
        if pause and i == len(raw) - 1:
            raise ScheduleError(f"levels[{i}].break: a break after the last level never "
                                "comes (the last level's stakes stay); put it after an "
                                "earlier level")
        ante, small, big = values
        if big < small:
            raise ScheduleError(f"levels[{i}]: big_bet {big} is below small_bet {small}")
        if levels and (small < levels[-1].small_bet or ante < levels[-1].ante):
            raise ScheduleError(f"levels[{i}]: the stakes may not fall from one level to "
                                "the next")
        levels.append(Level(ante, small, big, hands, float(minutes), float(pause)))
    if name in SCHEDULES:
        name = f"custom {name}"
    return Schedule(name, tuple(levels), stack)
