"""``rollem rules [GAME]``: the rules of play, in plain words, for players.

On a terminal the Markdown is formatted (Rich) and shown through a pager
(``$PAGER``, else ``less``) so a long page does not scroll away; ``--no-pager``
prints it straight out. Piped (or ``--plain``) it is the Markdown text as is.
"""

from __future__ import annotations

import io
import os
import shutil
import sys
from typing import IO

import click

from rollem.cli.colour import colour_allowed
from rollem.cli.errors import fail


def render_markdown(text: str, file: IO[str], *, width: int | None = None,
                    colour: bool = True) -> None:
    """Write Markdown ``text`` to ``file`` formatted by Rich for a terminal
    (``colour`` False, as with ``NO_COLOR``: laid out the same, with no escape
    codes at all -- no colour, bold or underline)."""
    from rich.console import Console
    from rich.markdown import Markdown

    console = Console(file=file, force_terminal=colour, highlight=False, width=width,
                      color_system="auto" if colour else None)
    console.print(Markdown(text, hyperlinks=False))


@click.command("rules")
@click.argument("game", required=False, metavar="[GAME]")
@click.option(
    "--plain",
    is_flag=True,
    help="Print the Markdown text as is, even on a terminal (the default when piped).",
)
@click.option("--no-pager", is_flag=True,
              help="On a terminal, print the formatted rules straight out instead of through "
                   "a pager ($PAGER, else less).")
@click.option("--no-color", is_flag=True,
              help="No colour on a terminal (also when the NO_COLOR environment variable is "
                   "set).")
@click.option("--game-file", default=None, metavar="FILE",
              help="Show the rules text of the game in this game file (TOML, see rollem "
                   "check-game), with its steps in words.")
def rules_command(game: str | None, plain: bool, no_pager: bool, no_color: bool,
                  game_file: str | None) -> None:
    """Show the rules of a game in plain words.

    GAME is sdr (Stop, Drop and Roll), rollyourown (Five Card Roll Your Own)
    or rollem521 (5-2-1 Roll 'Em). Each game's rules go step by step, with a
    worked example, the house options and their defaults. A standard game
    (holdem, omaha, omaha8, stud, stud8, razz, draw5, deuces-wild) prints the
    rules text its game file carries.

    Without GAME (or with dealers-choice): the three games at a glance, how
    the dealer picks one, the hand rankings (five of a kind with wild cards,
    ace-to-five low) and the betting basics.
    """
    from rollem.rules import list_games, rules_text

    if game_file is not None:
        if game is not None:
            fail(f"give GAME or --game-file, not both: GAME is {game!r}")
        from rollem.cli.gamefile_opt import check_user_game_file
        from rollem.games.describe import describe_game

        g = check_user_game_file(game_file, "--game-file")
        steps = "\n".join(describe_game(g.spec))
        click.echo(f"# {g.name}\n\n{g.rules.strip()}\n\n## Step by step\n\n{steps}\n", nl=False)
        return
    if game is not None:
        game = game.strip().lower()
        if game == "dealers-choice":
            game = None
        elif game not in list_games():
            from rollem import games

            file_games = sorted(games.STANDARD)
            if game not in file_games:
                from rollem.cli.gamefile_opt import game_ids_words

                fail(f"unknown game {game!r}: expected one of {game_ids_words()} (or "
                     "--game-file FILE)")
            g = games.get(game)  # a game file carries its players' rules text
            click.echo(f"# {g.name}\n\n{g.rules.strip()}\n", nl=False)
            return
    text = rules_text(game)
    if plain or not sys.stdout.isatty():
        click.echo(text, nl=False)
        return
    colour = colour_allowed(no_color_flag=no_color, terminal=True)
    if no_pager:
        render_markdown(text, sys.stdout, colour=colour)
        return
    buffer = io.StringIO()
    render_markdown(text, buffer, width=min(shutil.get_terminal_size().columns, 100),
                    colour=colour)
    # less shows escape codes raw unless -R: Click sets it only when it colours
    # the text itself, so add it to the player's own LESS options (issue 33).
    less = os.environ.get("LESS", "")
    if not _less_passes_codes(less):
        os.environ["LESS"] = f"{less} -R".strip()
    click.echo_via_pager(buffer.getvalue(), color=colour)


def _less_passes_codes(less: str) -> bool:
    """Whether the LESS options ``less`` already pass escape codes through: a
    cluster of one-letter options with ``R`` or ``r`` (``-R``, ``-FRX``, ``FRX``)
    or the long ``--RAW-CONTROL-CHARS``/``--raw-control-chars``.  A long option
    that merely contains an r (``--quit-if-one-screen``, ``--ignore-case``) does
    not."""
    for word in less.split():
        if word.startswith("--"):
            if word[2:].split("=")[0].lower() == "raw-control-chars":
                return True
        elif "R" in word or "r" in word:
            return True
    return False
