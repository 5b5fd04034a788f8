"""Hand-computed engine cases: side pots, odd chips, uncalled bets, caps,
minimum raises, short all-ins, the half-bet rule, illegal actions
(R-C-5..R-C-11, R-C-14, R-SDR-7)."""

from __future__ import annotations

import pytest

from engine_helpers import stacked_hand
from rollem.engine import (
    Bet,
    Call,
    Check,
    Fold,
    Hand,
    IllegalAction,
    Options,
    Raise,
    SeededSource,
)

NL = Options(structure="no-limit")


def nl_hand(stacks: list[int], button: int, **kw: object) -> Hand:
    return Hand("sdr", stacks, button=button, options=Options(structure="no-limit", **kw),  # type: ignore[arg-type]
                source=SeededSource(7))


def test_three_all_ins_side_pots() -> None:
    # seat 0 opens (button 3); ante 1 each
    h = nl_hand([10, 30, 60, 100], 3)
    h.apply(0, Bet(9))  # all-in for 10 in total
    h.apply(1, Raise(29))  # all-in, 30 in total
    h.apply(2, Raise(59))  # all-in, 60 in total
    h.apply(3, Call())  # 60 in total
    assert h.is_over
    r = h.result
    assert r is not None
    assert [(p.amount, p.eligible) for p in r.pots] == [
        (40, (0, 1, 2, 3)), (60, (1, 2, 3)), (60, (2, 3))]
    assert sum(r.net.values()) == 0
    assert sum(h.stacks) == 200
    for p in r.pots:
        assert sum(p.winners.values()) == p.amount
        assert set(p.winners) <= set(p.eligible)
    # every all-in hand is shown (R-C-11); seat 3 still has chips and may muck
    assert {0, 1, 2} <= set(r.shown)


def test_four_all_ins_side_pots_and_no_raise_nobody_can_call() -> None:
    h = nl_hand([10, 30, 60, 100, 150], 4)
    h.apply(0, Bet(9))
    h.apply(1, Raise(29))
    h.apply(2, Raise(59))
    h.apply(3, Raise(99))
    # every other player still in is all-in: seat 4 may only call or fold (R-C-14)
    assert h.legal_actions(4).actions == ("fold", "call")
    with pytest.raises(IllegalAction, match="nobody could call a raise"):
        h.apply(4, Raise(149))
    h.apply(4, Call())
    assert h.is_over
    r = h.result
    assert r is not None
    assert [(p.amount, p.eligible) for p in r.pots] == [
        (50, (0, 1, 2, 3, 4)), (80, (1, 2, 3, 4)), (90, (2, 3, 4)), (80, (3, 4))]
    assert not any(e.kind == "return" for e in h.events)
    assert sum(h.stacks) == 350


def test_three_way_split_with_odd_chips() -> None:
    # three ace-king hands tie; 20 chips in antes; button 1 so the dealer's
    # left is seat 2, then 3, 0, 1: the two odd chips go to seats 2 and 0 (R-C-10)
    h = stacked_hand([100] * 4, 1, {0: "As Kd", 1: "Ad Kh", 2: "Ac Ks", 3: "Qs Jd"},
                     stop="3c", drop="4d", roll="2c 7d 9h", options=Options(ante=5))
    while not h.is_over:
        assert h.pending is not None
        h.apply(h.pending.seats[0], Check())
    r = h.result
    assert r is not None
    assert len(r.pots) == 1
    assert r.pots[0].amount == 20
    assert r.pots[0].winners == {2: 7, 0: 7, 1: 6}
    assert r.net == {0: 2, 1: 1, 2: 2, 3: -5}


def test_uncalled_bet_returned_when_all_fold() -> None:
    h = nl_hand([200, 200], 1)
    h.apply(0, Bet(50))
    h.apply(1, Fold())
    r = h.result
    assert r is not None and not r.showdown
    assert [(p.amount, p.winners) for p in r.pots] == [(2, {0: 2})]
    assert r.net == {0: 1, 1: -1}
    assert r.shown == {}


def test_uncalled_part_of_all_in_returned() -> None:
    h = nl_hand([200, 31], 1)
    h.apply(0, Bet(100))
    h.apply(1, Call())  # all-in for 30
    r = h.result
    assert r is not None
    assert [(p.amount, p.eligible) for p in r.pots] == [(62, (0, 1))]
    assert any(e.kind == "return" and e.data["amount"] == 70 for e in h.events)


@pytest.mark.parametrize("structure", ["fixed-limit", "pot-limit", "no-limit"])
def test_no_raise_when_every_other_player_in_is_all_in(structure: str) -> None:
    # the tester's case: seat 1 is out of chips, seat 2 bets its last chip
    # all-in; seat 0, facing it, may call or fold, never raise (R-C-14)
    h = Hand("sdr", [10, 0, 3], button=2, options=Options(structure=structure),
             source=SeededSource(8))
    h.apply(0, Check())
    h.apply(2, Bet(2))  # all-in: 1 ante + 2
    legal = h.legal_actions(0)
    assert legal.actions == ("fold", "call") and legal.call_amount == 2
    assert (legal.min_to, legal.max_to) == (0, 0)
    view = h.view(0).to_dict()["legal"]
    assert view["actions"] == ["fold", "call"]
    assert h.pending is not None and h.pending.legal.actions == ("fold", "call")
    with pytest.raises(IllegalAction, match="nobody could call a raise; allowed: fold, call 2"):
        h.apply(0, Raise(4 if structure == "fixed-limit" else 5))
    h.apply(0, Call())
    assert h.is_over
    assert not any(e.kind == "return" for e in h.events)


def test_raise_allowed_while_another_player_in_has_chips() -> None:
    # seat 2 is all-in, seat 0 folded, seat 1 still has chips: seat 3 may raise
    h = nl_hand([100, 100, 20, 100], 3)
    h.apply(0, Bet(5))
    h.apply(1, Call())
    h.apply(2, Raise(19))  # all-in
    assert "raise" in h.legal_actions(3).actions
    h.apply(3, Fold())
    h.apply(0, Fold())
    # only seat 1 with chips is left facing seat 2's all-in: call or fold
    assert h.legal_actions(1).actions == ("fold", "call")


def test_inventor_cap_refuses_second_raise_in_round_one() -> None:
    h = Hand("sdr", [200] * 3, button=2, source=SeededSource(1))
    h.apply(0, Bet(2))
    h.apply(1, Raise(4))
    legal = h.legal_actions(2)
    assert legal.actions == ("fold", "call")
    with pytest.raises(IllegalAction, match="capped"):
        h.apply(2, Raise(6))
    h.apply(2, Call())
    assert h.legal_actions(0).actions == ("fold", "call")


def test_round_four_allows_three_raises() -> None:
    h = Hand("sdr", [200] * 2, button=1, source=SeededSource(1))
    for _ in range(3):  # rounds 1-3 checked through
        h.apply(0, Check())
        h.apply(1, Check())
    h.apply(0, Bet(4))
    h.apply(1, Raise(8))
    h.apply(0, Raise(12))
    h.apply(1, Raise(16))
    assert h.legal_actions(0).actions == ("fold", "call")


def test_cap_heads_up_off_lifts_the_cap() -> None:
    h = Hand("sdr", [200] * 2, button=1, options=Options(cap_heads_up=False),
             source=SeededSource(1))
    h.apply(0, Bet(2))
    h.apply(1, Raise(4))
    h.apply(0, Raise(6))
    assert h.legal_actions(1).actions == ("fold", "call", "raise")


def test_no_limit_minimum_raise_after_raise() -> None:
    h = nl_hand([500] * 3, 2)
    h.apply(0, Bet(10))
    h.apply(1, Raise(25))  # raise by 15
    legal = h.legal_actions(2)
    assert (legal.min_to, legal.max_to) == (40, 499)
    with pytest.raises(IllegalAction, match=r"40\.\.499"):
        h.apply(2, Raise(39))
    h.apply(2, Raise(40))
    assert h.legal_actions(0).min_to == 55


def test_no_limit_minimum_bet_is_round_bet_size() -> None:
    h = nl_hand([500] * 2, 1)
    assert (h.legal_actions(0).min_to, h.legal_actions(0).max_to) == (2, 499)
    with pytest.raises(IllegalAction):
        h.apply(0, Bet(1))


def test_pot_limit_maximum() -> None:
    h = Hand("sdr", [500] * 3, button=2, options=Options(structure="pot-limit"),
             source=SeededSource(3))
    assert h.legal_actions(0).max_to == 3  # pot of 3 antes
    h.apply(0, Bet(3))
    # pot 6, call 3 -> pot 9 after calling: raise to 3 + 9 = 12
    assert h.legal_actions(1).max_to == 12


def test_short_all_in_does_not_reopen() -> None:
    h = nl_hand([300, 16, 17, 300], 3)
    h.apply(0, Bet(10))
    h.apply(1, Raise(15))  # all-in, +5: less than a full raise
    assert (h.legal_actions(2).min_to, h.legal_actions(2).max_to) == (16, 16)  # only all-in
    h.apply(2, Raise(16))  # all-in, another short one
    h.apply(3, Call())
    # seat 0 already acted: two short all-ins do not reopen the betting
    assert h.legal_actions(0).actions == ("fold", "call")
    with pytest.raises(IllegalAction, match="not reopened"):
        h.apply(0, Raise(40))
    h.apply(0, Call())
    assert h.round_name == "after the stop"


def test_seat_not_yet_acted_may_raise_after_short_all_in() -> None:
    h = nl_hand([300, 16, 300], 2)
    h.apply(0, Bet(10))
    h.apply(1, Raise(15))
    legal = h.legal_actions(2)
    assert legal.actions == ("fold", "call", "raise")
    assert legal.min_to == 25
    h.apply(2, Raise(25))  # full raise reopens for seat 0
    assert h.legal_actions(0).actions == ("fold", "call", "raise")


def test_fixed_limit_half_bet_all_in_is_a_raise() -> None:
    # small bet 4: an all-in of 2 more (half a bet) counts as a raise (R-C-6)
    opts = Options(small_bet=4, big_bet=8)
    h = Hand("sdr", [300, 7, 300], button=2, options=opts, source=SeededSource(1))
    h.apply(0, Bet(4))
    h.apply(1, Raise(6))  # all-in 6: +2 = half a bet, the one raise of round 1
    assert h.legal_actions(2).actions == ("fold", "call")  # capped
    h.apply(2, Call())
    assert h.legal_actions(0).actions == ("fold", "call")


def test_fixed_limit_small_all_in_is_not_a_raise() -> None:
    opts = Options(small_bet=4, big_bet=8)
    h = Hand("sdr", [300, 6, 300], button=2, options=opts, source=SeededSource(1))
    h.apply(0, Bet(4))
    h.apply(1, Raise(5))  # all-in 5: +1 < half a bet
    legal = h.legal_actions(2)
    assert legal.actions == ("fold", "call", "raise")
    assert (legal.call_amount, legal.min_to, legal.max_to) == (5, 8, 8)  # as if not made
    h.apply(2, Call())
    assert h.legal_actions(0).actions == ("fold", "call")  # not reopened for seat 0
    h.apply(0, Call())
    assert h.round_name == "after the stop"


def test_folded_player_never_asked_again() -> None:
    h = Hand("sdr", [200] * 3, button=2, source=SeededSource(5))
    h.apply(0, Bet(2))
    h.apply(1, Fold())
    h.apply(2, Call())
    while not h.is_over:
        assert h.pending is not None
        assert 1 not in h.pending.seats
        h.apply(h.pending.seats[0], Check())
    with pytest.raises(IllegalAction):
        h.apply(1, Check())


def _snapshot(h: Hand) -> tuple[object, ...]:
    return (list(h.stacks), list(h.bets), list(h.committed), len(h.events), h.pending,
            h.current_bet, list(h.folded), list(h.acted), len(h.actions))


@pytest.mark.parametrize(
    ("seat", "action", "message"),
    [
        (1, Check(), "cannot act now: waiting for seat 0"),
        (0, Call(), "nothing to call"),
        (0, Raise(4), "no bet to raise"),
        (0, Bet(3), "bet 3 is not 2"),
        (0, Bet(-2), "is not 2"),
        (0, "jump", "not a betting action"),
    ],
)
def test_illegal_actions_change_nothing(seat: int, action: object, message: str) -> None:
    h = Hand("sdr", [200] * 3, button=2, source=SeededSource(5))
    before = _snapshot(h)
    with pytest.raises(IllegalAction, match=message) as info:
        h.apply(seat, action)
    assert _snapshot(h) == before
    if seat == 0:
        assert "allowed: fold, check, bet 2" in str(info.value)


def test_short_ante_is_all_in_and_rounds_skipped() -> None:
    h = Hand("sdr", [1, 200], button=1, source=SeededSource(2))
    # seat 0 is all-in on the ante: no betting round can be played (R-C-14)
    assert h.is_over
    r = h.result
    assert r is not None and r.showdown
    assert sum(p.amount for p in r.pots) == 2
    assert len(h.board) == 3 and len(h.dead) == 2
    assert [e.kind for e in h.events].count("round_skipped") == 4


def test_sitting_out_seat_is_not_dealt() -> None:
    h = Hand("sdr", [100, 0, 100], button=0, source=SeededSource(2))
    assert h.hole[1] == []
    assert h.pending is not None and h.pending.seats == (2,)


def test_burn_before_roll_option() -> None:
    h = Hand("sdr", [100, 100], button=0, options=Options(ante=0, house={"burn_before_roll": True}),
             source=SeededSource(2))
    while not h.is_over:
        assert h.pending is not None
        h.apply(h.pending.seats[0], Check())
    assert len(h.burned) == 3
    assert h.board == h.deck[4 + 5: 4 + 8]


def test_sdr_deal_order_and_dead_cards() -> None:
    h = stacked_hand([100] * 3, 0, {1: "As Kd", 2: "Qs Qd", 0: "2c 3c"},
                     stop="Qh", drop="7c", roll="Kc 7d 2s")
    assert h.deck[:6] == [h.hole[1][0], h.hole[2][0], h.hole[0][0],
                          h.hole[1][1], h.hole[2][1], h.hole[0][1]]
    while not h.is_over:
        assert h.pending is not None
        h.apply(h.pending.seats[0], Check())
    assert [str(c) for c in h.dead] == ["Qh", "7c"]
    assert [str(c) for c in h.board] == ["Kc", "7d", "2s"]
    r = h.result
    assert r is not None
    assert r.pots[0].winners == {1: 3}


def test_showdown_order_and_mucking_r_c_11() -> None:
    # button 2: seat 0 is first left of the dealer. Seat 1 bets the last round,
    # so seat 1 shows first, then clockwise: seat 2 (beaten: mucks), seat 0 (wins: shows).
    h = stacked_hand([100] * 3, 2, {0: "As Ad", 1: "Kc Kd", 2: "3c 4d"},
                     stop="2h", drop="2d", roll="9s 8h 7c")
    for _ in range(3):
        for seat in (0, 1, 2):
            h.apply(seat, Check())
    h.apply(0, Check())
    h.apply(1, Bet(4))
    h.apply(2, Call())
    h.apply(0, Call())
    kinds = [(e.kind, e.seat) for e in h.events if e.kind in ("show", "muck")]
    assert kinds == [("show", 1), ("muck", 2), ("show", 0)]
    r = h.result
    assert r is not None
    assert r.pots[0].winners == {0: 15}
    assert set(r.shown) == {0, 1}
    # the mucked hand stays hidden from the others
    assert "3c" not in str(h.view(0).to_dict())


def test_all_in_opener_passes_the_opening_on_r_c_14() -> None:
    h = nl_hand([11, 100, 100], 2)
    h.apply(0, Bet(10))  # seat 0 all-in
    h.apply(1, Call())
    h.apply(2, Call())
    # round 2: seat 0 (first left of the button) is all-in; seat 1 opens
    assert h.round_name == "after the stop"
    assert h.pending is not None and h.pending.seats == (1,)
    h.apply(1, Check())
    h.apply(2, Check())
    assert h.round_name == "after the drop"
