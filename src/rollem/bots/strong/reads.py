"""Reads: what an opponent's actions say about its hidden cards, learned per
opponent over a session.

:class:`OpponentBook` keeps, for each seat, how often it bet or raised, called
and folded (from every action the bot's views showed it, across hands), and
turns one hand's actions into a weight per sampled world
(:meth:`OpponentBook.weights`): the likelihood of those actions given that
opponent's strength in the world (a percentile, :mod:`.worlds`):

- a bet or raise: ``eps + z ** a``; ``a`` is large for a player who seldom
  bets (its bets mean strength) and near 0 for a maniac (they mean nothing);
- a call: ``eps + z ** c``, ``c`` large for a player who often folds, near 0
  for a calling station;
- a check: ``1 - 0.5 * z ** 3`` (strong hands check now and then too);
- 5-2-1 draw counts (R-521-2, R-521-4): standing pat ``eps + z ** 2``,
  drawing two ``1 - 0.6 * z``;
- Five Card Roll Your Own exposes and 5-2-1 stack orders are face-up cards,
  already in every world; a revealed declare (R-521-8) is kept as declared.

Early betting rounds count less (their strength says less about the final
hand): each exponent is scaled by how late the round is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["OpponentBook", "Tendencies"]

Floats = npt.NDArray[np.float64]
EPS = 0.04
"""Floor of every likelihood: anyone may do anything once."""

_ROUNDS = {"sdr": 4, "rollyourown": 4, "rollem521": 6}


@dataclass
class Tendencies:
    """One opponent's counts over the session (from the bot's views)."""

    aggressive: int = 0
    calls: int = 0
    checks: int = 0
    folds: int = 0
    faced: int = 0
    """Times it acted facing a bet (its call/fold/raise decisions)."""
    folded_to_bet: int = 0

    @property
    def aggression(self) -> float:
        """Share of its betting actions that were bets or raises (prior 0.3)."""
        total = self.aggressive + self.calls + self.checks
        return (self.aggressive + 1.5) / (total + 5.0)

    @property
    def fold_rate(self) -> float:
        """How often it folds facing a bet (prior 0.35)."""
        return (self.folded_to_bet + 1.75) / (self.faced + 5.0)

    @property
    def bet_exponent(self) -> float:
        """``a`` of the bet likelihood: strong reads of a tight player's bets."""
        return float(3.0 * (1.0 - min(0.95, self.aggression)) ** 2)

    @property
    def call_exponent(self) -> float:
        """``c`` of the call likelihood: a calling station's calls say little."""
        return float(2.0 * min(1.0, self.fold_rate / 0.4) ** 1.5)


class OpponentBook:
    """Per-seat tendencies over a session, read from views only."""

    def __init__(self) -> None:
        self.seats: dict[int, Tendencies] = {}
        self._hand_key: object = None
        self._done = 0

    def tendencies(self, seat: int) -> Tendencies:
        """The counts of ``seat`` (created empty)."""
        return self.seats.setdefault(seat, Tendencies())

    def observe(self, events: Sequence[Mapping[str, Any]], me: int | None) -> None:
        """Count the betting actions in ``events`` not counted yet (the events of
        the current hand; a new hand is noticed when the log restarts)."""
        key = tuple(sorted(str(e) for e in events[:3]))
        if key != self._hand_key or len(events) < self._done:
            self._hand_key = key
            self._done = 0
        bet_open = False
        for i, e in enumerate(events):
            kind = e.get("kind")
            if kind == "round":
                bet_open = False
            if i < self._done:
                if kind in ("bet", "raise"):
                    bet_open = True
                continue
            seat = e.get("seat")
            if seat is None or seat == me:
                if kind in ("bet", "raise"):
                    bet_open = True
                continue
            t = self.tendencies(int(seat))
            if kind in ("bet", "raise"):
                t.aggressive += 1
                if bet_open:
                    t.faced += 1
                bet_open = True
            elif kind == "call":
                t.calls += 1
                t.faced += 1
            elif kind == "check":
                t.checks += 1
            elif kind == "fold":
                t.folds += 1
                if bet_open:
                    t.faced += 1
                    t.folded_to_bet += 1
        self._done = len(events)

    def weights(self, game: str, events: Sequence[Mapping[str, Any]], seats: Sequence[int],
                strength: Floats) -> Floats:
        """Per-world weights, shape ``(S,)``: the product over ``seats`` (columns of
        ``strength``, ``(S, k)`` in 0..1) of the likelihood of each one's actions
        in this hand's ``events``."""
        s = strength.shape[0]
        logw = np.zeros(s)
        col = {seat: j for j, seat in enumerate(seats)}
        rounds = _ROUNDS.get(game, 4)
        done = 0
        for e in events:
            kind = e.get("kind")
            if kind == "round":
                done += 1
                continue
            seat = e.get("seat")
            if seat not in col:
                continue
            z = np.clip(strength[:, col[int(seat)]], 0.0, 1.0)
            late = 0.4 + 0.6 * min(1.0, done / rounds)
            t = self.tendencies(int(seat))
            if kind in ("bet", "raise"):
                like = EPS + (1 - EPS) * z ** (t.bet_exponent * late)
            elif kind == "call":
                like = EPS + (1 - EPS) * z ** (t.call_exponent * late)
            elif kind == "check":
                like = 1.0 - 0.5 * z ** 3
            elif kind == "draw" and game == "rollem521" and e.get("count") is not None:
                n = int(e["count"])
                if n == 0:
                    like = EPS + (1 - EPS) * z ** 2
                elif n >= 2:
                    like = 1.0 - 0.6 * z
                else:
                    continue
            else:
                continue
            logw += np.log(like)
        w: Floats = np.exp(logw - logw.max()) if s else logw
        return w
