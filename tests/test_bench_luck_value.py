"""bench/bench_luck_value.py (issue 31, sixth pass): a learned value of a
position for the chance terms stays unbiased and is cross-fitted."""

from __future__ import annotations

import copy
import importlib.util
import math
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _value() -> ModuleType:
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location("bench_luck_value",
                                                  BENCH / "bench_luck_value.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _mean_se(xs: list[float]) -> tuple[float, float]:
    m = sum(xs) / len(xs)
    var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
    return m, math.sqrt(var / len(xs))


def _deal(rng: random.Random, copies_law: str = "same") -> dict[str, object]:
    """A toy hand with the shape of ``bench_luck.Luck``'s records: one chance
    event (a card worth a share ``e`` uniform on 0..1, three copies of it) and
    a result that goes with ``e`` through bets that come *after* it (the pot
    the card meets is 2, the chips won are about ``20 (2e - 1)^3``: what the
    checked-down value ``pot x share`` misses). ``copies_law`` "skewed" draws
    the copies from another law than the real card (the biased variant)."""
    net, raw = [], []
    for _seat in range(2):
        e = rng.random()
        if copies_law == "same":
            copies = [rng.random() for _ in range(3)]
        else:
            copies = [rng.random() ** 2 for _ in range(3)]
        x = 2 * e - 1
        net.append(20 * x ** 3 + rng.gauss(0, 1))
        raw.append([[0, 2.0, e, copies]])
    return {"net": net, "raw": raw, "terms": [[], []]}


def test_the_learned_chance_terms_have_mean_zero_and_take_the_bets_to_come_out() -> None:
    """With the copies drawn from the real card's law the learned terms have
    mean zero within four standard errors over 600 deals, and the learned value
    (which sees ``x^3``) takes out more than 60% of the variance (what is left
    is mostly the three copies' own spread), where the pot-weighted share
    cannot follow the bets to come; with copies
    from another law the same terms' mean is far from zero (the check has the
    power to fail)."""
    bv = _value()
    rng = random.Random(7)
    records = [_deal(rng) for _ in range(600)]
    out, chance = bv.learned(records)
    m, se = _mean_se(chance)
    assert abs(m) <= 4 * se, (m, se)
    plain = [sum(r["net"]) / 2 for r in records]
    var = lambda xs: _mean_se(xs)[1] ** 2 * len(xs)  # noqa: E731
    assert var(out) < var(plain) / 2.5
    pot_share = [p - sum(2.0 * (ev[2] - sum(ev[3]) / 3) for seat in r["raw"] for ev in seat) / 2
                 for p, r in zip(plain, records, strict=True)]
    assert var(pot_share) > var(plain) * 0.75  # the checked-down value takes out little
    skewed = [_deal(rng, "skewed") for _ in range(600)]
    _, wrong = bv.learned(skewed)
    wm, wse = _mean_se(wrong)
    assert abs(wm) > 4 * wse, (wm, wse)


def test_the_learned_value_is_cross_fitted() -> None:
    """A deal's value never sees that deal: changing one deal's chips moves the
    other parts' corrections, never its own part's."""
    bv = _value()
    rng = random.Random(11)
    records = [_deal(rng) for _ in range(50)]
    _, chance = bv.learned(records)
    moved = copy.deepcopy(records)
    moved[0]["net"] = [500.0, -500.0]
    _, again = bv.learned(moved)
    same_part = [i for i in range(50) if i % 5 == 0]
    other = [i for i in range(50) if i % 5 != 0]
    assert all(again[i] == pytest.approx(chance[i]) for i in same_part)
    assert any(abs(again[i] - chance[i]) > 1e-6 for i in other)


def test_the_learned_value_refuses_what_it_cannot_fit() -> None:
    bv = _value()
    rng = random.Random(1)
    with pytest.raises(ValueError, match="at least 10 deals"):
        bv.learned([_deal(rng) for _ in range(9)])
    old = [_deal(rng) for _ in range(12)]
    del old[3]["raw"]
    with pytest.raises(ValueError, match="no raw shares"):
        bv.learned(old)


def test_a_sampled_play_keeps_the_shares_of_every_chance_term() -> None:
    """``Luck.raw`` holds, per sampled chance event, the shares the term is made
    of: the pot times ``e_real - mean e_copies`` is the chance term kept."""
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    import bench_luck

    records: list[dict[str, object]] = []
    deals = [random.Random(f"raw/{i}").getrandbits(48) for i in range(3)]
    bench_luck.play_sampled("rollem521", "random", "basic", "fixed-limit", deals, 5, 2, 10,
                            records=records)
    events = 0
    for r in records:
        for terms, raw in zip(r["terms"], r["raw"], strict=True):  # type: ignore[call-overload]
            chance = [t for t in terms if t[0] == "chance"]
            assert len(chance) == len(raw) >= 1
            events += len(raw)
            for (_, rnd, pot, change), (rnd2, pot2, real, copies) in zip(chance, raw,
                                                                         strict=True):
                assert (rnd, pot) == (rnd2, pot2) and len(copies) == 2
                assert change == pytest.approx(real - sum(copies) / len(copies))
    assert events > 2 * len(records)  # draws too, not only the deals


def test_the_priced_value_is_unbiased_cross_fitted_and_prices_the_bets_to_come() -> None:
    """``priced``: with the chips won following the chips still behind (what the
    pot the card meets misses) it takes out most of the variance, its estimate
    keeps the plain mean within four standard errors of their difference, and
    a deal's own chips never set its weights."""
    bv = _value()
    import bench_league

    rng = random.Random(5)
    records = []
    for _ in range(400):
        net, raw = [], []
        for _seat in range(2):
            e, copies = rng.random(), [rng.random() for _ in range(3)]
            net.append(0.2 * bench_league.STACK * (2 * e - 1) + rng.gauss(0, 1))
            raw.append([[0, 2.0, e, copies]])
        records.append({"net": net, "raw": raw, "terms": [[], []]})
    out = bv.priced(records)
    plain = [sum(r["net"]) / 2 for r in records]
    diff = [p - o for p, o in zip(plain, out, strict=True)]
    m, se = _mean_se(diff)
    assert abs(m) <= 4 * se, (m, se)
    var = lambda xs: _mean_se(xs)[1] ** 2 * len(xs)  # noqa: E731
    assert var(out) < var(plain) / 2.5
    moved = copy.deepcopy(records)
    moved[0]["net"] = [500.0, -500.0]
    again = bv.priced(moved)
    assert all(again[i] == pytest.approx(out[i]) for i in range(5, 400, 5))
    assert any(abs(again[i] - out[i]) > 1e-6 for i in range(1, 400) if i % 5)


def test_late_money_counts_what_goes_in_after_the_last_card() -> None:
    """A seating that won 10 chips with 4 in the pot at its last card has 8 of
    its 10 chips beyond half that pot: (8^2) / (10^2) of its square."""
    bv = _value()
    record = {"net": [10.0, -2.0], "raw": [[[-1, 2.0, 0.5, [0.5]], [1, 4.0, 0.7, [0.6]]],
                                           [[-1, 2.0, 0.5, [0.5]]]]}
    assert bv.late_money([record]) == pytest.approx((8.0 ** 2 + 1.0) / (100.0 + 4.0))
