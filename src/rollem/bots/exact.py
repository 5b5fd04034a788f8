"""Exact best response and equilibrium of a heads-up fixed-limit last betting
round (a river subgame), for measuring how exploitable a bot is.

The subgame: the board is out, ``pot`` chips are in the middle (half from
each player), each player holds one of ``n`` hole-card combinations, drawn
uniformly among those that share no card with the other's; the player to act
first is seat 0. Each may check or bet ``bet`` chips; facing a bet, fold,
call or raise by ``bet``, at most ``cap`` bets and raises in all (R-SDR-7:
a bet and up to three raises in the last round, ``cap = 4``). A check behind
a check or a call ends it at the showdown, where ``result[i, j]`` (+1, 0,
-1) says whether hole ``i`` beats hole ``j``.

:func:`best_response` computes, exactly, what a player who knows a policy
(a probability of each action per hole and history) wins per hand against it
by playing the best reply at every history; :func:`equilibrium` solves the
subgame (counterfactual regret minimisation, CFR+; :func:`exploitability` of
its average strategy shows how close it came); :func:`exploitability` is what
a best reply wins against a policy, averaged over the two seats (the
equilibrium's seat values cancel, so it is the gain above the equilibrium).

Histories are strings over ``k`` (check), ``b`` (bet), ``r`` (raise), ``c``
(call), ``f`` (fold), e.g. ``"kbr"``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = ["RiverGame", "best_response", "equilibrium", "exploitability", "histories",
           "seat1_value"]

Floats = npt.NDArray[np.float64]
Policy = Mapping[str, Floats]
"""Per history where the policy's seat acts: shape ``(n, len(actions(h)))``,
rows summing to 1, in the order of :meth:`RiverGame.actions`."""


@dataclass(frozen=True)
class RiverGame:
    """One river subgame.

    Attributes:
        compatible: ``(n, n)`` 1.0 where holes ``i`` and ``j`` share no card.
        result: ``(n, n)`` showdown result of hole ``i`` against hole ``j``:
            +1 win, 0 split, -1 loss (antisymmetric).
        pot: chips in the middle before the round (whole, even: half each).
        bet: the bet and raise size in chips.
        cap: the most bets and raises in the round (a bet is the first).
    """

    compatible: Floats
    result: Floats
    pot: int = 2
    bet: int = 4
    cap: int = 4

    def __post_init__(self) -> None:
        n = self.compatible.shape[0]
        if self.compatible.shape != (n, n) or self.result.shape != (n, n):
            raise ValueError(f"compatible and result must both be (n, n), got "
                             f"{self.compatible.shape} and {self.result.shape}")
        if self.pot < 0 or self.pot % 2 or self.bet <= 0 or self.cap < 1:
            raise ValueError(f"need an even pot >= 0, a bet > 0 and a cap >= 1, got pot "
                             f"{self.pot}, bet {self.bet}, cap {self.cap}")

    @property
    def n(self) -> int:
        """Hole-card combinations per player."""
        return int(self.compatible.shape[0])

    def actions(self, history: str) -> tuple[str, ...]:
        """The actions at ``history`` (empty when it ends the round)."""
        if self.terminal(history):
            return ()
        bets = sum(1 for a in history if a in "br")
        if history.endswith(("b", "r")):
            return ("f", "c", "r") if bets < self.cap else ("f", "c")
        return ("k", "b")

    @staticmethod
    def terminal(history: str) -> bool:
        """Whether ``history`` ends the round (a fold, a call, two checks)."""
        return history.endswith(("f", "c")) or history == "kk"

    @staticmethod
    def actor(history: str) -> int:
        """The seat to act at ``history`` (seat 0 first)."""
        return len(history) % 2

    def put_in(self, history: str) -> tuple[int, int]:
        """Chips each seat put in during the round along ``history``."""
        paid = [0, 0]
        level = 0
        for i, a in enumerate(history):
            seat = i % 2
            if a in "br":
                level += self.bet
                paid[seat] = level
            elif a == "c":
                paid[seat] = level
        return paid[0], paid[1]

    def payoff(self, history: str, seat: int) -> Floats:
        """``(n, n)`` chips won by ``seat`` holding ``i`` against ``j`` at a
        terminal ``history`` (net of what it put in, the pot's half included)."""
        paid = self.put_in(history)
        half = self.pot // 2
        mine, theirs = half + paid[seat], half + paid[1 - seat]
        if history.endswith("f"):
            folder = (len(history) - 1) % 2
            value = -mine if folder == seat else theirs
            return np.full((self.n, self.n), float(value))
        return self.result * float(mine)


def histories(game: RiverGame, seat: int | None = None) -> Iterator[str]:
    """Every non-terminal history (where ``seat`` acts, if given), root first."""
    stack = [""]
    while stack:
        h = stack.pop()
        acts = game.actions(h)
        if not acts:
            continue
        if seat is None or game.actor(h) == seat:
            yield h
        stack.extend(h + a for a in reversed(acts))


def best_response(game: RiverGame, policy: Policy, seat: int) -> float:
    """Chips per hand won by the best reply in ``seat`` against ``policy`` in the
    other seat, holes dealt uniformly (each compatible pair equally likely).

    Raises:
        KeyError: a history where the policy's seat acts is missing from ``policy``.
    """
    other = 1 - seat

    def value(h: str, reach: Floats) -> Floats:
        # (n,) sum over the other's holes j of reach[j] * compatible * payoff
        acts = game.actions(h)
        if not acts:
            pay = game.payoff(h, seat) * game.compatible
            out: Floats = pay @ reach
            return out
        if game.actor(h) == other:
            probs = policy[h]
            return sum((value(h + a, reach * probs[:, k]) for k, a in enumerate(acts)),
                       start=np.zeros(game.n))
        best: Floats = np.max(np.stack([value(h + a, reach) for a in acts]), axis=0)
        return best

    total = value("", np.ones(game.n))
    pairs = game.compatible.sum()
    return float(total.sum() / pairs)


def _values(game: RiverGame, strat: dict[str, Floats], h: str, reach: list[Floats],
            regrets: dict[str, Floats], weight: float, avg: dict[str, Floats],
            update: int) -> list[Floats]:
    """CFR+ pass: returns each seat's counterfactual values at ``h`` (each (n,))
    and updates ``update``'s regrets and average strategy."""
    acts = game.actions(h)
    if not acts:
        out = []
        for s in (0, 1):
            pay = game.payoff(h, s) * game.compatible
            out.append(pay @ reach[1 - s])
        return out
    me = game.actor(h)
    probs = strat[h]
    child = []
    for k, a in enumerate(acts):
        r = list(reach)
        r[me] = reach[me] * probs[:, k]
        child.append(_values(game, strat, h + a, r, regrets, weight, avg, update))
    mine = np.stack([c[me] for c in child], axis=1)  # (n, actions)
    v_me: Floats = (mine * probs).sum(axis=1)
    v_other: Floats = sum((c[1 - me] for c in child), start=np.zeros(game.n))
    if me == update:
        regrets[h] = np.maximum(regrets[h] + mine - v_me[:, None], 0.0)
        avg[h] += weight * reach[me][:, None] * probs
    out = [v_other, v_other]
    out[me] = v_me
    return out


def _match(regret: Floats) -> Floats:
    pos = np.maximum(regret, 0.0)
    total = pos.sum(axis=1, keepdims=True)
    uniform = np.full_like(pos, 1.0 / pos.shape[1])
    out: Floats = np.where(total > 0, pos / np.where(total > 0, total, 1.0), uniform)
    return out


def equilibrium(game: RiverGame, iterations: int = 2000) -> tuple[dict[str, Floats], float]:
    """An approximate equilibrium by CFR+ (alternating updates, linear averaging):
    the average strategy of both seats by history, and seat 0's value in chips
    per hand under it. Its distance from an equilibrium is
    :func:`exploitability` of that strategy.

    Raises:
        ValueError: ``iterations`` below 1.
    """
    if iterations < 1:
        raise ValueError(f"iterations must be at least 1, got {iterations}")
    nodes = list(histories(game))
    regrets = {h: np.zeros((game.n, len(game.actions(h)))) for h in nodes}
    avg = {h: np.zeros((game.n, len(game.actions(h)))) for h in nodes}
    for t in range(1, iterations + 1):
        for update in (0, 1):
            strat = {h: _match(regrets[h]) for h in nodes}
            _values(game, strat, "", [np.ones(game.n), np.ones(game.n)], regrets,
                    float(t), avg, update)
    strategy = {h: _match(avg[h]) for h in nodes}
    return strategy, -seat1_value(game, strategy)


def seat1_value(game: RiverGame, strategy: Mapping[str, Floats]) -> float:
    """Seat 1's chips per hand when both seats play ``strategy`` (by history)."""
    def value(h: str, reach0: Floats, reach1: Floats) -> float:
        acts = game.actions(h)
        if not acts:
            pay = game.payoff(h, 1) * game.compatible
            return float(reach1 @ pay @ reach0)
        me = game.actor(h)
        probs = strategy[h]
        total = 0.0
        for k, a in enumerate(acts):
            if me == 0:
                total += value(h + a, reach0 * probs[:, k], reach1)
            else:
                total += value(h + a, reach0, reach1 * probs[:, k])
        return total

    return value("", np.ones(game.n), np.ones(game.n)) / float(game.compatible.sum())


def exploitability(game: RiverGame, policy: Mapping[str, Floats]) -> float:
    """Chips per hand a best reply wins against ``policy`` (one strategy for both
    seats, by history), averaged over the two seats: ``(BR vs seat 0 + BR vs
    seat 1) / 2``. The game is zero-sum and each seat plays each side equally
    often, so this is the best reply's gain above the equilibrium (whose seat
    values cancel): 0 for an equilibrium, above 0 for anything else."""
    pol0 = {h: p for h, p in policy.items() if game.actor(h) == 0}
    pol1 = {h: p for h, p in policy.items() if game.actor(h) == 1}
    return (best_response(game, pol0, seat=1) + best_response(game, pol1, seat=0)) / 2
