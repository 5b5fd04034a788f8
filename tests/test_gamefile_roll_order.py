"""A game file's roll-up after a draw, with no stacking step between, told which
cards were kept and which drawn (branch s74-leak).

A roll-up turns up each player's next face-down card in the order held, and a draw
puts the replacements after the kept cards.  In a file dealing five cards, a draw
of up to two and two roll-ups, every card rolled up by a seat that drew was one it
kept (1,192 of 1,192 rolls over 300 deals of 3 players): the table learned which
cards were kept, what the views and every player's copy keep hidden
(:func:`rollem.engine.public_order.public_order`).  A new file is now refused such
a roll-up; with a ``stack`` step after the draw each player orders their cards
(R-521-6), as 5-2-1 does.  A stored file (a table's, a history's) is read as it
was accepted.
"""

from __future__ import annotations

import random

import pytest

from rollem.engine import Hand, SeededSource
from rollem.engine.actions import Call, Check, Draw, Stack
from rollem.games.gamefile import GameFileError, load_game

HEAD = """format = 1
id = "draw-roll"
name = "Draw and Roll"
players = [2, 6]
rules = "Five cards down, a draw of up to two, two cards rolled up with a bet after each."

[[steps]]
step = "ante"

[[steps]]
step = "deal"
cards = 5

[[steps]]
step = "bet"
size = "small"
cap = 3

[[steps]]
step = "{exchange}"
{params}
"""

ROLLS = """
[[steps]]
step = "roll-up"

[[steps]]
step = "bet"
size = "small"
cap = 3

[[steps]]
step = "roll-up"

[[steps]]
step = "bet"
size = "big"
cap = 3

[[steps]]
step = "showdown"
"""

STACK = """
[[steps]]
step = "stack"
"""

DRAW = HEAD.format(exchange="draw", params="max = 2")


def test_a_roll_up_after_a_draw_without_a_stacking_step_is_refused() -> None:
    with pytest.raises(GameFileError) as err:
        load_game(DRAW + ROLLS)
    assert str(err.value) == (
        "steps[4]: a roll-up turns up the cards in the order held, and after the draw at "
        "steps[3] that order tells everyone which cards were kept and which drawn; add "
        'step = "stack" after the draw (each player orders their cards) before the roll-ups')


def test_a_roll_up_after_a_draw_from_the_pool_is_refused_too() -> None:
    text = HEAD.format(exchange="discard", params="cards = 1") + """
[[steps]]
step = "draw-from-pool"
""" + ROLLS
    with pytest.raises(GameFileError, match=r"steps\[5\]: a roll-up .* after the "
                                            r"draw-from-pool at steps\[4\]"):
        load_game(text)


def test_with_a_stacking_step_each_player_orders_what_rolls_up() -> None:
    game = load_game(DRAW + STACK + ROLLS)
    rng = random.Random(7)
    rolled_drawn = 0
    for seed in range(40):
        hand = Hand(game, [100] * 3, button=0, source=SeededSource(seed))
        drawn: dict[int, set[int]] = {}
        while not hand.is_over:
            seat = hand.pending.seats[0]
            legal = hand.legal_actions(seat)
            if "draw" in legal.actions:
                before = set(hand.hole[seat])
                hand.apply(seat, Draw(tuple(rng.sample(list(hand.hole[seat]), 2))))
                drawn[seat] = set(hand.hole[seat]) - before
            elif "stack" in legal.actions:  # the drawn cards on top
                cards = list(hand.hole[seat])
                order = sorted(cards, key=lambda c: c not in drawn.get(seat, ()))
                hand.apply(seat, Stack(tuple(order)))
            else:
                hand.apply(seat, Check() if "check" in legal.actions else Call())
        rolled_drawn += sum(1 for e in hand.events
                            if e.kind == "roll" and e.data["card"] in drawn.get(e.seat, ()))
    assert rolled_drawn == 40 * 3 * 2  # every roll a drawn card, as each player chose


def test_a_stored_file_is_read_as_it_was_accepted() -> None:
    game = load_game(DRAW + ROLLS, strict=False)
    assert game.spec is not None
    assert [s.kind for s in game.spec.steps].count("roll-up") == 2

