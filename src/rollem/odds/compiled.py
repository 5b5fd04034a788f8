"""Compiled loops for the Roll Your Own samplers' hottest steps (issue 33).

At 6 players the late Roll Your Own views (:mod:`rollem.odds.ryoseen`) draw
a few hundred thousand candidate cards and weigh as many six-card keeps a
batch, each step whole-batch numpy at a few nanoseconds an element; more
worlds per CPU second narrows the interval shown in play directly (branch
s56-fast). This module holds the same steps as loops compiled by numba
(https://numba.pydata.org), one pass per row and no temporaries:

- :func:`keep_chance_rows`: the fast policy's keep chance
  (:func:`rollem.odds.keepchance.keep_chance`), the same scores, ties and
  floating-point operations, so the same chances bit for bit;
- :func:`pick_each_rows`: :func:`rollem.odds.ryoseen._pick_each`'s uniform
  draws, reading the same ``numpy.random.Generator`` (numba shares its state
  and draws ``random()`` as numpy does) in the same order: the same cards,
  and the generator left where numpy's loop leaves it;
- :func:`search_rows`: :func:`rollem.odds.ryoseen._sample_rows`' search of
  each row's cumulative masses, within the row (the same index as numpy's
  ``searchsorted`` over every row laid end to end).

Every caller keeps its numpy path, used where numba is not installed or
``ROLLEM_NO_NUMBA`` is set in the environment (or :data:`ENABLED` is set
False), and gives the same results either way (tests/test_odds_compiled.py).
The kernels are compiled on their first call and cached on disk next to
this file where it is writable (a second or so once; from the cache a few
milliseconds a process).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from rollem.odds.common import Floats, Ints

try:  # pragma: no branch - either way is tested where numba is installed
    if os.environ.get("ROLLEM_NO_NUMBA"):
        raise ImportError("ROLLEM_NO_NUMBA is set")
    import numba
except ImportError:  # the numpy paths
    numba = None

AVAILABLE = numba is not None
"""Whether numba could be imported (and ``ROLLEM_NO_NUMBA`` is not set)."""

ENABLED = AVAILABLE
"""Whether the samplers call the compiled loops (set False to use the numpy
paths, as the tests comparing the two do)."""


def use() -> bool:
    """Whether the compiled loops are to be used now (:data:`ENABLED`)."""
    return ENABLED


def _jit(fn: Any) -> Any:
    """``fn`` compiled by numba (cached on disk where it can be), or ``fn``
    itself without numba (never called then: the callers check
    :func:`use`)."""
    if numba is None:
        return fn
    try:
        return numba.njit(cache=True, nogil=True)(fn)
    except RuntimeError:  # no writable place for the cache: compiled each process
        return numba.njit(nogil=True)(fn)


def _keep_chance_kernel(kept: Any, thrown: Any, table: Any, keeps: Any,
                        tremble: float) -> Any:  # pragma: no cover - compiled
    n = kept.shape[0]
    out = np.empty(n, dtype=np.float64)
    six = np.empty(6, dtype=np.int64)
    hit_w = 1.0 - tremble
    floor = tremble / 20.0
    for i in range(n):
        for x in range(3):
            six[x] = kept[i, x]
            six[3 + x] = thrown[i, x]
        first = table[six[0] * 2704 + six[1] * 52 + six[2]]
        best = first
        ties = 1
        for t in range(1, 20):
            s = table[six[keeps[t, 0]] * 2704 + six[keeps[t, 1]] * 52 + six[keeps[t, 2]]]
            if s > best:
                best = s
                ties = 1
            elif s == best:
                ties += 1
        hit = 1.0 if first == best else 0.0
        out[i] = hit_w * hit / ties + floor
    return out


_keep_chance_compiled = _jit(_keep_chance_kernel)


def keep_chance_rows(kept: Ints, thrown: Ints, table: Ints, keeps: Ints,
                     tremble: float) -> Floats:
    """:func:`rollem.odds.keepchance.keep_chance` compiled: per row of
    ``kept`` ``(N, 3)`` and ``thrown`` ``(N, 3)`` (cards 0..51), ``(1 -
    tremble) * (the kept three score best) / (keeps of that score) + tremble
    / 20``, the scores read from ``table`` (``52 ** 3`` ``int16``, by cards
    ``c1 * 2704 + c2 * 52 + c3``) for each keep of ``keeps`` ``(20, 3)``
    (indices into the six cards, the first keep the kept three): ``(N,)``
    floats."""
    return np.asarray(_keep_chance_compiled(np.asarray(kept), np.asarray(thrown), table, keeps,
                                            float(tremble)))


def _pick_each_kernel(gen: Any, first: Any, size: Any, width: int, reps: int, m: int,
                      exclude: Any, e: int) -> Any:  # pragma: no cover - compiled
    k = size.shape[0]
    n = k * reps
    out = np.empty((n, m), dtype=np.int64)
    taken = np.zeros(n, dtype=np.int64)
    start = np.empty(n, dtype=np.int64)
    size_r = np.empty(n, dtype=np.float64)
    for d in range(n):
        row = d // reps
        start[d] = row * width
        size_r[d] = float(size[row])
        for x in range(e):
            taken[d] |= np.int64(1) << exclude[d, x]
    card = np.empty(n, dtype=np.int64)
    todo = np.empty(n, dtype=np.int64)
    for i in range(m):
        for d in range(n):
            card[d] = first[start[d] + np.int64(gen.random() * size_r[d])]
        if i or e:
            # the draws that hit a card taken already, in order; drawn again
            # round by round as numpy's loop does (the same stream)
            t = 0
            for d in range(n):
                if taken[d] & (np.int64(1) << card[d]):
                    todo[t] = d
                    t += 1
            while t:
                for x in range(t):
                    d = todo[x]
                    card[d] = first[start[d] + np.int64(gen.random() * size_r[d])]
                left = 0
                for x in range(t):
                    d = todo[x]
                    if taken[d] & (np.int64(1) << card[d]):
                        todo[left] = d
                        left += 1
                t = left
        for d in range(n):
            out[d, i] = card[d]
            taken[d] |= np.int64(1) << card[d]
    return out


_pick_each_compiled = _jit(_pick_each_kernel)


def pick_each_rows(gen: np.random.Generator, first: Ints, size: Ints, width: int,
                   reps: int, m: int, exclude: Ints | None) -> Ints:
    """:func:`rollem.odds.ryoseen._pick_each`'s draws compiled: ``first``
    ``(k * width,)`` each row's available cards first (its ``size[row]``
    of them), ``reps`` draws a row of ``m`` distinct cards, none in the
    draw's row of ``exclude`` ``(k * reps, e)``: ``(k * reps, m)``, from
    ``gen`` in the order the numpy path draws."""
    ex = (np.zeros((len(size) * reps, 0), dtype=np.int64) if exclude is None
          else np.ascontiguousarray(exclude, dtype=np.int64))
    return np.asarray(_pick_each_compiled(gen, first, np.asarray(size, dtype=np.int64),
                                          int(width), int(reps), int(m), ex, ex.shape[1]))


def _search_kernel(cum: Any, u: Any, size: int, row: Any) -> Any:  # pragma: no cover
    n = u.shape[0]
    out = np.empty(n, dtype=np.int64)
    for d in range(n):
        base = row[d] * size
        x = u[d]
        lo, hi = 0, size  # the first index of the row whose sum is over x
        while lo < hi:
            mid = (lo + hi) >> 1
            if cum[base + mid] > x:
                hi = mid
            else:
                lo = mid + 1
        out[d] = lo if lo < size else size - 1
    return out


_search_compiled = _jit(_search_kernel)


def search_rows(cum: Floats, u: Floats, size: int, row: Ints) -> Ints:
    """Per draw ``d`` in row ``row[d]``, the first index ``i`` of that row
    with ``cum[row[d] * size + i] > u[d]``, ``size - 1`` where none: what
    ``clip(searchsorted(cum, u, "right") - row * size, 0, size - 1)`` gives
    where ``u[d]`` is at least the sum before the row (``cum`` ``(rows *
    size,)`` non-decreasing, ``u`` and ``row`` ``(n,)``): ``(n,)``."""
    return np.asarray(_search_compiled(cum, u, int(size), np.asarray(row, dtype=np.int64)))
