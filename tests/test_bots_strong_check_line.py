"""The ``strong`` bot's check line (issue 31, twenty-first pass; ``check_line``):
heads-up in Roll Your Own fixed limit, first to act on the last betting round,
the bet's gain over a check counts what the check gains from the opponent's
bets into it (:func:`rollem.bots.strong.gains.check_gain`), priced at that
opponent's bets into the bot's last-round checks and its folds to the bot's
check-raises as the bot's book saw them. Against a player who bets into most
such checks and folds to check-raises a strong hand checks; against a calling
station it bets as before."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from rollem.bots.basic import BasicBot
from rollem.bots.strong import StrongBot
from rollem.bots.strong.gains import check_gain
from rollem.bots.strong.reads import OpponentBook, Tendencies, round_number
from rollem.engine import Call, Check, Hand, HandView, SeededSource
from rollem.engine.options import Options


def test_check_gain_by_hand() -> None:
    """Pot 10, bet 4, two worlds of weight 1/2: the seat's share 1 (the
    opponent bets into the check with chance 0.5, calls a check-raise with
    chance 0.5) and 0 (bets 0.2, calls 1). Over the betting worlds (0.25 and
    0.1 of the weight) a fold gives up 0.25 * 10 = -2.5; a call 0.25 * 4 - 0.1
    * 4 = +0.6; a check-raise 0.25 * (0.5 * 8 + 0.5 * 4) - 0.1 * 8 = +0.7:
    the check-raise, +0.7; without the check-raise, the call, +0.6."""
    share = np.asarray([1.0, 0.0])
    got = check_gain(10, 4, share, np.asarray([0.5, 0.2]), np.asarray([0.5, 0.5]),
                     np.asarray([0.5, 1.0]))
    assert got == pytest.approx(0.7)
    # a seat that would not raise the bet answers by a call, +0.6
    assert check_gain(10, 4, share, np.asarray([0.5, 0.2]), np.asarray([0.5, 0.5]),
                      np.asarray([0.5, 1.0]), check_raise=False) == pytest.approx(0.6)
    # nobody bets into the check: it is worth the check behind, 0 more
    assert check_gain(10, 4, share, np.zeros(2), np.asarray([0.5, 0.5]),
                      np.ones(2)) == 0.0
    # every bet from the better hand (share 0): the fold is best, giving up nothing
    assert check_gain(10, 4, np.asarray([0.0]), np.ones(1), np.ones(1),
                      np.ones(1)) == 0.0
    with pytest.raises(ValueError, match="bet must be at least 1 chip"):
        check_gain(10, 0, share, np.zeros(2), np.asarray([0.5, 0.5]), np.ones(2))


def _round(name: str) -> dict[str, object]:
    return {"kind": "round", "seat": 0, "round": name, "opener": 0}


def _hand(tag: str, last: list[dict[str, object]],
          third: list[dict[str, object]] | None = None) -> list[dict[str, object]]:
    """A Roll Your Own hand's betting events (``tag`` tells hands apart), the
    third round's ``third`` (default: both check) and the last round's
    ``last``."""
    checks = [{"kind": "check", "seat": 0}, {"kind": "check", "seat": 1}]
    return ([{"kind": "ante", "seat": 0, "amount": 1, "tag": tag},
             {"kind": "ante", "seat": 1, "amount": 1},
             {"kind": "deal_hole", "seat": 1, "count": 6},
             _round("first card up"), *checks,
             _round("second card up"), *checks,
             _round("third card up"), *(checks if third is None else third),
             _round("after the wild card"), *last])


def test_the_hand_end_counts_bets_into_the_bots_last_round_checks() -> None:
    """The bot (seat 0) checks first on the last round: seat 1's bet is one
    decision into its check and a bet, its check one decision; the bot's check
    after seat 1's own check, or a bet into its check on the third round, is
    none; a second call for the same hand counts nothing."""
    book = OpponentBook()
    bet = _hand("a", [{"kind": "check", "seat": 0}, {"kind": "bet", "seat": 1, "amount": 4},
                      {"kind": "call", "seat": 0}])
    book.observe_into_check(bet, 0, "rollyourown")
    book.observe_into_check(bet, 0, "rollyourown")
    book.observe_into_check(_hand("b", [{"kind": "check", "seat": 0},
                                        {"kind": "check", "seat": 1}]), 0, "rollyourown")
    # seat 1 first to act: the bot's check is behind its check, not into it
    book.observe_into_check(_hand("c", [{"kind": "check", "seat": 1},
                                        {"kind": "check", "seat": 0}]), 0, "rollyourown")
    # the bet into the bot's check on the third round is not the last round's
    book.observe_into_check(_hand("d", [{"kind": "bet", "seat": 0, "amount": 4},
                                        {"kind": "call", "seat": 1}],
                                  third=[{"kind": "check", "seat": 0},
                                         {"kind": "bet", "seat": 1, "amount": 4},
                                         {"kind": "call", "seat": 0}]), 0, "rollyourown")
    t = book.tendencies(1)
    assert (t.into_check_last, t.bets_into_check_last) == (2, 1)
    # shrunk toward its bet rate after a check by 5 decisions' worth
    assert t.bet_rate_into_check_last == pytest.approx((1 + 5 * t.bet_rate_checked) / 7)
    assert book.tendencies(0).into_check_last == 0


def _last_round_view(seed: int) -> HandView:
    """Roll Your Own fixed limit heads-up, seed ``seed``: both check every round,
    ``basic``'s card choices; the view of the player first to act on the last
    round (after the wild card)."""
    hand = Hand("rollyourown", [200, 200], button=0, options=Options(structure="fixed-limit"),
                source=SeededSource(seed))
    cards = BasicBot(random.Random(1))
    while hand.pending is not None:
        seat = hand.pending.seats[0]
        view = hand.view(seat)
        assert view.legal is not None
        acts = view.legal.actions
        if round_number(view) == 4 and "check" in acts and "bet" in acts:
            return view
        if "check" in acts or "call" in acts:
            hand.apply(seat, Check() if "check" in acts else Call())
        else:
            hand.apply(seat, cards.act(view))
    raise AssertionError("the hand ended before the last round")


def _bettor_into_checks() -> Tendencies:
    """Bets into 18 of the bot's 20 last-round checks, folds to 16 of its 20
    check-raises."""
    return Tendencies(bets=60, checks=60, raises=20, calls=30, folds=40, bets_checked=30,
                      checks_checked=10, faced_check_raise=20, folds_to_check_raise=16,
                      into_check_last=20, bets_into_check_last=18)


def _caller() -> Tendencies:
    """Bets into 4 of 20, calls most bets, folds to 1 of 20 check-raises."""
    return Tendencies(bets=60, checks=60, raises=20, calls=60, folds=10, bets_checked=30,
                      checks_checked=10, faced_check_raise=20, folds_to_check_raise=1,
                      into_check_last=20, bets_into_check_last=4)


def _policy(view: HandView, book: Tendencies, *, on: bool = True) -> dict[str, float]:
    bot = StrongBot(random.Random(0))
    bot.check_line = on
    assert view.seat is not None
    bot.book.seats[1 - view.seat] = book
    out: dict[str, float] = {}
    for action, p in bot.policy(view).items():
        out[type(action).__name__] = out.get(type(action).__name__, 0.0) + p
    return out


def test_a_strong_hand_checks_first_to_a_player_who_bets_into_checks() -> None:
    """Seed 1: seat 1 first to act after the wild card with Ad Jd 9d 7h Jh (its
    equity 1.0 against a range checked down): it bets without the check line;
    with it, against a player betting into 18 of 20 such checks and folding 16
    of 20 check-raises, it checks (to check-raise); against a caller it bets."""
    view = _last_round_view(1)
    assert view.seat == 1
    assert view.seats[1].cards[:2] == ["Ad", "Jd"]
    assert _policy(view, _bettor_into_checks(), on=False) == {"Bet": 1.0}
    assert _policy(view, _bettor_into_checks()) == {"Check": 1.0}
    assert _policy(view, _caller()) == {"Bet": 1.0}


def test_the_check_line_only_in_fixed_limit() -> None:
    """The same deal in no limit: the check line does not price it, so the bot
    plays as with it off."""
    hand = Hand("rollyourown", [200, 200], button=0, options=Options(structure="no-limit"),
                source=SeededSource(1))
    cards = BasicBot(random.Random(1))
    view = None
    while hand.pending is not None:
        seat = hand.pending.seats[0]
        v = hand.view(seat)
        assert v.legal is not None
        acts = v.legal.actions
        if round_number(v) == 4 and "check" in acts and "bet" in acts:
            view = v
            break
        hand.apply(seat, (Check() if "check" in acts else Call())
                   if "check" in acts or "call" in acts else cards.act(v))
    assert view is not None
    bot = StrongBot(random.Random(0))
    assert not bot._check_line_on(view)
    assert _policy(view, _bettor_into_checks()) == _policy(view, _bettor_into_checks(), on=False)


def test_the_bot_counts_bets_into_its_checks_at_the_hand_end() -> None:
    """``StrongBot.observe_hand_end`` of a Roll Your Own hand where it checked
    first on the last round and was bet into counts one decision and one bet
    with the check line on, nothing with it off."""
    view = _last_round_view(1)
    end = [*view.events, {"kind": "check", "seat": 1}, {"kind": "bet", "seat": 0, "amount": 4},
           {"kind": "call", "seat": 1}]
    for on, counted in ((False, (0, 0)), (True, (1, 1))):
        bot = StrongBot(random.Random(0))
        bot.check_line = on
        bot.observe_hand_end(dataclasses.replace(view, events=end))
        t = bot.book.tendencies(0)
        assert (t.into_check_last, t.bets_into_check_last) == counted, on
