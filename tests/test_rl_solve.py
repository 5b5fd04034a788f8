"""Reduced games and exact solving with OpenSpiel's CFR+ (issue 30):
``deck``, ``raise_cap``, ``burns`` and ``chance="hand"`` of ``python_rollem``,
and :mod:`rollem.rl.solve` (the tree walked once into an EFG game). Skipped
without ``rollem[rl]``. The solve runs on a tiny game file (one hole card, one
betting round, four community cards: 427 states), so it takes seconds."""

from __future__ import annotations

import pickle
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyspiel")

import pyspiel
from open_spiel.python.algorithms import exploitability

import rollem.rl.openspiel  # noqa: F401  (registers python_rollem)
from rollem.engine import Check
from rollem.rl.policy import BotPolicy
from rollem.rl.solve import Export, count_states, export, solve
from rollem.rl.state import cards_from_id, cards_id

MINI = """\
format = 1
id = "mini"
name = "Mini Roll"
players = [2, 2]
rules = "Ante; one card each; a betting round (a bet, no raise); four community cards; showdown."

[[steps]]
step = "ante"

[[steps]]
step = "deal"
cards = 1

[[steps]]
step = "bet"
size = "small"
cap = 0

[[steps]]
step = "board"
cards = 4
label = "roll"

[[steps]]
step = "showdown"
"""


@pytest.fixture(scope="module")
def mini(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = Path(tmp_path_factory.mktemp("games")) / "mini.toml"
    path.write_text(MINI)
    return pyspiel.load_game("python_rollem", {"game": str(path), "deck": "234567s",
                                               "chance": "hand"})


class CheckFold:
    """Check when free, fold to a bet (an OpenSpiel policy of python_rollem)."""

    def action_probabilities(self, state: Any) -> dict[int, float]:
        check = isinstance(state.moves.legal().get(1), Check)
        return {1: 1.0} if check else {0: 1.0}


@pytest.fixture(scope="module")
def tree(mini: Any) -> Export:
    return export(mini, {"checkfold": CheckFold(), "basic": BotPolicy(mini, "basic")})


def test_cards_id_is_the_colex_rank() -> None:
    assert cards_id([7]) == 7  # one card: its number, as with chance="card"
    assert cards_id([0, 1, 2]) == 0
    assert cards_id([3, 1, 2]) == comb(1, 1) + comb(2, 2) + comb(3, 3) == 3
    ids = [cards_id(cs) for cs in combinations(range(52), 3)]
    assert sorted(ids) == list(range(comb(52, 3)))
    assert all(cards_from_id(cards_id(cs), 3) == cs for cs in combinations(range(20), 3))


def sdr(**params: Any) -> Any:
    return pyspiel.load_game("python_rollem", {"game": "sdr", **params})


def test_a_reduced_sdr_deals_each_hand_as_one_outcome() -> None:
    game = sdr(deck="TJQKAhs", chance="hand", burns=False, raise_cap=0)
    assert game.max_chance_outcomes() == comb(52, 3)  # the Roll: three cards at once
    state = game.new_initial_state()
    first = state.chance_outcomes()
    assert len(first) == comb(10, 2) and sum(p for _, p in first) == pytest.approx(1.0)
    deck = {r * 4 + s for r in range(8, 13) for s in (2, 3)}  # T..A of hearts, spades
    assert all(set(cards_from_id(a, 2)) <= deck for a, _ in first)
    assert state.action_to_string(-1, cards_id([34, 35])) == "cards Th Ts"
    state.apply_action(cards_id([34, 35]))
    assert len(state.chance_outcomes()) == comb(8, 2)  # the other seat's two cards
    state.apply_action(cards_id([50, 51]))
    assert state.current_player() == 1 and state.legal_actions() == [0, 1, 2]
    state.apply_action(2)  # a bet: with raise_cap 0 it cannot be raised
    assert state.legal_actions() == [0, 1]
    state.apply_action(1)
    stop = state.chance_outcomes()  # no burn: the Stop at once, one of the 6 cards left
    assert [a for a, _ in stop] == sorted(deck - {34, 35, 50, 51})
    # with burns, ten cards run out before the showdown (4 hole, 2 burns, Stop,
    # Drop, 3 on the Roll): refused at load; twelve deal it
    with pytest.raises(ValueError, match="a deck of 10 cards is too few"):
        sdr(deck="TJQKAhs", chance="hand", raise_cap=0)
    burned = sdr(deck="9TJQKAhs", chance="hand", raise_cap=0).new_initial_state()
    for move in (cards_id([34, 35]), cards_id([50, 51]), 1, 1):
        burned.apply_action(move)
    assert burned.moves.need.label == "burn" and len(burned.chance_outcomes()) == 8


def test_a_reduced_game_keeps_openspiel_consistent() -> None:
    # (was six cards: the stub ran out on any line to the Roll, and the random
    # simulations passed only because each folded before it; now refused at load)
    game = sdr(deck="56789TJQKAs", chance="hand", burns=False, raise_cap=1)
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[4][0])  # half of the deal's batch
    copy = pickle.loads(pickle.dumps(state))
    assert copy.history() == state.history()
    assert copy.chance_outcomes() == state.chance_outcomes()
    assert game.deserialize_state(state.serialize()).chance_outcomes() == state.chance_outcomes()


def test_bad_reduction_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="deck must give ranks then suits"):
        sdr(deck="TJQKA")
    with pytest.raises(ValueError, match="ranks must be distinct letters of '23456789TJQKA'"):
        sdr(deck="TTs")
    with pytest.raises(ValueError, match="chance must be one of card, hand, got 'deal'"):
        sdr(chance="deal")
    with pytest.raises(ValueError, match=r"chance='hand' would give a chance node 20,358,520 "
                                         r"outcomes \(6 cards from 52\); at most 300,000"):
        pyspiel.load_game("python_rollem", {"game": "rollyourown", "chance": "hand"})


def test_state_counts(mini: Any, tree: Export) -> None:
    # 6 x 5 deals; per deal 4 decisions, 4 folds (a fold is allowed when a check is
    # free, R-C-6), 3 lines to the Roll (one outcome: the 4 cards left)
    counts = {"chance": 1 + 6 + 30 * 3, "decision": 30 * 4, "terminal": 30 * (4 + 3 * 1)}
    assert count_states(mini) == count_states(mini, same_shape=False) == counts
    assert tree.counts == counts
    assert tree.infosets == [12, 12]  # per seat: 6 cards x 2 decisions
    assert count_states(sdr(deck="23456789Ts", chance="hand", burns=False, raise_cap=0,
                            stack=3)) == {"chance": 127045, "decision": 139104,
                                          "terminal": 275184}


def test_cfr_plus_brings_nash_conv_down(tree: Export) -> None:
    curve, average = solve(tree.game(), iterations=120, every=30)
    values = [nc for _, nc in curve]
    assert [it for it, _ in curve] == [30, 60, 90, 120]
    assert values == sorted(values, reverse=True) and values[-1] < 0.01  # chips; ante 1
    policy = tree.decode(average, tree.game())
    assert len(policy) == 24 and all(sum(p.values()) == pytest.approx(1.0)
                                     for p in policy.values())


def test_exploitability_of_a_policy(mini: Any, tree: Export) -> None:
    game = tree.game()
    # check/fold both seats: every hand checks down, worth 0 to each (the deal is
    # the same for both); a best response bets and the other folds: +1 chip, the ante
    assert pyspiel.nash_conv(game, tree.policy("checkfold", game)) == pytest.approx(2.0)
    # the export's tree gives what OpenSpiel's own best responses give on python_rollem
    basic = pyspiel.nash_conv(game, tree.policy("basic", game))
    assert basic == pytest.approx(exploitability.nash_conv(mini, BotPolicy(mini, "basic")))
    assert basic > 0.1


def test_export_refuses_a_tree_too_big_to_walk() -> None:
    """Was: ``export`` of a real game walked until the memory ran out."""
    small = sdr(deck="23456789Ts", chance="hand", burns=False, raise_cap=0, stack=3)
    with pytest.raises(ValueError, match=r"about 541,333 states .* above max_states 500,000"):
        export(small, max_states=500_000)
    game = pyspiel.load_game("python_rollem", {"game": "sdr", "raise_cap": 0, "stack": 3})
    with pytest.raises(ValueError, match=r"^the tree has about 41,400,758,642,530,531,505 "
                                         r"states \(count_states\), above max_states "
                                         r"10,000,000: reduce the game \(deck, raise_cap, "):
        export(game)
