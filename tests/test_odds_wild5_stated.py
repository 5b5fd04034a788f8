"""Roll Your Own at 5 players after the wild card: play's interval rests on the batches'
own stated errors beside their spread (issue 33, branch s68-five;
ryoseen.STATED_WILD, ryoseen.stated_dof, play.stated_stderr).

A run there holds 12 to 16 half batches (1,000 worlds read from 4,000) whose stated
errors and spread agree on average (hand 31021: ±2.04 and ±1.97 points a run), so the
larger of the two, the spread's times Student's t on 13 degrees of freedom, stated the
runs wider than their scatter about the truth. Pooling the two variances, the stated
errors counting for 4 degrees of freedom beside the spread's ``k - 1``, with t on
``k - 1 + 4``: on 332 recorded runs (the wide hands 31021, 31035, 31042, 31047 and two
narrower) the median interval ±2.03 against ±2.12, covered 94.9% against 96.1%
(docs/dev/odds-precision.md).
"""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from rollem.odds import play, ryoseen
from rollem.odds.result import Odds
from rollem.odds.view import read_view
from ryo_views import play_batches as _run
from ryo_views import ryo_view as _at


def test_where_5_players_after_the_wild_card_counts_the_stated_errors() -> None:
    assert ryoseen.STATED_WILD == {4: 4.0}
    assert ryoseen.stated_dof(read_view(_at(5, "after the wild card"))) == 4.0
    # 4 and 6 players after the wild card, 5 players third card up: as before
    for players, round_name in ((4, "after the wild card"), (6, "after the wild card"),
                                (5, "third card up")):
        assert ryoseen.stated_dof(read_view(_at(players, round_name))) is None, players


def test_stated_stderr_pools_the_two_variances_by_their_degrees_of_freedom() -> None:
    # 14 batches (13 degrees of freedom) and 4 for the stated errors: t on 17
    se = play.stated_stderr(0.02, 14, 0.01, 4.0)
    assert se == pytest.approx(math.sqrt((13 * 0.02**2 + 4 * 0.01**2) / 17) * 2.110 / 1.96)
    # the spread and the stated errors alike: t on 17 in place of t on 13
    assert play.stated_stderr(0.01, 14, 0.01, 4.0) == pytest.approx(0.01 * 2.110 / 1.96)
    for bad in ((0.01, 1, 0.01, 4.0), (0.01, 14, 0.01, 0.0), (float("nan"), 14, 0.01, 4.0),
                (0.01, 14, -0.01, 4.0)):
        with pytest.raises(ValueError):
            play.stated_stderr(*bad)


def test_combine_with_stated_pools_them_and_falls_back_where_an_error_is_not_finite() -> None:
    batches = [Odds(win=w, tie=0.0, lose=1 - w, equity=w, method="monte-carlo", samples=2000,
                    stderr=0.02, effective=2000.0, evidence=1.0) for w in (0.30, 0.33, 0.27, 0.31)]
    main = play.combine(batches, play.SPREAD)
    pooled = play.combine(batches, play.SPREAD, stated=4.0)
    spread = play.spread_stderr([b.equity for b in batches], [2000] * 4)
    stated = math.sqrt(sum((0.25 * 0.02) ** 2 for _ in batches))
    assert pooled.equity == main.equity
    assert pooled.stderr == pytest.approx(play.stated_stderr(spread, 4, stated, 4.0))
    assert main.stderr == pytest.approx(max(stated, spread * play.t975(3) / 1.96))
    assert pooled.interval == pytest.approx(1.96 * pooled.stderr)
    # a batch stating no finite error: the larger of the two, as without ``stated``
    odd = [*batches[:3], replace(batches[3], stderr=math.inf)]
    assert play.combine(odd, play.SPREAD, stated=4.0).stderr == math.inf


TRUTHS = {31021: 69.83, 31035: 48.81}
"""Equity in points, every batch kept, ratio of sums (branch s68-five: 91 and 94 runs of
20 whole batches, 2,000 worlds read from 8,000: 69.83 ± 0.08 and 48.81 ± 0.08; branch
s66-wild56's 69.87 ± 0.16 and 49.12 ± 0.25)."""


def test_wide_hands_interval_from_the_stated_errors_and_the_spread(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Hands 31021 and 31035, three seeded runs of 14 batches each (about what 1 s
    holds), on a counting clock: each run's interval the two variances pooled (here
    ±2.17, ±3.22, ±2.17 and ±1.91, ±2.50, ±2.22 points), narrower than the larger of
    the stated error and the spread's times t on 13 (main's rule on the same batches:
    ±2.32, ±3.39, ±2.17 and ±2.02, ±2.54, ±2.34), and covering the truth."""
    monkeypatch.setattr("rollem.odds.ryoseen.PARTIAL_LABELS", {})  # (pinned without: s70-step)
    monkeypatch.setattr("rollem.odds.ryoseen.LOOK_AHEAD", frozenset())  # (and: s71-draw)
    for hand, truth in TRUTHS.items():
        view = _at(5, "after the wild card", hand)
        for seed in (1, 2, 3):
            odds, kept = _run(monkeypatch, view, seed, 14)
            assert len(kept) == 14 and kept[0].samples == 1000
            larger = play.combine(kept, play.SPREAD)  # main's rule on these batches
            assert larger.interval is not None and odds.interval is not None
            assert odds.equity == pytest.approx(larger.equity, abs=1e-12)
            assert odds.interval < larger.interval, (hand, seed, odds.interval, larger.interval)
            assert odds.interval <= 0.035, (hand, seed, odds.interval)
            assert abs(odds.equity * 100 - truth) <= odds.interval * 100, (hand, seed, odds.equity)
