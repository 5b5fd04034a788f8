"""Importance-weighted batches pooled by inverse stated variance in play's
odds (issue 33, branch s49-pool): the combination rule's arithmetic, values
worked by hand."""

from __future__ import annotations

import math

import pytest

from rollem.odds.play import POOL_FACTOR, combine, pool_shares, pooled_stderr
from rollem.odds.result import Odds


def batch(equity: float, stderr: float, effective: float | None) -> Odds:
    return Odds(win=equity, tie=0.0, lose=1 - equity, equity=equity, method="monte-carlo",
                samples=2000, stderr=stderr, effective=effective)


# a batch whose weights collapsed (400 effective worlds, low, a large stated
# error) between two sound ones, within its stated errors of them (Cochran's
# Q 3.86 at 1.2 times the errors, under chi-squared's 99% point on 2 degrees
# of freedom, 9.2: pooled; branch s50-odds: at 0.10, as this was before, Q is
# 20 and the batches are combined by worlds, test_odds_play.py)
SOUND_AND_COLLAPSED = [batch(0.20, 0.01, 1500), batch(0.17, 0.02, 400), batch(0.22, 0.01, 1500)]


def test_pool_shares_are_inverse_variances_normalised() -> None:
    # 1/0.01^2 = 10,000, 1/0.02^2 = 2,500: 10,000 / 22,500 = 4/9
    assert pool_shares([0.01, 0.02, 0.01]) == pytest.approx([4 / 9, 1 / 9, 4 / 9])
    assert pool_shares([0.01, 0.0]) is None
    assert pool_shares([0.01, math.nan]) is None


def test_pooled_stderr_is_the_factor_over_root_summed_inverse_variances() -> None:
    assert POOL_FACTOR == 1.2
    # 1.2 / sqrt(22,500) = 1.2 / 150
    assert pooled_stderr([0.01, 0.02, 0.01]) == pytest.approx(0.008)
    assert pooled_stderr([0.01, 0.02, 0.01], factor=1.0) == pytest.approx(1 / 150)
    with pytest.raises(ValueError, match="positive and finite"):
        pooled_stderr([0.01, 0.0])


def test_a_collapsed_batch_weighs_little_and_does_not_widen_the_run() -> None:
    got = combine(SOUND_AND_COLLAPSED)
    # (4 x 0.20 + 0.17 + 4 x 0.22) / 9 = 1.85 / 9
    assert got.equity == pytest.approx(1.85 / 9)
    assert got.win == pytest.approx(1.85 / 9)
    assert got.stderr == pytest.approx(0.008)
    # 1.96 x 0.008 (the chances' own, over 3,400 effective worlds, are
    # smaller: 1.96 x 0.0069)
    assert got.interval == pytest.approx(0.01568)
    assert got.effective == 3400


def test_not_pooled_weighted_batches_take_the_larger_of_stated_and_spread() -> None:
    got = combine(SOUND_AND_COLLAPSED, pooled=False)
    # shares 1/3: mean 0.59 / 3; spread sum (d^2) / 3 x 3 / 2 x 1/3 with
    # d = 0.00333, -0.02667, 0.02333: 0.00021111, root 0.014530 (stated 0.00816)
    assert got.equity == pytest.approx(0.59 / 3)
    assert got.stderr == pytest.approx(0.014530, abs=1e-6)
    assert got.interval == pytest.approx(1.96 * 0.014530, abs=1e-5)


def test_plain_batches_are_weighted_by_worlds_as_before() -> None:
    got = combine([batch(0.20, 0.01, None), batch(0.10, 0.02, None)])
    assert got.equity == pytest.approx(0.15)
    # sqrt(0.005^2 + 0.01^2)
    assert got.stderr == pytest.approx(math.sqrt(0.000125))


def test_a_zero_stated_error_falls_back_to_worlds_weights() -> None:
    got = combine([batch(0.20, 0.0, 2000), batch(0.10, 0.02, 400)])
    assert got.equity == pytest.approx(0.15)
    assert got.stderr == pytest.approx(0.01)
