"""The tempered runs that judge Roll Your Own's sampler at 4 players after the wild card
(issue 33, branch s66-temper): bench/bench_ryo_temper.py starts from the prior (every
choice a stray, tremble 1) and lowers the tremble to the model's by levels, with
:func:`rollem.odds.ryoseen._move`'s Metropolis steps at each (its ``end`` gives every
world's cards and chances). Its figures: docs/dev/odds-precision.md, branch s66-temper.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np

from rollem.odds import ryoseen
from rollem.odds.look521 import TREMBLE
from rollem.odds.policy import FAST

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from bench_ryo_temper import levels
from ryo_views import ryo_seen as _seen


def test_a_tremble_of_1_reads_nothing_and_the_levels_fall_to_the_models() -> None:
    """The tempered runs start from the prior: with every choice a stray (tremble 1)
    each world's chance of every keep and expose is the same; ``_move``'s ``end``
    gives them, with where every card and discard lies."""
    seen = _seen(4, "after the wild card", 31006)
    unseen = np.asarray(sorted(set(range(52)) - ryoseen._seen_cards(seen)), dtype=np.int64)
    gen = np.random.default_rng(5)
    kept: list[Any] = []

    def spy(*a: Any, **k: Any) -> Any:
        kept.append(a[1:4])
        return [(a[1], a[2])]

    plain = ryoseen._move
    ryoseen._move = spy
    try:
        ryoseen._worlds(seen, 300, unseen, FAST, TREMBLE, gen, moves=4)
    finally:
        ryoseen._move = plain
    worlds, cards, order = kept[0]
    chances = []
    for tremble in (1.0, TREMBLE):
        end: list[Any] = []
        out = ryoseen._move(seen, worlds, cards, order, unseen, FAST, tremble, gen, 0, end=end)
        assert out == [] and len(end) == 1
        state, six, keep, show = end[0]
        assert state.shape == (300, 9 + cards.shape[1]) and six.shape == (300, 3, 6)
        assert (state[:, 9:] == cards).all() and keep.shape == show.shape == (300, 3)
        chances.append(np.log(keep).sum(axis=1) + np.log(show).sum(axis=1))
    assert np.ptp(chances[0]) < 1e-9  # the prior: every world alike
    assert np.ptp(chances[1]) > 1.0  # the model: the policy read
    assert levels(1.0, 2) == [1.0, levels(1.0, 2)[1], TREMBLE]
    assert all(a > b for a, b in zip(levels(1.0, 8), levels(1.0, 8)[1:], strict=False))

