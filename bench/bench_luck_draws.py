"""5-2-1's draws valued without plays: a control variate fitted on held-out deals
(issue 31, twenty-fifth pass).

A draw that deals ``k`` cards (R-521-2, R-521-4) deals a uniform ``k``-subset
of the cards nobody has been dealt in the hand yet (heads-up the stub never
runs out, R-521-5), whatever led to it. So for any fixed function ``V`` of
the two hands after the draw, ``V(real) - mean of V over every k-subset``
has mean zero given everything before the draw, whatever the bots do, and
any fixed linear combination of such terms (summed over a hand's draws) is
an unbiased control. Its weights are fitted by least squares on other deals
(the pilot's) and frozen before the deals they correct are read.

``V`` here (:data:`VALUES`, all for the hero; no plays):

- ``e``: the hero's share of the pot (0..1) if both stood pat and each
  declared as the odds module's declare model says (:func:`declare_model`,
  :func:`side_shares`, R-521-8, R-521-9);
- ``hero_high``, ``hero_low``, ``opp_high``, ``opp_low``: the five cards'
  percentile (0..1) among five-card hands as a high hand and as an
  ace-to-five low (the declare model's reference);
- ``e_big``, ``e_big8``: ``e - 1/2`` times the weaker hand's better
  percentile (``max(high, low)``, the lesser of the two seats'), or its 8th
  power: both hands strong on a side make the big pots (a "cooler").

Measured (docs/dev/league.md, s59-fl): on 81 deals of 5-2-1 fixed limit
none of these terms takes anything out of what the late terms leave.

Each seating is replayed with the bots' ``act`` alone, which is what
``bench_luck.py`` plays the real hand with (its terms act on copies), so the
replay is the hand of the dump: checked by the chips (:func:`replay` returns
them beside the dump's ``net``).

    .venv/bin/python bench/bench_luck_draws.py /tmp/fl/fl-*.json --out feats.json
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_league import STACK, seat_bots
from rollem.engine import Hand, SeededSource
from rollem.engine.actions import Draw
from rollem.engine.options import Options
from rollem.odds.evaluate import high5, low5
from rollem.odds.r521 import _reference, _reference_steps, declare_model, side_shares

VALUES = ("e", "hero_high", "hero_low", "opp_high", "opp_low", "e_big", "e_big8")
"""The functions ``V`` of the two hands a draw's term is taken of (module doc)."""


def percentiles(high: np.ndarray, low: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The high and low percentiles (0..1, floats) of hands with these values
    among the declare model's 100,000 reference hands (at or below)."""
    (u_hi, at_hi), (u_lo, at_lo) = _reference_steps()
    size = len(_reference()[0])
    return (at_hi[np.searchsorted(u_hi, high, side="right")] / size,
            at_lo[np.searchsorted(u_lo, low, side="right")] / size)


def values(hero: np.ndarray, opp: np.ndarray) -> dict[str, np.ndarray]:
    """:data:`VALUES` for pairs of five-card hands: ``hero`` and ``opp`` are
    ``(M, 5)`` card ints (0..51); each value ``(M,)`` floats."""
    hh, hl = high5(hero), low5(hero)
    oh, ol = high5(opp), low5(opp)
    high = np.stack([hh, oh], axis=1)
    low = np.stack([hl, ol], axis=1)
    sides = declare_model(high, low)
    php, plp = percentiles(hh, hl)
    pho, plo = percentiles(oh, ol)
    e = side_shares(high, low, sides)
    weaker = np.minimum(np.maximum(php, plp), np.maximum(pho, plo))
    return {"e": e, "hero_high": php, "hero_low": plp, "opp_high": pho, "opp_low": plo,
            "e_big": (e - 0.5) * weaker, "e_big8": (e - 0.5) * weaker ** 8}


def draw_terms(kept: Sequence[int], other: Sequence[int], pool: Sequence[int],
               got: Sequence[int], hero_draws: bool) -> dict[str, float]:
    """One draw's terms: ``V(real) - mean V`` over every ``len(got)``-subset
    of ``pool`` (the cards nobody has been dealt), for each of :data:`VALUES`.

    ``kept``: the drawer's cards kept; ``other``: the other seat's five cards;
    ``got``: the cards the drawer was dealt (a subset of ``pool``);
    ``hero_draws``: whether the drawer is the hero. Raises ``ValueError`` when
    ``got`` is empty or not in ``pool``, or the hands are not five cards."""
    if not got or not set(got) <= set(pool):
        raise ValueError(f"the cards dealt {list(got)} must be a non-empty subset of the "
                         f"undealt cards {sorted(pool)}")
    if len(kept) + len(got) != 5 or len(other) != 5:
        raise ValueError(f"hands of five cards needed: kept {list(kept)} + dealt {list(got)}, "
                         f"other {list(other)}")
    subsets = np.asarray(list(itertools.combinations(sorted(pool), len(got))), dtype=np.int64)
    drawer = np.concatenate([np.tile(np.asarray(kept, dtype=np.int64), (len(subsets), 1)),
                             subsets], axis=1)
    fixed = np.tile(np.asarray(other, dtype=np.int64), (len(subsets), 1))
    real = np.asarray([[*kept, *got]], dtype=np.int64)
    one = np.asarray([list(other)], dtype=np.int64)
    if hero_draws:
        every, now = values(drawer, fixed), values(real, one)
    else:
        every, now = values(fixed, drawer), values(one, real)
    return {k: float(now[k][0] - every[k].mean()) for k in VALUES}


def replay(game: str, structure: str, seed: int, deals: int, hero: str, opp: str
           ) -> list[dict[str, Any]]:
    """Replay ``bench_luck.py``'s chunk ``seed`` (``deals`` deals) with the bots'
    ``act`` alone: per deal ``{"net": [hero's chips per seating], "draws":
    [per seating, [(draw number 0/1, hero draws, {value: term})...]]}``."""
    rng = random.Random(f"luck/{game}/{structure}/{seed}")
    seeds = [rng.getrandbits(48) for _ in range(deals)]
    out: list[dict[str, Any]] = [{"net": [], "draws": []} for _ in seeds]
    for hero_seat in (0, 1):
        levels = [opp, opp]
        levels[hero_seat] = hero
        bots = seat_bots(levels, seed * 2 + hero_seat)
        for i, deal in enumerate(seeds):
            hand = Hand(game, [STACK, STACK], button=i % 2,
                        options=Options(structure=structure), source=SeededSource(deal))
            dealt = {int(c) for h in hand.hole for c in h}
            draws: list[tuple[int, bool, dict[str, float]]] = []
            while not hand.is_over:
                assert hand.pending is not None
                s = hand.pending.seats[0]
                action = bots[s].act(hand.view(s))
                if isinstance(action, Draw):
                    number = 0 if hand.round == 0 else 1  # the first draw, the second
                    before = [int(c) for c in hand.hole[s]]
                    other = [int(c) for c in hand.hole[1 - s]]
                    hand.apply(s, action)
                    after = [int(c) for c in hand.hole[s]]
                    got = [c for c in after if c not in before]
                    if got:
                        kept = [c for c in before if c in after]
                        pool = [c for c in range(52) if c not in dealt]
                        draws.append((number, s == hero_seat,
                                      draw_terms(kept, other, pool, got, s == hero_seat)))
                        dealt.update(got)
                    continue
                hand.apply(s, action)
            assert hand.result is not None
            out[i]["net"].append(hand.result.net.get(hero_seat, 0))
            out[i]["draws"].append(draws)
    return out


def features(record: dict[str, Any]) -> list[float]:
    """One deal's ``X1..X14`` (the mean over its seatings): the first draw's
    ``e`` terms, the second's, then the first draw's percentile terms (hero
    high, hero low, opponent high, opponent low), then the second's, then
    the first and the second draw's ``e_big`` terms, then ``e_big8``'s."""
    seatings = record["draws"]
    x = np.zeros(14)
    for draws in seatings:
        for number, _hero, terms in draws:
            x[number] += terms["e"]
            base = 2 + 4 * number
            for j, k in enumerate(VALUES[1:5]):
                x[base + j] += terms[k]
            x[10 + number] += terms["e_big"]
            x[12 + number] += terms["e_big8"]
    return list(x / len(seatings))


def main() -> None:
    """Replay every deal of the dumps and write its draws' terms and features."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dumps", nargs="+", help="bench_luck.py --dump files (5-2-1)")
    parser.add_argument("--out", required=True, help="where the per-deal draws' terms go")
    args = parser.parse_args()
    rows = []
    for path in args.dumps:
        d = json.loads(Path(path).read_text())
        got = replay(d["game"], d["structure"], d["seed"], len(d["deals"]), d["hero"],
                     d["opponent"])
        for j, (rec, mine) in enumerate(zip(d["deals"], got, strict=True)):
            same = rec["net"] == mine["net"]
            if not same:
                print(f"{path} deal {j}: replay's chips {mine['net']} != dump's {rec['net']}")
            rows.append({"dump": path, "deal": j, "same": same, "net": mine["net"],
                         "draws": mine["draws"], "x": features(mine)})
    Path(args.out).write_text(json.dumps(rows))
    print(f"{len(rows)} deals, {sum(r['same'] for r in rows)} replayed to the dump's chips")


if __name__ == "__main__":
    main()
