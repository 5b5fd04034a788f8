"""``rollem check-game FILE``: validate a game file and print its steps in words."""

from __future__ import annotations

import json

import click

from rollem.cli.errors import fail


@click.command("check-game")
@click.argument("file", metavar="FILE")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object: id, name, players, house, steps (in words).")
def check_game_command(file: str, as_json: bool) -> None:
    """Check a game file (TOML) and print its steps in words.

    FILE is a game file as described in "Write your own game" (docs). A
    mistake exits with status 2 and one line naming the key and what is
    allowed.
    """
    from rollem.games.describe import describe_game, describe_step
    from rollem.games.gamefile import GameFileError, load_game_file

    try:
        game = load_game_file(file)
    except GameFileError as err:
        fail(err)
    spec = game.spec
    if as_json:
        click.echo(json.dumps({
            "id": spec.id, "name": spec.name, "players": [spec.min_players, spec.max_players],
            "house": dict(spec.house), "steps": [describe_step(s) for s in spec.steps],
        }))
        return
    for line in describe_game(spec):
        click.echo(line)
    click.echo("OK: the game file is valid.")
