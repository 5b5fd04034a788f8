"""PHH's variant codes as rollem plays them, and :class:`PHHError` (issue 29)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rollem.engine.game import Game
from rollem.engine.options import FIXED_LIMIT, NO_LIMIT, POT_LIMIT

__all__ = ["CODES", "FL_HOLDEM_CAPS", "MAX_HANDS", "NOT_PLAYED", "PHH_GAMES", "VARIANTS",
           "PHHError", "Variant", "variant_game"]


FL_HOLDEM_CAPS = (4, 3, 3, 3)
"""Fixed-limit hold'em raises after the bet per round as PokerKit plays FT:
four raises over the big blind before the flop, three after."""


@dataclass(frozen=True)
class Variant:
    """A PHH variant code rollem plays: the game, its betting structure and
    the fixed-limit raise caps (``None``: the game's own). ``min_bet``: the
    file states ``min_bet`` (NT, PO), else ``small_bet`` and ``big_bet``."""

    code: str
    game: str
    structure: str
    caps: tuple[int, ...] | None = None
    min_bet: bool = False


VARIANTS: dict[str, Variant] = {
    "FT": Variant("FT", "holdem", FIXED_LIMIT, FL_HOLDEM_CAPS),
    "NT": Variant("NT", "holdem", NO_LIMIT, min_bet=True),
    "PO": Variant("PO", "omaha", POT_LIMIT, min_bet=True),
    # PokerKit 0.7 plays FO/8 pot limit (its class takes the small and big
    # bet but mixes in pot-limit betting); rollem follows PokerKit so that
    # both replay a file to the same stacks (tests/pokerkit_diff.py)
    "FO/8": Variant("FO/8", "omaha8", POT_LIMIT),
    "F7S": Variant("F7S", "stud", FIXED_LIMIT),
    "F7S/8": Variant("F7S/8", "stud8", FIXED_LIMIT),
    "FR": Variant("FR", "razz", FIXED_LIMIT),
    # read from PHH only: game files of rollem.phh (PHH_GAMES), not offered at a table
    "N2L1D": Variant("N2L1D", "deuce7-single", NO_LIMIT, min_bet=True),
    "F2L3D": Variant("F2L3D", "deuce7-triple", FIXED_LIMIT, FL_HOLDEM_CAPS),
    "FB": Variant("FB", "badugi", FIXED_LIMIT, FL_HOLDEM_CAPS),
    "NS": Variant("NS", "shortdeck", NO_LIMIT, min_bet=True),
}
"""The PHH variant codes rollem plays."""


PHH_GAMES = ("deuce7-single", "deuce7-triple", "badugi", "shortdeck")
"""Games rollem plays only to read PHH files (``rollem/phh/games/ID.toml``):
deuce-to-seven lowball single draw (N2L1D) and triple draw (F2L3D), badugi
(FB), short-deck hold'em (NS)."""


NOT_PLAYED: dict[str, str] = {}
"""The phh-std 0.0.2 variant codes rollem has no game for (none)."""


CODES: dict[tuple[str, str], str] = {
    **{(v.game, v.structure): v.code for v in VARIANTS.values() if v.code != "FO/8"},
    # FO/8 is fixed limit in phh-std; PokerKit's pot-limit reading replays a
    # fixed-limit hand's actions to the same stacks (each is legal there too)
    ("omaha8", FIXED_LIMIT): "FO/8",
}
"""(game id, structure) -> PHH variant code, for export."""


_LOADED: dict[str, Game] = {}


def variant_game(game_id: str) -> Game:
    """The game of a PHH variant: a shipped game, or one of :data:`PHH_GAMES`
    (loaded from its file once).

    Raises:
        KeyError: an unknown game id.
    """
    if game_id not in PHH_GAMES:
        from rollem import games

        return games.get(game_id)
    if game_id not in _LOADED:
        from rollem.games.gamefile import load_game

        text = (Path(__file__).parent / "games" / f"{game_id}.toml").read_text(encoding="utf-8")
        _LOADED[game_id] = load_game(text, phh=True)
    return _LOADED[game_id]


MAX_HANDS = 10_000
"""Most hands read from one ``.phhs`` file."""


class PHHError(ValueError):
    """A PHH file rollem cannot read or replay, or a hand it cannot write as
    PHH; the message is one line of at most 300 characters, cut at a word
    with ``" ..."`` when longer (:func:`rollem.text.clip`)."""

    def __init__(self, message: str) -> None:
        from rollem.text import clip

        super().__init__(clip(message, 300))
