"""Wrong or unclear words found at the table (issue 26), each fixed where it is said."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rollem.bots.random_bot import random_action
from rollem.engine import Hand, SeededSource

STATIC = Path(__file__).parents[1] / "src" / "rollem" / "server" / "static"


def test_a_draw_decision_is_never_called_a_draw_from_the_pool() -> None:
    """A ``draw`` decision is a draw from the stub (5-2-1, draw poker): new cards are
    dealt. Roll Your Own's draws from the pool are no decision (nothing to choose), so
    the table never asks anyone to "draw from the pool" or "replace from the pool"."""
    for seed in range(5):
        hand = Hand("rollyourown", [100] * 4, button=0, source=SeededSource(seed))
        rng = random.Random(seed)
        while not hand.is_over:
            assert hand.pending is not None and hand.pending.kind != "draw"
            seat = hand.pending.seats[0]
            hand.apply(seat, random_action(hand.legal_actions(seat), rng))
    for path in STATIC.glob("*.js"):
        text = path.read_text(encoding="utf-8")
        for wrong in ("draw from the pool", "replace from the pool"):
            assert wrong not in text, (path.name, wrong)


@pytest.mark.parametrize("game", ["rollem521", "draw5"])
def test_the_draw_help_says_new_cards_are_dealt(game: str) -> None:
    from rollem import games
    from rollem.rules.game_help import explain_decision

    text = explain_decision(games.get(game), "draw", None, "fixed-limit")
    assert "pool" not in text and "dealt" in text
