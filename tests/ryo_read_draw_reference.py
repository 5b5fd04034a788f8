"""``rollem.odds.compiled.read_draw`` as it was before branch s67-fast (main at
6f1a7d0d), kept as the reference the faster kernel is checked against: from the
same generator it must give the same candidates, factors and generator state
bit for bit (tests/test_odds_compiled_fast.py). Compiled by numba at first use
(its helpers: the module's compiled ones, so :func:`rollem.odds.compiled.wait` first)."""

from __future__ import annotations

from typing import Any

import numpy as np

from rollem.odds import compiled
from rollem.odds.common import Floats, Ints
from rollem.odds.look521 import Bools

_COMPILED: list[Any] = []
_next_u: Any = None
_first_over: Any = None
_log_falling_one: Any = None


def _reference_kernel(gen: Any, unif: Any, origin: Any, avail: Any, named: Any, order: Any,
                      draws: Any,
                      j: int, mode: Any, n_up: Any, kept_up: Any,
                      single: Any, pair: Any, lf: Any, reps: int, out_kept: Any,
                      out_val: Any, factor: Any) -> None:
    # per world, its origin's candidates: the hidden kept cards (uniform or
    # from the origin's guide, single or pair), the fresh slots' cards
    # uniformly among the rest, laid out as _read_names_kernel does, and each
    # candidate's factor: the ways to name the rest after over before, over
    # the proposal's chance of it
    k = origin.shape[0]
    d = draws.shape[0]
    w = 3 + d
    labels = named.shape[1]
    cards = np.empty(52, dtype=np.int64)
    row_mass = np.empty(52, dtype=np.float64)
    cum = np.empty(52, dtype=np.float64)  # the first cards' running sums
    pick = np.empty(6, dtype=np.int64)
    at = 0  # the uniforms used
    cur = np.empty(w, dtype=np.int64)  # each slot's card where named (-1: not yet)
    fresh = np.zeros(w, dtype=np.bool_)  # the slots the candidates name
    dup = np.full(max(d, 1), -1, dtype=np.int64)  # a draw of its own discard: which
    for row in range(k):
        # the slots: its three discards (labels 3 j ..), then its draws (a
        # label, or a discard of the seat there)
        for x in range(w):
            lab = 3 * j + x
            if x >= 3:
                it = order[row, draws[x - 3]]
                lab = it - 52 if it >= 52 else -1
                cur[x] = named[row, lab] if lab >= 0 else it
                own = lab - 3 * j
                dup[x - 3] = own if lab >= 0 and 0 <= own < 3 else -1
            else:
                cur[x] = named[row, lab]
            fresh[x] = cur[x] == -1 and lab >= 0 and (x < 3 or dup[x - 3] < 0)
        i = origin[row]
        u = n_up[i]
        f = 3 - u
        md = mode[i]
        a = 0
        for c in range(52):
            if avail[row, c]:
                cards[a] = c
                a += 1
        nf = 0
        for x in range(w):
            if fresh[x]:
                nf += 1
        un = 0
        for x in range(labels):
            if named[row, x] < 0:
                un += 1
        count = (_log_falling_one(lf, a - f - nf, un - nf)
                 - _log_falling_one(lf, a, un))
        if a < f + nf:
            raise ValueError("fewer unknown cards are left than a read needs")
        base = 0.0
        z = 0.0
        if md == 0:  # q = f! / (A)_(f + nf)
            base = count - (lf[f] - _log_falling_one(lf, a, f + nf))
        else:  # q = (p / Z) / (A - f)_nf
            base = count + _log_falling_one(lf, a - f, nf)
            if md == 1:
                for t in range(a):
                    row_mass[t] = single[i, cards[t]]
                    z += row_mass[t]
                    cum[t] = z
            else:  # each available first card's share of the available pairs
                for t in range(a):
                    row_mass[t] = 0.0
                for t in range(a):
                    c = cards[t]
                    s = row_mass[t]
                    for t2 in range(t + 1, a):
                        p = pair[i, c, cards[t2]]
                        s += p
                        row_mass[t2] += p
                    row_mass[t] = s
                for t in range(a):
                    z += row_mass[t]
                    cum[t] = z
        scale = np.exp(base)  # (times the guide's Z / p of the set drawn)
        for rep in range(reps):
            taken = np.int64(0)
            ratio = 1.0
            if md == 0:
                for x in range(f):
                    while True:
                        v, at = _next_u(gen, unif, at)
                        c = cards[np.int64(v * a)]
                        if not taken & (np.int64(1) << c):
                            break
                    pick[x] = c
                    taken |= np.int64(1) << c
            elif z > 0.0:
                v, at = _next_u(gen, unif, at)
                t1 = _first_over(cum, 0, a, v * z)
                while row_mass[t1] <= 0.0:  # (the point rounded onto the end)
                    t1 -= 1
                c1 = cards[t1]
                pick[0] = c1
                taken |= np.int64(1) << c1
                if md == 1:
                    ratio = z / single[i, c1]
                else:
                    v, at = _next_u(gen, unif, at)
                    x1 = v * row_mass[t1]
                    run = 0.0
                    t2 = -1
                    last = -1
                    for t in range(a):
                        p = pair[i, c1, cards[t]]
                        if p > 0.0:
                            last = t
                            run += p
                            if run > x1:
                                t2 = t
                                break
                    if t2 < 0:
                        t2 = last
                    c2 = cards[t2]
                    pick[1] = c2
                    taken |= np.int64(1) << c2
                    ratio = (z / 2.0) / pair[i, c1, c2]
            else:  # no set of the guide left: weight 0, any cards
                for x in range(f):
                    pick[x] = cards[x]
                    taken |= np.int64(1) << cards[x]
                ratio = 0.0
            for x in range(u):
                out_kept[row, rep, x] = kept_up[i, x]
            for x in range(f):
                out_kept[row, rep, u + x] = pick[x]
            for x in range(w):
                if fresh[x]:
                    while True:
                        v, at = _next_u(gen, unif, at)
                        c = cards[np.int64(v * a)]
                        if not taken & (np.int64(1) << c):
                            break
                    taken |= np.int64(1) << c
                    out_val[row, rep, x] = c
                else:
                    out_val[row, rep, x] = cur[x]
            for r in range(d):  # a draw of its own discard is that discard's card
                if dup[r] >= 0:
                    out_val[row, rep, 3 + r] = out_val[row, rep, dup[r]]
            factor[row, rep] = scale * ratio


def reference_read_draw(gen: np.random.Generator, origin: Ints, avail: Bools, named: Ints,
                        order: Ints, draws: Ints, j: int, mode: Ints, n_up: Ints,
                        kept_up: Ints, single: Floats, pair: Floats, log_factorial: Floats,
                        reps: int) -> tuple[Ints, Ints, Floats]:
    """The old wrapper: every uniform drawn in bulk (``k * reps * (3 + d + 2)``), the
    old kernel (each pair's second card by a running scan, every row's masses anew)."""
    import numba

    if not _COMPILED:  # (the module's compiled helpers, called as the old kernel called them)
        globals().update(_next_u=compiled._next_u_compiled,
                         _first_over=compiled._first_over_compiled,
                         _log_falling_one=compiled._log_falling_one_compiled)
        _COMPILED.append(numba.njit(nogil=True)(_reference_kernel))
    k = len(origin)
    w = 3 + len(draws)
    out_kept = np.zeros((k, reps, 3), dtype=np.int64)
    out_val = np.zeros((k, reps, w), dtype=np.int64)
    factor = np.zeros((k, reps))
    _COMPILED[0](gen, gen.random(k * reps * (2 + w)),
                 np.ascontiguousarray(origin, dtype=np.int64),
                 np.ascontiguousarray(avail, dtype=np.bool_),
                 np.ascontiguousarray(named, dtype=np.int64),
                 np.ascontiguousarray(order, dtype=np.int64),
                 np.ascontiguousarray(draws, dtype=np.int64), int(j),
                 mode, n_up, kept_up, single, pair, log_factorial, int(reps),
                 out_kept, out_val, factor)
    return out_kept, out_val, factor
