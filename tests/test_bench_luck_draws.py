"""``bench/bench_luck_draws.py`` (issue 31, twenty-fifth pass): 5-2-1's draws
valued without plays, each term mean zero over the cards the draw may deal."""

from __future__ import annotations

import importlib.util
import itertools
import json
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from rollem.cards import parse_card

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _draws() -> ModuleType:
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location("bench_luck_draws",
                                                  BENCH / "bench_luck_draws.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _cards(text: str) -> list[int]:
    return [int(parse_card(c)) for c in text.split()]


def test_a_hand_computed_draw() -> None:
    """The hero keeps A-2-3-4 against four kings; the pool is 5s and 9d. The 5s
    makes a wheel, top 1% both ways, so the model declares both, loses the
    high to the kings and gets nothing (e = 0); the 9d makes 9-4-3-2-A, a
    low it declares against the kings' high: half the pot (e = 1/2). So the
    terms are 0 - 1/4 and 1/2 - 1/4 (R-521-8, R-521-9)."""
    m = _draws()
    kept, other, pool = _cards("As 2d 3c 4h"), _cards("Kc Kd Kh Ks Qc"), _cards("5s 9d")
    wheel = m.draw_terms(kept, other, pool, _cards("5s"), True)
    nine = m.draw_terms(kept, other, pool, _cards("9d"), True)
    assert wheel["e"] == pytest.approx(-0.25)
    assert nine["e"] == pytest.approx(0.25)
    # the opponent's cards do not move: their percentiles' terms are zero
    assert wheel["opp_high"] == 0.0 and wheel["opp_low"] == 0.0
    assert wheel["hero_low"] > 0 > nine["hero_low"]
    # the opponent drawing: the same deal from its side, signs flipped for e
    theirs = m.draw_terms(kept, other, pool, _cards("5s"), False)
    assert theirs["e"] == pytest.approx(0.25)
    assert theirs["hero_high"] == pytest.approx(wheel["opp_high"])


def test_every_term_has_mean_zero_over_the_cards_dealt() -> None:
    """Averaged over every subset the draw may deal, each term is zero (the
    control's mean), one and two cards, the hero drawing or not."""
    m = _draws()
    rng = random.Random(7)
    for k, hero in ((1, True), (2, False), (2, True)):
        deck = rng.sample(range(52), 5 + 5 - k + 9)
        other, kept, pool = deck[:5], deck[5:10 - k], deck[10 - k:]
        total = dict.fromkeys(m.VALUES, 0.0)
        subsets = list(itertools.combinations(pool, k))
        for got in subsets:
            for name, term in m.draw_terms(kept, other, pool, list(got), hero).items():
                total[name] += term
        for name in m.VALUES:
            assert total[name] / len(subsets) == pytest.approx(0.0, abs=1e-12), name


def test_bad_draws_are_refused() -> None:
    m = _draws()
    kept, other = _cards("As 2d 3c 4h"), _cards("Kc Kd Kh Ks Qc")
    with pytest.raises(ValueError, match="subset of the undealt cards"):
        m.draw_terms(kept, other, _cards("5s 9d"), _cards("7h"), True)
    with pytest.raises(ValueError, match="subset of the undealt cards"):
        m.draw_terms(kept, other, _cards("5s 9d"), [], True)
    with pytest.raises(ValueError, match="five cards"):
        m.draw_terms(kept[:3], other, _cards("5s 9d"), _cards("5s"), True)


def test_a_replay_is_the_dumps_hand(tmp_path: Path) -> None:
    """The replay with the bots' ``act`` alone gives each seating's chips, and
    a deal's features are the mean over its seatings of its draws' terms."""
    m = _draws()
    got = m.replay("rollem521", "fixed-limit", 3, 1, "basic", "random")
    assert len(got) == 1 and len(got[0]["net"]) == 2 and len(got[0]["draws"]) == 2
    for draws in got[0]["draws"]:
        for number, _hero, terms in draws:
            assert number in (0, 1) and set(terms) == set(m.VALUES)
    x = m.features(got[0])
    first = sum(t["e"] for ds in got[0]["draws"] for n, _h, t in ds if n == 0) / 2
    assert x[0] == pytest.approx(first)
    assert len(x) == 14
    json.dumps(got)  # the rows the script writes are plain JSON
