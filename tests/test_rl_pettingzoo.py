"""rollem as a PettingZoo AEC environment and a Gymnasium single-agent
environment (issue 30). Skipped without ``rollem[rl]``; the test command
(scripts/test.sh) installs it."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from rollem.engine import Bet, Call, Check, Raise
from rollem.rl.actions import action_id
from rollem.rl.gym import RollemGymEnv
from rollem.rl.pettingzoo import RollemEnv

GAMES = ["sdr", "rollyourown", "rollem521", "holdem", "omaha8", "stud8", "draw5"]


@pytest.mark.filterwarnings("ignore::UserWarning")  # dict observations, as the classic envs
@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_test(game: str) -> None:
    api_test(RollemEnv(game, players=2), num_cycles=100)


def test_a_hand_with_masks_and_rewards() -> None:
    env = RollemEnv("sdr", players=3)
    env.reset(seed=4)
    assert env.agent_selection == "player_1"  # button 0: the dealer's left opens
    obs, *_ = env.last()
    assert obs["action_mask"].nonzero()[0].tolist() == [0, 1, 2]
    assert obs["observation"].dtype == np.float32 and obs["observation"][1] == 1.0
    assert env.observe("player_0")["action_mask"].sum() == 0  # not its turn
    with pytest.raises(ValueError, match="not legal for seat 1"):
        env.step(3)
    env.step(0)  # seat 1 folds
    env.step(0)  # seat 2 folds: seat 0 wins the antes
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": 2.0, "player_1": -1.0, "player_2": -1.0}


def test_same_seed_same_hand() -> None:
    def hand(seed: int) -> list[float]:
        env = RollemEnv("rollyourown", players=3)
        env.reset(seed=seed)
        rng = random.Random(0)
        net: dict[str, float] = {}
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            if term or trunc:
                net[agent] = reward
            env.step(None if term or trunc else
                     rng.choice(obs["action_mask"].nonzero()[0].tolist()))
        return [net[a] for a in env.possible_agents]

    assert hand(7) == hand(7)
    assert sum(hand(7)) == 0


def test_bot_bets_map_to_the_nearest_size() -> None:
    legal = {0: object(), 1: Call(), 2: Raise(4), 3: Raise(5), 4: Raise(8), 5: Raise(199)}
    assert action_id(legal, Raise(6)) == 3
    assert action_id(legal, Raise(7)) == 4
    assert action_id(legal, Raise(150)) == 5
    assert action_id({1: Check()}, Check()) == 1
    with pytest.raises(ValueError, match="not among the legal actions"):
        action_id({1: Check()}, Bet(2))


@pytest.mark.parametrize("game", ["sdr", "rollyourown", "rollem521"])
def test_gym_env_against_basic(game: str) -> None:
    env = RollemGymEnv(game, opponents="basic")
    rng = random.Random(1)
    for ep in range(2):
        obs, _ = env.reset(seed=ep)
        done = False
        while not done:
            assert env.observation_space.contains(obs)
            assert obs["action_mask"].sum() > 0
            obs, reward, done, truncated, _ = env.step(
                rng.choice(obs["action_mask"].nonzero()[0].tolist()))
        assert not truncated and reward == env.state.returns()[0]
    with pytest.raises(ValueError, match="hand is over"):
        env.step(0)
    with pytest.raises(KeyError, match="unknown bot level"):
        RollemGymEnv("sdr", opponents="expert")


@pytest.mark.filterwarnings("ignore::UserWarning")  # unbounded chips; no spec to render from
@pytest.mark.parametrize("game", ["sdr", "rollyourown"])
def test_gymnasium_check_env_passes(game: str) -> None:
    # check_env steps with action_space.sample(), blind to the mask (issue 30)
    check_env(RollemGymEnv(game, opponents="basic"), skip_render_check=True)


def test_an_illegal_id_plays_check_or_call_or_is_refused() -> None:
    env = RollemGymEnv("sdr", opponents="basic", illegal_penalty=0.5)
    obs, _ = env.reset(seed=3)
    assert obs["action_mask"].nonzero()[0].tolist() == [0, 1, 2]  # fold, check, bet 2
    obs, reward, done, _, info = env.step(297)  # a stacking order: not legal in sdr
    assert info == {"illegal_action": 297, "played": 1}
    assert [a for seat, a in env.state.decisions if seat == 0] == [Check()]
    assert reward == -0.5 and not done
    _, _, _, _, info = env.step(int(obs["action_mask"].nonzero()[0][0]))
    assert info == {}
    # without a check or call to play (a discard in rollyourown): the lowest legal id
    ryo = RollemGymEnv("rollyourown", opponents="basic")
    obs, _ = ryo.reset(seed=1)
    lowest = int(obs["action_mask"].nonzero()[0][0])
    assert 1 not in obs["action_mask"].nonzero()[0]
    _, reward, _, _, info = ryo.step(0)
    assert info == {"illegal_action": 0, "played": lowest} and reward == 0.0
    strict = RollemGymEnv("sdr", opponents="basic", on_illegal="raise")
    strict.reset(seed=3)
    before = list(strict.state.history)
    with pytest.raises(ValueError, match="action 297 is not legal for seat 0; allowed: "
                                         r"\[0, 1, 2\]"):
        strict.step(297)
    assert strict.state.history == before
    with pytest.raises(ValueError, match="on_illegal must be one of substitute, raise"):
        RollemGymEnv("sdr", on_illegal="fold")
    with pytest.raises(ValueError, match="illegal_penalty must be a number of chips >= 0"):
        RollemGymEnv("sdr", illegal_penalty=-1)


def test_render_shows_what_a_spectator_sees() -> None:
    env = RollemEnv("sdr", render_mode="ansi")
    env.reset(seed=1)
    assert env.render() == ("spectator | s0[?? ??] stack 199 bet 0 | s1[?? ??] stack 199 bet 0"
                            " | board [] dead [] | pot 2 | bet to 1")
    assert RollemEnv("sdr").render() is None
    with pytest.raises(ValueError, match="render_mode must be None or 'ansi'"):
        RollemEnv("sdr", render_mode="human")


@pytest.mark.parametrize("bad", [1.5, 1.0, "1", True, None, [1]])
def test_an_action_that_is_not_a_whole_number_id_is_refused(bad: object) -> None:
    """``step`` takes an id as an int or a NumPy integer; a float, text or bool
    was cast with ``int()`` (1.5 played as 1, "1" as 1), now refused in one line,
    the hand unchanged. An id outside 0..436 is refused by the Gymnasium env
    even when it substitutes illegal ids (it has no action_mask entry)."""
    env = RollemEnv("sdr")
    with pytest.raises(ValueError, match=r"^no hand yet: call reset\(\) before step\(\)$"):
        env.step(1)  # was AttributeError: 'RollemEnv' object has no attribute ...
    env.reset(seed=1)
    before = list(env.state.history)
    if bad is None:
        with pytest.raises(ValueError, match="player_1 must act"):
            env.step(None)
    else:
        with pytest.raises(ValueError) as err:
            env.step(bad)  # type: ignore[arg-type]
        assert str(err.value) == (f"an action id is a whole number 0..436 (int), got {bad!r} "
                                  f"({type(bad).__name__})")
    assert env.state.history == before
    env.step(np.int64(1))  # a NumPy integer (Discrete.sample's) is an id
    assert len(env.state.history) == len(before) + 1
    gym = RollemGymEnv("sdr", opponents="basic")
    gym.reset(seed=3)
    before = list(gym.state.history)
    for outside in (437, -1, 999):
        with pytest.raises(ValueError, match=f"^action id {outside} is outside the action "
                                             r"space 0\.\.436$"):
            gym.step(outside)
    assert gym.state.history == before


def test_openspiel_raise_cap_below_minus_one_is_refused() -> None:
    import pyspiel

    import rollem.rl.openspiel  # noqa: F401

    with pytest.raises(ValueError, match=r"raise_cap must be -1 \(the game's caps\) or a number "
                                         "of raises >= 0, got -3"):
        pyspiel.load_game("python_rollem", {"game": "sdr", "raise_cap": -3})
    game = pyspiel.load_game("python_rollem", {"game": "sdr", "raise_cap": 0})
    assert game.setup.options.caps == (0,)
