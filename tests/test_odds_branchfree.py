"""Roll Your Own's kernels without mispredicted branches (issue 33, branch
s69-speed): the same answers bit for bit.

- ``compiled._first_over_short`` (read_draw's, sample_rows', second_round's and
  relabel_owners' searches of a short row: a count, not bisection) gives
  ``_first_over``'s index on rows that never decrease, ties, zero masses and
  points past either end included;
- ``compiled._accepts_four`` (a card or place step's acceptance from its four
  ratios' product where that is clear) accepts exactly where the logs' sum
  accepts, ratios and uniforms at the edges included (1.0, near 1, the uniform
  near the product, 0, inf, NaN, out of range);
- ``compiled._rank_into`` (fill_labels', relabel_rest's sorts: a count) gives
  numpy's stable argsort, ties included.
"""

from __future__ import annotations

import numpy as np
import pytest

from rollem.odds import compiled

pytestmark = pytest.mark.skipif(not compiled.AVAILABLE, reason="numba not installed")


@pytest.fixture(autouse=True)
def _compiled() -> None:
    assert compiled.wait(600)


def test_the_short_search_is_the_bisection() -> None:
    gen = np.random.default_rng(69)
    for size in (1, 2, 3, 5, 7, 25, 52):
        for _ in range(40):
            rows = 3
            mass = np.where(gen.random(rows * size) < 0.3, 0.0, gen.random(rows * size))
            cum = np.cumsum(mass)
            for base in range(0, rows * size, size):
                lo, hi = (cum[base - 1] if base else 0.0), cum[base + size - 1]
                xs = np.concatenate([lo + gen.random(30) * (hi - lo), cum[base:base + size],
                                     [lo - 1.0, hi, hi + 1.0, np.nextafter(hi, lo)]])
                for x in xs:
                    assert (compiled._first_over_short_compiled(cum, base, size, float(x))
                            == compiled._first_over_compiled(cum, base, size, float(x)))


def _by_logs(u: float, r: tuple[float, float, float, float]) -> bool:
    log_ratio = ((compiled._log_of_compiled(r[0]) + compiled._log_of_compiled(r[1]))
                 + (compiled._log_of_compiled(r[2]) + compiled._log_of_compiled(r[3])))
    return bool(compiled._accepts_compiled(u, log_ratio))


def test_the_acceptance_from_the_product_is_the_logs() -> None:
    gen = np.random.default_rng(33)
    edge = [1.0, 0.0, np.inf, np.nan, 2.0 ** -201, 2.0 ** 201, 1e-300, 1e300,
            1.0 + 1e-12, 1.0 - 1e-12, np.nextafter(1.0, 2.0), np.nextafter(1.0, 0.0)]
    cases = []
    for _ in range(20000):
        r = tuple(float(x) for x in np.exp(gen.normal(0.0, 2.0, 4)))
        cases.append((float(gen.random()), r))
        product = (r[0] * r[1]) * (r[2] * r[3])
        if product < 1.0:  # the uniform at the product, a hair either side
            for u in (product, np.nextafter(product, 0.0), np.nextafter(product, 2.0),
                      product * (1.0 - 1e-10), product * (1.0 + 1e-10)):
                cases.append((float(u), r))
        near = (r[0], 1.0 / r[0], 1.0 + float(gen.normal(0.0, 1e-10)), 1.0)
        cases.append((float(gen.random()), near))
    for _ in range(4000):
        r = tuple(float(gen.choice(edge)) if gen.random() < 0.5 else float(gen.random() * 3)
                  for _ in range(4))
        cases.append((float(gen.random()), r))
    for u, r in cases:
        assert bool(compiled._accepts_four_compiled(u, *r)) == _by_logs(u, r), (u, r)


@pytest.mark.parametrize("n", [1, 3, 12, 15])
def test_the_counted_ranks_are_the_stable_argsort(n: int) -> None:
    gen = np.random.default_rng(n)
    keys = gen.random((300, n))
    keys[:100] = np.round(keys[:100] * 3) / 3  # ties
    keys[100:200, ::2] = 2.0  # relabel_rest's used slots
    idx = np.empty(n, dtype=np.int64)
    for row in keys:
        compiled._rank_into_compiled(row, idx, n)
        assert (idx == np.argsort(row, kind="stable")).all()
