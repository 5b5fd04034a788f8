"""``strong`` free to bet with two or more opponents in, fixed limit: the bet is
priced with each opponent folding on its own (issue 31, twenty-second pass;
:func:`rollem.bots.strong.gains.multi_bet_gain`)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine_helpers import stacked_hand
from rollem.bots.strong import StrongBot
from rollem.bots.strong.gains import bet_gain, multi_bet_gain
from rollem.engine import Bet, Check, HandView, Options


def test_multi_bet_gain_by_hand() -> None:
    """Pot 6, bet 2, two opponents, three worlds:
    A (weight 0.5): both fold: 6 - 0.2 * 6 = 4.8;
    B (0.25): one calls for sure at callers' share 0.5: 0.5 * 8 - 2 + 0.5 * 2 - 0.3 * 6 = 1.2;
    C (0.25): each calls half the time (all fold 0.25, 1 caller on average), share
    0.25: 0.25 * 6 + 0.75 * (0.25 * 8 - 2) + 0.25 * 2 - 0.25 * 6 = 0.5;
    in all 0.5 * 4.8 + 0.25 * 1.2 + 0.25 * 0.5 = 2.825."""
    share = np.array([0.2, 0.3, 0.25])
    callers_share = np.array([0.2, 0.5, 0.25])
    calls = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, 0.5]])
    weights = np.array([0.5, 0.25, 0.25])
    assert multi_bet_gain(6, 2, share, callers_share, calls, weights) == pytest.approx(2.825)
    with pytest.raises(ValueError, match="at least 1 chip"):
        multi_bet_gain(6, 0, share, callers_share, calls, weights)


def test_multi_bet_gain_heads_up_is_bet_gain() -> None:
    """With one opponent (its share against the callers its share) the price is
    the heads-up :func:`bet_gain` without raises."""
    rng = np.random.default_rng(3)
    share, calls = rng.random(50), rng.random(50)
    weights = rng.random(50)
    weights /= weights.sum()
    assert multi_bet_gain(10, 4, share, share, calls[:, None], weights) == pytest.approx(
        bet_gain(10, 4, share, calls, weights))


def _checked_to_four_handed(hero: str, structure: str = "fixed-limit") -> HandView:
    """SDR (``structure``), four-handed, button seat 3 (``hero``): seats 0-2 (2c 2h,
    7d 3s, Ac 5h) check round 1; seat 3's view, free to bet."""
    holes = {0: "2c 2h", 1: "7d 3s", 2: "Ac 5h", 3: hero}
    hand = stacked_hand([200] * 4, 3, holes, stop="9h", drop="4c", roll="Kc Qd Js",
                        options=Options(structure=structure))
    for _ in range(3):
        assert hand.pending is not None
        hand.apply(hand.pending.seats[0], Check())
    assert hand.pending is not None and hand.pending.seats == (3,)
    return hand.view(3)


def _field(bot: StrongBot, folds: int) -> None:
    """Seats 0-2 seen facing 40 bets each, folding ``folds`` of them."""
    for seat in range(3):
        t = bot.book.tendencies(seat)
        t.bets, t.checks, t.raises, t.calls, t.folds = 10, 30, 5, 35 - folds, folds


@pytest.mark.parametrize("seed", [1, 2])
def test_bets_into_a_field_that_folds_and_checks_into_one_that_calls(seed: int) -> None:
    """Jd 5c checked to four-handed (equity about 0.18, below the value bet's
    1.45 / 4): against three players who fold 28 of 40 bets (fold rate 30/45)
    all three fold about a third of the time, and the bet gains about half a
    chip of the 4 in the pot: it bets (main checked every multiway hand below
    the value threshold). Against players who fold 10 of 40 (12/45) the bet
    loses chips: it checks. Without :attr:`StrongBot.multi_bets` it checks."""
    view = _checked_to_four_handed("Jd 5c")
    bot = StrongBot(random.Random(seed))
    _field(bot, 28)
    assert bot.book.tendencies(0).fold_rate == pytest.approx(30 / 45)
    assert max(bot.equities(view).values()) < 1.45 / 4
    assert view.legal is not None
    assert 0.3 < bot._multi_bet_gain(view, view.legal, 4) < 0.7
    assert bot.act(view) == Bet(2)
    calls = StrongBot(random.Random(seed))
    _field(calls, 10)
    assert view.legal is not None
    assert calls._multi_bet_gain(view, view.legal, 4) < 0.0
    assert calls.act(view) == Check()
    old = StrongBot(random.Random(seed))
    old.multi_bets = False
    _field(old, 28)
    assert old.act(view) == Check()


def test_the_price_bets_only_in_its_cells() -> None:
    """The price acts in the (game, structure) pairs of
    :attr:`StrongBot.multi_bet_cells` only: the Jd 5c spot above against a
    folding field bets in SDR fixed limit with the default cells and checks
    with none; in no limit it checks with the default cells (SDR fixed limit
    only) and, with ``("sdr", "no-limit")`` added, bets the price's size (two
    thirds of the pot of 4: 2 chips, the smallest bet) where its gain clears
    0.05 x pot."""
    assert StrongBot.multi_bet_cells == frozenset({("sdr", "fixed-limit")})
    view = _checked_to_four_handed("Jd 5c")
    none = StrongBot(random.Random(1))
    none.multi_bet_cells = frozenset()
    _field(none, 28)
    assert none.act(view) == Check()
    on = StrongBot(random.Random(1))
    _field(on, 28)
    assert on.act(view) == Bet(2)
    nl = _checked_to_four_handed("Jd 5c", "no-limit")
    default = StrongBot(random.Random(1))
    _field(default, 28)
    assert default.act(nl) == Check()
    added = StrongBot(random.Random(1))
    added.multi_bet_cells = StrongBot.multi_bet_cells | {("sdr", "no-limit")}
    _field(added, 28)
    assert nl.legal is not None
    assert added._multi_bet_gain(nl, nl.legal, 4) > 0.05 * 4
    assert added.act(nl) == Bet(2)
