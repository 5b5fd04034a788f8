"""`assignments` with its combination tables kept between calls (issue 31,
twenty-third pass): the same rows, in the same order, as built afresh."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import numpy as np

from rollem.odds import common
from rollem.odds.common import assignments, count_assignments


def _afresh(pool: np.ndarray, sizes: Sequence[int]) -> np.ndarray:
    """The rule as it was before the tables were kept (stop 56)."""
    n = len(pool)
    rows = np.zeros((1, 0), dtype=np.int64)
    used = np.zeros(1, dtype=np.int64)
    for k in sizes:
        combos = list(combinations(range(n), k))
        idx = np.asarray(combos, dtype=np.int64).reshape(len(combos), k)
        bits = (np.int64(1) << idx).sum(axis=1) if k else np.zeros(len(idx), dtype=np.int64)
        free = (used[:, None] & bits[None, :]) == 0
        r, j = np.nonzero(free)
        rows = np.concatenate([rows[r], idx[j]], axis=1)
        used = used[r] | bits[j]
    return pool[rows]


def test_the_kept_tables_give_the_same_rows_in_the_same_order() -> None:
    gen = np.random.default_rng(31)
    for sizes in ([2], [3], [2, 2], [0, 3], [1, 2, 1], [3, 0], [5], [2, 3]):
        for n in (5, 9, 12):
            pool = gen.permutation(52)[:n].astype(np.int64)
            for _ in range(2):  # the second call reads the kept tables
                got = assignments(pool, sizes)
                want = _afresh(pool, sizes)
                assert got.dtype == want.dtype == np.int64
                assert got.shape == (count_assignments(n, sizes), sum(sizes))
                assert np.array_equal(got, want)
                assert got.flags.writeable  # the caller's own array
                got[...] = -1
    # a table too big to keep is built afresh, still the same rows
    pool = np.arange(22, dtype=np.int64) * 2
    assert count_assignments(22, [5]) > common._COMBOS_KEPT
    assert np.array_equal(assignments(pool, [5]), _afresh(pool, [5]))
    idx, bits = common._combos(9, 2)
    assert not idx.flags.writeable and not bits.flags.writeable
    assert idx.shape == (36, 2) and int(bits[0]) == 0b11
