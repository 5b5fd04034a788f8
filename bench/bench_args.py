"""Command-line checks shared by the league benches (``bench_league.py``,
``bench_lbr.py``): a bad value is refused before anything is played, in one
line naming the option, the value and what is allowed (argparse's
``parser.error``: exit status 2), not a traceback minutes into a run or a
match played under a wrong label."""

from __future__ import annotations

import argparse
from collections.abc import Iterable

from rollem import games
from rollem.engine.options import STRUCTURES

__all__ = ["check_at_least", "check_games", "check_levels", "check_list", "check_structures"]


def check_list(parser: argparse.ArgumentParser, option: str, value: str,
               allowed: Iterable[str]) -> list[str]:
    """``value`` split at commas; each item must be one of ``allowed``.

    Raises:
        SystemExit: (status 2, via ``parser.error``) an empty list or an item
            not allowed, naming ``option``, the item and the allowed items.
    """
    allowed = list(allowed)
    items = value.split(",")
    for item in items:
        if item not in allowed:
            shown = f"{item!r}" if item else "an empty item"
            parser.error(f"{option}: {shown} is not one of {', '.join(allowed)} "
                         f"(comma-separated, no spaces)")
    return items


def check_games(parser: argparse.ArgumentParser, value: str) -> list[str]:
    """``--games``: shipped game ids (:func:`rollem.games.shipped_ids`)."""
    return check_list(parser, "--games", value, games.shipped_ids())


def check_structures(parser: argparse.ArgumentParser, value: str) -> list[str]:
    """``--structures``: ``fixed-limit``, ``pot-limit``, ``no-limit``."""
    return check_list(parser, "--structures", value, STRUCTURES)


def check_levels(parser: argparse.ArgumentParser, option: str, value: str,
                 extra: Iterable[str] = ()) -> list[str]:
    """Bot levels: the registered ones (``rollem.bots.LEVELS``) and ``extra``
    (a bench's own, such as the league's exploit bots)."""
    from rollem.bots import LEVELS, basic, random_bot, strong  # noqa: F401  (register them)

    return check_list(parser, option, value, [*sorted(LEVELS), *extra])


def check_at_least(parser: argparse.ArgumentParser, option: str, value: int,
                   least: int) -> int:
    """A whole number of at least ``least`` (deals, hypotheses ...).

    Raises:
        SystemExit: (status 2) ``value`` below ``least``.
    """
    if value < least:
        parser.error(f"{option}: {value} is less than {least}; give a whole number from "
                     f"{least} up")
    return value
