"""The strong level's expected gain of a bet over a check (issue 20): the
arithmetic on worked examples, and the bot counting an opponent's raises in
pot and no limit only."""

from __future__ import annotations

import random

import numpy as np
import pytest

from rollem.bots import make_bot
from rollem.bots.strong import StrongBot
from rollem.bots.strong.gains import bet_gain, pot_raise_to
from rollem.bots.strong.reads import Tendencies
from rollem.engine import Hand, SeededSource
from rollem.engine.options import Options

ONE = np.array([1.0])


def test_a_call_plays_the_bigger_pot_and_a_check_the_pot() -> None:
    # pot 10, bet 10, called for sure at 20% equity: 0.2 * 30 - 10 = -4 against
    # the check's 0.2 * 10 = 2, so the bet loses 6
    assert bet_gain(10, 10, np.array([0.2]), ONE, ONE) == pytest.approx(-6.0)
    # folded to half the time: 0.5 * 10 + 0.5 * (0.2 * 30 - 10) - 2 = 1
    assert bet_gain(10, 10, np.array([0.2]), np.array([0.5]), ONE) == pytest.approx(1.0)


def test_a_raise_is_answered_one_way_over_the_raising_worlds() -> None:
    # a weak hand raised for sure: folding loses the bet (-10) rather than
    # calling to 30 (0.2 * 70 - 30 = -16); with the check's -2 that is -12
    assert bet_gain(10, 10, np.array([0.2]), ONE, ONE, ONE, 30) == pytest.approx(-12.0)
    # a strong hand is glad of the raise: 0.9 * 70 - 30 = 33, less the check's 9
    assert bet_gain(10, 10, np.array([0.9]), ONE, ONE, ONE, 30) == pytest.approx(24.0)
    assert bet_gain(10, 10, np.array([0.9]), ONE, ONE) == pytest.approx(8.0)


def test_two_worlds_worked_by_hand() -> None:
    # pot 10, bet 5, raise to 20. World A (weight 1/2): equity 0.9, always
    # raises. World B: equity 0.1, calls half the time, never raises.
    share, calls = np.array([0.9, 0.1]), np.array([1.0, 0.5])
    weights, raises = np.array([0.5, 0.5]), np.array([1.0, 0.0])
    # A: -9 (the check's share), B: 0.5 * 10 + 0.5 * (0.1 * 20 - 5) - 1 = 2.5;
    # the raise in A is called: 0.5 * (0.9 * 50 - 20) = 12.5
    assert bet_gain(10, 5, share, calls, weights, raises, 20) == pytest.approx(
        0.5 * -9 + 0.5 * 2.5 + 12.5)
    # without raises, A is a call: 0.9 * 20 - 5 - 9 = 4
    assert bet_gain(10, 5, share, calls, weights) == pytest.approx(0.5 * 4 + 0.5 * 2.5)


def test_the_modelled_raise_size() -> None:
    assert pot_raise_to(10, 5, 100) == 5 + (2 * 20) // 3  # two thirds of 20 over 5
    assert pot_raise_to(0, 3, 100) == 7  # into an empty pot: 3 + 4
    assert pot_raise_to(10, 5, 12) == 12  # capped at the smaller stack


def test_bad_sizes_are_refused() -> None:
    with pytest.raises(ValueError, match="bet must be at least 1 chip, got 0"):
        bet_gain(10, 0, ONE, ONE, ONE)
    with pytest.raises(ValueError, match=r"raise_to must be above the bet \(5 chips\)"):
        bet_gain(10, 5, ONE, ONE, ONE, ONE, 5)


def _free_to_bet(structure: str, weak: bool) -> tuple[StrongBot, object, int]:
    """A heads-up SDR spot where the strong bot may bet, with a weak (equity
    below 0.35) or strong (above 0.65) hand over its sampled worlds."""
    for seed in range(300):
        hand = Hand("sdr", [200, 200], button=seed % 2, source=SeededSource(seed),
                    options=Options(structure=structure))
        while not hand.is_over and hand.pending is not None:
            seat = hand.pending.seats[0]
            view = hand.view(seat)
            if view.legal is not None and "bet" in view.legal.actions:
                bot = StrongBot(random.Random(seed), samples=120)
                found = bot._heads_up_range(view)
                if found is not None:
                    _, weights, share = found
                    eq = float((weights * share).sum())
                    if (eq < 0.35) if weak else (eq > 0.65):
                        return bot, view, view.pot + sum(s.bet for s in view.seats)
                break
            hand.apply(seat, make_bot("basic", random.Random(seed)).act(view))
    raise AssertionError("no seed gave the spot")


def _gains(bot: StrongBot, view: object, pot: int) -> dict[str, float]:
    """The bet's gain against an opponent who raises often and one who never
    does, both folding to bets equally often."""
    out = {}
    opponent = next(s.seat for s in view.seats if s.seat != view.seat)  # type: ignore[attr-defined]
    for name, book in (("raiser", Tendencies(raises=40, calls=40, folds=20)),
                       ("never", Tendencies(raises=0, calls=80, folds=20))):
        assert abs(book.fold_rate - 0.21) < 0.02
        bot.book.seats[opponent] = book
        out[name] = bot._bet_gain(view, view.legal, pot)  # type: ignore[attr-defined]
    return out


def test_no_limit_a_weak_bet_is_worth_less_against_a_raiser() -> None:
    bot, view, pot = _free_to_bet("no-limit", weak=True)
    gains = _gains(bot, view, pot)
    assert gains["raiser"] < gains["never"] - 0.02 * pot, gains


def test_fixed_limit_raises_are_left_to_the_calls() -> None:
    bot, view, pot = _free_to_bet("fixed-limit", weak=True)
    gains = _gains(bot, view, pot)
    assert gains["raiser"] == pytest.approx(gains["never"]), gains
