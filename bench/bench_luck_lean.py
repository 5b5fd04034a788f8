"""Where a run's late chance terms lean, and whether the cards lean with them
(issue 31, seventeenth pass: 5-2-1 no limit's round-1 lean).

Replays the real hands of ``bench_luck.py`` dumps (the same ``--seed`` gives the
same deals and bots; plain play, no terms: cheap), pairs every late chance
term of a dump with the chance event it was made at (its round, who drew,
how many cards), and at each one-card deck draw (:func:`bench_luck.deck_draws`
within ``--limit`` orders) computes the term's *cards-alone analogue*:
``pot x (e(real) - mean over every card c of e(c))``, ``e`` the hero's share
with both hands known (:func:`bench_luck.value`). The analogue is a function
of the card the real draw dealt and nothing the estimator computes; the
stub's order is uniform given the history (dealt unseen, R-521-2, R-521-4),
so it has mean zero exactly. A term that leans where its analogue leans as
much is the deals' luck (what the term is there to take out); a term that
leans where its analogue does not is a defect to find.

    .venv/bin/python bench/bench_luck_lean.py nl-*.json [--json rows.json]

Prints per kind of event (round, cards dealt, the drawer `strong` or its
opponent) the term's and the analogue's mean per event, and per deal (the
two seatings' mean, every event of the kind summed: the deal is the unit
the run's intervals count, and its events are not independent).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_league import STACK, seat_bots
from bench_luck import _deepcopy, _state, deck_draws, value
from rollem.engine import Hand, SeededSource
from rollem.engine.options import Options


def analogue(before: Hand, seat: int, action: object, after: Hand, hero: int,
             limit: int, rng: random.Random, samples: int,
             cache: dict[tuple[Any, ...], float] | None = None) -> tuple[float, float] | None:
    """The cards-alone analogue of the deck draw ``action`` by ``seat`` that took
    ``before`` to ``after``: ``(pot x (e(after) - mean_c e(c)), rank)``, ``e``
    the hero's share (:func:`bench_luck.value`, one ``cache`` for the event
    (a new one if None), so the real card and its copy get the same share),
    the mean over every
    ordered choice of the stub's cards (:func:`bench_luck.deck_draws`), and
    ``rank`` the real draw's place among them by ``e`` (0 to 1, ties halved;
    uniform over the draws). None for a move that is no deck draw or has more
    than ``limit`` orders."""
    every = deck_draws(before, seat, action, limit)
    if every is None:
        return None
    cache = {} if cache is None else cache
    es = [value(o, hero, rng, samples, cache) for o in every]
    real = value(after, hero, rng, samples, cache)
    pot = float(sum(after.committed))
    rank = (sum(e < real for e in es) + 0.5 * sum(e == real for e in es)) / len(es)
    return pot * (real - sum(es) / len(es)), rank


def events(game: str, structure: str, deal: int, button: int, bots: Sequence[Any],
           hero: int, late_from: int, limit: int, rng: random.Random,
           samples: int) -> tuple[list[dict[str, Any]], int]:
    """One seating of one deal played by ``bots`` as ``bench_luck.play_sampled``
    plays it: every chance event from round ``late_from`` on as ``{"round",
    "drawer_is_hero", "cards", "analogue", "rank"}`` (the last two None where
    :func:`analogue` is), in order, and the hero's chips."""
    hand = Hand(game, [STACK, STACK], button=button, options=Options(structure=structure),
                source=SeededSource(deal))
    out = []
    while not hand.is_over:
        assert hand.pending is not None
        s = hand.pending.seats[0]
        action = bots[s].act(hand.view(s))
        state, before = _state(hand), _deepcopy(hand)
        hand.apply(s, action)
        if _state(hand) != state and not any(hand.folded) and hand.round >= late_from:
            cards = hand.deck_pos - state[0]
            a = analogue(before, s, action, hand, hero, limit, rng, samples) \
                if cards == 1 else None
            out.append({"round": hand.round, "drawer_is_hero": s == hero, "cards": cards,
                        "analogue": None if a is None else a[0],
                        "rank": None if a is None else a[1]})
    assert hand.result is not None
    return out, hand.result.net.get(hero, 0)


def pair(dump: dict[str, Any], limit: int = 60, samples: int = 400,
         seed: int = 5301) -> list[dict[str, Any]]:
    """Every late chance term of a ``bench_luck.py`` dump with its event
    (:func:`events`), as the event's dict plus ``"term"``, ``"seed"`` (the
    dump's), ``"deal"`` (its index) and ``"hero"`` (the seating).

    Raises:
        ValueError: a dump with late decision or card choice terms (only chance
            events are paired), or whose hands the replay does not reproduce
            (another seating's chips, another count of late terms: other bots
            than the ones it was played by)."""
    if dump.get("late_choices") or dump.get("late_decisions_from", 9) < 9:
        raise ValueError("only dumps whose late terms are all chance events can be paired "
                         f"(late_choices off, late_decisions_from 9), got late_choices "
                         f"{dump.get('late_choices')}, late_decisions_from "
                         f"{dump.get('late_decisions_from')}")
    game, structure, run = dump["game"], dump["structure"], dump["seed"]
    prefix = "" if game == "sdr" else f"{game}/"
    draw = random.Random(f"luck/{prefix}{structure}/{run}")
    deals = [draw.getrandbits(48) for _ in dump["deals"]]
    rng = random.Random(seed)
    rows = []
    for hero in (0, 1):
        levels = [dump["opponent"], dump["opponent"]]
        levels[hero] = dump["hero"]
        bots = seat_bots(levels, run * 2 + hero)
        for i, deal in enumerate(deals):
            found, net = events(game, structure, deal, i % 2, bots, hero,
                                dump["late_from"], limit, rng, samples)
            rec = dump["deals"][i]
            late = [t for t in rec["terms"][hero] if t[0] == "late"]
            if rec["net"][hero] != net or len(late) != len(found):
                raise ValueError(
                    f"seed {run} deal {i} seating {hero}: the replay gives {net} chips and "
                    f"{len(found)} late chance events, the dump {rec['net'][hero]} and "
                    f"{len(late)} late terms: played by other bots")
            for event, term in zip(found, late, strict=True):
                rows.append({**event, "term": float(term[3]), "seed": run, "deal": i,
                             "hero": hero})
    return rows


def mean_se(xs: Sequence[float]) -> tuple[float, float]:
    """The mean and its standard error (``n - 1`` in the variance).

    Raises:
        ValueError: fewer than two values."""
    if len(xs) < 2:
        raise ValueError(f"need two values or more, got {len(xs)}")
    m = sum(xs) / len(xs)
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1) / len(xs))


def by_kind(rows: Sequence[dict[str, Any]]) -> dict[tuple[int, int, bool], dict[str, Any]]:
    """Per kind of event ``(round, cards, drawer_is_hero)``: ``events``, the
    term's and the analogue's ``(mean, se)`` per event (the analogue over the
    events that have one) and per deal: ``deal_term``, ``deal_analogue``,
    each deal's events of the kind summed and halved (the two seatings' mean;
    a deal without one counts 0), over every deal in ``rows``."""
    deals = sorted({(r["seed"], r["deal"]) for r in rows})
    kinds: dict[tuple[int, int, bool], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        kinds[(r["round"], r["cards"], r["drawer_is_hero"])].append(r)
    out = {}
    for kind, rs in sorted(kinds.items()):
        term: dict[tuple[int, int], float] = defaultdict(float)
        ana: dict[tuple[int, int], float] = defaultdict(float)
        for r in rs:
            term[(r["seed"], r["deal"])] += r["term"] / 2
            ana[(r["seed"], r["deal"])] += (r["analogue"] or 0.0) / 2
        with_ana = [r["analogue"] for r in rs if r["analogue"] is not None]
        out[kind] = {
            "events": len(rs),
            "term": mean_se([r["term"] for r in rs]) if len(rs) > 1 else None,
            "analogue": mean_se(with_ana) if len(with_ana) > 1 else None,
            "deal_term": mean_se([term[d] for d in deals]) if len(deals) > 1 else None,
            "deal_analogue": (mean_se([ana[d] for d in deals])
                              if with_ana and len(deals) > 1 else None),
        }
    return out


def _fmt(ms: tuple[float, float] | None) -> str:
    if ms is None:
        return "-"
    m, se = ms
    return f"{m:+.2f} +- {se:.2f} (t {m / se:+.2f})" if se else f"{m:+.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dumps", nargs="+", help="bench_luck.py --dump files")
    parser.add_argument("--limit", type=int, default=60,
                        help="most orders of a draw given an analogue (default 60: "
                             "one card of the stub)")
    parser.add_argument("--json", help="write every paired event here")
    args = parser.parse_args()
    rows = []
    for path in args.dumps:
        rows += pair(json.loads(Path(path).read_text()), args.limit)
    deals = len({(r["seed"], r["deal"]) for r in rows})
    print(f"{len(rows)} late chance events on {deals} deals (chips)")
    print(f"{'round cards drawer':24} {'events':>6}  {'term an event':28} "
          f"{'analogue an event':28} {'term a deal':28} analogue a deal")
    for (rnd, cards, mine), s in by_kind(rows).items():
        label = f"{rnd} {cards} {'hero' if mine else 'opponent'}"
        print(f"{label:24} {s['events']:6d}  {_fmt(s['term']):28} {_fmt(s['analogue']):28} "
              f"{_fmt(s['deal_term']):28} {_fmt(s['deal_analogue'])}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows))


if __name__ == "__main__":
    main()
