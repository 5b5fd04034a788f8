"""A trial deal: a game file's game played a few hands by random players.

The checks of :mod:`rollem.games.gamefile` catch what they name; this catches
the rest, so a file the engine cannot deal is refused when it is read (by
``rollem check-game``, ``--game-file`` or the web table's form) rather than
failing at a table, where every deal would fail and the table would wait for
ever.
"""

from __future__ import annotations

import random

from rollem.engine.errors import EngineError
from rollem.engine.game import Game
from rollem.engine.hand import Hand
from rollem.engine.options import Options
from rollem.engine.randomness import SeededSource
from rollem.games.gamefile import GameFileError

__all__ = ["trial_deal"]

MAX_ACTIONS = 5000
"""Decisions a trial hand may take before it is called endless."""


def trial_deal(game: Game, hands: int = 2) -> None:
    """Deal and play ``hands`` seeded hands of ``game`` with its fewest and its most
    players, every decision a random legal one, under the default house options and
    with every true/false house option switched.

    Raises:
        GameFileError: one line naming the player count and what went wrong.
    """
    from rollem.bots.random_bot import random_action

    switched = {k: not v for k, v in game.house.items() if isinstance(v, bool)}
    settings = [Options()] + ([Options(house=switched)] if switched else [])
    for players in sorted({game.min_players, game.max_players}):
        for options in settings:
            for seed in range(hands):
                try:
                    hand = Hand(game, [200] * players, button=seed % players,
                                options=options, source=SeededSource(seed))
                    rng = random.Random(seed)
                    for _ in range(MAX_ACTIONS):
                        if hand.is_over:
                            break
                        seat = hand.pending.seats[0]  # type: ignore[union-attr]
                        hand.apply(seat, random_action(hand.legal_actions(seat), rng))
                    else:
                        raise EngineError(f"no end after {MAX_ACTIONS} decisions")
                except Exception as err:  # any failure: the game cannot be played
                    raise GameFileError(f"a trial hand with {players} players could not be "
                                        f"played: {err}") from None
