"""rollem.rl's core (issue 30): card-by-card chance, the fixed action space,
tensors. Needs no extra (no OpenSpiel, no PettingZoo)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from rollem.cards import CARDS
from rollem.engine import Bet, Call, Check, Declare, Discard, Draw, Fold, Raise
from rollem.rl.actions import (
    DECLARE,
    NUM_ACTIONS,
    STACK,
    SUBSET,
    action_name,
)
from rollem.rl.state import CHANCE, TERMINAL, MoveState, load_setup
from rollem.rl.tensors import (
    information_state_size,
    information_state_string,
    observation_size,
    observation_string,
    write_information_state,
    write_observation,
)

GAMES = ["sdr", "rollyourown", "rollem521", "holdem", "omaha8", "stud8", "draw5"]


def play(state: MoveState, rng: random.Random) -> MoveState:
    """Random moves to the end."""
    while state.player != TERMINAL:
        if state.player == CHANCE:
            state.apply(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply(rng.choice(list(state.legal())))
    return state


def test_first_deal_is_52_chance_nodes_dealt_from_the_dealers_left() -> None:
    s = MoveState(load_setup("sdr"))
    assert s.player == CHANCE
    outcomes = s.chance_outcomes()
    assert [c for c, _ in outcomes] == list(range(52))
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    s.apply(0)
    assert [c for c, _ in s.chance_outcomes()] == list(range(1, 52))
    for c in (1, 2, 3):
        s.apply(c)
    # button 0: seat 1 is dealt first (R-C-13)
    assert s.hand.hole == [[CARDS[1], CARDS[3]], [CARDS[0], CARDS[2]]]
    assert s.player == 1
    assert s.legal() == {0: Fold(), 1: Check(), 2: Bet(2)}
    with pytest.raises(ValueError, match="not legal for seat 1"):
        s.apply(5)
    assert s.history == [0, 1, 2, 3]


def test_no_limit_bet_sizes_are_min_half_pot_pot_all_in() -> None:
    s = MoveState(load_setup("sdr", structure="no-limit"))
    for c in range(4):
        s.apply(c)
    # pot 2 (antes): half pot and pot are below the minimum bet 2: only min and all in
    assert s.legal() == {0: Fold(), 1: Check(), 2: Bet(2), 5: Bet(199)}
    s.apply(2)
    # seat 0 faces 2: pot after calling = 4 + 2 = 6; half pot to 2 + 3, pot to 2 + 6
    assert s.legal() == {0: Fold(), 1: Call(), 2: Raise(4), 3: Raise(5), 4: Raise(8),
                         5: Raise(199)}
    assert action_name(4, Raise(8)) == "raise pot (to 8)"


def test_pool_shuffle_is_one_chance_node_per_position_but_the_last() -> None:
    s = MoveState(load_setup("rollyourown"))
    for c in range(12):
        s.apply(c)
    legal = s.legal()
    assert len(legal) == 20  # 3 of 6 cards (R-RYO-2)
    assert all(SUBSET <= a < STACK and bin(a - SUBSET).count("1") == 3 for a in legal)
    s.apply(SUBSET + 0b000111)  # seat 1: its 2c 2h 3c
    assert s.player == 0  # all at once, asked seat by seat
    assert legal[SUBSET + 0b000111] == Discard((CARDS[0], CARDS[2], CARDS[4]))
    s.apply(SUBSET + 0b111000)  # seat 0: its 3d 3s 4s
    assert s.player == CHANCE and s.need is not None and s.need.label == "pool"
    assert s.chance_outcomes() == [(c, pytest.approx(1 / 6)) for c in (0, 2, 4, 7, 9, 11)]
    for c in (11, 0, 7, 4, 2):
        s.apply(c)
    assert s.player >= 0  # the sixth position follows: no chance node for it
    assert s.hand.pool == [CARDS[c] for c in (11, 0, 7, 4, 2, 9)]


def test_stack_and_declare_ids_in_521() -> None:
    rng = random.Random(3)
    s = MoveState(load_setup("rollem521"))
    kinds = set()
    while s.player != TERMINAL:
        if s.player == CHANCE:
            s.apply(rng.choice(s.chance_outcomes())[0])
            continue
        legal = s.legal()
        kind = s.hand.pending.kind if s.hand.pending else ""
        kinds.add(kind)
        if kind == "stack":
            assert list(legal) == list(range(STACK, STACK + 120))
        if kind == "declare":
            assert legal == {DECLARE: Declare("high"), DECLARE + 1: Declare("low"),
                             DECLARE + 2: Declare("both")}
        if kind == "draw":
            # 0 to 2 of 5 cards: 1 + 5 + 10
            assert len(legal) in (16, 6) and legal[SUBSET] == Draw(())
        # keep everyone in, so the hand reaches the stack and the declare
        s.apply(1 if 1 in legal else min(legal))
    assert {"stack", "declare", "draw"} <= kinds


@pytest.mark.parametrize("game", GAMES)
def test_random_hands_are_zero_sum_and_replay_the_same(game: str) -> None:
    setup = load_setup(game, players=3 if game != "holdem" else 2)
    rng = random.Random(game)
    for _ in range(3):
        s = play(MoveState(setup), rng)
        assert sum(s.returns()) == 0
        again = MoveState(setup)
        for move in s.history:
            again.apply(move)
        assert again.player == TERMINAL and again.returns() == s.returns()
        assert all(0 <= a < NUM_ACTIONS for a in s.history)


def test_views_hide_the_other_seats_cards() -> None:
    s = MoveState(load_setup("sdr"))
    for c in range(4):
        s.apply(c)
    hidden = {str(CARDS[1]), str(CARDS[3])}  # seat 0's hole cards
    text = information_state_string(s.hand, 1) + observation_string(s.hand, 1)
    assert not any(card in text for card in hidden)
    assert "2c" in observation_string(s.hand, 1)
    obs = np.zeros(observation_size(2), np.float32)
    write_observation(s.hand, 1, obs)
    own = obs[2:54]
    assert own.nonzero()[0].tolist() == [0, 2]  # seat 1's 2c 2h, never seat 0's
    assert obs[54:54 + 3 * 52].sum() == 0  # nothing face up, no board, no dead card


def test_information_state_tensor_records_the_betting() -> None:
    s = MoveState(load_setup("sdr"))
    for c in range(4):
        s.apply(c)
    s.apply(2)  # seat 1 bets 2
    s.apply(2)  # seat 0 raises to 4
    info = np.zeros(information_state_size(2), np.float32)
    write_information_state(s.hand, 0, info)
    base = observation_size(2)
    width = 2 + 4 + 1 + 8
    first = info[base:base + width]
    second = info[base + width:base + 2 * width]
    assert first.tolist() == [0, 1, 0, 0, 0, 1, 2, 1, 0, 0, 0, 0, 0, 0, 0]
    assert second.tolist() == [1, 0, 0, 0, 0, 1, 4, 1, 0, 0, 0, 0, 0, 0, 0]
    assert s.hand.actions == [(1, Bet(2)), (0, Raise(4))]
    assert info[base + 2 * width:].sum() == 0


@pytest.mark.parametrize("game", ["holdem", "rollyourown", "draw5"])
def test_copies_and_replays_agree_at_every_move(game: str) -> None:
    """A copy made at any point (chance node inside a batch, decision, end)
    and a state replayed from the history offer the same moves."""
    setup = load_setup(game, players=3 if game != "holdem" else 2)
    rng = random.Random(11)
    s = MoveState(setup)
    while True:
        fresh = MoveState(setup)
        for move in s.history:
            fresh.apply(move)
        for other in (s.copy(), fresh):
            assert other.player == s.player
            assert other.chance_outcomes() == s.chance_outcomes()
            assert other.legal() == s.legal()
        if s.player == TERMINAL:
            assert fresh.returns() == s.returns()
            break
        if s.player == CHANCE:
            s.apply(rng.choice(s.chance_outcomes())[0])
        else:
            s.apply(rng.choice(list(s.legal())))


def test_a_521_pot_both_declarers_fail_is_split_not_carried_out_of_the_episode() -> None:
    """Try-out of stop 48: heads-up 5-2-1 where both declare both and both fail
    (R-521-9). At a table the pot carries to the next hand; an episode is one
    hand, so it is split between them (failed_both_rule = "split") and the
    returns stay zero-sum, as OpenSpiel's ZERO_SUM type says (on main this hand
    returned [-3, -3]: the 6 chips left the episode)."""
    setup = load_setup("rollem521", players=2, stack=3, structure="no-limit")
    assert setup.options.house == {"failed_both_rule": "split"}
    s = play(MoveState(setup), random.Random(6))
    declares = [a for _, a in s.hand.actions if isinstance(a, Declare)]
    assert [d.side for d in declares] == ["both", "both"]
    result = s.hand.result
    assert result is not None and result.carried == 0
    assert sum(s.returns()) == 0
    # split as an ordinary high-low pot: seat 1 the high half, seat 0 the low
    assert s.returns() == [0.0, 0.0]
    assert result.pots[0].high == {1: 3} and result.pots[0].low == {0: 3}
    # a game without the option keeps its options as before
    assert load_setup("sdr").options.house == {}
