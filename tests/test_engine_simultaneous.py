"""The all-at-once mechanism (DESIGN.md; R-RYO-3 style expose) with a generic test game:
choices stay hidden from every other seat and spectators until all have chosen."""

from __future__ import annotations

import json

import pytest

from rollem.engine import (
    Ante,
    BettingRound,
    Check,
    DealHole,
    Expose,
    ExposeOne,
    Hand,
    IllegalAction,
    Options,
    SeededSource,
    Showdown,
)
from rollem.games import Game

TEST_GAME = Game(
    id="expose-test",
    name="Expose test",
    min_players=2,
    max_players=6,
    build=lambda o: [
        Ante(o.ante),
        DealHole(5),
        ExposeOne(),
        BettingRound("round 1", o.small_bet, 1, o.structure),
        Showdown(cards_of=lambda h, s: list(h.hole[s])),
    ],
)


def test_expose_all_at_once_hidden_until_all_chose() -> None:
    h = Hand(TEST_GAME, [50, 50, 50], button=0, options=Options(), source=SeededSource(4))
    p = h.pending
    assert p is not None and p.simultaneous and p.kind == "expose"
    assert set(p.seats) == {0, 1, 2}
    legal = h.legal_actions(1)
    assert legal.actions == ("expose",) and set(legal.cards) == set(h.hole[1])
    card1 = h.hole[1][3]
    h.apply(1, Expose(card1))
    # seat 1 cannot choose twice
    with pytest.raises(IllegalAction, match="cannot act now"):
        h.apply(1, Expose(h.hole[1][0]))
    # nobody else (nor a spectator) can see seat 1's choice yet; seat 1 can
    for viewer in (0, 2, None):
        text = json.dumps(h.view(viewer).to_dict())
        assert str(card1) not in text
    assert str(card1) in json.dumps(h.view(1).to_dict()["events"])
    assert h.up[1] == [False] * 5  # not applied yet
    # a card the seat does not hold is refused, changing nothing
    with pytest.raises(IllegalAction, match="down cards"):
        h.apply(2, Expose(h.hole[0][0]))
    h.apply(2, Expose(h.hole[2][0]))
    assert h.pending is not None and h.pending.seats == (0,)
    h.apply(0, Expose(h.hole[0][1]))
    # revealed together: now public
    assert h.up[1][3] and h.up[2][0] and h.up[0][1]
    spectator = h.view(None).to_dict()
    # another seat's face-up cards first (in the order turned up), then its card backs
    assert spectator["seats"][1]["cards"] == [str(card1), None, None, None, None]
    assert spectator["seats"][1]["up"] == [True, False, False, False, False]
    assert h.pending is not None and h.pending.kind == "bet"
    while not h.is_over:
        assert h.pending is not None
        h.apply(h.pending.seats[0], Check())
    assert h.result is not None
    assert sum(h.stacks) == 150
