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


def test_the_declare_model_reads_the_same_percentiles_from_the_distinct_values() -> None:
    from rollem.odds.r521 import BOTH_PERCENTILE, _reference, _reference_steps

    ref_hi, ref_lo = _reference()
    for (values, at), ref in zip(_reference_steps(), (ref_hi, ref_lo), strict=True):
        assert 5_000 < len(values) < 8_000 and len(at) == len(values) + 1
        assert int(at[0]) == 0 and int(at[-1]) == len(ref) == 100_000
        assert np.array_equal(at[1:], np.searchsorted(ref, values, side="right"))

    def before(high: np.ndarray, low: np.ndarray) -> np.ndarray:  # stop 56's rule
        p_hi = np.searchsorted(ref_hi, high, side="right") / len(ref_hi)
        p_lo = np.searchsorted(ref_lo, low, side="right") / len(ref_lo)
        side = np.where(p_lo > p_hi, 1, 0)
        return np.where((p_hi >= BOTH_PERCENTILE) & (p_lo >= BOTH_PERCENTILE), 2, side)

    gen = np.random.default_rng(8)
    hands = np.argpartition(gen.random((40_000, 52)), 9, axis=1)[:, :10].reshape(-1, 2, 5)
    high, low = high5(hands), low5(hands)
    got = declare_model(high, low)
    assert got.shape == (40_000, 2) and np.array_equal(got, before(high, low))
    assert set(np.unique(got)) == {0, 1, 2}
    # the reference's own values, one below and above each, and past both ends
    for ref, other in ((ref_hi, ref_lo), (ref_lo, ref_hi)):
        values = np.concatenate([ref[::97], ref[::97] - 1, ref[::97] + 1,
                                 [ref[0] - 5, ref[-1] + 5, 0]]).astype(np.int64)
        mid = np.full(values.shape, int(np.median(other)), dtype=np.int64)
        for a, b in ((values, mid), (mid, values), (values, values[::-1].copy())):
            assert np.array_equal(declare_model(a, b), before(a, b))
