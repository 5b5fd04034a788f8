"""A Roll Your Own batch's evidence, and play's batches leaning towards their ratio of sums.

Issue 33, branch s64-bias: each batch of the importance sampler states its
equity as a self-normalised mean, off by minus the covariance of the
batch's total weight with its equity (+0.35 points at 6 players after the
wild card in quarter batches, hand 30001); the batch now states its mean
unnormalised weight (``Odds.evidence``), and ``play.EVIDENCE_SHARE`` leans
the batches' mean from weighing them by worlds (0, main's bits) towards
their ratio of sums (1), each weight over the run's mean capped at
``play.EVIDENCE_CAP`` (docs/dev/odds-precision.md, s64-bias).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from rollem.odds import play, ryoseen
from rollem.odds.result import Odds
from test_odds_ryo_late import _view_at


def _batch(equity: float, samples: int, evidence: float | None) -> Odds:
    return Odds(win=equity, tie=0.0, lose=1 - equity, equity=equity, method="monte-carlo",
                samples=samples, stderr=0.001, game="rollyourown", effective=samples / 4,
                evidence=evidence)


def test_a_ryo_batch_states_its_mean_unnormalised_weight(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    # the batch's worlds' weights (after the last resampling each world has
    # the mean, so their sum is kept), over its worlds
    from rollem.odds.view import read_view

    seen = ryoseen.seen_of(read_view(_view_at(6, "after the wild card")))
    assert seen is not None
    got: list[tuple[int, float]] = []
    real = ryoseen._worlds  # type: ignore[attr-defined]

    def spy(*args: Any, **kwargs: Any) -> Any:
        out = real(*args, **kwargs)
        if "futures" in kwargs:  # the batch's worlds (not the pilot's)
            got.append((len(out[1]), float(np.sum(out[1]))))
        return out

    monkeypatch.setattr(ryoseen, "_worlds", spy)
    with ryoseen.shared_proposals(), ryoseen.part_of_batch(0.25):
        odds = [ryoseen.ryo_seen_look(seen, samples=500, seed=s) for s in (1, 2)]
    assert len(got) == 2
    for o, (k, total) in zip(odds, got, strict=True):
        assert o is not None and o.evidence is not None
        assert o.samples == k == 500
        assert o.evidence == pytest.approx(total / k, rel=1e-12)
        assert math.isfinite(o.evidence) and o.evidence > 0


def test_the_batches_lean_towards_their_ratio_of_sums(monkeypatch: pytest.MonkeyPatch) -> None:
    runs = [_batch(x, n, e) for x, n, e in ((0.30, 500, 1.0), (0.20, 500, 3.0),
                                            (0.26, 500, 2.0), (0.24, 250, 2.0))]
    x = [r.equity for r in runs]
    n = [r.samples for r in runs]
    w = [r.evidence * r.samples for r in runs]  # type: ignore[operator]
    by_worlds = play.combine(runs, play.SPREAD)
    assert by_worlds.equity == pytest.approx(sum(a * b for a, b in zip(x, n, strict=True)) / sum(n))

    # all the way, uncapped: the ratio of sums, its error by the delta method with t
    monkeypatch.setattr(play, "EVIDENCE_SHARE", 1.0)
    monkeypatch.setattr(play, "EVIDENCE_CAP", 100.0)
    ratio = sum(a * b for a, b in zip(w, x, strict=True)) / sum(w)
    got = play.combine(runs, play.SPREAD)
    assert got.equity == pytest.approx(ratio, rel=1e-12)  # 0.2382
    z = [b / c / (sum(w) / sum(n)) for b, c in zip(w, n, strict=True)]
    se = math.sqrt(sum(c * (v * (a - ratio)) ** 2 for c, v, a in zip(n, z, x, strict=True))
                   / (3 * sum(n)))
    assert got.stderr == pytest.approx(se * play.t975(3) / play.Z95, rel=1e-12)
    assert got.win == pytest.approx(ratio)  # every figure weighed alike

    # half way, the weights over their mean capped at 1.25
    monkeypatch.setattr(play, "EVIDENCE_SHARE", 0.5)
    monkeypatch.setattr(play, "EVIDENCE_CAP", 1.25)
    capped = [min(v, 1.25) for v in z]
    scale = sum(c * v for c, v in zip(n, capped, strict=True)) / sum(n)
    capped = [v / scale for v in capped]
    lean = (0.5 * by_worlds.equity
            + 0.5 * sum(c * v * a for c, v, a in zip(n, capped, x, strict=True)) / sum(n))
    assert play.combine(runs, play.SPREAD).equity == pytest.approx(lean, rel=1e-12)

    # a batch without evidence, or batches pooled rather than spread-checked: by worlds
    plain = [*runs[:3], _batch(0.24, 250, None)]
    assert play.combine(plain, play.SPREAD).equity == pytest.approx(by_worlds.equity)
    assert play.combine(runs, False).equity == pytest.approx(by_worlds.equity)


def test_lean_stderr_at_0_is_the_spread_of_batches_by_worlds() -> None:
    x, n = [0.30, 0.20, 0.26, 0.24], [500, 500, 500, 250]
    assert play.lean_stderr(x, n, [0.4, 1.6, 1.0, 1.0], 0.0) == play.spread_stderr(x, n)
    with pytest.raises(ValueError):
        play.lean_stderr(x, n, [1.0], 0.5)
    with pytest.raises(ValueError):
        play.evidence_shares([_batch(0.3, 500, 1.0)], 1.5)
