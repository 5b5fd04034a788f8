"""The tournament flags of ``rollem play`` and ``rollem simulate`` (issue 28):
what the web table's host can set beside the schedule (``--tournament``):
the buy-in, the payouts, rebuys in the first levels, an add-on when they
close and a dealer's-choice rotation by level or by orbit.  Read them with
:func:`tournament_from_flags`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, TypeVar

import click

from rollem.cli.errors import fail
from rollem.cli.numbers import OneOf, Whole
from rollem.tournament.session import ROTATIONS

__all__ = ["TournamentFlags", "tournament_flags", "tournament_from_flags"]

F = TypeVar("F", bound=Callable[..., Any])

MAX_BUY_IN = 1_000_000
"""The largest buy-in, in whole units (as the web table's form)."""
MAX_REBUY_LEVELS = 10
"""Rebuys may stay open for at most this many levels (as the web table's form)."""
MAX_ADDON_CHIPS = 1_000_000
"""The most chips an add-on may bring (as the web table's form)."""


def tournament_flags(func: F) -> F:
    """Add ``--buy-in --payouts --rebuy-levels --addon --addon-price --rotate`` to a
    command."""
    decorators = [
        click.option("--buy-in", type=Whole(f"0 to {MAX_BUY_IN:,}"), default=None, metavar="UNITS",
                     help="With --tournament: each entrant's buy-in, 0 to 1,000,000 whole "
                          "units (money or points; default 10); the prize pool is the "
                          "buy-ins and rebuys."),
        click.option("--payouts", default=None, metavar="PERCENTS",
                     help="With --tournament: the prize pool's percentages by place, best "
                          "first, e.g. 65/35 (whole numbers adding up to 100, at most one "
                          "place a player; default: the shipped table for the field)."),
        click.option("--rebuy-levels", type=Whole(f"0 to {MAX_REBUY_LEVELS}"), default=None,
                     metavar="N",
                     help="With --tournament: a busted player may buy in again (once per "
                          "bust, a buy-in more in the pool) during the first N levels, 0 "
                          "to 10 (default 0: no rebuys). Computer players always rebuy "
                          "while they may."),
        click.option("--addon", "addon_chips", type=Whole(f"1 to {MAX_ADDON_CHIPS:,}"),
                     default=None, metavar="CHIPS",
                     help="With --tournament and --rebuy-levels: when the rebuys close, "
                          "every player still in may buy CHIPS chips once (1 to "
                          "1,000,000; default: no add-on), for --addon-price units into "
                          "the pool. Computer players take it unless they hold three "
                          "times CHIPS or more."),
        click.option("--addon-price", type=Whole(f"0 to {MAX_BUY_IN:,}"), default=None,
                     metavar="UNITS",
                     help="With --addon: what an add-on costs, 0 to 1,000,000 whole units "
                          "(default: the buy-in)."),
        click.option("--rotate", type=OneOf(ROTATIONS), default=None,
                     help="With --tournament and dealers-choice: the games rotate in turn "
                          "(like H.O.R.S.E.; rollem play: in the order of --games; "
                          "simulate: sdr, rollyourown then rollem521) instead of the "
                          "button choosing: level (a game a level) or orbit (a game each "
                          "time the button has gone once round the table)."),
    ]
    for deco in reversed(decorators):
        func = deco(func)
    return func


@dataclass(frozen=True)
class TournamentFlags:
    """The flags read (defaults filled in): ``Tournament(**asdict-like)`` keywords."""

    buy_in: int = 10
    percentages: tuple[int, ...] | None = None
    rebuy_levels: int = 0
    rotate: str = ""
    addon_chips: int = 0
    addon_price: int | None = None

    def keywords(self) -> dict[str, Any]:
        """Keywords of :class:`rollem.tournament.session.Tournament`."""
        return {"buy_in": self.buy_in, "percentages": self.percentages,
                "rebuy_levels": self.rebuy_levels, "rotate": self.rotate,
                "addon_chips": self.addon_chips, "addon_price": self.addon_price}


def tournament_from_flags(flags: dict[str, Any], *, tournament: bool, game: str,
                          players: int) -> TournamentFlags:
    """Take the tournament flags out of ``flags`` (click's keywords) and check
    them: each is for ``--tournament`` only, ``--rotate`` for dealers-choice only;
    with ``--tournament``, the cash game's ``--stack`` and stakes are refused
    (the schedule sets them).
    Exits with status 2 and one line naming the flag on a bad value."""
    buy_in = flags.pop("buy_in", None)
    payouts = flags.pop("payouts", None)
    rebuy_levels = flags.pop("rebuy_levels", None)
    rotate = flags.pop("rotate", None)
    addon = flags.pop("addon_chips", None)
    addon_price = flags.pop("addon_price", None)
    given = [name for name, value in (("--buy-in", buy_in), ("--payouts", payouts),
                                      ("--rebuy-levels", rebuy_levels), ("--rotate", rotate),
                                      ("--addon", addon), ("--addon-price", addon_price))
             if value is not None]
    if not tournament:
        if given:
            fail(f"{given[0]}: for tournaments only (give --tournament SCHEDULE)")
        return TournamentFlags()
    _refuse_what_the_schedule_sets()
    if buy_in is not None and not 0 <= buy_in <= MAX_BUY_IN:
        fail(f"--buy-in {buy_in}: expected 0 to {MAX_BUY_IN:,} whole units")
    if rebuy_levels is not None and not 0 <= rebuy_levels <= MAX_REBUY_LEVELS:
        fail(f"--rebuy-levels {rebuy_levels}: expected 0 to {MAX_REBUY_LEVELS} levels")
    if addon is not None and not 1 <= addon <= MAX_ADDON_CHIPS:
        fail(f"--addon {addon}: expected 1 to {MAX_ADDON_CHIPS:,} chips")
    if addon is not None and not rebuy_levels:
        fail(f"--addon {addon}: an add-on is offered when the rebuys close: give "
             "--rebuy-levels 1 or more")
    if addon_price is not None and addon is None:
        fail(f"--addon-price {addon_price}: the price of an add-on: give --addon CHIPS too")
    if addon_price is not None and not 0 <= addon_price <= MAX_BUY_IN:
        fail(f"--addon-price {addon_price}: expected 0 to {MAX_BUY_IN:,} whole units")
    if rotate is not None and game != "dealers-choice":
        fail(f"--rotate {rotate}: the games rotate at dealers-choice only, not {game}")
    return TournamentFlags(buy_in=10 if buy_in is None else buy_in,
                           percentages=None if payouts is None else _payouts(payouts, players),
                           rebuy_levels=rebuy_levels or 0, rotate=rotate or "",
                           addon_chips=addon or 0, addon_price=addon_price)


SCHEDULE_SETS = (("stack", "--stack"), ("ante", "--ante"), ("small_bet", "--small-bet"),
                 ("big_bet", "--big-bet"))
"""The cash game's flags (click parameter, flag) that a tournament's schedule sets."""


def _refuse_what_the_schedule_sets() -> None:
    """Exit with status 2 if ``--stack``, ``--ante``, ``--small-bet`` or
    ``--big-bet`` was typed with ``--tournament``: the schedule gives every
    player's starting stack and each level's stakes, so the flag would do
    nothing (it was ignored without a word; a flag that does nothing is
    refused, issue 33)."""
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return
    for name, flag in SCHEDULE_SETS:
        if ctx.get_parameter_source(name) in (click.core.ParameterSource.COMMANDLINE,
                                              click.core.ParameterSource.ENVIRONMENT):
            fail(f"{flag} {ctx.params.get(name)}: a tournament's starting stack and stakes "
                 "are its schedule's (the stakes rise by level); leave out "
                 f"{flag}, or give --tournament a schedule file (TOML) with your own")


def _payouts(text: str, players: int) -> tuple[int, ...]:
    """``--payouts 65/35``: whole percentages, best place first, adding up to 100."""
    parts = [p.strip() for p in text[:100].replace(",", "/").split("/")]
    if (not all(p.isascii() and p.isdigit() and len(p) <= 3 for p in parts)
            or any(not 1 <= int(p) <= 100 for p in parts)):
        fail(f"--payouts {text[:40]!r}: expected whole percentages 1 to 100 by place, "
             "e.g. 65/35")
    out = tuple(int(p) for p in parts)
    if sum(out) != 100:
        fail(f"--payouts {text[:40]}: the percentages add up to {sum(out)}, not 100")
    if any(a < b for a, b in pairwise(out)):
        fail(f"--payouts {text[:40]}: a place cannot be paid more than the one before it")
    if len(out) > players:
        fail(f"--payouts {text[:40]}: {len(out)} places paid with {players} players")
    return out
