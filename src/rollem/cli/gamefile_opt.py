"""``--game-file FILE`` and ``--games LIST`` for the commands that take a game (issue 18)."""

from __future__ import annotations

from rollem.cli.errors import fail

__all__ = ["games_list", "register_game_file"]


def register_game_file(path: str) -> str:
    """Load the game file at ``path``, make it available by its id in this
    process, and return the id; a bad file, or one reusing a shipped game's id
    (whose histories would name the shipped game), exits 2 with one line."""
    from rollem import games
    from rollem.games.gamefile import GameFileError, load_game_file

    try:
        game = load_game_file(path)
    except GameFileError as err:
        fail(f"--game-file {path}: {err}")
    if game.id in games.shipped_ids():
        fail(f"--game-file {path}: id {game.id!r} is a shipped game's id; give your game an "
             f"id of its own (or play the shipped game: GAME {game.id})")
    games.register(game)
    return game.id


def games_list(text: str) -> list[str]:
    """The game ids of ``--games`` (comma-separated); an unknown id exits 2."""
    from rollem import games

    ids = [g.strip().lower() for g in text.split(",") if g.strip()]
    if not ids:
        fail("--games: give at least one game id, comma-separated (e.g. sdr,holdem,stud)")
    known = [g.id for g in games.all_games()]
    for gid in ids:
        if gid not in known:
            fail(f"--games: unknown game {gid!r}: expected ids among {', '.join(known)}")
    return ids
