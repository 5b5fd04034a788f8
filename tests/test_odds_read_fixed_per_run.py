"""A Roll Your Own run reads its opponents one way from start to end (issue 33).

The one-pass read (compiled ``read_draw``/``read_score``, ryoseen.READ_FUSED) and
the origin-by-origin read draw other random numbers under the same law, and the
kernels become ready in a background thread: a run that switched mid-way would
give a seed different figures from one process to the next. So a run fixes its
read when it begins (play's batches: when the first began), and a seeded run
outside play waits for the kernels, so that a seed gives the same figures."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rollem.odds import compiled, ryoseen
from rollem.odds.view import read_view

pytest.importorskip("numba")
if not compiled.AVAILABLE:  # (ROLLEM_NO_NUMBA set: one read only)
    pytest.skip("ROLLEM_NO_NUMBA is set", allow_module_level=True)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from bench_play_odds import _view


@pytest.fixture(scope="module")
def late_seen() -> ryoseen.SeenPool:
    assert compiled.wait(600)  # (the real kernels: the spy below only says when)
    seen = ryoseen.seen_of(read_view(_view("rollyourown", 6, 30001,
                                           "at:after the wild card|")))
    assert seen is not None
    return seen


def _spy(monkeypatch: pytest.MonkeyPatch, ready_after: int) -> tuple[list[bool], list[float]]:
    """compiled.use answers False for its first ``ready_after`` calls, then True
    (the kernels arriving mid-run: every later step compiled); records what each
    read used, and the waits."""
    calls = [0]
    reads: list[bool] = []
    waits: list[float] = []

    def use() -> bool:
        calls[0] += 1
        return calls[0] > ready_after

    def wait(timeout: float | None = None) -> bool:
        waits.append(timeout if timeout is not None else -1.0)
        return use()

    real = ryoseen._fused_now

    def fused_now() -> bool:
        reads.append(real())
        return reads[-1]

    monkeypatch.setattr(compiled, "use", use)
    monkeypatch.setattr(compiled, "wait", wait)
    monkeypatch.setattr(ryoseen, "_fused_now", fused_now)
    monkeypatch.setattr(ryoseen, "READ_FUSED", True)
    return reads, waits


def test_kernels_arriving_mid_run_do_not_switch_its_read(
        late_seen: ryoseen.SeenPool, monkeypatch: pytest.MonkeyPatch) -> None:
    # unseeded (no wait): the kernels not ready when it began, ready at the next ask
    reads, waits = _spy(monkeypatch, ready_after=1)
    odds = ryoseen.ryo_seen_look(late_seen, samples=500)
    assert odds is not None
    assert waits == []
    assert len(reads) >= 5 and set(reads) == {False}  # (5 opponents, each read once at least)


def test_play_batches_read_as_the_first_batch_began(
        late_seen: ryoseen.SeenPool, monkeypatch: pytest.MonkeyPatch) -> None:
    reads, waits = _spy(monkeypatch, ready_after=1)
    with ryoseen.shared_proposals():
        for seed in (1, 2, 3):  # three batches of one question, seeded as play seeds them
            assert ryoseen.ryo_seen_look(late_seen, samples=500, seed=seed) is not None
    assert waits == []  # play never waits on the compiler
    assert len(reads) >= 15 and set(reads) == {False}


def test_a_seeded_run_outside_play_waits_for_the_kernels(
        late_seen: ryoseen.SeenPool, monkeypatch: pytest.MonkeyPatch) -> None:
    reads, waits = _spy(monkeypatch, ready_after=0)
    assert ryoseen.ryo_seen_look(late_seen, samples=500, seed=7) is not None
    assert waits == [ryoseen.WAIT_FOR_KERNELS]
    assert set(reads) == {True}


def test_without_the_one_pass_read_nothing_waits(
        late_seen: ryoseen.SeenPool, monkeypatch: pytest.MonkeyPatch) -> None:
    reads, waits = _spy(monkeypatch, ready_after=0)
    monkeypatch.setattr(ryoseen, "READ_FUSED", False)
    assert ryoseen.ryo_seen_look(late_seen, samples=500, seed=7) is not None
    assert waits == []
    # (READ_FUSED is asked first, so _fused_now is not reached)
    assert reads == []
