"""The Roll Your Own samplers' compiled loops give the numpy paths' results
bit for bit (issue 33, branch s57-ryo: rollem/odds/compiled.py)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from rollem.odds import compiled, keepchance, ryoseen
from rollem.odds.play import play_odds

pytest.importorskip("numba")
if not compiled.AVAILABLE:  # (ROLLEM_NO_NUMBA set: the numpy paths only, nothing to compare)
    pytest.skip("ROLLEM_NO_NUMBA is set", allow_module_level=True)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from bench_play_odds import _view
from ryo_views import count_chain_steps


@pytest.fixture(autouse=True)
def _compiled() -> None:
    """The loops compiled before each test (in the background otherwise)."""
    assert compiled.wait(600)


def _both(monkeypatch: pytest.MonkeyPatch, fn: Any) -> tuple[Any, Any]:
    """``fn()`` with the compiled loops, then with the numpy paths."""
    monkeypatch.setattr(compiled, "ENABLED", True)
    on = fn()
    monkeypatch.setattr(compiled, "ENABLED", False)
    off = fn()
    return on, off


def test_numba_is_used_where_installed() -> None:
    assert compiled.AVAILABLE and compiled.ENABLED and compiled.use()
    assert type(compiled._move_propose_compiled).__module__.startswith("numba")


def test_processes_started_together_compile_one_at_a_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """While another process compiles (it holds the lock: here a second open
    file of this one), the warm-up waits and compiles nothing; then it goes on,
    and loads the cache that process wrote. A lock held past LOCK_WAIT is not
    waited for any longer."""
    calls: list[float] = []
    monkeypatch.setattr(compiled, "_compile_all", lambda: calls.append(time.monotonic()))
    with compiled._compile_lock():
        warm = threading.Thread(target=compiled._warm)
        warm.start()
        warm.join(0.6)
        assert warm.is_alive() and calls == []
        held_to = time.monotonic()
    warm.join(60)
    assert not warm.is_alive() and len(calls) == 1 and calls[0] >= held_to
    assert compiled.use()
    monkeypatch.setattr(compiled, "LOCK_WAIT", 0.3)
    with compiled._compile_lock():
        start = time.monotonic()
        warm = threading.Thread(target=compiled._warm)
        warm.start()
        warm.join(60)
        assert not warm.is_alive() and len(calls) == 2 and calls[1] - start >= 0.3


_NEW_WORKER = """
import sys
sys.path.insert(0, {bench!r})
from bench_play_odds import _view
from rollem.odds import compiled
from rollem.server.budget_workers import BudgetWorkers
from rollem.server.game_session import ODDS_PRELOAD, seat_odds
from rollem.server.live_table import LiveTable
from rollem.server.live_table.messages import ODDS_CPU_SECONDS, ODDS_SAMPLES

# The CPU budget is what is tested. The worker runs niced (budget_workers.NICE), so on a
# machine busy with other work (a CI run beside benchmarks) it can wait past the
# table's wall-clock limit while using no more CPU than quiet (stops 65-68 saw
# "past its wall-clock limit of 15 s" only then): the wall is made generous here.
WALL = 300.0

if __name__ == "__main__":
    workers = BudgetWorkers(preload=ODDS_PRELOAD)
    view = _view("rollyourown", 6, 30001, "at:third card up|")
    odds = workers.run(seat_odds, (view, ODDS_SAMPLES, None,
                                   min(ODDS_CPU_SECONDS, LiveTable.ODDS_BUDGET * 2 / 3)),
                       budget=LiveTable.ODDS_BUDGET, wall=WALL)
    print("ANSWER", odds["samples"], workers.run(compiled.use, (), budget=5))
"""


def test_a_new_odds_worker_has_the_compiled_loops_and_answers_within_its_budget() -> None:
    """The practice-odds workers' fork server has the compiled loops ready
    (rollem/server/odds_preload.py): a new worker answers a late 6-player view
    within LiveTable.ODDS_BUDGET and uses them. On main every new worker went
    over the budget (its own compile, or numba's import and cache load, counted
    against it). In a process of its own: the fork server and its preload are
    one a process, whoever starts it first."""
    bench = str(Path(__file__).resolve().parent.parent / "bench")
    out = subprocess.run([sys.executable, "-c", _NEW_WORKER.format(bench=bench)],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    samples, used = out.stdout.split("ANSWER", 1)[1].split()
    assert int(samples) >= 1000 and used == "True"


@pytest.mark.parametrize("n", [1, 7, 1999, 2000, 5000])
@pytest.mark.parametrize("tremble", [0.0, 0.05])
def test_keep_chance_compiled_is_the_numpy_chance_bit_for_bit(
        n: int, tremble: float, monkeypatch: pytest.MonkeyPatch) -> None:
    gen = np.random.default_rng(n)
    six = np.argsort(gen.random((n, 52)), axis=1)[:, :6]
    on, off = _both(monkeypatch,
                    lambda: keepchance.keep_chance(six[:, :3], six[:, 3:], tremble))
    assert on.dtype == off.dtype == np.float64 and on.shape == (n,)
    assert on.tobytes() == off.tobytes()


def test_keep_chance_compiled_on_hand_made_hands(monkeypatch: pytest.MonkeyPatch) -> None:
    # aces kept with a king of either suit: the two keeps tie, half each;
    # trips kept with a 5% tremble: 0.95 + 0.0025; kept cards in int32
    kept = np.array([[48, 49, 44], [48, 49, 50], [0, 5, 10]], dtype=np.int32)
    thrown = np.array([[45, 0, 5], [0, 5, 10], [48, 49, 50]], dtype=np.int32)
    on, off = _both(monkeypatch, lambda: keepchance.keep_chance(kept, thrown, 0.05))
    assert on.tolist() == off.tolist()
    assert on[1] == 0.95 + 0.0025 and on[2] == 0.0025
    assert 0.4 < on[0] < 0.5


@pytest.mark.parametrize(("m", "reps", "excluded"), [(1, 1, 0), (5, 16, 0), (3, 16, 2),
                                                      (8, 4, 1)])
def test_pick_each_compiled_draws_the_numpy_cards_from_the_same_stream(
        m: int, reps: int, excluded: int, monkeypatch: pytest.MonkeyPatch) -> None:
    gen = np.random.default_rng(7)
    avail = gen.random((300, 52)) < 0.4
    avail[:, :12] = True  # at least 12 cards a row
    exclude = None
    if excluded:
        exclude = np.repeat(np.arange(excluded)[None, :] + 3, 300 * reps, axis=0)

    def draw() -> tuple[Any, float]:
        g = np.random.default_rng(11)
        out = ryoseen._pick_each(g, avail, reps, m, exclude=exclude)
        return out, float(g.random())  # where the generator was left

    (on, next_on), (off, next_off) = _both(monkeypatch, draw)
    assert on.shape == (300 * reps, m) and (on == off).all() and next_on == next_off
    rows = np.repeat(np.arange(300), reps)
    assert avail[rows[:, None], on].all()
    srt = np.sort(on, axis=1)
    assert (srt[:, 1:] != srt[:, :-1]).all()
    if exclude is not None:
        assert not (on[:, :, None] == exclude[:, None, :]).any()


def test_sample_rows_compiled_searches_as_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    gen = np.random.default_rng(3)
    mass = (gen.random((200, 52)) * (gen.random((200, 52)) < 0.3)).astype(np.float32)
    mass[5] = 0.0  # a row with no mass: its last index, as numpy's clip gives
    mass[6, :] = 0.0
    mass[6, 51] = 1.0

    def draw() -> Any:
        return ryoseen._sample_rows(np.random.default_rng(5), mass, 9)

    on, off = _both(monkeypatch, draw)
    assert (on == off).all() and on.shape == (1800,)
    assert (on[45:54] == 51).all() and (on[54:63] == 51).all()
    live = np.repeat(mass.sum(axis=1) > 0, 9)
    assert (mass[np.repeat(np.arange(200), 9), on][live] > 0).all()


def test_second_of_pair_compiled_as_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    gen = np.random.default_rng(4)
    pair = gen.random((52, 52)) * (gen.random((52, 52)) < 0.2)
    pair = (pair + pair.T).astype(np.float32)
    avail = gen.random((100, 52)) < 0.5
    first = np.repeat(np.argmax(avail * pair.sum(axis=1), axis=1), 4)

    def draw() -> Any:
        return ryoseen._second_of_pair(np.random.default_rng(8), pair, avail, first, 4)

    on, off = _both(monkeypatch, draw)
    assert (on == off).all()


VIEWS = [(6, "at:third card up|", 30001), (6, "at:after the wild card|", 30001),
         (6, "late", 30001), (5, "at:third card up|", 30001), (6, "at:third card up|", 30002),
         (4, "at:third card up|", 30001)]


@pytest.mark.parametrize(("players", "want", "hand"), VIEWS)
def test_play_odds_compiled_is_the_numpy_odds_bit_for_bit(
        players: int, want: str, hand: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("rollem.odds.ryoseen.PARTIAL_LABELS", {})  # (pinned without: s70-step)
    monkeypatch.setattr("rollem.odds.ryoseen.LOOK_AHEAD", frozenset())  # (and: s71-draw)
    view = _view("rollyourown", players, hand, want)
    # (origin by origin: the one-pass read has its own stream, branch s63-ryo;
    # tests/test_odds_read_fused.py checks its law)
    monkeypatch.setattr(ryoseen, "READ_FUSED", False)
    on, off = _both(monkeypatch,
                    lambda: play_odds(view, seed=3, max_batches=3, clock=lambda: 0.0))
    assert (on.equity, on.stderr, on.effective, on.samples) == (
        off.equity, off.stderr, off.effective, off.samples)
    assert 0.0 <= on.equity <= 1.0 and on.samples >= 1000


def test_play_odds_6_players_calls_the_compiled_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """At 6 players third card up every Metropolis step (card, place and
    guided) runs compiled, and the seeded odds are the numpy path's
    (0.30460416666666673 at commit b1e76a3, main's sampler; to the last bits
    only where numpy's sums take the same SIMD path: another build or CPU may
    round the last place differently, as this machine's 0.3046041666666667)."""
    monkeypatch.setattr("rollem.odds.ryoseen.READ_MORE", 1)  # (pinned without it: stop 64)
    monkeypatch.setattr(ryoseen, "READ_FUSED", False)  # (origin by origin, as then,
    monkeypatch.setattr(ryoseen, "FUTURES", 8)  # and 8 orders of the pool left)
    calls = {"move": 0, "steer": 0, "keep": 0, "pick": 0, "names": 0, "choose": 0,
             "weigh": 0, "sample": 0}
    for name, what in (("move_propose", "move"), ("steer_propose", "steer"),
                       ("move_step", "move"), ("steer_step", "steer"),
                       ("keep_chance_rows", "keep"), ("pick_each_rows", "pick"),
                       ("pick_avail_rows", "pick"), ("read_weigh", "weigh"),
                       ("read_names", "names"), ("choose_rows", "choose"),
                       ("sample_rows", "sample")):
        real = getattr(compiled, name)

        def spy(*a: Any, _real: Any = real, _what: str = what, **kw: Any) -> Any:
            calls[_what] += 1
            return _real(*a, **kw)

        monkeypatch.setattr(compiled, name, spy)
    count_chain_steps(monkeypatch, calls, "move", "steer")
    view = _view("rollyourown", 6, 30001, "at:third card up|")
    # whole batches, as before branch s58-ryo's half batches in play
    odds = play_odds(view, seed=3, max_batches=3, clock=lambda: 0.0, batch_part=1.0)
    assert odds.equity == pytest.approx(0.30460416666666673, rel=0, abs=1e-15)
    assert calls["move"] >= 3 * 48 and calls["steer"] >= 3 * 16
    assert calls["keep"] > 0 and calls["pick"] > 0
    # every opponent read (5 a batch) lays out and chooses compiled (branch s57-ryo2),
    # and lays out and weighs its candidates in one call (branch s62-ryo)
    assert calls["choose"] >= 3 * 5 and calls["weigh"] >= calls["choose"]
    assert calls["sample"] > 0


@pytest.mark.parametrize(("d", "u", "reps"), [(0, 0, 1), (2, 1, 16), (3, 3, 4), (1, 2, 8)])
def test_read_names_compiled_lays_out_as_numpy(d: int, u: int, reps: int) -> None:
    # _read_opponent's numpy layout of one origin's candidates, written out
    gen = np.random.default_rng(d * 10 + u)
    k, f = 50, 3 - u
    sub = np.flatnonzero(gen.random(k) < 0.6)
    ks = len(sub)
    cur = gen.integers(-1, 52, (k, 3 + d))
    fresh = gen.random((k, 3 + d)) < 0.5
    dup_l = [gen.integers(-2, 5, k) for _ in range(d)]
    dup_ok_l = [(x >= 0) & (x < 3) for x in dup_l]
    names = gen.integers(0, 52, (ks * reps, 3 + d))
    hidden = gen.integers(0, 52, (ks * reps, f))
    kept_up = np.arange(u, dtype=np.int64) + 40
    want_kept = np.full((k, reps, 3), -7, dtype=np.int64)
    want_val = np.full((k, reps, 3 + d), -7, dtype=np.int64)
    val_r = np.where(np.repeat(fresh[sub], reps, axis=0), names,
                     np.repeat(cur[sub], reps, axis=0))
    for r in range(d):
        own_i = np.repeat(np.where(dup_ok_l[r][sub], dup_l[r][sub], 0), reps)
        val_r[:, 3 + r] = np.where(np.repeat(dup_ok_l[r][sub], reps),
                                   val_r[np.arange(ks * reps), own_i], val_r[:, 3 + r])
    kept = np.concatenate([np.broadcast_to(kept_up, (ks * reps, u)), hidden], axis=1)
    want_kept[sub] = kept.reshape(ks, reps, 3)
    want_val[sub] = val_r.reshape(ks, reps, 3 + d)
    got_kept = np.full((k, reps, 3), -7, dtype=np.int64)
    got_val = np.full((k, reps, 3 + d), -7, dtype=np.int64)
    dup = np.stack(dup_l, axis=1) if d else np.zeros((k, 0), dtype=np.int64)
    dup_ok = np.stack(dup_ok_l, axis=1) if d else np.zeros((k, 0), dtype=bool)
    k2, v2, thrown, shown = compiled.read_names(sub, reps, names, cur, fresh, dup, dup_ok,
                                                kept_up, hidden, got_kept, got_val)
    assert k2.tolist() == kept.tolist() and v2.tolist() == val_r.tolist()
    assert thrown.tolist() == np.maximum(val_r[:, :3], 0).tolist()
    assert shown.tolist() == np.concatenate([kept, val_r[:, 3:]], axis=1).tolist()
    assert got_kept.tolist() == want_kept.tolist() and got_val.tolist() == want_val.tolist()
    assert (got_val[sub] != -7).all() and (np.delete(got_val, sub, axis=0) == -7).all()


@pytest.mark.parametrize("reps", [1, 4, 16])
def test_choose_rows_compiled_picks_the_numpy_candidate(reps: int) -> None:
    gen = np.random.default_rng(reps)
    k = 400
    out_w = gen.random((k, reps)) * (gen.random((k, reps)) < 0.7)
    out_w[:5] = 0.0  # no weight: no running sum under 0, the first candidate
    out_w[5, :] = [0.1] * reps  # running sums rounded as numpy's cumsum rounds them
    out_kept = gen.integers(0, 52, (k, reps, 3))
    out_val = gen.integers(-1, 52, (k, reps, 5))
    u01 = gen.random(k) * out_w.sum(axis=1)
    out_w[6] = 1.0
    u01[6] = reps  # at the total: the last one
    choice = np.minimum((np.cumsum(out_w, axis=1) < u01[:, None]).sum(axis=1), reps - 1)
    kept, val = compiled.choose_rows(out_w, u01, out_kept, out_val)
    rows = np.arange(k)
    assert kept.tolist() == out_kept[rows, choice].tolist()
    assert val.tolist() == out_val[rows, choice].tolist()
    assert choice[:5].tolist() == [0] * 5 and choice[6] == reps - 1
