"""python_rollem under OpenSpiel (issue 30): OpenSpiel's own random-simulation
checks (serialise/deserialise, clone, legal actions, chance outcomes summing
to 1, terminal returns) on the seven games. Skipped without ``rollem[rl]``;
the test command (scripts/test.sh) installs it. Thousands of hands per game:
bench/bench_rl.py --consistency."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import rollem.rl.openspiel  # noqa: E402, F401  (registers python_rollem)

GAMES = ["sdr", "rollyourown", "rollem521", "holdem", "omaha8", "stud8", "draw5"]


@pytest.mark.parametrize("game", GAMES)
def test_openspiel_random_simulation_checks(game: str) -> None:
    g = pyspiel.load_game("python_rollem", {"game": game, "players": 2})
    pyspiel.random_sim_test(g, num_sims=3, serialize=True, verbose=False)


def test_three_players_no_limit() -> None:
    g = pyspiel.load_game("python_rollem", {"game": "sdr", "players": 3,
                                            "structure": "no-limit"})
    pyspiel.random_sim_test(g, num_sims=3, serialize=True, verbose=False)


def test_game_info_and_a_hand_by_hand() -> None:
    g = pyspiel.load_game("python_rollem", {"game": "sdr"})
    assert g.num_distinct_actions() == 437
    assert g.max_chance_outcomes() == 52
    assert (g.min_utility(), g.max_utility(), g.utility_sum()) == (-200.0, 200.0, 0.0)
    s = g.new_initial_state()
    assert s.is_chance_node()
    assert sum(p for _, p in s.chance_outcomes()) == pytest.approx(1.0)
    for card in (0, 1, 2, 3):
        s.apply_action(card)
    assert s.current_player() == 1
    assert s.legal_actions() == [0, 1, 2]
    assert [s.action_to_string(a) for a in s.legal_actions()] == \
        ["fold", "check", "bet min (to 2)"]
    clone = s.clone()
    clone.apply_action(0)  # seat 1 folds: seat 0 wins the antes
    assert clone.is_terminal() and clone.returns() == [1.0, -1.0]
    assert s.history() == [0, 1, 2, 3] and not s.is_terminal()
    assert "2d" not in s.information_state_string(1)  # seat 0's card
    assert len(s.information_state_tensor(1)) == 1067
    assert len(s.observation_tensor(0)) == 347
    back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(g, clone))[1]
    assert back.history() == [0, 1, 2, 3, 0] and back.returns() == [1.0, -1.0]


def test_bad_parameters_say_what_is_allowed() -> None:
    with pytest.raises(Exception, match=r"unknown game|expected one of"):
        pyspiel.load_game("python_rollem", {"game": "canasta"})
    with pytest.raises(Exception, match="needs 2 to"):
        pyspiel.load_game("python_rollem", {"game": "holdem", "players": 11})
    # (stop 72: was loaded, a game rollem simulate and play refuse)
    with pytest.raises(ValueError, match=r"^big_bet 1 is smaller than small_bet 4: the big bet "
                                         r"is at least the small bet$"):
        pyspiel.load_game("python_rollem", {"small_bet": 4, "big_bet": 1})


@pytest.mark.parametrize("game", ["sdr", "rollyourown", "rollem521"])
def test_bot_policy_is_a_distribution_over_legal_ids(game: str) -> None:
    import random

    from rollem.rl.policy import BotPolicy

    g = pyspiel.load_game("python_rollem", {"game": game})
    policy = BotPolicy(g, "basic", seed=3)
    rng = random.Random(5)
    state = g.new_initial_state()
    asked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        probs = policy.action_probabilities(state)
        assert set(probs) <= set(state.legal_actions())
        assert sum(probs.values()) == pytest.approx(1.0)
        assert policy.action_probabilities(state.clone()) == probs  # one answer per state
        asked += 1
        state.apply_action(max(probs, key=lambda a: probs[a]))
    assert asked >= 2


def test_the_ai_research_guide_examples_run(tmp_path: Path) -> None:
    """Every ``python`` block of docs/ai-research.md runs (they need the extra,
    so the guide shows them as code, not as doctests), in a folder of its own
    (the vector CFR+ block saves its policy in the working folder)."""
    import contextlib
    import io

    page = Path(__file__).parent.parent / "docs" / "ai-research.md"
    blocks = [b.split("```")[0] for b in page.read_text(encoding="utf-8").split("```python\n")[1:]]
    assert len(blocks) == 7
    with contextlib.chdir(tmp_path):
        for block in blocks:
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(block, str(page), "exec"), {})
            assert "Traceback" not in out.getvalue()
    assert out.getvalue() == ""  # the last block (the vector CFR+ solve) prints nothing
    assert (tmp_path / "sdr9.npz").exists()


def test_a_game_from_a_file() -> None:
    from pathlib import Path

    import rollem

    path = Path(rollem.__file__).parent / "games" / "files" / "razz.toml"
    g = pyspiel.load_game("python_rollem", {"game": str(path), "players": 3})
    pyspiel.random_sim_test(g, num_sims=1, serialize=True, verbose=False)
    assert pyspiel.load_game(str(g)).get_parameters()["game"] == str(path)


@pytest.mark.parametrize(("game", "deck", "burns", "message"), [
    ("sdr", "23456789Ts", True, "a deck of 9 cards is too few for Stop, Drop and Roll with 2 "
                                "players: the stub runs out before the showdown"),
    ("holdem", "TJQKAs", False, "a deck of 5 cards is too few for Texas Hold'em with 2 players"),
    ("draw5", "9TJQKAs", False, "a deck of 6 cards is too few for Five-Card Draw with 2 players"),
])
def test_a_deck_too_small_to_deal_a_hand_is_refused_at_load(
        game: str, deck: str, burns: bool, message: str) -> None:
    """Was accepted, then ``EngineError: the stub is empty`` from
    ``new_initial_state`` or deep in a tree walk (only on the lines that
    reach the showdown: a random simulation that folds early passed)."""
    with pytest.raises(ValueError, match=f"^{message}"):
        pyspiel.load_game("python_rollem", {"game": game, "deck": deck, "burns": burns})
    # the smallest SDR deck the guide names deals without burns; draw5 with ten cards
    pyspiel.load_game("python_rollem", {"game": "sdr", "deck": "23456789Ts", "burns": False})
    pyspiel.load_game("python_rollem", {"game": "draw5", "deck": "789TJQKAhs"})


def test_an_observer_other_than_one_seats_view_is_refused() -> None:
    """A public observer (private_info NONE) was served the seat's own view:
    seat 0's own down cards 2d 2s in its tensor and string (stop 72)."""
    from open_spiel.python.observation import make_observation

    g = pyspiel.load_game("python_rollem", {"game": "sdr"})
    s = g.new_initial_state()
    for card in (0, 1, 2, 3):  # seat 1 gets 2c 2h, seat 0 2d 2s
        s.apply_action(card)
    seat = make_observation(g, pyspiel.IIGObservationType(perfect_recall=False))
    seat.set_from(s, 0)
    assert list(seat.tensor[2:54].nonzero()[0]) == [1, 3]  # own down cards: 2d, 2s
    for private in (pyspiel.PrivateInfoType.NONE, pyspiel.PrivateInfoType.ALL_PLAYERS):
        for recall in (False, True):
            kind = pyspiel.IIGObservationType(perfect_recall=recall, public_info=True,
                                              private_info=private)
            with pytest.raises(ValueError, match=f"one seat's view only.*{private.name}"):
                make_observation(g, kind)
    with pytest.raises(ValueError, match="public_info=False"):
        make_observation(g, pyspiel.IIGObservationType(
            perfect_recall=False, public_info=False,
            private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER))


def test_history_slots_keep_betting_actions_past_48_apart() -> None:
    """Ten-handed 5-2-1 passes 48 betting actions; two lines of the next round
    (seat A bets, all call / A checks, B bets, all call) leave the same table
    but are two information states. The tensor kept 48 actions, so the two
    were one tensor; ``history_slots`` (stop 72) gives it room."""
    import numpy as np

    def betting(s: Any) -> int:
        from rollem.engine.actions import Bet, Call, Check, Fold, Raise
        return sum(isinstance(a, Fold | Check | Call | Bet | Raise)
                   for _, a in s.moves.hand.actions)

    def to_next_round(s: Any) -> Any:  # calls until the round is over
        rounds = sum(e.kind == "round" for e in s.moves.hand.events)
        while True:
            if s.is_chance_node():
                s.apply_action(s.chance_outcomes()[0][0])
                continue
            legal = s.legal_actions()
            if sum(e.kind == "round" for e in s.moves.hand.events) != rounds \
                    or not set(legal) <= set(range(6)):
                return s
            s.apply_action(1)

    def two_lines(params: dict[str, Any]) -> tuple[Any, Any, int]:
        s = pyspiel.load_game("python_rollem", {"game": "rollem521", "players": 10,
                                                **params}).new_initial_state()
        while True:
            if s.is_chance_node():
                s.apply_action(s.chance_outcomes()[0][0])
                continue
            legal = s.legal_actions()
            if betting(s) >= 48 and {1, 2} <= set(legal) and \
                    s.action_to_string(s.current_player(), 1).startswith("check"):
                a, b = s.clone(), s.clone()
                a.apply_action(2)
                b.apply_action(1)
                b.apply_action(2)
                return to_next_round(a), to_next_round(b), betting(s)
            s.apply_action(1 if 1 in legal else legal[0])

    for params, same_tensor in (({}, True), ({"history_slots": 200}, False)):
        a, b, done = two_lines(params)
        assert done == 48
        p = a.current_player()
        assert p == b.current_player()
        assert a.information_state_string(p) != b.information_state_string(p)
        assert a.observation_tensor(p) == b.observation_tensor(p)
        assert np.array_equal(a.information_state_tensor(p),
                              b.information_state_tensor(p)) is same_tensor
    game = pyspiel.load_game("python_rollem", {"history_slots": 200})
    assert game.information_state_tensor_size() == 347 + 200 * 15
    with pytest.raises(ValueError, match="history_slots must be a number of betting actions "
                                         ">= 1, got 0"):
        pyspiel.load_game("python_rollem", {"history_slots": 0})


def test_a_pickled_game_and_state_play_on() -> None:
    """An unpickled python_rollem (a worker process's copy, a pickled policy's
    game) raised AttributeError (no ``setup``) at ``new_initial_state``: pyspiel
    rebuilt the C++ game only (stop 72)."""
    import pickle

    params = {"game": "rollyourown", "players": 3, "stack": 50, "history_slots": 60}
    game = pyspiel.load_game("python_rollem", params)
    again = pickle.loads(pickle.dumps(game))
    assert again.get_parameters() == game.get_parameters()
    assert again.information_state_tensor_size() == 405 + 60 * 16  # 3 seats: 405, 16 a slot
    state = again.new_initial_state()
    while state.is_chance_node():  # the deal, lowest card first
        state.apply_action(state.chance_outcomes()[0][0])
    dealt = len(state.history())
    assert dealt > 15
    copy = pickle.loads(pickle.dumps(state))
    assert copy.history() == list(range(dealt))
    assert copy.information_state_tensor(1) == state.information_state_tensor(1)
    assert copy.legal_actions() == state.legal_actions()
    copy.apply_action(copy.legal_actions()[0])
    assert len(copy.history()) == dealt + 1
