"""Pool ``bench_luck.py --dump`` files of one cell (issue 31, seventh pass) and
print every estimator's BB/100 and its times fewer deals than plain duplicate
over the same deals, with 95% bootstrap intervals (2000 draws, the deals
resampled together), plus each kind of term's mean (zero in expectation: the
unbiasedness check) and the runs' CPU a deal.

    .venv/bin/python bench/bench_luck_pool.py /tmp/r521fl-*.json

Rows: the chance terms alone (pot times the share's change), with the action
terms (the fifth and sixth passes' estimator), with the late terms too
(``--late-rollouts``), with the late chance terms' baselines steadied too
(kind ``late_base``, eighth pass: the estimator ``bench_luck.py`` subtracts),
and the cross-fitted weights (5 folds, :func:`bench_luck.fitted`) without and
with the late terms' columns. Dumps from ``bench_luck.py --post-draw`` add "+
post-draw value" (:func:`post_control`) and "from the first late draw"
(:func:`from_first_late_draw`; twenty-eighth pass).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_league import BIG_BET
from bench_luck import fitted, one_weight
from bench_view_seeds import ratio_interval


def sums(record: dict[str, Any]) -> dict[str, float]:
    """One deal's terms by kind (mean over its seatings): ``chance`` weighed by
    the pot, ``action`` and ``late`` as they are."""
    out = {"chance": 0.0, "action": 0.0, "late": 0.0, "late_base": 0.0, "late_share": 0.0}
    for terms in record["terms"]:
        for kind, _rnd, weight, change in terms:
            out[kind] += change if kind in ("action", "late") else weight * change
    n = len(record["terms"])
    return {k: v / n for k, v in out.items()}


def late_kinds(record: dict[str, Any], decisions_from: int | None = None,
               choices: bool = False) -> list[list[str]]:
    """What each late term of each seating is (in its terms' order): ``"chance"``
    (a chance event's) or ``"decision"`` (a decision's or a card choice's).
    From the dump's ``late_kinds`` where it has them (``bench_luck.py``,
    sixteenth pass); in an older dump a late term followed by its ``late_base``
    control is a chance event's, and so is one in a round before
    ``decisions_from`` (the run's ``--late-decisions-from``) in a run without
    ``--late-choices``: no decision there has a late term (the deck draws
    against every card, fifteenth pass, keep no control; before this pass they
    read as decisions). ``decisions_from`` None: the control alone tells.

    Raises ``ValueError`` when the dump's ``late_kinds`` do not match its late
    terms one for one (a damaged or hand-edited dump)."""
    out: list[list[str]] = []
    kept = record.get("late_kinds")
    for s, terms in enumerate(record["terms"]):
        n = sum(1 for t in terms if t[0] == "late")
        if kept is not None:
            kinds = list(kept[s])
            if len(kinds) != n or not set(kinds) <= {"chance", "decision"}:
                raise ValueError(f"seating {s}: late_kinds {kinds} do not match its "
                                 f"{n} late terms (each 'chance' or 'decision')")
            out.append(kinds)
            continue
        kinds = []
        for i, (kind, rnd, _weight, _change) in enumerate(terms):
            if kind != "late":
                continue
            controlled = i + 1 < len(terms) and terms[i + 1][0] == "late_base"
            early = decisions_from is not None and not choices and rnd < decisions_from
            kinds.append("chance" if controlled or early else "decision")
        out.append(kinds)
    return out


def late_parts(record: dict[str, Any], decisions_from: int | None = None,
               choices: bool = False) -> tuple[float, float, float]:
    """One deal's late chance terms, their baselines' controls and the late
    decisions' terms (mean over its seatings); which late term is which as
    :func:`late_kinds` says."""
    chance = base = decisions = 0.0
    for terms, kinds in zip(record["terms"], late_kinds(record, decisions_from, choices),
                            strict=True):
        which = iter(kinds)
        for kind, _rnd, weight, change in terms:
            if kind == "late_base":
                base += weight * change
            elif kind == "late":
                if next(which) == "chance":
                    chance += change
                else:
                    decisions += change
    n = len(record["terms"])
    return chance / n, base / n, decisions / n


def by_round(record: dict[str, Any], decisions_from: int | None = None,
             choices: bool = False) -> dict[tuple[str, int], float]:
    """One deal's terms by kind and betting round (mean over its seatings), the
    late terms parted into a chance event's (``late chance``) and a decision's
    (``late decision``) as :func:`late_kinds` says; weighed as :func:`sums`
    does (tenth pass: where the width is)."""
    out: dict[tuple[str, int], float] = {}
    for terms, kinds in zip(record["terms"], late_kinds(record, decisions_from, choices),
                            strict=True):
        which = iter(kinds)
        for kind, rnd, weight, change in terms:
            name = f"late {next(which)}" if kind == "late" else kind
            value = change if kind in ("action", "late") else weight * change
            out[(name, rnd)] = out.get((name, rnd), 0.0) + value
    n = len(record["terms"])
    return {k: v / n for k, v in out.items()}


def without_late(record: dict[str, Any]) -> dict[str, Any]:
    """The record with its late terms left out (the earlier passes' columns)."""
    return {**record, "terms": [[t for t in ts if not t[0].startswith("late")]
                                for ts in record["terms"]]}


def without_late_decisions(record: dict[str, Any], rounds: Sequence[int],
                           decisions_from: int | None = None,
                           choices: bool = False) -> dict[str, Any]:
    """The record with the late decisions' terms of betting rounds ``rounds``
    (``Hand.round``) left out, its ``late_per_play`` and ``late_kinds`` kept in
    step (issue 31, eighteenth pass): the same run's estimator with no term at
    those decisions, on the same deals and plays. Every term has mean zero
    given the hand before it, so any fixed subset of them is an unbiased
    correction too (the rows of :func:`rows` read it as they read a run).
    Which late term is a decision's is :func:`late_kinds`' reading; late
    chance terms and their ``late_base`` controls stay.

    Raises ``ValueError`` when the record's ``late_per_play`` does not match
    its late terms one for one (as :func:`late_kinds` for its kinds)."""
    drop = set(rounds)
    kinds = late_kinds(record, decisions_from, choices)
    played = record.get("late_per_play")
    terms_out: list[list[Any]] = []
    plays_out: list[list[Any]] = []
    kinds_out: list[list[str]] = []
    for s, (terms, seating_kinds) in enumerate(zip(record["terms"], kinds, strict=True)):
        lates = [t for t in terms if t[0] == "late"]
        if played is not None and len(played[s]) != len(lates):
            raise ValueError(f"seating {s}: {len(played[s])} late terms kept play by play "
                             f"for {len(lates)} late terms")
        which = iter(range(len(lates)))
        keep_terms, keep_plays, keep_kinds = [], [], []
        for t in terms:
            if t[0] != "late":
                keep_terms.append(t)
                continue
            i = next(which)
            if seating_kinds[i] == "decision" and t[1] in drop:
                continue
            keep_terms.append(t)
            keep_kinds.append(seating_kinds[i])
            if played is not None:
                keep_plays.append(played[s][i])
        terms_out.append(keep_terms)
        plays_out.append(keep_plays)
        kinds_out.append(keep_kinds)
    out = {**record, "terms": terms_out, "late_kinds": kinds_out}
    if played is not None:
        out["late_per_play"] = plays_out
    return out


def late_by_plays(record: dict[str, Any], k: int) -> float:
    """One deal's late terms (mean over its seatings) valued by the first ``k``
    of their plays only (:attr:`bench_luck.Luck.late_per_play`; twelfth pass):
    the same deals and the same plays, fewer of them."""
    total = 0.0
    for seating in record["late_per_play"]:
        for _rnd, plays in seating:
            total += sum(plays[:k]) / min(k, len(plays))
    return total / len(record["late_per_play"])


def plays_kept(records: Sequence[dict[str, Any]]) -> int:
    """The plays a late value every record keeps play by play (0: some record
    has none kept: a dump from before the twelfth pass, or no late terms)."""
    counts = {len(p) for r in records for seating in r.get("late_per_play", [[]])
              for _rnd, p in seating}
    if not records or any("late_per_play" not in r for r in records) or len(counts) != 1:
        return 0
    return counts.pop()


def post_control(record: dict[str, Any]) -> float:
    """One deal's post-draw control (issue 31, twenty-eighth pass; ``bench_luck.py
    --post-draw``): the mean over its seatings of ``net - post``, ``post`` the
    hero's expected chips where the hand's last card is out, by the bots' plays
    (``Luck.post``; the result itself where the hand ended first, so zero
    there). Mean zero: every decision after that moment, priced by the plays.

    Raises ``ValueError`` when the record has no ``post`` for every seating (a
    dump from a run without ``--post-draw``)."""
    post = record.get("post")
    if post is None or len(post) != len(record["net"]) or any(p[0] is None for p in post):
        raise ValueError(f"no post-draw value for every seating ({post!r} for nets "
                         f"{record['net']}): run bench_luck.py with --post-draw")
    return float(sum(n - p[0] for n, p in zip(record["net"], post, strict=True)) / len(post))


def from_first_late_draw(record: dict[str, Any]) -> float:
    """One deal's estimate from its first late draw on by the plays alone (issue 31,
    twenty-eighth pass; ``bench_luck.py --post-draw`` dumps ``late_real``): per
    seating, where a late chance event came, its baseline (``V(real)`` less its
    term) less its baseline control (kind ``late_base`` right after it) and less
    every term before it; where none came, the result less every term (as
    "+ late terms' baselines"). The moment before that draw's cards is a stopping
    time and the baseline's mean there is the hand's expected result, so the
    mean is the same (the plays by the bots' own law); mean over the seatings.

    Raises ``ValueError`` when the record has no ``late_real`` matching its late
    chance terms one for one."""
    real = record.get("late_real")
    kinds = late_kinds(record)
    if real is None or len(real) != len(record["net"]) or any(
            len(r) != k.count("chance") for r, k in zip(real, kinds, strict=True)):
        raise ValueError(f"no late_real for every late chance term ({real!r}): run "
                         f"bench_luck.py with --post-draw")
    total = 0.0
    for net, terms, seat_kinds, seat_real in zip(record["net"], record["terms"], kinds, real,
                                                 strict=True):
        which = iter(seat_kinds)
        value, before = float(net), 0.0
        for i, (kind, _rnd, weight, change) in enumerate(terms):
            lk = next(which) if kind == "late" else None
            if lk == "chance":
                value = seat_real[0][1] - change
                if i + 1 < len(terms) and terms[i + 1][0] == "late_base":
                    value -= terms[i + 1][2] * terms[i + 1][3]
                break
            if kind != "late_share":
                before += change if kind in ("action", "late") else weight * change
        total += value - before
    return total / len(record["net"])


def rows(records: Sequence[dict[str, Any]]) -> list[tuple[str, list[float]]]:
    """(name, per-deal chips) for plain duplicate and every estimator: with
    the late terms kept play by play, the same estimator with each late value
    from its first 1, 2, 4... plays; and each with one cross-fitted weight on
    its whole correction (:func:`bench_luck.one_weight`, 2 folds: the setting
    chosen before the twelfth pass's runs)."""
    plain = [sum(r["net"]) / len(r["net"]) for r in records]
    s = [sums(r) for r in records]
    out = [("plain duplicate", plain),
           ("chance terms", [p - t["chance"] for p, t in zip(plain, s, strict=True)]),
           ("+ action terms", [p - t["chance"] - t["action"]
                               for p, t in zip(plain, s, strict=True)])]
    if any(t["late"] for t in s):
        out.append(("+ late terms", [p - t["chance"] - t["action"] - t["late"]
                                     for p, t in zip(plain, s, strict=True)]))
    if any(t["late_base"] for t in s):  # the late chance baselines steadied (eighth pass)
        out.append(("+ late terms' baselines", [p - t["chance"] - t["action"] - t["late"]
                                                - t["late_base"]
                                                for p, t in zip(plain, s, strict=True)]))
    if records and all("post" in r for r in records):  # twenty-eighth pass
        judged = out[-1][1]
        out.append(("+ post-draw value", [u - post_control(r)
                                          for u, r in zip(judged, records, strict=True)]))
        if all("late_real" in r for r in records):
            out.append(("from the first late draw", [from_first_late_draw(r)
                                                     for r in records]))
    if any(t["late"] for t in s) and len(records) >= 4:
        whole = [t["chance"] + t["action"] + t["late"] + t["late_base"] for t in s]
        kept = plays_kept(records)
        k = 1
        while k < kept:  # the same estimator from fewer of the same plays
            part = [t["chance"] + t["action"] + late_by_plays(r, k) + t["late_base"]
                    for r, t in zip(records, s, strict=True)]
            out.append((f"  late from {k} play{'s' if k > 1 else ''}",
                        [p - c for p, c in zip(plain, part, strict=True)]))
            out.append((f"  {k} play{'s' if k > 1 else ''}, one weight",
                        one_weight(plain, part)[0]))
            k *= 2
        fit, weights = one_weight(plain, whole)
        out.append((f"one weight (2 folds: {weights[0]:.2f}, {weights[1]:.2f})", fit))
    if len(records) >= 10:
        out.append(("fitted, no late column", fitted([without_late(r) for r in records])))
        if any(t["late"] for t in s):
            out.append(("fitted with late column", fitted(list(records))))
    return out


def _bb(units: Sequence[float]) -> tuple[float, float]:
    m = sum(units) / len(units)
    var = sum((u - m) ** 2 for u in units) / max(1, len(units) - 1)
    scale = 100.0 / BIG_BET
    return m * scale, 1.96 * (var / len(units)) ** 0.5 * scale


def _print_rows(table: Sequence[tuple[str, list[float]]], plain: list[float],
                level: float = 0.95, draws: int = 2000) -> None:
    for name, units in table:
        m, h = _bb(units)
        line = f"  {name:32s} {m:+8.2f} [{m - h:+.2f}, {m + h:+.2f}] BB/100"
        if units is not plain:
            r, lo, hi = ratio_interval(plain, units, draws=draws, level=level)
            line += f"   {r:5.2f} [{lo:.2f}, {hi:.2f}] times fewer"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dumps", nargs="+", help="bench_luck.py --dump files of one cell")
    parser.add_argument("--by-round", action="store_true",
                        help="also every kind of term by betting round: its variance, "
                             "its covariance with plain duplicate and the deals it is in")
    parser.add_argument("--parts", action="store_true",
                        help="also the late terms alone by part: the late chance terms, "
                             "with their baselines' controls, with the late decisions")
    parser.add_argument("--without-late-decisions", type=int, nargs="+", default=None,
                        metavar="ROUND",
                        help="also every row again with the late decisions' terms of "
                             "these betting rounds (Hand.round) left out: the same run "
                             "without a term there, on the same deals and plays")
    parser.add_argument("--level", type=float, default=0.95,
                        help="the times-fewer intervals' level (default 0.95; e.g. "
                             "0.9833 for the third of three looks, Bonferroni)")
    parser.add_argument("--draws", type=int, default=2000,
                        help="bootstrap draws for those intervals (default 2000; "
                             "use more for a level above 0.95)")
    args = parser.parse_args()
    if not 0.5 <= args.level < 1 or args.draws < 100:
        raise SystemExit(f"--level must be in [0.5, 1) and --draws at least 100, "
                         f"got {args.level} and {args.draws}")
    records: list[dict[str, Any]] = []
    cpu, head = 0.0, None
    for path in args.dumps:
        d = json.loads(Path(path).read_text())
        key = (d["game"], d["structure"], d.get("late_rollouts"), d.get("late_from"),
               d.get("play_alts", 0), d.get("late_decisions_from"), d.get("exact_picks", False),
               d.get("late_policy", False), d.get("late_policy_twins", 0),
               d.get("exact_draws", False), d.get("draw_copies", 0),
               d.get("late_choices", False), d.get("exact_deck_draws", 0),
               d.get("deck_draw_plays", 0), d.get("deck_draw_sample", False))
        if head is None:
            head = key
        elif key != head:
            raise SystemExit(f"{path}: another cell or setting {key}, not {head}")
        records.extend(d["deals"])
        cpu += d.get("cpu_s", 0.0)
    assert head is not None
    print(f"{head[0]} {head[1]}: {len(records)} deals from {len(args.dumps)} dumps, "
          f"late rollouts {head[2]} from round {head[3]}, play alts {head[4]}, "
          f"decisions from {head[3] if head[5] is None else head[5]}, "
          f"exact picks {head[6]}, late policy {head[7]} (twins {head[8]}), exact draws {head[9]}, "
          f"{cpu / len(records):.2f} s CPU a deal")
    decisions_from = head[3] if head[5] is None else head[5]
    table = rows(records)
    plain = table[0][1]
    if args.level != 0.95:
        print(f"  (times-fewer intervals at {args.level:.2%}, {args.draws} bootstrap draws; "
              f"BB/100 intervals stay 95%)")
    _print_rows(table, plain, args.level, args.draws)
    if args.without_late_decisions:
        print(f"  the late decisions of rounds {sorted(args.without_late_decisions)} left out:")
        _print_rows(rows([without_late_decisions(r, args.without_late_decisions,
                                                 decisions_from, head[11])
                          for r in records])[1:], plain)
    s = [sums(r) for r in records]
    import numpy as np

    y = np.asarray(plain)
    for kind in ("chance", "action", "late", "late_base", "late_share"):
        x = np.asarray([t[kind] for t in s])
        m, h = _bb(list(x))
        cov = float(np.cov(x, y)[0, 1]) if len(x) > 2 else 0.0
        print(f"  the {kind} terms' mean {m:+.2f} +- {h:.2f} BB/100 (zero in expectation); "
              f"variance {x.var(ddof=1):.1f} chips^2, covariance with plain {cov:.1f} "
              f"(plain's variance {y.var(ddof=1):.1f})")
    if records and all("post" in r for r in records):
        x = np.asarray([post_control(r) for r in records])
        m, h = _bb(list(x))
        cov = float(np.cov(x, y)[0, 1]) if len(x) > 2 else 0.0
        print(f"  the post-draw control's mean {m:+.2f} +- {h:.2f} BB/100 (zero in expectation); "
              f"variance {x.var(ddof=1):.1f} chips^2, covariance with plain {cov:.1f}")
    if args.parts and any(t["late_base"] for t in s):
        parts = [late_parts(r, decisions_from, head[11]) for r in records]
        print("  the late terms by part (no chance or action terms):")
        for name, which in (("late chance terms", (0,)), ("+ their controls", (0, 1)),
                            ("+ late decisions", (0, 1, 2))):
            units = [p - sum(part[k] for k in which)
                     for p, part in zip(plain, parts, strict=True)]
            r, lo, hi = ratio_interval(plain, units)
            print(f"    {name:23s} {r:5.2f} [{lo:.2f}, {hi:.2f}] times fewer")
    if args.by_round:
        cols = [by_round(r, decisions_from, head[11]) for r in records]
        print("  by kind and round (chips^2; a term takes out 2 cov - var):")
        for key in sorted({k for c in cols for k in c}, key=lambda k: (k[1], k[0])):
            x = np.asarray([c.get(key, 0.0) for c in cols])
            cov = float(np.cov(x, y)[0, 1]) if len(x) > 2 else 0.0
            print(f"    {key[0]:14s} round {key[1]:2d}: variance {x.var(ddof=1):8.2f}, "
                  f"covariance {cov:8.2f}, in {int((x != 0).sum())} deals")
    plays = sum(r.get("late_plays", 0) for r in records)
    print(f"  plays to the end for the late terms: {plays / len(records):.0f} a deal")


if __name__ == "__main__":
    main()
