"""The web replay's frames from a hand's end on each carry the result in words
(stop 56): the replayer's result step shows the frame where the hand ended, and
when cards were shown by choice after it that frame had no ``narration`` (only
the last frame had), so its result panel fell back to the bare pots ("Bot 2 wins 6
of the pot (6) ...") where the table had said "Bot 2 wins the pot (6) ...")."""

from __future__ import annotations

import random

from rollem.server.config import parse_config
from rollem.server.game_session import GameSession, random_wire_action


def test_the_frame_that_ends_the_hand_is_told_even_with_a_show_after_it() -> None:
    rng = random.Random(7)
    config = parse_config({"game": "holdem", "seats": 3, "stack": 200})
    for seed in range(1, 60):
        session = GameSession.new(seed, "holdem", config, [0, 1, 2],
                                  dict.fromkeys(range(3), 200), 0, names=["Ann", "Bob", "Cy"])
        while not session.over:
            seat = session.pending_seats()[0]
            session.apply(seat, random_wire_action(session.view(seat)["legal"], rng))
        names = session.player_names([])
        mucked = [s for s in range(3) if (session.view(s, names)["legal"] or {}).get(
            "actions") == ["show"] and session.view(None)["seats"][s]["cards"] == []]
        if not mucked:
            continue
        told_at_end = session.replay(0, names)["frames"][-1]["narration"]
        seat = mucked[0]
        session.apply(seat, {"kind": "show", "cards": session.view(seat)["legal"]["cards"]})
        frames = session.replay(0, names)["frames"]
        end = [i for i, f in enumerate(frames) if f["result"] is not None]
        assert end == [len(frames) - 2, len(frames) - 1]
        # the ending frame is told as it was told before the show (main: no narration)
        assert frames[-2]["narration"] == told_at_end
        assert frames[-1]["narration"]
        assert "narration" not in frames[-3]
        return
    raise AssertionError("no hand in 60 had a player who mucked and could show")
