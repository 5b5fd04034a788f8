"""How far ``strong``'s read equity is from the truth, by kind of betting spot
(issue 31): heads-up Stop, Drop and Roll, duplicate deals as in
``bench_league.py`` (both seatings), at every betting decision of the hero its
read equity (:meth:`StrongBot.equities`, the opponent's range weighted by its
actions) against the real one (:func:`rollem.odds.sdr_odds` with the
opponent's hole cards: exact once the Roll is out).

Spot kinds (the current betting round, from the hero's seat):

- ``facing a check-raise``: the opponent checked and then raised the hero's bet;
- ``facing another raise``: two or more bets or raises open, not a check-raise;
- ``facing a bet, first in``: the opponent bet with no check before it;
- ``facing a bet after its check``: the hero checked, the opponent bet;
- ``free to bet after its check``: the opponent checked to the hero;
- ``free to bet, first in``: no action yet in the round.

Play and tally (``--save`` keeps every spot: the view, a copy of the hero's
book, the real equity, the opponent's hole cards; a pickle; ``--kinds`` only
these kinds, separated by ``;``: the real equity is most of the time):

    .venv/bin/python bench/bench_reads.py --hands 1000 --seed 7 --opponent strongtrap \\
        [--structure fixed-limit] [--save /tmp/spots.pkl]

Re-read saved spots with this checkout's ``strong`` (the same seed per spot:
two checkouts' reads of the same spots are paired; several files pooled, each
spot seeded by its place in its own file; ``--by-round`` adds a line per
betting round of each kind, where the misreads differ most):

    .venv/bin/python bench/bench_reads.py --read /tmp/spots.pkl [/tmp/more.pkl ...] \\
        [--by-round]

Figures: ``docs/dev/league.md`` (issue 31, sixth pass).
"""

from __future__ import annotations

import argparse
import copy
import pickle
import random
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_league import STACK, seat_bots
from rollem.bots.strong import StrongBot
from rollem.bots.strong.reads import round_number
from rollem.engine import Hand, HandView, SeededSource
from rollem.engine.options import Options
from rollem.odds import sdr_odds
from rollem.odds.view import read_view

KINDS = ("facing a check-raise", "facing another raise", "facing a bet, first in",
         "facing a bet after its check", "free to bet after its check",
         "free to bet, first in")


def spot_kind(view: HandView) -> str | None:
    """The kind of betting spot of ``view`` (the module doc), ``None`` for a
    decision that is not a bet (a card choice)."""
    legal = view.legal
    if legal is None or not any(a in legal.actions for a in ("check", "call", "bet", "raise")):
        return None
    this: list[dict[str, Any]] = []
    for e in view.events:
        this = [] if e.get("kind") == "round" else [*this, dict(e)]
    me = view.seat
    opp_checked = any(e.get("kind") == "check" and e.get("seat") != me for e in this)
    i_checked = any(e.get("kind") == "check" and e.get("seat") == me for e in this)
    bets = [e for e in this if e.get("kind") in ("bet", "raise")]
    if "call" not in legal.actions:
        return KINDS[4] if opp_checked else KINDS[5]
    last = bets[-1] if bets else None
    if last is not None and last.get("kind") == "raise" and last.get("seat") != me \
            and opp_checked and len(bets) == 2:
        return KINDS[0]
    if len(bets) >= 2:
        return KINDS[1]
    return KINDS[3] if i_checked else KINDS[2]


def tally_keys(kind: str, view: HandView, by_round: bool) -> tuple[str, ...]:
    """The tally lines a spot of ``kind`` in ``view`` counts in: its kind, and with
    ``by_round`` also ``"<kind>, round N"`` (N the betting round from 1,
    :func:`round_number`; ``"round ?"`` where the view does not say)."""
    if not by_round:
        return (kind,)
    number = round_number(view)
    return (kind, f"{kind}, round {number if number is not None else '?'}")


def real_equity(hand: Hand, view: HandView) -> float:
    """The hero's share with every opponent's hole cards known (heads-up)."""
    info = read_view(view)
    opp = [o.seat for o in info.opponents]
    vs = [[int(c) for c in hand.hole[s]] for s in opp]
    return float(sdr_odds(info.mine, dead=info.dead, board=info.board, vs=vs,
                          samples=4000, seed=1).equity)


def play(hands: int, seed: int, opponent: str, structure: str,
         save: list[dict[str, Any]] | None, kinds: set[str] | None = None,
         by_round: bool = False) -> dict[str, list[tuple[float, float]]]:
    """Play ``hands`` deals twice (seats swapped), ``strong`` against ``opponent``;
    per spot kind (of ``kinds``, default all: the real equity, most of the time,
    is worked out only there) the (read, real) equities of the hero's decisions."""
    rng = random.Random(f"sdr/hu/{structure}/{seed}")
    deals = [rng.getrandbits(48) for _ in range(hands)]
    out: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for k, hero_seat in enumerate((0, 1)):
        levels = [opponent, opponent]
        levels[hero_seat] = "strong"
        bots = seat_bots(levels, seed * 7919 + k)
        hero = bots[hero_seat]
        assert isinstance(hero, StrongBot)
        for i, deal in enumerate(deals):
            hand = Hand("sdr", [STACK] * 2, button=i % 2, options=Options(structure=structure),
                        source=SeededSource(deal))
            while not hand.is_over:
                assert hand.pending is not None
                seat = hand.pending.seats[0]
                view = hand.view(seat)
                if seat == hero_seat:
                    kind = spot_kind(view)
                    if kind is not None and (not kinds or kind in kinds):
                        hero.book.observe(view.events, view.seat)
                        read = hero.equities(view)["pot"]
                        real = real_equity(hand, view)
                        for key in tally_keys(kind, view, by_round):
                            out[key].append((read, real))
                        if save is not None:
                            save.append({"kind": kind, "view": view, "real": real,
                                         "book": copy.deepcopy(hero.book), "read": read,
                                         "opponent": [str(c) for c in hand.hole[1 - seat]]})
                hand.apply(seat, bots[seat].act(view))
    return out


def reread(spots: list[dict[str, Any]], kinds: set[str] | None = None,
           by_round: bool = False,
           out: dict[str, list[tuple[float, float]]] | None = None
           ) -> dict[str, list[tuple[float, float]]]:
    """Each saved spot (of ``kinds``, default all) read again by this checkout's
    ``strong``, seeded by its index, added to ``out`` (a new tally by default)."""
    if out is None:
        out = defaultdict(list)
    for i, s in enumerate(spots):
        if kinds and s["kind"] not in kinds:
            continue
        bot = StrongBot(random.Random(i), book=copy.deepcopy(s["book"]))
        read = bot.equities(s["view"])["pot"]
        for key in tally_keys(s["kind"], s["view"], by_round):
            out.setdefault(key, []).append((read, s["real"]))
    return out


def report(tally: dict[str, list[tuple[float, float]]]) -> str:
    """One line per spot kind (then per round of it, where the tally has them):
    count, mean read, mean real, mean read - real with its 95% interval."""
    lines = [f"{'spot':40} {'n':>6} {'read':>7} {'real':>7}   read - real [95%]"]
    keys = [key for kind in KINDS for key in
            [kind, *sorted(k for k in tally if k.startswith(f"{kind}, round "))]]
    for kind in keys:
        rows = tally.get(kind, [])
        if not rows:
            continue
        n = len(rows)
        read = sum(r for r, _ in rows) / n
        real = sum(x for _, x in rows) / n
        diffs = [r - x for r, x in rows]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
        half = 1.96 * (var / n) ** 0.5
        lines.append(f"{kind:40} {n:6d} {read:7.3f} {real:7.3f}   {mean:+.3f} "
                     f"[{mean - half:+.3f}, {mean + half:+.3f}]")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="deals (each played twice)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--opponent", default="strongtrap")
    parser.add_argument("--structure", default="fixed-limit")
    parser.add_argument("--save", help="keep every spot here (a pickle)")
    parser.add_argument("--read", nargs="+",
                        help="re-read the spots saved in these files, print the tally")
    parser.add_argument("--by-round", action="store_true",
                        help="a line per betting round of each spot kind too")
    parser.add_argument("--kinds", help="only these spot kinds (separated by ';')")
    args = parser.parse_args()
    t = time.perf_counter()
    kinds = set(args.kinds.split(";")) if args.kinds else None
    if kinds and kinds - set(KINDS):
        parser.error(f"--kinds: unknown {sorted(kinds - set(KINDS))}; the kinds are {KINDS}")
    if args.read:
        tally: dict[str, list[tuple[float, float]]] = defaultdict(list)
        for path in args.read:
            with open(path, "rb") as f:
                reread(pickle.load(f), kinds, args.by_round, tally)
        print(report(tally))
    else:
        saved: list[dict[str, Any]] | None = [] if args.save else None
        print(report(play(args.hands, args.seed, args.opponent, args.structure, saved,
                          kinds, args.by_round)))
        if args.save and saved is not None:
            with open(args.save, "wb") as f:
                pickle.dump(saved, f)
    print(f"{time.perf_counter() - t:.1f} s")


if __name__ == "__main__":
    main()
