"""The equity's interval near 0 and 100 in play's odds (issue 33, branch
s70-edge): where a run's relative error is large, the interval allows for the
error growing towards the middle (:func:`rollem.odds.play.edge_half_width`),
never past 0 or 100 where Wald's did not reach them; values worked by hand."""

from __future__ import annotations

import math

import pytest

from rollem.odds.play import (
    EDGE_BETA,
    EDGE_FROM,
    EDGE_FULL,
    SPREAD,
    WORLDS_PLACES_FACTOR,
    Z95,
    _widen,
    combine,
    edge_half_width,
)
from rollem.odds.result import Odds


def batch(equity: float, stderr: float, effective: float | None) -> Odds:
    return Odds(win=equity, tie=0.0, lose=1 - equity, equity=equity, method="monte-carlo",
                samples=2000, stderr=stderr, effective=effective)


def test_the_constants_as_measured() -> None:
    assert (EDGE_BETA, EDGE_FROM, EDGE_FULL) == (2.0, 0.10, 0.25)


def test_near_0_the_interval_reaches_the_share_1_96_of_its_own_errors_away() -> None:
    # four weighted batches at 0.4%, 0.8%, 1.2%, 0.8% (each stating 0.1 points,
    # 2,000 effective worlds), by worlds: the mean 0.008, the spread's error
    # sqrt((1.6e-5 + 1.6e-5) / 4 x 4 / 3 x 1/4) = 0.0016330 over the stated
    # 0.0005: Wald's 1.96 x 0.0016330 = 0.0032007 (main's interval; the whole
    # pot's Agresti-Coull over 8,000 worlds is 1.96 x 0.0010). Relative error
    # 0.0032007 / 0.008 = 0.40, past EDGE_FULL: the error at a share p is
    # 0.0016330 p (1 - p) / (0.008 x 0.992), so the upper end solves
    # p - 0.008 = c p (1 - p), c = 0.0032007 / 0.007936 = 0.40331:
    # p = (-(1 - c) + sqrt((1 - c)^2 + 4 c 0.008)) / 2c = 0.013288
    runs = [batch(x, 0.001, 2000) for x in (0.004, 0.008, 0.012, 0.008)]
    main = combine(runs, pooled=False, edge=False)
    got = combine(runs, pooled=False)
    assert got.equity == pytest.approx(0.008)
    assert got.stderr == main.stderr == pytest.approx(0.0016330, abs=1e-7)
    assert main.interval == pytest.approx(Z95 * 0.0016330, abs=1e-7)
    c = Z95 * got.stderr / (0.008 * 0.992)
    up = (-(1 - c) + math.sqrt((1 - c) ** 2 + 4 * c * 0.008)) / (2 * c)
    assert got.interval == pytest.approx(up - 0.008, abs=1e-9)
    assert got.interval == pytest.approx(0.0052879, abs=1e-7)  # x 1.65 main's
    # the lower end, 0.008 - p = c p (1 - p), is nearer: the upper one counts
    lo = ((1 + c) - math.sqrt((1 + c) ** 2 - 4 * c * 0.008)) / (2 * c)
    assert 0.008 - lo < got.interval
    # the same at 100 less the shares
    high = [batch(1 - x, 0.001, 2000) for x in (0.004, 0.008, 0.012, 0.008)]
    assert combine(high, pooled=False).interval == pytest.approx(got.interval, abs=1e-9)


def test_never_past_0_where_wald_did_not_reach_it() -> None:
    # 0%, 1.6%, 0.8%, 0.8%: the spread's error 0.0032660, Wald's 0.0064013
    # under the equity 0.008; the allowance (2.8 points) would pass 0: the
    # interval reaches 0 and stops there
    runs = [batch(x, 0.001, 2000) for x in (0.0, 0.016, 0.008, 0.008)]
    assert combine(runs, pooled=False, edge=False).interval == pytest.approx(
        0.0064013, abs=1e-7)
    assert combine(runs, pooled=False).interval == pytest.approx(0.008)
    # with Student's t on 3 (SPREAD) Wald's already passes 0: kept, not narrowed
    main = combine(runs, pooled=SPREAD, edge=False)
    assert main.interval > 0.008
    assert combine(runs, pooled=SPREAD).interval == main.interval


def test_the_middle_and_plain_batches_keep_walds_interval() -> None:
    # 36%, 44%, 40%, 40%: Wald's 0.032007, relative error 0.08 under EDGE_FROM
    mid = [batch(x, 0.01, 2000) for x in (0.36, 0.44, 0.40, 0.40)]
    assert combine(mid, pooled=False).interval == combine(mid, pooled=False,
                                                          edge=False).interval
    # plain batches (no effective count) near 0: as before
    plain = [batch(x, 0.001, None) for x in (0.004, 0.008, 0.012, 0.008, 0.008)]
    assert combine(plain).interval == combine(plain, edge=False).interval


def test_edge_half_width_between_wald_and_the_full_allowance() -> None:
    # relative error 1.96 x 0.0006 / 0.0081 = 0.145: b = 2 x (0.145 - 0.10) /
    # 0.15 = 0.60, the error at p 0.0006 (p (1 - p) / (e (1 - e)))^0.30; the
    # upper end p = e + h is 1.96 of it away
    e, se = 0.0081, 0.0006
    got = edge_half_width(e, se)
    b = 2 * (Z95 * se / e - 0.10) / 0.15
    p = e + got
    assert got == pytest.approx(Z95 * se * (p * (1 - p) / (e * (1 - e))) ** (b / 2), rel=1e-9)
    assert got == pytest.approx(0.0012266, abs=1e-7)  # Wald's 0.001176
    assert got == pytest.approx(edge_half_width(1 - e, se))
    # the full allowance at 2 is the quadratic's root, as above
    assert edge_half_width(0.008, 0.0016330) == pytest.approx(0.0052879, abs=1e-6)
    assert edge_half_width(0.0, 0.001) == Z95 * 0.001
    assert edge_half_width(0.3, 0.0) == 0.0
    for bad in ((1.2, 0.01, 2.0), (0.1, -0.01, 2.0), (0.1, math.inf, 2.0), (0.1, 0.01, 2.5)):
        with pytest.raises(ValueError, match=r"within 0\.\.1"):
            edge_half_width(*bad)


def test_the_4_player_widening_does_not_pass_0_either() -> None:
    # an interval that reached 0 (0.8% ± 0.8) stays there times 1.1; one already
    # past it (0.02% ± 0.05, a floor of 0.1 points) is widened as before
    at = Odds(win=0.008, tie=0.0, lose=0.992, equity=0.008, method="monte-carlo",
              samples=8000, stderr=0.004, effective=6000.0, interval=0.008)
    got = _widen(at, True, WORLDS_PLACES_FACTOR)
    assert got.interval == pytest.approx(0.008)
    assert got.stderr == pytest.approx(0.0044)
    past = Odds(win=0.0002, tie=0.0, lose=0.9998, equity=0.0002, method="monte-carlo",
                samples=8000, stderr=0.0003, effective=6000.0, interval=0.0005)
    assert _widen(past, True, WORLDS_PLACES_FACTOR).interval == pytest.approx(0.001)
    inside = Odds(win=0.3, tie=0.0, lose=0.7, equity=0.3, method="monte-carlo",
                  samples=8000, stderr=0.005, effective=6000.0, interval=0.0098)
    assert _widen(inside, True, WORLDS_PLACES_FACTOR).interval == pytest.approx(0.01078)
