"""Odds speed: exact heads-up Stop, Drop and Roll equity vs PokerKit, same run.

The question (issue 8): the seat's hole cards against one unknown hand, the
Stop and the Drop known, before the Roll: 1,128 opponent hands x 15,180
Rolls = 17,123,040 showdowns, enumerated exactly by
:func:`rollem.odds.sdr_odds` on one core (numpy, no threads used by the ops
involved). Target: at most 2 s.

PokerKit's ``calculate_equities`` answers the comparable hold'em question
(the same 48 unseen cards: As Kd against any two cards, two board cards
known, three to come; seven-card hands) by Monte Carlo, single-threaded; its
time per showdown is measured on a sample and scaled to 17,123,040
showdowns. Printed: both times and the ratio (PokerKit / rollem).

Advice (issue 16): for each decision kind (Roll Your Own: the three to keep,
each of the three exposes, the wild pick; 5-2-1: the first and second draw, stacking, the
declare), the time of :func:`rollem.odds.view_equity` with ``advice=True`` and
10,000 worlds per option, from seat 0's view in a seeded hand (3 players)
played by the policy up to that choice; one core. Goal: each under 1 s.

Roll Your Own late in the hand (``--ryo-late N``): at 4, 5 and 6 players, N
seeded hands played by the policy, seat 0's first decision after its second
draw (the third expose; opponents' keeps and two exposes each read) and its
last decision (the wild card turned, three exposes each): the time of
:func:`rollem.odds.view_equity` with ``advice=True`` and 10,000 worlds per
option, median, 99th percentile and max (wall and CPU), and how many
answers fell back to the tracked pool.

    .venv/bin/python bench/bench_odds.py [--repeat 3] [--pokerkit-samples 20000]
                                         [--advice-samples 10000] [--players 3]
                                         [--ryo-late 0]
"""

from __future__ import annotations

import argparse
import json
import os
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

from rollem.odds import sdr_odds

HAND, DEAD = "As Kd", "Qh 7c"
SHOWDOWNS = 1128 * 15180


def rollem_exact(repeat: int) -> tuple[float, float]:
    """Best time (s) of ``repeat`` exact runs, and the equity."""
    sdr_odds(HAND, dead=DEAD, board="2d")  # warm the tables
    best = float("inf")
    equity = 0.0
    for _ in range(repeat):
        t = time.perf_counter()
        odds = sdr_odds(HAND, dead=DEAD, opponents=1)
        best = min(best, time.perf_counter() - t)
        assert odds.method == "exact" and odds.samples == SHOWDOWNS, odds
        equity = odds.equity
    return best, equity


def pokerkit_per_showdown(samples: int) -> tuple[float, float]:
    """Seconds per showdown of PokerKit's calculate_equities (one thread)."""
    from itertools import combinations

    from pokerkit import Card, Deck, StandardHighHand, calculate_equities

    hero = list(Card.parse("AsKd"))
    board = list(Card.parse("Qh7c"))
    used = {repr(c) for c in hero + board}
    rest = [c for c in Deck.STANDARD if repr(c) not in used]
    anyhand = [list(pair) for pair in combinations(rest, 2)]
    calculate_equities([[hero], anyhand], board, 2, 5, Deck.STANDARD, (StandardHighHand,),
                       sample_count=200)
    t = time.perf_counter()
    eq = calculate_equities([[hero], anyhand], board, 2, 5, Deck.STANDARD,
                            (StandardHighHand,), sample_count=samples)
    return (time.perf_counter() - t) / samples, eq[0]


def advice_views(players: int) -> dict[str, object]:
    """Seat 0's view at its first choice of each kind, in seeded hands played
    by the policy (:class:`rollem.odds.policy.PolicyPlayer`)."""
    from rollem.engine import Hand, SeededSource
    from rollem.odds.policy import PolicyPlayer

    found: dict[str, object] = {}
    for game, kinds in (("rollyourown", ("discard", "expose", "wild")),
                        ("rollem521", ("draw", "stack", "declare"))):
        for seed in range(40):
            hand = Hand(game, [200] * players, button=players - 1, source=SeededSource(seed))
            bots = [PolicyPlayer() for _ in range(players)]
            draws = exposes = 0
            while not hand.is_over:
                assert hand.pending is not None
                seat = hand.pending.seats[0]
                view = hand.view(seat)
                kind = hand.pending.kind
                if seat == 0 and kind in kinds:
                    name = f"{game} {kind}"
                    if kind == "draw":
                        draws += 1
                        name += " 1" if draws == 1 else " 2"
                    elif kind == "expose":  # the first, and the last after two draws
                        exposes += 1
                        name += f" {exposes}"
                    found.setdefault(name, view)
                hand.apply(seat, bots[seat].act(view))
            if all(any(k.startswith(f"{game} {kind}") for k in found) for kind in kinds) and \
                    (game != "rollem521" or f"{game} draw 2" in found) and \
                    (game != "rollyourown" or f"{game} expose 3" in found):
                break
    return found


def advice_times(samples: int, players: int, repeat: int) -> list[dict[str, object]]:
    """Best time of ``repeat`` advice runs per decision kind."""
    from rollem.odds import view_equity

    rows = []
    for name, view in sorted(advice_views(players).items()):
        view_equity(view, samples=200, advice=True, seed=0)  # warm the tables
        best = cpu = float("inf")
        odds = None
        for _ in range(repeat):
            t, c = time.perf_counter(), time.process_time()
            odds = view_equity(view, samples=samples, advice=True, seed=1)
            best = min(best, time.perf_counter() - t)
            cpu = min(cpu, time.process_time() - c)
        assert odds is not None and odds.advice is not None, name
        rows.append({"decision": name, "options": odds.advice.options,
                     "samples_per_option": samples, "seconds": round(best, 3),
                     "cpu_seconds": round(cpu, 3),
                     "best": odds.advice.choices[0].action,
                     "best_equity": round(odds.advice.choices[0].equity, 4),
                     "stderr": round(odds.advice.choices[0].stderr, 4),
                     "model": (odds.model or odds.method).split(":")[0]})
    return rows


def ryo_late_views(players: int, hands: int, seed: int = 30_000) -> dict[str, list[object]]:
    """Seat 0's first decision after its second draw ("late") and its last
    decision ("last") in ``hands`` seeded Roll Your Own hands."""
    import random

    from rollem.engine import Hand, Options, SeededSource
    from rollem.odds.calibration import _draws
    from rollem.odds.policy import FAST, PolicyPlayer

    out: dict[str, list[object]] = {"late": [], "last": []}
    for n in range(hands):
        hand = Hand("rollyourown", [400] * players, button=n % players,
                    options=Options(ante=12), source=SeededSource(seed + n))
        bots = [PolicyPlayer(FAST, random.Random(s)) for s in range(players)]
        late = last = None
        while not hand.is_over:
            assert hand.pending is not None
            seat = hand.pending.seats[0]
            view = hand.view(seat)
            if seat == 0 and _draws(view) >= 2:
                late = late or view
                last = view
            hand.apply(seat, bots[seat].act(view))
        if late is not None:
            out["late"].append(late)
            out["last"].append(last)
    return out


def ryo_late_times(hands: int, samples: int) -> list[dict[str, object]]:
    """Advice times and fallbacks late in Roll Your Own hands (see the module doc)."""
    from rollem.odds import view_equity

    rows = []
    for players in (4, 5, 6):
        for point, views in ryo_late_views(players, hands).items():
            wall, cpu, fallbacks = [], [], 0
            for i, view in enumerate(views):
                t, c = time.perf_counter(), time.process_time()
                odds = view_equity(view, samples=samples, advice=True, seed=i)
                wall.append(time.perf_counter() - t)
                cpu.append(time.process_time() - c)
                fallbacks += (odds.model or "").startswith("tracked")
            w, p = np.asarray(wall), np.asarray(cpu)
            rows.append({"players": players, "point": point, "positions": len(views),
                         "fallbacks": fallbacks, "samples_per_option": samples,
                         **{f"wall_{k}": round(float(f(w)), 3) for k, f in STATS.items()},
                         **{f"cpu_{k}": round(float(f(p)), 3) for k, f in STATS.items()}})
    return rows


STATS = {"median": np.median, "p99": lambda a: np.quantile(a, 0.99), "max": np.max}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pokerkit-samples", type=int, default=20_000)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--advice-samples", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--only-advice", action="store_true", help="skip the SDR/PokerKit part")
    parser.add_argument("--ryo-late", type=int, default=0, metavar="N",
                        help="only: Roll Your Own late-hand advice at 4-6 players, N hands each")
    args = parser.parse_args()
    if args.ryo_late:
        late = ryo_late_times(args.ryo_late, args.advice_samples)
        if args.json:
            print(json.dumps({"ryo_late": late}))
            return
        print(f"Roll Your Own late in the hand, advice at {args.advice_samples:,} worlds per "
              f"option, one core (load average {os.getloadavg()[0]:.1f}):")
        for r in late:
            print(f"  {r['players']} players, {r['point']:<4} {r['positions']:3d} positions, "
                  f"fallbacks {r['fallbacks']}: wall median {r['wall_median']:.3f} s, p99 "
                  f"{r['wall_p99']:.3f} s, max {r['wall_max']:.3f} s; cpu median "
                  f"{r['cpu_median']:.3f} s, p99 {r['cpu_p99']:.3f} s, max {r['cpu_max']:.3f} s")
        return
    advice = advice_times(args.advice_samples, args.players, args.repeat)
    if args.only_advice:
        if args.json:
            print(json.dumps({"advice": advice}))
            return
        _print_advice(advice)
        return
    seconds, equity = rollem_exact(args.repeat)
    per, pk_equity = pokerkit_per_showdown(args.pokerkit_samples)
    pk_seconds = per * SHOWDOWNS
    out = {
        "showdowns": SHOWDOWNS,
        "rollem_exact_s": round(seconds, 3),
        "rollem_equity": equity,
        "pokerkit_s_per_showdown": per,
        "pokerkit_s_for_same_count": round(pk_seconds, 1),
        "pokerkit_equity_holdem": pk_equity,
        "ratio_pokerkit_over_rollem": round(pk_seconds / seconds, 1),
        "target_s": 2.0,
        "advice": advice,
    }
    if args.json:
        print(json.dumps(out))
        return
    print(f"rollem exact SDR heads-up: {SHOWDOWNS:,} showdowns in {seconds:.3f} s "
          f"(equity {equity:.4f}; target <= 2 s)")
    print(f"PokerKit calculate_equities (hold'em, comparable): {per * 1e6:.1f} us per "
          f"showdown -> {pk_seconds:,.0f} s for the same count (equity {pk_equity:.4f})")
    print(f"ratio PokerKit / rollem: {pk_seconds / seconds:,.0f}x")
    _print_advice(advice)


def _print_advice(rows: list[dict[str, object]]) -> None:
    print("advice (view_equity advice=True, one core; goal < 1 s each; wall and this "
          f"process's CPU time, load average {os.getloadavg()[0]:.1f}):")
    for r in rows:
        print(f"  {r['decision']:<22} {r['options']:>3} options x {r['samples_per_option']:,} "
              f"worlds: {r['seconds']:.3f} s (cpu {r['cpu_seconds']:.3f} s)   best: {r['best']} "
              f"(equity {r['best_equity']:.3f} +- {r['stderr']:.3f}; {r['model']})")


if __name__ == "__main__":
    main()
