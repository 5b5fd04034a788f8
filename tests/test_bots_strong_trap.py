"""The ``strong`` bot against check-raisers (issue 31, fifth pass): the book's
evidence that a player traps (:attr:`Tendencies.trap_evidence`, from its observed
check-raises) and, against two or more opponents, value bets into a check-raiser's
checks only with more equity. Hand-built views (stacked decks, scripted betting)."""

from __future__ import annotations

import random

import pytest

from engine_helpers import stacked_hand
from rollem.bots.strong import StrongBot
from rollem.bots.strong.reads import Tendencies
from rollem.engine import Bet, Check, Hand, HandView
from rollem.engine.options import Options


@pytest.mark.parametrize(("raises", "faced", "expected"), [
    (0, 0, 0.0),      # never seen: no evidence
    (0, 193, 0.0),    # never check-raises (``strong`` 1 vs 5, ``basic``)
    (1, 40, 0.0),     # 1 / 70 = 0.014: below the floor of 0.02
    (2, 70, 0.0),     # 2 / 100 = 0.02: at the floor
    (3, 70, 0.5),     # 3 / 100 = 0.03: half way to 0.04
    (11, 200, 1.0),   # ``strongtrap`` 1 vs 5: 11 / 230 = 0.048
    (20, 40, 1.0),    # a half-time check-raiser
])
def test_trap_evidence(raises: int, faced: int, expected: float) -> None:
    """The evidence grows from 0 at a raw check-raise rate (check-raises over the
    chances plus 30) of 0.02 to 1 at 0.04."""
    t = Tendencies(faced_after_check=faced, check_raises=raises)
    assert t.trap_evidence == pytest.approx(expected)


def _three_handed(hero: str, structure: str) -> tuple[Hand, HandView]:
    """SDR three-handed, Stop 9h, Drop 4c: round 1 checked around, then in round 2
    seats 1 and 2 check to seat 0 (``hero``): seat 0's view."""
    hand = stacked_hand([200, 200, 200], 0, {0: hero, 1: "2c 2h", 2: "3d 3s"},
                        stop="9h", drop="4c", roll="Kc Qd Js",
                        options=Options(structure=structure))
    while True:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        if seat == 0 and hand.view(0).round == "round 2":
            return hand, hand.view(0)
        hand.apply(seat, Check())


def _book(bot: StrongBot, *, check_raises: int) -> None:
    """Seats 1 and 2: players of average habits, each check-raising
    ``check_raises`` of the 40 times it was bet into after checking."""
    for seat in (1, 2):
        t = bot.book.tendencies(seat)
        t.bets, t.checks, t.raises, t.calls, t.folds = 30, 60, 10, 30, 20
        t.faced_after_check, t.check_raises = 40, check_raises


@pytest.mark.parametrize("structure", ["no-limit", "fixed-limit"])
def test_no_thin_value_bet_into_check_raisers_multiway(structure: str) -> None:
    """Ah Kd checked to by two players in round 2 (ace high, no Roll yet; read
    equity about 0.59 against a value threshold of 0.48): bets with every seed
    against players who never check-raise, checks with every seed against two
    who check-raised 12 of 40 times (before the change it bet every seed there
    too)."""
    _, view = _three_handed("Ah Kd", structure)
    acts: dict[int, list[object]] = {}
    for n in (0, 12):
        acts[n] = []
        for seed in range(6):
            bot = StrongBot(random.Random(seed))
            _book(bot, check_raises=n)
            acts[n].append(bot.act(view))
    assert all(isinstance(a, Bet) for a in acts[0]), acts
    assert all(isinstance(a, Check) for a in acts[12]), acts


def test_strong_hands_still_bet_into_check_raisers() -> None:
    """As Ad (a pair of aces) in the same spot against the check-raisers bets with
    every seed: only the thin value bets are given up."""
    _, view = _three_handed("As Ad", "no-limit")
    for seed in range(6):
        bot = StrongBot(random.Random(seed))
        _book(bot, check_raises=12)
        assert isinstance(bot.act(view), Bet)


def test_heads_up_unchanged_by_trap_value() -> None:
    """Heads-up the value threshold is not moved (heads-up bets into a check are
    priced by :meth:`StrongBot._bet_gain`): the same actions with ``trap_value``
    on and off against a check-raiser."""
    hand = stacked_hand([200, 200], 1, {0: "2c 2h", 1: "Ah Kd"}, stop="9h", drop="4c",
                        roll="Kc Qd Js")
    for action in (Check(), Check(), Check()):
        assert hand.pending is not None
        hand.apply(hand.pending.seats[0], action)
    view = hand.view(1)
    for seed in range(4):
        got = []
        for trap_value in (0.0, StrongBot.trap_value):
            bot = StrongBot(random.Random(seed))
            bot.trap_value = trap_value
            t = bot.book.tendencies(0)
            t.faced_after_check, t.check_raises = 40, 12
            got.append(type(bot.act(view)))
        assert got[0] == got[1], got
