"""What the engine needs to know of a game: :class:`Game` (steps built per hand).

The engine knows no particular game. A game is data: ``rollem.games`` loads
game files (TOML) into :class:`Game` objects. :class:`~rollem.engine.hand.Hand`
also accepts a game's short id, resolved by the catalogue installed with
:func:`set_catalogue`, by default the ``rollem`` package's
``default_catalogue`` (``rollem.games.get``, looked up on first use).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rollem.engine.errors import EngineError

if TYPE_CHECKING:
    from rollem.engine.options import Options
    from rollem.engine.step import Step

__all__ = ["Game", "find_game", "set_catalogue"]


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
        rules: the players' rules text (plain text; may be empty).
        source: the game file's text when loaded from a file (else empty).
        spec: the parsed game file (``rollem.games.gamefile.GameSpec``) or ``None``.
        deck: the cards the game is dealt from (ints 0..51): all 52, or a
            short deck's 36 (sixes to aces; PHH's NS, issue 29), which a
            hand shuffles with its random source.
    """

    id: str
    name: str
    min_players: int
    max_players: int
    build: Callable[[Options], list[Step]]
    house: Mapping[str, Any] = field(default_factory=dict)
    caps: tuple[int, ...] = ()
    rules: str = ""
    source: str = ""
    spec: Any = field(default=None, compare=False, repr=False)
    deck: tuple[int, ...] = tuple(range(52))


_catalogue: Callable[[str], Game] | None = None


def set_catalogue(find: Callable[[str], Game]) -> None:
    """Install the function that resolves a short id to a :class:`Game`
    (raising ``KeyError`` naming the ids allowed)."""
    global _catalogue
    _catalogue = find


def find_game(game_id: str) -> Game:
    """The game with short id ``game_id`` from the installed catalogue.

    Raises:
        KeyError: unknown id (the catalogue's message names the ids allowed).
        EngineError: no catalogue installed and none by default.
    """
    find = _catalogue
    if find is None:
        import rollem  # the package's default: the game files of rollem.games

        find = getattr(rollem, "default_catalogue", None)
        if find is None:
            raise EngineError(f"no game catalogue to look up {game_id!r}: pass a Game instead")
    return find(game_id)
