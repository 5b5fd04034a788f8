"""Any rollem bot as an OpenSpiel :class:`Policy` (issue 30; needs ``rollem[rl]``).

>>> import pyspiel, rollem.rl.openspiel
>>> from rollem.engine import Bet, Check
>>> from rollem.rl.policy import BotPolicy
>>> class Checker:  # a bot with act only
...     def act(self, view):
...         return Check()
>>> class Mixer:  # a bot with a policy
...     def policy(self, view):
...         return {Check(): 0.25, Bet(2): 0.75}
...     def act(self, view):
...         return Check()
>>> game = pyspiel.load_game("python_rollem", {"game": "sdr"})
>>> state = game.new_initial_state()
>>> for card in (0, 1, 2, 3):
...     state.apply_action(card)
>>> BotPolicy(game, lambda seat: Checker()).action_probabilities(state)
{1: 1.0}
>>> BotPolicy(game, lambda seat: Mixer()).action_probabilities(state)
{1: 0.25, 2: 0.75}

The bot sees the seat's view (``hand.view(seat)``) as in play. A bot with
``policy(view) -> {action: probability}`` (issue 31) gives its
distribution, each engine action mapped to its id
(:func:`rollem.rl.actions.action_id`: a bet size the action space lacks goes
to the nearest id, probabilities of the same id add up); any other bot gets
probability 1 on what ``act(view)`` returns. A bot that draws at random in
``act`` would answer differently each time it is asked about the same
information state, which OpenSpiel's algorithms (best response,
exploitability) do not allow: the adapter remembers the first answer for each
information state (``cache=True``, the default), so the policy is fixed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pyspiel
from open_spiel.python import policy as os_policy

from rollem.bots import Bot, make_bot
from rollem.rl.actions import action_id

__all__ = ["BotPolicy"]


class BotPolicy(os_policy.Policy):  # type: ignore[misc]
    """An OpenSpiel policy playing rollem bots.

    Args:
        game: a ``python_rollem`` game.
        bot: a bot level (``"basic"``, ``"strong"``, ``"random"``; one bot per
            seat, seeded ``seed + seat``), or a function ``seat -> Bot``.
        players: the seats it plays (default: all).
        seed: seeds of the bots made from a level.
        cache: remember each information state's answer (see the module doc).
    """

    def __init__(self, game: pyspiel.Game, bot: str | Callable[[int], Bot],
                 players: list[int] | None = None, *, seed: int = 0,
                 cache: bool = True) -> None:
        n = game.num_players()
        seats = list(range(n)) if players is None else players
        super().__init__(game, seats)
        if isinstance(bot, str):
            level = bot
            self.bots: dict[int, Bot] = {s: make_bot(level, random.Random(seed + s))
                                         for s in seats}
        else:
            self.bots = {s: bot(s) for s in seats}
        self._cache: dict[str, dict[int, float]] | None = {} if cache else None

    def action_probabilities(self, state: Any, player_id: int | None = None) -> dict[int, float]:
        """``{action id: probability}`` of the seat to act in ``state``."""
        seat = state.current_player() if player_id is None else player_id
        moves = state.moves
        key = ""
        if self._cache is not None:
            key = f"{seat}\n{state.information_state_string(seat)}"
            hit = self._cache.get(key)
            if hit is not None:
                return dict(hit)
        legal = moves.legal()
        view = moves.hand.view(seat)
        bot = self.bots[seat]
        probs: dict[int, float] = {}
        policy_fn = getattr(bot, "policy", None)
        if callable(policy_fn):
            for action, p in policy_fn(view).items():
                i = action_id(legal, action)
                probs[i] = probs.get(i, 0.0) + float(p)
        else:
            probs[action_id(legal, bot.act(view))] = 1.0
        probs = dict(sorted(probs.items()))
        if self._cache is not None:
            self._cache[key] = probs
        return dict(probs)
