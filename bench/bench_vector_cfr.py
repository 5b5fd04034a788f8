"""Solve a reduced heads-up Stop, Drop and Roll with the public-tree vector
CFR+ (:mod:`rollem.rl.vector_cfr`, issue 30). Figures: docs/dev/rl.md
("A 16-card SDR: vector CFR+").

Default: the 16-card deck 7-A of hearts and spades, fixed limit (ante 1,
bets 2/4), heads-up, no burns, 3-chip stacks, no free folds (a dominated
action: :func:`rollem.rl.vector_cfr.build_tree`). It prints the game's size,
the seconds per iteration and NashConv of the average policy every
``--every`` iterations until it is below ``--goal`` of the big bet, and
saves the average policy (``--save``, rewritten at each measure).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/bench_vector_cfr.py --save /tmp/sdr16.npz

``--check``: the nine-card SDR (2-T of spades, 3-chip stacks) that
``bench_cfr.py`` solves through OpenSpiel: NashConv of the uniform policy and
of the vector CFR+ average after ``--iterations``, by the vector best
response and by OpenSpiel's ``nash_conv`` on the EFG of the whole tree
(minutes: the tree walk). ``--bots`` (:func:`bot_sample`): what the
equilibrium wins from ``basic`` and ``strong``, sampled.
"""

from __future__ import annotations

import os

# before numpy: BLAS threads thrash a shared machine
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import resource
import time
from typing import Any

import numpy as np

from rollem.rl.state import load_setup
from rollem.rl.vector_cfr import CFRPlus, VectorGame, save_policy


def load() -> str:
    return "load (1, 5, 15 min): " + ", ".join(f"{x:.1f}" for x in os.getloadavg())


def rss() -> float:
    """Peak memory of this process, GB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6


def setup_params(args: argparse.Namespace) -> dict[str, Any]:
    ranks = args.deck.rstrip("cdhs")
    return {"game": "sdr", "players": 2, "stack": args.stack, "ranks": ranks,
            "suits": args.deck[len(ranks):], "caps": str(args.raise_cap), "burns": False,
            "chance": "hand"}


def solve(args: argparse.Namespace) -> None:
    params = setup_params(args)
    start = time.perf_counter()
    game = VectorGame(load_setup(**params), free_fold=args.free_fold)
    big = game.setup.options.big_bet
    print(f"{params} free_fold={args.free_fold}", flush=True)
    print(f"built in {time.perf_counter() - start:.1f}s: {game.sizes()}, hole sets "
          f"{game.holes_count}, decision nodes {game.decision_count}; peak {rss():.2f} GB",
          flush=True)
    cfr = CFRPlus(game, dtype=np.float32 if args.float32 else np.float64)
    goal = args.goal * big
    spent = 0.0
    for it in range(1, args.iterations + 1):
        t = time.perf_counter()
        cfr.iteration()
        spent += time.perf_counter() - t
        if it % args.every == 0 or it == args.iterations:
            t = time.perf_counter()
            average = cfr.average()
            nc = game.nash_conv(average)
            value = game.value(average)
            took = time.perf_counter() - t
            print(f"  {it:4d} iterations ({spent / it:.1f}s each): NashConv {nc:.5f} chips "
                  f"= {100 * nc / big:.3f}% of the big bet; seat 0's value {value:+.5f}; "
                  f"[best responses {took:.0f}s; {load()}; peak {rss():.2f} GB]", flush=True)
            if args.save:
                save_policy(args.save, game, average,
                            {"iterations": it, "nash_conv": nc, "value": value})
            if nc < goal:
                print(f"goal met: NashConv {nc:.5f} < {goal:.3f} chips "
                      f"({100 * args.goal:g}% of the big bet {big})", flush=True)
                break


def check(args: argparse.Namespace) -> None:
    import pyspiel

    import rollem.rl.openspiel  # noqa: F401  (registers python_rollem)
    from rollem.rl.solve import export
    from rollem.rl.vector_cfr import OpenSpielPolicy

    params = {**setup_params(args), "ranks": "23456789T", "suits": "s", "stack": 3,
              "caps": "0"}
    game = VectorGame(load_setup(**params))
    cfr = CFRPlus(game)
    for _ in range(args.iterations):
        cfr.iteration()
    policies = {"uniform": game.uniform(), "average": cfr.average()}
    t = time.perf_counter()
    tree = export(pyspiel.load_game("python_rollem", params),
                  {k: OpenSpielPolicy(game, p) for k, p in policies.items()},
                  workers=args.workers)
    print(f"walked {tree.counts} in {time.perf_counter() - t:.0f}s", flush=True)
    efg = tree.game()
    for name, pol in policies.items():
        mine = game.nash_conv(pol)
        theirs = pyspiel.nash_conv(efg, tree.policy(name, efg))
        v = game.value(pol)
        v_os = pyspiel.expected_returns(efg.new_initial_state(), tree.policy(name, efg), -1,
                                        True)[0]
        print(f"{name}: NashConv vector {mine:.12f}, OpenSpiel {theirs:.12f}, "
              f"difference {abs(mine - theirs):.1e}; value {v:+.12f} / {v_os:+.12f}",
              flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deck", default="789TJQKAhs", help="ranks then suits")
    ap.add_argument("--raise-cap", type=int, default=0)
    ap.add_argument("--stack", type=int, default=3)
    ap.add_argument("--free-fold", action="store_true", help="keep folds when a check is free")
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--every", type=int, default=10)
    ap.add_argument("--goal", type=float, default=0.01, help="NashConv goal, of the big bet")
    ap.add_argument("--float32", action="store_true", help="float32 regrets and sums")
    ap.add_argument("--save", default="", help="write the average policy here (.npz)")
    ap.add_argument("--check", action="store_true", help="the nine-card differential check")
    ap.add_argument("--workers", type=int, default=1, help="processes walking the tree (--check)")
    args = ap.parse_args()
    print(load(), flush=True)
    if args.check:
        check(args)
    else:
        solve(args)
    print(load(), flush=True)


if __name__ == "__main__":
    main()
