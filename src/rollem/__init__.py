"""rollem: dealer's-choice home poker.

Stop, Drop and Roll, Five Card Roll Your Own and 5-2-1 Roll 'Em, played by
their rules (``RULES.md``): cards, hand evaluation, a rules engine, bots,
odds, hand histories, a terminal game and a web table.

``rollem.__version__`` is read from the installed package's metadata (the
version is written once, in ``pyproject.toml``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rollem.engine.game import Game

__all__ = ["__version__"]


def __getattr__(name: str) -> str:
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("rollem")
        except PackageNotFoundError:  # running from a source tree that is not installed
            return "0+unknown"
    raise AttributeError(f"module 'rollem' has no attribute {name!r}")


def default_catalogue(game_id: str) -> Game:
    """The default game catalogue: the game files of :mod:`rollem.games`
    (what :func:`rollem.engine.game.find_game` uses unless another is set).
    Looked up on first use, so ``import rollem`` stays light (a quick
    ``rollem --help`` imports no engine)."""
    from rollem.games import get

    return get(game_id)
