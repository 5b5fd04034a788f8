"""Games by short id, each loaded from a game file (TOML data, never code).

The shipped files are in ``rollem/games/files/``: our three games (``sdr``,
``rollyourown``, ``rollem521``) and the standard games (``holdem``,
``omaha``, ``omaha8``, ``stud``, ``stud8``, ``razz``, ``draw5``,
``deuces-wild``). A user's own file: :func:`rollem.games.gamefile.load_game_file`.

>>> from rollem import games
>>> from rollem.games import DEFAULT_CHOICE
>>> games.get("sdr").name
'Stop, Drop and Roll'
>>> set(DEFAULT_CHOICE) <= {g.id for g in games.all_games()}
True
>>> games.get("nosuch")  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
KeyError: "unknown game 'nosuch': expected one of ..."
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import resources

from rollem.engine.game import Game

__all__ = [
    "DEFAULT_CHOICE",
    "STANDARD",
    "Game",
    "all_games",
    "differs_from_shipped",
    "get",
    "in_usual_order",
    "is_shipped",
    "register",
    "shipped_ids",
    "shipped_source",
]

DEFAULT_CHOICE = ("sdr", "rollyourown", "rollem521")
"""The games a dealer's choice offers unless the host picks others (our three)."""

STANDARD = ("holdem", "omaha", "omaha8", "stud", "stud8", "razz", "draw5", "deuces-wild")
"""The standard games shipped as game files."""

_GAMES: dict[str, Game] = {}
_SHIPPED: dict[str, Game] = {}
_loaded = False


def register(game: Game) -> Game:
    """Add ``game`` to the registry (replacing a game with the same id)."""
    _GAMES[game.id] = game
    return game


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    from rollem.games.gamefile import load_game

    folder = resources.files("rollem.games").joinpath("files")
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            game = load_game(entry.read_text(encoding="utf-8"))
            _SHIPPED[game.id] = game
            _GAMES.setdefault(game.id, game)


def get(game_id: str) -> Game:
    """The game with short id ``game_id``.

    Raises:
        KeyError: naming the ids allowed.
    """
    _load()
    try:
        return _GAMES[game_id]
    except KeyError:
        raise KeyError(
            f"unknown game {game_id!r}: expected one of {', '.join(sorted(_GAMES))}"
        ) from None


def all_games() -> list[Game]:
    """Every registered game, by id."""
    _load()
    return [_GAMES[k] for k in sorted(_GAMES)]


def shipped_ids() -> list[str]:
    """The ids of the shipped game files: our three (:data:`DEFAULT_CHOICE`) first,
    then the standard games (:data:`STANDARD`), then any other shipped file."""
    _load()
    first = [g for g in (*DEFAULT_CHOICE, *STANDARD) if g in _SHIPPED]
    return first + sorted(set(_SHIPPED) - set(first))


def in_usual_order(games: Iterable[Game]) -> list[Game]:
    """``games`` in the order every list of games uses (the web form, the docs,
    ``rollem play``'s GAME): our three (:data:`DEFAULT_CHOICE`), then the standard
    games (:data:`STANDARD`), then any other game (a user's file) by id.

    >>> from rollem import games
    >>> [g.id for g in in_usual_order([get("stud"), get("sdr"), get("rollem521")])]
    ['sdr', 'rollem521', 'stud']
    """
    first = {gid: k for k, gid in enumerate((*DEFAULT_CHOICE, *STANDARD))}
    return sorted(games, key=lambda g: (first.get(g.id, len(first)), g.id))


def is_shipped(game: Game) -> bool:
    """Whether ``game`` is a shipped game: a shipped game file as shipped, or a
    copy whose rules are the same (same id, the same game once read: only its
    comments, spacing or the order of its keys differ; s61-term: a copy with a
    comment added was refused as "a shipped game's id"). A user's file reusing
    a shipped id with other rules (:func:`differs_from_shipped`) is not."""
    _load()
    shipped = _SHIPPED.get(game.id)
    return shipped is not None and (shipped is game or shipped.source == game.source
                                    or differs_from_shipped(game) == [])


def shipped_id_refusal(game: Game) -> str | None:
    """Why a user's game file whose game is ``game`` may not be played: its id is
    a shipped game's and its rules are not that game's (:func:`is_shipped`; its
    hand histories would name the shipped game).  ``None`` when it may: its id is
    its own, or its rules are the shipped game's (comments and layout aside), and
    it plays as the shipped game.  The one rule of ``rollem check-game``,
    ``--game-file`` and the web table's form (s62-table: the form refused what
    the command accepted).  The words, one line: ``"id 'holdem' is the shipped
    holdem's, and this file's name differs from it; give your game an id of its
    own"`` (the parts that differ: :func:`differs_from_shipped`)."""
    if game.id not in shipped_ids() or is_shipped(game):
        return None
    parts = differs_from_shipped(game)
    if parts:
        from rollem.narration.words import and_list

        return (f"id {game.id!r} is the shipped {game.id}'s, and this file's "
                f"{and_list(parts)} {'differs' if len(parts) == 1 else 'differ'} from it; "
                "give your game an id of its own")
    return f"id {game.id!r} is a shipped game's id; give your game an id of its own"


def shipped_source(game_id: str) -> str | None:
    """The text of the shipped game file of ``game_id`` (``None``: none shipped)."""
    _load()
    shipped = _SHIPPED.get(game_id)
    return None if shipped is None else shipped.source


def differs_from_shipped(game: Game) -> list[str] | None:
    """What a game file's ``game`` changes in the shipped game of its id: the
    names of the game file's parts that differ (``["name", "steps"]``, in file
    order: id, name, min_players, max_players, rules, house, choices, steps,
    deck; its text aside), ``[]`` for the same rules; ``None`` when no shipped
    game has its id or either is not read from a game file."""
    import dataclasses

    _load()
    shipped = _SHIPPED.get(game.id)
    if shipped is None or shipped.spec is None or game.spec is None:
        return None
    return [f.name for f in dataclasses.fields(game.spec) if f.name != "text"
            and getattr(game.spec, f.name) != getattr(shipped.spec, f.name)]
