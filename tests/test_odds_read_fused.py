"""Roll Your Own's one-pass read of an opponent draws from the same law as the
origin-by-origin read (issue 33, branch s63-ryo: rollem/odds/compiled.py's
``read_draw`` and ``read_score``, ryoseen.READ_FUSED).

The one pass reads its own random numbers, so the bits differ from the
origin-by-origin path; what must agree is the law: each world's factor (an
unbiased estimate of the opponent's likelihood summed over what of it was
not yet named) has the same mean, and the candidate kept is drawn in
proportion to the same weights."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from rollem.odds import compiled, ryoseen
from rollem.odds.policy import FAST
from rollem.odds.view import read_view

pytest.importorskip("numba")
if not compiled.AVAILABLE:  # (ROLLEM_NO_NUMBA set: nothing to compare)
    pytest.skip("ROLLEM_NO_NUMBA is set", allow_module_level=True)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from bench_play_odds import _view


def _reads(fused: bool, monkeypatch: pytest.MonkeyPatch, seeds: range, used: int = -1
           ) -> tuple[list[float], list[float], int]:
    """Per seed, the mean factor of opponent 0's read over one layout's worlds
    (after the wild card at 6 players, hand 30001), and the weighted share of
    the worlds whose kept three hold a card of rank ``used`` (-1: the rank
    most kept at the first seed among those of no up card), and that rank."""
    monkeypatch.setattr(ryoseen, "READ_FUSED", fused)
    seen = ryoseen.seen_of(read_view(_view("rollyourown", 6, 30001,
                                           "at:after the wild card|")))
    assert seen is not None
    unseen = np.asarray(sorted(set(range(52)) - ryoseen._seen_cards(seen)), dtype=np.int64)
    gen = np.random.default_rng(5)
    guides: dict[tuple[int, tuple[int, ...]], tuple[np.ndarray, np.ndarray]] = {}
    for j, opp in enumerate(seen.opponents):
        for combo in ryoseen._origins(opp, set(seen.discards)):
            kept_up = [c for c, r in zip(opp.ups, combo, strict=True) if r == 0]
            drawn_up = {r: c for c, r in zip(opp.ups, combo, strict=True) if r}
            guides[(j, combo)] = ryoseen._guide(FAST, kept_up, 3 - len(kept_up), unseen,
                                                unseen, opp, drawn_up, 0.02, gen)
    order, named, origin, _, _ = ryoseen._layout(seen, 400, np.random.default_rng(9), None)
    avail = np.zeros((400, 52), dtype=bool)
    avail[:, unseen] = True
    expose = ryoseen._expose_table(seen, FAST, 0.02)
    means, shares = [], []
    for s in seeds:
        total, kept, _ = ryoseen._read_opponent(seen, 0, order, named, origin, avail, FAST,
                                                0.02, np.random.default_rng(s), guides, 4,
                                                expose)
        means.append(float(total.mean()))
        ranks = kept >> 2
        if used < 0:  # (a rank none of its up cards has: its hidden kept cards')
            count = np.bincount(ranks.reshape(-1), minlength=13)
            count[[u >> 2 for u in seen.opponents[0].ups]] = 0
            used = int(count.argmax())
        has = (ranks == used).any(axis=1)
        shares.append(float((total * has).sum() / total.sum()))
    return means, shares, used


def test_the_one_pass_read_has_the_origin_by_origin_law(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert compiled.wait(600)
    calls = {"read_draw": 0}
    real = compiled.read_draw

    def spy(*a: object) -> object:
        calls["read_draw"] += 1
        return real(*a)  # type: ignore[arg-type]

    monkeypatch.setattr(compiled, "read_draw", spy)
    fused, fused_share, used = _reads(True, monkeypatch, range(40))
    assert calls["read_draw"] == 40
    apart, apart_share, _ = _reads(False, monkeypatch, range(100, 140), used)
    assert calls["read_draw"] == 40  # (origin by origin: not called)
    for a, b in ((fused, apart), (fused_share, apart_share)):
        se = np.sqrt(np.var(a, ddof=1) / len(a) + np.var(b, ddof=1) / len(b))
        assert abs(np.mean(a) - np.mean(b)) < 4 * se, (np.mean(a), np.mean(b), se)
    assert np.mean(fused) > 0 and 0.05 < np.mean(fused_share) < 0.95
