"""The fast policy's chance of a Roll Your Own keep, for many hands at once.

The Roll Your Own samplers (:mod:`rollem.odds.ryoseen`) weigh every
candidate deal by the chance the fast policy keeps the three cards a world
says an opponent kept (R-RYO-2): some hundred thousand six-card hands a
batch, a fifth of a batch's CPU before this module (issue 33, branch
s56-fast). :func:`keep_chance` gives exactly what the per-row reading of
:func:`rollem.odds.policy.keep_ranks_fast` gave (the same scores, ties and
floating-point operations, bit for bit),
in about half the time: the 20 keeps' table indices are counted card row
by card row (``(6, N)``, ``int32``: three whole-row operations a keep, not
a gather of ``(N, 20)`` three times; for a few hands, one small matrix
product), and the scores are laid out keep by keep ``(20, N)``, so the
best score and its ties are read across 20 rows of ``N`` rather than
within ``N`` rows of 20.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from rollem.odds import compiled
from rollem.odds.common import Floats, Ints
from rollem.odds.policy import TRIPLES, _keep_table_by_cards

_KEEPS = [(int(a), int(b), int(c)) for a, b, c in TRIPLES]
"""The 20 keeps of :data:`rollem.odds.policy.TRIPLES` as tuples of indices
into the six cards (the kept three first, then the thrown three)."""


ROW_BY_ROW = 2000
"""From this many hands up :func:`keep_chance` counts the keeps' indices
card row by card row (fewer passes over memory); below it, by one matrix
product (fewer calls: the Metropolis steps ask for a few hundred hands at a
time). Measured (branch s56-fast, microseconds, old per-row reading / row by
row / product): 300 hands 43 / 57 / 28, 1,000 101 / 76 / 65, 3,000 284 /
143 / 163, 30,000 2,908 / 1,442 / 1,715."""


@cache
def _index_matrices() -> tuple[Floats, Floats]:
    """Per keep of :data:`rollem.odds.policy.TRIPLES` (rows), the weight of
    each of the kept three's and the thrown three's cards (columns) in the
    keep's index ``c1 * 2704 + c2 * 52 + c3`` of
    :func:`rollem.odds.policy._keep_table_by_cards`: two ``(20, 3)`` float
    matrices."""
    m = np.zeros((20, 6))
    for t, (a, b, c) in enumerate(_KEEPS):
        m[t, a] += 2704
        m[t, b] += 52
        m[t, c] += 1
    return np.ascontiguousarray(m[:, :3]), np.ascontiguousarray(m[:, 3:])


def keep_chance(kept: Ints, thrown: Ints, tremble: float) -> Floats:
    """The fast policy's chance, per row, that a player dealt ``kept``
    ``(N, 3)`` and ``thrown`` ``(N, 3)`` (cards 0..51) keeps ``kept``: ``1 -
    tremble`` shared alike among the keeps of the best score
    (:meth:`rollem.odds.policy.FastPolicy.keep_scores`), and ``tremble / 20``
    on each of the 20 keeps (R-RYO-2): ``(N,)`` floats, equal bit for bit
    to ``(1 - tremble) * (scores[:, 0] == best) / ties + tremble / 20``.

    >>> float(keep_chance(np.array([[48, 49, 50]]), np.array([[0, 5, 10]]), 0.0)[0])
    1.0
    >>> float(keep_chance(np.array([[0, 5, 10]]), np.array([[48, 49, 50]]), 0.1)[0])
    0.005
    """
    n = len(kept)
    if n == 0:
        return np.zeros(0)
    if compiled.use():  # one compiled pass, the same chances (issue 33, branch s57-ryo)
        return compiled.keep_chance_rows(kept, thrown, _keep_table_by_cards().reshape(-1),
                                         tremble)
    if n < ROW_BY_ROW:
        # few hands: one small matrix product (whole numbers below 2 ** 18, exact)
        mk, mt = _index_matrices()
        product = mk @ np.asarray(kept, dtype=np.float64).T
        product += mt @ np.asarray(thrown, dtype=np.float64).T
        index = product.astype(np.int32)
    else:
        cards = np.empty((6, n), dtype=np.int32)  # card by card, each a row of N
        cards[:3] = np.asarray(kept).T
        cards[3:] = np.asarray(thrown).T
        by_52 = cards * 52
        by_2704 = by_52 * 52
        index = np.empty((20, n), dtype=np.int32)
        for t, (a, b, c) in enumerate(_KEEPS):  # c1 * 2704 + c2 * 52 + c3, keep by keep
            np.add(by_2704[a], by_52[b], out=index[t])
            index[t] += cards[c]
    scores = np.take(_keep_table_by_cards().reshape(-1), index)  # (20, N)
    best = scores.max(axis=0)
    ties = np.add.reduce(scores == best, axis=0, dtype=np.int16)  # (1 to 20)
    return np.asarray((1 - tremble) * (scores[0] == best) / ties + tremble / 20,
                      dtype=np.float64)
