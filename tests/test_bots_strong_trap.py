"""The ``strong`` bot against check-raisers (issue 31, fifth pass): the book's
evidence that a player traps (:attr:`Tendencies.trap_evidence`, from its observed
check-raises) and, heads-up, the read equity discounted facing the bets and raises
of a player who check-raised earlier in the hand. Hand-built views (stacked
decks, scripted betting)."""

from __future__ import annotations

import random

import pytest

from engine_helpers import stacked_hand
from rollem.bots.strong import StrongBot
from rollem.bots.strong.bot import _check_raised_by
from rollem.bots.strong.reads import Tendencies
from rollem.engine import Bet, Call, Check, Fold, HandView, Raise


def _check_raised(hero: str, opp: str = "2c 2h") -> HandView:
    """SDR heads-up, Stop 9h, Drop 4c: round 1 checked through; in round 2 seat 0
    checks, seat 1 (``hero``) bets, seat 0 raises: seat 1's view facing that
    check-raise."""
    hand = stacked_hand([200, 200], 1, {0: opp, 1: hero}, stop="9h", drop="4c",
                        roll="Kc Qd Js")
    for action in (Check(), Check(), Check(), Bet(2), Raise(4)):
        assert hand.pending is not None
        hand.apply(hand.pending.seats[0], action)
    assert hand.pending is not None and hand.pending.seats == (1,)
    return hand.view(1)


def _book(bot: StrongBot, *, check_raises: int) -> None:
    """Seat 0's counts: a player of average habits, check-raising ``check_raises``
    of the 40 times it was bet into after checking."""
    t = bot.book.tendencies(0)
    t.bets, t.checks, t.raises, t.calls, t.folds = 30, 60, 10, 30, 20
    t.faced_after_check, t.check_raises = 40, check_raises


@pytest.mark.parametrize(("raises", "faced", "expected"), [
    (0, 0, 0.0),      # never seen: no evidence
    (0, 200, 0.0),    # never check-raises (``basic``)
    (1, 40, 0.0),     # 1 / 70 = 0.014: below the floor of 0.02
    (2, 70, 0.0),     # 2 / 100 = 0.02: at the floor
    (3, 70, 0.5),     # 3 / 100 = 0.03: half way to 0.04
    (6, 94, 1.0),     # ``strong`` itself over 800 heads-up hands: 6 / 124 = 0.048
    (20, 40, 1.0),    # a half-time check-raiser
])
def test_trap_evidence(raises: int, faced: int, expected: float) -> None:
    """The evidence grows from 0 at a raw check-raise rate (check-raises over the
    chances plus 30) of 0.02 to 1 at 0.04."""
    t = Tendencies(faced_after_check=faced, check_raises=raises)
    assert t.trap_evidence == pytest.approx(expected)


def test_check_raised_by() -> None:
    """The seat that raised a bet after checking in the same round, in any earlier
    round of the hand; not a raise without a check before it, not the viewer's
    own check-raise."""
    view = _check_raised("Kd 8c")
    assert _check_raised_by(view) == 0
    plain = [{"kind": "round", "name": "round 1"}, {"kind": "bet", "seat": 0},
             {"kind": "raise", "seat": 1}, {"kind": "round", "name": "round 2"},
             {"kind": "check", "seat": 1}, {"kind": "bet", "seat": 0},
             {"kind": "raise", "seat": 1}]
    assert _check_raised_by(HandView(**{**view.__dict__, "events": plain[:3]})) is None
    assert _check_raised_by(HandView(**{**view.__dict__, "events": plain})) is None
    view_0 = HandView(**{**view.__dict__, "seat": 0, "events": plain})
    assert _check_raised_by(view_0) == 1


def test_a_check_raisers_raise_folds_marginal_hands() -> None:
    """Kd 8c (king high, no Roll yet) facing the round-2 check-raise: against a
    player who check-raised 12 of the 40 times it was bet into after checking it
    folds with every seed (without the discount, as before it, it called every
    seed); against one who never check-raised it still calls every seed."""
    view = _check_raised("Kd 8c")
    acts: dict[tuple[int, float], list[object]] = {}
    for n in (0, 12):
        for discount in (0.0, StrongBot.trap_discount):
            out = []
            for seed in range(6):
                bot = StrongBot(random.Random(seed))
                bot.trap_discount = discount
                _book(bot, check_raises=n)
                out.append(bot.act(view))
            acts[n, discount] = out
    assert all(isinstance(a, Call) for a in acts[0, 0.0]), acts
    assert all(isinstance(a, Call) for a in acts[0, StrongBot.trap_discount]), acts
    assert all(isinstance(a, Call) for a in acts[12, 0.0]), acts
    assert all(isinstance(a, Fold) for a in acts[12, StrongBot.trap_discount]), acts


def test_strong_hands_still_call_a_check_raisers_raise() -> None:
    """Jh Jd (an overpair to the Stop and Drop) against the same check-raiser
    calls or re-raises with every seed: the discount folds marginal hands only."""
    view = _check_raised("Jh Jd")
    for seed in range(6):
        bot = StrongBot(random.Random(seed))
        _book(bot, check_raises=12)
        assert isinstance(bot.act(view), Call | Raise)
