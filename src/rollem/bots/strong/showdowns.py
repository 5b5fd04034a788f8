"""Showdown reads: how each opponent's last-round bets and raises really stood
against what the reads said, learned from the hands it showed down (issue 31,
eleventh pass).

The reads (:mod:`rollem.bots.strong.reads`) turn an opponent's actions into a
weight per sampled world from its observed rates alone. A hand's end
(:meth:`rollem.bots.Bot`'s ``observe_hand_end``) shows the cards of every
player who showed down, so for each last-round spot where the bot faced an
opponent's bet or raise heads-up in Stop, Drop and Roll and that opponent then
showed its hand, the book knows where its real hand stood in the read range
at the time: the read's weighted share of worlds whose opponent hand was
worse, ``u`` (ties count half; the probability integral transform). A read
that is right puts ``u`` uniform on 0..1; one that takes the opponent's bets
for stronger than they are puts it low (the tenth pass: ``strongtrap``'s bets
read too strong, ``strong``'s after a check too weak).

Per opponent and *line* (``"bet"`` or ``"raise"``, and whether the opponent
had checked earlier in the hand: a trap line), the ``u`` seen fall in
:data:`BINS` equal bins. The density by bin, shrunk first toward the
opponent's own pooled density over all its lines (:data:`LINE_PRIOR` hands),
that toward uniform (:data:`POOL_PRIOR`), is the recalibration: facing that
line again, each world's weight is multiplied by the density of its ``u``
bin (:meth:`ShowdownBook.factor`). With no showdown seen it is 1 everywhere,
so a new opponent reads as before.

Which spots show down does not depend on the opponent's cards once it has
bet the last round (the bot's call or fold goes by its own cards), so the
``u`` seen are a fair sample of the line. Only the bot's real decisions
(``act``, not ``policy``'s enumeration) note a spot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["BINS", "LINE_PRIOR", "POOL_PRIOR", "ShowdownBook", "line_faced", "read_ranks"]

Floats = npt.NDArray[np.float64]

BINS = 4
"""Equal bins of ``u`` (the read's share of worse hands) per line."""
POOL_PRIOR = 8.0
"""How many showdowns' worth the uniform density weighs in an opponent's pooled
density (its lines together)."""
LINE_PRIOR = 8.0
"""How many showdowns' worth the opponent's pooled density weighs in one line's."""


def line_faced(events: Sequence[Mapping[str, Any]], me: int | None) -> tuple[int, str] | None:
    """The opponent whose bet or raise ``me`` faces now and its line, or ``None``
    (the current round's last bet or raise is ``me``'s own, or there is none).

    The line: ``"bet"`` or ``"raise"`` (the kind of that action), with ``" after
    a check"`` when that opponent checked earlier in the hand (any round; a
    check-raise included)."""
    seat: object = None
    kind = ""
    at = -1
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        k = e.get("kind")
        if k == "round":
            break
        if k in ("bet", "raise"):
            seat, kind, at = e.get("seat"), str(k), i
            break
    if seat is None or seat == me or not isinstance(seat, int):
        return None
    checked = any(e.get("kind") == "check" and e.get("seat") == seat for e in events[:at])
    return seat, kind + (" after a check" if checked else "")


def read_ranks(values: npt.NDArray[Any], weights: Floats) -> Floats:
    """Per world, the weighted share of worlds whose value is below its own (ties
    half): each world's place ``u`` in the read range, 0..1. ``weights`` not all
    zero."""
    p = weights / weights.sum()
    order = np.argsort(values, kind="stable")
    v = values[order]
    cum = np.concatenate([[0.0], np.cumsum(p[order])])
    lo = np.searchsorted(v, values, side="left")
    hi = np.searchsorted(v, values, side="right")
    out: Floats = (cum[lo] + cum[hi]) / 2.0
    return out


def rank_of(value: float, values: npt.NDArray[Any], weights: Floats) -> float:
    """``u`` of one hand of ``value`` in the read range (``values`` per world,
    ``weights`` the read): the weighted share of worse hands, ties half."""
    p = weights / weights.sum()
    return float(p[values < value].sum() + 0.5 * p[values == value].sum())


@dataclass
class Spot:
    """A decision facing an opponent's last-round bet or raise, kept until the
    hand's end: whose bet, its line, and the read range then (the opponent's
    hand value per world and the read's weights)."""

    hand: object
    seat: int
    line: str
    values: npt.NDArray[Any]
    weights: Floats


class ShowdownBook:
    """Per opponent and line, the bins of ``u`` seen at showdown (see the module
    doc)."""

    def __init__(self) -> None:
        self.counts: dict[int, dict[str, Floats]] = {}
        self._spots: list[Spot] = []

    def forget(self, seat: int) -> None:
        """Someone new sits at ``seat``: drop what its showdowns said."""
        self.counts.pop(seat, None)
        self._spots = [s for s in self._spots if s.seat != seat]

    def note(self, hand: object, seat: int, line: str, values: npt.NDArray[Any],
             weights: Floats) -> None:
        """Keep a spot of hand ``hand`` (a key equal for every view of one hand)
        until the hand's end; spots of earlier hands not ended are dropped."""
        if float(weights.sum()) <= 0:
            return
        self._spots = [s for s in self._spots if s.hand == hand]
        self._spots.append(Spot(hand, seat, line, np.asarray(values).copy(),
                                np.asarray(weights, dtype=np.float64).copy()))

    def shown(self, hand: object, value_of: Mapping[int, float]) -> int:
        """The hand ``hand`` ended, with ``value_of`` each shown opponent's hand value
        (as the spots' ``values``): count each kept spot's ``u``; drop them all.
        Returns the spots counted."""
        n = 0
        for s in self._spots:
            if s.hand != hand or s.seat not in value_of:
                continue
            u = rank_of(value_of[s.seat], s.values, s.weights)
            b = min(BINS - 1, int(u * BINS))
            self.counts.setdefault(s.seat, {}).setdefault(s.line, np.zeros(BINS))[b] += 1
            n += 1
        self._spots = []
        return n

    def density(self, seat: int, line: str) -> Floats | None:
        """The shrunk density of ``u`` by bin (mean 1) for ``seat``'s ``line``, or
        ``None`` when no showdown of ``seat`` was seen."""
        lines = self.counts.get(seat)
        if not lines:
            return None
        pooled = sum(lines.values(), np.zeros(BINS))
        n = float(pooled.sum())
        pool = (pooled + POOL_PRIOR / BINS) / (n + POOL_PRIOR)
        mine = lines.get(line, np.zeros(BINS))
        m = float(mine.sum())
        share = (mine + LINE_PRIOR * pool) / (m + LINE_PRIOR)
        out: Floats = share * BINS
        return out

    def factor(self, seat: int, line: str, values: npt.NDArray[Any],
               weights: Floats) -> Floats | None:
        """Per world, the recalibration of the read facing ``seat``'s ``line``: the
        density of the bin of the world's ``u`` (``None`` when nothing was seen:
        the read as it is)."""
        d = self.density(seat, line)
        if d is None or float(weights.sum()) <= 0:
            return None
        u = read_ranks(values, weights)
        bins = np.minimum(BINS - 1, (u * BINS).astype(np.int64))
        out: Floats = d[bins]
        return out
