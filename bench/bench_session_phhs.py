"""What one player's whole-session download (``history.phhs``, issue 27) costs
to build: plays ``--hands`` hands on a virtual clock (one person who checks or
calls, computer players in the other seats; hold'em fixed limit, which exports as
standard PHH, and Stop, Drop and Roll, which keeps rollem's layout), then builds
the person's ``.phhs`` as the server does
(:func:`rollem.server.routes_session.bulk_phhs`)
``--runs`` times, and reports the milliseconds per hand (best run) and the
bytes per hand, and what the download's limit of 500 hands comes to.

    .venv/bin/python bench/bench_session_phhs.py [--hands 100] [--runs 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))

from test_server_staples import people_table
from test_table_bots import passive, play, virtual_server

from rollem.server.game_session import player_names
from rollem.server.routes_session import MAX_BULK_HANDS, bulk_phhs


def measure(game: str, hands: int, runs: int) -> dict[str, Any]:
    with virtual_server() as (loop, store):
        table, _, people = people_table(loop, store, seats=3, game=game, bots=2,
                                        bot_level="basic", between_hands=0.0,
                                        stack=100_000, structure="fixed-limit")
        play(loop, [(table, list(people.values()), passive)], hands)
        mine = []
        for hand_no in store.hand_numbers(table.id):
            row = store.load_hand(table.id, hand_no)
            if row is not None and row.result is not None and 0 in row.setup["seats"]:
                mine.append((hand_no, 0, row, player_names(row.setup, table.names())))
        actions = {h: store.load_actions(table.id, h) for h, *_ in mine}
        best = float("inf")
        size = 0
        for _ in range(runs):
            start = time.perf_counter()
            size = len(bulk_phhs(mine, actions, 0).encode())
            best = min(best, time.perf_counter() - start)
    per_hand_ms = 1000 * best / len(mine)
    return {"game": game, "hands": len(mine), "ms_per_hand": round(per_hand_ms, 2),
            "bytes_per_hand": size // len(mine),
            "limit_seconds": round(per_hand_ms * MAX_BULK_HANDS / 1000, 1),
            "limit_mib": round(size / len(mine) * MAX_BULK_HANDS / 2**20, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out = [measure(game, args.hands, args.runs) for game in ("holdem", "sdr")]
    if args.json:
        print(json.dumps(out))
        return
    for r in out:
        print(f"{r['game']:7} {r['hands']} hands: {r['ms_per_hand']} ms and "
              f"{r['bytes_per_hand']} bytes a hand; {MAX_BULK_HANDS} hands: "
              f"{r['limit_seconds']} s, {r['limit_mib']} MiB")


if __name__ == "__main__":
    main()
