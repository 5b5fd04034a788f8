"""Roll Your Own's late views made cheaper, the same odds bit for bit (issue 33, branch s61-ryo2).

The set-up a batch repeated whatever its worlds (the origins of every
opponent's up cards, the guided steps' tables of the guides) is now worked
out once and reused; from the same seed ``play_odds`` gives what main gave
before (commit a2c828ae), to the last bit: equity, stated error and
effective worlds (docs/dev/odds-precision.md, branch s61-ryo2).

The figures were printed by main's tree with its numba kernels in use (the
numpy paths give them too, tests/test_odds_compiled.py); as that file says,
the figures hold to :data:`REL` (their last bits follow the CPU's SIMD
path), with one BLAS thread (they are computed in a process that has one: see
``one_thread_odds``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from rollem.odds import ryoseen

MAIN = [
    # players, view, hand, seed, batches: equity, stated error, effective worlds, worlds
    # (re-pinned at branch s63-ryo: the one-pass read, ryoseen.READ_FUSED, and
    # ryoseen.FUTURES 2 draw other numbers; the law is the same,
    # tests/test_odds_read_fused.py and docs/dev/odds-precision.md)
    ((6, "at:after the wild card|", 30001, 3, 3),
     ("0.2693333333333333", "0.10394690303719988", "2123.31717945613", 1500)),
    ((6, "at:after the wild card|", 30001, 21, 8),
     ("0.16225", "0.017483909664644002", "1318.9275999209601", 4000)),
    ((6, "at:after the wild card|", 30002, 13, 3),
     ("0.112", "0.05768258262219906", "281.0141492278486", 1500)),
    ((6, "at:third card up|", 30001, 5, 3),
     ("0.3248333333333333", "0.05980332850500844", "2145.2019984763297", 3000)),
    ((5, "at:third card up|", 30001, 7, 3),
     ("0.043416666666666666", "0.015499065077743254", "718.019656814796", 6000)),
    ((4, "at:third card up|", 30001, 11, 3),
     ("0.06104166666666666", "0.00279778867695592", "8864.779757844513", 12000)),
]


_ONE_THREAD = """
import json, sys
sys.path.insert(0, sys.argv[1])
from bench_play_odds import _view
from rollem.odds import compiled, play, ryoseen
from rollem.odds.play import play_odds
ryoseen.LATE_PART = 0.25  # the batches pinned (play's own, a quarter)
ryoseen.READ_MORE = 1  # (pinned before it; its law: tests/test_odds_last_read.py)
ryoseen.LEARN_THIRD_FROM = 99  # (pinned before it, branch s65-five: tests/test_odds_learn_five.py)
ryoseen.LEARN_FOUR = frozenset()  # (pinned before it, branch s65-spread, and the error
play.WORLDS_FACTOR = 1.0  # stated x 1.2 at 4 players: tests/test_odds_four_spread.py)
ryoseen.LEAN_WILD = {}  # (pinned by worlds; 6 players after the wild card leans since s67-lean6)
ryoseen.PARTIAL_LABELS = {}  # (pinned without the label steps, in play since s70-step)
ryoseen.LOOK_AHEAD = frozenset()  # (and without the look-ahead: s71-draw)
compiled.use()
compiled.wait(600)
out = []
for players, at, hand, seed, batches in json.loads(sys.argv[2]):
    odds = play_odds(_view("rollyourown", players, hand, at), seed=seed,
                     max_batches=batches, clock=lambda: 0.0)
    out.append([repr(odds.equity), repr(odds.stderr), repr(odds.effective), odds.samples])
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def one_thread_odds() -> list[list[object]]:
    """``play_odds`` of every case in :data:`MAIN`, in a process whose numpy uses one
    BLAS thread (the figures were printed so). With more threads OpenBLAS splits a
    sum differently, its last bit can differ, and a resampling step fed by it can then
    pick other worlds (third card up at 6 players gave 0.3136 for 0.33 with two threads,
    on main before this change as after it): the same seed gives the same odds on a
    given machine and thread count, not across them."""
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    env.pop("ROLLEM_NO_NUMBA", None)  # the numba kernels in use where installed (as play)
    bench = str(Path(__file__).resolve().parent.parent / "bench")
    done = subprocess.run([sys.executable, "-c", _ONE_THREAD, bench,
                           json.dumps([case for case, _ in MAIN])],
                          env=env, capture_output=True, text=True, timeout=900, check=True)
    result: list[list[object]] = json.loads(done.stdout)
    return result


REL = 1e-12
"""How far a figure may be from its pin: the last bits of a sum depend on the CPU's
SIMD path (an AVX-512 machine gave the stated errors and effective worlds one or two
units in the 16th digit off, the same worlds and equities; stop 64). A change that
draws or picks other worlds moves a figure by far more (a batch's equity by whole
worlds in 1,500)."""


@pytest.mark.parametrize("index", range(len(MAIN)))
def test_play_odds_is_mains_to_the_bit(index: int, one_thread_odds: list[list[object]]) -> None:
    got, pinned = one_thread_odds[index], MAIN[index][1]
    assert got[3] == pinned[3], MAIN[index][0]  # the worlds drawn
    for value, pin in zip(got[:3], pinned[:3], strict=True):
        assert float(str(value)) == pytest.approx(float(pin), rel=REL, abs=0.0), MAIN[index][0]


def test_origins_are_worked_out_once_and_the_same() -> None:
    o = ryoseen.SeenOpponent(seat=1, ups=[1, 2, 3], draws=[1, 7], live=True)
    first = ryoseen._origins(o, {9})
    assert first == [(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 1, 0), (0, 1, 2)]
    assert ryoseen._origins(ryoseen.SeenOpponent(2, [1, 2, 3], [4, 5], True), {9}) is first
    # a discard of the seat shown is drawn: another answer
    assert ryoseen._origins(o, {1}) == []
    assert ryoseen._origins(o, {3}) == [(0, 0, 1), (0, 0, 2), (0, 1, 2)]


def test_steer_tables_are_laid_out_once_for_the_same_guides() -> None:
    seen = ryoseen.SeenPool(mine=[], discards=[40, 41, 42], my_draws=[], drawn=2, wild=None,
                            opponents=[ryoseen.SeenOpponent(1, [1, 2, 3], [0, 1], True)])
    guides = {(0, (0, 0, 0)): (np.zeros((0, 0), np.int64), np.zeros(1)),
              (0, (0, 0, 1)): (np.array([[10, 11], [12, 13]]), np.array([0.25, 0.75]))}
    origin = np.array([[0], [1], [1]])
    a = ryoseen._Steer(seen, origin, guides, 3)
    b = ryoseen._Steer(seen, origin[::-1].copy(), guides, 3)
    assert a.tab is b.tab and a.log_g is b.log_g  # the same tables, not laid out again
    assert a.gid[:, 0].tolist() == [-1, 0, 0] and b.gid[:, 0].tolist() == [0, 0, -1]
    assert a.cum.tolist() == [0.25, 1.0] and a.size.tolist() == [2]
    assert a.log_g[10 * 52 + 11] == a.log_g[11 * 52 + 10] == np.log(0.25)
    c = ryoseen._Steer(seen, origin, {**guides, (0, (0, 0, 1)): (np.array([[10]]),
                                                                np.array([1.0]))}, 3)
    assert c.tab is not a.tab and c.tab.tolist() == [[10, 10]] and c.size.tolist() == [1]
