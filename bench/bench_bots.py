"""Bot strength: ``basic`` against ``random`` in each game.

For each game, a seeded session 6-handed (seat 0 ``basic``, seats 1-5
``random``, stacks 200, rebuys, fixed limit ante 1 / bets 2 and 4) of
``--hands`` hands (default 20,000), the same as

    rollem simulate GAME --players 6 --hands 20000 --bots basic,random,random,random,random,random

With ``--jobs J`` the hands are split into J seeded sessions played in
parallel processes, and their hands pooled. Prints each seat's chips per hand
with its 95% confidence interval and whether basic's interval lies above zero
(the goal). The engine refuses any illegal action, so a finished run also
shows that neither bot made one.

    .venv/bin/python bench/bench_bots.py [--hands 20000] [--seed 1] [--jobs 2] [GAME ...]
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor

from rollem.simulate import SimulationResult, run_simulation

GAMES = ("sdr", "rollyourown", "rollem521")
BOTS = ["basic"] + ["random"] * 5


def _session(args: tuple[str, int, int]) -> SimulationResult:
    game, hands, seed = args
    return run_simulation(game, 6, hands, BOTS, seed=seed)


def match(game: str, hands: int, seed: int, jobs: int) -> SimulationResult:
    """``hands`` hands of basic + 5 random in ``jobs`` seeded sessions, pooled."""
    sizes = [hands // jobs + (1 if i < hands % jobs else 0) for i in range(jobs)]
    work = [(game, k, seed * 1000 + i) for i, k in enumerate(sizes) if k]
    if len(work) == 1:
        parts = [_session(work[0])]
    else:
        with ProcessPoolExecutor(len(work)) as pool:
            parts = list(pool.map(_session, work))
    per_hand: list[list[int]] = [[] for _ in BOTS]
    for part in parts:
        for s, nets in enumerate(part.per_hand):
            per_hand[s].extend(nets)
    return SimulationResult(
        game=game, hands=sum(p.hands for p in parts),
        chips_start=sum(p.chips_start for p in parts), chips_end=sum(p.chips_end for p in parts),
        actions=sum(p.actions for p in parts), seconds=max(p.seconds for p in parts),
        bots=list(BOTS), per_hand=per_hand)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="parallel sessions")
    args = parser.parse_args()
    ok = True
    for game in args.games:
        result = match(game, args.hands, args.seed, args.jobs).to_dict()
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
