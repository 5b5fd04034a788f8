"""5-2-1 Roll 'Em (R-521-1..R-521-10): settlement cases as replayed hand
histories (hand-computed), draws and reshuffles with 7, 9 and 10 players,
openers and bet sizes, illegal actions, the carried pot through a table
session, and property tests (chips and cards conserved, nothing hidden leaks)."""

from __future__ import annotations

import json
import random
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rollem.bots.random_bot import random_action
from rollem.cards import CARDS, Card
from rollem.engine import (
    Bet,
    Call,
    Check,
    Declare,
    Draw,
    EngineError,
    Fold,
    Hand,
    IllegalAction,
    Options,
    Raise,
    SeededSource,
    Stack,
    settle_pot,
)
from rollem.engine.draw import draw_state
from rollem.history import replay, write_history
from rollem.table import Table

HISTORIES = Path(__file__).parent / "histories"


def _hist(name: str) -> Hand:
    hand = replay((HISTORIES / f"rollem521_{name}.toml").read_text())
    assert hand.result is not None
    return hand


def _failed(hand: Hand) -> set[tuple[int, int]]:
    return {(e.data["pot"], e.seat) for e in hand.events if e.kind == "failed_both"
            and e.seat is not None}


# ------------------------------------------------ settlement (R-521-9), hand-computed


def test_both_ways_declarer_scoops() -> None:
    hand = _hist("both_scoops")
    r = hand.result
    assert r is not None
    assert hand.extra["declarations"] == {0: "both", 1: "high", 2: "low"}
    (pot,) = r.pots
    assert (pot.amount, pot.winners, pot.high, pot.low) == (15, {0: 15}, {0: 8}, {0: 7})
    assert r.net == {0: 10, 1: -5, 2: -5} and r.carried == 0
    assert _failed(hand) == set()


def test_both_ways_declarer_who_ties_low_gets_nothing() -> None:
    hand = _hist("both_ties_low")
    r = hand.result
    assert r is not None
    (pot,) = r.pots
    assert pot.winners == {1: 8, 2: 7} and pot.high == {1: 8} and pot.low == {2: 7}
    assert r.net == {0: -5, 1: 3, 2: 2}
    assert _failed(hand) == {(0, 0)}


def test_two_both_ways_declarers_each_winning_one_way_both_fail() -> None:
    hand = _hist("two_both_each_one_way")
    r = hand.result
    assert r is not None
    (pot,) = r.pots
    # judged once: D (seat 3) is not re-judged after A (seat 0) is left out
    assert pot.winners == {1: 10, 2: 10} and pot.high == {1: 10} and pot.low == {2: 10}
    assert r.net == {0: -5, 1: 5, 2: 5, 3: -5}
    assert _failed(hand) == {(0, 0), (0, 3)}


def test_hand_that_makes_a_both_ways_declarer_fail_is_shown() -> None:
    # D (seat 3) wins nothing, but its straight flush beats A's high and makes
    # A fail: it decides A's result, so it is shown, not mucked (R-C-11, R-521-9)
    hand = _hist("two_both_each_one_way")
    r = hand.result
    assert r is not None
    assert set(r.shown) == {0, 1, 2, 3}
    # both ways: each half named (issue 26; before: "six-high straight flush and six-five low, ...")
    assert r.shown[3] == "high: six-high straight flush; low: six-five low, four-three-deuce"
    assert [str(c) for c in r.shown_cards[3]] == ["6h", "5h", "4h", "3h", "2h"]
    assert not any(e.kind == "muck" for e in hand.events)


def test_both_ways_hand_with_the_same_words_both_ways_is_named_once() -> None:
    """s58-tidy: a both-ways declarer's paired hand with no ace has the same words
    high and low; the engine (hand histories, the terminal) said them twice
    ("high: pair of fours, eight-six-five; low: pair of fours, eight-six-five"),
    the web table once ("high and low: ..."): now the engine says them once too."""
    from rollem.history import same_words

    text = (HISTORIES / "builtin" / "rollem521_6_1.toml").read_text()
    hand = replay(text)
    assert hand.result is not None
    assert hand.extra["declarations"][1] == "both"
    assert hand.result.shown[1] == "high and low: pair of fours, eight-six-five"
    shows = [e.data["description"] for e in hand.events if e.kind == "show" and e.seat == 1]
    assert shows == ["high and low: pair of fours, eight-six-five"]
    # different words both ways: still each half named
    assert hand.result.shown[2] == "jack-ten low, nine-six-four"
    # a history written before (either older wording) still replays
    old = text.replace('"high and low: pair of fours, eight-six-five"',
                       '"high: pair of fours, eight-six-five; low: pair of fours, eight-six-five"')
    assert old != text
    assert replay(old).result is not None
    assert same_words("pair of fours, eight-six-five and pair of fours, eight-six-five",
                      "high and low: pair of fours, eight-six-five")
    assert not same_words("high: pair of fours, eight-six-five; low: pair of fives, "
                          "eight-six-four", "high and low: pair of fours, eight-six-five")


@pytest.mark.parametrize("name", ["all_failed_carry", "both_scoops", "both_ties_low",
                                  "nobody_low", "odd_chips", "side_pot",
                                  "two_both_each_one_way"])
def test_history_show_and_muck_lines_are_what_the_engine_does(name: str) -> None:
    text = (HISTORIES / f"rollem521_{name}.toml").read_text()
    written = [line.split("#")[0].strip() for line in tomllib.loads(text)["actions"]
               if " sm" in line]
    hand = replay(text)
    got = [f"p{e.seat + 1} sm" + (" " + " ".join(str(CARDS[c]) for c in e.data["cards"])
                                  if e.kind == "show" else "")
           for e in hand.events if e.kind in ("show", "muck") and e.seat is not None]
    assert not written or written == got


def test_nobody_declares_low_high_takes_whole_pot() -> None:
    hand = _hist("nobody_low")
    r = hand.result
    assert r is not None
    (pot,) = r.pots
    assert pot.winners == {0: 15} and pot.high == {0: 15} and pot.low == {}
    assert r.net == {0: 10, 1: -5, 2: -5}
    # a whole pot is no "high half" (nobody was left on the low side)
    (win,) = [e for e in hand.events if e.kind == "win"]
    assert win.data == {"amount": 15, "pot": 0, "half": None, "whole": "high",
                        "description": "whole pot: no low declarers left"}
    from rollem.cli.replay_cmd import summary

    # seats counted from 1 in both places of the line (stop 53: "eligible: 0 1 2;
    # seat 1 wins" mixed indexes with seat numbers)
    assert ("Main pot: 15 chips (eligible: seat 1, seat 2, seat 3); seat 1 wins 15 "
            "(whole pot: no low declarers left)") in summary(hand).splitlines()


def test_side_pot_settled_separately_with_one_declaration() -> None:
    hand = _hist("side_pot")
    r = hand.result
    assert r is not None
    main, side = r.pots
    assert (main.amount, main.eligible) == (9, (0, 1, 2))
    assert main.winners == {2: 5, 0: 4} and main.high == {2: 5} and main.low == {0: 4}
    assert (side.amount, side.eligible) == (8, (1, 2))
    assert side.winners == {1: 8} and side.high == {1: 4} and side.low == {1: 4}
    assert r.net == {0: 1, 1: 1, 2: -2}
    assert _failed(hand) == {(0, 1)}  # B fails the main pot only


def test_every_contender_failed_pot_carried() -> None:
    hand = _hist("all_failed_carry")
    r = hand.result
    assert r is not None
    (pot,) = r.pots
    assert pot.amount == 10 and pot.winners == {} and pot.high == {} and pot.low == {}
    assert r.carried == 10 and r.net == {0: -5, 1: -5}
    assert sum(hand.stacks) + r.carried == sum(hand.start_stacks)
    assert r.to_dict()["carried"] == 10


def test_odd_chips_in_a_high_low_split() -> None:
    hand = _hist("odd_chips")
    r = hand.result
    assert r is not None
    (pot,) = r.pots
    assert pot.amount == 22
    assert pot.high == {0: 6, 3: 5} and pot.low == {1: 6, 2: 5}
    assert r.net == {0: 1, 1: 1, 2: 0, 3: 0, 4: -1, 5: -1}


def test_replay_json_has_high_low_and_carried(capsys: pytest.CaptureFixture[str]) -> None:
    from rollem.cli.app import main

    with pytest.raises(SystemExit) as info:
        main(["replay", str(HISTORIES / "rollem521_side_pot.toml"), "--json"])
    out, _ = capsys.readouterr()
    assert info.value.code in (0, None)
    data = json.loads(out)
    assert data["game"] == "rollem521" and data["carried"] == 0
    assert data["pots"][0]["high"] == {"2": 5} and data["pots"][0]["low"] == {"0": 4}
    assert data["pots"][1] == {"amount": 8, "eligible": [1, 2], "winners": {"1": 8},
                               "high": {"1": 4}, "low": {"1": 4}}


@pytest.mark.parametrize("name", ["both_scoops", "side_pot", "all_failed_carry", "odd_chips"])
def test_settlement_histories_write_and_replay_again(name: str) -> None:
    hand = _hist(name)
    text = write_history(hand)
    again = replay(text)
    assert again.result is not None and hand.result is not None
    assert again.result.to_dict(cards=True) == hand.result.to_dict(cards=True)
    assert write_history(again) == text


# ------------------------------------------------ settle_pot (pure), hand-computed


H = {0: 100, 1: 200, 2: 300}
L = {0: 30, 1: 20, 2: 10}


def test_settle_pot_lone_declarer_on_a_side_takes_that_half() -> None:
    s = settle_pot(11, (0, 1, 2), {0: "high", 1: "high", 2: "low"}, H, L, button=2, n_seats=3)
    assert s.high == {1: 6} and s.low == {2: 5} and s.carried == 0


def test_settle_pot_failed_both_split_rule() -> None:
    sides = {0: "both", 1: "both"}
    high, low = {0: 5, 1: 9}, {0: 9, 1: 5}
    carry = settle_pot(9, (0, 1), sides, high, low, button=1, n_seats=2)
    assert carry.carried == 9 and carry.winners == {} and set(carry.failed) == {0, 1}
    split = settle_pot(9, (0, 1), sides, high, low, button=1, n_seats=2,
                       failed_both_rule="split")
    assert split.carried == 0 and split.high == {1: 5} and split.low == {0: 4}
    with pytest.raises(EngineError, match="failed_both_rule"):
        settle_pot(9, (0, 1), sides, high, low, button=1, n_seats=2, failed_both_rule="x")


def test_settle_pot_single_eligible_both_declarer_wins_outright() -> None:
    s = settle_pot(8, (2,), {2: "both"}, H, L, button=0, n_seats=3)
    assert s.winners == {2: 8} and s.high == {2: 4} and s.low == {2: 4} and s.failed == ()


def test_settle_pot_both_declarer_tied_high_loses_and_tie_is_split() -> None:
    high = {0: 50, 1: 50, 2: 10}
    low = {0: 99, 1: 1, 2: 2}
    s = settle_pot(7, (0, 1, 2), {0: "both", 1: "high", 2: "low"}, high, low,
                   button=2, n_seats=3)
    assert s.failed == (0,)
    assert s.high == {1: 4} and s.low == {2: 3}
    assert s.deciders == (1,)  # seat 1's tie on high makes seat 0 fail
    assert s.whole is None


def test_settle_pot_deciders_and_whole_pot() -> None:
    # seat 0 both: seat 1 (high) beats it high, seat 3 (both) ties it low; seat 2
    # (low) loses to it low and decides nothing; seat 3 fails too (seat 0 beats
    # it high). Nobody is left on the low side but seat 2: it takes the low half.
    high = {0: 50, 1: 60, 2: 1, 3: 40}
    low = {0: 90, 1: 1, 2: 80, 3: 90}
    sides = {0: "both", 1: "high", 2: "low", 3: "both"}
    s = settle_pot(9, (0, 1, 2, 3), sides, high, low, button=3, n_seats=4)
    assert s.failed == (0, 3) and s.deciders == (0, 1, 3)
    assert s.high == {1: 5} and s.low == {2: 4} and s.whole is None
    # without seat 2 nobody is left on the low side: the high side takes it whole
    s = settle_pot(9, (0, 1, 3), sides, high, low, button=3, n_seats=4)
    assert s.winners == {1: 9} and s.high == {1: 9} and s.low == {} and s.whole == "high"


# ------------------------------------------------ openers, sizes, options


def _script(hand: Hand, rng: random.Random, policy: Any = None) -> None:
    """Play to the end: ``policy(hand, seat)`` may return an action, else check/call,
    stand pat, stack as held, declare high."""
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        action = policy(hand, seat) if policy is not None else None
        if action is None:
            kind = hand.pending.kind
            legal = hand.legal_actions(seat)
            if kind == "bet":
                action = Check() if "check" in legal.actions else Call()
            elif kind == "draw":
                action = Draw(())
            elif kind == "stack":
                action = Stack(tuple(hand.hole[seat]))
            else:
                action = Declare("high")
        hand.apply(seat, action)


def _round_openers(hand: Hand) -> dict[str, int]:
    return {e.data["round"]: e.seat for e in hand.events if e.kind == "round"
            and e.seat is not None}


def test_round_two_opened_left_of_round_one_opener_r_521_3() -> None:
    hand = Hand("rollem521", [100] * 5, button=3, source=SeededSource(1))
    _script(hand, random.Random(0))
    openers = _round_openers(hand)
    assert openers["before the draw"] == 4 and openers["after the first draw"] == 0


def test_round_two_skips_a_folded_left_neighbour() -> None:
    def policy(hand: Hand, seat: int) -> object | None:
        if hand.round_name == "before the draw" and seat == 4 and hand.current_bet == 0:
            return Bet(2)
        if hand.round_name == "before the draw" and seat == 0:
            return Fold()
        return None

    hand = Hand("rollem521", [100] * 5, button=3, source=SeededSource(2))
    _script(hand, random.Random(0), policy)
    openers = _round_openers(hand)
    assert openers["before the draw"] == 4 and openers["after the first draw"] == 1


def test_round_two_after_an_all_in_round_one_opener() -> None:
    # seat 4 (dealer's left) is all-in on the ante: seat 0 begins round 1,
    # so round 2 begins with seat 1 (R-521-3, R-C-14)
    hand = Hand("rollem521", [100, 100, 100, 100, 1], button=3, source=SeededSource(3))
    _script(hand, random.Random(0))
    openers = _round_openers(hand)
    assert openers["before the draw"] == 0 and openers["after the first draw"] == 1


def test_rolled_rounds_opened_by_highest_showing_and_bet_sizes() -> None:
    hand = Hand("rollem521", [200] * 4, button=0, source=SeededSource(5))
    seen: dict[str, tuple[int, int]] = {}

    def policy(hand: Hand, seat: int) -> object | None:
        if hand.pending is not None and hand.pending.kind == "bet" \
                and hand.round_name not in seen:
            legal = hand.legal_actions(seat)
            seen[hand.round_name] = (legal.min_to, legal.max_to)
        return None

    _script(hand, random.Random(0), policy)
    assert seen == {"before the draw": (2, 2), "after the first draw": (2, 2),
                    "first card up": (4, 4), "second card up": (4, 4),
                    "third card up": (4, 4), "fourth card up": (4, 4)}
    from rollem.hands import showing_value

    for k, name in enumerate(("first card up", "second card up", "third card up",
                              "fourth card up")):
        opener = _round_openers(hand)[name]
        values = {s: showing_value(hand.hole[s][: k + 1]) for s in range(4)}
        best = max(values.values())
        firsts = [s for s in (1, 2, 3, 0) if values[s] == best]
        assert opener == firsts[0]
    # the fifth card stays down until the showdown
    assert all(hand.up[s] == [True] * 4 + [False] for s in range(4))


def test_three_raises_per_round_fixed_limit() -> None:
    hand = Hand("rollem521", [200] * 3, button=2, source=SeededSource(6))
    hand.apply(0, Bet(2))
    hand.apply(1, Raise(4))
    hand.apply(2, Raise(6))
    hand.apply(0, Raise(8))
    legal = hand.legal_actions(1)
    assert legal.actions == ("fold", "call")


def test_bet_after_declare_option() -> None:
    plain = Hand("rollem521", [100] * 3, button=0, source=SeededSource(7))
    assert [s.name for s in plain.steps][-2:] == ["declare", "showdown"]
    hand = Hand("rollem521", [100] * 3, button=0, source=SeededSource(7),
                options=Options(house={"bet_after_declare": True}))
    names = [s.name for s in hand.steps]
    assert names[-3:] == ["declare", "after declare", "showdown"]
    sizes: list[int] = []

    def policy(hand: Hand, seat: int) -> object | None:
        if hand.round_name == "after declare" and hand.current_bet == 0:
            assert "declarations" in hand.extra  # after the reveal
            sizes.append(hand.legal_actions(seat).min_to)
            return Bet(4)
        return None

    _script(hand, random.Random(0), policy)
    assert sizes == [4]
    assert _round_openers(hand)["after declare"] == 1  # R-C-7: dealer's left
    r = hand.result
    assert r is not None and r.pots[0].amount == 3 + 12


def test_illegal_draw_stack_and_declare_change_nothing() -> None:
    hand = Hand("rollem521", [100] * 3, button=2, source=SeededSource(8))
    for s in (0, 1, 2):
        hand.apply(s, Check())
    held = list(hand.hole[0])
    with pytest.raises(IllegalAction, match="discard 0 to 2"):
        hand.apply(0, Draw(tuple(held[:3])))
    with pytest.raises(IllegalAction, match="discard 0 to 2"):
        hand.apply(0, Draw((hand.hole[1][0],)))
    with pytest.raises(IllegalAction, match="must draw"):
        hand.apply(0, Check())
    assert hand.hole[0] == held and hand.pending is not None and hand.pending.seats == (0,)
    legal = hand.legal_actions(0)
    assert (legal.kind, legal.actions, legal.max_count) == ("draw", ("draw",), 2)
    for s in (0, 1, 2):
        hand.apply(s, Draw(()))
    for s in (1, 2, 0):
        hand.apply(s, Check())
    with pytest.raises(IllegalAction, match="discard 0 to 1"):
        hand.apply(0, Draw(tuple(hand.hole[0][:2])))
    for s in (0, 1, 2):
        hand.apply(s, Draw(()))
    with pytest.raises(IllegalAction, match="must stack"):
        hand.apply(1, Stack(tuple(hand.hole[1][:4])))
    with pytest.raises(IllegalAction, match="must stack"):
        hand.apply(1, Stack((*hand.hole[1][:4], hand.hole[0][0])))


def test_unknown_failed_both_rule_is_refused() -> None:
    with pytest.raises(EngineError, match="failed_both_rule"):
        Hand("rollem521", [100] * 3, options=Options(house={"failed_both_rule": "keep"}),
             source=SeededSource(1))


# ------------------------------------------------ draws and reshuffles (R-521-5)


class _WatchedSource(SeededSource):
    """A seeded source that checks every reshuffle against the hand at that moment."""

    hand: Hand | None = None

    def _shuffle(self, label: str, cards: Sequence[int]) -> list[Card]:
        if label == "reshuffle":
            assert self.hand is not None
            _check_reshuffle(self.hand, set(cards))
        return super()._shuffle(label, cards)


def _in_play(hand: Hand) -> set[int]:
    return {c for s in range(hand.n) if not hand.folded[s] for c in hand.hole[s]}


def _check_reshuffle(hand: Hand, cards: set[int]) -> None:
    """R-521-5: the new stub is the muck and every discard not in play, except
    the served seat's own; those only when nothing else is left."""
    assert hand.stub_left == 0
    assert hand.pending is not None
    seat = hand.pending.seats[0]
    own = set(draw_state(hand)["discards"].get(seat, ()))
    out_of_play = set(range(52)) - _in_play(hand)
    others = out_of_play - own
    if others:
        assert cards == others
    else:  # nothing else left: the seat's own earlier discards
        assert cards and cards <= out_of_play & own


def _check_accounting(hand: Hand) -> None:
    """Every card is in exactly one place: a live hand, the stub, the muck, the discards."""
    stub = hand.deck[hand.deck_pos:]
    pile = draw_state(hand)["discard_pile"]
    live = [c for s in range(hand.n) if not hand.folded[s] for c in hand.hole[s]]
    every = live + stub + list(hand.muck) + list(pile)
    assert sorted(every) == list(range(52)), "a card is missing or twice"


def _own_returns(hand: Hand) -> list[tuple[int, int]]:
    """(seat, card) for every card dealt back to the seat that discarded it, each
    checked to follow a reshuffle in which the seat's own discards were added."""
    discards: dict[int, set[int]] = {}
    own_ok: dict[int, bool] = {}
    back = []
    for e in hand.events:
        if e.kind == "draw" and e.seat is not None:
            discards.setdefault(e.seat, set()).update(e.data["cards"])
            own_ok[e.seat] = False
        elif e.kind == "reshuffle" and e.seat is not None and e.data["own"]:
            own_ok[e.seat] = True
        elif e.kind == "draw_deal" and e.seat is not None:
            for c in e.data["cards"]:
                if c in discards.get(e.seat, set()):
                    assert own_ok[e.seat], f"seat {e.seat} was dealt back {CARDS[c]}"
                    back.append((e.seat, c))
    return back


def _play_drawing_hand(n: int, seed: int, *, folds: bool = False,
                       count: Any = None) -> Hand:
    """Everyone discards the most allowed (or ``count(hand, seat, max)``);
    betting: check/call (some folds and bets if asked)."""
    rng = random.Random(seed)
    src = _WatchedSource(seed)
    hand = Hand("rollem521", [100] * n, button=seed % n, source=src)
    src.hand = hand
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        legal = hand.legal_actions(seat)
        if legal.kind == "draw":
            k = legal.max_count if count is None else count(hand, seat, legal.max_count)
            action: object = Draw(tuple(rng.sample(list(legal.cards), k)))
        elif legal.kind == "bet":
            if folds and "fold" in legal.actions and rng.random() < 0.2:
                action = Fold()
            elif folds and "bet" in legal.actions and rng.random() < 0.3:
                action = Bet(legal.min_to)
            else:
                action = Check() if "check" in legal.actions else Call()
        else:
            action = random_action(legal, rng)
        hand.apply(seat, action)
        if not hand.is_over:
            _check_accounting(hand)
    return hand


@pytest.mark.parametrize("n", [7, 9])
def test_draws_with_reshuffles_never_deal_back_own_discards(n: int) -> None:
    with_folds = 0
    for seed in range(40):
        folds = seed % 2 == 1
        hand = _play_drawing_hand(n, seed, folds=folds)
        records = draw_state(hand)["reshuffles"]
        if not folds:
            assert records, "without folds the stub always runs out"
        elif records and hand.muck:
            with_folds += 1
        assert _own_returns(hand) == []
        assert not any(r["own"] for r in draw_state(hand)["reshuffles"])
        again = replay(write_history(hand))
        assert again.result is not None and hand.result is not None
        assert again.result.to_dict() == hand.result.to_dict()
        assert [o for o in again.source.outcomes if o[0] == "reshuffle"] == \
            [o for o in hand.source.outcomes if o[0] == "reshuffle"]
    assert with_folds > 0  # and some reshuffles took folded hands from the muck


def test_seven_players_need_a_reshuffle_only_in_the_second_draw() -> None:
    hand = _play_drawing_hand(7, 3)
    # 35 dealt, 17 left; the first draw takes 14, the second needs 7
    events = [e.kind for e in hand.events]
    second = events.index("draw_round", events.index("draw_round") + 1)
    first_reshuffle = events.index("reshuffle")
    assert first_reshuffle > second


def test_ten_players_own_discard_dealt_back_when_nothing_else_is_left() -> None:
    # ten players, no folds: everyone draws two in the first draw; in the
    # second only the button draws. Out of play then are just the button's
    # own two first-draw discards (each player was served the previous
    # player's), so R-521-5 lets it be dealt one of them back.
    def count(hand: Hand, seat: int, most: int) -> int:
        return 2 if most == 2 else int(seat == hand.button)

    for seed in range(5):
        hand = _play_drawing_hand(10, seed, count=count)
        backs = _own_returns(hand)
        assert len(backs) == 1 and backs[0][0] == hand.button
        records = draw_state(hand)["reshuffles"]
        assert records[-1] == {"seat": hand.button, "cards": 2, "own": True}
        assert not any(r["own"] for r in records[:-1])
        again = replay(write_history(hand))
        assert again.result is not None and hand.result is not None
        assert again.result.to_dict() == hand.result.to_dict()


def test_ten_players_random_draws_own_discards_only_when_nothing_else_is_left() -> None:
    for seed in range(60):
        pick = random.Random(seed).choice
        hand = _play_drawing_hand(10, seed, folds=seed % 3 == 0,
                                  count=lambda h, s, most, pick=pick: pick([0, most, most]))
        backs = _own_returns(hand)  # each one checked to follow an own-discards reshuffle
        records = draw_state(hand)["reshuffles"]
        assert records, "ten players always run out"
        assert len(backs) <= sum(r["cards"] for r in records if r["own"])
        text = write_history(hand)
        assert "# reshuffle for p" in text
        again = replay(text)
        assert again.result is not None and hand.result is not None
        assert again.result.to_dict() == hand.result.to_dict()


# ------------------------------------------------ the carried pot through a session


def test_carried_pot_goes_into_the_next_hand_of_the_session() -> None:
    table = Table([100, 100], game="rollem521", button=1, rng=random.Random(5))
    hand = _hist("all_failed_carry")
    table.hand = hand
    table.end_hand()
    assert table.carry == 10 and table.stacks == [95, 95] and table.chips == 200
    nxt = table.new_hand()
    assert nxt.carry_in == 10 and table.carry == 0
    view = nxt.view(0)
    assert view.pot == 10 + 2  # the carried chips and two antes
    _script(nxt, random.Random(0))
    r = nxt.result
    assert r is not None
    assert r.pots[0].amount >= 12
    assert sum(nxt.stacks) + r.carried == 190 + 10
    table.end_hand()
    assert table.chips == 200


def test_session_of_random_hands_conserves_chips_with_carries() -> None:
    rng = random.Random(9)
    table = Table([60] * 4, game="rollem521", rng=random.Random(9), rebuy=60,
                  options=Options(house={"failed_both_rule": "carry"}))
    carries = 0
    for _ in range(300):
        carry = table.carry
        hand = table.new_hand()
        assert hand.carry_in == carry
        while not hand.is_over:
            assert hand.pending is not None
            seat = rng.choice(hand.pending.seats)
            hand.apply(seat, random_action(hand.legal_actions(seat), rng))
        table.end_hand()
        assert hand.result is not None
        carries += hand.result.carried > 0
        assert table.chips == sum(table.brought)
    assert carries > 0


# ------------------------------------------------ properties over random hands


@st.composite
def hands(draw: st.DrawFn) -> tuple[Hand, random.Random]:
    n = draw(st.integers(2, 10))
    stacks = draw(st.lists(st.integers(0, 150), min_size=n, max_size=n))
    if sum(1 for s in stacks if s > 0) < 2:
        stacks[0] = stacks[0] or 50
        stacks[1] = stacks[1] or 3
    button = draw(st.sampled_from([s for s in range(n) if stacks[s] > 0]))
    small = draw(st.integers(1, 4))
    options = Options(
        structure=draw(st.sampled_from(["fixed-limit", "pot-limit", "no-limit"])),
        ante=draw(st.integers(0, 3)),
        small_bet=small,
        big_bet=small * draw(st.integers(1, 2)),
        house={"bet_after_declare": draw(st.booleans()),
               "failed_both_rule": draw(st.sampled_from(["carry", "split"]))},
    )
    seed = draw(st.integers(0, 2**32))
    hand = Hand("rollem521", stacks, button=button, options=options, source=SeededSource(seed))
    return hand, random.Random(seed)


def _act(hand: Hand, rng: random.Random) -> None:
    assert hand.pending is not None
    seat = rng.choice(hand.pending.seats)
    legal = hand.legal_actions(seat)
    action = random_action(legal, rng)
    if isinstance(action, Fold) and rng.random() < 0.7:
        action = Call()  # keep more players to the showdown and the draws
    hand.apply(seat, action)


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands())
def test_chips_and_cards_conserved(case: tuple[Hand, random.Random]) -> None:
    hand, rng = case
    total = sum(hand.start_stacks) + hand.carry_in
    while not hand.is_over:
        _act(hand, rng)
        if not hand.is_over:
            assert sum(hand.stacks) + sum(hand.committed) == total
            _check_accounting(hand)
    r = hand.result
    assert r is not None
    assert sum(hand.stacks) + r.carried == total
    assert sum(p.amount for p in r.pots) == sum(hand.committed) + hand.carry_in
    for pot in r.pots:
        assert sum(pot.winners.values()) + (pot.amount if not pot.winners and r.carried
                                            else 0) == pot.amount
        assert set(pot.winners) <= set(pot.eligible)
        if pot.high is not None and pot.low is not None and pot.winners:
            assert sum(pot.high.values()) + sum(pot.low.values()) == pot.amount
            if pot.high and pot.low:
                assert sum(pot.high.values()) - sum(pot.low.values()) == pot.amount % 2
    _own_returns(hand)


def _secrets(hand: Hand, viewers: Sequence[int | None]) -> list[set[str]]:
    """Cards each of ``viewers`` must not see now: others' down cards (not shown),
    the stub, the muck and others' discards, less the cards the viewer itself held
    (one set a viewer, in their order; what all viewers share is found once)."""
    shown = hand.result.shown_cards if hand.result is not None else {}
    state = draw_state(hand)
    stub = set(hand.deck[hand.deck_pos:]) | set(hand.muck) | set(state["discard_pile"])
    down = [set() if s in shown else
            {c for c, up in zip(hand.hole[s], hand.up[s], strict=True) if not up}
            for s in range(hand.n)]
    public = {c for s in shown for c in shown[s]}
    # cards rolled up were public, even if their owner folded later
    public |= {e.data["card"] for e in hand.events if e.kind == "roll"}
    out = []
    for viewer in viewers:
        known: set[int] = set()
        if viewer is not None:
            known.update(hand.hole[viewer])
            known.update(state["discards"].get(viewer, ()))
        hidden = stub.union(*(d for s, d in enumerate(down) if s != viewer))
        out.append({str(CARDS[c]) for c in hidden - public - known})
    return out


# A card as a word of its own, the same matches as r"\b[2-9TJQKA][cdhs]\b": the
# rank first (the lookbehind asks that no word character comes before it), so
# that re scans for it about 3 times faster in a view's JSON.
CARD_TOKEN = __import__("re").compile(r"[2-9TJQKA](?<!\w[2-9TJQKA])[cdhs]\b")


def _check_views(hand: Hand, viewers: Sequence[int | None]) -> None:
    declared = "declarations" in hand.extra
    for viewer, secrets in zip(viewers, _secrets(hand, viewers), strict=True):
        data = hand.view(viewer).to_dict()
        text = json.dumps(data)
        leaked = set(CARD_TOKEN.findall(text)) & secrets
        assert not leaked, f"seat {viewer} sees {leaked}"
        for e in data["events"]:
            if e["seat"] != viewer and e["kind"] == "chose":
                assert "action" not in e, f"seat {viewer} sees seat {e['seat']}'s choice"
            if e["seat"] != viewer and e["kind"] in ("draw", "draw_deal", "stacked"):
                assert "cards" not in e
            if not declared:  # nothing about a declaration before the reveal
                assert e["kind"] != "declare"
                assert e["seat"] == viewer or "side" not in e


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands())
def test_views_never_reveal_stacks_unrolled_cards_or_declarations(
    case: tuple[Hand, random.Random]
) -> None:
    hand, rng = case
    # after every action: the spectator, the seats now deciding (their own
    # hidden choices are in their views) and one other seat at random
    _check_views(hand, [None, *range(hand.n)])
    while not hand.is_over:
        _act(hand, rng)
        deciding = list(hand.pending.seats) if hand.pending is not None else []
        _check_views(hand, [None, *deciding[:2], rng.randrange(hand.n)])
    _check_views(hand, [None, *range(hand.n)])


def test_a_seats_own_view_shows_its_stack_order_and_declaration_before_reveal() -> None:
    hand = Hand("rollem521", [100] * 3, button=2, source=SeededSource(12))
    while hand.pending is not None and hand.pending.kind != "stack":
        seat = hand.pending.seats[0]
        legal = hand.legal_actions(seat)
        hand.apply(seat, Draw(()) if legal.kind == "draw" else Check())
    order = tuple(reversed(hand.hole[1]))
    hand.apply(1, Stack(order))
    mine = json.dumps(hand.view(1).to_dict()["events"])
    assert " ".join(str(CARDS[c]) for c in order) in mine
    for viewer in (0, 2, None):
        assert str(CARDS[order[0]]) not in json.dumps(hand.view(viewer).to_dict())
    assert hand.hole[1] != list(order) or order == tuple(hand.hole[1])
    hand.apply(0, Stack(tuple(hand.hole[0])))
    hand.apply(2, Stack(tuple(hand.hole[2])))
    assert hand.hole[1] == list(order)
    first = next(e for e in hand.events if e.kind == "roll" and e.seat == 1)
    assert first.data["card"] == order[0]


def test_hand_history_doc_shows_the_side_pot_example_as_tested() -> None:
    doc = (Path(__file__).parent.parent / "docs" / "hand-history.md").read_text()
    section = doc[doc.index("## 5-2-1 Roll 'Em"):]
    start = section.index("```toml\n") + 8
    block = section[start:section.index("\n```", start)]
    text = (HISTORIES / "rollem521_side_pot.toml").read_text()
    assert block == text[text.index("variant ="):].rstrip("\n")
    assert replay(block).result == replay(text).result
    from rollem.narration import narrate_history
    from rollem.text import fit_lines

    # rollem replay tells the hand step by step (issue 14)
    shown = section[section.index("$ rollem replay"):]
    shown = shown[shown.index("\n") + 1:shown.index("\n```")]
    assert shown == fit_lines(narrate_history(text).text())  # (wrapped: s62-term)


def test_simulate_rollem521(capsys: pytest.CaptureFixture[str]) -> None:
    from rollem.cli.app import main

    with pytest.raises(SystemExit) as info:
        main(["simulate", "rollem521", "--players", "9", "--hands", "60", "--seed", "4",
              "--json"])
    out, _ = capsys.readouterr()
    assert info.value.code in (0, None)
    data = json.loads(out)
    assert data["game"] == "rollem521" and data["hands"] == 60
    assert data["chips_start"] == data["chips_end"]
    assert len(data["seats"]) == 9
