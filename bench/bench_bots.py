"""Bot strength: ``basic`` against ``random`` in each game.

For each game, a seeded session 6-handed (seat 0 ``basic``, seats 1-5
``random``, stacks 200, rebuys, fixed limit ante 1 / bets 2 and 4) of
``--hands`` hands (default 20,000), the same as

    rollem simulate GAME --players 6 --hands 20000 --bots basic,random,random,random,random,random

Prints each seat's chips per hand with its 95% confidence interval and
whether basic's interval lies above zero (the goal).

    .venv/bin/python bench/bench_bots.py [--hands 20000] [--seed 1] [GAME ...]
"""

from __future__ import annotations

import argparse

from rollem.simulate import run_simulation

GAMES = ("sdr", "rollyourown", "rollem521")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    ok = True
    for game in args.games:
        result = run_simulation(game, 6, args.hands, ["basic"] + ["random"] * 5,
                                seed=args.seed).to_dict()
        print(f"{game}: {result['hands']} hands, {result['hands_per_second']} hands/s")
        for s in result["seats"]:
            lo, hi = s["ci95"]
            print(f"  seat {s['seat']} {s['bot']:<6} {s['net_per_hand']:+8.3f} chips/hand "
                  f"(95% CI {lo:+.3f} .. {hi:+.3f})")
        above = result["seats"][0]["ci95"][0] > 0
        ok &= above
        print(f"  basic's 95% CI above zero: {'yes' if above else 'NO'}")
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
