"""Numpy evaluation of many five-card hands at once, for the odds calculators.

Built on the lookup tables of :mod:`rollem.hands.tables` and
:mod:`rollem.hands.wild`, so values equal :func:`rollem.hands.high_value`,
:func:`rollem.hands.low_value` and :func:`rollem.hands.wild_value` exactly.
Every function takes an integer array of cards (0..51) whose last axis has
length 5 and returns an ``int64`` array of the leading shape.
"""

from __future__ import annotations

from collections.abc import Collection
from functools import cache
from typing import cast

import numpy as np
import numpy.typing as npt

from rollem.hands.tables import (
    CARD_KEY,
    CARD_RANK_BIT,
    CARD_SUIT_BIT,
    FLUSH_BEST,
    HIGH5,
    LOW5,
    MAX_KEY5,
)
from rollem.hands.wild import flush_table, nonflush_table

__all__ = ["KEY", "RANK_BIT", "SUIT", "high5", "low5", "wild5"]

Cards = npt.NDArray[np.integer]
Values = npt.NDArray[np.int64]

KEY = np.asarray(CARD_KEY, dtype=np.int64)
"""Card -> rank weight (sums of five index the five-card tables)."""
KEY32 = KEY.astype(np.int32)
RANK_BIT = np.asarray(CARD_RANK_BIT, dtype=np.int64)
SUIT = np.arange(52, dtype=np.int64) & 3
SUIT_BIT = np.asarray(CARD_SUIT_BIT, dtype=np.int64)
HIGH5_A = np.asarray(HIGH5, dtype=np.int64)
LOW5_A = np.asarray(LOW5, dtype=np.int64)
FLUSH_A = np.asarray(FLUSH_BEST, dtype=np.int64)


def high5(cards: Cards) -> Values:
    """High values (R-C-2) of five-card hands ``cards[..., 5]``."""
    c = np.asarray(cards)
    shape = c.shape[:-1]
    flat = c.reshape(-1, 5)
    cols = [np.ascontiguousarray(flat[:, i]) for i in range(5)]
    key = KEY32[cols[0]] + KEY32[cols[1]] + KEY32[cols[2]] + KEY32[cols[3]] + KEY32[cols[4]]
    out = HIGH5_A[key]
    s0 = cols[0] & 3
    flush = ((cols[1] & 3) == s0) & ((cols[2] & 3) == s0) & ((cols[3] & 3) == s0) \
        & ((cols[4] & 3) == s0)
    if flush.any():
        f = flat[flush]
        mask = (RANK_BIT[f[:, 0]] | RANK_BIT[f[:, 1]] | RANK_BIT[f[:, 2]] | RANK_BIT[f[:, 3]]
                | RANK_BIT[f[:, 4]])
        out[flush] = FLUSH_A[mask]
    return cast(Values, out.reshape(shape))


def low5(cards: Cards) -> Values:
    """Ace-to-five low values (R-C-3) of five-card hands; greater is lower."""
    c = np.asarray(cards)
    flat = c.reshape(-1, 5)
    key = KEY32[flat[:, 0]] + KEY32[flat[:, 1]] + KEY32[flat[:, 2]] + KEY32[flat[:, 3]] \
        + KEY32[flat[:, 4]]
    return cast(Values, LOW5_A[key].reshape(c.shape[:-1]))


@cache
def _wild_tables(duplicates: bool) -> tuple[Values, Values]:
    nf = np.zeros((6, MAX_KEY5 + 1), dtype=np.int64)
    fl = np.zeros((6, 8192), dtype=np.int64)
    for w in range(6):
        for key, value in nonflush_table(w).items():
            nf[w, key] = value
        fl[w] = np.asarray(flush_table(w, duplicates), dtype=np.int64)
    return nf, fl


def wild5(
    cards: Cards,
    wild_ranks: Collection[int],
    *,
    wild_duplicates: bool = False,
    natural_beats_wild: bool = False,
) -> Values:
    """Wild-card high values (R-RYO-9) of five-card hands, equal to
    :func:`rollem.hands.wild_value` under the same options."""
    c = np.asarray(cards)
    if not wild_ranks:
        out = high5(c)
        return out * 2 + 1 if natural_beats_wild else out
    nf, fl = _wild_tables(wild_duplicates)
    wild = np.isin(c >> 2, np.asarray(sorted(wild_ranks), dtype=np.int64))
    nat = ~wild
    w = wild.sum(axis=-1)
    key = np.where(nat, KEY[c], 0).sum(axis=-1)
    mask = np.bitwise_or.reduce(np.where(nat, RANK_BIT[c], 0), axis=-1)
    suits = np.bitwise_and.reduce(np.where(nat, SUIT_BIT[c], 15), axis=-1)
    out = nf[w, key]
    flush = suits != 0
    out = np.where(flush, np.maximum(out, fl[w, mask]), out)
    if natural_beats_wild:
        return cast(Values, out * 2 + (w == 0))
    return cast(Values, out)
