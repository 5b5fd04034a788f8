"""``strong``'s reads of a trapper's check-calls (``check_calls``) and of its
heads-up check-raises apart from its multiway ones (``hu_check_raises``); issue
31, twenty-fourth pass (``docs/dev/league.md``, branch s58-trap)."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from engine_helpers import stacked_hand
from rollem.bots.strong import StrongBot
from rollem.bots.strong.reads import OpponentBook, Tendencies, check_call_top
from rollem.engine import Bet, Check


def _trapper() -> Tendencies:
    """Seat 1 over a session: 10 check-raises of 40 bets into its checks, counted
    during play and at the hands' ends alike; the rest of its play ordinary."""
    return Tendencies(bets=60, checks=60, raises=20, calls=30, folds=40, bets_checked=20,
                      checks_checked=10, faced_after_check=40, check_raises=10,
                      ended_after_check=40, ended_check_raises=10)


_CHECK_CALL = [{"kind": "round", "name": "round 4"}, {"kind": "check", "seat": 1},
               {"kind": "bet", "seat": 0, "amount": 4}, {"kind": "call", "seat": 1}]
_Z = np.array([[0.99], [0.85], [0.60], [0.30]])


def test_a_trappers_check_call_is_read_below_its_check_raises() -> None:
    """``OpponentBook.weights`` with ``capped``: seat 1 checks, is bet into and
    calls. Its check-raise share (10 + 3) / (40 + 10) = 0.26 of the range after
    its check would have raised, so at index 1 its 99th-percentile world weighs
    0.35 of the most likely (without the cap 0.99) and its 60th-percentile world
    the most; index 0, or a seat not in ``capped``, reads as without it; a call
    with no check of its own before it in the round is not capped."""
    book = OpponentBook()
    book.seats[1] = _trapper()
    assert check_call_top(book.seats[1]) == pytest.approx(0.26)
    plain = book.weights("sdr", _CHECK_CALL, [1], _Z)
    assert np.array_equal(book.weights("sdr", _CHECK_CALL, [1], _Z, None, None, {1: 0.0}), plain)
    assert np.array_equal(book.weights("sdr", _CHECK_CALL, [1], _Z, None, None, {0: 1.0}), plain)
    capped = book.weights("sdr", _CHECK_CALL, [1], _Z, None, None, {1: 1.0})
    half = book.weights("sdr", _CHECK_CALL, [1], _Z, None, None, {1: 0.5})
    assert plain[0] == pytest.approx(0.989, abs=0.001)
    assert capped[0] == pytest.approx(0.355, abs=0.001)
    assert capped[0] < half[0] < plain[0]
    assert capped[2] == 1.0
    no_check = [e for e in _CHECK_CALL if e["kind"] != "check"]
    assert np.array_equal(book.weights("sdr", no_check, [1], _Z, None, None, {1: 1.0}),
                          book.weights("sdr", no_check, [1], _Z))


def test_the_bot_counts_check_raises_at_the_hand_end_for_the_cap() -> None:
    """``check_calls`` on, the hand's end counts the check-raises alike for every
    player, the bot's own too (``observe_traps``, the cap's index): SDR, the bot
    (seat 0) checks, is bet into, raises and is folded to; off, nothing."""
    hand = stacked_hand([200, 200], 1, {0: "7c 2d", 1: "3d 2s"}, stop="9h", drop="4c",
                        roll="Kc Qd 7s")
    hand.apply(0, Check())
    hand.apply(1, Bet(2))
    view = hand.view(0)
    end = [*view.events, {"kind": "raise", "seat": 0, "amount": 4},
           {"kind": "fold", "seat": 1}]
    for on, raises in ((False, 0), (True, 1)):
        bot = StrongBot(random.Random(0))
        bot.check_calls = on
        bot.observe_hand_end(dataclasses.replace(view, events=end))
        assert (bot.book.own.ended_after_check, bot.book.own.ended_check_raises) \
            == (raises, raises), on


_THREE = [{"kind": "deal_hole", "seat": 0}, {"kind": "deal_hole", "seat": 1},
          {"kind": "deal_hole", "seat": 2},
          {"kind": "round", "name": "round 1"}, {"kind": "check", "seat": 1},
          {"kind": "check", "seat": 2}, {"kind": "bet", "seat": 0, "amount": 2},
          {"kind": "raise", "seat": 1, "amount": 4}, {"kind": "fold", "seat": 2},
          {"kind": "call", "seat": 0},
          {"kind": "round", "name": "round 2"}, {"kind": "check", "seat": 1},
          {"kind": "bet", "seat": 0, "amount": 2}, {"kind": "call", "seat": 1}]


def test_heads_up_check_raises_are_counted_apart() -> None:
    """``OpponentBook.observe``: seat 1's three-handed check-raise counts in its
    pooled counts only, its heads-up check-call (seat 2 folded) in both; seat
    2's three-handed fold after its check in the pooled only. The heads-up rate
    is (0 + 0.5) / (1 + 10), the pooled (1 + 0.5) / (2 + 10)."""
    book = OpponentBook()
    book.observe(_THREE, 0)
    t = book.tendencies(1)
    assert (t.faced_after_check, t.check_raises, t.hu_after_check, t.hu_check_raises) \
        == (2, 1, 1, 0)
    assert t.check_raise_rate_hu == pytest.approx(0.5 / 11)
    assert t.check_raise_rate == pytest.approx(1.5 / 12)
    u = book.tendencies(2)
    assert (u.faced_after_check, u.hu_after_check) == (1, 0)


def test_the_bet_prices_the_heads_up_check_raise_rate_when_asked() -> None:
    """``_check_raise_rate``: with ``hu_check_raises`` the heads-up rate (a player
    check-raising 10 of 40 spots, 0 of its 20 heads-up: 0.5 / 30), without it
    the pooled one (10.5 / 50)."""
    t = Tendencies(faced_after_check=40, check_raises=10, hu_after_check=20)
    bot = StrongBot(random.Random(0))
    assert bot._check_raise_rate(t, last=False) == pytest.approx(10.5 / 50)
    bot.hu_check_raises = True
    assert bot._check_raise_rate(t, last=False) == pytest.approx(0.5 / 30)
