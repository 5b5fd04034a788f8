"""Straddles (issue 27): the optional straddle of the player left of the big
blind and the Mississippi straddle of the button, against hand-worked action
orders and pots; chips conserved and histories replayed with straddles."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rollem.bots.random_bot import random_action
from rollem.engine import Hand, Options, SeededSource
from rollem.engine.actions import Call, Check, Fold, Raise
from rollem.engine.errors import EngineError
from rollem.history import replay, write_history


def _holdem(stacks: list[int], *, button: int = 0, rule: str = "optional",
            straddlers: tuple[int, ...] = (), structure: str = "no-limit") -> Hand:
    # blinds 1/2 (half the small bet, the small bet), straddle 2 x 2 = 4
    options = Options(structure=structure, small_bet=2, big_bet=4, straddle_rule=rule,
                      straddlers=straddlers)
    return Hand("holdem", stacks, button=button, options=options, source=SeededSource(7))


def _posts(hand: Hand) -> list[tuple[int | None, str, int]]:
    return [(e.seat, e.data["blind"], e.data["amount"]) for e in hand.events
            if e.kind == "blind"]


def _turn(hand: Hand) -> int:
    assert hand.pending is not None
    return hand.pending.seats[0]


def test_optional_straddle_order_and_pot() -> None:
    """Six seats, button 0: blinds seats 1 and 2, seat 3 straddles 4.

    Worked by hand: seat 4 acts first (left of the straddle) and calls 4; 5 folds;
    0 raises to 12 (the least raise is to 8); 1 and 2 fold; the straddler acts
    last and calls 12; 4 calls. Pot 1 + 2 + 3 x 12 = 39; the flop starts with
    seat 3 (the first still in left of the button)."""
    hand = _holdem([100] * 6, straddlers=(3,))
    assert _posts(hand) == [(1, "small blind", 1), (2, "big blind", 2), (3, "straddle", 4)]
    order = []
    plan = [(4, Call()), (5, Fold()), (0, Raise(12)), (1, Fold()), (2, Fold()),
            (3, Call()), (4, Call())]
    for seat, action in plan:
        order.append(_turn(hand))
        if seat == 4 and not order[:-1]:
            legal = hand.legal_actions(4)
            assert legal.call_amount == 4 and legal.min_to == 8
        hand.apply(seat, action)
    assert order == [4, 5, 0, 1, 2, 3, 4]
    assert sum(hand.committed) == 39
    assert hand.committed == [12, 1, 2, 12, 12, 0]
    assert len(hand.board) == 3 and _turn(hand) == 3


def test_straddler_has_the_option() -> None:
    """Everyone calls the straddle: the straddler may check or raise (to 8 at least)."""
    hand = _holdem([100] * 5, straddlers=(3,))
    for seat in (4, 0, 1, 2):
        assert _turn(hand) == seat
        hand.apply(seat, Call())
    assert _turn(hand) == 3
    legal = hand.legal_actions(3)
    assert legal.actions == ("fold", "check", "raise") and legal.min_to == 8
    hand.apply(3, Check())
    assert sum(hand.committed) == 20 and len(hand.board) == 3


def test_mississippi_button_straddle_order_and_pot() -> None:
    """Six seats, button 0 straddles 4 (Mississippi).

    Worked by hand: the small blind (seat 1, left of the straddler) acts first
    and calls 4; 2 calls; 3 folds; 4 raises to 10; 5 folds; the button acts last
    and calls 10; 1 folds; 2 calls. Pot 4 + 10 + 10 + 10 = 34; the flop starts
    with seat 2."""
    hand = _holdem([100] * 6, rule="mississippi", straddlers=(0, 3))
    assert _posts(hand) == [(1, "small blind", 1), (2, "big blind", 2), (0, "straddle", 4)]
    order = []
    plan = [(1, Call()), (2, Call()), (3, Fold()), (4, Raise(10)), (5, Fold()),
            (0, Call()), (1, Fold()), (2, Call())]
    for seat, action in plan:
        order.append(_turn(hand))
        hand.apply(seat, action)
    assert order == [1, 2, 3, 4, 5, 0, 1, 2]
    assert hand.committed == [10, 4, 10, 0, 10, 0]
    assert sum(hand.committed) == 34
    assert len(hand.board) == 3 and _turn(hand) == 2


def test_mississippi_falls_back_to_left_of_big_blind() -> None:
    """The button did not choose to (or cannot cover 4): the player left of the big blind may."""
    hand = _holdem([100] * 5, rule="mississippi", straddlers=(3,))
    assert _posts(hand)[-1] == (3, "straddle", 4)
    assert _turn(hand) == 4
    short = _holdem([3, 100, 100, 100, 100], rule="mississippi", straddlers=(0, 3))
    assert _posts(short)[-1] == (3, "straddle", 4)


def test_who_may_not_straddle() -> None:
    """Optional: only the seat left of the big blind; never heads-up; a seat
    short of the full straddle passes; rule off: no straddle."""
    assert [p[1] for p in _posts(_holdem([100] * 5, straddlers=(0, 4)))] == \
        ["small blind", "big blind"]
    assert _turn(_holdem([100] * 5, straddlers=(0, 4))) == 3
    assert len(_posts(_holdem([100] * 2, straddlers=(0, 1)))) == 2
    assert len(_posts(_holdem([100, 100, 100, 3], straddlers=(3,)))) == 2
    assert len(_posts(_holdem([100] * 5, rule="off", straddlers=(3,)))) == 2
    # exactly the straddle: posted all-in; the next seat opens
    allin = _holdem([100, 100, 100, 4, 100], straddlers=(3,))
    assert _posts(allin)[-1] == (3, "straddle", 4) and allin.stacks[3] == 0
    assert _turn(allin) == 4


def test_three_handed_straddle_is_the_button() -> None:
    """Three-handed the player left of the big blind is the button: it acts last."""
    hand = _holdem([50] * 3, straddlers=(0,))
    assert _posts(hand) == [(1, "small blind", 1), (2, "big blind", 2), (0, "straddle", 4)]
    assert _turn(hand) == 1
    hand.apply(1, Call())
    hand.apply(2, Call())
    assert _turn(hand) == 0 and "check" in hand.legal_actions(0).actions


def test_fixed_limit_straddle_counts_as_a_raise() -> None:
    """Fixed limit, cap 3 (a bet and three raises): big blind 2 (the bet),
    straddle 4 (raise 1); 6 (raise 2), 8 (raise 3): capped, the next may only call."""
    hand = _holdem([100] * 6, straddlers=(3,), structure="fixed-limit")
    legal = hand.legal_actions(4)
    assert legal.min_to == legal.max_to == 6
    hand.apply(4, Raise(6))
    hand.apply(5, Raise(8))
    assert hand.legal_actions(0).actions == ("fold", "call")


def test_options_refuse_bad_straddles() -> None:
    with pytest.raises(EngineError, match="straddle_rule"):
        Options(straddle_rule="always")
    with pytest.raises(EngineError, match="straddlers"):
        Options(straddlers=(-1,))
    with pytest.raises(EngineError, match="straddlers"):
        Options.from_dict({"straddlers": 3})
    opts = Options(straddle_rule="mississippi", straddlers=(0, 3))
    assert Options.from_dict(opts.to_dict()) == opts
    assert "straddle_rule" not in Options().to_dict()


@st.composite
def straddle_hands(draw: st.DrawFn) -> tuple[Hand, random.Random]:
    n = draw(st.integers(2, 10))
    stacks = draw(st.lists(st.integers(0, 80), min_size=n, max_size=n))
    if sum(1 for s in stacks if s > 0) < 2:
        stacks[0] = stacks[0] or 50
        stacks[1] = stacks[1] or 3
    button = draw(st.sampled_from([s for s in range(n) if stacks[s] > 0]))
    small = draw(st.integers(1, 6))
    options = Options(
        structure=draw(st.sampled_from(["fixed-limit", "pot-limit", "no-limit"])),
        small_bet=small, big_bet=small * draw(st.integers(1, 3)),
        straddle_rule=draw(st.sampled_from(["off", "optional", "mississippi"])),
        straddlers=tuple(sorted(draw(st.sets(st.integers(0, n - 1))))),
    )
    seed = draw(st.integers(0, 2**32))
    game = draw(st.sampled_from(["holdem", "omaha"]))
    return (Hand(game, stacks, button=button, options=options, source=SeededSource(seed)),
            random.Random(seed))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(straddle_hands())
def test_straddle_chips_conserved_and_replayed(case: tuple[Hand, random.Random]) -> None:
    hand, rng = case
    total = sum(hand.start_stacks)
    while not hand.is_over:
        assert hand.pending is not None
        seat = rng.choice(hand.pending.seats)
        hand.apply(seat, random_action(hand.legal_actions(seat), rng))
        if hand.result is None:
            assert sum(hand.stacks) + sum(hand.committed) == total
    assert sum(hand.stacks) == total and hand.result is not None
    assert sum(hand.result.net.values()) == 0
    again = replay(write_history(hand))
    assert again.result is not None
    assert again.result.to_dict(cards=True) == hand.result.to_dict(cards=True)
    assert [e.seat for e in again.events if e.kind == "blind"] == \
        [e.seat for e in hand.events if e.kind == "blind"]


def test_a_straddled_hand_exports_to_phh_that_pokerkit_replays() -> None:
    """An opt-in straddle under the gun is in PHH's ``blinds_or_straddles`` (it was
    left out: nothing could replay the file); a Mississippi straddle from the button,
    which PHH cannot state, is refused in one line, as is a hand run twice (found by
    a new user's try-out, issue 29)."""
    import warnings

    import pokerkit as pk

    from rollem.phh import PHHError, phh_dict, write_phh
    from rollem.phh.read import read_phh, replay_phh

    hand = _holdem([100] * 6, straddlers=(3,))
    for seat, action in [(4, Call()), (5, Fold()), (0, Raise(12)), (1, Fold()), (2, Fold()),
                         (3, Call()), (4, Call())]:
        hand.apply(seat, action)
    while not hand.is_over:
        seat = _turn(hand)
        hand.apply(seat, Check() if "check" in hand.legal_actions(seat).actions else Call())
    table = phh_dict(hand)
    # PHH players from the button's left: seats 1, 2, 3 (the straddle), 4, 5, 0
    assert table["blinds_or_straddles"] == [1, 2, 4, 0, 0, 0]
    text = write_phh(hand)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        stacks = list(list(pk.HandHistory.loads(text))[-1].stacks)
    assert stacks == table["finishing_stacks"] == [hand.stacks[s] for s in table["_seats"]]
    assert replay_phh(read_phh(text)).finishing_stacks == stacks
    button = _holdem([100] * 6, rule="mississippi", straddlers=(0,))
    with pytest.raises(PHHError, match=r"^a straddle other than under the gun"):
        phh_dict(button)
