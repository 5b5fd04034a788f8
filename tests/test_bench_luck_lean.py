"""bench/bench_luck_lean.py: the late chance terms paired with their events, and
the cards-alone analogue of a deck draw (issue 31, seventeenth pass)."""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _lean() -> ModuleType:
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location("bench_luck_lean", BENCH / "bench_luck_lean.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _second_draws(lean: ModuleType) -> Iterator[tuple[Any, int, object]]:
    """5-2-1 fixed-limit hands (two ``basic`` bots) just before a one-card second
    draw (R-521-4), and the move."""
    from bench_league import bot
    from bench_luck import _deepcopy
    from rollem.engine import Hand, SeededSource
    from rollem.engine.options import Options

    for deal in range(30):
        hand = Hand("rollem521", [200, 200], button=0, options=Options(structure="fixed-limit"),
                    source=SeededSource(deal))
        bots = [bot("basic", random.Random(deal)), bot("basic", random.Random(-deal))]
        while not hand.is_over:
            s = hand.pending.seats[0]
            action = bots[s].act(hand.view(s))
            trial = _deepcopy(hand)
            trial.apply(s, action)
            if hand.round == 1 and trial.deck_pos == hand.deck_pos + 1 and not any(trial.folded):
                yield _deepcopy(hand), s, action
            hand.apply(s, action)


def test_the_cards_alone_analogue_has_mean_zero_over_every_card() -> None:
    """At a one-card second draw the analogue ``pot x (e(real) - mean e)`` over
    every card the real draw may deal (each put on the stub's top: the exact
    law) sums to zero exactly, with one share cache for the event as the
    replay keeps it; the values differ by card, and the ranks' mean is one
    half (a uniform draw's); over the limit, None."""
    lean = _lean()
    from bench_luck import _deepcopy, deck_draws, value

    for before, seat, action in _second_draws(lean):  # the first where the card matters
        shares = {value(o, 0, random.Random(1), 300, {})
                  for o in deck_draws(before, seat, action, 60) or []}
        if len(shares) > 2:
            break
    else:
        raise AssertionError("no second draw whose card moves the share in 30 deals")
    stub = list(before.deck[before.deck_pos:])
    assert len(stub) >= 30
    cache: dict[tuple[Any, ...], float] = {}
    values, ranks = [], []
    for card in stub:
        real = _deepcopy(before)
        real.deck[real.deck_pos:] = [card] + [c for c in stub if c != card]
        real.apply(seat, action)
        got = lean.analogue(before, seat, action, real, 0, 60, random.Random(1), 300, cache)
        assert got is not None
        values.append(got[0])
        ranks.append(got[1])
    assert sum(values) / len(values) == pytest.approx(0.0, abs=1e-9)
    assert max(values) - min(values) > 1.0
    assert sum(ranks) / len(ranks) == pytest.approx(0.5, abs=1e-9)
    assert lean.analogue(before, seat, action, real, 0, len(stub) - 1, random.Random(1),
                         300) is None  # over the limit


def test_a_dumps_terms_are_paired_with_the_replayed_events() -> None:
    """:func:`pair` on a hand-made dump of two 5-2-1 deals (`basic` against
    `basic`, the real bots' seating seeds): each late term goes to its event in
    order; a dump whose chips the replay does not give, or with late decision
    terms, is refused with a ValueError naming what differs."""
    lean = _lean()
    from bench_league import seat_bots

    dump: dict[str, Any] = {"game": "rollem521", "structure": "fixed-limit", "seed": 7,
                            "hero": "basic", "opponent": "basic", "late_from": 1,
                            "late_decisions_from": 9, "late_choices": False,
                            "deals": [{"net": [], "terms": []} for _ in range(2)]}
    draw = random.Random("luck/rollem521/fixed-limit/7")
    deals = [draw.getrandbits(48) for _ in range(2)]
    found = {}
    for hero in (0, 1):
        bots = seat_bots(["basic", "basic"], 7 * 2 + hero)
        for i, deal in enumerate(deals):
            ev, net = lean.events("rollem521", "fixed-limit", deal, i % 2, bots, hero, 1, 60,
                                  random.Random(1), 300)
            found[(i, hero)] = ev
            dump["deals"][i]["net"].append(net)
            terms = [["chance", -1, 2.0, 0.1]] + [["late", e["round"], 1.0, 10.0 * k + hero]
                                                   for k, e in enumerate(ev)]
            dump["deals"][i]["terms"].append(terms)
    assert sum(len(v) for v in found.values()) >= 3
    assert all(e["round"] == 1 for v in found.values() for e in v)
    rows = lean.pair(dump)
    assert len(rows) == sum(len(v) for v in found.values())
    for r in rows:
        k = found[(r["deal"], r["hero"])].index({x: r[x] for x in
                                                ("round", "drawer_is_hero", "cards",
                                                 "analogue", "rank")})
        assert r["term"] == 10.0 * k + r["hero"] and r["seed"] == 7
    assert any(r["analogue"] is not None for r in rows)
    dump["deals"][1]["net"][0] += 1
    with pytest.raises(ValueError, match="seed 7 deal 1 seating 0: the replay gives"):
        lean.pair(dump)
    dump["late_decisions_from"] = 3
    with pytest.raises(ValueError, match="late_decisions_from 3"):
        lean.pair(dump)


def test_by_kind_counts_each_deal_once() -> None:
    """:func:`by_kind` on hand-made rows: per event and per deal (the kind's
    events summed, halved for the two seatings; a deal without one counts 0)."""
    lean = _lean()
    rows = [
        {"round": 1, "cards": 1, "drawer_is_hero": False, "term": -10.0, "analogue": -1.0,
         "seed": 1, "deal": 0, "hero": 0},
        {"round": 1, "cards": 1, "drawer_is_hero": False, "term": 4.0, "analogue": None,
         "seed": 1, "deal": 0, "hero": 1},
        {"round": 1, "cards": 1, "drawer_is_hero": False, "term": 2.0, "analogue": 3.0,
         "seed": 1, "deal": 1, "hero": 0},
        {"round": 1, "cards": 2, "drawer_is_hero": True, "term": 8.0, "analogue": None,
         "seed": 2, "deal": 0, "hero": 1},
    ]
    kinds = lean.by_kind(rows)
    assert sorted(kinds) == [(1, 1, False), (1, 2, True)]
    one = kinds[(1, 1, False)]
    assert one["events"] == 3
    assert one["term"] == pytest.approx(lean.mean_se([-10.0, 4.0, 2.0]))
    assert one["analogue"] == pytest.approx(lean.mean_se([-1.0, 3.0]))
    assert one["deal_term"] == pytest.approx(lean.mean_se([-3.0, 1.0, 0.0]))
    assert one["deal_analogue"] == pytest.approx(lean.mean_se([-0.5, 1.5, 0.0]))
    two = kinds[(1, 2, True)]
    assert two["term"] is None and two["analogue"] is None and two["deal_analogue"] is None
    assert two["deal_term"] == pytest.approx(lean.mean_se([0.0, 0.0, 4.0]))
    with pytest.raises(ValueError, match="two values or more"):
        lean.mean_se([1.0])
