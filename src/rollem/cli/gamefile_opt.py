"""``--game-file FILE`` and ``--games LIST`` for the commands that take a game (issue 18)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rollem.cli.errors import MAX_MESSAGE, fail

__all__ = ["check_user_game_file", "game_ids_words", "games_list", "register_game_file"]

if TYPE_CHECKING:
    from rollem.engine.game import Game


def check_user_game_file(path: str, option: str | None = None) -> Game:
    """The game of the game file at ``path``, checked as ``rollem check-game``,
    ``--game-file`` and the web table's form do: read (bounded), checked, dealt
    on trial, and its id not a shipped game's (its histories would name the
    shipped game) unless it is that shipped game's rules unchanged (comments
    and layout aside: :func:`rollem.games.is_shipped`). A mistake exits 2
    with one line, starting ``OPTION PATH: `` when ``option`` is given (e.g.
    ``"--game-file"``), else ``PATH: `` (``rollem check-game FILE``; s71: its
    errors did not name the file, only those about reading it did)."""
    from rollem import games
    from rollem.games.gamefile import GameFileError, load_game_file

    where = f"{option} {path}" if option is not None else path
    # (the file's words keep the length they had alone: a long path does not cut
    # them down to the middle of the key that is wrong)
    limit = MAX_MESSAGE + min(len(where), MAX_MESSAGE) + 2
    try:
        game = load_game_file(path)
    except GameFileError as err:
        said = str(err)
        fail(f"{where}: {said.removeprefix(f'{path}: ')}", limit)
    refused = games.shipped_id_refusal(game)  # (the web table's form's rule too)
    if refused is not None:
        # (a copy with the same rules is the shipped game, comments aside: is_shipped)
        fail(f"{where}: {refused} (or play the shipped game: GAME {game.id})", limit)
    return game


def register_game_file(path: str) -> str:
    """Load the game file at ``path`` (:func:`check_user_game_file`), make it
    available by its id in this process, and return the id (a shipped file
    unchanged is the shipped game, already available); a mistake exits 2
    with one line."""
    from rollem import games

    game = check_user_game_file(path, "--game-file")
    if not games.is_shipped(game):
        games.register(game)
    return game.id


def games_list(text: str) -> list[str]:
    """The game ids of ``--games`` (comma-separated); an unknown id, or one given
    twice, exits 2 with one line."""
    from rollem import games

    ids = [g.strip().lower() for g in text.split(",") if g.strip()]
    if not ids:
        fail("--games: give at least one game id, comma-separated (e.g. sdr,holdem,stud)")
    known = [g.id for g in games.all_games()]
    for k, gid in enumerate(ids):
        if gid not in known:
            fail(f"--games: unknown game {gid!r}: expected ids among {', '.join(known)}")
        if gid in ids[:k]:  # (a game offered twice is offered once: the flag did nothing)
            fail(f"--games {','.join(ids)}: {gid} is given twice; name each game once "
                 "(e.g. sdr,holdem,stud)")
    return ids


def game_ids_words() -> str:
    """Every game id a command takes, in one order everywhere (s61-term: play,
    rules and simulate each listed them in another): the shipped games (our
    three, then the standard ones: :func:`rollem.games.shipped_ids`), then
    ``dealers-choice``: ``"sdr, rollyourown, rollem521, holdem, ..., deuces-wild
    or dealers-choice"``."""
    from rollem import games

    return f"{', '.join(games.shipped_ids())} or dealers-choice"
