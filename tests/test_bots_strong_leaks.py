"""The ``strong`` bot's leaks found by a held-back trapping opponent (issue 31),
closed: last-round re-raises only with hands that beat the raiser's continuing
range (a check-raise read as a slow-play), never one pair into a range of two
pair or better, and in 5-2-1 no raise with less than a straight into four to
a straight flush showing. Hand-built views (stacked decks, scripted betting)."""

from __future__ import annotations

import random

import numpy as np

from engine_helpers import stacked_hand
from rollem.bots.strong import StrongBot
from rollem.bots.strong.reads import OpponentBook
from rollem.cards import parse_cards
from rollem.engine import Bet, Check, Hand, HandView, Raise
from rollem.engine.actions import Draw, Stack
from rollem.engine.randomness import ReplaySource

CHECK_RAISED = [Check(), Check()] * 3 + [Check(), Bet(4), Raise(8)]
"""SDR heads-up, seat 0 first: checked through three rounds, then on the last
round seat 0 checks, seat 1 bets, seat 0 raises (a check-raise)."""


def _sdr_spot(hero: str, opp: str, roll: str) -> HandView:
    """Seat 1 (``hero``) facing seat 0's last-round check-raise (Stop 9h, Drop 4c)."""
    hand = stacked_hand([200, 200], 1, {0: opp, 1: hero}, stop="9h", drop="4c", roll=roll)
    for action in CHECK_RAISED:
        assert hand.pending is not None
        hand.apply(hand.pending.seats[0], action)
    assert hand.pending is not None and hand.pending.seats == (1,)
    return hand.view(1)


def test_a_check_raise_is_read_as_strength() -> None:
    """Checks followed by a raise (the slow-play) no longer mark the raiser weak:
    after three rounds of checks and a last-round check-raise, a hand at the
    97th percentile outweighs one at the 50th (the checks used to weigh it
    down about 0.3 each, below the raise's floor for the middling hand)."""
    view = _sdr_spot("Kh 3d", "Qc Jh", "Kc Qd Js")
    w = OpponentBook().weights("sdr", view.events, [0], np.asarray([[0.5], [0.97]]))
    assert w[1] > 5 * w[0], w


def test_no_reraise_of_one_pair_into_a_check_raise() -> None:
    """SDR, Kh 3d on Kc Qd Js (top pair, no kicker) facing a last-round
    check-raise: calls, never re-raises (it re-raised with every seed)."""
    view = _sdr_spot("Kh 3d", "Qc Jh", "Kc Qd Js")
    for seed in range(3):
        assert not isinstance(StrongBot(random.Random(seed)).act(view), Raise)


def test_one_pair_never_reraises_into_two_pair_or_better() -> None:
    """On Kc Jd Ts facing the check-raise the raiser's continuing range is mostly
    two pair or better (straights, sets, kings up): with one pair (nines, tens)
    the re-raise is ruled out even with the share test off
    (``reraise_share = 0``); and Qh Qd there calls (it re-raised every seed)."""
    for hero in ("9s 9d", "Th 9d"):
        view = _sdr_spot(hero, "2c 2h", "Kc Jd Ts")
        bot = StrongBot(random.Random(0))
        bot.reraise_share = 0.0
        assert not bot._reraise_ok(view, 1), hero
    view = _sdr_spot("Qh Qd", "2c 2h", "Kc Jd Ts")
    for seed in range(3):
        assert not isinstance(StrongBot(random.Random(seed)).act(view), Raise)


def _spot_521(opp: str, hero: str) -> HandView:
    """5-2-1 heads-up: seat 0 dealt ``opp``, seat 1 ``hero`` (both stand pat and
    stack in the order given, so the first four cards roll up); checked through
    to round 6, where seat 0 bets: seat 1's view facing that bet."""
    o, h = parse_cards(opp), parse_cards(hero)
    dealt = [c for pair in zip(o, h, strict=True) for c in pair]
    deck = dealt + [c for c in range(52) if c not in dealt]
    hand = Hand("rollem521", [200, 200], button=1, source=ReplaySource([("deck", deck)]))
    while hand.pending is not None:
        seat = hand.pending.seats[0]
        view = hand.view(seat)
        assert view.legal is not None
        acts = view.legal.actions
        if "draw" in acts:
            hand.apply(seat, Draw(()))
        elif "stack" in acts:
            hand.apply(seat, Stack(tuple(o if seat == 0 else h)))
        elif view.round == "round 6" and seat == 1 and "call" in acts:
            return view
        elif view.round == "round 6" and seat == 0 and "bet" in acts:
            hand.apply(seat, Bet(view.legal.min_to))
        else:
            hand.apply(seat, Check())
    raise AssertionError("the spot never came")


def test_521_no_raise_into_four_to_a_straight_flush_showing() -> None:
    """5-2-1 round 6: seat 0 shows 9h Th Jh Qh and bets; a pair of aces (going
    high) calls, never raises (it raised with every seed)."""
    for hero in ("7s 5d 3c Ad Ac", "7s 7d 3c Ad Ac"):
        view = _spot_521("9h Th Jh Qh 2c", hero)
        assert view.seats[0].cards[:4] == ["9h", "Th", "Jh", "Qh"]
        for seed in range(3):
            assert not isinstance(StrongBot(random.Random(seed)).act(view), Raise), hero


def test_four_to_a_straight_flush() -> None:
    from rollem.bots.strong.bot import _four_to_straight_flush

    assert _four_to_straight_flush([int(c) for c in parse_cards("9h Th Jh Qh")])
    assert _four_to_straight_flush([int(c) for c in parse_cards("Ah 2h 3h 5h")])
    assert _four_to_straight_flush([int(c) for c in parse_cards("9h Th Qh Kh 2c")])
    assert not _four_to_straight_flush([int(c) for c in parse_cards("9h Th Jh Qd")])
    assert not _four_to_straight_flush([int(c) for c in parse_cards("2h 5h 8h Jh")])
