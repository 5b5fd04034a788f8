"""``rollem rules [GAME]``: the rules of play, in plain words, for players."""

from __future__ import annotations

import sys
from typing import IO

import click
from rich.console import Console
from rich.markdown import Markdown

from rollem.cli.errors import fail
from rollem.rules import list_games, rules_text


def render_markdown(text: str, file: IO[str], *, width: int | None = None) -> None:
    """Write Markdown ``text`` to ``file`` formatted by Rich for a terminal."""
    console = Console(file=file, force_terminal=True, highlight=False, width=width)
    console.print(Markdown(text, hyperlinks=False))


@click.command("rules")
@click.argument("game", required=False, metavar="[GAME]")
@click.option(
    "--plain",
    is_flag=True,
    help="Print the Markdown text as is, even on a terminal (the default when piped).",
)
def rules_command(game: str | None, plain: bool) -> None:
    """Show the rules of a game in plain words.

    GAME is sdr (Stop, Drop and Roll), rollyourown (Five Card Roll Your Own)
    or rollem521 (5-2-1 Roll 'Em). Each game's rules go step by step, with a
    worked example, the house options and their defaults.

    Without GAME (or with dealers-choice): the three games at a glance, how
    the dealer picks one, the hand rankings (five of a kind with wild cards,
    ace-to-five low) and the betting basics.
    """
    if game is not None:
        game = game.strip().lower()
        if game == "dealers-choice":
            game = None
        elif game not in list_games():
            fail(f"unknown game {game!r}: expected one of "
                 f"{', '.join((*list_games(), 'dealers-choice'))}")
    text = rules_text(game)
    if plain or not sys.stdout.isatty():
        click.echo(text, nl=False)
    else:
        render_markdown(text, sys.stdout)
