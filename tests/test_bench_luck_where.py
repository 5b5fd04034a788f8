"""``bench/bench_luck_where.py`` (issue 31, fourteenth pass): where a duplicate
match's variance goes in, by kind of deal."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _where() -> ModuleType:
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location("bench_luck_where",
                                                  BENCH / "bench_luck_where.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _seating(net: float, pots: list[float], allin: int | None,
             holes: list[list[str]]) -> dict[str, object]:
    return {"net": net, "pots": pots, "allin": allin, "folded": False, "holes": holes}


def test_split_parts_the_squares_about_the_mean() -> None:
    # units 0, 0, 6, 10: mean 4; squares 16, 16, 4, 36 (sum 72)
    parts = _where().split([0.0, 0.0, 6.0, 10.0], ["a", "b", "a", "c"])
    assert parts == {"a": (2, pytest.approx(20 / 72)), "b": (1, pytest.approx(16 / 72)),
                     "c": (1, pytest.approx(36 / 72))}
    assert sum(s for _, s in parts.values()) == pytest.approx(1.0)


def test_split_refuses_what_it_cannot_part() -> None:
    where = _where()
    with pytest.raises(ValueError, match="one entry per deal, got 2 and 1"):
        where.split([1.0, 2.0], ["a"])
    with pytest.raises(ValueError, match="at least 2 deals, got 1"):
        where.split([1.0], ["a"])
    with pytest.raises(ValueError, match="no variance"):
        where.split([3.0, 3.0], ["a", "b"])


def test_kind_reads_the_cards_and_the_earliest_all_in() -> None:
    where = _where()
    same = [["2c", "3d"], ["Ah", "Kh"]]
    other = [["2c", "4d"], ["Ah", "Kh"]]
    rec = {"seatings": [_seating(200, [6, 14, 400], 4, same),
                        _seating(0, [6, 400], 2, same)]}
    assert where.kind(rec, 100) == "same cards, all-in r2"
    rec = {"seatings": [_seating(20, [6, 14, 120], None, same),
                        _seating(-3, [6], None, other)]}
    assert where.kind(rec, 100) == "cards apart, big"
    assert where.kind(rec, 121) == "cards apart, small"


def test_a_deal_is_played_in_both_seatings_with_its_unit_their_mean() -> None:
    where = _where()
    recs = where.play("rollem521", "no-limit", "strong", "basic", [11], seed=3)
    assert len(recs) == 1
    for rec in recs:
        a, b = rec["seatings"]
        assert rec["unit"] == pytest.approx((a["net"] + b["net"]) / 2)
        for s in (a, b):
            assert s["pots"] == sorted(s["pots"])  # the pot only grows
            assert s["pots"][0] > 0  # the antes
            assert abs(s["net"]) <= s["pots"][-1]
            assert len(s["holes"]) == 2
