"""The odds shown in play across many hands: the ±1.5-point goal per hand (issue 33).

``bench_calibration.py --coverage`` judges each decision point on one hand
(30001), against a long run's truth. This bench asks how often the goal holds
across hands: for each view (game, players, decision point: the same list as
``bench_calibration.py --all``) it finds seat 0's view in hands
``--first-hand``, ``--first-hand`` + 1, ... (hands where seat 0 never reaches
that point are skipped), runs :func:`rollem.odds.play.play_odds` once on each
at play's own budget, and reports how many figures were exact, how many
intervals were within ±1.5 points, the median and widest half width (points),
the widest hands, and the most CPU seconds a run took, with the load average
(a loaded machine does less in play's CPU second).

    .venv/bin/python bench/bench_odds_hands.py --games rollyourown --players 5 \\
        --points "third card up" --hands 40 --out /tmp/hands.jsonl
    .venv/bin/python bench/bench_odds_hands.py --table /tmp/hands.jsonl

Each view's row is appended to ``--out`` as one JSON line once its hands are
done (a long survey can be stopped and its rows kept); ``--table`` prints
rows as a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_calibration import _all_views
from bench_play_odds import _view
from rollem.odds import compiled
from rollem.odds.play import play_odds

GOAL_POINTS = 1.5
"""Issue 33's goal: a 95% interval no wider than ±1.5 points."""


def survey(game: str, players: int, pick: str, label: str, hands: int, first_hand: int,
           seed: int = 1, most_tries: int = 4) -> dict[str, Any]:
    """One view over ``hands`` hands: a dict with ``config``, ``hands`` (the
    hands found: up to ``hands``; seat 0 may never reach ``pick`` in some, up
    to ``most_tries`` times ``hands`` hands are dealt to find them), ``exact``,
    ``within`` (of ``hands``), ``half_width_median`` / ``_max`` (points),
    ``cpu_max`` (s), ``widest`` ([hand, equity %, ± points] of up to 5), ``runs``
    ([hand, equity %, ± points, cpu s, exact] each), ``load`` and ``utc``."""
    runs: list[list[Any]] = []
    hand = first_hand
    while len(runs) < hands and hand < first_hand + most_tries * hands:
        view = _view(game, players, hand, pick)
        if view is not None:
            t = time.process_time()
            odds = play_odds(view, seed=seed)
            cpu = time.process_time() - t
            exact = odds.method == "exact"
            half = 0.0 if exact else 100 * float(odds.interval or 0.0)
            runs.append([hand, round(100 * odds.equity, 3), round(half, 3), round(cpu, 3), exact])
        hand += 1
    halves = [r[2] for r in runs]
    widest = sorted(runs, key=lambda r: -r[2])[:5]
    return {"config": label.replace(", hand 30001", ""), "game": game, "players": players,
            "pick": pick, "hands": len(runs), "first_hand": first_hand, "seed": seed,
            "exact": sum(1 for r in runs if r[4]),
            "within": sum(1 for h in halves if h <= GOAL_POINTS),
            "half_width_median": round(statistics.median(halves), 3) if halves else None,
            "half_width_max": round(max(halves), 3) if halves else None,
            "cpu_max": round(max((r[3] for r in runs), default=0.0), 3),
            "widest": [[r[0], r[1], r[2]] for r in widest if r[2] > 0],
            "runs": runs, "load": round(os.getloadavg()[0], 2),
            "utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime())}


def table(paths: list[str]) -> None:
    """Print the rows of JSON-lines files as a Markdown table."""
    print("| view | hands | exact | within ±1.5 | median ± | widest ± (hand) | max CPU s | load |")
    print("|---|---|---|---|---|---|---|---|")
    for path in paths:
        for line in Path(path).read_text().splitlines():
            r = json.loads(line)
            wide = r["widest"][0] if r["widest"] else None
            print(f"| {r['config']} | {r['hands']} | {r['exact']} | {r['within']} | "
                  f"{r['half_width_median']} | "
                  f"{f'{wide[2]} ({wide[0]})' if wide else '0'} | {r['cpu_max']} | "
                  f"{r['load']} |")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="rollyourown",
                        help="comma-separated games (default rollyourown)")
    parser.add_argument("--players", default="2,3,4,5,6", help="comma-separated counts")
    parser.add_argument("--points", default="",
                        help="only the decision points whose name holds this text "
                             "(e.g. 'third card up')")
    parser.add_argument("--hands", type=int, default=20, help="hands per view (default 20)")
    parser.add_argument("--first-hand", type=int, default=30001,
                        help="the first hand's seed (default 30001)")
    parser.add_argument("--seed", type=int, default=1, help="play_odds's seed in every run")
    parser.add_argument("--out", help="append each view's row to this JSON-lines file")
    parser.add_argument("--table", nargs="+", metavar="FILE",
                        help="print the rows of these files as a table and stop")
    args = parser.parse_args(argv)
    if args.table:
        table(args.table)
        return
    if args.hands < 1:
        parser.error(f"--hands must be 1 or more, got {args.hands}")
    players = tuple(int(p) for p in args.players.split(","))
    games = set(args.games.split(","))
    compiled.wait()
    for game, n, _hand, pick, label in _all_views(players):
        if game not in games or args.points not in label:
            continue
        row = survey(game, n, pick, label, args.hands, args.first_hand, args.seed)
        if args.out:
            with open(args.out, "a") as f:
                f.write(json.dumps(row) + "\n")
        print(f"{row['config']}: {row['hands']} hands, {row['exact']} exact, "
              f"{row['within']} within ±{GOAL_POINTS}, median ±{row['half_width_median']}, "
              f"widest {row['widest'][:3]}, max CPU {row['cpu_max']} s, "
              f"load {row['load']}", flush=True)


if __name__ == "__main__":
    main()
