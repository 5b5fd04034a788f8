"""Play the same hand in rollem (a shipped game file) and in PokerKit: same
cards, same random legal actions; compare every legal action set and the
final stacks (used by tests/test_gamefile_pokerkit.py and bench/)."""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pokerkit as pk

from rollem import games
from rollem.cards import CARDS
from rollem.engine import Bet, Call, Check, Fold, Hand, Options, Raise, SeededSource

warnings.filterwarnings("ignore", message="A card being dealt", category=UserWarning)

AUTOMATIONS = (
    pk.Automation.ANTE_POSTING,
    pk.Automation.BET_COLLECTION,
    pk.Automation.BLIND_OR_STRADDLE_POSTING,
    pk.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    pk.Automation.HAND_KILLING,
    pk.Automation.CHIPS_PUSHING,
    pk.Automation.CHIPS_PULLING,
)


@dataclass(frozen=True)
class Variant:
    """A PokerKit game and the rollem game file + options that should equal it."""

    name: str
    game: str
    options: Options
    make: Callable[[list[int]], Any]


def _flop(cls: Any, sb: int, bb: int, min_bet: int | None = None, fl: bool = False) -> Callable:
    def make(stacks: list[int]) -> Any:
        if fl:
            return cls.create_state(AUTOMATIONS, True, 0, (sb, bb), bb, 2 * bb, stacks,
                                    len(stacks))
        return cls.create_state(AUTOMATIONS, True, 0, (sb, bb), min_bet or bb, stacks,
                                len(stacks))
    return make


def _stud(cls: Any) -> Callable:
    def make(stacks: list[int]) -> Any:
        return cls.create_state(AUTOMATIONS, True, 1, 1, 2, 4, stacks, len(stacks))
    return make


FL4 = (4, 3, 3, 3)  # PokerKit fixed limit: four bets/raises after the blind pre-flop
VARIANTS = {
    "holdem-fl": Variant("holdem-fl", "holdem", Options(ante=0, small_bet=2, big_bet=4,
                                                        caps=FL4),
                         _flop(pk.FixedLimitTexasHoldem, 1, 2, fl=True)),
    "holdem-nl": Variant("holdem-nl", "holdem", Options(structure="no-limit", ante=0,
                                                        small_bet=2, big_bet=2),
                         _flop(pk.NoLimitTexasHoldem, 1, 2)),
    "omaha-pl": Variant("omaha-pl", "omaha", Options(structure="pot-limit", ante=0,
                                                     small_bet=2, big_bet=2),
                        _flop(pk.PotLimitOmahaHoldem, 1, 2)),
    # PokerKit 0.7's FixedLimitOmahaHoldemHighLowSplitEightOrBetter is pot limit
    # (PotLimitPokerMixin) despite its name: compared as such
    "omaha8-pl": Variant("omaha8-pl", "omaha8", Options(structure="pot-limit", ante=0,
                                                        small_bet=2, big_bet=4),
                         _flop(pk.FixedLimitOmahaHoldemHighLowSplitEightOrBetter, 1, 2,
                               fl=True)),
    "stud": Variant("stud", "stud", Options(ante=1, small_bet=2, big_bet=4),
                    _stud(pk.FixedLimitSevenCardStud)),
    "stud8": Variant("stud8", "stud8", Options(ante=1, small_bet=2, big_bet=4),
                     _stud(pk.FixedLimitSevenCardStudHighLowSplitEightOrBetter)),
    "razz": Variant("razz", "razz", Options(ante=1, small_bet=2, big_bet=4),
                    _stud(pk.FixedLimitRazz)),
}


def _legal_ours(hand: Hand, seat: int) -> dict[str, Any]:
    lg = hand.legal_actions(seat)
    to_call = hand.current_bet - hand.bets[seat]
    out: dict[str, Any] = {}
    if "fold" in lg.actions and to_call > 0:  # rollem also lets a seat fold a free check
        out["fold"] = True
    if "check" in lg.actions or "call" in lg.actions:
        out["check_or_call"] = lg.call_amount if "call" in lg.actions else 0
    if "bet" in lg.actions or "raise" in lg.actions:
        out["bet_or_raise"] = (lg.min_to, lg.max_to)
    return out


def _legal_pk(state: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if state.can_fold():
        out["fold"] = True
    if state.can_check_or_call():
        out["check_or_call"] = state.checking_or_calling_amount
    if state.can_post_bring_in():  # rollem: "call" the bring-in
        out["check_or_call"] = state.effective_bring_in_amount
    if state.can_complete_bet_or_raise_to():
        out["bet_or_raise"] = (state.min_completion_betting_or_raising_to_amount,
                               state.max_completion_betting_or_raising_to_amount)
    return out


def _deal_pk(state: Any, hand: Hand, order: list[int]) -> None:
    """Deal PokerKit the cards rollem dealt (burns as they come)."""
    board_i = burn_i = 0
    while state.status and state.actor_index is None:
        if state.can_burn_card():
            state.burn_card(str(CARDS[hand.burned[burn_i]]) if burn_i < len(hand.burned)
                            else "??")
            burn_i += 1
        elif state.can_deal_hole():
            i = state.hole_dealee_index
            k = len(state.hole_cards[i])
            state.deal_hole(str(CARDS[hand.hole[order[i]][k]]))
        elif state.can_deal_board():
            n_board = sum(len(b) for b in state.board_cards)
            state.deal_board(str(CARDS[hand.board[n_board]]))
            board_i += 1
        else:  # pragma: no cover - nothing else is left to PokerKit here
            raise AssertionError("PokerKit waits for something that is not dealt")


def _all_in_raise_this_round(hand: Hand) -> bool:
    """True when a bet or raise in the current betting round was an all-in."""
    for ev in reversed(hand.events):
        if ev.kind in ("round", "round_skipped"):
            return False
        if ev.kind in ("bet", "raise") and ev.data.get("all_in"):
            return True
    return False


@dataclass
class Tally:
    """What a run compared: decisions, and the known fixed-limit divergences."""

    decisions: int = 0
    known: int = 0
    odd_chips: int = 0


def play_both(variant: Variant, seed: int, tally: Tally | None = None) -> int:
    """Play one random hand in both engines; return the number of decisions compared.

    Known divergence (fixed limit only, counted in ``tally.known``): after an
    all-in bet or raise in the round, rollem follows R-C-6 as decided (an
    all-in of at least half a bet more is a raise that reopens the betting and
    counts toward the cap; a smaller one does not count toward the cap) where
    PokerKit counts every all-in toward the cap and never reopens on a short
    one, and it completes a short all-in bet below half a bet to the full bet
    (R-C-6) where PokerKit raises by a full bet over it; then only whether or
    to what a raise is allowed may differ, and the hand goes on with an action
    both allow.

    Raises:
        AssertionError: the engines disagree (legal actions, actor or final stacks).
    """
    tally = tally if tally is not None else Tally()
    rng = random.Random(seed)
    g = games.get(variant.game)
    n = rng.randint(2, min(g.max_players, 6))
    stacks = [rng.choice([6, 25, 80, 200]) for _ in range(n)]
    button = n - 1
    hand = Hand(g, stacks, button=button, options=variant.options, source=SeededSource(seed))
    order = [(button + 1 + i) % n for i in range(n)]  # PokerKit player i -> rollem seat
    state = variant.make([stacks[s] for s in order])
    _deal_pk(state, hand, order)
    decisions = 0
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        assert state.actor_index is not None and order[state.actor_index] == seat, (
            f"seed {seed}: rollem asks seat {seat}, PokerKit player {state.actor_index}")
        ours, theirs = _legal_ours(hand, seat), _legal_pk(state)
        if (ours != theirs and variant.options.structure == "fixed-limit"
                and _all_in_raise_this_round(hand)
                and {k: v for k, v in ours.items() if k != "bet_or_raise"}
                == {k: v for k, v in theirs.items() if k != "bet_or_raise"}):
            tally.known += 1
            ours = {k: v for k, v in ours.items() if theirs.get(k) == v}
            theirs = {k: v for k, v in theirs.items() if k in ours}
        assert ours == theirs, f"seed {seed} decision {decisions}: {ours} != {theirs}"
        decisions += 1
        tally.decisions += 1
        name = rng.choice(sorted(ours))
        if name == "fold":
            hand.apply(seat, Fold())
            state.fold()
        elif name == "check_or_call":
            hand.apply(seat, Call() if ours[name] else Check())
            if state.can_post_bring_in():
                state.post_bring_in()
            else:
                state.check_or_call()
        else:
            lo, hi = ours[name]
            to = rng.choice([lo, hi, rng.randint(lo, hi)])
            hand.apply(seat, Bet(to) if hand.current_bet == 0 else Raise(to))
            state.complete_bet_or_raise_to(to)
        if not hand.is_over:
            _deal_pk(state, hand, order)
        else:
            while state.status:
                _deal_pk(state, hand, order)
    pk_stacks = [0] * n
    for i, s in enumerate(order):
        pk_stacks[s] = state.stacks[i]
    if hand.stacks != pk_stacks and hand.result is not None:
        # Known divergence (hi-lo): R-C-10 gives a split pot's odd chip to the
        # high half; PokerKit gives remainders by player order. Only pots split
        # high/low with an odd amount may move, one chip each.
        odd = sum(1 for p in hand.result.pots if p.low and p.high and p.amount % 2)
        diffs = [a - b for a, b in zip(hand.stacks, pk_stacks, strict=True)]
        if odd and sum(diffs) == 0 and sum(abs(x) for x in diffs) <= 2 * odd:
            tally.odd_chips += 1
            return decisions
    assert hand.stacks == pk_stacks, f"seed {seed}: final stacks {hand.stacks} != {pk_stacks}"
    return decisions
