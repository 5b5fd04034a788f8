"""Games by short id: each game module registers a :class:`Game` here.

>>> from rollem import games
>>> games.get("sdr").name
'Stop, Drop and Roll'
>>> [(g.id, g.min_players, g.max_players) for g in sorted(games.all_games(), key=lambda g: g.id)]
[('rollem521', 2, 10), ('rollyourown', 2, 8), ('sdr', 2, 10)]
>>> games.get("holdem")
Traceback (most recent call last):
    ...
KeyError: "unknown game 'holdem': expected one of rollem521, rollyourown, sdr"

A game module defines a ``build(options) -> list[Step]`` and calls
:func:`register` at import; add its import to :data:`_MODULES` below.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rollem.engine.options import Options
    from rollem.engine.step import Step

__all__ = ["Game", "all_games", "get", "register"]


@dataclass(frozen=True)
class Game:
    """A game: its steps (built per hand from the options) and limits.

    Attributes:
        id: short id (``"sdr"``), also the hand-history variant ``rollem-<id>``.
        name: display name.
        min_players, max_players: players dealt in.
        build: ``options -> list[Step]``, called once per hand.
        house: the game's house options and their defaults (RULES.md).
        caps: default fixed-limit raises per betting round after the bet.
    """

    id: str
    name: str
    min_players: int
    max_players: int
    build: Callable[[Options], list[Step]]
    house: Mapping[str, Any] = field(default_factory=dict)
    caps: tuple[int, ...] = ()


_GAMES: dict[str, Game] = {}
_MODULES = ("rollem.games.sdr", "rollem.games.rollyourown", "rollem.games.rollem521")
_loaded = False


def register(game: Game) -> Game:
    """Add ``game`` to the registry (called by each game module at import)."""
    _GAMES[game.id] = game
    return game


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for name in _MODULES:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as err:
            if err.name != name:
                raise


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
