"""Numpy batch evaluation: many hands at once, equal to the single-hand values.

Each card maps to one ``int64`` word (:func:`_card_words`): bits 0..19 its
rank weight (:data:`rollem.hands.tables.RANK_WEIGHTS`, so the sum over five
cards names their rank multiset), bits 20..35 a 4-bit counter per suit (a
wild card counts in every suit) and bits 36..38 a wild-card counter.  Five
words are summed column by column; a suit counter reaching 5 means a flush
(the counters start at 3 so the fifth card sets bit 3 of the field).  One
gather in a flat table indexed by (wild count, flush, rank key) then gives
the value.  Rows are processed in chunks that stay in cache.

The high and low tables are built in memory (milliseconds); the wild tables
(about 17 MB each) are built on first use and cached on disk under
``~/.cache/rollem/`` (or ``$ROLLEM_CACHE``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection
from functools import cache
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from rollem.hands.tables import FLUSH_BEST, HIGH5, LOW5, MAX_KEY5, RANK_WEIGHTS, rank_multisets
from rollem.hands.wild import flush_table, nonflush_table

__all__ = ["high_values", "low_values", "wild_values"]

_OFF = MAX_KEY5 + 1
_KEY_MASK = (1 << 20) - 1
_SUIT_SHIFT = 20
_FLUSH_OFFSET = np.int64(0x3333 << _SUIT_SHIFT)
_WILD_SHIFT = 36
_CHUNK = 32768
_CACHE_VERSION = 1

IntArray = npt.NDArray[np.int32]
HandArray = npt.NDArray[np.integer[Any]]


def _card_words(wild_ranks: Collection[int] = ()) -> npt.NDArray[np.int64]:
    """The 52 card words for ``wild_ranks`` (a fresh copy of a cached table)."""
    return _card_words_for(frozenset(int(r) for r in wild_ranks)).copy()


@cache
def _card_words_for(wild_ranks: frozenset[int]) -> npt.NDArray[np.int64]:
    words = np.zeros(52, dtype=np.int64)
    for c in range(52):
        if c >> 2 in wild_ranks:
            words[c] = (1 << _WILD_SHIFT) | (0x1111 << _SUIT_SHIFT)
        else:
            words[c] = RANK_WEIGHTS[c >> 2] | (1 << (_SUIT_SHIFT + 4 * (c & 3)))
    return words


@cache
def _high_table() -> IntArray:
    """Index ``flush * _OFF + key`` -> high value of a five-card hand."""
    table = np.zeros(2 * _OFF, dtype=np.int32)
    table[:_OFF] = HIGH5
    for ranks in combinations(range(13), 5):
        key = sum(RANK_WEIGHTS[r] for r in ranks)
        table[_OFF + key] = FLUSH_BEST[sum(1 << r for r in ranks)]
    return table


@cache
def _low_table() -> IntArray:
    return np.array(LOW5, dtype=np.int32)


def _cache_dir() -> Path:
    return Path(os.environ.get("ROLLEM_CACHE", Path.home() / ".cache" / "rollem"))


def _build_wild_table(duplicates: bool) -> IntArray:
    table = np.zeros(6 * 2 * _OFF, dtype=np.int32)
    for wilds in range(6):
        base = wilds * 2 * _OFF
        nonflush = nonflush_table(wilds)
        flushes = flush_table(wilds, duplicates)
        for naturals in rank_multisets(5 - wilds):
            key = sum(RANK_WEIGHTS[r] for r in naturals)
            value = nonflush[key]
            table[base + key] = value
            if len(set(naturals)) == len(naturals):
                mask = sum(1 << r for r in naturals)
                table[base + _OFF + key] = max(value, flushes[mask])
    return table


@cache
def _wild_table_nbw(duplicates: bool) -> IntArray:
    """:func:`_wild_table` for ``natural_beats_wild``: ``2 * value + natural``."""
    table = _wild_table(duplicates) * 2
    table[: 2 * _OFF] += 1  # no wild card in the hand
    return table


@cache
def _wild_table(duplicates: bool) -> IntArray:
    """Index ``(wilds * 2 + flush) * _OFF + natural key`` -> wild value."""
    name = f"wild5_v{_CACHE_VERSION}_{'dup' if duplicates else 'nodup'}.npy"
    path = _cache_dir() / name
    try:
        table: IntArray = np.load(path)
        if table.shape == (12 * _OFF,) and table.dtype == np.int32:
            return table
    except (OSError, ValueError):
        pass
    table = _build_wild_table(duplicates)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        with open(tmp, "wb") as f:
            np.save(f, table)
        tmp.replace(path)
    except OSError:
        pass  # a read-only home: rebuild next time
    return table


def _as_hands(cards: npt.ArrayLike) -> HandArray:
    arr = np.asarray(cards)
    if arr.ndim != 2 or arr.shape[1] < 5:
        raise ValueError(f"expected an array of shape (N, 5) or (N, n>=5), got {arr.shape}")
    if arr.size and (arr.min() < 0 or arr.max() > 51):
        raise ValueError("card ids must be 0..51")
    return arr


def _gather(
    hands: HandArray,
    words: npt.NDArray[np.int64],
    table: IntArray,
    flush: bool,
    wilds: bool,
) -> IntArray:
    out = np.empty(len(hands), dtype=np.int32)
    for start in range(0, len(hands), _CHUNK):
        cols = hands[start : start + _CHUNK].T
        total = words[cols[0]]
        for i in range(1, 5):
            total += words[cols[i]]
        index = total & _KEY_MASK
        if flush:
            flushed = ((total + _FLUSH_OFFSET) >> (_SUIT_SHIFT + 3)) & 0x1111
            index += (flushed != 0) * np.int64(_OFF)
        if wilds:
            index += (total >> _WILD_SHIFT) * np.int64(2 * _OFF)
        out[start : start + _CHUNK] = table[index]
    return out


def _best_of_subsets(hands: HandArray, five: Callable[[HandArray], IntArray]) -> IntArray:
    best: IntArray | None = None
    for idx in combinations(range(hands.shape[1]), 5):
        values = five(hands[:, idx])
        best = values if best is None else np.maximum(best, values)
    assert best is not None
    return best


def high_values(cards: npt.ArrayLike) -> IntArray:
    """High values (R-C-2) of many hands: ``cards`` has shape (N, 5), or
    (N, n) with n > 5 for the best five of each row; distinct card ids
    0..51 per row.  Returns an ``int32`` array of N values equal to
    :func:`rollem.hands.high_value` of each row.

    Raises:
        ValueError: on a bad shape or a card id out of range.
    """
    hands = _as_hands(cards)
    if hands.shape[1] > 5:
        return _best_of_subsets(hands, high_values)
    return _gather(hands, _card_words(), _high_table(), flush=True, wilds=False)


def low_values(cards: npt.ArrayLike) -> IntArray:
    """Ace-to-five low values (R-C-3) of many hands, shapes as
    :func:`high_values`; equal to :func:`rollem.hands.low_value` per row."""
    hands = _as_hands(cards)
    if hands.shape[1] > 5:
        return _best_of_subsets(hands, low_values)
    return _gather(hands, _card_words(), _low_table(), flush=False, wilds=False)


def wild_values(
    cards: npt.ArrayLike,
    wild_ranks: Collection[int],
    *,
    wild_duplicates: bool = False,
    natural_beats_wild: bool = False,
) -> IntArray:
    """Wild-card high values (R-RYO-9) of many hands, shapes as
    :func:`high_values`; equal to :func:`rollem.hands.wild_value` with the
    same ``wild_ranks`` and options per row."""
    hands = _as_hands(cards)
    if hands.shape[1] > 5:

        def five(h: HandArray) -> IntArray:
            return wild_values(
                h,
                wild_ranks,
                wild_duplicates=wild_duplicates,
                natural_beats_wild=natural_beats_wild,
            )

        return _best_of_subsets(hands, five)
    wild_set = frozenset(int(r) for r in wild_ranks)
    pick = _wild_table_nbw if natural_beats_wild else _wild_table
    table = pick(wild_duplicates)
    return _gather(hands, _card_words(wild_set), table, flush=True, wilds=True)
