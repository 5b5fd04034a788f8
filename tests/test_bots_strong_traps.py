"""The ``strong`` bot's play against a trapper's lines (issue 31, twelfth pass;
``trap_lines``, off by default, turned on here): a player seen to check-raise
more than the bot itself has its bets with no check of its own in the hand
called and raised lighter (and, with ``trap_thin`` on, thin bets into its
checks become checks); against a player not seen to check-raise nothing
changes. Hand-built SDR views (stacked decks, scripted betting)."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from engine_helpers import stacked_hand
from rollem.bots.strong import StrongBot
from rollem.bots.strong.reads import OpponentBook, Tendencies
from rollem.bots.strong.traps import checked_in_hand, checked_this_round, trap_index
from rollem.engine import Bet, Call, Check, Fold, HandView, Raise

ROLL = "Kc Qd 7s"


def _view(hero: str, actions: list[object]) -> HandView:
    """Seat 1 (``hero``) after ``actions`` (seat 0, 3d 2s, first in every round;
    Stop 9h, Drop 4c, Roll Kc Qd 7s)."""
    hand = stacked_hand([200, 200], 1, {0: "3d 2s", 1: hero}, stop="9h", drop="4c", roll=ROLL)
    for action in actions:
        assert hand.pending is not None
        hand.apply(hand.pending.seats[0], action)
    assert hand.pending is not None and hand.pending.seats == (1,)
    return hand.view(1)


def _opponent(check_raises: int) -> Tendencies:
    """A book of seat 0 over a session: 40 spots facing a bet after its check,
    ``check_raises`` of them raised; the rest of its play ordinary."""
    return Tendencies(bets=60, checks=60, raises=20, calls=30, folds=40, bets_checked=20,
                      checks_checked=10, faced_after_check=40, check_raises=check_raises)


def _policy(view: HandView, check_raises: int, *, on: bool = True,
            thin: float | None = None, cr_range: bool = True) -> dict[str, float]:
    """``strong``'s policy on ``view`` by action kind, its book of seat 0 as
    :func:`_opponent` says, its trap lines on or off (``thin``: its
    ``trap_thin``, else the default; ``cr_range``: its ``check_raise_range``)."""
    bot = StrongBot(random.Random(0))
    bot.trap_lines = on
    bot.check_raise_range = cr_range
    if thin is not None:
        bot.trap_thin = thin
    bot.book.seats[0] = _opponent(check_raises)
    out: dict[str, float] = {}
    for action, p in bot.policy(view).items():
        out[type(action).__name__] = out.get(type(action).__name__, 0.0) + p
    return out


def test_trap_index() -> None:
    """0 for a player never seen, never seen to check-raise, or check-raising as
    ``strong`` does (2 of 92, 1,000 hands against itself); 10 of 40 is a
    trapper, (10 + 0.45) / 55 = 0.190, index (0.190 - 0.03) / 0.17 = 0.94; 30
    of 40 is past the top (1)."""
    assert trap_index(Tendencies()) == 0.0
    assert trap_index(Tendencies(faced_after_check=40)) == 0.0
    assert trap_index(Tendencies(faced_after_check=92, check_raises=2)) == 0.0
    assert trap_index(Tendencies(faced_after_check=40, check_raises=10)) == pytest.approx(
        ((10 + 0.45) / 55 - 0.03) / 0.17)
    assert trap_index(Tendencies(faced_after_check=40, check_raises=30)) == 1.0
    # the first check-raise of a match moves it, but not all the way
    assert 0.2 < trap_index(Tendencies(faced_after_check=5, check_raises=1)) < 0.3


def test_trap_index_against_the_bots_own_trapping() -> None:
    """Measured against the bot's own check-raises: a player check-raising 10 of
    40 reads 0 against a bot that did as much, and against one that did 4 of
    40 the excess over the bot's shrunk rate ((4 + 0.45) / 55 = 0.081)."""
    opp = Tendencies(faced_after_check=40, check_raises=10)
    assert trap_index(opp, Tendencies(faced_after_check=40, check_raises=10)) == 0.0
    assert trap_index(opp, Tendencies(faced_after_check=40, check_raises=4)) == pytest.approx(
        ((10 + 0.45) / 55 - (4 + 0.45) / 55) / 0.17)
    assert trap_index(opp, Tendencies()) == trap_index(opp)


def test_the_book_counts_its_own_check_raises() -> None:
    """The bot (seat 1) checks, is bet into and raises: one check-raise of one
    spot in its own counts; a call after its check is a spot without one; the
    opponent's counts are its own."""
    book = OpponentBook()
    events = [{"kind": "round", "name": "round 1"},
              {"kind": "check", "seat": 1}, {"kind": "bet", "seat": 0, "amount": 2},
              {"kind": "raise", "seat": 1, "amount": 4}, {"kind": "call", "seat": 0},
              {"kind": "round", "name": "round 2"},
              {"kind": "check", "seat": 1}, {"kind": "bet", "seat": 0, "amount": 2},
              {"kind": "call", "seat": 1}]
    book.observe(events, 1)
    assert (book.own.faced_after_check, book.own.check_raises) == (2, 1)
    assert book.tendencies(0).faced_after_check == 0
    book.observe(events, 1)  # the same events again count nothing new
    assert book.own.faced_after_check == 2


def test_checked_lines() -> None:
    """Who checked this round and this hand, read from the events."""
    events = [{"kind": "round", "name": "round 1"}, {"kind": "check", "seat": 0},
              {"kind": "bet", "seat": 1, "amount": 2}, {"kind": "call", "seat": 0},
              {"kind": "round", "name": "round 2"}, {"kind": "bet", "seat": 0, "amount": 2}]
    assert checked_in_hand(events, 0) and not checked_in_hand(events, 1)
    assert not checked_this_round(events, 0)
    assert checked_this_round(events[:3], 0)


def test_a_thin_bet_into_a_trappers_check_becomes_a_check() -> None:
    """``trap_thin`` 0.2 (off by default: it lost chips, ``docs/dev/league.md``):
    7h 6c on Kc Qd 7s (third pair), checked to on the last round after three
    checked rounds: against a player who never check-raised it bets (policy
    1.0, as with the trap lines off or ``trap_thin`` at its default 0); against
    one who check-raised 10 of 40 times (index 0.94) it checks (bet 0.0). The
    bet's check-raises priced from the top of all hands, as when the margin was
    measured (``check_raise_range`` off; on, the thirteenth pass's pricing, the
    bet gains more and clears the margin)."""
    view = _view("7h 6c", [Check(), Check()] * 3 + [Check()])
    assert _policy(view, 0, thin=0.2, cr_range=False).get("Bet", 0.0) == 1.0
    assert _policy(view, 10, on=False, thin=0.2, cr_range=False).get("Bet", 0.0) == 1.0
    assert _policy(view, 10, cr_range=False).get("Bet", 0.0) == 1.0
    assert _policy(view, 10, thin=0.2, cr_range=False) == {"Check": 1.0}


def test_a_trappers_first_bet_is_called_lighter() -> None:
    """Qh 8c facing the first-in bet of round 1 (no check in the hand): against
    the check-raiser (10 of 40) it calls; with the trap lines off, or against a
    player who never check-raised, it folds."""
    view = _view("Qh 8c", [Bet(2)])
    assert _policy(view, 0) == {"Fold": 1.0}
    assert _policy(view, 10, on=False) == {"Fold": 1.0}
    assert _policy(view, 10) == {"Call": 1.0}


def test_a_trappers_bet_with_no_check_is_raised_lighter() -> None:
    """Qh 5c on Kc Qd 7s (second pair) facing the last-round bet of a player who
    bet every round (no check in the hand): against the check-raiser it raises
    (off, or against a player who never check-raised: calls). Had that player
    checked round 1 (a trap line), it calls as before."""
    bets = [Bet(2), Call()] * 3 + [Bet(4)]
    view = _view("Qh 5c", bets)
    assert _policy(view, 0) == {"Call": 1.0}
    assert _policy(view, 10, on=False) == {"Call": 1.0}
    assert _policy(view, 10) == {"Raise": 1.0}
    checked_first = [Check(), Check()] + [Bet(2), Call()] * 2 + [Bet(4)]
    assert _policy(_view("Qh 5c", checked_first), 10) == {"Call": 1.0}


def test_policy_is_what_act_samples_against_a_trapper() -> None:
    """The trap lines move thresholds by the book only: ``act`` takes the action
    ``policy`` gives probability 1 (the lighter call)."""
    view = _view("Qh 8c", [Bet(2)])
    bot = StrongBot(random.Random(0))
    bot.trap_lines = True
    bot.book.seats[0] = _opponent(10)
    assert isinstance(bot.act(view), Call)
    default = StrongBot(random.Random(0))  # the lines off by default: main's fold
    default.book.seats[0] = _opponent(10)
    assert isinstance(default.act(view), Fold)


# -- issue 31, thirteenth pass: a check-raise priced at the rate it was seen

def test_check_raises_priced_at_the_rate_seen() -> None:
    """``_check_raise_from``: with ``check_raise_range`` on the priced
    check-raises over the range after the check come to the seen rate, 0.05,
    whether the range is all hands or only strong ones (a range that called
    bets, strength 0.8-1.0); pricing from the top 5% of all hands (off, as
    main does) priced 0.14 of that strong range as check-raising."""
    from rollem.bots.strong.reads import _step

    bot = StrongBot(random.Random(0))
    bot.check_raise_range = True
    calls = np.ones(400)
    weights = np.full(400, 1 / 400)
    for strength in (np.linspace(0.0, 1.0, 400), np.linspace(0.8, 1.0, 400)):
        top = bot._check_raise_from(strength, weights, calls, 0.05)
        assert float((weights * _step(strength, top, 0.05)).sum()) == pytest.approx(0.05, abs=1e-3)
    bot.check_raise_range = False
    strong = np.linspace(0.8, 1.0, 400)
    top = bot._check_raise_from(strong, weights, calls, 0.05)
    assert top == pytest.approx(0.95)
    assert float((weights * _step(strong, top, 0.05)).sum()) > 0.13
    # folds do not raise: the rate is of the spots, so the callers raise more
    half = np.where(np.arange(400) % 2 == 0, 1.0, 0.0)
    bot.check_raise_range = True
    top = bot._check_raise_from(strong, weights, half, 0.05)
    assert float((weights * half * _step(strong, top, 0.05)).sum()) == pytest.approx(0.05, abs=1e-3)


def test_a_bet_into_a_rare_check_raisers_check() -> None:
    """SDR, Kh 5c checked to in round 2 after a called round-1 bet, against a
    player seen to check-raise 2 of 40 times: the bet's gain over a check is
    higher with the check-raises priced at that rate over the range (main
    priced them at 0.09-0.25, checking behind), and the policy bets half the
    time (near-indifferent) where main checked (bet 0)."""
    view = _view("Kh 5c", [Bet(2), Call(), Check()])
    gains, bets = [], []
    for on in (False, True):
        bot = StrongBot(random.Random(0))
        bot.check_raise_range = on
        bot.book.seats[0] = Tendencies(bets=30, checks=60, raises=10, calls=30, folds=20,
                                       faced_after_check=40, check_raises=2)
        assert view.legal is not None
        gains.append(bot._bet_gain(view, view.legal, view.pot + sum(s.bet for s in view.seats)))
        bets.append(sum(p for a, p in bot.policy(view).items() if isinstance(a, Bet)))
    assert gains[1] > gains[0] + 0.05, gains
    assert bets == [0.0, 0.5], bets


def test_the_hand_end_counts_the_answers_after_a_check() -> None:
    """``OpponentBook.observe_end``: the answers to a bet after a check that
    ended the hand (a fold in round 1, a call on the last round) are counted as
    spots faced after a check; the bot's views had seen only the check-raise.
    Before the end the book of seat 0 reads 1 check-raise of 1 spot (rate 0.14
    with its prior), after it 1 of 2; a second call counts nothing; the bot's
    own answers after its check count in ``own``; nothing else moves."""
    r1 = [{"kind": "round", "name": "round 1"}, {"kind": "check", "seat": 0},
          {"kind": "bet", "seat": 1, "amount": 2}, {"kind": "raise", "seat": 0, "amount": 4}]
    book = OpponentBook()
    book.observe(r1, 1)  # the bot (seat 1) faces the check-raise
    t = book.tendencies(0)
    assert (t.check_raises, t.faced_after_check) == (1, 1)
    end = [*r1, {"kind": "call", "seat": 1},
           {"kind": "round", "name": "after the roll"}, {"kind": "check", "seat": 1},
           {"kind": "bet", "seat": 0, "amount": 4}, {"kind": "call", "seat": 1},
           {"kind": "round", "name": "round 5"}, {"kind": "check", "seat": 0},
           {"kind": "bet", "seat": 1, "amount": 4}, {"kind": "call", "seat": 0}]
    calls, folds = t.calls, t.folds
    book.observe_end(end, 1)
    assert (t.check_raises, t.faced_after_check) == (1, 2)
    assert (book.own.check_raises, book.own.faced_after_check) == (0, 1)
    assert (t.calls, t.folds) == (calls, folds)
    book.observe_end(end, 1)
    assert t.faced_after_check == 2
    # a new hand the bot saw no view of: its fold after a check counts
    other = [{"kind": "round", "name": "round 1", "hand": 2}, {"kind": "check", "seat": 0},
             {"kind": "bet", "seat": 1, "amount": 2}, {"kind": "fold", "seat": 0}]
    book.observe_end(other, 1)
    assert (t.check_raises, t.faced_after_check) == (1, 3)


def test_the_bot_counts_hand_ends_when_asked() -> None:
    """``StrongBot.observe_hand_end`` passes the end's events to the book with
    ``count_hand_ends`` on (seat 0 called the bot's last-round bet after its
    check: one more spot), and not with it off."""
    view = _view("Kh 5c", [Check(), Check()] * 3 + [Check()])
    hand_events = [*view.events, {"kind": "bet", "seat": 1, "amount": 4},
                   {"kind": "call", "seat": 0}]
    for on, spots in ((False, 0), (True, 1)):
        bot = StrongBot(random.Random(0))
        bot.count_hand_ends = on
        bot.observe_hand_end(dataclasses.replace(view, events=hand_events))
        assert bot.book.tendencies(0).faced_after_check == spots, on


def test_the_last_rounds_check_raises_apart() -> None:
    """With the game named, the answers after a check on the game's last betting
    round (SDR's fourth) are counted apart too; the last round's rate is shrunk
    toward the pooled one by 10 spots: 3 of 10 there, 4 of 40 in all (pooled
    (4 + 0.5) / 50 = 0.09), reads (3 + 0.9) / 20 = 0.195. The bet's gain takes
    it on the last round only with ``last_round_check_raises`` on."""
    rounds = [{"kind": "round", "name": n} for n in
              ("before the stop", "after the stop", "after the drop", "after the roll")]
    events = [rounds[0], {"kind": "check", "seat": 0}, {"kind": "bet", "seat": 1, "amount": 2},
              {"kind": "call", "seat": 0}, rounds[1], rounds[2], rounds[3],
              {"kind": "check", "seat": 0}, {"kind": "bet", "seat": 1, "amount": 4},
              {"kind": "raise", "seat": 0, "amount": 8}]
    book = OpponentBook()
    book.observe(events, 1, "sdr")
    t = book.tendencies(0)
    assert (t.faced_after_check, t.check_raises) == (2, 1)
    assert (t.faced_after_check_last, t.check_raises_last) == (1, 1)
    plain = OpponentBook()
    plain.observe(events, 1)  # no game named: nothing counted apart
    assert plain.tendencies(0).faced_after_check_last == 0
    t = Tendencies(faced_after_check=40, check_raises=4, faced_after_check_last=10,
                   check_raises_last=3)
    assert t.check_raise_rate_last == pytest.approx((3 + 10 * 0.09) / 20)
    bot = StrongBot(random.Random(0))
    assert bot._check_raise_rate(t, True) == pytest.approx(0.09)
    bot.last_round_check_raises = True
    assert bot._check_raise_rate(t, True) == pytest.approx(0.195)
    assert bot._check_raise_rate(t, False) == pytest.approx(0.09)


def test_answers_after_a_check_by_round() -> None:
    """``Tendencies.after_check_rates`` (issue 31, fourteenth pass): per betting
    round the raise and continue rates after a check, shrunk by 10 spots toward
    the rates pooled over the rounds. Round 1: 20 spots, 1 raise, 14 folds;
    round 4: 5 spots, 1 raise, 1 fold; fold rate (10 + 2) / (50 + 5). Pooled:
    raise (2 + 0.5) / (25 + 10) = 0.0714, continue (10 + 5 * 0.7818) / 30 =
    0.4636. Round 1 (1 + 0.714) / 30 = 0.0571 and (6 + 4.636) / 30 = 0.3545;
    round 2 (no spots) the pooled; round 4 0.1143 and (4 + 4.636) / 15 =
    0.5758."""
    t = Tendencies(raises=10, calls=30, folds=10, after_check={1: [20, 1, 14], 4: [5, 1, 1]})
    assert t.after_check_rates(1) == pytest.approx((0.057143, 0.354545), abs=1e-5)
    assert t.after_check_rates(2) == pytest.approx((0.071429, 0.463636), abs=1e-5)
    assert t.after_check_rates(4) == pytest.approx((0.114286, 0.575758), abs=1e-5)
    # never seen: raise 0.05, continue 1 - fold rate prior (3/5)
    assert Tendencies().after_check_rates(3) == pytest.approx((0.05, 0.6))


def test_the_answers_after_a_check_are_filed_by_round() -> None:
    """``observe`` files each answer after a check under its betting round; the
    hand's end adds those that ended it (a round-1 fold, a last-round call)
    there only when ``pooled`` is off (``round_prices`` without
    ``count_hand_ends``): the pooled spots stay as the views saw them."""
    r = [{"kind": "round", "name": n} for n in
         ("before the stop", "after the stop", "after the drop", "after the roll")]
    seen = [r[0], {"kind": "check", "seat": 0}, {"kind": "bet", "seat": 1, "amount": 2},
            {"kind": "call", "seat": 0}, r[1], {"kind": "check", "seat": 0},
            {"kind": "bet", "seat": 1, "amount": 2}, {"kind": "raise", "seat": 0, "amount": 4}]
    end = [*seen, {"kind": "call", "seat": 1}, r[2], {"kind": "check", "seat": 0},
           {"kind": "check", "seat": 1}, r[3], {"kind": "check", "seat": 0},
           {"kind": "bet", "seat": 1, "amount": 4}, {"kind": "call", "seat": 0}]
    book = OpponentBook()
    book.observe(seen, 1, "sdr")
    t = book.tendencies(0)
    assert t.after_check == {1: [1, 0, 0], 2: [1, 1, 0]}
    book.observe_end(end, 1, "sdr", pooled=False)
    assert t.after_check == {1: [1, 0, 0], 2: [1, 1, 0], 4: [1, 0, 0]}
    assert (t.faced_after_check, t.check_raises) == (2, 1)
    fold = [{"kind": "round", "name": "before the stop", "hand": 2},
            {"kind": "check", "seat": 0}, {"kind": "bet", "seat": 1, "amount": 2},
            {"kind": "fold", "seat": 0}]
    book.observe_end(fold, 1, "sdr", pooled=False)
    assert t.after_check[1] == [2, 0, 1]
    assert t.faced_after_check == 2


def test_the_bot_files_hand_ends_by_round_when_asked() -> None:
    """``StrongBot.observe_hand_end`` with ``round_prices`` on (and
    ``count_hand_ends`` off) files seat 0's last-round call after its check
    under round 4, and leaves the pooled spots alone; off, nothing."""
    view = _view("Kh 5c", [Check(), Check()] * 3 + [Check()])
    hand_events = [*view.events, {"kind": "bet", "seat": 1, "amount": 4},
                   {"kind": "call", "seat": 0}]
    for on, filed in ((False, {}), (True, {4: [1, 0, 0]})):
        bot = StrongBot(random.Random(0))
        bot.round_prices = on
        bot.observe_hand_end(dataclasses.replace(view, events=hand_events))
        assert bot.book.tendencies(0).after_check == filed, on
        assert bot.book.tendencies(0).faced_after_check == 0


def test_after_check_prices_come_to_the_rates_seen() -> None:
    """``_after_check_prices``: over a range of all hands (400 equal worlds,
    strength 0..1) a continue rate of 0.3 and a raise rate of 0.05 are priced
    as they are, the continues from about the top 29% (0.02 + 0.98 * 0.286 =
    0.3), the raises from the top 5%; over a range of strength 0.8-1.0 (one
    that called bets) a continue rate of 0.9 and raise rate 0.1 too. Main's
    calls at a fold rate of 0.7 priced 0.97 of the second range continuing
    (the seen 0.9)."""
    from rollem.bots.strong.reads import _step

    weights = np.full(400, 1 / 400)
    for strength, cont, rate in ((np.linspace(0.0, 1.0, 400), 0.3, 0.05),
                                 (np.linspace(0.8, 1.0, 400), 0.9, 0.1)):
        calls, raises = StrongBot._after_check_prices(strength, weights, rate, cont)
        assert float((weights * calls).sum()) == pytest.approx(cont, abs=1e-3)
        assert float((weights * raises).sum()) == pytest.approx(rate, abs=1e-3)
        assert np.all(raises <= calls)
        assert np.all(np.diff(calls) >= 0)
    strength = np.linspace(0.0, 1.0, 400)
    calls, _ = StrongBot._after_check_prices(strength, weights, 0.05, 0.3)
    assert float(calls[strength < 0.5].max()) < 0.04  # the bottom folds
    assert float(calls[strength > 0.9].min()) > 0.95  # the top continues
    main = 0.02 + 0.98 * _step(np.linspace(0.8, 1.0, 400), 0.7, 0.05)
    assert float((weights * main).sum()) == pytest.approx(0.969, abs=1e-3)


def test_a_bet_into_a_check_of_a_player_who_folds_there() -> None:
    """SDR round 1, 8h 7h checked to by a player seen to fold 30 of 40 times
    facing a bet after its check in round 1 (raise 2): with ``round_prices``
    the bet is priced as continued 0.26 of the time ((10 + 10 * 0.30) / 50,
    shrunk toward its 0.30 after checks in every round), not from its fold
    rate over all spots (22 / 65, continue 0.66), and the bet gains where
    main's checks (policy: bet 1.0 where main bet 0). The round's continue
    rate is shrunk toward a given prior instead of the pooled one when asked
    (``round_prices_range``)."""
    view = _view("8h 7h", [Check()])
    assert view.legal is not None
    pot = view.pot + sum(s.bet for s in view.seats)
    gains, bets = [], []
    for on in (False, True):
        bot = StrongBot(random.Random(0))
        bot.round_prices = on
        bot.book.seats[0] = Tendencies(bets=30, checks=60, raises=10, calls=30, folds=20,
                                       faced_after_check=40, check_raises=2,
                                       after_check={1: [40, 2, 30]})
        gains.append(bot._bet_gain(view, view.legal, pot))
        bets.append(sum(p for a, p in bot.policy(view).items() if isinstance(a, Bet)))
    assert gains[0] < 0 < gains[1]
    assert bets == [0.0, 1.0]
    t = Tendencies(raises=10, calls=30, folds=20, after_check={1: [40, 2, 30]})
    # pooled: raise 2.5 / 50, continue (10 + 5 * (1 - 22 / 65)) / 45
    cont_all = (10 + 5 * (1 - 22 / 65)) / 45
    assert t.after_check_rates(1) == pytest.approx(((2 + 10 * 0.05) / 50,
                                                    (10 + 10 * cont_all) / 50))
    assert t.after_check_rates(1, 0.8)[1] == pytest.approx((10 + 8) / 50)


# -- issue 31, fifteenth pass: check-raises priced at the folds seen to them


def _checked_then_bet(hero: str) -> HandView:
    """Seat 0 (``hero``, first in every round) checked round 1 and faces seat 1's
    bet of 2 (seat 1 holds 3d 2s; Stop 9h, Drop 4c, Roll Kc Qd 7s)."""
    hand = stacked_hand([200, 200], 1, {0: hero, 1: "3d 2s"}, stop="9h", drop="4c", roll=ROLL)
    hand.apply(0, Check())
    hand.apply(1, Bet(2))
    assert hand.pending is not None and hand.pending.seats == (0,)
    return hand.view(0)


def test_the_hand_end_counts_the_answers_to_the_bots_check_raises() -> None:
    """``OpponentBook.observe_check_raise_answers``: at the hand's end each answer
    of seat 1 to the bot's (seat 0's) check-raise is counted, a fold that ended
    the hand (round 1) and a call (round 2); the raise of a bet the bot did not
    check before (round 3) is no check-raise; a second call for the same hand
    counts nothing. With a fold to raises of (1 + 1) / (4 + 3) = 2/7, 1 fold of
    2 reads (1 + 5 * 2/7) / (2 + 5) = 0.347."""
    r1 = [{"kind": "round", "name": "round 1"}, {"kind": "check", "seat": 0},
          {"kind": "bet", "seat": 1, "amount": 2}, {"kind": "raise", "seat": 0, "amount": 4},
          {"kind": "call", "seat": 1},
          {"kind": "round", "name": "round 2"}, {"kind": "check", "seat": 0},
          {"kind": "bet", "seat": 1, "amount": 2}, {"kind": "raise", "seat": 0, "amount": 4},
          {"kind": "fold", "seat": 1}]
    book = OpponentBook()
    t = book.tendencies(1)
    t.faced_raise, t.folds_to_raise = 4, 1
    book.observe_check_raise_answers(r1, 0)
    assert (t.faced_check_raise, t.folds_to_check_raise) == (2, 1)
    assert t.fold_to_check_raise_rate == pytest.approx((1 + 5 * 2 / 7) / 7)
    book.observe_check_raise_answers(r1, 0)
    assert (t.faced_check_raise, t.folds_to_check_raise) == (2, 1)
    other = [{"kind": "round", "name": "round 1", "hand": 2}, {"kind": "bet", "seat": 0},
             {"kind": "raise", "seat": 1, "amount": 4}, {"kind": "raise", "seat": 0},
             {"kind": "fold", "seat": 1}]
    book.observe_check_raise_answers(other, 0)
    assert (t.faced_check_raise, t.folds_to_check_raise) == (2, 1)
    # seat 1's own check-raise answered by the bot is not the bot's
    assert book.own.faced_check_raise == 0


def test_the_bot_counts_check_raise_answers_when_asked() -> None:
    """``StrongBot.observe_hand_end`` counts the folds to its check-raises with
    ``check_raise_bluffs`` on, and nothing with it off."""
    view = _checked_then_bet("7c 2d")
    end = [*view.events, {"kind": "raise", "seat": 0, "amount": 4},
           {"kind": "fold", "seat": 1}]
    for on, folds in ((False, 0), (True, 1)):
        bot = StrongBot(random.Random(0))
        bot.check_raise_bluffs = on
        bot.observe_hand_end(dataclasses.replace(view, events=end))
        assert bot.book.tendencies(1).folds_to_check_raise == folds, on


def test_a_check_raise_against_a_player_who_folds_to_them() -> None:
    """SDR round 1, 7c 2d checked and bet into by a player seen to fold to 18 of
    the bot's 20 check-raises (its folds to raises 10 of 30 all told): with
    ``check_raise_bluffs`` the raise's gain is priced at those folds over the
    bettor's range and the policy check-raises (1.0) where main folds (its raise
    priced at the fold rate to raises from the top of all hands; fold 1.0).
    Against a player seen to fold to 2 of 20 it folds as main."""
    view = _checked_then_bet("7c 2d")
    assert view.legal is not None
    pot = view.pot + sum(s.bet for s in view.seats)
    raises = []
    for on, folded in ((False, 18), (True, 18), (True, 2)):
        bot = StrongBot(random.Random(0))
        bot.check_raise_bluffs = on
        bot.book.seats[1] = Tendencies(bets=60, checks=60, raises=20, calls=30, folds=40,
                                       bets_checked=40, checks_checked=10,
                                       faced_raise=30, folds_to_raise=10,
                                       faced_check_raise=20, folds_to_check_raise=folded)
        raises.append(sum(p for a, p in bot.policy(view).items() if type(a).__name__ == "Raise"))
        if on and folded == 18:
            assert bot._raise_gain(view, view.legal, pot, 2, check_raise=True) > 0.05 * pot
    assert raises == [0.0, 1.0, 0.0], raises


# -- issue 31, sixteenth pass: a trapper's check-raises read wider (trap_reads)


def _check_raise_events() -> list[dict[str, object]]:
    """Round 1: seat 0 checks, seat 1 bets, seat 0 raises (a check-raise)."""
    return [{"kind": "round", "name": "round 1"}, {"kind": "check", "seat": 0},
            {"kind": "bet", "seat": 1, "amount": 2}, {"kind": "raise", "seat": 0, "amount": 4}]


def test_a_trappers_check_raise_is_read_wider() -> None:
    """``OpponentBook.weights`` with ``wide``: seat 0's check-raise (raise rate
    (20 + 1) / (90 + 5) = 0.221) is read from its top 0.5 * 0.221 = 0.11 with
    index 0 (as without ``wide``) and from its top 1.5 * 0.221 = 0.33 at
    index 1: a world with seat 0 at the 80th percentile weighs more against
    one at the 99th, the 99th's the same; a seat not in ``wide`` reads as 0."""
    book = OpponentBook()
    book.seats[0] = _opponent(10)
    z = np.array([[0.99], [0.80], [0.50]])
    events = _check_raise_events()
    plain = book.weights("sdr", events, [0], z)
    assert np.array_equal(book.weights("sdr", events, [0], z, None, {0: 0.0}), plain)
    assert np.array_equal(book.weights("sdr", events, [0], z, None, {1: 1.0}), plain)
    wide = book.weights("sdr", events, [0], z, None, {0: 1.0})
    half = book.weights("sdr", events, [0], z, None, {0: 0.5})
    assert plain[0] == half[0] == wide[0] == 1.0
    # the 80th percentile: below the top 0.11 (a step of width 0.05 at 0.89),
    # inside the top 0.33 (at 0.67); the 50th below both
    assert plain[1] == pytest.approx(0.182, abs=0.001)
    assert half[1] == pytest.approx(0.621, abs=0.001)
    assert wide[1] == pytest.approx(0.936, abs=0.001)
    assert plain[2] < wide[2] < 0.06


def _last_round_check_raise(hero: str) -> HandView:
    """Seat 1 (``hero``) after three checked rounds: seat 0 (3d 2s) checks the
    last, seat 1 bets 4 and seat 0 raises to 8 (Roll Kc Qd 7s)."""
    hand = stacked_hand([200, 200], 1, {0: "3d 2s", 1: hero}, stop="9h", drop="4c", roll=ROLL)
    for _ in range(3):
        hand.apply(0, Check())
        hand.apply(1, Check())
    hand.apply(0, Check())
    hand.apply(1, Bet(4))
    hand.apply(0, Raise(8))
    assert hand.pending is not None and hand.pending.seats == (1,)
    return hand.view(1)


def _answer(view: HandView, *, on: bool, check_raises: int,
            own: int = 0) -> dict[str, float]:
    """``strong``'s policy by action kind facing ``view``'s check-raise, with
    ``trap_reads`` ``on`` or off, seat 0's book :func:`_opponent` with
    ``check_raises`` of 40 spots counted at the hands' ends too, and the bot's
    own ``own`` of 40 there."""
    bot = StrongBot(random.Random(0))
    bot.trap_reads = on
    bot.book.seats[0] = dataclasses.replace(_opponent(check_raises), ended_after_check=40,
                                            ended_check_raises=check_raises)
    bot.book.own = Tendencies(ended_after_check=40, ended_check_raises=own)
    out: dict[str, float] = {}
    for action, p in bot.policy(view).items():
        out[type(action).__name__] = out.get(type(action).__name__, 0.0) + p
    return out


def test_a_trappers_last_round_check_raise_is_called() -> None:
    """SDR, the last round: Qh 8c (a pair of queens on Kc Qd 7s) bets into a
    check and is check-raised. Against a player check-raising 10 of 40 spots
    (index 0.94) the bot reads the raise from the top third of its raises with
    ``trap_reads`` and calls; without it (the top 11%), or when the bot itself
    check-raised as often (10 of 40: index 0, as ``strong`` against its own
    policy), it folds; against a player never seen to check-raise the switch
    changes nothing."""
    view = _last_round_check_raise("Qh 8c")
    assert _answer(view, on=False, check_raises=10) == {"Fold": 1.0}
    assert _answer(view, on=True, check_raises=10) == {"Call": 1.0}
    assert _answer(view, on=True, check_raises=10, own=10) == {"Fold": 1.0}
    assert _answer(view, on=True, check_raises=0) == _answer(view, on=False, check_raises=0)


def test_the_hand_end_counts_everyones_check_raises_alike() -> None:
    """``OpponentBook.observe_traps``: from a hand's whole events, the bot's (seat
    0's) check-raise that was folded to (which :meth:`OpponentBook.observe`
    never sees: no later view shows it) counts in its own counts as seat 1's
    call after its check counts in seat 1's; a second call counts nothing;
    ``ended_index`` reads them (seat 1 no trapper against the bot)."""
    from rollem.bots.strong.traps import ended_index

    events = [{"kind": "round", "name": "round 1"}, {"kind": "check", "seat": 1},
              {"kind": "bet", "seat": 0, "amount": 2}, {"kind": "call", "seat": 1},
              {"kind": "round", "name": "round 2"}, {"kind": "check", "seat": 0},
              {"kind": "bet", "seat": 1, "amount": 2}, {"kind": "raise", "seat": 0, "amount": 4},
              {"kind": "fold", "seat": 1}]
    book = OpponentBook()
    book.observe(events[:7], 0)  # its view as it raised
    assert book.own.faced_after_check == 0
    for _ in range(2):
        book.observe_traps(events, 0)
        assert (book.own.ended_after_check, book.own.ended_check_raises) == (1, 1)
        t = book.tendencies(1)
        assert (t.ended_after_check, t.ended_check_raises) == (1, 0)
    assert ended_index(t, book.own) == 0.0
    assert ended_index(Tendencies(ended_after_check=40, ended_check_raises=10),
                       Tendencies()) == pytest.approx(((10 + 0.45) / 55 - 0.03) / 0.17)


def test_the_bot_counts_traps_at_the_hand_end_when_asked() -> None:
    """``StrongBot.observe_hand_end`` counts the check-raises at the end with
    ``trap_reads`` on, and nothing with it off."""
    view = _checked_then_bet("7c 2d")
    end = [*view.events, {"kind": "raise", "seat": 0, "amount": 4},
           {"kind": "fold", "seat": 1}]
    for on, raises in ((False, 0), (True, 1)):
        bot = StrongBot(random.Random(0))
        bot.trap_reads = on
        bot.observe_hand_end(dataclasses.replace(view, events=end))
        assert bot.book.own.ended_check_raises == raises, on


# -- issue 31, seventeenth pass: check-raises matched to a trapper's (match_check_raises)


def test_check_raises_matched_against_a_player_check_raising_more() -> None:
    """SDR round 1, 7c 2d checked and bet into by a player seen to fold to 18 of
    the bot's 20 check-raises and to check-raise 10 of 40 bets into its own
    checks (counted at the hands' ends): with ``match_check_raises`` the bot
    check-raises (1.0) while it has check-raised fewer (1 of 40), and folds as
    main (1.0) once it has check-raised as many (10 of 40: the opponent's index
    0) or with the switch off."""
    view = _checked_then_bet("7c 2d")
    raises = []
    for on, own in ((False, 1), (True, 1), (True, 10)):
        bot = StrongBot(random.Random(0))
        bot.match_check_raises = on
        bot.book.seats[1] = Tendencies(bets=60, checks=60, raises=20, calls=30, folds=40,
                                       bets_checked=40, checks_checked=10,
                                       faced_raise=30, folds_to_raise=10,
                                       faced_check_raise=20, folds_to_check_raise=18,
                                       ended_after_check=40, ended_check_raises=10)
        bot.book.own = Tendencies(ended_after_check=40, ended_check_raises=own)
        raises.append(sum(p for a, p in bot.policy(view).items() if type(a).__name__ == "Raise"))
    assert raises == [0.0, 1.0, 0.0], raises


def test_the_bot_counts_what_matching_needs_when_asked() -> None:
    """``StrongBot.observe_hand_end`` with ``match_check_raises`` counts both the
    answers to its check-raises and every check-raise at the hand's end (its own
    folded-to one here); with it off, neither."""
    view = _checked_then_bet("7c 2d")
    end = [*view.events, {"kind": "raise", "seat": 0, "amount": 4},
           {"kind": "fold", "seat": 1}]
    for on, n in ((False, 0), (True, 1)):
        bot = StrongBot(random.Random(0))
        bot.match_check_raises = on
        bot.observe_hand_end(dataclasses.replace(view, events=end))
        assert bot.book.own.ended_check_raises == n, on
        assert bot.book.tendencies(1).folds_to_check_raise == n, on
