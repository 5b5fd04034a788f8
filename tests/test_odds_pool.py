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
    got = combine(SOUND_AND_COLLAPSED, pooled=False, edge=False)
    # shares 1/3: mean 0.59 / 3; spread sum (d^2) / 3 x 3 / 2 x 1/3 with
    # d = 0.00333, -0.02667, 0.02333: 0.00021111, root 0.014530 (stated 0.00816)
    assert got.equity == pytest.approx(0.59 / 3)
    assert got.stderr == pytest.approx(0.014530, abs=1e-6)
    assert got.interval == pytest.approx(1.96 * 0.014530, abs=1e-5)
    # as play shows it (branch s70-edge): the relative error 0.028479 / 0.19667
    # = 0.145 allows in part for the error's growth towards the middle
    from rollem.odds.play import edge_half_width

    shown = combine(SOUND_AND_COLLAPSED, pooled=False)
    assert shown.stderr == got.stderr
    assert shown.interval == pytest.approx(edge_half_width(got.equity, got.stderr))
    assert shown.interval == pytest.approx(0.029358, abs=1e-6)


def test_plain_batches_are_weighted_by_worlds_as_before() -> None:
    got = combine([batch(0.20, 0.01, None), batch(0.10, 0.02, None)])
    assert got.equity == pytest.approx(0.15)
    # sqrt(0.005^2 + 0.01^2)
    assert got.stderr == pytest.approx(math.sqrt(0.000125))


def test_a_zero_stated_error_falls_back_to_worlds_weights() -> None:
    got = combine([batch(0.20, 0.0, 2000), batch(0.10, 0.02, 400)])
    assert got.equity == pytest.approx(0.15)
    assert got.stderr == pytest.approx(0.01)


def test_t975_is_students_t_at_97_5_percent() -> None:
    from rollem.odds.play import t975

    assert [t975(d) for d in (1, 2, 4, 9, 30)] == [12.706, 4.303, 2.776, 2.262, 2.042]
    assert t975(100) == pytest.approx(1.984, abs=0.002)  # the table's 1.984
    with pytest.raises(ValueError, match="at least 1, got 0"):
        t975(0)


def test_spread_weighs_by_worlds_and_checks_with_students_t() -> None:
    # issue 33, branch s52-ryo, worked by hand: 0.10, 0.12, 0.11 each stating
    # 0.01 over 2,000 worlds: by worlds a third each, the mean 0.11; stated
    # 0.01 / sqrt(3) = 0.005774; spread (1e-4 + 1e-4 + 0) / 3 x 3 / 2 x 1/3
    # = 3.333e-5, its root 0.005774, times t(2) / 1.96 = 4.303 / 1.96:
    # 0.012676. Pooled (main's rule) 1.2 x 0.01 / sqrt(3) = 0.006928.
    from rollem.odds.play import SPREAD, Z95

    agree = [batch(0.10, 0.01, 500), batch(0.12, 0.01, 500), batch(0.11, 0.01, 500)]
    got = combine(agree, pooled=SPREAD)
    assert got.equity == pytest.approx(0.11)
    assert got.stderr == pytest.approx(0.0057735 * 4.303 / 1.96, rel=1e-4)
    assert combine(agree).stderr == pytest.approx(0.0069282, rel=1e-4)
    assert combine(agree, pooled=False).stderr == pytest.approx(0.0057735, rel=1e-4)
    # four frozen batches (each stating 0.1 points) at 0.20, 0.30, 0.25, 0.15:
    # the mean 0.225; spread (2 x 6.25e-4 + 2 x 5.625e-3) / 4 x 4 / 3 x 1/4 =
    # 1.0417e-3, its root 0.032275, times t(3) / 1.96 = 3.182 / 1.96
    frozen = [batch(x, 0.001, 2000) for x in (0.20, 0.30, 0.25, 0.15)]
    got = combine(frozen, pooled=SPREAD, edge=False)
    assert got.equity == pytest.approx(0.225)
    assert got.stderr == pytest.approx(0.032275 * 3.182 / 1.96, rel=1e-4)
    assert got.interval == pytest.approx(Z95 * got.stderr)
    # as play shows it (branch s70-edge): relative error 0.1027 / 0.225 = 0.46,
    # the error taken as a constant share of p (1 - p): the upper end solves
    # p - 0.225 = c p (1 - p), c = 0.10270 / (0.225 x 0.775) = 0.58895
    c = Z95 * got.stderr / (0.225 * 0.775)
    up = (-(1 - c) + math.sqrt((1 - c) ** 2 + 4 * c * 0.225)) / (2 * c)
    assert combine(frozen, pooled=SPREAD).interval == pytest.approx(up - 0.225)
    # two batches: too few for the spread (WEIGHTED_BETWEEN = 3), as unpooled
    two = frozen[:2]
    assert combine(two, pooled=SPREAD).stderr == pytest.approx(
        combine(two, pooled=False).stderr)
    # plain batches (no effective count): as before, whatever is asked
    plain = [batch(x, 0.001, None) for x in (0.20, 0.30, 0.25, 0.15, 0.2)]
    assert combine(plain, pooled=SPREAD).stderr == combine(plain).stderr


def test_batches_with_a_shared_spread_their_errors_miss_are_covered_under_spread(
) -> None:
    # issue 33, branch s52-ryo: batches as the 6-player Roll Your Own views
    # after the third card make them: each is one draw of what its chain
    # leaves frozen (sd 5 points about the truth, 0.20) plus its own error,
    # and states only its own error (0.1 to 3 points). 2,000 runs of 5 such
    # batches from a fixed seed: the inverse-variance pool (main's rule)
    # covers the truth in well under 95% of them; weighed by worlds, the
    # spread checked with Student's t (SPREAD), at least 94%.
    import random

    from rollem.odds.play import SPREAD, Z95

    gen = random.Random(52)
    covered = {True: 0, SPREAD: 0}
    runs = 2000
    for _ in range(runs):
        batches = []
        for _ in range(5):
            own = gen.uniform(0.001, 0.03)
            x = 0.20 + gen.gauss(0.0, 0.05) + gen.gauss(0.0, own)
            batches.append(batch(x, own, 500.0))
        for how in covered:
            got = combine(batches, pooled=how)
            covered[how] += abs(got.equity - 0.20) <= Z95 * got.stderr
    assert covered[True] < 0.85 * runs
    assert covered[SPREAD] >= 0.94 * runs
