"""Roll Your Own's odds made faster without changing what they compute (issue 33,
branch s67-fast): the same worlds, weights and answers bit for bit for a seed and
a number of batches.

- ``compiled.read_draw`` makes an origin's first-card masses once per available
  set and finds a pair's second card by bisection, and makes only about the
  uniforms a call uses, skipping the rest (``compiled.skip_uniforms``): checked
  against the old kernel (tests/ryo_read_draw_reference.py) on the calls of real
  views, candidates, factors and the generator's state after;
- ``compiled.name_read`` names a read's cards in one pass: checked against the
  numpy path;
- play's answers at a fixed number of batches (counting clock) pinned to what
  main gave without the branch (3c958b95), at 4, 5 and 6 players after the wild
  card and 6 players in the third card up round.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from rollem.odds import compiled, play, ryoseen
from ryo_views import ryo_view

pytestmark = pytest.mark.skipif(not compiled.AVAILABLE, reason="numba not installed")


def _calls(monkeypatch: pytest.MonkeyPatch, players: int, round_name: str, hand: int,
           batches: int) -> list[tuple[dict[str, Any], tuple[Any, ...]]]:
    """``compiled.read_draw``'s calls (the generator's state before, the arguments)
    in ``batches`` of play's batches on a counting clock."""
    calls: list[tuple[dict[str, Any], tuple[Any, ...]]] = []
    real = compiled.read_draw

    def spy(gen: np.random.Generator, *args: Any) -> Any:
        calls.append((gen.bit_generator.state, tuple(np.copy(a) if isinstance(a, np.ndarray)
                                                     else a for a in args)))
        return real(gen, *args)

    monkeypatch.setattr(compiled, "read_draw", spy)
    play.play_odds(ryo_view(players, round_name, hand), seed=3, max_batches=batches,
                   clock=lambda: 0.0)
    monkeypatch.setattr(compiled, "read_draw", real)
    return calls


def _gen(state: dict[str, Any], half: bool) -> np.random.Generator:
    gen = np.random.Generator(np.random.PCG64())
    gen.bit_generator.state = state
    if half:  # a buffered 32-bit half, as the bounded integers leave one
        gen.integers(0, 7, 3)
    return gen


@pytest.mark.parametrize(("players", "round_name", "hand"),
                         [(6, "after the wild card", 31091), (6, "after the wild card", 31014),
                          (5, "after the wild card", 31091),
                          (6, "third card up", 31014)])
def test_read_draw_is_the_old_kernel_bit_for_bit(monkeypatch: pytest.MonkeyPatch, players: int,
                                                 round_name: str, hand: int) -> None:
    from ryo_read_draw_reference import reference_read_draw

    calls = _calls(monkeypatch, players, round_name, hand, 2)
    assert calls
    modes = set()
    for state, args in calls:
        modes |= {int(x) for x in args[6][np.unique(args[0])]}  # the origins' draws used
        for half in (False, True):
            old_gen, new_gen = _gen(state, half), _gen(state, half)
            old = reference_read_draw(old_gen, *args)
            new = compiled.read_draw(new_gen, *args)
            for a, b in zip(old, new, strict=True):
                assert np.array_equal(a, b)
            assert new[0].dtype == new[1].dtype == np.int32  # (the cards' buffers)
            assert old_gen.bit_generator.state == new_gen.bit_generator.state
            assert np.array_equal(old_gen.integers(0, 9, 5), new_gen.integers(0, 9, 5))
            assert old_gen.random() == new_gen.random()
    if players == 6 and round_name == "after the wild card":
        assert modes >= {1, 2}, modes  # single and pair guides both read


@pytest.mark.parametrize("n", [0, 1, 100, compiled.SKIP_FROM, 50_000])
@pytest.mark.parametrize("half", [False, True])
def test_skip_uniforms_leaves_the_generator_where_drawing_does(n: int, half: bool) -> None:
    for bits in (np.random.PCG64(5), np.random.PCG64DXSM(5), np.random.MT19937(5)):
        drawn, skipped = np.random.Generator(bits), np.random.Generator(type(bits)(5))
        if half:
            drawn.integers(0, 7, 3)
            skipped.integers(0, 7, 3)
        drawn.random(n)
        compiled.skip_uniforms(skipped, n)
        assert np.array_equal(drawn.integers(0, 1000, 7), skipped.integers(0, 1000, 7))
        assert np.array_equal(drawn.random(5), skipped.random(5))


@pytest.mark.parametrize("d", [0, 1, 2, 3])
def test_name_read_names_as_the_numpy_path(d: int) -> None:
    gen = np.random.default_rng(d)
    k, labels, j = 300, 15, 2
    order = gen.integers(0, 52 + labels, (k, 18))
    draws = np.sort(gen.choice(18, d, replace=False)).astype(np.int64)
    kept = gen.integers(0, 52, (k, 3))
    val = gen.integers(-1, 52, (k, 3 + d))
    named = gen.integers(-1, 52, (k, labels))
    avail = gen.random((k, 52)) < 0.7
    rows = np.arange(k)
    want_named, want_avail = named.copy(), avail.copy()
    lab = np.concatenate([np.broadcast_to(np.arange(3 * j, 3 * j + 3), (k, 3)),
                          order[:, draws] - 52], axis=1)
    for s in range(3 + d):
        is_lab = lab[:, s] >= 0
        want_named[rows[is_lab], lab[is_lab, s]] = val[is_lab, s]
    want_avail[rows[:, None], kept] = False
    want_avail[rows[:, None], np.clip(val, 0, 51)] = False
    assert compiled.name_read(named, avail, kept, val, order, draws, j)
    assert np.array_equal(named, want_named) and np.array_equal(avail, want_avail)
    # not C-ordered: nothing changed, the caller's numpy path
    fortran = np.asfortranarray(want_named)
    assert not compiled.name_read(fortran, avail, kept, val, order, draws, j)
    assert np.array_equal(fortran, want_named)


# play_odds(view, seed=1, max_batches=3) on a counting clock, on main without the
# branch (3c958b95): worlds, win, equity, stderr, interval, effective worlds
MAIN = [
    (6, "after the wild card", 31014,
     (1500, 0.8173333333333332, 0.8173333333333332, 0.07430230554771118, 0.14563251887351392,
      1896.8321436155443)),
    (5, "after the wild card", 31091,
     (3000, 0.10116666666666665, 0.10116666666666665, 0.005563064573096779,
      0.010916358763809274, 2941.3058398003795)),
    (4, "after the wild card", 31002,
     (1500, 0.5683333333333334, 0.5683333333333334, 0.03798496778697833, 0.07445053686247752,
      391.2078091865396)),
    (6, "third card up", 31014,
     (3000, 0.1815, 0.1815, 0.02757401190025883, 0.05404506332450731, 739.0571518599178)),
]


@pytest.mark.parametrize(("players", "round_name", "hand", "want"), MAIN)
def test_play_answers_at_a_fixed_batch_count_are_mains(players: int, round_name: str, hand: int,
                                                       want: tuple[Any, ...],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("rollem.odds.ryoseen.PARTIAL_LABELS", {})  # (pinned without: s70-step)
    monkeypatch.setattr("rollem.odds.ryoseen.LOOK_AHEAD", frozenset())  # (and: s71-draw)
    # the batches by worlds, as pinned (6 players after the wild card leans towards
    # their ratio of sums since branch s67-lean6: ryoseen.LEAN_WILD; 5 players after the
    # wild card pools the batches' stated errors with their spread since branch s68-five:
    # ryoseen.STATED_WILD)
    monkeypatch.setattr(ryoseen, "LEAN_WILD", {})
    monkeypatch.setattr(ryoseen, "STATED_WILD", {})
    # (the interval as pinned, Wald's: three batches' relative errors are large, and
    # branch s70-edge allows for the error's growth towards the middle there)
    monkeypatch.setattr(play, "edge_half_width", lambda e, se, beta=2.0: play.Z95 * se)
    odds = play.play_odds(ryo_view(players, round_name, hand), seed=1, max_batches=3,
                          clock=lambda: 0.0)
    # (the worlds exactly; the floats to 12 places: their last bits follow the
    # machine's SIMD width, numpy summing in another order with AVX2 than AVX-512)
    assert odds.samples == want[0]
    assert (odds.win, odds.equity, odds.stderr, odds.interval,
            odds.effective) == pytest.approx(want[1:], rel=1e-12, abs=1e-15)
