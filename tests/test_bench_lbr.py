"""``bench/bench_lbr.py --pool``: chunk runs pooled, basic - strong paired deal by
deal (the LBR figures of docs/dev/league.md come from it)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _lbr() -> ModuleType:
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location("bench_lbr", BENCH / "bench_lbr.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(seed: int, level: str, units: list[float]) -> dict[str, object]:
    return {"game": "rollem521", "structure": "no-limit", "level": level, "seed": seed,
            "units": units}


def test_chunks_pool_and_pair(tmp_path: Path) -> None:
    lbr = _lbr()
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps([_run(1, "basic", [4.0, 0.0]), _run(1, "strong", [0.0, 4.0])]))
    b.write_text(json.dumps([_run(2, "basic", [8.0, 8.0]), _run(2, "strong", [4.0, 4.0]),
                             _run(2, "random", [40.0, 0.0]),
                             _run(2, "basic", [8.0, 8.0])]))  # a chunk run twice counts once
    lines = lbr.pool([str(a), str(b)])
    assert lines[0] == "rollem521 no-limit (plain duplicate; seeds 1-2, 2 chunks)"
    by = {line.split(" BB/100")[0].strip().rsplit(" ", 1)[0].strip(): line for line in lines[1:]}
    # BIG_BET 4: BB/100 = 25 x chips a deal; basic 20/4 = 5 chips, strong 12/4 = 3
    assert "+125.0" in by["LBR vs basic"] and "(4 deals)" in by["LBR vs basic"]
    assert "+75.0" in by["LBR vs strong"]
    # paired: differences 4, -4, 4, 4: mean 2 chips
    assert "+50.0" in by["basic - strong, paired"]
    assert "(4 deals)" in by["basic - strong, paired"]
    assert "(2 deals)" in by["LBR vs random"]
    with pytest.raises(ValueError, match="no LBR runs"):
        empty = tmp_path / "e.json"
        empty.write_text("[]")
        lbr.pool([str(empty)])
