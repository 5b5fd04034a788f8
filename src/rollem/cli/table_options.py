"""Stakes, betting structure and house options as command-line flags, with the
same names in ``rollem play`` and ``rollem simulate`` as the web table's form
(R-C-6 and each game's house options in RULES.md).

Use :func:`table_option_flags` as a decorator on a command and
:func:`options_from_flags` on the values it receives; bad values become a
one-line error (``fail``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from rollem.cli.errors import fail
from rollem.cli.numbers import OneOf, Whole
from rollem.limits import MAX_STACK

__all__ = [
    "HOUSE_FLAGS",
    "check_house",
    "options_from_flags",
    "run_twice_flag",
    "staple_flags",
    "staples_from_flags",
    "table_option_flags",
]

MAX_BOMB_POT_EVERY = 1_000_000
"""The largest ``--bomb-pot-every`` (hands; the most a simulation plays)."""

F = TypeVar("F", bound=Callable[..., Any])

STRUCTURES = ("fixed-limit", "pot-limit", "no-limit")

HOUSE_EXAMPLE = {"failed_both_rule": '"carry"', "small_blind": "1", "big_blind": "2",
                 "straddle": "4", "bring_in": "1"}
"""A line of a game file's ``[house]`` for an option the engine reads (the
true/false ones: ``= false``), as the refusal of an option a file does not
list shows it."""

HOUSE_FLAGS: dict[str, str] = {
    "burn_before_roll": "Stop, Drop and Roll: burn a card before the roll (a house option).",
    "wild_duplicates": "Roll Your Own and Deuces Wild: a wild card may duplicate a card "
                       "already held (double-ace flush).",
    "natural_beats_wild": "Roll Your Own and Deuces Wild: a natural hand beats an equal hand "
                          "made with wild cards.",
    "bet_after_declare": "5-2-1: one more betting round after the declare.",
}
"""Boolean house options (off by default) -> help; the flag is the name with dashes."""


def table_option_flags(func: F) -> F:
    """Add ``--structure --ante --small-bet --big-bet --no-cap-heads-up
    --failed-both-rule`` and one flag per :data:`HOUSE_FLAGS` to a command."""
    for name, help_text in reversed(HOUSE_FLAGS.items()):
        func = click.option(f"--{name.replace('_', '-')}", name, is_flag=True,
                            help=help_text)(func)
    decorators = [
        click.option("--structure", type=OneOf(STRUCTURES), default="fixed-limit",
                     show_default=True, help="Betting structure."),
        click.option("--ante", type=Whole("0 or more chips"), default=1, show_default=True,
                     metavar="CHIPS",
                     help="Chips each player antes every hand."),
        click.option("--small-bet", type=Whole("1 or more chips"), default=2, show_default=True,
                     metavar="CHIPS",
                     help="The small bet (fixed limit, early rounds); in pot- and no-limit "
                          "the minimum bet of those rounds."),
        click.option("--big-bet", type=Whole("1 or more chips"), default=4, show_default=True,
                     metavar="CHIPS",
                     help="The big bet (fixed limit, later rounds); in pot- and no-limit "
                          "the minimum bet of those rounds."),
        click.option("--cap-heads-up/--no-cap-heads-up", "cap_heads_up", default=True,
                     show_default=True,
                     help="Fixed limit: the raise cap holds with two players too."),
        click.option("--house", "house_options", multiple=True, metavar="NAME=VALUE",
                     help="Any house option of the game by name, e.g. a game file's own "
                          "(--house burn_cards=false); VALUE true/false for a switch, else "
                          "the option's word. Repeatable."),
        click.option("--failed-both-rule", type=OneOf(("carry", "split")),
                     default="carry", show_default=True,
                     help="5-2-1: when every player in a pot declared both and failed, the pot "
                          "carries to the next hand, or splits high-low among them."),
    ]
    for deco in reversed(decorators):
        func = deco(func)
    return func


def staple_flags(func: F) -> F:
    """Add ``--straddle --straddlers --bomb-pot-every --bomb-pot-ante`` (issue 27)
    to a command; read them with :func:`staples_from_flags`."""
    decorators = [
        click.option("--straddle", type=OneOf(("off", "optional", "mississippi")),
                     default="off", show_default=True,
                     help="Straddles in games with blinds: optional (the player left of the "
                          "big blind may post twice the big blind before the deal) or "
                          "mississippi (the button may, else the player left of the big "
                          "blind); the straddler acts last before the flop."),
        click.option("--straddlers", default="", metavar="SEATS",
                     help="Seats that straddle whenever --straddle lets them, e.g. 0,3 "
                          "(seat 0 first; in rollem play seat 0 is you)."),
        click.option("--bomb-pot-every", type=Whole(f"0 to {MAX_BOMB_POT_EVERY:,}"), default=0,
                     show_default=True, metavar="N",
                     help="A bomb pot every N hands (0: none): everyone antes "
                          "--bomb-pot-ante and the first betting round is skipped; games "
                          "without shared cards after it (stud, draw, 5-2-1, Roll Your Own) "
                          "deal those hands as usual."),
        click.option("--bomb-pot-ante", type=Whole("1 to the stack"), default=None,
                     metavar="CHIPS",
                     help="A bomb pot's ante in chips (default: twice the big blind, or "
                          "twice the ante in games without blinds)."),
    ]
    for deco in reversed(decorators):
        func = deco(func)
    return func


def run_twice_flag(func: F) -> F:
    """Add ``--run-twice`` (issue 27; computer players only: ``rollem simulate``)."""
    return click.option("--run-twice", is_flag=True,
                        help="When nobody can bet any more and board cards are still to "
                             "come, the players still in may agree to deal the rest twice "
                             "and split each pot between the runs (basic and strong "
                             "computer players agree, random ones pick at random).")(func)


def staples_from_flags(flags: dict[str, Any], options: Any, players: int,
                       stack: int) -> tuple[Any, int, int | None]:
    """``(options, bomb_pot_every, bomb_pot_ante)`` from the values of
    :func:`staple_flags` (popped from ``flags``): ``options`` with the straddle
    rule, straddlers and run it twice set.

    Exits with a one-line error (status 2) for a value out of range, and for
    ``--no-cap-heads-up`` in pot- or no-limit (no raise cap to lift)."""
    from dataclasses import replace

    rule = flags.pop("straddle", "off")
    text = flags.pop("straddlers", "") or ""
    every = flags.pop("bomb_pot_every", 0)
    ante = flags.pop("bomb_pot_ante", None)
    twice = bool(flags.pop("run_twice", False))
    seats: list[int] = []
    if len(text) > 100:
        fail(f"--straddlers: at most 100 characters, got {len(text)}")
    for item in text.split(",") if text.strip() else []:
        item = item.strip()
        if not (item.isascii() and item.isdigit()) or not 0 <= int(item) < players:
            fail(f"--straddlers {text!r}: {item!r} is not a seat 0 to {players - 1}")
        if int(item) in seats:
            fail(f"--straddlers {text!r}: seat {item} given twice")
        seats.append(int(item))
    if seats and rule == "off":
        fail("--straddlers needs --straddle optional or mississippi")
    if not 0 <= every <= MAX_BOMB_POT_EVERY:
        fail(f"--bomb-pot-every {every}: expected 0 (none) to {MAX_BOMB_POT_EVERY:,}")
    if ante is not None and not 1 <= ante <= stack:
        fail(f"--bomb-pot-ante {ante}: expected 1 to the stack ({stack})")
    return (replace(options, straddle_rule=rule, straddlers=tuple(sorted(seats)),
                    run_twice=twice), every, ante)


def _posts_blinds(game: Any) -> bool:
    """Whether ``game`` (a :class:`rollem.engine.game.Game`) has a ``blinds`` step."""
    steps = getattr(getattr(game, "spec", None), "steps", None) or ()
    return any(getattr(step, "kind", None) == "blinds" for step in steps)


def check_staples(options: Any, bomb_pot_every: int, bomb_pot_ante: int | None,
                  games: list[Any]) -> None:
    """Exit with a one-line error (status 2) for a staple flag that would do
    nothing in ``games`` (the game played, or every game a dealer's choice
    offers): ``--straddle`` where no game posts blinds (a straddle is twice the
    big blind), ``--bomb-pot-ante`` without ``--bomb-pot-every``, ``--run-twice``
    and ``--bomb-pot-every`` where no game can have them (stud, razz, draw...:
    :func:`rollem.engine.runtwice.run_twice_refusal`,
    :func:`rollem.games.build.bomb_pot_refusal`; stop 53). They were taken
    without a word (a flag that does nothing is refused, issue 33)."""
    rule = getattr(options, "straddle_rule", "off")
    if rule != "off" and not any(_posts_blinds(g) for g in games):
        names = ", ".join(g.id for g in games)
        post = "posts" if len(games) == 1 else "post"
        fail(f"--straddle {rule}: a straddle is twice the big blind, and {names} {post} no "
             "blinds; straddle in a game with blinds (holdem, omaha, omaha8)")
    if bomb_pot_ante is not None and not bomb_pot_every:
        fail(f"--bomb-pot-ante {bomb_pot_ante}: no bomb pot is dealt without "
             "--bomb-pot-every N (a bomb pot every N hands)")
    if getattr(options, "run_twice", False):
        from rollem.engine.runtwice import run_twice_refusal

        why = _refusal_of_all(games, lambda g: run_twice_refusal(g, options),
                              "can run it twice")
        if why is not None:
            fail(f"--run-twice: {why}; leave it out")
    if bomb_pot_every:
        from rollem.games.build import bomb_pot_refusal

        why = _refusal_of_all(games, lambda g: bomb_pot_refusal(g, options),
                              "has bomb pots")
        if why is not None:
            fail(f"--bomb-pot-every {bomb_pot_every}: {why}; leave it out")


def _refusal_of_all(games: list[Any], refusal: Callable[[Any], str | None],
                    words: str) -> str | None:
    """``None`` when one of ``games`` passes ``refusal`` (one game's reason it cannot,
    or ``None``); else the one game's reason, or "none of <ids> <words>"."""
    reasons = [refusal(g) for g in games]
    if any(r is None for r in reasons):
        return None
    if len(reasons) == 1:
        return reasons[0]
    return (f"none of {', '.join(g.id for g in games)} {words} (those are for board games "
            "such as holdem, omaha and sdr)")


TypedHouse = dict[str, tuple[str, Any]]
"""How each house option was given on the command line: its name -> (the
flag as the user typed it: ``--failed-both-rule split``, ``--burn-before-roll``,
``--house burn_cards=false``; the value it gives)."""


def _typed_on_command_line(param: str) -> bool:
    """Whether the running command's option ``param`` (its Python name) was typed
    (click's parameter source), not left at its default; ``False`` outside a command."""
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return False
    source = ctx.get_parameter_source(param)
    return source in (click.core.ParameterSource.COMMANDLINE,
                      click.core.ParameterSource.ENVIRONMENT)


def options_from_flags(flags: dict[str, Any]) -> tuple[Any, TypedHouse]:
    """An :class:`rollem.engine.Options` from the values of :func:`table_option_flags`
    (popped from ``flags``, so the rest are the command's own), and how each of its
    house options was typed (:data:`TypedHouse`, for :func:`check_house`'s errors,
    which name the flag the user typed).

    Exits with a one-line error (status 2) for a value out of range, for one house
    option given two values (``--failed-both-rule split --house
    failed_both_rule=carry``), and for ``--no-cap-heads-up`` in pot- or no-limit
    (no raise cap to lift)."""
    from rollem.engine.errors import EngineError
    from rollem.engine.options import Options

    house: dict[str, Any] = {}
    typed: TypedHouse = {}

    def give(name: str, shown: str, value: Any) -> None:
        if name in typed and typed[name][1] != value:
            fail(f"{typed[name][0]} and {shown} give the house option {name} two values: "
                 "give one")
        typed[name] = (shown, value)

    for name in HOUSE_FLAGS:
        if flags.pop(name, False):
            give(name, f"--{name.replace('_', '-')}", True)
            house[name] = True
    for item in flags.pop("house_options", ()):
        name, sep, value = item.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or not name or len(item) > 80:
            fail(f"--house {item[:80]!r}: expected NAME=VALUE, e.g. --house burn_cards=false")
        word = value.strip().lower()
        house[name] = {"true": True, "on": True, "yes": True, "false": False, "off": False,
                       "no": False}.get(word, value.strip())
        give(name, f"--house {name}={value.strip()}", house[name])
    rule = flags.pop("failed_both_rule", "carry")
    if rule != "carry" or _typed_on_command_line("failed_both_rule"):
        # (typed, carry too: a flag that does nothing in the game is refused, issue 33)
        give("failed_both_rule", f"--failed-both-rule {rule}", rule)
    if rule != "carry":
        house["failed_both_rule"] = rule
    structure = flags.pop("structure", "fixed-limit")
    ante, small, big = flags.pop("ante", 1), flags.pop("small_bet", 2), flags.pop("big_bet", 4)
    cap_heads_up = flags.pop("cap_heads_up", True)
    for flag, value, least in (("--ante", ante, 0), ("--small-bet", small, 1),
                               ("--big-bet", big, 1)):
        if value < least:  # (named by its flag, not the Options field)
            fail(f"{flag} {value}: expected a whole number of chips >= {least}")
    if big < small:
        fail(f"--big-bet {big} is smaller than --small-bet {small}: the big bet is at least "
             "the small bet")
    if not cap_heads_up and structure != "fixed-limit":  # (it would do nothing: no cap)
        fail(f"--no-cap-heads-up: the raise cap is fixed limit's, and --structure {structure} "
             "has no cap; use it with --structure fixed-limit (the default)")
    try:
        return Options(structure=structure, ante=ante, small_bet=small, big_bet=big,
                       cap_heads_up=cap_heads_up, house=house), typed
    except EngineError as err:
        fail(str(err))


def _games_with(name: str, but: list[Any]) -> list[str]:
    """The ids of the registered games, other than ``but``, that have the house
    option ``name`` (``["rollem521"]`` for ``failed_both_rule``)."""
    from rollem.games import all_games

    skip = {g.id for g in but}
    return [g.id for g in all_games() if g.id not in skip and name in (g.house or {})]


def check_house(options: Any, games: list[Any], typed: TypedHouse | None = None) -> None:
    """Exit with a one-line error (status 2) unless every house option set in
    ``options`` (or typed: ``typed``, from :func:`options_from_flags`) is one of
    ``games``' (the game played, or every game a dealer's choice offers) with a
    value of the right kind: a flag that does nothing is refused, not ignored
    (issue 33). The error names the flag as it was typed (``--failed-both-rule
    split``, not ``--house failed_both_rule``) and what is allowed."""
    typed = typed or {}
    known: dict[str, Any] = {}
    choices: dict[str, tuple[Any, ...]] = {}  # a word option's values (a game file's [choices])
    for g in games:
        known.update(getattr(g, "house", {}) or {})
        spec = getattr(g, "spec", None)
        for k, allowed in (getattr(spec, "choices", None) or {}).items():
            choices[k] = tuple(dict.fromkeys((*choices.get(k, ()), *allowed)))
    names = ", ".join(g.id for g in games)
    given = {**{n: v for n, (_, v) in typed.items()}, **options.house}
    for name, value in given.items():
        if name in typed:
            shown = typed[name][0]
        else:
            shown = f"--{name.replace('_', '-')}" if name in HOUSE_FLAGS else \
                f"--house {name}={value}"
        # (an unknown name via --house is named without its value, as before)
        flag = shown.split("=", 1)[0] if shown.startswith("--house ") else shown
        if name not in known:
            have = ", ".join(sorted(known)) or "none"
            from rollem.games import is_shipped
            from rollem.games.gamefile import house_option_would_apply

            files = [g.id for g in games if getattr(g, "spec", None) is not None
                     and not is_shipped(g) and house_option_would_apply(g.spec, name)]
            # a game file with wild cards that does not list wild_duplicates: say how
            hint = (f"; to offer it, list it under [house] in {', '.join(files)}'s file "
                    f"with its default ({name} = {HOUSE_EXAMPLE.get(name, 'false')})"
                    ) if files else ""
            others = _games_with(name, games) if not files else []
            if others:
                hint += (f"; only {' and '.join(others)} "
                         f"{'has' if len(others) == 1 else 'have'} it")
            fail(f"{flag}: not a house option of {names} (theirs: {have}){hint}")
        default = known[name]
        if isinstance(default, bool) and not isinstance(value, bool):
            # (only --house gives a switch a word: its own flag gives true)
            fail(f"{shown}: {name} is a switch: give true or false")
        if not isinstance(default, bool) and isinstance(value, bool):
            fail(f"{shown}: {name} takes a word, e.g. {name}={default}")
        if name in choices and value not in choices[name]:
            # (it reached the engine: an internal error, issue 33's try-out)
            fail(f"{shown}: expected one of {', '.join(map(str, choices[name]))}")


def check_stack(stack: int, options: Any) -> None:
    """Exit with a one-line error (status 2) unless ``stack`` is from 1 to
    :data:`~rollem.limits.MAX_STACK` chips (the web table's range) and covers the
    ante plus one small bet of ``options`` (otherwise nobody could bet)."""
    if not 1 <= stack <= MAX_STACK:
        fail(f"--stack {stack}: expected 1 to {MAX_STACK:,} chips (the web table's range too)")
    if options.ante + options.small_bet > stack:
        fail(f"--stack {stack} must cover the ante plus one small bet "
             f"({options.ante} + {options.small_bet}); otherwise nobody could bet")
