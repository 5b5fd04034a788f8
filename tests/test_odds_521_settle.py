"""R-521-9's heads-up settle by table (issue 31, twenty-third pass): the same
floats as the general column-by-column rule, on many random worlds."""

from __future__ import annotations

import numpy as np
import pytest

from rollem.odds import r521
from rollem.odds.evaluate import high5, low5
from rollem.odds.r521 import _settle_rows, declare_model, settle


def _same(a: tuple[np.ndarray, ...], b: tuple[np.ndarray, ...]) -> None:
    assert len(a) == len(b) == 3
    for x, y in zip(a, b, strict=True):
        assert x.dtype == y.dtype == np.float64
        assert x.shape == y.shape
        assert np.array_equal(x, y)


@pytest.mark.parametrize("rule", ["carry", "split"])
def test_the_heads_up_table_gives_the_general_rules_floats(rule: str) -> None:
    gen = np.random.default_rng(2026)
    for _ in range(3000):
        s = int(gen.integers(0, 40))
        top = int(gen.choice([2, 4, 1_000_000]))  # few values: many ties
        high = gen.integers(0, top, (s, 2)).astype(np.int64)
        low = gen.integers(0, top, (s, 2)).astype(np.int64)
        sides = gen.integers(0, 3, (s, 2)).astype(np.int64)
        _same(settle(high, low, sides, rule), _settle_rows(high, low, sides, rule))


def test_real_hands_settle_alike_with_the_model_and_every_own_side() -> None:
    gen = np.random.default_rng(521)
    hands = np.argpartition(gen.random((20_000, 52)), 9, axis=1)[:, :10].reshape(-1, 2, 5)
    high, low = high5(hands), low5(hands)
    sides = declare_model(high, low)
    for k in range(3):
        sides[:, 0] = k
        for rule in ("carry", "split"):
            _same(settle(high, low, sides, rule), _settle_rows(high, low, sides, rule))


def test_the_heads_up_cases_pay_what_r521_9_says() -> None:
    # seat's high above, low below; each declares its winning side: split 0.5 / 0.5
    hi, lo = np.array([[9, 1]]), np.array([[1, 9]])
    assert [float(x[0]) for x in settle(hi, lo, np.array([[0, 1]]))] == [0.5, 0.5, 0.0]
    # the seat declares both and wins both ways outright: the whole pot
    assert [float(x[0]) for x in settle(np.array([[9, 1]]), np.array([[9, 1]]),
                                        np.array([[2, 0]]))] == [1.0, 0.5, 0.5]
    # both, tied high: failed; the opponent (high) takes the whole pot
    assert [float(x[0]) for x in settle(np.array([[9, 9]]), np.array([[9, 1]]),
                                        np.array([[2, 0]]))] == [0.0, 0.0, 0.0]
    # same single side, tied: half of the whole pot
    assert [float(x[0]) for x in settle(np.array([[5, 5]]), lo,
                                        np.array([[0, 0]]))] == [0.5, 0.5, 0.0]
    # both declare both and both fail: carried (0), or split between them as
    # high and low declarers (the seat's high wins the high half)
    both = np.array([[2, 2]])
    assert float(settle(np.array([[9, 1]]), np.array([[1, 9]]), both)[0][0]) == 0.0
    assert [float(x[0]) for x in settle(np.array([[9, 1]]), np.array([[1, 9]]), both,
                                        "split")] == [0.5, 0.5, 0.0]


def test_three_or_more_hands_and_other_rules_take_the_general_rule(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def pair(*args: object) -> object:
        calls.append("pair")
        raise AssertionError("not heads-up")

    monkeypatch.setattr(r521, "_settle_pair", pair)
    gen = np.random.default_rng(7)
    high = gen.integers(0, 3, (50, 3)).astype(np.int64)
    sides = gen.integers(0, 3, (50, 3)).astype(np.int64)
    share, _, _ = settle(high, high[:, ::-1].copy(), sides)
    assert share.shape == (50,) and calls == []
    # an unknown rule is the carry rule, as before, not the table
    two = high[:, :2].copy()
    _same(settle(two, two, sides[:, :2].copy(), "other"),
          _settle_rows(two, two, sides[:, :2].copy(), "carry"))
    assert calls == []
