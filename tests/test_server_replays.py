"""Replays of finished hands: the lean form (GameSession.replay)."""

from __future__ import annotations

import random

import orjson
import pytest

pytest.importorskip("starlette")

from rollem.bots import make_bot
from rollem.engine import Hand
from rollem.server.game_session import GameSession
from rollem.table import Table


def _finished_session(game: str, players: int, seed: int) -> GameSession:
    table = Table([200] * players, game=game, rng=random.Random(seed), button=0)
    hand: Hand = table.new_hand()
    bots = [make_bot("basic", random.Random(seed * 100 + s)) for s in range(players)]
    while not hand.is_over:
        p = hand.pending
        assert p is not None
        for s in p.seats:
            hand.apply(s, bots[s].act(hand.view(s)))
            if hand.is_over or hand.pending is not p:
                break
    return GameSession.of_hand(1, hand, list(range(players)), hand.source, hand.options)


@pytest.mark.parametrize(("game", "players", "seed"), [("rollem521", 10, 4), ("rollyourown", 6, 1),
                                                       ("sdr", 3, 2)])
def test_lean_replay_is_the_full_frames_without_the_repeated_log(
        game: str, players: int, seed: int) -> None:
    session = _finished_session(game, players, seed)
    names = [f"P{s}" for s in range(players)]
    for seat in (None, 0, players - 1):
        full = session.frames(seat, names)
        lean = session.replay(seat, names)
        assert "events" not in lean["frames"][0]
        assert lean["events"] == full[-1]["events"]
        rebuilt = [{**{k: v for k, v in f.items() if k != "events_n"},
                    "events": lean["events"][:f["events_n"]]} for f in lean["frames"]]
        assert rebuilt == full
        if game == "rollem521":  # a long 10-player hand: the log was most of it
            assert len(orjson.dumps(lean)) * 2 < len(orjson.dumps(full))
