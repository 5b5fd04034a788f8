"""``rollem check-game FILE``: validate a game file and print its steps in words."""

from __future__ import annotations

import json

import click


@click.command("check-game")
@click.argument("file", metavar="FILE")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object: id, name, players, house, steps (in words).")
def check_game_command(file: str, as_json: bool) -> None:
    """Check a game file (TOML) and print its steps in words.

    FILE is a game file as described in "Write your own game" (docs). A
    mistake exits with status 2 and one line naming the key and what is
    allowed; so does an id of a shipped game (unless FILE has that shipped
    game's rules unchanged, comments and layout aside: then it is the shipped
    game), as rollem play --game-file and the web table refuse it.
    """
    from rollem.cli.gamefile_opt import check_user_game_file
    from rollem.games.describe import describe_game, describe_step

    game = check_user_game_file(file)
    spec = game.spec
    if as_json:
        click.echo(json.dumps({
            "id": spec.id, "name": spec.name, "players": [spec.min_players, spec.max_players],
            "house": dict(spec.house), "steps": [describe_step(s, pooled=spec.pools_discards)
                                for s in spec.steps],
        }))
        return
    import re
    import textwrap

    for line in describe_game(spec):
        # within 78 columns, a step's later lines under its words (s61-term: a
        # betting step ran to 140 columns, wrapped by the terminal at column 0)
        number = re.match(r"\d+\. ", line)
        click.echo(textwrap.fill(line, 78, subsequent_indent=" " * (
            len(number.group(0)) if number else 4), break_long_words=False,
            break_on_hyphens=False))
    from rollem import games

    if games.is_shipped(game) and game.source != games.shipped_source(game.id):
        click.echo(textwrap.fill(f"The rules are the shipped {game.id}'s (only comments, "
                                 "spacing or the order of keys differ): it plays as the "
                                 f"shipped game, GAME {game.id}.", 78))
    click.echo("OK: the game file is valid.")
