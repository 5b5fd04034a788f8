"""The ``strong`` bot's leaks found by a held-back trapping opponent (issue 31),
closed: last-round re-raises only with hands that beat the raiser's continuing
range (a check-raise read as a slow-play), never one pair into a range of two
pair or better, and in 5-2-1 no raise with less than a straight into four to
a straight flush showing. Hand-built views (stacked decks, scripted betting)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine_helpers import stacked_hand
from rollem.bots.strong import StrongBot
from rollem.bots.strong.reads import OpponentBook
from rollem.cards import parse_cards
from rollem.engine import Bet, Call, Check, Fold, Hand, HandView, Raise
from rollem.engine.actions import Draw, Stack
from rollem.engine.options import Options
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
        elif view.round == "fourth card up" and seat == 1 and "call" in acts:
            return view
        elif view.round == "fourth card up" and seat == 0 and "bet" in acts:
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


# -- a trapper's checks (issue 31: `strongtrap`, strong's own policy trapping more,
#    played strong level: it bet into the trapper's checks and paid its check-raises)

CHECKED_TO = [Check(), Check(), Check()]
"""SDR heads-up: round 1 checked through, then seat 0 checks round 2."""


def _checked_to(hero: str, opp: str = "2c 2h") -> HandView:
    """Seat 1 (``hero``) checked to in round 2 (Stop 9h, Drop 4c)."""
    hand = stacked_hand([200, 200], 1, {0: opp, 1: hero}, stop="9h", drop="4c",
                        roll="Kc Qd Js")
    for action in CHECKED_TO:
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


def test_check_raises_are_counted() -> None:
    """A check, a bet into it and a raise: one check-raise of one chance; a call
    after a check is a chance without one; a raise with no check before it in
    the round is none."""
    book = OpponentBook()
    events = [{"kind": "round", "name": "round 1"},
              {"kind": "check", "seat": 0}, {"kind": "bet", "seat": 1, "amount": 2},
              {"kind": "raise", "seat": 0, "amount": 4}, {"kind": "call", "seat": 1},
              {"kind": "round", "name": "round 2"},
              {"kind": "check", "seat": 0}, {"kind": "bet", "seat": 1, "amount": 2},
              {"kind": "call", "seat": 0},
              {"kind": "round", "name": "round 3"},
              {"kind": "bet", "seat": 1, "amount": 4}, {"kind": "raise", "seat": 0, "amount": 8}]
    book.observe(events, 1)
    t = book.tendencies(0)
    assert (t.faced_after_check, t.check_raises, t.raises) == (2, 1, 2)
    assert t.check_raise_rate == (1 + 0.5) / (2 + 10)


def test_a_trappers_check_says_less() -> None:
    """The same check weighs a 97th-percentile hand against a 50th-percentile one
    less from a player who check-raised 20 of 40 times than from one who never
    did (the check read as weakness at full strength whatever the player)."""
    view = _checked_to("Tc 9c")
    z = np.asarray([[0.5], [0.97]])
    ratios = []
    for n in (0, 20):
        bot = StrongBot(random.Random(0))
        _book(bot, check_raises=n)
        w = bot.book.weights("sdr", view.events, [0], z)
        ratios.append(w[1] / w[0])
    assert ratios[1] > 1.5 * ratios[0], ratios


def test_no_thin_bet_into_a_trappers_check() -> None:
    """Tc 9c checked to in round 2 (Stop 9h, Drop 4c: third pair, no Roll yet):
    against the player who never check-raises it bets with some seeds; against
    the one who check-raised half the time it checks with every seed (it bet 4
    of 6 there before the check-raise rate counted)."""
    view = _checked_to("Tc 9c")
    bets = {}
    for n in (0, 20):
        acts = []
        for seed in range(6):
            bot = StrongBot(random.Random(seed))
            _book(bot, check_raises=n)
            acts.append(bot.act(view))
        bets[n] = sum(isinstance(a, Bet) for a in acts)
    assert bets[0] >= 2 and bets[20] == 0, bets


def test_the_bet_prices_a_check_raise() -> None:
    """Fixed limit, checked to: the bet's expected gain counts the opponent's
    check-raises, so it is lower against the check-raiser with the pricing on
    than off (the reads the same)."""
    view = _checked_to("Ks 4d")
    gains = []
    for price in (False, True):
        bot = StrongBot(random.Random(0))
        bot.price_check_raises = price
        _book(bot, check_raises=20)
        pot = view.pot + sum(s.bet for s in view.seats)
        assert view.legal is not None
        gains.append(bot._bet_gain(view, view.legal, pot))
    assert gains[1] < gains[0] - 0.05, gains


def test_a_fold_that_ends_the_hand_is_counted() -> None:
    """Heads-up, the strong bot bets round 1 and the opponent folds: the hand ends
    and no view shows the fold, so the book counts it when the next hand's view
    comes (it counted no fold heads-up: the fold rate sank toward 0 and the bot
    never bluffed); a bet the opponent calls, seen in the bot's next view of
    the hand, counts no fold."""
    bot = StrongBot(random.Random(0))
    for fold, n in ((True, 1), (False, 1)):
        hand = stacked_hand([200, 200], 1, {0: "2c 7h", 1: "Ah As"}, stop="9h", drop="4c")
        assert hand.pending is not None and hand.pending.seats == (0,)
        hand.apply(0, Check())
        view = hand.view(1)
        bot.book.observe(view.events, 1)
        bot.book.acted(view, Bet(2))
        hand.apply(1, Bet(2))
        hand.apply(0, Fold() if fold else Call())
        if not fold:  # the hand goes on: the bot's next view shows the call
            assert not hand.is_over
            bot.book.observe(hand.view(1).events, 1)
        nxt = stacked_hand([200, 200], 0, {0: "3c 8h", 1: "Kh Ks"})
        assert nxt.pending is not None
        if nxt.pending.seats == (0,):
            nxt.apply(0, Check())
        bot.book.observe(nxt.view(1).events, 1)
        assert bot.book.tendencies(0).folds == n, fold


# -- issue 31, third pass: the leaks `strongtrap` still found

def _checked_to_no_limit(hero: str, opp: str = "2c 2h") -> HandView:
    """As :func:`_checked_to`, no limit: seat 1 (``hero``) checked to in round 2."""
    hand = stacked_hand([200, 200], 1, {0: opp, 1: hero}, stop="9h", drop="4c",
                        roll="Kc Qd Js", options=Options(structure="no-limit"))
    for action in CHECKED_TO:
        assert hand.pending is not None
        hand.apply(hand.pending.seats[0], action)
    assert hand.pending is not None and hand.pending.seats == (1,)
    return hand.view(1)


def test_no_limit_no_thin_bet_into_a_trappers_check() -> None:
    """No limit, Ks 4d checked to in round 2 (no pair yet): against the player
    who never check-raises it bets with every seed; against the one who
    check-raised half the time (its raise rate facing bets the same, 10 of 60)
    it checks with at least 5 of 6 seeds. The no-limit bet priced the raise
    rate alone, whatever the check before it said: it bet 5 of 6 there."""
    view = _checked_to_no_limit("Ks 4d")
    bets = {}
    for n in (0, 20):
        acts = []
        for seed in range(6):
            bot = StrongBot(random.Random(seed))
            _book(bot, check_raises=n)
            acts.append(bot.act(view))
        bets[n] = sum(isinstance(a, Bet) for a in acts)
    assert bets[0] == 6 and bets[20] <= 1, bets


def test_the_no_limit_bet_prices_a_check_raise() -> None:
    """No limit, checked to by the check-raiser: the bet's gain is lower with
    the check-raise pricing on than off (the reads the same; the no-limit gain
    priced the raise rate alone, so the two were equal)."""
    view = _checked_to_no_limit("Ks 4d")
    gains = []
    for price in (False, True):
        bot = StrongBot(random.Random(0))
        bot.price_check_raises = price
        _book(bot, check_raises=20)
        pot = view.pot + sum(s.bet for s in view.seats)
        assert view.legal is not None
        gains.append(bot._bet_gain(view, view.legal, pot))
    assert gains[1] < gains[0] - 0.2, gains


def _facing_no_limit_bet(hero: str, before: list[object], bet: int) -> HandView:
    """SDR no limit, seat 1 (``hero``) facing seat 0's ``bet`` in round 3 after
    ``before`` (rounds 1 and 2; Stop 9h, Drop 4c; seat 0 holds 2c 2h)."""
    hand = stacked_hand([200, 200], 1, {0: "2c 2h", 1: hero}, stop="9h", drop="4c",
                        roll="Kc Qd Js", options=Options(structure="no-limit"))
    for action in [*before, Bet(bet)]:
        assert hand.pending is not None
        hand.apply(hand.pending.seats[0], action)
    view = hand.view(1)
    assert view.round == "after the drop"
    assert hand.pending is not None and hand.pending.seats == (1,)
    return view


def _folds_to_raises(bot: StrongBot) -> None:
    """Seat 0's counts: average habits, folding to 12 of the 20 raises it faced."""
    t = bot.book.tendencies(0)
    t.bets, t.checks, t.raises, t.calls, t.folds = 30, 60, 10, 30, 20
    t.faced_raise, t.folds_to_raise = 20, 12


def test_no_limit_raises_are_priced_at_their_size() -> None:
    """No limit, facing a bet, the raise's gain is priced at the raise the bot
    makes (two thirds of the pot), not the smallest one: Ts 8s (no pair) facing
    a 4-chip bet into a checked pot no longer raises the opponent who folds to
    raises more than half the time (the smallest raise priced, it raised 2 of
    6 seeds, putting in more than it priced); Ac Td (top pair) facing a 4-chip
    bet into a 26-chip pot now raises with every seed (it called every seed:
    the smallest raise looked worth too little)."""
    def raises(view: HandView) -> int:
        n = 0
        for seed in range(6):
            bot = StrongBot(random.Random(seed))
            _folds_to_raises(bot)
            n += isinstance(bot.act(view), Raise)
        return n

    checked = _facing_no_limit_bet("Ts 8s", [Check()] * 4, 4)
    assert raises(checked) == 0
    bet_into = _facing_no_limit_bet("Ac Td", [Bet(2), Call(), Bet(10), Call()], 4)
    assert raises(bet_into) == 6


def _spot_521_six(hands: list[str]) -> HandView:
    """5-2-1 six-handed, no limit: seat ``i`` dealt ``hands[i]`` (all stand pat and
    stack in the order given, so the first four cards roll up); checked through
    to round 6, where seat 0 bets the smallest bet: seat 1's view facing it
    with four players still to act."""
    dealt = [parse_cards(h) for h in hands]
    deck = [int(dealt[s][i]) for i in range(5) for s in range(6)]
    deck += [c for c in range(52) if c not in deck]
    hand = Hand("rollem521", [200] * 6, button=5, source=ReplaySource([("deck", deck)]),
                options=Options(structure="no-limit"))
    while hand.pending is not None:
        seat = hand.pending.seats[0]
        view = hand.view(seat)
        assert view.legal is not None
        acts = view.legal.actions
        if "draw" in acts:
            hand.apply(seat, Draw(()))
        elif "stack" in acts:
            hand.apply(seat, Stack(tuple(dealt[seat])))
        elif view.round == "fourth card up" and seat == 1 and "call" in acts:
            return view
        elif view.round == "fourth card up" and seat == 0 and "bet" in acts:
            hand.apply(seat, Bet(view.legal.min_to))
        else:
            hand.apply(seat, Check())
    raise AssertionError("the spot never came")


def test_521_multiway_draw_check_reads_the_grown_worlds() -> None:
    """5-2-1, 1 vs 5, no limit, round 6: seat 0 shows 9h Th Jh Qh and bets; seat 1
    (a pair of aces) faces it with four still to act. The reads' weights are
    worth too few worlds, so more are sampled (:meth:`StrongBot._weighted`); the
    four-to-a-straight-flush check read the worlds' high values from before
    that and crashed (ValueError: operands could not be broadcast, shapes
    (4200,) and (2400,); 43b6a58). Now it acts, and calls or folds: no raise."""
    view = _spot_521_six(["9h Th Jh Qh 2c", "7s 5d 3c Ad Ac", "Kc 8d 6s 4h 2d",
                          "Ks 9d 6c 4d 3s", "Js 8c 5s 3d 2s", "Td 8s 6d 4c 3h"])
    assert view.seats[0].cards[:4] == ["9h", "Th", "Jh", "Qh"]
    assert view.legal is not None and "raise" in view.legal.actions
    for seed in range(3):
        bot = StrongBot(random.Random(seed), samples=60)
        assert isinstance(bot.act(view), Call | Fold)
        assert len(bot.worlds(view).strength) > 60  # the weighting sampled more worlds


def _shoved_521(opp: str, hero: str) -> HandView:
    """5-2-1 heads-up, no limit, stacks 200, antes 1: seat 0 (dealt ``opp``) moves
    all in first in round 1 (199 into the 2 of antes): seat 1's view (``hero``)."""
    o, h = parse_cards(opp), parse_cards(hero)
    dealt = [c for pair in zip(o, h, strict=True) for c in pair]
    deck = dealt + [c for c in range(52) if c not in dealt]
    hand = Hand("rollem521", [200, 200], button=1, source=ReplaySource([("deck", deck)]),
                options=Options(structure="no-limit"))
    assert hand.pending is not None and hand.pending.seats == (0,)
    legal = hand.view(0).legal
    assert legal is not None and legal.max_to == 199
    hand.apply(0, Bet(199))
    assert hand.pending is not None and hand.pending.seats == (1,)
    return hand.view(1)


def test_521_calls_a_round_1_all_in_from_a_player_who_always_moves_in() -> None:
    """5-2-1 no limit (issue 31: LBR moved all in every hand in round 1 and
    ``strong`` folded its antes every time). Against a read of 40 first-in bets
    and no checks, Ac Td 8c 5h 3d (a low draw, weighted share 0.56-0.58 going
    low) pays 199 to win 201 + 199 (price 0.4975): a call with no margin, as
    no betting is to come (it folded: price plus the 0.10 margin of the early
    rounds). Qs Jd 9c 7h 3s (share 0.35-0.44) still folds."""
    def bot(seed: int) -> StrongBot:
        book = OpponentBook()
        book.tendencies(0).bets = 40
        return StrongBot(random.Random(seed), book=book)

    view = _shoved_521("Kc 8d 6s 4h 2d", "Ac Td 8c 5h 3d")
    assert view.legal is not None and view.legal.actions == ("fold", "call")
    assert view.legal.call_amount == 199
    for seed in range(3):
        assert bot(seed).policy(view) == {Call(): 1.0}
    weak = _shoved_521("Kc 8d 6s 4h 2d", "Qs Jd 9c 7h 3s")
    for seed in range(3):
        assert bot(seed).policy(weak) == {Fold(): 1.0}


def test_all_in_price_leaves_out_the_uncalled_excess() -> None:
    """A call for less than the bet: the price counts only the chips matched
    (R-C-9). Seat 0 with 200 moves in over seat 1's 120: seat 1 calls 119 to
    win 2 + 119 + 119. A bet of 2 leaves betting to come."""
    from rollem.bots.strong.bot import _all_in_price, _call_closes_betting

    def facing(bet: int) -> HandView:
        o, h = parse_cards("Kc 8d 6s 4h 2d"), parse_cards("Ac Td 8c 5h 3d")
        dealt = [c for pair in zip(o, h, strict=True) for c in pair]
        deck = dealt + [c for c in range(52) if c not in dealt]
        hand = Hand("rollem521", [200, 120], button=1, source=ReplaySource([("deck", deck)]),
                    options=Options(structure="no-limit"))
        hand.apply(0, Bet(bet))
        return hand.view(1)

    view = facing(199)
    assert view.legal is not None and view.legal.call_amount == 119
    assert _call_closes_betting(view, 119)
    assert _all_in_price(view, 119) == pytest.approx(119 / 240)
    assert not _call_closes_betting(facing(2), 2)


# -- issue 31, sixth pass: a check-raise read from the top of the range, not the floor

def _strong_habits(bot: StrongBot) -> None:
    """Seat 0's counts as ``strong``'s book reads ``strong`` after some 100 SDR
    hands heads-up (bet rate 0.64, raise rate 0.14, fold rate 0.44; 6
    check-raises of 94 chances)."""
    t = bot.book.tendencies(0)
    t.bets, t.checks, t.raises, t.calls, t.folds = 64, 36, 14, 42, 44
    t.faced_after_check, t.check_raises = 94, 6


def test_a_rare_check_raise_is_not_read_as_random() -> None:
    """From a player who check-raises 6 of 94 times, the last-round check-raise
    of the SDR spot weighs a 97th-percentile hand at least 20 times a
    50th-percentile one (the likelihood floor of 0.04, against a step at the
    top 7%, left it about 6 times: a third of the read range was any hand)."""
    view = _sdr_spot("Qh Td", "2c 2h", "Kc Qd Js")
    bot = StrongBot(random.Random(0))
    _strong_habits(bot)
    w = bot.book.weights("sdr", view.events, [0], np.asarray([[0.5], [0.97]]))
    assert w[1] > 20 * w[0], w


def test_a_first_round_check_raise_is_read_sharply() -> None:
    """A round-1 check-raise (before the Stop) from the same player: a hand at the
    80th percentile weighs at most a fifth of one at the 97th, one at the 50th
    at most 1/50 (the soft step of the early rounds and the 0.04 floor left
    them 0.53 and 0.14: the check-raises ``strongtrap`` made before the Stop,
    read at 0.37 against a real 0.18)."""
    bot = StrongBot(random.Random(0))
    _strong_habits(bot)
    events = [{"kind": "round", "name": "before the stop"}, {"kind": "check", "seat": 0},
              {"kind": "bet", "seat": 1, "amount": 2}, {"kind": "raise", "seat": 0, "amount": 4}]
    w = bot.book.weights("sdr", events, [0], np.asarray([[0.5], [0.8], [0.97]]))
    assert w[1] < 0.2 * w[2] and w[0] < 0.02 * w[2], w / w[2]


def test_one_pair_folds_to_a_rare_check_raise() -> None:
    """SDR, Qh Td on Kc Qd Js (middle pair and a straight draw that cannot
    come: the Roll is all out) facing the last-round check-raise of a player
    with ``strong``'s habits (price 4 / 18): folds with every seed (read
    equity 0.12-0.16; it called every seed at 0.30-0.35, where the real
    share against ``strong``'s check-raises is about 0.11). Sets and
    straights still never fold."""
    for hero, folds in (("Qh Td", True), ("Kh Kd", False), ("Th 9d", False)):
        view = _sdr_spot(hero, "2c 2h", "Kc Qd Js")
        for seed in range(4):
            bot = StrongBot(random.Random(seed))
            _strong_habits(bot)
            assert isinstance(bot.act(view), Fold) == folds, (hero, seed)


# -- issue 31, seventh pass: a raise read sharply in every SDR round

def test_a_first_round_raise_is_read_sharply() -> None:
    """SDR, a round-1 raise of a first-in bet from a player with ``strong``'s
    habits (raise rate 0.14): a hand at the 70th percentile weighs at most a
    tenth of one at the 97th (the early rounds' soft step, width 0.14, left it
    0.39: facing ``strong``'s raises the read equity was 0.44 where
    the raiser's real cards gave 0.33). Before the Roll the worlds' strength
    is the hole cards' percentile (R-SDR-6), all the raiser knows too."""
    bot = StrongBot(random.Random(0))
    _strong_habits(bot)
    events = [{"kind": "round", "name": "before the stop"}, {"kind": "bet", "seat": 1, "amount": 2},
              {"kind": "raise", "seat": 0, "amount": 4}]
    w = bot.book.weights("sdr", events, [0], np.asarray([[0.7], [0.97]]))
    assert w[0] < 0.1 * w[1], w / w[1]


def test_early_raises_still_read_softly_where_the_hand_is_to_come() -> None:
    """Five Card Roll Your Own reads the hand a player ends with, so a round-1
    raise there keeps the early rounds' soft step: the 70th percentile weighs
    over a fifth of the 97th (0.39)."""
    bot = StrongBot(random.Random(0))
    _strong_habits(bot)
    events = [{"kind": "round", "name": "round 1"}, {"kind": "bet", "seat": 1, "amount": 2},
              {"kind": "raise", "seat": 0, "amount": 4}]
    w = bot.book.weights("rollyourown", events, [0], np.asarray([[0.7], [0.97]]))
    assert w[0] > 0.2 * w[1], w / w[1]


# -- issue 31, eighth pass: an SDR raise read from the range that got there

def _sdr_hand(deal: int, rounds: list[list[tuple[int, str]]]) -> list[dict[str, object]]:
    """An SDR hand's events (``deal`` tells hands apart), one list of (seat, kind)
    per betting round."""
    events: list[dict[str, object]] = [{"kind": "ante", "seat": 0, "deal": deal},
                                       {"kind": "ante", "seat": 1, "deal": deal}]
    for acts in rounds:
        events.append({"kind": "round"})
        events += [{"kind": kind, "seat": seat} for seat, kind in acts]
    return events


def test_a_last_round_raise_reads_from_the_range_that_called() -> None:
    """SDR, a player with ``strong``'s habits (raise rate 0.14, fold rate 0.44)
    calls a bet in each of the first three rounds and raises the last-round bet:
    the raise is the top 14% of the hands that called three times (about the top
    8% of all hands), not of all hands: a hand at the 88th percentile weighs at
    most 0.45 of one at the 99th (the step at the 86th percentile of all hands
    left it 0.65; facing last-round raises the read equity was 0.65 where the
    raiser's real cards gave 0.42, 47 spots)."""
    bot = StrongBot(random.Random(0))
    _strong_habits(bot)
    events = _sdr_hand(0, [[(1, "bet"), (0, "call")]] * 3 + [[(1, "bet"), (0, "raise")]])
    z = np.linspace(0.0, 1.0, 2001)
    w = bot.book.weights("sdr", events, [0], z[:, None])
    at = {q: float(w[round(q * 2000)]) for q in (0.88, 0.99)}
    assert at[0.88] < 0.45 * at[0.99], at


def test_bets_before_the_roll_read_on_the_hole_cards() -> None:
    """SDR once the Roll is out: an opponent bet every round before the Roll and
    checks after it. Its early bets were made on its hole cards alone, so a world
    where strong hole cards missed the Roll (hole cards at the 95th percentile,
    made hand at the 20th) weighs more than one where they hit (95th and 95th):
    the check says it missed. Read against the made hand only, the early bets
    weighed the missed world at a hundredth of the hit one: a check after the
    Roll read as a trap (read equity 0.34 where the real was 0.68, 53 spots)."""
    bot = StrongBot(random.Random(0))
    _strong_habits(bot)
    events = _sdr_hand(0, [[(0, "bet"), (1, "call")]] * 3 + [[(0, "check")]])
    now = np.asarray([[0.2], [0.95]])
    early = np.asarray([[0.95], [0.95]])
    w = bot.book.weights("sdr", events, [0], now, early)
    assert w[0] > 2 * w[1], w
    assert bot.book.weights("sdr", events, [0], now)[0] < 0.05  # the made hand only


def test_sdr_worlds_after_the_roll_keep_the_hole_cards_percentile() -> None:
    """The SDR worlds once the Roll is out carry ``early``: each opponent's hole
    cards' percentile (:func:`preflop_percentile`), what its bets before the Roll
    were made on; before the Roll the strength is that percentile already."""
    from rollem.bots.strong.worlds import preflop_percentile

    view = _sdr_spot("Qh Td", "2c 2h", "Kc Qd Js")
    bot = StrongBot(random.Random(0))
    w = bot.worlds(view)
    early = w.extra["early"]
    assert isinstance(early, np.ndarray) and early.shape == w.strength.shape
    assert not np.allclose(early, w.strength)
    pf = preflop_percentile()
    assert early.min() >= pf.min() and early.max() <= pf.max()
    assert len(np.unique(early)) > 50


def test_a_maniacs_raise_war_says_little() -> None:
    """SDR, a player who raises 9 bets in 10 (a maniac) caps a raise war before
    the Stop: its raises read against the range it began the round with, not
    narrowed raise by raise (the top 87% of the top 87% of ...): a hand at the
    30th percentile weighs at least 0.8 of one at the 90th (narrowed raise by
    raise, 0.025; ``strong`` lost to ``maniac`` with that read, -18.5 [-32.9,
    -4.2] BB/100 paired over 150 deals)."""
    bot = StrongBot(random.Random(0))
    t = bot.book.tendencies(0)
    t.bets, t.checks, t.raises, t.calls, t.folds = 95, 5, 90, 10, 0
    events = _sdr_hand(0, [[(1, "bet"), (0, "raise"), (1, "raise"), (0, "raise"),
                            (1, "raise"), (0, "raise"), (1, "raise"), (0, "raise")]])
    z = np.linspace(0.0, 1.0, 2001)
    w = bot.book.weights("sdr", events, [0], z[:, None])
    assert w[600] > 0.8 * w[1800], (w[600], w[1800])
