"""Roll Your Own's sampler made faster, the same odds bit for bit (issue 33, branch s56-fast).

The fast policy's keep chance (:mod:`rollem.odds.keepchance`) and the
uniform draws of unnamed cards (:func:`rollem.odds.ryoseen._pick_each`) were
rewritten for fewer passes over memory; from the same seed they give what
main gave, so every odds figure shown in play is unchanged for a seed and
only more batches fit the 1 s budget (docs/dev/odds-precision.md, branch
s56-fast).
"""

from __future__ import annotations

import numpy as np
import pytest

from rollem.odds import ryoseen
from rollem.odds.keepchance import ROW_BY_ROW, keep_chance
from rollem.odds.play import play_odds
from rollem.odds.policy import keep_ranks_fast
from test_odds_ryo_late import _view_at


def _per_row(kept: np.ndarray, thrown: np.ndarray, tremble: float) -> np.ndarray:
    """The keep chance as main's ``ryoseen._keep_lik`` read it (before branch s56-fast)."""
    scores = keep_ranks_fast(np.concatenate([kept, thrown], axis=1))
    best = scores.max(axis=1)
    return np.asarray((1 - tremble) * (scores[:, 0] == best)
                      / (scores == best[:, None]).sum(axis=1) + tremble / 20)


@pytest.mark.parametrize("n", [7, ROW_BY_ROW - 1, ROW_BY_ROW, 5000])
@pytest.mark.parametrize("tremble", [0.0, 0.05])
def test_keep_chance_is_bit_for_bit_the_per_row_reading(n: int, tremble: float) -> None:
    rng = np.random.default_rng(n)
    six = np.argsort(rng.random((n, 52)), axis=1)[:, :6]
    got = keep_chance(six[:, :3], six[:, 3:], tremble)
    assert got.shape == (n,)
    assert np.array_equal(got, _per_row(six[:, :3], six[:, 3:], tremble))
    # the chances the policy gives: tremble / 20 off its keep, else a share of 1 - tremble
    assert set(np.round(got, 12)) <= {round(tremble / 20 + (1 - tremble) / t, 12)
                                      for t in range(1, 21)} | {round(tremble / 20, 12)}


def test_keep_chance_of_hand_made_hands() -> None:
    # Ac Ad Kh kept, Ks 2c 3d thrown: aces with a king, the king of either
    # suit (R-RYO-2), half each; aces kept from Ac Ad Ah 2c 3d 4h, not thrown
    kept = np.array([[48, 49, 46], [48, 49, 50], [0, 5, 10]])
    thrown = np.array([[47, 0, 5], [0, 5, 10], [48, 49, 50]])
    assert keep_chance(kept, thrown, 0.05).tolist() == [0.95 / 2 + 0.0025, 0.95 + 0.0025,
                                                         0.0025]
    assert keep_chance(kept, thrown, 0.0).tolist() == [0.5, 1.0, 0.0]
    assert keep_chance(kept[:0], thrown[:0], 0.05).shape == (0,)


def _pick_each_main(gen: np.random.Generator, avail: np.ndarray, reps: int, m: int,
                    exclude: np.ndarray | None = None) -> np.ndarray:
    """``ryoseen._pick_each`` as main had it before branch s56-fast."""
    k = len(avail)
    e = 0 if exclude is None else exclude.shape[1]
    size = avail.sum(axis=1)
    r, c = np.nonzero(avail)
    first = np.zeros(avail.shape, dtype=np.int64)
    first[r, (np.cumsum(avail, axis=1) - 1)[r, c]] = c
    flat_first = first.reshape(-1)
    start = np.repeat(np.arange(k) * avail.shape[1], reps)
    size_r = np.repeat(size, reps)
    out = np.empty((k * reps, m), dtype=np.int64)
    taken = np.zeros(k * reps, dtype=np.int64)
    for x in range(e):
        assert exclude is not None
        taken |= np.left_shift(1, exclude[:, x])
    for i in range(m):
        u = gen.random(k * reps)
        card = flat_first[start + (u * size_r).astype(np.int64)]
        out[:, i] = card
        todo = np.flatnonzero((taken >> card) & 1)
        while len(todo):
            card = flat_first[start[todo] + (gen.random(len(todo)) * size_r[todo]
                                             ).astype(np.int64)]
            out[todo, i] = card
            todo = todo[(taken[todo] >> card) & 1 == 1]
        taken |= np.left_shift(1, out[:, i])
    return out


@pytest.mark.parametrize(("k", "reps", "m", "excluded"),
                         [(300, 16, 5, 0), (300, 16, 5, 2), (50, 1, 6, 1), (40, 4, 3, 0)])
def test_pick_each_draws_what_main_drew_from_the_same_stream(k: int, reps: int, m: int,
                                                             excluded: int) -> None:
    rng = np.random.default_rng(k + m)
    avail = rng.random((k, 52)) < 0.5
    avail[:, :12] = True  # at least m + excluded cards in every row
    exclude = (np.stack([np.flatnonzero(avail[i // reps])[:excluded]
                         for i in range(k * reps)]) if excluded else None)
    a = ryoseen._pick_each(np.random.default_rng(7), avail, reps, m, exclude)
    b = _pick_each_main(np.random.default_rng(7), avail, reps, m, exclude)
    assert np.array_equal(a, b)
    rows = np.repeat(np.arange(k), reps)
    assert avail[rows[:, None], a].all()  # every card available in its row,
    assert (np.sort(a, axis=1)[:, 1:] != np.sort(a, axis=1)[:, :-1]).all()  # distinct,
    if exclude is not None:  # and none excluded
        assert not (a[:, :, None] == exclude[:, None, :]).any()


@pytest.mark.parametrize(("players", "round_name"), [(6, "third card up"),
                                                    (6, "after the wild card"),
                                                    (5, "third card up")])
def test_play_odds_late_views_as_main_gave_them(players: int, round_name: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Seeded, three batches: the equity, its error and the effective worlds
    with main's keep chance and draws put back are this branch's, to the
    last bit (at commit ef18081 they were main's own: at 6 players third
    card up 0.3028125, 0.02510110669109733 and 5343.134012231709)."""
    view = _view_at(players, round_name)
    # (main's sampler before branch s63-ryo: origin by origin, 8 orders of the pool left;
    # the one-pass read's law: tests/test_odds_read_fused.py)
    monkeypatch.setattr(ryoseen, "READ_FUSED", False)
    monkeypatch.setattr(ryoseen, "FUTURES", 8)
    got = play_odds(view, seed=3, max_batches=3, clock=lambda: 0.0)
    monkeypatch.setattr(ryoseen, "keep_chance", _per_row)
    monkeypatch.setattr(ryoseen, "_pick_each", _pick_each_main)
    before = play_odds(view, seed=3, max_batches=3, clock=lambda: 0.0)
    assert (got.equity, got.stderr, got.effective) == (before.equity, before.stderr,
                                                       before.effective)
    assert 0.0 < got.equity < 1.0 and got.stderr > 0.0 and got.samples >= 1500
