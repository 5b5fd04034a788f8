"""Where a duplicate match's variance goes in (issue 31, fourteenth pass): per
deal, the two seatings' pots by betting round, whether and when a seat went
all-in, whether the two seatings met the same cards, and how each kind of
deal adds to ``var(plain duplicate)``.

The deals, bots and seatings are ``bench_luck.py``'s (``--seed`` gives the same
deals and the same bots' coins as its sampled method; plain duplicate only,
no estimator: cheap), so a figure here is about the deals of a run there.

    .venv/bin/python bench/bench_luck_where.py --game rollem521 --structure no-limit \\
        --deals 200 --seed 9801 [--dump where.json]

What a deal's *unit* is: the hero's chips, the mean of its two seatings
(``bench_luck.play_sampled``'s ``plain``). :func:`split` parts
``sum (unit - mean)^2`` among kinds of deals (:func:`kind`), so the parts add
to ``(n - 1) var(plain)``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_league import STACK, seat_bots
from rollem.engine import Hand, SeededSource
from rollem.engine.options import Options


def seating(game: str, structure: str, deal: int, button: int, bots: Sequence[Any],
            hero: int) -> dict[str, Any]:
    """One seating of one deal played out by ``bots``: ``net`` (the hero's chips),
    ``pots`` (the pot at the end of each betting round reached, in order of
    ``Hand.round``, -1 for the antes), ``allin`` (the round in which a seat
    first had no chips behind, or None), ``folded`` (the hand ended by a fold)
    and ``holes`` (each seat's final cards, sorted card codes)."""
    hand = Hand(game, [STACK, STACK], button=button, options=Options(structure=structure),
                source=SeededSource(deal))
    pots: dict[int, float] = {hand.round: float(sum(hand.committed))}
    allin: int | None = None
    while not hand.is_over:
        assert hand.pending is not None
        s = hand.pending.seats[0]
        hand.apply(s, bots[s].act(hand.view(s)))
        pots[hand.round] = float(sum(hand.committed))
        if allin is None and min(hand.stacks) == 0:
            allin = hand.round
    assert hand.result is not None
    return {"net": float(hand.result.net.get(hero, 0)),
            "pots": [pots[r] for r in sorted(pots)],
            "allin": allin, "folded": any(hand.folded),
            "holes": [sorted(str(c) for c in h) for h in hand.hole]}


def play(game: str, structure: str, hero: str, opp: str, deals: Sequence[int],
         seed: int) -> list[dict[str, Any]]:
    """Every deal's two seatings (the hero in seat 0, then seat 1), as
    ``bench_luck.play_sampled`` plays them: ``[{"seatings": [a, b], "unit":
    (net_a + net_b) / 2}, ...]``."""
    out: list[dict[str, Any]] = [{"seatings": []} for _ in deals]
    for hero_seat in (0, 1):
        levels = [opp, opp]
        levels[hero_seat] = hero
        bots = seat_bots(levels, seed * 2 + hero_seat)
        for i, deal in enumerate(deals):
            out[i]["seatings"].append(seating(game, structure, deal, i % 2, bots, hero_seat))
    for rec in out:
        rec["unit"] = sum(s["net"] for s in rec["seatings"]) / 2
    return out


def kind(rec: dict[str, Any], big: float) -> str:
    """A deal's kind: ``"same cards"`` if both seatings ended with the same
    cards at each seat, else ``"cards apart"``; then by the larger final pot:
    ``"all-in r<k>"`` (a seat all-in, the earliest round of either seating),
    ``"big"`` (a final pot of ``big`` chips or more, no all-in) or ``"small"``."""
    a, b = rec["seatings"]
    same = "same cards" if a["holes"] == b["holes"] else "cards apart"
    allins = [s["allin"] for s in (a, b) if s["allin"] is not None]
    if allins:
        size = f"all-in r{min(allins)}"
    elif max(a["pots"][-1], b["pots"][-1]) >= big:
        size = "big"
    else:
        size = "small"
    return f"{same}, {size}"


def split(units: Sequence[float], kinds: Sequence[str]) -> dict[str, tuple[int, float]]:
    """``{kind: (deals, its share of sum (unit - mean)^2)}``, the mean over every
    deal; the shares add to 1.

    Raises:
        ValueError: if the lengths differ or there are fewer than 2 deals or
            every unit is the same (no variance to part).
    """
    if len(units) != len(kinds):
        raise ValueError(f"units and kinds must have one entry per deal, got "
                         f"{len(units)} and {len(kinds)}")
    if len(units) < 2:
        raise ValueError(f"need at least 2 deals, got {len(units)}")
    mean = sum(units) / len(units)
    total = sum((u - mean) ** 2 for u in units)
    if total == 0.0:
        raise ValueError("every deal's unit is the same: no variance to part")
    out: dict[str, tuple[int, float]] = {}
    for u, k in zip(units, kinds, strict=True):
        n, s = out.get(k, (0, 0.0))
        out[k] = (n + 1, s + (u - mean) ** 2 / total)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="rollem521")
    parser.add_argument("--structure", default="no-limit")
    parser.add_argument("--hero", default="strong")
    parser.add_argument("--opponent", default="basic")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--big", type=float, default=100.0,
                        help="a final pot of this many chips or more, no all-in, is 'big'")
    parser.add_argument("--dump", default=None)
    args = parser.parse_args()
    if args.deals < 2:
        parser.error(f"--deals must be at least 2, got {args.deals}")
    prefix = "" if args.game == "sdr" else f"{args.game}/"
    rng = random.Random(f"luck/{prefix}{args.structure}/{args.seed}")  # bench_luck's deals
    deals = [rng.getrandbits(48) for _ in range(args.deals)]
    cpu = time.process_time()
    recs = play(args.game, args.structure, args.hero, args.opponent, deals, args.seed)
    cpu = time.process_time() - cpu
    if args.dump:
        Path(args.dump).write_text(json.dumps({"game": args.game, "structure": args.structure,
                                               "seed": args.seed, "deals": recs}))
    units = [r["unit"] for r in recs]
    mean = sum(units) / len(units)
    var = sum((u - mean) ** 2 for u in units) / (len(units) - 1)
    print(f"{args.game} {args.structure}, {len(recs)} deals, plain mean {mean:+.2f} chips, "
          f"var {var:.1f} chips^2 ({cpu / len(recs):.2f} s CPU a deal)")
    parts = split(units, [kind(r, args.big) for r in recs])
    for k, (n, s) in sorted(parts.items(), key=lambda kv: -kv[1][1]):
        print(f"  {k:28s} {n:4d} deals  {100 * s:5.1f}% of the variance")


if __name__ == "__main__":
    main()
