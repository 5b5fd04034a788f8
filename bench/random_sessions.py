"""Hands played by random legal actions, for the benches that time what a table
sends after each action (``bench_web_state.py``, ``bench_own_pad.py``)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from rollem.server.config import parse_config
from rollem.server.game_session import GameSession, random_wire_action


def random_play(games: list[str], hands: int, seats: int,
                names: list[str]) -> Iterator[GameSession]:
    """The session after each action of ``hands`` seeded hands (seeds 0, 1, ...)
    of each of ``games`` at a dealer's choice table of ``seats`` seats, stacks 200
    chips, the button at seat ``seed % seats``; every action a random legal one
    (:func:`rollem.server.game_session.random_wire_action`, seeded by the hand)."""
    config = parse_config({"game": "dealers-choice", "seats": seats, "stack": 200})
    for seed in range(hands):
        for game in games:
            rng = random.Random(seed)
            session = GameSession.new(seed, game, config, list(range(seats)),
                                      dict.fromkeys(range(seats), 200), seed % seats,
                                      names=names)
            while not session.over:
                seat = session.pending_seats()[0]
                legal = session.hand.view(seat).to_dict()["legal"]
                session.apply(seat, random_wire_action(legal, rng))
                yield session
