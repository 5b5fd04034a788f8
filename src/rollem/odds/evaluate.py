"""Numpy evaluation of many five-card hands at once, for the odds calculators.

Thin shape adapters over the batch path :mod:`rollem.hands.batch`, so values
equal :func:`rollem.hands.high_value`, :func:`rollem.hands.low_value` and
:func:`rollem.hands.wild_value` exactly. Every function takes an integer
array of cards (0..51) whose last axis has length 5 and returns an ``int64``
array of the leading shape. The raw tables (:data:`KEY`, :data:`HIGH5_A`,
:data:`FLUSH_A` ...) serve the exact Stop, Drop and Roll enumeration, which
combines two-card and three-card partial sums itself.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np
import numpy.typing as npt

from rollem.hands.batch import high_values, low_values, wild_values
from rollem.hands.tables import (
    CARD_KEY,
    CARD_RANK_BIT,
    FLUSH_BEST,
    HIGH5,
)

__all__ = ["KEY", "RANK_BIT", "SUIT", "high5", "low5", "wild5"]

Cards = npt.NDArray[np.integer]
Values = npt.NDArray[np.int64]

KEY = np.asarray(CARD_KEY, dtype=np.int64)
"""Card -> rank weight (sums of five index the five-card tables)."""
RANK_BIT = np.asarray(CARD_RANK_BIT, dtype=np.int64)
SUIT = np.arange(52, dtype=np.int64) & 3
HIGH5_A = np.asarray(HIGH5, dtype=np.int64)
FLUSH_A = np.asarray(FLUSH_BEST, dtype=np.int64)


def _rows(cards: Cards) -> tuple[tuple[int, ...], Cards]:
    c = np.asarray(cards)
    return c.shape[:-1], c.reshape(-1, 5)


def high5(cards: Cards) -> Values:
    """High values (R-C-2) of five-card hands ``cards[..., 5]``
    (:func:`rollem.hands.batch.high_values`)."""
    shape, rows = _rows(cards)
    return high_values(rows).astype(np.int64).reshape(shape)


def low5(cards: Cards) -> Values:
    """Ace-to-five low values (R-C-3) of five-card hands; greater is lower
    (:func:`rollem.hands.batch.low_values`)."""
    shape, rows = _rows(cards)
    return low_values(rows).astype(np.int64).reshape(shape)


def wild5(
    cards: Cards,
    wild_ranks: Collection[int],
    *,
    wild_duplicates: bool = False,
    natural_beats_wild: bool = False,
) -> Values:
    """Wild-card high values (R-RYO-9) of five-card hands, equal to
    :func:`rollem.hands.wild_value` under the same options
    (:func:`rollem.hands.batch.wild_values`)."""
    shape, rows = _rows(cards)
    values = wild_values(rows, wild_ranks, wild_duplicates=wild_duplicates,
                         natural_beats_wild=natural_beats_wild)
    return values.astype(np.int64).reshape(shape)
