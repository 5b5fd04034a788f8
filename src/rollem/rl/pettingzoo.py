"""Every rollem game as a PettingZoo AEC environment (issue 30; needs ``rollem[rl]``).

>>> from rollem.rl.pettingzoo import RollemEnv
>>> env = RollemEnv("sdr", players=2)
>>> env.reset(seed=1)
>>> obs, reward, termination, truncation, info = env.last()
>>> sorted(obs), obs["action_mask"].nonzero()[0].tolist()
(['action_mask', 'observation'], [0, 1, 2])

Agents are ``"player_0"`` .. ``"player_<n-1>"`` (seat numbers). Each
observation is a dict: ``"observation"``, the seat's observation tensor
(:mod:`rollem.rl.tensors`, float32, chips unscaled) and ``"action_mask"``
(int8, length 437, 1 = legal id of :mod:`rollem.rl.actions`; all 0 for an
agent not to act). Chance (every card dealt, every pool shuffle and
reshuffle) is drawn inside the environment from ``reset(seed=...)``'s seed.
Rewards come at the end: each seat's net chips; all agents then terminate.
All-at-once decisions are asked one agent after the other, the others'
choices hidden (:mod:`rollem.rl.state`).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from rollem.rl.actions import NUM_ACTIONS, agent_action
from rollem.rl.state import CHANCE, TERMINAL, MoveState, Setup, load_setup
from rollem.rl.tensors import observation_size, observation_string, write_observation

__all__ = ["RollemEnv", "action_mask", "observe"]


def action_mask(state: MoveState, seat: int) -> npt.NDArray[np.int8]:
    """1 for each legal action id of ``seat`` now (all 0 when it is not asked)."""
    mask = np.zeros(NUM_ACTIONS, np.int8)
    if state.player == seat:
        mask[list(state.legal())] = 1
    return mask


def observe(state: MoveState, seat: int) -> dict[str, npt.NDArray[Any]]:
    """``seat``'s observation dict (tensor and action mask)."""
    obs = np.zeros(observation_size(state.setup.players), np.float32)
    write_observation(state.hand, seat, obs)
    return {"observation": obs, "action_mask": action_mask(state, seat)}


def deal_chance(state: MoveState, rng: random.Random) -> None:
    """Draw chance outcomes until a seat must decide or the hand ends."""
    while state.player == CHANCE:
        need = state.need
        assert need is not None
        state.apply(need.outcomes[rng.randrange(len(need.outcomes))])


class RollemEnv(AECEnv):  # type: ignore[misc]
    """One hand of a rollem game per episode (arguments as
    :func:`rollem.rl.state.load_setup`: ``game``, ``players``, ``stack``,
    ``button``, ``structure``, ``ante``, ``small_bet``, ``big_bet``).

    ``render_mode="ansi"``: :meth:`render` returns the table as a spectator sees it.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "rollem_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: str = "sdr", players: int = 2, *, render_mode: str | None = None,
                 **setup: Any) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.setup: Setup = load_setup(game, players, **setup)
        n = self.setup.players
        self.possible_agents = [f"player_{s}" for s in range(n)]
        size = observation_size(n)
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0.0, np.inf, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._rng = random.Random()
        self.state = MoveState(self.setup)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new hand (``seed``: the chance draws' seed; ``None`` keeps the stream)."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.state = MoveState(self.setup)
        deal_chance(self.state, self._rng)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = f"player_{self.state.player}"

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        return observe(self.state, int(agent.rsplit("_", 1)[1]))

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action id (``None`` once it has terminated).

        Raises:
            ValueError: no hand yet (before :meth:`reset`), or an id not legal
                now or not a whole number of the action space
                (:func:`rollem.rl.actions.agent_action`; the hand is unchanged).
        """
        agent = getattr(self, "agent_selection", None)
        if agent is None:
            raise ValueError("no hand yet: call reset() before step()")
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: give an action id allowed by its action_mask")
        move = agent_action(action)
        self._cumulative_rewards[agent] = 0.0
        self.state.apply(move)
        deal_chance(self.state, self._rng)
        if self.state.player == TERMINAL:
            net = self.state.returns()
            for s, a in enumerate(self.possible_agents):
                self.rewards[a] = net[s]
                self.terminations[a] = True
            self._accumulate_rewards()
            # every agent steps once more (with None) to be removed, seat order
            self.agent_selection = self.agents[0]
        else:
            self.rewards = {a: 0.0 for a in self.agents}
            self.agent_selection = f"player_{self.state.player}"

    def render(self) -> str | None:
        """The table as a spectator sees it (``render_mode="ansi"``), else ``None``."""
        if self.render_mode != "ansi":
            return None
        return observation_string(self.state.hand, None)

    def close(self) -> None:
        """Nothing to release."""
