"""Table sessions (R-C-12): button movement, sitting out, rebuys, dealer's choice, carry."""

from __future__ import annotations

import random

import pytest

from engine_helpers import play_out
from rollem.bots.random_bot import random_action
from rollem.engine import Check
from rollem.table import Table, TableError


def _check_down(table: Table) -> None:
    """Check every betting round; other decisions (draws, stacking, declare) at random."""
    hand = table.hand
    assert hand is not None
    rng = random.Random(0)
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        if hand.pending.kind == "bet":
            hand.apply(seat, Check())
        else:
            hand.apply(seat, random_action(hand.legal_actions(seat), rng))
    table.end_hand()


def test_button_moves_to_next_seat_dealt_in() -> None:
    table = Table([100, 0, 100, 100], button=0, rng=random.Random(1))
    buttons = []
    for _ in range(4):
        hand = table.new_hand()
        buttons.append(hand.button)
        assert hand.hole[1] == []  # no chips: sits out
        _check_down(table)
    assert buttons == [0, 2, 3, 0]


def test_first_button_skips_a_seat_without_chips() -> None:
    table = Table([0, 100, 100], button=0, rng=random.Random(1))
    assert table.new_hand().button == 1


def test_stacks_carry_between_hands_and_chips_are_conserved() -> None:
    rng = random.Random(4)
    table = Table([50] * 5, rng=random.Random(2), rebuy=50)
    for _ in range(100):
        play_out(table.new_hand(), rng)
        table.end_hand()
        assert table.chips == sum(table.brought)
    assert table.hands == 100


def test_without_rebuys_broke_seats_sit_out_until_one_is_left() -> None:
    rng = random.Random(5)
    table = Table([10, 10, 10], rng=random.Random(3))
    with pytest.raises(TableError, match="at least 2"):
        for _ in range(10000):
            play_out(table.new_hand(), rng)
            table.end_hand()
            assert sum(table.stacks) == 30
    assert sum(1 for s in table.stacks if s > 0) == 1


def test_dealers_choice_picks_a_game_that_fits() -> None:
    table = Table([100] * 9, game="dealers-choice", rng=random.Random(1))
    for _ in range(10):
        hand = table.new_hand()
        assert hand.game.min_players <= 9 <= hand.game.max_players
        _check_down(table)
    # the button may name the game
    hand = table.new_hand("sdr")
    assert hand.game.id == "sdr"


def test_carry_goes_into_the_next_main_pot() -> None:
    table = Table([100, 100], rng=random.Random(1))
    table.carry = 7  # e.g. a 5-2-1 pot carried over (R-521-9)
    hand = table.new_hand()
    assert hand.carry_in == 7 and table.carry == 0
    _check_down(table)
    assert hand.result is not None
    assert sum(p.amount for p in hand.result.pots) == 2 + 7
    assert table.chips == 207
