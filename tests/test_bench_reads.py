"""``bench/bench_reads.py`` (issue 31): the read-against-real tally by spot kind
and, with ``--by-round``, by betting round (ninth pass: the misreads of one kind
differ by round, and the rounds of several saved sets are pooled)."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from rollem.bots.strong import StrongBot
from rollem.engine import Hand, HandView
from rollem.engine.actions import Bet, Check
from rollem.engine.options import Options
from rollem.engine.randomness import SeededSource

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _reads() -> ModuleType:
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location("bench_reads", BENCH / "bench_reads.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _view_in_round(checks: int) -> HandView:
    """An SDR heads-up view after ``checks`` rounds checked through, the player to
    act facing a bet in the next round."""
    hand = Hand("sdr", [200, 200], button=0, options=Options(structure="fixed-limit"),
                source=SeededSource(5))
    for _ in range(2 * checks):
        assert hand.pending is not None
        hand.apply(hand.pending.seats[0], Check())
    assert hand.pending is not None
    hand.apply(hand.pending.seats[0], Bet(2))
    assert hand.pending is not None
    return hand.view(hand.pending.seats[0])


def test_tally_keys_name_the_betting_round() -> None:
    mod = _reads()
    first, third = _view_in_round(0), _view_in_round(2)
    kind = "facing a bet, first in"
    assert mod.spot_kind(first) == kind and mod.spot_kind(third) == kind
    assert mod.tally_keys(kind, first, False) == (kind,)
    assert mod.tally_keys(kind, first, True) == (kind, f"{kind}, round 1")
    assert mod.tally_keys(kind, third, True) == (kind, f"{kind}, round 3")


def test_report_puts_each_round_under_its_kind() -> None:
    mod = _reads()
    tally = {"free to bet, first in": [(0.5, 0.4)],
             "facing another raise": [(0.6, 0.3), (0.4, 0.3)],
             "facing another raise, round 4": [(0.6, 0.3)],
             "facing another raise, round 1": [(0.4, 0.3)]}
    lines = mod.report(tally).splitlines()
    names = [line[:40].strip() for line in lines[1:]]
    assert names == ["facing another raise", "facing another raise, round 1",
                     "facing another raise, round 4", "free to bet, first in"]
    assert lines[3].split()[-5:-3] == ["0.600", "0.300"]
    assert lines[3].split()[-3] == "+0.300"


def test_reread_pools_saved_sets_by_round() -> None:
    """Two saved sets re-read into one tally: the kind's line counts both, each
    round's line its own; the spots' reads are this checkout's, seeded by place."""
    mod = _reads()
    kind = "facing a bet, first in"
    spots = [{"kind": kind, "view": _view_in_round(r), "real": 0.25,
              "book": StrongBot(random.Random(0)).book} for r in (0, 2)]
    tally = mod.reread(spots[:1], None, True)
    mod.reread(spots[1:], None, True, tally)
    assert len(tally[kind]) == 2
    assert len(tally[f"{kind}, round 1"]) == 1 and len(tally[f"{kind}, round 3"]) == 1
    again = mod.reread(spots[:1], None, True)
    assert again[kind][0][0] == pytest.approx(tally[kind][0][0])
    assert all(0.0 <= read <= 1.0 and real == 0.25 for read, real in tally[kind])
