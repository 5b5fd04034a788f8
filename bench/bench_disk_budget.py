"""Bytes a table stores per hand, and hands an hour under the disk budget (issue 34).

Plays SDR tables of 2, 6 and 10 players (one person, the rest basic computer
players with no delay and no pause) on a virtual clock with the default
floors (1 s per hand, 5 s after a hand no person played), the person either
folding (the attack) or checking and calling (a person playing every hand),
and prints, per table: hands dealt in 10 virtual minutes, stored bytes per hand
(``tables.stored``: the lengths of the stored setups, actions, events and
results) and what that makes an hour.

    .venv/bin/python bench/bench_disk_budget.py

Figures: docs/dev/disk-budget.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))

from test_server_pace import fold, new_table, passive, play, virtual_server

from rollem.server.config import ServerSettings


def main() -> None:
    budget = ServerSettings().budget()
    budget.table_bytes = budget.server_bytes = None  # measure, do not stop
    budget.unattended_seconds = float("inf")
    print("players  person   hands/10min  bytes/hand  MB/hour")
    for players in (2, 6, 10):
        for name, policy in (("folds", fold), ("plays", passive)):
            with virtual_server() as (loop, store):
                table, ann, _host = new_table(loop, store, budget, bots=players - 1)
                play(loop, table, ann, policy, 600.0)
                hands = int(table.session["hand_no"])
                per_hand = table.saving.stored_bytes() / hands
                print(f"{players:7}  {name:6} {hands:12}  {per_hand:10.0f}  "
                      f"{per_hand * hands * 6 / 1e6:7.2f}")


if __name__ == "__main__":
    main()
