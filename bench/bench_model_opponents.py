"""How the odds model's policy matches our computer players, and how
calibrated the odds are against them (issue 33, branch s65-model).

``--agree``: plays seeded hands of ``--game`` with ``basic`` and ``strong``
bots (:func:`rollem.bots.make_bot`) and, at each of their card choices,
asks the policy the odds model assumes (:data:`rollem.odds.policy.FAST`,
through :class:`rollem.odds.policy.PolicyPlayer`) what it would do in the
same view; prints per bot and decision kind how often they agree (5-2-1:
each draw's count and cards, the stacking order's first card rolled, the
whole order of the four up cards, the card kept down, the declaration).

Otherwise: :func:`rollem.odds.calibration.calibrate` per ``--opponents``
(policy, basic, strong, mixed), printing chi-squared over the bins, per
bin predicted against realised, and how often a shown chance at 99% or
more, or 1% or less, was wrong.

    OMP_NUM_THREADS=1 nice -n 15 .venv/bin/python bench/bench_model_opponents.py \
        --game rollem521 --players 4 --hands 300 --pick every
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections import Counter

os.environ.setdefault("OMP_NUM_THREADS", "1")


def agree(game: str, players: int, hands: int, seed: int) -> None:
    from rollem.bots import make_bot
    from rollem.engine import Hand, Options, SeededSource
    from rollem.odds.policy import FAST, PolicyPlayer

    seen: Counter[str] = Counter()
    same: Counter[str] = Counter()
    for n in range(hands):
        hand = Hand(game, [400] * players, button=n % players, options=Options(ante=12),
                    source=SeededSource(seed + n))
        levels = ["basic" if (s + n) % 2 else "strong" for s in range(players)]
        bots = [make_bot(lv, random.Random(1000 * n + s)) for s, lv in enumerate(levels)]
        pol = PolicyPlayer(FAST, random.Random(n))
        while not hand.is_over:
            assert hand.pending is not None
            seat = hand.pending.seats[0]
            view = hand.view(seat)
            acts = set(view.legal.actions)
            if acts & {"draw", "stack", "declare", "discard", "expose"}:
                got = bots[seat].act(view)
                want = pol.act(view)
                lv = levels[seat]
                rnd = sum(1 for e in view.events if e.get("kind") == "draw_round")
                for key, ok in _compare(got, want, acts, rnd):
                    seen[f"{lv} {key}"] += 1
                    same[f"{lv} {key}"] += ok
                action = got
            else:
                action = PolicyPlayer(FAST, random.Random(seat)).act(view)
            hand.apply(seat, action)
    for key in sorted(seen):
        print(f"{key:28s} {same[key]:5d}/{seen[key]:5d} = {same[key] / seen[key]:6.1%}")


def _compare(got: object, want: object, acts: set[str], rnd: int) -> list[tuple[str, bool]]:
    if "draw" in acts:
        g, w = set(got.cards), set(want.cards)  # type: ignore[attr-defined]
        tag = f"draw{min(rnd, 2)}"
        out = [(f"{tag} count", len(g) == len(w)), (f"{tag} cards", g == w)]
        if len(g) == len(w) and g:
            out.append((f"{tag} cards | count", g == w))
        return out
    if "stack" in acts:
        g, w = got.order, want.order  # type: ignore[attr-defined]
        return [*((f"stack {k} up in order", g[:k] == w[:k]) for k in range(1, 5)),
                ("stack down card", g[4] == w[4])]
    if "declare" in acts:
        return [("declare", got == want)]
    if "discard" in acts:
        return [("keep", set(got.cards) == set(want.cards))]  # type: ignore[attr-defined]
    if "expose" in acts:
        return [("expose", got == want)]
    return []


def calib(game: str, players: int, hands: int, pick: str, samples: int, seed: int,
          opponents: list[str]) -> None:
    from rollem.odds.calibration import calibrate

    for opp in opponents:
        t = time.perf_counter()
        cal = calibrate(game, hands=hands, players=players, pick=pick, samples=samples,
                        seed=seed, opponents=opp, shown=True)
        count, bad = cal.wrong_extremes()
        wrong = len(bad)
        expect = sum(min(p, 1 - p) for _, figs, _ in cal.shown for p in figs.values()
                     if min(p, 1 - p) <= 0.01)
        bins = "  ".join(f"[{lo:.2f},{hi:.2f}) n={k} {p:.3f}/{r:.3f} z={z:+.1f}"
                         for lo, hi, k, p, r, z in cal.bins)
        print(f"{game} {players}p {pick} vs {opp:6s}: n={len(cal.predicted)} "
              f"chi2={cal.chi2:.1f}/{cal.limit:.1f} ok={cal.ok} extremes wrong "
              f"{wrong}/{count} (the figures' own chance: {expect:.1f})  "
              f"({time.perf_counter() - t:.0f} s)\n    {bins}\n    wrong: "
              + ", ".join(f"hand {n} {name} {p:.3f}->{r:.2f}" for n, name, p, r in bad),
              flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="rollem521")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--seed", type=int, default=30_000)
    ap.add_argument("--pick", default="every")
    ap.add_argument("--samples", type=int, default=500)
    ap.add_argument("--opponents", default="policy,basic,strong,mixed")
    ap.add_argument("--agree", action="store_true")
    a = ap.parse_args()
    if a.agree:
        agree(a.game, a.players, a.hands, a.seed)
    else:
        calib(a.game, a.players, a.hands, a.pick, a.samples, a.seed, a.opponents.split(","))


if __name__ == "__main__":
    main()
