"""Roll Your Own after the wild card: what a batch's equity swings on (issue 33).

For seat 0's view after the wild card in one of ``bench_play_odds.py``'s
seeded hands, runs ``--pilots`` pilots, each with ``--batches`` batches of
:func:`rollem.odds.ryoseen.ryo_seen_look` as play draws them (proposals
shared, ``--part`` of a whole batch), keeps every batch's final worlds (their
five-card hands, weights and layout ancestors) and prints (branch s68-six,
docs/dev/odds-precision.md):

- the batches' mean equity and spread (standard deviation, points);
- per opponent, the weighted chance that its hand beats the seat's at
  showdown, the spread of that chance between batches (points) and its
  correlation with the batch's equity: the *pivot* is the opponent whose
  chance spreads most;
- for a few features of a world (each opponent's origins, which of its five
  cards are up; all opponents' origins at once; how many wild cards the
  opponents hold down), the share of the batches' variance their weighted
  mix explains (each batch's mix read with the pooled mean equity per
  class), and the spread if each batch's mix were the pooled one (an
  oracle's post-stratification: not an estimator, as the pooled mix is what
  the batches estimate);
- the share of a batch's layout ancestors whose own mean equity is within
  0.05 of 0 or 1 (their outcome fixed along the chain), and their effective
  number (Kish), medians over the batches.

    .venv/bin/python bench/bench_ryo_pivot.py --hand 31081 --pilots 4 --batches 10

A setting (JSON) sets upper-case constants of ``rollem.odds.ryoseen`` as
``bench_ryo_batch.py`` does.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

from rollem.odds import ryoseen
from rollem.odds.common import shares
from rollem.odds.evaluate import wild5
from rollem.odds.view import read_view


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("settings", nargs="*", default=["{}"])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--hand", type=int, default=31081)
    parser.add_argument("--part", type=float, default=0.25,
                        help="the share of a whole batch each batch draws (as play's)")
    parser.add_argument("--pilots", type=int, default=4)
    parser.add_argument("--batches", type=int, default=10)
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_play_odds import _view

    seen = ryoseen.seen_of(read_view(_view("rollyourown", args.players, args.hand,
                                           "at:after the wild card|")))
    assert seen is not None and seen.wild is not None and len(seen.mine) == 5
    defaults = {k: getattr(ryoseen, k) for k in dir(ryoseen) if k.isupper()}
    for text in args.settings:
        setting = json.loads(text)
        for k, v in {**defaults, **setting}.items():
            setattr(ryoseen, k, v)
        batches = _batches(seen, args.part, args.pilots, args.batches)
        print(f"{args.players} players, hand {args.hand}, after the wild card, part "
              f"{args.part}, {setting or 'as shipped'}, {len(batches)} batches "
              f"(load {os.getloadavg()[0]:.1f})")
        _report(seen, batches)
    for k, v in defaults.items():
        setattr(ryoseen, k, v)


def _batches(seen: ryoseen.SeenPool, part: float, pilots: int, n: int
             ) -> list[dict[str, Any]]:
    """Per batch its final worlds: ``hands`` ``(k, players, 5)`` (the first
    order of the pool left), ``w`` ``(k,)``, ``eve`` ``(k,)`` and the
    per-world equity ``x`` ``(k,)`` (the seat's share of the pot)."""
    caught: list[tuple[Any, ...]] = []
    real = ryoseen._worlds

    def spy(*a: Any, **kw: Any) -> Any:
        out = real(*a, **kw)
        if kw.get("moves"):
            caught.append(out)
        return out

    worlds = round(ryoseen.PLACE_WORLDS * part)
    rank = int(seen.wild) >> 2  # type: ignore[arg-type]
    opts = {"wild_duplicates": seen.wild_duplicates,
            "natural_beats_wild": seen.natural_beats_wild}
    out = []
    ryoseen._worlds = spy  # type: ignore[assignment]
    try:
        for p in range(1, pilots + 1):
            with ryoseen.shared_proposals(), ryoseen.part_of_batch(part):
                ryoseen.ryo_seen_look(seen, samples=worlds, seed=p)
                for b in range(n):
                    caught.clear()
                    ryoseen.ryo_seen_look(seen, samples=worlds, seed=1000 * p + b)
                    if not caught:
                        continue
                    hands, w, _, eve, _ = caught[-1]
                    k, fut = hands.shape[:2]
                    values = wild5(hands.reshape(k * fut, *hands.shape[2:]), [rank], **opts)
                    x = shares(values[:, 0], values[:, 1:]).reshape(k, fut).mean(axis=1)
                    out.append({"hands": hands[:, 0], "w": w / w.sum(), "eve": eve, "x": x,
                                "values": values.reshape(k, fut, -1)[:, 0]})
    finally:
        ryoseen._worlds = real  # type: ignore[assignment]
    return out


def _report(seen: ryoseen.SeenPool, batches: list[dict[str, Any]]) -> None:
    """Prints the tables of the module's docstring."""
    eq = np.array([(b["w"] * b["x"]).sum() for b in batches])
    print(f"  equity {100 * eq.mean():.2f}, spread {100 * eq.std(ddof=1):.2f} points")
    live = [o for o in seen.opponents if o.live]
    beats = np.array([(b["w"][:, None] * (b["values"][:, 1:] > b["values"][:, :1])).sum(axis=0)
                      for b in batches])
    for j, o in enumerate(live):
        c = (float(np.corrcoef(beats[:, j], eq)[0, 1]) if beats[:, j].std() > 0 else 0.0)
        print(f"  seat {o.seat}: beats the seat {100 * beats[:, j].mean():5.1f}%, spread "
              f"{100 * beats[:, j].std(ddof=1):5.2f}, correlation with the equity {c:+.2f}")
    rank = int(seen.wild) >> 2  # type: ignore[arg-type]
    ups = [np.asarray(o.ups, dtype=np.int64) for o in live]

    def origin(j: int) -> Callable[[dict[str, Any]], Any]:
        return lambda b: np.isin(b["hands"][:, 1 + j], ups[j]) @ (1 << np.arange(5))

    features: dict[str, Callable[[dict[str, Any]], Any]] = {
        f"seat {o.seat}'s origins": origin(j) for j, o in enumerate(live)}
    features["all origins"] = lambda b: sum(origin(j)(b) * 32 ** j for j in range(len(live)))
    up_wild = sum(int((u >> 2 == rank).sum()) for u in ups)
    features["wild cards down"] = (
        lambda b: ((b["hands"][:, 1:] >> 2) == rank).sum(axis=(1, 2)) - up_wild)
    for name, f in features.items():
        mix, oracle = _mix(batches, [np.asarray(f(b)) for b in batches])
        print(f"  {name:20s}: its mix explains {mix.var() / eq.var():4.0%} of the variance; "
              f"the pooled mix: spread {100 * oracle.std(ddof=1):.2f}")
    fixed, kish = [], []
    for b in batches:
        by = np.bincount(b["eve"], weights=b["w"])
        bx = np.bincount(b["eve"], weights=b["w"] * b["x"])
        a = by > 0
        mean = bx[a] / by[a]
        fixed.append(float(((mean < 0.05) | (mean > 0.95)).mean()))
        kish.append(float(by.sum() ** 2 / (by ** 2).sum()))
    print(f"  ancestors with their outcome fixed (mean within 0.05 of 0 or 1): "
          f"{np.median(fixed):.0%}; effective ancestors {np.median(kish):.1f} (medians)")


def _mix(batches: list[dict[str, Any]], classes: list[Any]) -> tuple[Any, Any]:
    """Per batch, its equity were each class at the pooled mean equity (its
    mix only), and were its mix the pooled one (each class at the batch's
    own mean, the pooled one where the batch has none)."""
    every_w = np.concatenate([b["w"] for b in batches])
    every_x = np.concatenate([b["x"] for b in batches])
    every_c = np.concatenate(classes)
    keys = np.unique(every_c)
    pooled = np.array([every_w[every_c == c].sum() for c in keys]) / every_w.sum()
    means = np.array([(every_w * every_x)[every_c == c].sum()
                      / max(every_w[every_c == c].sum(), 1e-300) for c in keys])
    mix, oracle = [], []
    for b, cls in zip(batches, classes, strict=True):
        share = np.array([b["w"][cls == c].sum() for c in keys])
        own = np.array([(b["w"] * b["x"])[cls == c].sum() / share[i] if share[i] > 0
                        else means[i] for i, c in enumerate(keys)])
        mix.append(float((share * means).sum()))
        oracle.append(float((pooled * own).sum()))
    return np.array(mix), np.array(oracle)


if __name__ == "__main__":
    main()
