"""A 2,000-hand web-table bot session with every home-game staple at once
(issue 27): Mississippi straddles, run it twice, a bomb pot every 5 hands and
a person who walks off (made away by the clock) and comes back, on a virtual
clock with the real table, store (SQLite) and engine; the chips are checked to
balance after every hand (tests/web/staples_session.py, whose short version
runs in tests/web/test_server_staples.py).

Reports how many hands were bomb pots, straddled, run twice, played with the
walker away, the rebuys, and the wall time per hand.

    .venv/bin/python bench/bench_staples_session.py [--hands 2000]

Exits non-zero (AssertionError) if the chips ever fail to balance.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))

from staples_session import staples_session
from test_table_bots import virtual_server


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    args = ap.parse_args()
    start = time.perf_counter()
    with virtual_server() as (loop, store):
        _table, seen = staples_session(loop, store, args.hands)
    wall = time.perf_counter() - start
    assert seen.balanced == list(range(1, args.hands + 1))
    print(json.dumps({
        "hands": seen.hands, "balanced_after_every_hand": True,
        "bomb_pots": len(seen.bombs), "hands_with_straddlers": seen.straddles,
        "run_twice": seen.run_twice, "walker_away": seen.away, "came_back": seen.back,
        "rebuys": seen.rebuys, "seconds": round(wall, 1),
        "ms_per_hand": round(1000 * wall / max(1, seen.hands), 1),
        "load": [round(x, 2) for x in os.getloadavg()],
    }, indent=2))


if __name__ == "__main__":
    main()
