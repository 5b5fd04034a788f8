"""Roll Your Own's Metropolis steps fused (issue 33, branch s68-fuse): the same
worlds, weights and answers bit for bit.

- ``compiled.move_chain`` makes ``ryoseen._move``'s steps before the last in one
  compiled call, drawing each step's numbers from the generator as the loop's
  numpy lines draw them: play's answers at a fixed number of batches are those of
  the loop step by step (``ryoseen._chain`` made a no-op), including where a chain
  stops on an expose not in the table and the loop makes that step from the
  chain's draws;
- ``compiled.list_slots``, ``six_slots`` and ``where_cards`` (``_move``'s tables)
  against the numpy lines they replace;
- the numpy paths still answer where ``ROLLEM_NO_NUMBA`` is set.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from rollem.odds import compiled, play, ryoseen
from ryo_views import ryo_view

pytestmark = pytest.mark.skipif(not compiled.AVAILABLE, reason="numba not installed")


@pytest.fixture(autouse=True)
def _compiled() -> None:
    assert compiled.wait(600)


def _answer(players: int, round_name: str, hand: int) -> tuple[Any, ...]:
    odds = play.play_odds(ryo_view(players, round_name, hand), seed=2, max_batches=3,
                          clock=lambda: 0.0)
    return (odds.samples, odds.win, odds.equity, odds.stderr, odds.interval, odds.effective)


@pytest.mark.parametrize(("players", "round_name", "hand"),
                         [(6, "after the wild card", 31091), (6, "after the wild card", 31014),
                          (5, "after the wild card", 31081), (4, "after the wild card", 31002),
                          (6, "third card up", 31040)])
def test_the_chain_makes_the_steps_the_loop_makes(monkeypatch: pytest.MonkeyPatch, players: int,
                                                  round_name: str, hand: int) -> None:
    made = {"calls": 0, "stops": 0, "steps": 0}
    real = compiled.move_chain

    def spy(gen: np.random.Generator, step: int, end: int, *a: Any) -> tuple[int, int]:
        stop, n_guided = real(gen, step, end, *a)
        made["calls"] += 1
        made["stops"] += stop < end
        made["steps"] += stop - step
        return stop, n_guided

    monkeypatch.setattr(compiled, "move_chain", spy)
    fused = _answer(players, round_name, hand)
    assert made["calls"] > 0 and made["steps"] >= 3 * 32
    monkeypatch.setattr(compiled, "move_chain", real)

    def none(gen: np.random.Generator, step: int, end: int, every: int, guide_every: int,
             n_guided: int, *a: Any) -> tuple[int, int, None]:
        return step, n_guided, None  # (no step made: the loop makes each)

    monkeypatch.setattr(ryoseen, "_chain", none)
    assert _answer(players, round_name, hand) == fused
    if (players, hand) != (6, 31091):
        # the chain stopped on an expose not in the table, and the loop made
        # that step from the chain's draws (at seed 2 in every view here but one)
        assert made["stops"] > 0


def _listing(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """ryoseen._move's ``listing``, its numpy lines."""
    k, wide = mask.shape
    r, c = np.nonzero(mask)
    out = np.zeros((k, wide), dtype=np.int64)
    at = np.zeros((k, wide), dtype=np.int64)
    i = (np.cumsum(mask, axis=1) - 1)[r, c]
    out[r, i] = c
    at[r, c] = i
    return out.reshape(-1), mask.sum(axis=1), at.reshape(-1)


@pytest.mark.parametrize("k", [0, 1, 300])
def test_move_tables_are_the_numpy_tables(k: int) -> None:
    gen = np.random.default_rng(k)
    m, n = 5, 26
    base = 3 * m
    wide = base + n + 1
    for share in (0.0, 0.3, 1.0):
        mask = gen.random((k, wide)) < share
        for a, b in zip(compiled.list_slots(mask), _listing(mask), strict=True):
            assert a.dtype == b.dtype and np.array_equal(a, b)
    # the pool: cards and every opponent's discards (labels 52 + 3 j + i),
    # one label left out in some worlds (numpy's argmax then gives column 0)
    order = np.array([gen.permutation(np.r_[np.arange(52, 52 + base),
                                            gen.choice(52, n - base, replace=False)])
                      for _ in range(k)], dtype=np.int64).reshape(k, n)
    if k:
        order[0, order[0] == 52 + 4] = 7
    row_w = np.arange(k) * wide
    six = np.zeros((k, m, 6), dtype=np.int64)
    for j in range(m):
        six[:, j, :3] = row_w[:, None] + 3 * j + np.arange(3)
        six[:, j, 3:] = row_w[:, None] + base + np.argmax(
            order[:, :, None] == (52 + 3 * j + np.arange(3))[None, None, :], axis=1)
    assert np.array_equal(compiled.six_slots(order, m, base, wide), six)
    state = np.array([gen.permutation(53)[:wide] for _ in range(k)],
                     dtype=np.int64).reshape(k, wide)
    hidden = gen.random((k, wide)) < 0.6
    hidden[:, wide - 1] = False
    r, c = np.nonzero(hidden)
    where = np.full((k, 53), wide - 1, dtype=np.int64)
    where[r, state[r, c]] = c
    assert np.array_equal(compiled.where_cards(state, hidden, wide - 1), where)


def test_the_numpy_paths_answer_without_numba(monkeypatch: pytest.MonkeyPatch) -> None:
    """``ROLLEM_NO_NUMBA`` in a fresh process: the numpy paths (the step-by-step
    loop, the numpy tables) give what this process gives with the compiled
    loops switched off."""
    root = Path(__file__).resolve().parent.parent
    code = ("import json; from rollem.odds import compiled, play; from ryo_views import ryo_view;"
            "assert not compiled.AVAILABLE;"
            "o = play.play_odds(ryo_view(6, 'after the wild card', 31014), seed=2,"
            " max_batches=1, clock=lambda: 0.0);"
            "print(json.dumps([o.samples, o.equity, o.stderr]))")
    env = dict(os.environ, ROLLEM_NO_NUMBA="1",
               PYTHONPATH=os.pathsep.join([str(root / "src"), str(root / "tests")]))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=300, check=True)
    monkeypatch.setattr(compiled, "ENABLED", False)
    odds = play.play_odds(ryo_view(6, "after the wild card", 31014), seed=2, max_batches=1,
                          clock=lambda: 0.0)
    samples, equity, stderr = json.loads(out.stdout.strip().splitlines()[-1])
    # (the worlds exactly; the floats to 12 places: numpy sums in another order on
    # another SIMD width, so the last bits can differ between processes' dispatch)
    assert samples == odds.samples
    assert (equity, stderr) == pytest.approx((odds.equity, odds.stderr), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("k", [0, 1, 400])
def test_the_labels_laid_out_are_the_numpy_lines(k: int) -> None:
    """``compiled.fill_labels`` (``_layout``) and ``compiled.relabel_rest``
    (``_relabel``) against the numpy lines they replace."""
    gen = np.random.default_rng(k + 7)
    for m in (2, 3, 4, 5):
        n = 3 * (1 + m)
        taken = np.zeros((k, n), dtype=bool)
        for r in range(k):
            taken[r, gen.choice(n, 3, replace=False)] = True
        order = np.where(taken, 5, -1).astype(np.int64)
        keys = gen.random((k, 3 * m))
        want = order.copy()
        free = np.argsort(taken, axis=1, kind="stable")[:, :3 * m]
        want[np.arange(k)[:, None], free] = 52 + np.argsort(keys, axis=1)
        assert compiled.fill_labels(order, taken, keys) and np.array_equal(order, want)
        # some labels' owners drawn (a place named), the rest left
        is_lab = order >= 52
        owner = np.full((k, n), -1, dtype=np.int64)
        left = np.full((k, m), 3, dtype=np.int64)
        for r in range(k):
            for p in np.flatnonzero(is_lab[r])[:int(gen.integers(0, 3 * m))]:
                j = int(gen.choice(np.flatnonzero(left[r] > 0)))
                owner[r, p] = j
                left[r, j] -= 1
        rest_keys, perm_keys = gen.random((k, 3 * m)), gen.random((k, m, 3))
        want_owner = owner.copy()
        slot = np.repeat(np.arange(m), 3)[None, :]
        used = np.tile(np.arange(3), m)[None, :] < (3 - left)[:, slot[0]]
        rest = np.argsort(np.where(used, 2.0, rest_keys), axis=1)
        places = np.argsort(~(is_lab & (owner < 0)), axis=1, kind="stable")[:, :3 * m]
        fill = np.arange(3 * m)[None, :] < (is_lab & (owner < 0)).sum(axis=1)[:, None]
        r_i, c_i = np.nonzero(fill)
        want_owner[r_i, places[r_i, c_i]] = slot[0][rest[r_i, c_i]]
        perm = compiled.relabel_rest(owner, is_lab, left, rest_keys, perm_keys)
        assert np.array_equal(owner, want_owner)
        assert np.array_equal(perm, np.argsort(perm_keys, axis=2))
