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

``--timing`` instead times the ``strong`` level's decisions (one process,
so one core): ``--hands`` hands per game (default 60 here) heads-up and
6-handed against ``basic``, and prints the median and 99th percentile per
decision kind (betting rounds separately), against the goal of a median at
most 50 ms and a p99 at most 300 ms. Times are the process's CPU time
(``time.process_time``), so a loaded or niced machine does not inflate them:
a decision's cost on one core.

    .venv/bin/python bench/bench_bots.py --timing [--hands 60] [--structure no-limit] [GAME ...]

Measured 2026-12-01 10:48 UTC at e9c3e4f (``--timing --hands 100``, seed 1,
``nice -n 19``, one process with ``OMP_NUM_THREADS=1`` on the shared 2-core
machine at load 7-9): every kind well inside the goal; the largest median
3.6 ms (Roll Your Own, first betting round), the largest p99 38.6 ms (5-2-1
declare); 5-2-1 betting medians 1.2-3.3 ms, p99 5.7-24.6 ms; SDR medians
0.4-0.5 ms; card choices (discard, expose, draw, stack) medians at most
0.5 ms.
No limit (``--structure no-limit --hands 60``, 2026-12-01 16:31 UTC at
b195d97, ``nice -n 19``, load 3-4): betting medians at most 4.0 ms (5-2-1
round 1), p99 at most 22.8 ms (5-2-1 round 4); the declare 1.1 / 20.5 ms.

``--legality`` instead plays ``--hands`` hands per game (default 10,000) at
one seeded table of ``--levels`` (default ``basic,random,random,basic,random,
random``; ``basic`` with a quick random stand-in for its strength so every
branch comes up, ``strong`` with few samples), stacks 200 with rebuys, fixed
limit: every action must be legal from the seat's own view (the checks of
``tests/bot_helpers.py``), and it prints how often each level made each kind
of decision. tests/test_bots.py runs the same checks over many short
hypothesis-chosen sessions instead.

    .venv/bin/python bench/bench_bots.py --legality [--hands 10000] \
        [--levels basic,random,strong,random] [GAME ...]
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


def timing(game: str, hands: int, seed: int,
           structure: str = "fixed-limit") -> dict[str, list[float]]:
    """CPU milliseconds of each strong decision, by kind, over ``hands`` hands heads-up
    and ``hands`` 6-handed (seat 0 strong, the others basic) in ``structure``,
    after one untimed hand that builds the lookup tables."""
    import random
    import time

    from rollem.bots import make_bot, observe_hand_end
    from rollem.engine.options import Options
    from rollem.hand_ends import tell_hand_end
    from rollem.table import Table

    times: dict[str, list[float]] = {}
    for players in (2, 6):
        bots = [make_bot("strong" if i == 0 else "basic", random.Random(seed * 10 + i))
                for i in range(players)]
        table = Table([200] * players, game=game, rng=random.Random(seed), rebuy=200,
                      options=Options(structure=structure))
        for i in range(hands + 1):  # the first hand warms up (tables built once)
            hand = table.new_hand()
            while not hand.is_over:
                assert hand.pending is not None
                seat = hand.pending.seats[0]
                view = hand.view(seat)
                t = time.process_time()
                action = bots[seat].act(view)
                ms = (time.process_time() - t) * 1000
                if seat == 0 and i > 0:
                    assert view.legal is not None
                    kind = view.legal.kind
                    if kind == "bet":
                        kind = f"bet {view.round}"
                    times.setdefault(kind, []).append(ms)
                hand.apply(seat, action)
            t = time.process_time()
            observe_hand_end(bots[0], hand.view(0))  # (what it learns from showdowns)
            if i > 0:
                times.setdefault("hand end", []).append((time.process_time() - t) * 1000)
            tell_hand_end(hand, {s: b for s, b in enumerate(bots) if s > 0})
            table.end_hand()
    return times


def _timing_main(games: list[str], hands: int, seed: int, structure: str) -> None:
    ok = True
    for game in games:
        for kind, ms in sorted(timing(game, hands, seed, structure).items()):
            ms.sort()
            median = ms[len(ms) // 2]
            p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
            good = median <= 50 and p99 <= 300
            ok &= good
            print(f"{game:11s} {structure:11s} {kind:16s} n={len(ms):5d} median {median:7.1f} ms "
                  f"p99 {p99:7.1f} ms {'ok' if good else 'OVER'}", flush=True)
    raise SystemExit(0 if ok else 1)


def _legality_main(games: list[str], hands: int, seed: int, levels: list[str]) -> None:
    import sys
    import time
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from bot_helpers import level_bot, play_checked

    for game in games:
        bots = [level_bot(level, seed * 100 + i) for i, level in enumerate(levels)]
        t = time.perf_counter()
        seen = play_checked(game, hands, bots, seed)
        kinds = sorted({k for _, k in seen})
        print(f"{game}: {hands} hands at {len(levels)} seats, every action legal "
              f"({time.perf_counter() - t:.0f} s)")
        for level in dict.fromkeys(levels):
            seats = [i for i, lv in enumerate(levels) if lv == level]
            counts = ", ".join(f"{k} {sum(seen[s, k] for s in seats)}" for k in kinds)
            print(f"  {level:<7} decisions: {counts}", flush=True)
    raise SystemExit(0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("--hands", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="parallel sessions")
    parser.add_argument("--timing", action="store_true", help="time the strong level instead")
    parser.add_argument("--legality", action="store_true",
                        help="play long sessions checking every action instead")
    parser.add_argument("--structure", default="fixed-limit",
                        help="betting structure of --timing (fixed-limit, pot-limit, no-limit)")
    parser.add_argument("--levels", default="basic,random,random,basic,random,random",
                        help="seats of the --legality table")
    args = parser.parse_args()
    if args.legality:
        _legality_main(args.games, args.hands or 10_000, args.seed, args.levels.split(","))
    if args.timing:
        _timing_main(args.games, args.hands or 60, args.seed, args.structure)
    if args.hands is None:
        args.hands = 20_000
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
