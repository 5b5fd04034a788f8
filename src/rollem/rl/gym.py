"""A Gymnasium single-agent environment: one seat against fixed rollem bots
(issue 30; needs ``rollem[rl]``).

>>> from rollem.rl.gym import RollemGymEnv
>>> env = RollemGymEnv("sdr", opponents="basic")
>>> obs, info = env.reset(seed=1)
>>> obs["action_mask"].nonzero()[0].tolist()
[0, 1, 2]

The learner plays seat ``seat`` (0); every other seat is a rollem bot of
level ``opponents`` (``"basic"``, ``"strong"``, ``"random"``, seeded from
``reset``'s seed), playing through the same action space (a bet the space has
no id for is mapped to the nearest size, :func:`rollem.rl.actions.action_id`).
Observations and action ids are those of :class:`rollem.rl.pettingzoo.RollemEnv`;
one episode is one hand; the reward, at the end, is the seat's net chips.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from rollem.bots import Bot, make_bot
from rollem.rl.actions import NUM_ACTIONS, action_id
from rollem.rl.pettingzoo import deal_chance, observe
from rollem.rl.state import TERMINAL, MoveState, Setup, load_setup
from rollem.rl.tensors import observation_size

__all__ = ["RollemGymEnv"]


class RollemGymEnv(gymnasium.Env[Any, Any]):
    """One seat of a rollem game against bots (arguments of
    :func:`rollem.rl.state.load_setup` as keywords, plus ``seat`` and ``opponents``)."""

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012  (gymnasium's name)

    def __init__(self, game: str = "sdr", players: int = 2, *, seat: int = 0,
                 opponents: str = "basic", **setup: Any) -> None:
        self.setup: Setup = load_setup(game, players, **setup)
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0..{players - 1}, got {seat}")
        make_bot(opponents)  # an unknown level fails here, naming the levels
        self.seat = seat
        self.opponents = opponents
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, np.inf, (observation_size(players),), np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        })
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._rng = random.Random()
        self._bots: dict[int, Bot] = {}
        self.state = MoveState(self.setup)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, npt.NDArray[Any]],
                                                              dict[str, Any]]:
        """A new hand, played on to the learner's first decision."""
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        self._bots = {s: make_bot(self.opponents, random.Random(self._rng.random()))
                      for s in range(self.setup.players) if s != self.seat}
        self.state = MoveState(self.setup)
        self._run_others()
        return observe(self.state, self.seat), {}

    def step(self, action: int) -> tuple[dict[str, npt.NDArray[Any]], float, bool, bool,
                                         dict[str, Any]]:
        """Apply the learner's action id; the bots play on to its next decision or the end.

        Raises:
            ValueError: an id not legal now (see ``action_mask``), or the hand is over.
        """
        if self.state.player != self.seat:
            raise ValueError("the hand is over: call reset()")
        self.state.apply(int(action))
        self._run_others()
        done = self.state.player == TERMINAL
        reward = self.state.returns()[self.seat] if done else 0.0
        return observe(self.state, self.seat), reward, done, False, {}

    def _run_others(self) -> None:
        state = self.state
        while True:
            deal_chance(state, self._rng)
            p = state.player
            if p == TERMINAL or p == self.seat:
                return
            chosen = self._bots[p].act(state.hand.view(p))
            state.apply(action_id(state.legal(), chosen))
