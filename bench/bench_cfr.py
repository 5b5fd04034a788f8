"""Solve a reduced heads-up Stop, Drop and Roll with OpenSpiel's CFR+ and
measure how exploitable rollem's ``basic`` and ``strong`` players are there
(issue 30). Figures: docs/dev/rl.md ("Solving a reduced SDR").

1. ``--count``: the states (chance, decision, terminal nodes) of each
   configuration in :data:`CONFIGS`, by :func:`rollem.rl.solve.count_states`
   (exact: SDR's betting never depends on the cards), to see what is solvable.
2. The solve, on one configuration (``--deck``, ``--raise-cap``,
   ``--stack``; heads-up, no burns, ``chance="hand"``):
   the whole ``python_rollem`` tree is walked once
   (:func:`rollem.rl.solve.export`, asking ``basic`` and ``strong`` through
   :class:`rollem.rl.policy.BotPolicy` at each information state), loaded in
   OpenSpiel as an EFG game, then C++ CFR+ runs ``--iterations`` iterations,
   NashConv of the average policy every ``--every`` (the curve), until
   NashConv is below ``--goal`` chips; then NashConv and exploitability
   (NashConv / 2) of ``basic`` and ``strong`` playing both seats.
   ``--save FILE`` writes the average policy (JSON: information state →
   ``{action id: probability}``).

    .venv/bin/python bench/bench_cfr.py --count
    .venv/bin/python bench/bench_cfr.py --game bench/games/mini-roll.toml --deck 234567s --stack 200
    .venv/bin/python bench/bench_cfr.py --deck 23456789Ts --raise-cap 0 --stack 3 --workers 2
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import time
from typing import Any

import pyspiel

import rollem.rl.openspiel  # noqa: F401  (registers python_rollem)
from rollem.rl.policy import BotPolicy
from rollem.rl.solve import count_states, export

BASE: dict[str, Any] = {"game": "sdr", "players": 2, "burns": False, "chance": "hand"}
CONFIGS: list[dict[str, Any]] = [
    {"deck": "23456789Ts", "raise_cap": 0, "stack": 3},
    {"deck": "23456789Ts", "raise_cap": 0},
    {"deck": "23456789Ts", "raise_cap": 1},
    {"deck": "23456789Ts"},
    {"deck": "23456hs", "raise_cap": 1},
    {"deck": "TJQKAhs", "raise_cap": 0, "stack": 3},
    {"deck": "89TJQKAhs", "raise_cap": 1},
    {"deck": "789TJQKAhs", "raise_cap": 1},
    {"deck": "789TJQKAhs", "raise_cap": 1, "burns": True},
    {"deck": "789TJQKAhs", "raise_cap": 1, "burns": True, "chance": "card"},
]


def load(extra: dict[str, Any]) -> pyspiel.Game:
    """``python_rollem`` with :data:`BASE` and ``extra``."""
    return pyspiel.load_game("python_rollem", {**BASE, **extra})


def print_counts() -> None:
    """The tree size of each configuration of :data:`CONFIGS`."""
    for extra in CONFIGS:
        start = time.perf_counter()
        c = count_states(load(extra))
        total = sum(c.values())
        deck = extra["deck"]
        ranks = deck.rstrip("cdhs")
        cards = len(ranks) * (len(deck) - len(ranks))
        print(f"{cards:2d} cards {extra}: {total:.3g} states (chance {c['chance']:,}, "
              f"decision {c['decision']:,}, terminal {c['terminal']:,}) "
              f"[{time.perf_counter() - start:.1f}s]", flush=True)


def sample_walk(game: pyspiel.Game) -> tuple[int, float]:
    """Walk the subtree of one deal (the first outcome of each chance node
    before the first decision), as :func:`rollem.rl.solve.export` walks
    (information state strings, legal actions, returns): (states, CPU seconds)."""
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    states = 0
    start = time.process_time()
    todo = [state]
    while todo:
        s = todo.pop()
        states += 1
        if s.is_terminal():
            s.returns()
            continue
        if s.is_chance_node():
            actions = [a for a, _ in s.chance_outcomes()]
        else:
            s.information_state_string(s.current_player())
            actions = s.legal_actions()
        todo.extend(s.child(a) for a in actions[:-1])
        s.apply_action(actions[-1])
        todo.append(s)
    return states, time.process_time() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", action="store_true", help="only count the states of CONFIGS")
    ap.add_argument("--game", default="sdr",
                    help="a game id or file (bench/games/mini-roll.toml: a tiny one)")
    ap.add_argument("--deck", default="23456789Ts", help="ranks then suits")
    ap.add_argument("--workers", type=int, default=1, help="processes walking the tree")
    ap.add_argument("--raise-cap", type=int, default=0)
    ap.add_argument("--stack", type=int, default=3)
    ap.add_argument("--iterations", type=int, default=2000)
    ap.add_argument("--every", type=int, default=25)
    ap.add_argument("--goal", type=float, default=0.01, help="NashConv goal in chips")
    ap.add_argument("--bots", default="basic,strong")
    ap.add_argument("--sample", action="store_true",
                    help="only walk one deal's subtree and project the whole walk's CPU time")
    ap.add_argument("--save", default="", help="write the average policy here (JSON)")
    ap.add_argument("--keep", default="", help="pickle the walked tree here")
    ap.add_argument("--load", default="", help="a tree pickled by --keep instead of a walk")
    args = ap.parse_args()
    if not args.count:  # a bad option: one line before the walk (was a traceback, or a
        import bench_args  # ZeroDivisionError for --every 0 after it; stop 72)

        for option in ("iterations", "every", "workers", "stack"):
            bench_args.check_at_least(ap, f"--{option}", getattr(args, option), 1)
        bench_args.check_at_least(ap, "--raise-cap", args.raise_cap, -1)
        if args.bots:  # (empty: no bot measured)
            bench_args.check_levels(ap, "--bots", args.bots)
        extra = {"game": args.game, "deck": args.deck, "raise_cap": args.raise_cap,
                 "stack": args.stack}
        try:
            game = load(extra)
        except ValueError as err:
            ap.error(f"--game {args.game}, --deck {args.deck}: {err}")
    print(f"load (1, 5, 15 min): {os.getloadavg()}", flush=True)
    if args.count:
        print_counts()
        return
    print(game, flush=True)
    counts = count_states(game)
    print("states:", counts, flush=True)
    if args.sample:
        states, cpu = sample_walk(game)
        total = sum(counts.values())
        print(f"one deal: {states} states in {cpu:.2f} CPU s ({1e3 * cpu / states:.2f} ms a "
              f"state); the whole walk: about {total * cpu / states / 60:.0f} CPU minutes",
              flush=True)
        return
    bots = [b for b in args.bots.split(",") if b]
    if args.load:
        with open(args.load, "rb") as f:
            tree = pickle.load(f)
    else:
        tree = export(game, {b: BotPolicy(game, b) for b in bots}, workers=args.workers,
                      max_states=None)  # (sized by its options on purpose: --count first)
        if args.keep:
            with open(args.keep, "wb") as f:
                pickle.dump(tree, f)
    print(f"walked {tree.counts} in {tree.seconds:.0f}s; information states {tree.infosets}; "
          f"EFG {len(tree.efg) / 1e6:.1f} MB", flush=True)
    efg = tree.game()
    ante = game.new_initial_state().moves.setup.options.ante
    big_bet = game.new_initial_state().moves.setup.options.big_bet
    stop = args.goal

    def show(it: int, nc: float, seconds: float) -> None:
        print(f"  CFR+ {it:5d} iterations: NashConv {nc:.5f} chips "
              f"({100 * nc / ante:.2f}% of the ante, {100 * nc / big_bet:.3f}% of the big bet) "
              f"[{seconds:.0f}s]", flush=True)

    start = time.perf_counter()
    solver = pyspiel.CFRPlusSolver(efg)
    curve: list[tuple[int, float]] = []
    for it in range(1, args.iterations + 1):
        solver.evaluate_and_update_policy()
        if it % args.every == 0 or it == args.iterations:
            nc = float(pyspiel.nash_conv(efg, solver.average_policy()))
            curve.append((it, nc))
            show(it, nc, time.perf_counter() - start)
            if nc < stop:
                break
    average = solver.tabular_average_policy()
    print(f"CFR+: {curve[-1][0]} iterations, NashConv {curve[-1][1]:.5f} chips, "
          f"{time.perf_counter() - start:.0f}s", flush=True)
    for b in bots:
        nc = float(pyspiel.nash_conv(efg, tree.policy(b, efg)))
        print(f"{b}: NashConv {nc:.4f} chips, exploitability {nc / 2:.4f} chips a hand "
              f"({100 * nc / 2 / ante:.1f}% of the ante)", flush=True)
    if args.save:
        table = tree.decode(average, efg)
        with open(args.save, "w") as f:
            json.dump({"game": str(game), "iterations": curve[-1][0],
                       "nash_conv": curve[-1][1], "policy": table}, f)
        print("saved", args.save)
    print(f"load (1, 5, 15 min): {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    main()
