"""Exact best response and equilibrium of a last betting round
(:mod:`rollem.bots.exact`), checked on Kuhn poker: three cards, one each,
ante 1, bet 1, one bet per round, which is this subgame with ``n = 3``,
``pot = 2``, ``bet = 1``, ``cap = 1``; its value to the first player is
-1/18 (Kuhn, 1950)."""

from __future__ import annotations

import numpy as np
import pytest

from rollem.bots.exact import (
    RiverGame,
    best_response,
    equilibrium,
    exploitability,
    histories,
    seat1_value,
)


def _kuhn() -> RiverGame:
    n = 3  # jack, queen, king
    result = np.sign(np.subtract.outer(np.arange(n), np.arange(n))).astype(float)
    return RiverGame(1.0 - np.eye(n), result, pot=2, bet=1, cap=1)


def test_the_tree_of_a_round() -> None:
    g = _kuhn()
    assert list(histories(g)) == ["", "k", "kb", "b"]
    assert g.actions("b") == ("f", "c") and g.actions("kbc") == ()
    big = RiverGame(g.compatible, g.result, pot=2, bet=4, cap=4)
    assert big.actions("brr") == ("f", "c", "r") and big.actions("brrr") == ("f", "c")
    assert big.put_in("kbrc") == (8, 8) and big.put_in("brf") == (4, 8)
    # seat 1 raised to 8, seat 0 folded after putting in 4: seat 1 wins 1 + 4
    assert big.payoff("brf", 1)[0, 1] == 5.0 and big.payoff("brf", 0)[0, 1] == -5.0
    with pytest.raises(ValueError, match="even pot"):
        RiverGame(g.compatible, g.result, pot=3)


def test_best_response_to_check_and_call_by_hand() -> None:
    """Always check, always call: the best reply bets the king (+2), checks the
    jack (-1), and the queen breaks even either way: 1/3 chip per hand in
    each seat."""
    g = _kuhn()
    passive = {h: np.tile([1.0, 0.0] if g.actions(h) == ("k", "b") else [0.0, 1.0], (3, 1))
               for h in histories(g)}
    assert best_response(g, {h: p for h, p in passive.items() if g.actor(h) == 0},
                         seat=1) == pytest.approx(1 / 3)
    assert exploitability(g, passive) == pytest.approx(1 / 3)
    assert seat1_value(g, passive) == pytest.approx(0.0)


def test_cfr_finds_kuhns_value() -> None:
    strategy, v0 = equilibrium(_kuhn(), iterations=400)
    assert v0 == pytest.approx(-1 / 18, abs=2e-3)
    assert 0.0 <= exploitability(_kuhn(), strategy) < 5e-3
    # the king always calls a bet; the jack never does
    assert strategy["b"][2, 1] == pytest.approx(1.0, abs=1e-3)
    assert strategy["b"][0, 1] == pytest.approx(0.0, abs=1e-3)
