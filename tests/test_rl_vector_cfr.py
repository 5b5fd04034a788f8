"""Public-tree vector CFR+ (:mod:`rollem.rl.vector_cfr`, issue 30) against
OpenSpiel on the same games: the vector best response's NashConv of a policy
equals OpenSpiel's ``nash_conv`` on the EFG of the whole ``python_rollem``
tree (:mod:`rollem.rl.solve`), and the values agree. The games are small
Stop, Drop and Roll relatives (game files below) whose whole trees are walked
in seconds; the nine-card SDR is checked the same way by
``bench/bench_vector_cfr.py --check`` (minutes)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from rollem.rl.state import load_setup
from rollem.rl.vector_cfr import CFRPlus, VectorGame, load_policy, save_policy

# one hole card, a dead card between two rounds, four community cards; with
# 3-chip stacks a bet is all in (showdowns at every level), folds when checking
# is free kept
ONE = """\
format = 1
id = "stopone"
name = "Stop One"
players = [2, 2]
rules = "Ante; one card each; a round; a dead card; a round; four community cards; showdown."

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
step = "dead"
label = "stop"

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

# two hole cards (card removal between pairs), a raise and an all in for
# less than a full raise (6-chip stacks: 5 behind the ante, a bet of 4)
TWO = """\
format = 1
id = "rolltwo"
name = "Roll Two"
players = [2, 2]
rules = "Ante; two cards each; three community cards; a round with a raise; showdown."

[[steps]]
step = "ante"

[[steps]]
step = "deal"
cards = 2

[[steps]]
step = "board"
cards = 3
label = "roll"

[[steps]]
step = "bet"
size = "big"
cap = 1

[[steps]]
step = "showdown"
"""


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = Path(tmp_path_factory.mktemp("games"))
    out = {}
    for name, text in (("one", ONE), ("two", TWO)):
        (root / f"{name}.toml").write_text(text)
        out[name] = str(root / f"{name}.toml")
    return out


PARAMS = {"one": {"stack": 3, "deck": "89TJQKAs"}, "two": {"stack": 6, "deck": "89TJQKAs"}}


def params(files: dict[str, str], name: str) -> dict[str, Any]:
    """``python_rollem``'s parameters (VectorGame.from_params takes the same)."""
    return {"game": files[name], "players": 2, "burns": False, "chance": "hand",
            **PARAMS[name]}


def test_the_tree_comes_from_the_engine(files: dict[str, str]) -> None:
    game = VectorGame.from_params(params(files, "one"))
    assert game.steps == [("dead", 1), ("board", 4)]
    assert game.deals == [(1, 1), (0, 1)]  # dealt from the button's left
    assert game.holes_count == 7 and game.sizes()["public"] == [1, 7, 7 * 15]
    root = game.root
    assert (root.player, root.actions) == (1, [0, 1, 2])  # fold (free), check, bet
    fold, check, bet = root.children
    assert fold.kind == "fold" and fold.net == (1.0, -1.0)  # the ante
    # a bet of 2 with 3-chip stacks is all in: called, the rest is dealt out
    assert bet.actions == [0, 1]
    called = bet.children[1]
    assert (called.kind, called.level, called.stake) == ("showdown", 0, 3.0)
    assert check.children[1].kind == "chance"  # check, check: the stop
    no_free = VectorGame.from_params(params(files, "one"), free_fold=False)
    assert no_free.root.actions == [1, 2] and no_free.root.children[1].actions == [0, 1]


def vector_and_efg(files: dict[str, str], name: str, iterations: int) -> dict[str, float]:
    pyspiel = pytest.importorskip("pyspiel")
    import rollem.rl.openspiel  # noqa: F401  (registers python_rollem)
    from rollem.rl.solve import export
    from rollem.rl.vector_cfr import OpenSpielPolicy

    p = params(files, name)
    game = VectorGame.from_params(p)
    cfr = CFRPlus(game)
    for _ in range(iterations):
        cfr.iteration()
    average, uniform = cfr.average(), game.uniform()
    os_game = pyspiel.load_game("python_rollem", p)
    tree = export(os_game, {"uniform": OpenSpielPolicy(game, uniform),
                            "average": OpenSpielPolicy(game, average)})
    efg = tree.game()
    state = efg.new_initial_state()
    return {
        "uniform": game.nash_conv(uniform),
        "uniform_efg": pyspiel.nash_conv(efg, tree.policy("uniform", efg)),
        "average": game.nash_conv(average),
        "average_efg": pyspiel.nash_conv(efg, tree.policy("average", efg)),
        "value": game.value(average),
        "value_efg": pyspiel.expected_returns(state, tree.policy("average", efg), -1, True)[0],
        "uniform_value": game.value(uniform),
        "uniform_value_efg": pyspiel.expected_returns(state, tree.policy("uniform", efg), -1,
                                                      True)[0],
        "states": sum(tree.counts.values()),
    }


@pytest.mark.parametrize("name", ["one", "two"])
def test_nash_conv_equals_openspiel_on_the_whole_tree(files: dict[str, str], name: str) -> None:
    got = vector_and_efg(files, name, iterations=20)
    assert got["uniform"] == pytest.approx(got["uniform_efg"], abs=1e-9)
    assert got["average"] == pytest.approx(got["average_efg"], abs=1e-9)
    assert got["value"] == pytest.approx(got["value_efg"], abs=1e-9)
    assert got["uniform_value"] == pytest.approx(got["uniform_value_efg"], abs=1e-9)
    assert got["uniform"] > 1.0 and got["average"] < got["uniform"] / 10


def test_cfr_plus_matches_openspiel_cfr_plus(files: dict[str, str]) -> None:
    """Both solvers' equilibria: the values within the sum of their NashConvs."""
    pyspiel = pytest.importorskip("pyspiel")
    import rollem.rl.openspiel  # noqa: F401
    from rollem.rl.solve import export, solve

    p = params(files, "one")
    game = VectorGame.from_params(p)
    cfr = CFRPlus(game)
    curve = cfr.run(200, every=100)
    assert curve[-1][0] == 200 and curve[-1][1] < curve[0][1] < 0.01
    efg = export(pyspiel.load_game("python_rollem", p)).game()
    os_curve, os_average = solve(efg, iterations=200)
    os_value = pyspiel.expected_returns(efg.new_initial_state(), os_average, -1, True)[0]
    mine = game.value(cfr.average())
    assert abs(mine - os_value) <= curve[-1][1] + os_curve[-1][1]
    assert abs(mine) > 0.01  # seat 0 acts last: the value is not 0


def test_dropping_the_free_fold_keeps_nash_conv(files: dict[str, str]) -> None:
    """A policy that never folds when checking is free is exploitable by the
    same amount with and without that fold in the tree (build_tree's doc)."""
    p = params(files, "two")
    full = VectorGame.from_params(p)
    lean = VectorGame.from_params(p, free_fold=False)
    cfr = CFRPlus(lean)
    for _ in range(10):
        cfr.iteration()
    policy = cfr.average()
    widened = {}
    for i, node in full.decisions.items():
        mine = lean.decisions.get(i)
        assert mine is not None and mine.history == node.history
        probs = np.zeros(full.shape(node))
        for j, a in enumerate(mine.actions):
            probs[..., node.actions.index(a)] = policy[i][..., j]
        widened[i] = probs
    assert full.nash_conv(widened) == pytest.approx(lean.nash_conv(policy), abs=1e-12)
    assert full.value(widened) == pytest.approx(lean.value(policy), abs=1e-12)


def test_save_and_load(files: dict[str, str], tmp_path: Path) -> None:
    p = params(files, "one")
    game = VectorGame.from_params(p)
    cfr = CFRPlus(game)
    cfr.run(5)
    path = tmp_path / "policy.npz"
    save_policy(path, game, cfr.average(), {"iterations": 5})
    again, policy, meta = load_policy(path)
    assert meta["iterations"] == 5 and meta["steps"] == [["dead", 1], ["board", 4]]
    assert again.nash_conv(policy) == pytest.approx(game.nash_conv(cfr.average()), abs=1e-6)


def test_games_it_cannot_take_are_refused() -> None:
    with pytest.raises(ValueError, match="needs two seats, got 3"):
        VectorGame(load_setup("sdr", players=3, burns=False, chance="hand", ranks="9TJQKA"))
    with pytest.raises(ValueError, match="not 'burn' \\(load the game with burns=False\\)"):
        VectorGame(load_setup("sdr", ranks="789TJQKA", suits="hs", chance="hand"))


def test_all_in_equity_is_the_mean_over_the_cards_to_come() -> None:
    """An all in before the Stop is worth the mean showdown sign over every
    Stop, Drop and Roll that misses both hands (brute force with high_value):
    three public steps, so the expectation is built over two levels."""
    from itertools import combinations, permutations

    from rollem.hands import high_value

    game = VectorGame.from_params({"game": "sdr", "players": 2, "deck": "23456789Ts",
                                   "stack": 3, "raise_cap": 0, "burns": False,
                                   "chance": "hand"})
    assert sorted(game.equity) == [0, 1, 2]
    cards = game.cards
    for i, j in [(0, 35), (3, 20), (10, 11)]:
        h, o = game.holes[i], game.holes[j]
        if set(h) & set(o):
            assert game.equity[0][0, i, j] == 0.0
            continue
        left = [c for c in range(len(cards)) if c not in h + o]
        signs = []
        for stop, drop in permutations(left, 2):
            for roll in combinations([c for c in left if c not in (stop, drop)], 3):
                mine = high_value([cards[c] for c in h + roll])
                theirs = high_value([cards[c] for c in o + roll])
                signs.append((mine > theirs) - (mine < theirs))
        assert game.equity[0][0, i, j] == pytest.approx(sum(signs) / len(signs), abs=1e-12)
    assert np.abs(game.equity[0]).max() <= 1.0
