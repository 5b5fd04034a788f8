"""Roll Your Own at 6 players after the wild card: in play's batches a batch whose
worlds collapse is kept, not drawn again, and a retry's collapse is never the tracked
model's (issue 33, branch s67-six; ryoseen.KEEP_WILD, KEEP_COLLAPSED at 5 opponents,
as at 3 players since branch s66-wide).

Drawing a collapsed quarter batch again (64 candidates, some four times a batch's CPU)
drops the batches that found the rare worlds of large weight: at hand 31014 (every
batch kept, ratio of sums over 15 runs of 20 whole batches: 83.64 ± 0.33%) play's runs
sat above it, and the dear retries ended runs early (20 batches at 0.82-0.86 s of CPU
rather than 29 at 0.95; docs/dev/odds-precision.md, branch s67-six).
"""

from __future__ import annotations

import statistics

import pytest

from rollem.odds import ryoseen
from ryo_views import play_batches as _batches
from ryo_views import ryo_view as _at

TRUTH_31014 = 0.8364


def test_where_6_players_after_the_wild_card_keeps_its_batches() -> None:
    assert 5 in ryoseen.KEEP_WILD and 5 in ryoseen.KEEP_COLLAPSED
    assert 4 in ryoseen.KEEP_WILD  # (5 players too since branch s68-five2)


def test_collapsed_batches_kept_and_the_runs_centred(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hand 31014, six seeded runs of 29 quarter batches (what 1 s holds): here 84.06 ±
    2.37, 83.33 ± 2.82, 84.14 ± 2.41, 83.30 ± 2.37, 84.00 ± 2.15, 83.93 ± 2.07 (mean
    83.79), 1 to 3 batches a run under 25 effective worlds kept; main's the same seeds
    85.25 ± 1.92 (one batch the tracked model's), 84.25, 84.31, 84.29, 85.23, 84.90
    (mean 84.70), every collapsed batch drawn again."""
    view = _at(6, "after the wild card", 31014)
    equities = []
    for seed in range(1, 7):
        odds, kept = _batches(monkeypatch, view, seed, 29)
        assert len(kept) == 29
        assert all(r.effective is not None for r in kept)  # no tracked-model batch
        assert any(r.effective < ryoseen.MIN_EFFECTIVE for r in kept if r.effective), seed
        assert odds.interval is not None and abs(odds.equity - TRUTH_31014) <= odds.interval
        equities.append(odds.equity)
    assert abs(statistics.mean(equities) - TRUTH_31014) <= 0.005, statistics.mean(equities)
