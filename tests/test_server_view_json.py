"""The web table's state text (issue 13, speed): ``GameSession.view_json`` builds
each viewer's view once per change of the hand and serialises each event once,
so it must say exactly what ``GameSession.view`` says, for every viewer, at
every step of every game, including the finished hand's narration and cards
shown by choice afterwards (R-C-11)."""

from __future__ import annotations

import json
import random

import pytest

from rollem.cards import parse_card
from rollem.engine.views import build_view
from rollem.server.config import parse_config
from rollem.server.game_session import GameSession, games_for, random_wire_action


def _hand(game: str, seed: int) -> GameSession:
    config = parse_config({"game": "dealers-choice", "seats": 6, "stack": 200})
    names = [f"p{i}" for i in range(6)]
    session = GameSession.new(seed, game, config, list(range(6)), dict.fromkeys(range(6), 200),
                              seed % 6, names=names)
    return session


@pytest.mark.parametrize("game", games_for(6))
@pytest.mark.parametrize("seed", [3])
def test_view_json_is_the_view_for_every_viewer_at_every_step(game: str, seed: int) -> None:
    rng = random.Random(seed)
    session = _hand(game, seed)
    names = session.player_names([])
    viewers: list[int | None] = [None, *range(6)]
    steps = 0
    while True:
        for seat in viewers:
            shown = names if session.over else None
            text = session.view_json(seat, shown)
            assert json.loads(text) == session.view(seat, shown), (game, seed, seat, steps)
            # Asked again without a change: the very same text (built once).
            assert session.view_json(seat, shown) is text
        if session.over:
            break
        seat = session.pending_seats()[0]
        legal = session.view(seat)["legal"]
        session.apply(seat, random_wire_action(legal, rng))
        steps += 1
    assert steps >= 3
    final = json.loads(session.view_json(0, names))
    assert final["result"] is not None and final["narration"], final
    # A watcher never sees a hole card that was not shown (the redaction holds).
    watcher = json.loads(session.view_json(None, names))
    assert watcher == session.view(None, names)


def test_a_show_by_choice_after_the_hand_changes_the_text() -> None:
    rng = random.Random(7)
    for seed in range(1, 40):
        session = _hand("sdr", seed)
        while not session.over:
            seat = session.pending_seats()[0]
            session.apply(seat, random_wire_action(session.view(seat)["legal"], rng))
        names = session.player_names([])
        showable = [s for s in range(6)
                    if (session.view(s, names)["legal"] or {}).get("actions") == ["show"]]
        folded = [s for s in showable if session.view(None)["seats"][s]["cards"] == []]
        if not folded:
            continue
        seat = folded[0]
        before = session.view_json(None, names)
        cards = session.view(seat)["legal"]["cards"]
        session.apply(seat, {"kind": "show", "cards": cards})
        after = session.view_json(None, names)
        assert after != before
        assert json.loads(after) == session.view(None, names)
        # to others, in public_order: highest first, not the order dealt
        assert json.loads(after)["seats"][seat]["cards"] == \
            sorted(cards, key=lambda c: int(parse_card(c)), reverse=True)
        return
    pytest.fail("no hand in 40 had a folded player who could show")


@pytest.mark.parametrize("game", games_for(6))
def test_a_view_built_on_the_spectators_view_is_the_same_view(game: str) -> None:
    """``build_view(hand, seat, base=spectator's view)`` shares all but the seat's own
    parts with the spectator's view: it must equal the view built from scratch, for
    every seat, with and without events (a seat number past the hand's is refused
    on both paths, stop 51: test_views_seat.py)."""
    rng = random.Random(11)
    session = _hand(game, 5)
    hand = session.hand
    while True:
        base = build_view(hand, None, events=False)
        for seat in [None, *range(6)]:
            for events in (False, True):
                built = build_view(hand, seat, events=events, base=base)
                assert built == build_view(hand, seat, events=events), (game, seat)
        if session.over:
            break
        seat = session.pending_seats()[0]
        session.apply(seat, random_wire_action(session.view(seat)["legal"], rng))
    with pytest.raises(ValueError, match="spectator"):
        build_view(hand, 1, base=build_view(hand, 0))
    with pytest.raises(ValueError, match="no such seat"):
        build_view(hand, 9, base=build_view(hand, None))
