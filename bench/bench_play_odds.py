"""The odds shown in play: precision reached in a second of CPU (issue 33).

For seat 0's views in seeded hands played by the fast policy (Roll Your Own
after the seat's second draw at 3 to 6 players; Stop, Drop and Roll's first
decision; 5-2-1's first draw), compares in the same run

- **old**: what ``rollem play --show-odds`` did before issue 33, one
  ``view_equity(view, samples=2000, advice=True)`` (Roll Your Own with three
  or more others draws at least 4,000 worlds);
- **new**: :func:`rollem.odds.play.play_odds` (exact where it fits, else
  batches until ±1.5 points or 1 s of CPU),

and prints per view the CPU seconds, the effective worlds (importance
weighting: the calculator's own count; else every world), effective worlds
per CPU second, and the 95% half-width over every figure shown
(:func:`rollem.odds.play.interval_of`; 0 when exact), with new/old ratios.

    .venv/bin/python bench/bench_play_odds.py [--hands 3] [--json] [--only TEXT]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")

from rollem.engine import Hand, Options, SeededSource
from rollem.odds.play import interval_of, play_odds
from rollem.odds.policy import FAST, PolicyPlayer
from rollem.odds.result import Odds
from rollem.odds.view import view_equity


def _view(game: str, players: int, seed: int, want: str) -> Any:
    """Seat 0's first view in the hand that ``want`` names (``"late"``: Roll
    Your Own after its second pool draw; ``"first"``: its first decision;
    ``"draw"``: its first 5-2-1 draw; Roll Your Own earlier after the
    discard: ``"shown"``, once every other player has exposed a card, before
    any draw; ``"drew"``, after its first pool draw, at its second expose;
    issue 33, branch s47-odds; ``"at:ROUND|KIND"``, its first decision in
    the betting round ``ROUND`` (the view's ``round``) of kind ``KIND``
    (``bet``, ``draw``, ``expose``, ...), either part empty for any; issue 33,
    branch s50-odds), or ``None``."""
    hand = Hand(game, [400] * players, button=seed % players, options=Options(ante=12),
                source=SeededSource(seed))
    seats = [PolicyPlayer(FAST, random.Random(s)) for s in range(players)]
    while not hand.is_over:
        assert hand.pending is not None
        seat, kind = hand.pending.seats[0], hand.pending.kind
        view = hand.view(seat)
        if seat == 0:
            events = view.to_dict()["events"]
            draws = sum(1 for e in events
                        if e.get("kind") == "pool_draw" and e.get("seat") == 0)
            others_up = {e.get("seat") for e in events
                         if e.get("kind") == "expose" and e.get("seat") != 0}
            if want.startswith("at:"):
                rnd, _, of = want[3:].partition("|")
                if rnd in ("", view.to_dict()["round"]) and of in ("", kind):
                    return view
            elif want == "first" or (want == "late" and draws >= 2) or (
                    want == "draw" and kind == "draw") or (
                    want == "drew" and draws >= 1) or (
                    want == "shown" and len(others_up) >= players - 1):
                return view
        hand.apply(seat, seats[seat].act(view))
    return None


def _figures(odds: Odds, cpu: float) -> dict[str, float]:
    eff = float(odds.effective if odds.effective is not None else odds.samples)
    if odds.method == "exact":
        half = 0.0
    elif odds.interval is not None:
        half = odds.interval
    else:
        half = interval_of(odds.stderr, [odds.win, odds.tie, odds.lose, odds.high_half,
                                         odds.low_half], eff)
    return {"cpu": round(cpu, 3), "effective": round(eff), "worlds": odds.samples,
            "effective_per_cpu_s": round(eff / max(cpu, 1e-9)),
            "half_width_points": round(100 * half, 2), "exact": odds.method == "exact"}


CONFIGS = (
    [("rollyourown", n, "late", f"Roll Your Own, {n} players, after the seat's second draw")
     for n in (3, 4, 5, 6)]
    + [("sdr", 2, "first", "Stop, Drop and Roll heads-up, first decision"),
       ("sdr", 4, "first", "Stop, Drop and Roll, 4 players, first decision"),
       ("rollem521", 3, "draw", "5-2-1, 3 players, first draw (with advice)")]
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3, help="views per configuration")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only", default="", help="only the configurations whose label "
                        "holds this text (e.g. 'Roll Your Own, 6')")
    args = parser.parse_args()
    rows = []
    for game, players, want, label in CONFIGS:
        if args.only not in label:
            continue
        seed, found = 30_000, 0
        while found < args.hands and seed < 30_200:
            seed += 1
            view = _view(game, players, seed, want)
            if view is None:
                continue
            found += 1
            t = time.thread_time()
            old = view_equity(view, samples=2000, advice=True, seed=seed)
            old_f = _figures(old, time.thread_time() - t)
            t = time.thread_time()
            new = play_odds(view, seed=seed)
            new_f = _figures(new, time.thread_time() - t)
            row = {"config": label, "hand_seed": seed, "old": old_f, "new": new_f,
                   "ratio_effective_per_cpu_s": round(new_f["effective_per_cpu_s"]
                                                      / max(old_f["effective_per_cpu_s"], 1),
                                                      2)}
            rows.append(row)
            if not args.json:
                print(f"{label}, hand {seed}: old {old_f['cpu']} s, {old_f['effective']:,} "
                      f"effective of {old_f['worlds']:,}, ±{old_f['half_width_points']} pts"
                      f" | new {new_f['cpu']} s, {new_f['effective']:,} effective of "
                      f"{new_f['worlds']:,}, ±{new_f['half_width_points']} pts"
                      f"{' (exact)' if new_f['exact'] else ''} | effective/CPU s "
                      f"{old_f['effective_per_cpu_s']:,} -> {new_f['effective_per_cpu_s']:,}"
                      f" (x{row['ratio_effective_per_cpu_s']})", flush=True)
    if args.json:
        print(json.dumps(rows))
    else:
        for label in dict.fromkeys(r["config"] for r in rows):
            mine = [r for r in rows if r["config"] == label]

            def med(get: Any, rows_: list[dict[str, Any]] = mine) -> float:
                return statistics.median(get(r) for r in rows_)

            print(f"{label}: median new ±{med(lambda r: r['new']['half_width_points'])} pts "
                  f"(old ±{med(lambda r: r['old']['half_width_points'])}), median ratio "
                  f"effective/CPU s x{med(lambda r: r['ratio_effective_per_cpu_s'])}")
        print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
