"""Roll Your Own's layout and reads with fewer numpy lines (issue 33, branch
s69-speed2): the same worlds, weights and answers bit for bit.

- ``compiled.place_discard`` makes ``ryoseen._layout``'s places of the seat's
  discards in two compiled passes: play's answers at a fixed number of
  batches are those of the numpy lines (``place_discard`` answering None), in
  views where the places are drawn uniformly, steered by an opponent that
  shows the discard, and steered by whoever drew a hidden place;
- ``compiled._row_sum`` is numpy's ``sum(axis=1)`` float for float.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from rollem.odds import compiled, play
from ryo_views import ryo_view

pytestmark = pytest.mark.skipif(not compiled.AVAILABLE, reason="numba not installed")


@pytest.fixture(autouse=True)
def _compiled() -> None:
    assert compiled.wait(600)


def _answer(players: int, round_name: str, hand: int) -> tuple[Any, ...]:
    odds = play.play_odds(ryo_view(players, round_name, hand), seed=3, max_batches=3,
                          clock=lambda: 0.0)
    return (odds.samples, odds.win, odds.tie, odds.equity, odds.stderr, odds.interval,
            odds.effective)


@pytest.mark.parametrize(("players", "round_name", "hand"),
                         [(6, "after the wild card", 31091), (4, "after the wild card", 31040),
                          (6, "third card up", 31081)])
def test_the_discards_placed_compiled_are_the_numpy_lines(
        monkeypatch: pytest.MonkeyPatch, players: int, round_name: str, hand: int) -> None:
    kinds: set[tuple[bool, int]] = set()
    real = compiled.place_discard

    def spy(gen: np.random.Generator, at: Any, prefer: Any, steered: bool, shower: int,
            *a: Any) -> Any:
        kinds.add((steered, min(shower, 0)))
        return real(gen, at, prefer, steered, shower, *a)

    monkeypatch.setattr(compiled, "place_discard", spy)
    fast = _answer(players, round_name, hand)
    assert (False, -1) in kinds and (True, -2) in kinds
    if round_name == "third card up":
        assert (True, 0) in kinds  # (a discard an opponent shows, its place steered)
    monkeypatch.setattr(compiled, "place_discard", lambda *a: None)
    assert _answer(players, round_name, hand) == fast


def test_the_row_sum_is_numpys() -> None:
    gen = np.random.default_rng(5)
    for n in (1, 3, 7, 8, 9, 12, 15, 16, 17, 18, 21, 24, 31, 64, 127, 128):
        mass = (gen.random((300, n)) * (gen.random((300, n)) < 0.6)
                * 10.0 ** gen.integers(-6, 6, (300, n)))
        got = np.array([compiled._row_sum_compiled(mass[r], n) for r in range(300)])
        assert np.array_equal(got, mass.sum(axis=1))


@pytest.mark.parametrize("k", [0, 1, 300])
def test_the_cards_and_shuffles_are_the_numpy_lines(k: int) -> None:
    """``compiled.cards_of`` and ``compiled.shuffle_rows`` (``_worlds``) against
    the numpy lines they replace, rows of 1 to 21 places (a strided slice too)."""
    gen = np.random.default_rng(k + 11)
    for n in (1, 5, 16, 17, 21):
        named = gen.integers(0, 52, (k, 3 * n))
        order = gen.integers(-1, 52 + 3 * n, (k, n))
        want = np.where(order < 52, order, np.take_along_axis(named, np.maximum(order - 52, 0),
                                                              axis=1))
        assert np.array_equal(compiled.cards_of(order, named), want)
        rest = want[:, n // 2:]
        keys = gen.random(rest.shape)
        assert np.array_equal(compiled.shuffle_rows(rest, keys),
                              np.take_along_axis(rest, np.argsort(keys, axis=1), axis=1))


def test_the_systematic_draw_is_the_numpy_lines() -> None:
    """``compiled.systematic`` (``_systematic``, ``_worlds``' last resampling)
    against the numpy lines, with zero weights, ties, one world, fewer and
    more points than worlds; None where the numpy lines must answer."""
    gen = np.random.default_rng(13)
    for k in (1, 2, 7, 1000, 3000):
        for zeros in (0.0, 0.5, 0.95):
            weight = gen.random(k) ** 3 * (gen.random(k) >= zeros)
            weight[gen.integers(0, k)] = 1e-3
            for count in (k, max(1, k // 3), 2 * k):
                r = gen.random()
                edges = np.cumsum(weight)
                edges /= edges[-1]
                want = np.minimum(np.searchsorted(edges, (r + np.arange(count)) / count,
                                                  side="right"), k - 1)
                assert np.array_equal(compiled.systematic(weight, r, count), want)
    assert compiled.systematic(np.array([1.0, np.nan]), 0.5, 2) is None
    assert compiled.systematic(np.array([1.0, -1.0]), 0.5, 2) is None
    assert compiled.systematic(np.zeros(3), 0.5, 3) is None


@pytest.mark.parametrize("k", [0, 1, 200])
def test_the_hands_filled_are_the_numpy_lines(k: int) -> None:
    """``compiled.fill_hands`` (``_worlds``' futures) against the numpy lines'
    ``concatenate``s and ``stack``: the seat's 2 to 5 cards, live opponents
    with 0 to 2 draws, some folded (not in ``live``)."""
    gen = np.random.default_rng(k + 17)
    m, n = 5, 18
    draws = [np.array([3, 9]), np.array([4]), np.zeros(0, dtype=np.int64), np.array([6, 12]),
             np.array([7])]
    for mine_n in (2, 4, 5):
        for live in ([0, 1, 2, 3, 4], [1, 3], []):
            kept_all = gen.integers(0, 52, (k, m, 3))
            cards = gen.integers(0, 52, (k, n))
            rest = gen.integers(0, 52, (k, 12))
            mine = gen.integers(0, 52, mine_n)
            out = np.full((k, 2, 1 + len(live), 5), -9, dtype=np.int64)
            assert compiled.fill_hands(out, 1, mine, kept_all, cards, np.asarray(live), draws,
                                       rest)
            hands, at = [], 0
            for hand in [np.broadcast_to(mine, (k, mine_n)),
                         *[np.concatenate([kept_all[:, j], cards[:, draws[j]]], axis=1)
                           for j in live]]:
                need = 5 - hand.shape[1]
                hands.append(np.concatenate([hand, rest[:, at:at + need]], axis=1))
                at += need
            assert np.array_equal(out[:, 1], np.stack(hands, axis=1))
            assert (out[:, 0] == -9).all()
    short = np.zeros((k, 1), dtype=np.int64)  # (too few cards not drawn: the numpy lines)
    assert not compiled.fill_hands(np.zeros((k, 1, 2, 5), dtype=np.int64), 0, np.arange(2),
                                   np.zeros((k, m, 3), dtype=np.int64), cards, np.array([1]),
                                   draws, short)
