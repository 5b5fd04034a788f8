"""Vectorised worlds of the plain model for games with a hole/board rule (issue 33).

Omaha and Omaha hi-lo (a game file's showdown with ``hole`` and ``board``:
exactly two own cards and exactly three board cards) take the best of
C(4, 2) x C(5, 3) = 60 five-card hands per player per world, for the high
and again for the low. :mod:`rollem.odds.filegame` scored that one world and
one five-card hand at a time in Python (about 0.12 s for 1,000 worlds at 6
players, so a 1 s budget ended some 6-player runs wider than ±1.5 points,
branch s50-odds); here every world of a chunk and every one of its 60 hands
is scored at once with numpy (:func:`rollem.hands.batch.hole_board_values`).

The law is the plain model's, unchanged (:mod:`rollem.odds.filegame`): the
unseen cards are dealt uniformly at random (numpy's generator in place of
``random.Random``: the same law, other draws), each player's high is the
best two-and-three high (R-C-2), its low the best two-and-three ace-to-five
low (R-C-3) that qualifies, none when none does; the pot's shares are the
scalar model's (:func:`world_shares`). Wild ranks are not read under a hole
rule, as in the scalar model. The values, and the shares given them, equal
the scalar model's exactly (tests/test_odds_holeboard.py checks thousands of
seeded random Omaha hi and hi-lo hands).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from rollem.odds.common import Progress, draw, np_rng
from rollem.odds.result import Odds

if TYPE_CHECKING:
    from rollem.games.gamefile import GameSpec

__all__ = ["CHUNK", "NO_LOW", "hole_board_odds", "vectorised", "world_shares",
           "world_values"]

CHUNK = 4096
"""Worlds drawn and scored at a time (memory: about ``CHUNK x 60`` words per
player and a few such arrays)."""
NO_LOW = -1
"""The low value of a hand with no qualifying low (below every real one)."""

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]


def vectorised(spec: GameSpec) -> bool:
    """True when ``spec``'s showdown is scored here: a hole/board rule
    (``hole`` > 0) and a pot of ``high``, or a low of ``ace-to-five``
    (the deuce-to-seven low and the declare showdown stay with the scalar
    model of :mod:`rollem.odds.filegame`)."""
    p = spec.steps[-1].params
    if not p["hole"] or p["pot"] == "declare":
        return False
    return bool(p["pot"] == "high" or p["low"] == "ace-to-five")


@cache
def _qualified_low_table(qualifier: int) -> npt.NDArray[np.int32]:
    """The ace-to-five table with :data:`NO_LOW` where a low does not qualify
    (:func:`rollem.engine.showdown.qualifies`: a pair, or a card over the
    ``qualifier`` rank; 0 = every low qualifies)."""
    from rollem.hands.batch import _low_table
    from rollem.hands.encoding import LOW_BASE

    table = _low_table().copy()
    if qualifier:
        ok = (LOW_BASE - table.astype(np.int64)) < (qualifier << 16)
        table[~ok] = NO_LOW
    return table


def world_values(spec: GameSpec, own: Sequence[npt.NDArray[np.integer[Any]]],
                 board: npt.NDArray[np.integer[Any]]) -> tuple[Ints, Ints | None]:
    """Every player's high and low value in every world.

    Args:
        spec: the game file (its showdown's ``pot``, ``hole``, ``board``,
            ``qualifier``; :func:`vectorised` must hold).
        own: per player (the viewer first), its cards in each world, shape
            ``(S, n)``.
        board: the board in each world, shape ``(S, m)``.

    Returns:
        ``(highs, lows)``, each shape ``(S, players)``: highs (R-C-2, greater
        is better; zeros for a low-only pot), lows (R-C-3, greater is lower;
        :data:`NO_LOW` where none qualifies), ``None`` for a high-only pot.
    """
    from rollem.hands.batch import hole_board_values

    p = spec.steps[-1].params
    pot, hole, from_board = p["pot"], p["hole"], p["board"]
    s = len(board)
    highs = np.zeros((s, len(own)), dtype=np.int64)
    lows = np.full((s, len(own)), NO_LOW, dtype=np.int64) if pot != "high" else None
    table = _qualified_low_table(int(p["qualifier"])) if lows is not None else None
    for i, cards in enumerate(own):
        if pot != "low":
            highs[:, i] = hole_board_values(cards, board, hole=hole, from_board=from_board)
        if lows is not None:
            lows[:, i] = hole_board_values(cards, board, hole=hole, from_board=from_board,
                                           low=True, low_table=table)
    return highs, lows


def _shares(values: Ints) -> Floats:
    """Seat 0's share of one pot per world among ``values`` (S, players);
    :data:`NO_LOW` is not in it (no share; nobody in it: 0)."""
    best = values.max(axis=1)
    mine = values[:, 0]
    ties = (values == best[:, None]).sum(axis=1)
    won = (mine == best) & (mine != NO_LOW)
    return np.where(won, 1.0 / ties, 0.0)


def world_shares(pot: str, highs: Ints, lows: Ints | None) -> Floats:
    """The viewer's (column 0's) share of the pot in each world, as the scalar
    model's: high or low pot whole; a high-low pot in halves when any low
    qualifies, else whole to the high (R-C-2, R-C-3)."""
    if pot == "high" or lows is None:
        return _shares(highs)
    if pot == "low":
        return _shares(lows)
    high = _shares(highs)
    any_low = lows.max(axis=1) != NO_LOW
    return np.where(any_low, 0.5 * high + 0.5 * _shares(lows), high)


def hole_board_odds(spec: GameSpec, players: Sequence[tuple[Sequence[int], int]],
                    board: Sequence[int], board_more: int, unseen: Sequence[int], *,
                    samples: int, game_id: str, rng: random.Random | None = None,
                    seed: int | None = None, progress: Progress | None = None) -> Odds:
    """The viewer's Monte Carlo odds in a hole/board game (the module doc).

    Args:
        spec: the game file (:func:`vectorised` holds).
        players: per player still in (the viewer first), ``(known cards, cards
            still to come)``.
        board, board_more: the board so far and how many board cards are to come.
        unseen: the cards the viewer has not seen, from which everything still
            to come is dealt uniformly.
        samples: worlds (at least 1; the caller has checked that enough
            cards are unseen).

    Returns:
        :class:`Odds` as :func:`rollem.odds.filegame.file_game_odds` gives
        (``stderr`` from the worlds' population variance).

    Raises:
        OddsError: a negative ``seed`` (:func:`rollem.odds.common.np_rng`).
    """
    gen = np_rng(rng, seed)
    pool = np.asarray(unseen, dtype=np.int64)
    need = board_more + sum(more for _, more in players)
    pot = spec.steps[-1].params["pot"]
    total = total_sq = 0.0
    wins = ties = 0
    done = 0
    while done < samples:
        n = min(CHUNK, samples - done)
        drawn = draw(gen, pool, n, need)
        k = board_more
        full_board = np.concatenate(
            [np.broadcast_to(np.asarray(board, dtype=np.int64), (n, len(board))),
             drawn[:, :k]], axis=1)
        own = []
        for known, more in players:
            fixed = np.broadcast_to(np.asarray(known, dtype=np.int64), (n, len(known)))
            own.append(np.concatenate([fixed, drawn[:, k:k + more]], axis=1))
            k += more
        highs, lows = world_values(spec, own, full_board)
        share = world_shares(pot, highs, lows)
        total += float(share.sum())
        total_sq += float((share * share).sum())
        wins += int((share >= 1.0).sum())
        ties += int(((share > 0.0) & (share < 1.0)).sum())
        done += n
        if progress is not None:
            progress(done, samples)
    mean = total / samples
    var = max(total_sq / samples - mean * mean, 0.0)
    return Odds(win=wins / samples, tie=ties / samples,
                lose=(samples - wins - ties) / samples, equity=mean, method="monte-carlo",
                samples=samples, stderr=math.sqrt(var / samples), game=game_id)
