"""Roll Your Own's read kernels made faster without changing what they compute
(issue 33, branch s70-kern).

``compiled.read_draw`` draws its uniforms ``compiled.READ_CHUNK`` at a time as
its kernel uses them (before, about a third more than a call uses were drawn
before the call): whatever the chunk, the candidates, factors and the
generator's state after are the old kernel's (tests/ryo_read_draw_reference.py)
bit for bit, on the calls of real views. (``read_score``'s one pass per world and
``_keep_one``'s unsigned reads are held to main by the pins of play's answers in
tests/test_odds_compiled_fast.py and tests/test_odds_fuse.py.)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from rollem.odds import compiled
from test_odds_compiled_fast import _calls, _gen

pytestmark = pytest.mark.skipif(not compiled.AVAILABLE, reason="numba not installed")


@pytest.mark.parametrize(("players", "round_name", "hand"),
                         [(6, "after the wild card", 31081), (4, "after the wild card", 31014)])
@pytest.mark.parametrize("chunk", [1, 7, 1024, 1 << 20])
def test_read_draw_in_chunks_is_the_old_kernel_bit_for_bit(
        monkeypatch: pytest.MonkeyPatch, players: int, round_name: str, hand: int,
        chunk: int) -> None:
    from ryo_read_draw_reference import reference_read_draw

    calls = _calls(monkeypatch, players, round_name, hand, 1)
    assert calls
    monkeypatch.setattr(compiled, "READ_CHUNK", chunk)
    for state, args in calls[:3]:
        for half in (False, True):
            old_gen, new_gen = _gen(state, half), _gen(state, half)
            old = reference_read_draw(old_gen, *args)
            new = compiled.read_draw(new_gen, *args)
            for a, b in zip(old, new, strict=True):
                assert np.array_equal(a, b)
            assert old_gen.bit_generator.state == new_gen.bit_generator.state
            assert np.array_equal(old_gen.integers(0, 9, 5), new_gen.integers(0, 9, 5))
            assert old_gen.random() == new_gen.random()


def test_read_draw_past_its_bulk_draws_one_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where a call uses more uniforms than the ``k * reps * (2 + w)`` it skips
    to (a fresh card drawn again and again), the kernel goes on one number at a
    time: the same numbers and state as the old kernel (its bulk, then
    ``random()``)."""
    from ryo_read_draw_reference import reference_read_draw

    calls = _calls(monkeypatch, 6, "after the wild card", 31091, 1)
    args = calls[0][1]
    a: list[Any] = list(args)
    k = 3
    avail = np.zeros((k, 52), dtype=bool)
    avail[:, :4] = True  # four cards left: the fresh slots' draws collide often
    a[0] = np.zeros(k, dtype=np.int64)  # every world origin 0
    a[1] = avail
    named = np.full((k, args[2].shape[1]), 40, dtype=np.int64)
    named[:, :3] = -1  # its three discards not named yet (the rest: any card)
    a[2] = named
    a[6] = np.zeros_like(args[6])  # origin 0 draws its hidden cards uniformly
    a[7] = np.full_like(args[7], 3)  # ... none: its three up cards kept
    a[12] = 1  # one candidate a world
    a[3] = np.asarray(args[3][:k])
    a[4] = np.zeros(0, dtype=np.int64)  # no draws: three slots, fresh
    a[5] = 0
    used_more = False
    for seed in range(40):
        gen_state = np.random.Generator(np.random.PCG64(seed)).bit_generator.state
        old_gen, new_gen = _gen(gen_state, False), _gen(gen_state, False)
        old = reference_read_draw(old_gen, *a)
        new = compiled.read_draw(new_gen, *a)
        for x, y in zip(old, new, strict=True):
            assert np.array_equal(x, y)
        assert old_gen.bit_generator.state == new_gen.bit_generator.state
        skipped = _gen(gen_state, False)
        skipped.random(k * 1 * (2 + 3))
        used_more |= skipped.bit_generator.state != new_gen.bit_generator.state
    assert used_more  # (some call drew past its bulk)


@pytest.mark.skipif(not compiled.AVAILABLE, reason="numba is not installed")
def test_the_warm_up_compiles_every_kernel_play_calls() -> None:
    """``compiled._warm_all`` calls every kernel play calls, so that none compiles
    inside play's clock: ``label_tries`` (s71-cheap) was left out and
    ``fill_hands``' warm call returned before its kernel (rest too short), so a
    fresh install's first Roll Your Own odds at 6 players after the wild card
    took 1.04 to 1.33 s of CPU against play's 1 s (stop 71's survey). After the
    warm-up, play at the views that use the kernels adds no kernel a signature
    (one called only by other kernels has none of its own: it is compiled
    into them)."""
    from numba.core.registry import CPUDispatcher

    from rollem.odds import play
    from ryo_views import ryo_view

    compiled._warm_all()

    def signatures() -> dict[str, int]:
        return {name: len(d.signatures) for name, d in vars(compiled).items()
                if isinstance(d, CPUDispatcher)}

    before = signatures()
    assert len(before) > 30
    for players, round_name in ((6, "after the wild card"), (5, "after the wild card"),
                                (6, "third card up")):
        play.play_odds(ryo_view(players, round_name, 31201), seed=1, max_batches=2)
    after = signatures()
    assert {name: (before[name], n) for name, n in after.items() if n != before[name]} == {}
