"""bench/bench_odds_hands.py: the odds shown in play surveyed across hands (issue 33)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import bench_odds_hands


def test_an_exact_view_counts_every_hand_exact_and_within() -> None:
    row = bench_odds_hands.survey("sdr", 2, "at:before the stop|", "SDR, hand 30001", 2, 30001)
    assert (row["hands"], row["exact"], row["within"]) == (2, 2, 2)
    assert row["half_width_max"] == 0.0 and row["widest"] == []
    assert [r[0] for r in row["runs"]] == [30001, 30002]
    assert all(0 < r[1] < 100 for r in row["runs"])


def test_a_sampled_view_states_its_width_and_a_point_never_reached_is_no_hand() -> None:
    row = bench_odds_hands.survey("rollem521", 3, "at:before the draw|draw", "5-2-1", 1, 30001)
    (hand, equity, half, cpu, exact), = row["runs"]
    assert hand == 30001 and not exact and half > 0 and cpu > 0
    assert row["widest"] == [[hand, equity, half]] and row["within"] == int(half <= 1.5)
    none = bench_odds_hands.survey("sdr", 2, "at:no such round|", "SDR", 1, 30001)
    assert (none["hands"], none["half_width_median"], none["runs"]) == (0, None, [])


def test_main_appends_a_row_and_the_table_prints_it(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rows.jsonl"
    bench_odds_hands.main(["--games", "sdr", "--players", "2", "--points", "before the stop",
                           "--hands", "1", "--out", str(out)])
    row = json.loads(out.read_text())
    assert row["config"] == "Stop, Drop and Roll, 2 players, before the stop"
    capsys.readouterr()
    bench_odds_hands.main(["--table", str(out)])
    assert "| Stop, Drop and Roll, 2 players, before the stop | 1 | 1 | 1 | 0.0 | 0 |" in (
        capsys.readouterr().out)
    with pytest.raises(SystemExit):
        bench_odds_hands.main(["--hands", "0"])
