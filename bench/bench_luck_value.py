"""A value of a position that prices the bets to come (issue 31, sixth pass).

``bench_luck.py``'s chance terms value a position by the hero's share with both
hands known, weighed by the pot the cards meet: ``P (e_real - mean e_copies)``.
In no limit and in 5-2-1 most of the money goes in after the cards come, so
that value tracks the result poorly. Here the value is *learned*: every chance
event ``bench_luck.py --dump`` kept (:attr:`bench_luck.Luck.raw`: the round,
the pot, the real share and each copy's) is a position, its target the hero's
chips at the end of that hand, and

    V(e, P, r) = sum over the features phi of beta[r, phi] * phi(x, P),
    x = 2e - 1, phi in {x, x P, x^3, x^3 P}  (:data:`FEATURES`)

is fitted by least squares (:func:`learned`), one set of weights per betting
round, on the positions of *other* deals only (cross-fitted, ``folds`` parts: a deal's
weights never see it). A deal's term is then ``V(real) - mean V(copies)`` per
event, which has mean zero for any fixed ``V`` (the copies are draws of the
same chance event), so the estimate stays unbiased. The action terms are kept
as they were (weight 1). :func:`priced` is the small version: two weights
pooled over the rounds, ``V = a x P + b x (S - P / 2)`` (the chips still
behind price the bets to come), fitted with the action terms' weight on
other deals' results (the variance those three terms leave, least squares).

    .venv/bin/python bench/bench_luck_value.py /tmp/r521.json [more dumps of one cell]

Figures: ``docs/dev/league.md`` (sixth pass).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

FEATURES = ("x", "x*pot", "x^3", "x^3*pot")
"""The value's features of a position, ``x = 2e - 1`` (the hero's share as an
edge) and the pot the cards met: the checked-down value is ``x P`` (half of
it), the rest stand for the bets to come (a constant per round: ``x``) and
for their shape (a clear favourite gets more in, and folds: ``x^3``)."""


def phi(e: float, pot: float) -> list[float]:
    """The features of :data:`FEATURES` for a share ``e`` (0..1) and ``pot`` (chips)."""
    x = 2.0 * e - 1.0
    return [x, x * pot, x ** 3, x ** 3 * pot]


def _rounds(records: Sequence[dict[str, Any]]) -> list[int]:
    return sorted({int(ev[0]) for r in records for seat in r["raw"] for ev in seat})


def positions(record: dict[str, Any], rounds: Sequence[int]) -> tuple[list[list[float]],
                                                                       list[float]]:
    """One deal's positions as rows (the real position's features in its round's
    columns) and their targets (the hero's chips at the end of that seating)."""
    width = len(FEATURES)
    rows, targets = [], []
    for net, events in zip(record["net"], record["raw"], strict=True):
        for rnd, pot, real, _copies in events:
            row = [0.0] * (width * len(rounds))
            k = rounds.index(int(rnd)) * width
            row[k:k + width] = phi(real, pot)
            rows.append(row)
            targets.append(float(net))
    return rows, targets


def deal_term(record: dict[str, Any], rounds: Sequence[int], beta: Sequence[float]) -> float:
    """The deal's chance correction under the value with weights ``beta``: per
    event ``V(real) - mean V(copies)``, summed over the hand, mean of the
    seatings (chips)."""
    width = len(FEATURES)
    total = 0.0
    for events in record["raw"]:
        for rnd, pot, real, copies in events:
            k = rounds.index(int(rnd)) * width
            w = beta[k:k + width]
            v_real = sum(b * f for b, f in zip(w, phi(real, pot), strict=True))
            v_copies = sum(sum(b * f for b, f in zip(w, phi(c, pot), strict=True))
                           for c in copies) / len(copies)
            total += v_real - v_copies
    return total / len(record["raw"])


def action_sum(record: dict[str, Any]) -> float:
    """The deal's action terms (``bench_luck.Luck.terms``), mean of the seatings."""
    return sum(t[3] for seat in record["terms"] for t in seat
               if t[0] == "action") / len(record["terms"])


def learned(records: Sequence[dict[str, Any]], folds: int = 5,
            ridge: float = 1e-6) -> tuple[list[float], list[float]]:
    """Per deal: its chips (mean of the seatings) less the learned value's chance
    terms and the action terms, the value cross-fitted over ``folds`` parts of
    the deals (:func:`positions` of the other parts only); and the same chance
    terms alone (for the mean-zero check).

    Raises:
        ValueError: with fewer than ``2 * folds`` deals, or a record without
            ``raw`` (a dump from before the sixth pass).
    """
    import numpy as np

    if len(records) < 2 * folds:
        raise ValueError(f"a learned value needs at least {2 * folds} deals, got "
                         f"{len(records)}")
    if any("raw" not in r for r in records):
        raise ValueError("the dump has no raw shares (bench_luck.py --dump of the sixth "
                         "pass or later)")
    rounds = _rounds(records)
    per = [positions(r, rounds) for r in records]
    out, chance = [0.0] * len(records), [0.0] * len(records)
    for k in range(folds):
        xs = [row for i, (rows, _) in enumerate(per) if i % folds != k for row in rows]
        ys = [t for i, (_, ts) in enumerate(per) if i % folds != k for t in ts]
        x, y = np.array(xs), np.array(ys)
        # the intercept per round cancels in V(real) - V(copies): centre the target
        gram = x.T @ x + ridge * np.eye(x.shape[1])
        beta = np.linalg.solve(gram, x.T @ (y - y.mean()))
        for i, r in enumerate(records):
            if i % folds == k:
                chance[i] = deal_term(r, rounds, [float(b) for b in beta])
                net = sum(r["net"]) / len(r["net"])
                out[i] = net - chance[i] - action_sum(r)
    return out, chance


def priced_columns(record: dict[str, Any]) -> list[float]:
    """One deal's two chance variates (mean of its seatings), the terms of the
    value ``V = a x P + b x (S - P / 2)`` pooled over the rounds: ``x P`` (the
    pot the cards meet, twice the checked-down value) and ``x`` times the
    chips each player still has behind (``S`` = ``bench_league.STACK``; the
    most the bets to come can add), each ``f(real) - mean f(copies)``."""
    from bench_league import STACK

    out = [0.0, 0.0]
    for events in record["raw"]:
        for _rnd, pot, real, copies in events:
            behind = STACK - pot / 2.0
            change = (2.0 * real - 1.0) - sum(2.0 * c - 1.0 for c in copies) / len(copies)
            out[0] += change * pot
            out[1] += change * behind
    return [v / len(record["raw"]) for v in out]


def priced(records: Sequence[dict[str, Any]], folds: int = 5) -> list[float]:
    """Per deal: its chips less ``a`` and ``b`` of :func:`priced_columns` and
    ``c`` times the action terms, the three weights cross-fitted by least
    squares on the other parts' deals (as ``bench_luck.fitted``); unbiased for
    the same reason.

    Raises:
        ValueError: as :func:`learned`.
    """
    import numpy as np

    if len(records) < 2 * folds:
        raise ValueError(f"a learned value needs at least {2 * folds} deals, got "
                         f"{len(records)}")
    if any("raw" not in r for r in records):
        raise ValueError("the dump has no raw shares (bench_luck.py --dump of the sixth "
                         "pass or later)")
    x = np.array([[*priced_columns(r), action_sum(r)] for r in records])
    y = np.array([sum(r["net"]) / len(r["net"]) for r in records])
    part = np.arange(len(y)) % folds
    out = np.empty(len(y))
    for k in range(folds):
        test, train = part == k, part != k
        beta = np.linalg.lstsq(x[train], y[train] - y[train].mean(), rcond=None)[0]
        out[test] = y[test] - x[test] @ beta
    return [float(v) for v in out]


def late_money(records: Sequence[dict[str, Any]]) -> float:
    """The share of the hero's squared chips (per seating) that is money beyond
    half the pot at the hand's last chance event: ``E[(|net| - P_last / 2)+^2]
    / E[net^2]``; what no chance term, whatever its value, meets."""
    late = total = 0.0
    for r in records:
        for net, events in zip(r["net"], r["raw"], strict=True):
            last = max((ev[1] for ev in events), default=0.0)
            total += net * net
            late += max(0.0, abs(net) - last / 2.0) ** 2
    return late / total if total else 0.0


def main() -> None:
    from bench_luck import _summary, fitted
    from bench_view_seeds import ratio_interval

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dumps", nargs="+", help="bench_luck.py --dump files of one cell")
    parser.add_argument("--folds", type=int, default=5)
    args = parser.parse_args()
    records: list[dict[str, Any]] = []
    for path in args.dumps:
        records += json.loads(Path(path).read_text())["deals"]
    plain = [sum(r["net"]) / len(r["net"]) for r in records]
    chance_fixed = [sum(t[2] * t[3] for seat in r["terms"] for t in seat
                        if t[0] == "chance") / len(r["terms"]) for r in records]
    acted = [action_sum(r) for r in records]
    fixed = [p - c - a for p, c, a in zip(plain, chance_fixed, acted, strict=True)]
    value, chance = learned(records, folds=args.folds)
    rows = [("plain duplicate", plain), ("pot x share, + actions", fixed),
            ("fitted weights (5 folds)", fitted(records)),
            ("learned value, + actions", value),
            ("priced bets to come (fit)", priced(records, folds=args.folds))]
    print(f"{len(records)} deals; money after the last chance event: "
          f"{late_money(records):.0%} of E[net^2]")
    for name, units in rows:
        m, h, _ = _summary(units)
        line = f"  {name:26s} {m:+8.2f} BB/100 [{m - h:+.2f}, {m + h:+.2f}]"
        if units is not plain:
            r, lo, hi = ratio_interval(plain, units)
            line += f"  {r:5.2f} [{lo:.2f}, {hi:.2f}] times fewer"
        print(line)
    for name, terms in (("learned chance terms", chance), ("action terms", acted)):
        m, h, _ = _summary(terms)
        print(f"  {name}' mean {m:+.2f} BB/100 +- {h:.2f} (95%; zero in expectation)")


if __name__ == "__main__":
    main()
