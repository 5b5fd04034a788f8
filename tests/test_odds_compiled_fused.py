"""The RYO chain's fused compiled calls give what the separate kernels and
the numpy steps between them gave, bit for bit (issue 33, branch s62-ryo:
rollem/odds/compiled.py's ``sample_rows``, ``second_round``, ``move_step``,
``steer_step``, ``read_weigh`` and ``relabel_owners``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from rollem.odds import compiled, ryoseen
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


def _separate_move_step(place: bool, r1: Any, r2: Any, c2_at: Any, r3: Any, ok_rows: Any,
                        flat_state: Any, listed: Any, size: Any, firsts: Any, n_firsts: Any,
                        places: Any, n_places: Any, unseen: Any, flat_where: Any,
                        flat_keeper: Any, show_reader: Any, flat_six: Any, lik_keep: Any,
                        lik_show: Any, show_key: Any, flat_power: Any, show_flat: Any,
                        keep_table: Any, tremble: float, in_six: Any, is_unseen: Any,
                        index: Any, m: int, wide: int, buffers: tuple[Any, ...]) -> bool:
    """A step as before branch s62-ryo: the proposal kernel, numpy's
    acceptance, the apply kernel (a miss handed back, as ``move_step``)."""
    proposal = compiled.move_propose(
        place, r1, r2, c2_at, flat_state, listed, size, firsts, n_firsts, places, n_places,
        unseen, flat_where, flat_keeper, show_reader, flat_six, lik_keep, lik_show, show_key,
        flat_power, show_flat, keep_table, tremble, m, wide)
    for dst, src in zip(buffers[:10], proposal, strict=True):
        dst[...] = src
    if np.isnan(proposal[7][:, 2:]).any():
        return False
    with np.errstate(divide="ignore"):
        logs = np.log(proposal[8])
    log_ratio = (logs[:, 0] + logs[:, 1]) + (logs[:, 2] + logs[:, 3])
    accept = (r3 < np.exp(log_ratio)) & ok_rows
    compiled.move_apply(place, accept, proposal, flat_state, flat_keeper, flat_six, in_six,
                        is_unseen, flat_where, listed, index, lik_keep, lik_show, show_key, m,
                        wide)
    return True


def _separate_steer_step(j: int, r: Any, r_acc: Any, *rest: Any) -> tuple[bool, Any]:
    """A guided step as before branch s62-ryo: the proposal kernel, numpy's
    acceptance, the apply kernel."""
    (gid, lo, hi, cum, start, end, size, tab, log_g, flat_state, flat_where, flat_keeper,
     show_reader, flat_six, flat_power, lik_keep, lik_show, show_key, show_flat, keep_table,
     tremble, m, wide, stub) = rest
    proposal = compiled.steer_propose(j, r, gid, lo, hi, cum, start, end, size, tab, log_g,
                                      flat_state, flat_where, flat_keeper, show_reader,
                                      flat_six, flat_power, lik_keep, lik_show, show_key,
                                      show_flat, keep_table, tremble, m, wide)
    _, _, base, live, _, new8, ratio8, _ = proposal
    if np.isnan(new8[:, 4:]).any():
        return False, proposal
    with np.errstate(divide="ignore"):
        logs = np.log(ratio8)
    log_ratio = base + (((logs[:, 0] + logs[:, 1]) + logs[:, 2]) + logs[:, 3])
    log_ratio += ((logs[:, 4] + logs[:, 5]) + logs[:, 6]) + logs[:, 7]
    accept = (r_acc < np.exp(log_ratio)) & live
    compiled.steer_apply(accept, proposal, flat_state, flat_where, lik_keep, lik_show,
                         show_key, wide, stub)
    return True, proposal


VIEWS = [(6, "at:after the wild card|", 30001, 3), (6, "at:after the wild card|", 30002, 13),
         (6, "at:third card up|", 30001, 5), (5, "at:third card up|", 30001, 7)]


@pytest.mark.parametrize(("players", "want", "hand", "seed"), VIEWS)
def test_fused_calls_are_the_separate_kernels_and_numpy_bit_for_bit(
        players: int, want: str, hand: int, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("rollem.odds.ryoseen.PARTIAL_LABELS", {})  # (pinned without: s70-step)
    monkeypatch.setattr("rollem.odds.ryoseen.LOOK_AHEAD", frozenset())  # (and: s71-draw)
    view = _view("rollyourown", players, hand, want)
    # (origin by origin, as before branch s63-ryo: its one-pass read draws
    # from its own stream; tests/test_odds_read_fused.py checks its law)
    monkeypatch.setattr(ryoseen, "READ_FUSED", False)
    calls = {"move_step": 0, "steer_step": 0, "read_weigh": 0, "relabel_owners": 0}
    for name in calls:
        real = getattr(compiled, name)

        def spy(*a: Any, _real: Any = real, _name: str = name, **kw: Any) -> Any:
            calls[_name] += 1
            return _real(*a, **kw)

        monkeypatch.setattr(compiled, name, spy)
    count_chain_steps(monkeypatch, calls, "move_step", "steer_step")

    def odds() -> tuple[str, str, str, int]:
        o = play_odds(view, seed=seed, max_batches=3, clock=lambda: 0.0)
        return repr(o.equity), repr(o.stderr), repr(o.effective), o.samples

    fused = odds()
    if players == 6:  # (64 steps a world: 48 card or place steps, 16 guided)
        assert calls["move_step"] >= 3 * 48 and calls["steer_step"] >= 3 * 16
    assert calls["move_step"] > 0
    assert calls["read_weigh"] >= 3 * (players - 1)
    if players == 6 and "wild" in want:
        assert calls["relabel_owners"] >= 3  # (the owners steered: one a batch)
    with monkeypatch.context() as mp:
        # the steps as before: proposal, numpy's acceptance, apply; the
        # candidates laid out (read_names), then weighed in numpy
        mp.setattr(ryoseen, "_chain", lambda gen, step, end, every, guide_every, n_guided,
                   *a: (step, n_guided, None))  # (no chain: every step one by one)
        mp.setattr(compiled, "move_step", _separate_move_step)
        mp.setattr(compiled, "steer_step", _separate_steer_step)
        mp.setattr(compiled, "read_weigh", lambda *a, **kw: False)
        separate = odds()
    assert fused == separate
    monkeypatch.setattr(compiled, "ENABLED", False)  # every numpy path
    assert odds() == fused


def test_sample_rows_compiled_of_float64_masses_as_numpy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # _layout's and _relabel's masses are float64 (the guides' float32)
    gen = np.random.default_rng(11)
    mass = gen.random((300, 7)) * (gen.random((300, 7)) < 0.5) * gen.integers(1, 4, (300, 7))
    mass[3] = 0.0  # a row with no mass: its last index, as numpy's clip gives

    def draw() -> Any:
        return ryoseen._sample_rows(np.random.default_rng(2), mass, 5)

    monkeypatch.setattr(compiled, "ENABLED", True)
    on = draw()
    monkeypatch.setattr(compiled, "ENABLED", False)
    off = draw()
    assert on.tolist() == off.tolist() and on.shape == (1500,)
    live = np.repeat(mass.sum(axis=1) > 0, 5)
    assert (mass[np.repeat(np.arange(300), 5), on][live] > 0).all()
    assert (on[15:20] == 6).all()


def test_pair_tables_are_laid_out_once_per_guide() -> None:
    table = np.array([[0, 1], [2, 3], [1, 5]], dtype=np.int64)
    prob = np.array([0.5, 0.25, 0.25])
    pair, (cum, starts, ends) = ryoseen._pair_tables(table, prob)
    assert ryoseen._pair_tables(table, prob)[0] is pair  # (the same guide: reused)
    assert ryoseen._pair_tables(table.copy(), prob)[0] is not pair
    assert pair.dtype == np.float32 and pair[0, 1] == pair[1, 0] == np.float32(0.5)
    assert pair[5, 1] == np.float32(0.25) and pair.sum() == np.float32(2.0)
    want = np.cumsum(pair.astype(np.float64).reshape(-1))
    assert cum.tolist() == want.tolist() and ends.tolist() == want[51::52].tolist()
    assert starts.tolist() == [0.0, *want[51::52][:-1].tolist()]
