"""A bot's action probabilities from the same code that chooses its actions (issue 31).

A bot's decision is a function of the view and of a few *coins*: "with
probability ``p`` do this" (a bluff, a slow-play, a near-indifferent bet).
When it acts, a coin is ``rng.random() < p`` on the bot's own seeded
``Random`` (so seeded games play as before); for :meth:`policy` the same
decision code runs once per path through its coins (:func:`enumerate_coins`),
each path weighed by the product of its coins' probabilities. The policy is
therefore exactly the distribution ``act`` samples from, given the same
estimated chances (cached per state of the cards, so ``act`` after ``policy``
on the same view reuses them).

Card choices (discard, expose, draw, stack, declare) of ``basic`` and
``strong`` are given as the point mass of the choice made: it is computed
once by :meth:`policy` and remembered for the ``act`` on the same view
(:class:`Planned`), so ``act``'s choice always has probability 1 there.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import random

    from rollem.engine.views import HandView

__all__ = ["Coin", "Mixing", "Planned", "enumerate_coins", "view_key"]

Coin = Callable[[float], bool]
"""``coin(p)``: True with probability ``p`` (clamped to [0, 1])."""


def enumerate_coins(decide: Callable[[Coin], object]) -> dict[Any, float]:
    """Every action ``decide(coin)`` can return, with its probability.

    ``decide`` must be deterministic given the coins' outcomes (the same coin
    calls in the same order for the same earlier outcomes). Probabilities sum
    to 1; paths of probability 0 are left out.
    """
    out: dict[Any, float] = {}
    todo: list[tuple[tuple[bool, ...], float]] = [((), 1.0)]
    while todo:
        prefix, prob = todo.pop()
        taken: list[bool] = []
        weight = prob

        def coin(p: float, prefix: tuple[bool, ...] = prefix, taken: list[bool] = taken) -> bool:
            nonlocal weight
            p = min(1.0, max(0.0, float(p)))
            i = len(taken)
            if i < len(prefix):
                taken.append(prefix[i])
                return prefix[i]
            if p < 1.0:
                todo.append(((*taken, False), weight * (1.0 - p)))
            weight *= p
            taken.append(True)
            return True

        action = decide(coin)
        if weight > 0.0:
            out[action] = out.get(action, 0.0) + weight
    total = sum(out.values())
    return {a: p / total for a, p in out.items()}


def view_key(view: HandView) -> Hashable:
    """What identifies one decision of one seat in one hand (for :class:`Planned`)."""
    legal = view.legal
    return (view.game, view.seat, view.round, view.pending, tuple(view.my_cards),
            len(view.events), tuple(str(e) for e in view.events[-2:]),
            tuple(legal.actions) if legal is not None else (),
            tuple(legal.cards) if legal is not None else ())


class Planned:
    """A card choice made by ``policy``, kept for the ``act`` on the same view."""

    def __init__(self) -> None:
        self._key: Hashable | None = None
        self._action: object = None

    def keep(self, view: HandView, action: object) -> None:
        """Remember ``action`` as the choice for ``view``."""
        self._key, self._action = view_key(view), action

    def take(self, view: HandView) -> object | None:
        """The remembered choice if it was made for ``view`` (then forgotten), else None."""
        if self._key is None or self._key != view_key(view):
            return None
        action, self._key, self._action = self._action, None, None
        return action


class Mixing:
    """What ``basic`` and ``strong`` share to give their policy: :meth:`policy`
    runs :meth:`act` once per path through its coins, and :meth:`_mix` is each
    coin (the bot's seeded ``Random`` when it acts).  A subclass sets
    ``self.rng``, ``self._coin = None`` and ``self._planned = Planned()``, and
    names itself in :attr:`level`."""

    level = "computer"
    rng: random.Random
    _coin: Coin | None
    _planned: Planned

    def act(self, view: HandView) -> object:  # pragma: no cover - the subclass's
        raise NotImplementedError

    def policy(self, view: HandView) -> dict[object, float]:
        """The probability of each action :meth:`act` may take for ``view`` (issue
        31): the betting mixes (bluffs, slow-plays, near-indifferent bets)
        enumerated over the same chances ``act`` uses; a card choice or declare
        is made here once (probability 1) and kept for the next ``act`` on this
        view.

        Raises:
            ValueError: if the view offers no legal options.
        """
        legal = view.legal
        if legal is None or not legal.actions:
            raise ValueError(f"the {self.level} bot was asked for a policy with no legal "
                             "options")
        if not any(a in legal.actions for a in ("check", "call", "bet", "raise", "fold")):
            action = self.act(view)
            self._planned.keep(view, action)
            return {action: 1.0}

        def decide(coin: Coin) -> object:
            self._coin = coin
            try:
                return self.act(view)
            finally:
                self._coin = None

        return enumerate_coins(decide)

    def _mix(self, p: float) -> bool:
        """A mixed choice: True with probability ``p`` (the bot's ``Random``, or the
        coin :meth:`policy` enumerates)."""
        if self._coin is not None:
            return self._coin(p)
        return self.rng.random() < p
