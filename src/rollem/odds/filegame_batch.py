"""The plain model's showdown (:mod:`rollem.odds.filegame`) for many worlds at once,
with numpy, for a game file whose hands are made of exactly ``hole`` hole cards
and ``board`` board cards (Omaha: two and three) and no wild cards: each
seat's best high and its ace-to-five low, equal to the per-world scorer.

Why (stop 51): ``rollem odds --history`` on a 10-player Omaha hi-lo hand took
about 19 s, 20,000 worlds times 7 seats times 60 five-card hands each (6 pairs of
hole cards times 10 triples of the board), each a Python ``high_value`` call
(cProfile: 44 of 48 s in ``high_of``).  Here the same five-card hands go through
:mod:`rollem.hands.batch`'s table gathers, a world chunk at a time.

A low is the best :func:`rollem.hands.low_value` of the same five-card hands,
qualified after the maximum: a qualifying ace-to-five low (no pair, no card
above the qualifier) is worth more than every low that does not qualify (the
threshold of :func:`rollem.engine.showdown.qualifies`), so the best of all the
hands qualifies exactly when one of them does, and is then the best of those
made of low cards alone, the per-world scorer's.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from rollem.hands.encoding import LOW_BASE

__all__ = ["NO_LOW", "batch_fits", "best_hands"]

NO_LOW = -1
"""The low of a seat whose low does not qualify (or a pot without a low half)."""

IntArray = npt.NDArray[np.int64]


def batch_fits(params: dict[str, Any], wild_ranks: Any) -> bool:
    """Whether a showdown's ``params`` (the game file's last step) are worked out
    here: ``hole`` cards with the board, no wild card, a high and/or an
    ace-to-five low (not deuce-to-seven, not a declare)."""
    return (bool(params.get("hole")) and not (params.get("wild") and len(wild_ranks))
            and params.get("pot") in ("high", "low", "high-low")
            and params.get("low") in (None, "ace-to-five")
            and (params.get("high") in (None, "standard")))


@cache
def _fives(own: int, board: int, hole: int, need_board: int) -> npt.NDArray[np.intp]:
    """Column indices (C, 5) into a row of ``own`` hole cards then ``board`` board
    cards: every ``hole`` of the first with every ``need_board`` of the rest, in
    the per-world scorer's order."""
    rows = [h + tuple(own + b for b in bs)
            for h in combinations(range(own), hole)
            for bs in combinations(range(board), need_board)]
    return np.array(rows, dtype=np.intp).reshape(-1, 5)


def best_hands(own: npt.NDArray[np.integer[Any]], board: npt.NDArray[np.integer[Any]], *,
               hole: int, need_board: int, high: bool, low: bool,
               qualifier: int) -> tuple[IntArray, IntArray]:
    """Each world's best high and low for one seat: ``own`` (W, n) its hole cards,
    ``board`` (W, b) the board (card ids 0..51, each row's cards distinct).

    Returns ``(highs, lows)``, each (W,) ``int64``: :func:`rollem.hands.high_value`
    of its best five (0 without ``high``) and :func:`rollem.hands.low_value` of
    its best qualifying low (:data:`NO_LOW` without ``low`` or none qualifying;
    ``qualifier`` 0: any low).
    """
    from rollem.hands.batch import best_of_fives

    worlds = own.shape[0]
    cards = np.concatenate([own, board], axis=1)
    fives = _fives(own.shape[1], board.shape[1], hole, need_board)
    best_high, best_low = best_of_fives(cards, fives, high=high, low=low)
    highs = (best_high.astype(np.int64) if best_high is not None
             else np.zeros(worlds, dtype=np.int64))
    if best_low is None:
        return highs, np.full(worlds, NO_LOW, dtype=np.int64)
    lows = best_low.astype(np.int64)
    if qualifier:
        lows = np.where(LOW_BASE - lows < (qualifier << 16), lows, NO_LOW)
    return highs, lows
