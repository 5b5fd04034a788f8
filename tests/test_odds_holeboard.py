"""The vectorised Omaha worlds (rollem.odds.holeboard, issue 33) against the scalar
plain model of rollem.odds.filegame: the same values, winners and shares on
thousands of seeded random Omaha hi and hi-lo hands, and odds that agree with a
full enumeration."""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
import pytest

from rollem.cards import parse_cards
from rollem.engine import Hand, Options, SeededSource
from rollem.games import get
from rollem.hands import high_value, low_value
from rollem.hands.batch import hole_board_values
from rollem.odds import view_equity
from rollem.odds.filegame import _scorer, _share, file_game_odds
from rollem.odds.holeboard import NO_LOW, vectorised, world_shares, world_values
from rollem.odds.view import SeatInfo, ViewInfo

LOW_RANKS = [c for c in range(52) if c >> 2 in (12, *range(8))]
"""Aces and deuces to nines: deals from these make many qualifying lows and ties."""


def _deals(seed: int, worlds: int, players: int) -> tuple[np.ndarray, np.ndarray]:
    """``worlds`` random Omaha deals: hole cards (S, players, 4), boards (S, 5); every
    third from the low ranks only (lows, low ties and split pots are common there)."""
    rng = random.Random(seed)
    holes = np.zeros((worlds, players, 4), dtype=np.int64)
    boards = np.zeros((worlds, 5), dtype=np.int64)
    for w in range(worlds):
        deck = LOW_RANKS if w % 3 == 0 else range(52)
        cards = rng.sample(list(deck), 4 * players + 5)
        holes[w] = np.asarray(cards[:4 * players]).reshape(players, 4)
        boards[w] = cards[4 * players:]
    return holes, boards


def test_two_and_three_values_equal_the_scalar_evaluators() -> None:
    holes, boards = _deals(1, 2000, 1)
    own = holes[:, 0, :]
    high = hole_board_values(own, boards)
    low = hole_board_values(own, boards, low=True)
    for w in range(len(own)):
        fives = [(*h, *b) for h in combinations(own[w], 2) for b in combinations(boards[w], 3)]
        assert high[w] == max(high_value(f) for f in fives)
        assert low[w] == max(low_value(f) for f in fives)


@pytest.mark.parametrize("gid", ["omaha", "omaha8"])
def test_values_and_shares_equal_the_scalar_model_on_random_hands(gid: str) -> None:
    spec = get(gid).spec
    assert spec is not None and vectorised(spec)
    score = _scorer(spec, [], Options())
    pot = spec.steps[-1].params["pot"]
    checked = split = 0
    for players, seed in ((2, 2), (4, 3), (6, 4)):
        holes, boards = _deals(seed, 500, players)
        highs, lows = world_values(spec, [holes[:, i, :] for i in range(players)], boards)
        shares = world_shares(pot, highs, lows)
        for w in range(len(boards)):
            scored = [score(list(holes[w, i]), list(boards[w])) for i in range(players)]
            assert [h for h, _ in scored] == list(highs[w])
            if lows is None:
                assert all(lo is None for _, lo in scored)
                want = _share(0, [h for h, _ in scored])
            else:
                assert [NO_LOW if lo is None else lo for _, lo in scored] == list(lows[w])
                los = [lo for _, lo in scored]
                if any(lo is not None for lo in los):
                    split += 1
                    want = 0.5 * _share(0, [h for h, _ in scored]) + 0.5 * _share(0, los)
                else:
                    want = _share(0, [h for h, _ in scored])
            assert shares[w] == want
            checked += 1
    assert checked == 1500
    if gid == "omaha8":
        assert split > 400  # the low half is exercised, not only the high


def test_low_only_pot_and_no_qualifying_low() -> None:
    # A low-only pot: nobody qualifies -> no share; the viewer's wheel takes it alone.
    spec = get("omaha8").spec
    assert spec is not None
    board = np.asarray([parse_cards("Kc Qd Jh 9s 9c")], dtype=np.int64)
    me = np.asarray([parse_cards("As 2d Kd Qh")], dtype=np.int64)
    other = np.asarray([parse_cards("3c 4d Ts Th")], dtype=np.int64)
    highs, lows = world_values(spec, [me, other], board)
    assert lows is not None and list(lows[0]) == [NO_LOW, NO_LOW]
    assert world_shares("low", highs, lows)[0] == 0.0
    assert world_shares("high-low", highs, lows)[0] == 1.0  # KK QQ beats tens: the whole pot
    board = np.asarray([parse_cards("3s 4h 5c Kc Qd")], dtype=np.int64)
    other = np.asarray([parse_cards("6d 8s Ts Th")], dtype=np.int64)
    highs, lows = world_values(spec, [me, other], board)
    assert lows is not None
    assert lows[0, 0] == low_value(parse_cards("As 2d 3s 4h 5c"))  # the wheel
    assert lows[0, 1] == low_value(parse_cards("8s 6d 5c 4h 3s")) > NO_LOW  # an eight low
    assert world_shares("low", highs, lows)[0] == 1.0


def _view(mine: str, board: str, hidden: list[int]) -> ViewInfo:
    return ViewInfo(
        game="omaha8", seat=0, mine=[int(c) for c in parse_cards(mine)], my_up=[],
        board=[int(c) for c in parse_cards(board)], dead=[], my_pool=[], wild_ranks=[],
        pool=0, stub=0, opponents=[SeatInfo(i + 1, [], h, None) for i, h in enumerate(hidden)],
        options={}, events=[], round="", pending=None, seen_out=[], my_discards=[],
        reshuffled=False, declared={}, folded_dealt=0, to_act=[])


def test_omaha8_river_odds_agree_with_full_enumeration() -> None:
    # The river, one unknown hand of four: every C(43, 4) = 123,410 of them counted.
    mine, board = "As 2d Kh Kc", "3c 7d Kd 9s 4h"
    spec = get("omaha8").spec
    assert spec is not None
    seen = [int(c) for c in parse_cards(mine + " " + board)]
    rest = [c for c in range(52) if c not in seen]
    others = np.asarray(list(combinations(rest, 4)), dtype=np.int64)
    n = len(others)
    me = np.broadcast_to(np.asarray(parse_cards(mine), dtype=np.int64), (n, 4))
    b = np.broadcast_to(np.asarray(parse_cards(board), dtype=np.int64), (n, 5))
    highs, lows = world_values(spec, [me, others], b)
    exact = float(world_shares("high-low", highs, lows).mean())
    odds = file_game_odds(_view(mine, board, [4]), get("omaha8"), samples=20_000, seed=7)
    assert odds.method == "monte-carlo" and odds.samples == 20_000
    assert abs(odds.equity - exact) < 4 * odds.stderr
    assert 0.7 < exact < 0.95  # top set and the nut low: well ahead, not safe


def test_view_equity_in_omaha_repeats_by_seed_and_sums_to_one() -> None:
    hand = Hand("omaha", [100] * 6, button=0, source=SeededSource(11))
    assert hand.pending is not None
    view = hand.view(hand.pending.seats[0])
    a = view_equity(view, samples=3000, seed=5)
    b = view_equity(view, samples=3000, seed=5)
    assert a == b and a.samples == 3000 and a.method == "monte-carlo"
    assert abs(a.win + a.tie + a.lose - 1) < 1e-9 and 0.0 < a.equity < 1.0


def test_bad_shapes_are_refused_with_what_is_allowed() -> None:
    own = np.zeros((2, 4), dtype=np.int64) + np.arange(4)
    board = np.zeros((2, 5), dtype=np.int64) + np.arange(4, 9)
    with pytest.raises(ValueError, match="must make five cards"):
        hole_board_values(own, board, hole=2, from_board=2)
    with pytest.raises(ValueError, match=r"expected own \(N, n\)"):
        hole_board_values(own[0], board)
    with pytest.raises(ValueError, match=r"0\.\.51"):
        hole_board_values(own + 50, board)
