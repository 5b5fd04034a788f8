"""Roll Your Own odds in play against hands our computer players played (issue 33,
branch s67-rough).

Plays seeded Roll Your Own hands (400 chips, ante 12, button ``n % players``,
``SeededSource(seed + n)``): seat 0 by the policy the odds model assumes
(:class:`rollem.odds.policy.PolicyPlayer`: its card choices, every bet checked or
called, as the terminal's scripted newcomer), the other seats by ``--opponents``:
``policy``, or a computer player of that level (:func:`rollem.bots.make_bot`:
``basic``, ``random``, ``strong``), every choice its own, bets and folds too
(``--calls``: card choices only, bets checked or called). At each of seat 0's
decisions from its first expose on it runs :func:`rollem.odds.play.play_odds` on
the view (the CPU budget of play, this thread's CPU clock) and prints one JSON row:
the decision (round, kind), the odds' interval, ``rough``, the effective worlds, the
figures (``shown_rough``: what play shows as rough, :func:`rollem.odds.display.
play_lines`), and what the seat got at the end (``realised``: its share of the pot, 0 if
it folded; the seat never folds). ``--straying``: play's ``straying``
(:mod:`rollem.odds.straying`; 1.0 reads the others as random players).

``--agree``: no odds; at each opponent's discard and expose, whether its choice is
one the model's policy gives (the keep among the best of
:meth:`rollem.odds.policy.FastPolicy.keep_scores`, the expose among the least of
:meth:`~rollem.odds.policy.FastPolicy.expose_scores`: the choices the model gives
chance ``(1 - TREMBLE) / ties + TREMBLE / options``; the others only the tremble's
share).

    OMP_NUM_THREADS=1 nice -n 15 python bench/bench_ryo_bots.py --players 4 \
        --opponents basic --hands 20 --seed 60000 > rows.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from types import SimpleNamespace
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")


def _player(level: str, seat: int, n: int, calls: bool) -> Any:
    from rollem.bots import make_bot
    from rollem.odds.calibration import _CardBot
    from rollem.odds.policy import FAST, PolicyPlayer

    caller = PolicyPlayer(FAST, random.Random(seat))
    if level == "policy":
        return caller
    bot = make_bot(level, random.Random(1000 * n + seat))
    return _CardBot(bot, caller) if calls else bot


def hand_of(players: int, n: int, seed: int) -> Any:
    from rollem.engine import Hand, Options, SeededSource

    return Hand("rollyourown", [400] * players, button=n % players, options=Options(ante=12),
                source=SeededSource(seed + n))


def play_rows(players: int, opponents: str, hands: int, seed: int, calls: bool,
              first: int = 0, straying: float | None = None) -> None:
    from rollem.odds.calibration import realised_share
    from rollem.odds.display import ROUGH_EFFECTIVE
    from rollem.odds.play import play_odds

    for n in range(first, first + hands):
        hand = hand_of(players, n, seed)
        seats = [_player("policy" if s == 0 else opponents, s, n, calls)
                 for s in range(players)]
        rows = []
        while not hand.is_over:
            assert hand.pending is not None
            seat, kind = hand.pending.seats[0], hand.pending.kind
            view = hand.view(seat)
            if seat == 0:
                d = view.to_dict()
                exposed = any(e.get("kind") == "expose" and e.get("seat") == 0
                              for e in d["events"])
                if exposed or kind == "expose":
                    folded = sum(1 for s in d["seats"] if s["seat"] != 0 and s["dealt"]
                                 and s["folded"])
                    t = time.thread_time()
                    odds = play_odds(view, seed=n, straying=straying)
                    rows.append({"players": players, "opponents": opponents, "hand": n,
                                 "round": d["round"], "kind": kind, "folded": folded,
                                 "interval": round(100 * (odds.interval or 0.0), 2),
                                 "rough": bool(odds.rough), "straying": straying,
                                 "shown_rough": bool(odds.rough) or (
                                     odds.effective is not None
                                     and odds.effective < ROUGH_EFFECTIVE), "method": odds.method,
                                 "effective": round(odds.effective or 0.0),
                                 "samples": odds.samples, "equity": round(odds.equity, 4),
                                 "win": round(odds.win, 4), "lose": round(odds.lose, 4),
                                 "model": (odds.model or "")[:12],
                                 "cpu": round(time.thread_time() - t, 3)})
            hand.apply(seat, seats[seat].act(view))
        share = realised_share(hand, 0)
        for r in rows:
            r["realised"] = round(share, 4)
            print(json.dumps(r), flush=True)


def agree(players: int, opponents: str, hands: int, seed: int, calls: bool) -> None:
    import numpy as np

    from rollem.cards import parse_card
    from rollem.odds.policy import FAST, TRIPLES

    seen: dict[str, list[int]] = {}
    for n in range(hands):
        hand = hand_of(players, n, seed)
        seats = [_player("policy" if s == 0 else opponents, s, n, calls)
                 for s in range(players)]
        while not hand.is_over:
            assert hand.pending is not None
            seat, kind = hand.pending.seats[0], hand.pending.kind
            view = hand.view(seat)
            action = seats[seat].act(view)
            if seat != 0 and kind in ("discard", "expose"):
                cards = [int(parse_card(str(c))) for c in view.legal.cards]
                if kind == "discard":
                    scores = FAST.keep_scores(np.asarray([cards]))[0]
                    thrown = {int(parse_card(str(c))) for c in action.cards}  # type: ignore[attr-defined]
                    kept = [i for i, t in enumerate(TRIPLES)
                            if not {cards[j] for j in t} & thrown]
                    ok = scores[kept[0]] == scores.max()
                    key = "keep"
                else:
                    me = view.seats[view.seat]
                    up = [int(parse_card(t)) for t, u in zip(me.cards, me.up, strict=False)
                          if u and t is not None]
                    down = [c for c in cards]
                    if len(down) != 3 or len(up) > 2:
                        key = f"expose {len(up) + 1} ({len(down)} down)"
                        ok = True
                    else:
                        v = FAST.expose_scores(np.asarray([up], dtype=np.int64).reshape(1, len(up)),
                                               np.asarray([down]))[0]
                        shown = down.index(int(parse_card(str(action.card))))  # type: ignore[attr-defined]
                        ok = v[shown] == v.min()
                        key = f"expose {len(up) + 1}"
                wild = "after wild" if view.wild_ranks else "before wild"
                for k in (key, f"{key} {wild}"):
                    seen.setdefault(k, [0, 0])
                    seen[k][0] += 1
                    seen[k][1] += bool(ok)
            hand.apply(seat, action)
    for k in sorted(seen):
        tot, ok = seen[k]
        print(f"{players}p {opponents:7s} {k:28s} {ok:5d}/{tot:5d} = {ok / tot:6.1%} "
              f"the policy's (straying {1 - ok / tot:.1%})")


def _views(players: int, opponents: str, n: int, seed: int) -> list[Any]:
    """Seat 0's views of hand ``n`` from its first expose on (as :func:`play_rows`)."""
    hand = hand_of(players, n, seed)
    seats = [_player("policy" if s == 0 else opponents, s, n, False) for s in range(players)]
    out = []
    while not hand.is_over:
        assert hand.pending is not None
        seat, kind = hand.pending.seats[0], hand.pending.kind
        view = hand.view(seat)
        if seat == 0 and (kind == "expose" or any(
                e.get("kind") == "expose" and e.get("seat") == 0
                for e in view.to_dict()["events"])):
            out.append((view.to_dict()["round"] or "first expose", view))
        hand.apply(seat, seats[seat].act(view))
    return out


def kept_truth(view: Any, seconds: float, straying: float | None, seed: int,
               worlds: int = 4000) -> tuple[float, float, int]:
    """The equity of ``view`` by plain batches of the sampler (``worlds`` each, no
    retry, every batch kept however few its effective worlds), ``seconds`` of CPU,
    by ratio of sums (each batch's equity weighed by its evidence): ``(equity,
    standard error, batches)``, fractions. Issue 33, branch s67-three: a long run
    of play's own batches is no truth where play drops or redraws the batches whose
    worlds collapsed (3 players, third card up: play's pooled long run put hand 3
    at 54.25, every batch kept at 55.32 ± 0.12)."""
    from rollem.odds import ryoseen
    from rollem.odds.straying import others_stray
    from rollem.odds.view import read_view

    seen = ryoseen.seen_of(read_view(view))
    assert seen is not None
    eqs: list[float] = []
    evs: list[float] = []
    kept, ryoseen.MIN_EFFECTIVE = ryoseen.MIN_EFFECTIVE, 0
    try:
        with others_stray(straying):
            t0 = time.process_time()
            while time.process_time() - t0 < seconds or len(eqs) < 2:
                o = ryoseen.ryo_seen_look(seen, samples=worlds, seed=seed + len(eqs),
                                          retry=False)
                assert o is not None and o.evidence is not None
                eqs.append(o.equity)
                evs.append(o.evidence)
    finally:
        ryoseen.MIN_EFFECTIVE = kept
    n, tot = len(eqs), sum(evs)
    eq = sum(e * v for e, v in zip(eqs, evs, strict=True)) / tot
    se = sum((v / (tot / n) * (e - eq)) ** 2 for e, v in zip(eqs, evs, strict=True)) ** 0.5 / n
    return eq, se, n


def coverage(players: int, opponents: str, hands: int, seed: int, straying: float | None,
             runs: int, long_seconds: float, rounds: list[str], truth_of: str = "kept") -> None:
    """Per view (seat 0's first decision of each of ``rounds`` in each hand), a long
    run of the same model (``long_seconds`` of CPU) against ``runs`` play runs
    (seeds 1..runs): how often each run's interval covers the long run's equity.
    ``truth_of`` ``"kept"`` (the default since branch s67-three): :func:`kept_truth`;
    ``"play"``: play's own batches, every figure to ±0.3."""
    from rollem.odds.play import play_odds

    for n in range(hands):
        done = set()
        for rnd, view in _views(players, opponents, n, seed):
            if rnd not in rounds or rnd in done:
                continue
            done.add(rnd)
            if truth_of == "kept":
                eq, se, _ = kept_truth(view, long_seconds, straying, 7_000_000 + 1000 * n)
                truth = SimpleNamespace(equity=eq, interval=1.96 * se)
            else:
                truth = play_odds(view, seed=10_000 + n, straying=straying,
                                  cpu_seconds=long_seconds, half_width=0.003, batch_part=1.0)
            rows = [play_odds(view, seed=i, straying=straying) for i in range(1, runs + 1)]
            cover = sum(abs(r.equity - truth.equity) <= (r.interval or 0.0) for r in rows)
            rough = sum(bool(r.rough) for r in rows)
            rough_cover = sum(bool(r.rough) and abs(r.equity - truth.equity) <= (r.interval or 0.0)
                              for r in rows)
            over = sum((r.interval or 0.0) > 0.015 for r in rows)
            widths = sorted(100 * (r.interval or 0.0) for r in rows)
            print(json.dumps({"players": players, "opponents": opponents, "hand": n,
                              "round": rnd, "straying": straying,
                              "truth": round(100 * truth.equity, 2),
                              "truth_pm": round(100 * (truth.interval or 0.0), 2),
                              "runs": runs, "covered": cover, "rough": rough,
                              "rough_covered": rough_cover, "over": over,
                              "median_pm": round(widths[len(widths) // 2], 2),
                              "mean": round(100 * sum(r.equity for r in rows) / runs, 2)}),
                  flush=True)


def calibration(players: int, opponents: str, hands: int, seed: int,
                straying: float | None, samples: int, calls: bool = False) -> None:
    """One decision of seat 0 per hand (its ``n % k``-th from its first expose
    on), :func:`rollem.odds.view_equity` at ``samples`` worlds read with
    ``straying`` (with advice, as :func:`rollem.odds.calibration.calibrate`: the
    policy's option where it lists one), against what the seat got: per bin of predicted equity the
    predicted and realised means and z; and the mean squared error."""
    import math

    from rollem.odds.calibration import realised_share
    from rollem.odds.straying import others_stray
    from rollem.odds.view import view_equity

    preds, reals, errs = [], [], []
    for n in range(hands):
        hand = hand_of(players, n, seed)
        seats = [_player("policy" if s == 0 else opponents, s, n, calls)
                 for s in range(players)]
        k = 0
        pred = None
        while not hand.is_over:
            assert hand.pending is not None
            seat, kind = hand.pending.seats[0], hand.pending.kind
            view = hand.view(seat)
            if seat == 0 and pred is None and (kind == "expose" or any(
                    e.get("kind") == "expose" and e.get("seat") == 0
                    for e in view.to_dict()["events"])):
                if k == n % 6:
                    with others_stray(straying):  # (the look-ahead reads with advice)
                        odds = view_equity(view, samples=samples, seed=n, advice=True)
                    row = next((c for c in odds.advice.choices if c.policy), None) \
                        if odds.advice is not None else None
                    pred = (row.equity, row.stderr) if row is not None else (
                        odds.equity, odds.stderr)
                k += 1
            hand.apply(seat, seats[seat].act(view))
        if pred is not None:
            preds.append(pred[0])
            errs.append(pred[1])
            reals.append(realised_share(hand, 0))
    chi2 = 0.0
    parts = []
    for lo, hi in ((0, .15), (.15, .35), (.35, .6), (.6, 1.01)):
        idx = [i for i, p in enumerate(preds) if lo <= p < hi]
        if len(idx) < 5:
            continue
        var = sum(preds[i] * (1 - preds[i]) + errs[i] ** 2 for i in idx)
        z = (sum(reals[i] for i in idx) - sum(preds[i] for i in idx)) / math.sqrt(var)
        chi2 += z * z
        parts.append(f"[{lo:.2f},{hi:.2f}) n={len(idx)} "
                     f"{sum(preds[i] for i in idx) / len(idx):.3f}/"
                     f"{sum(reals[i] for i in idx) / len(idx):.3f} z={z:+.1f}")
    mse = sum((p - r) ** 2 for p, r in zip(preds, reals, strict=True)) / max(len(preds), 1)
    print(f"{players}p vs {opponents}{' (bets called)' if calls else ''} straying "
          f"{straying}: n={len(preds)} chi2={chi2:.1f} "
          f"brier={mse:.4f}\n    " + "  ".join(parts), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--opponents", default="basic")
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--seed", type=int, default=60_000)
    ap.add_argument("--calls", action="store_true")
    ap.add_argument("--agree", action="store_true")
    ap.add_argument("--straying", type=float, default=None,
                    help="play_odds' straying (default None: the model's TREMBLE)")
    ap.add_argument("--coverage", action="store_true")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--long-seconds", type=float, default=15.0)
    ap.add_argument("--truth", choices=("kept", "play"), default="kept",
                    help="--coverage's truth: plain batches, every one kept, by ratio of "
                         "sums (kept), or a long run of play's own batches (play)")
    ap.add_argument("--rounds", default="third card up,after the wild card")
    ap.add_argument("--calibrate", action="store_true")
    ap.add_argument("--samples", type=int, default=300)
    a = ap.parse_args()
    if a.coverage or a.calibrate:
        from rollem.odds import compiled

        compiled.wait()
        if a.coverage:
            coverage(a.players, a.opponents, a.hands, a.seed, a.straying, a.runs,
                     a.long_seconds, a.rounds.split(","), a.truth)
        else:
            calibration(a.players, a.opponents, a.hands, a.seed, a.straying, a.samples,
                        a.calls)
        return
    if a.agree:
        agree(a.players, a.opponents, a.hands, a.seed, a.calls)
    else:
        from rollem.odds import compiled

        compiled.wait()
        play_rows(a.players, a.opponents, a.hands, a.seed, a.calls, a.first, a.straying)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
