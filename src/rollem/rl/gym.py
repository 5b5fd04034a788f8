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

An action id that is not legal now (``action_mask`` 0), as Gymnasium's
``check_env`` and any unmasked ``action_space.sample()`` send, is handled by
``on_illegal``: ``"substitute"`` (the default) plays the passive legal action
instead, check or call (id 1) where legal, else the lowest legal id, and says
so in the step's ``info`` (``"illegal_action"``: the id sent, ``"played"``:
the id played); ``illegal_penalty`` chips (default 0) are then taken off that
step's reward, so the rewards of an episode add up to the net chips less the
penalties. ``"raise"`` refuses it with ``ValueError`` (state unchanged).
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from rollem.bots import Bot, make_bot
from rollem.rl.actions import NUM_ACTIONS, action_id, agent_action
from rollem.rl.pettingzoo import deal_chance, observe
from rollem.rl.state import TERMINAL, MoveState, Setup, load_setup
from rollem.rl.tensors import observation_size

__all__ = ["ON_ILLEGAL", "RollemGymEnv"]

ON_ILLEGAL = ("substitute", "raise")
"""What :class:`RollemGymEnv` does with an action id not legal now (see the module doc)."""


class RollemGymEnv(gymnasium.Env[Any, Any]):
    """One seat of a rollem game against bots (arguments of
    :func:`rollem.rl.state.load_setup` as keywords, plus ``seat``,
    ``opponents``, ``on_illegal`` and ``illegal_penalty``, see the module doc).

    Raises:
        ValueError: a bad seat, ``on_illegal`` or ``illegal_penalty``.
        KeyError: an unknown bot level.
    """

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012  (gymnasium's name)

    def __init__(self, game: str = "sdr", players: int = 2, *, seat: int = 0,
                 opponents: str = "basic", on_illegal: str = "substitute",
                 illegal_penalty: float = 0.0, **setup: Any) -> None:
        self.setup: Setup = load_setup(game, players, **setup)
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0..{players - 1}, got {seat}")
        if on_illegal not in ON_ILLEGAL:
            raise ValueError(f"on_illegal must be one of {', '.join(ON_ILLEGAL)}, "
                             f"got {on_illegal!r}")
        if not 0 <= illegal_penalty < float("inf"):
            raise ValueError(f"illegal_penalty must be a number of chips >= 0, "
                             f"got {illegal_penalty!r}")
        self.on_illegal = on_illegal
        self.illegal_penalty = float(illegal_penalty)
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

        An id not legal now is substituted or refused (``on_illegal``, module doc).

        Raises:
            ValueError: the hand is over, an id outside the action space or not
                a whole number (:func:`rollem.rl.actions.agent_action`), or an id
                not legal now with ``on_illegal="raise"`` (state unchanged).
        """
        if self.state.player != self.seat:
            raise ValueError("the hand is over: call reset()")
        move = agent_action(action)  # (an id outside the space: refused, not substituted)
        info: dict[str, Any] = {}
        penalty = 0.0
        legal = self.state.legal()
        if move not in legal and self.on_illegal == "substitute":
            played = 1 if 1 in legal else min(legal)
            info = {"illegal_action": move, "played": played}
            move = played
            penalty = self.illegal_penalty
        self.state.apply(move)
        self._run_others()
        done = self.state.player == TERMINAL
        reward = (self.state.returns()[self.seat] if done else 0.0) - penalty
        return observe(self.state, self.seat), reward, done, False, info

    def _run_others(self) -> None:
        state = self.state
        while True:
            deal_chance(state, self._rng)
            p = state.player
            if p == TERMINAL or p == self.seat:
                return
            chosen = self._bots[p].act(state.hand.view(p))
            state.apply(action_id(state.legal(), chosen))
