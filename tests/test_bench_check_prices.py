"""``bench/bench_check_prices.py`` (issue 31, fourteenth pass): the answer to a
bet into a check read from a hand's events, and a short session's tally
(every bet into a check priced and answered, its priced chances in 0..1)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _bench() -> ModuleType:
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location("bench_check_prices",
                                                  BENCH / "bench_check_prices.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_answer_to_a_bet_is_the_opponents_next_in_the_round() -> None:
    """Seat 0 checks, seat 1 bets (event 2): seat 0's raise is the answer; a
    bet answered by nothing before the next round (all in) has none."""
    bench = _bench()
    events = [{"kind": "round", "name": "before the stop"}, {"kind": "check", "seat": 0},
              {"kind": "bet", "seat": 1, "amount": 2}, {"kind": "raise", "seat": 0, "amount": 4},
              {"kind": "call", "seat": 1}, {"kind": "round", "name": "after the stop"},
              {"kind": "check", "seat": 0}, {"kind": "bet", "seat": 1, "amount": 2},
              {"kind": "round", "name": "after the drop"}, {"kind": "call", "seat": 0}]
    assert bench._answer(events, 2, 0) == "raise"
    assert bench._answer(events, 7, 0) is None


def test_a_short_session_is_tallied() -> None:
    """Four deals, both seatings, against ``basic``: every bet into a check is
    filed under rounds 1-4 with priced chances in 0..1 (raise at most continue)
    and ``basic``'s answer; the hands are eight, their nets summing to
    ``strong``'s chips; the table names the four rounds."""
    bench = _bench()
    bench.strong_bot.__dict__["bet_gain"] = bench._recording(bench.gains.bet_gain)
    try:
        result = bench.play("basic", 4, 4901)
    finally:
        bench.strong_bot.__dict__["bet_gain"] = bench.gains.bet_gain
    assert result["rows"]
    for row in result["rows"]:
        assert row["round"] in (1, 2, 3, 4)
        assert 0.0 <= row["raise"] <= row["continue"] <= 1.0
        assert row["answer"] in ("raise", "call", "fold")
    assert len(result["hands_played"]) == 8
    assert sum(h["net"] for h in result["hands_played"]) == result["strong_chips"]
    assert sum(result["hands_by_first"]) == 8
    table = bench.summary(result)
    assert all(f"\n{r:>5}" in table for r in (1, 2, 3, 4))
