"""What ``strong``'s bets into a check price against what the opponent does.

Issue 31 (thirteenth and fourteenth passes, ``docs/dev/league.md``): plays Stop,
Drop and Roll fixed limit heads-up, ``strong`` against one opponent of the
league (``bench/bench_league.py``'s bots, both seatings of each deal, coins
seeded per view as ``--view-seeds``), and at each of ``strong``'s bets into the
opponent's check notes what the bet's gain priced (the opponent's chance to
continue and to raise, over the weighted range: the ``calls`` and ``raises`` the
bot hands :func:`rollem.bots.strong.gains.bet_gain`) and what the opponent then
did (raise, call, or fold, read from the hand's events at its end). Prints per
betting round the bets, the mean priced raise and continue chances, and the
seen shares; the checks behind are counted too, and ``strong``'s chips by the
round of its first bet into a check in the hand (none: it made none). The check that a pricing is
right before any league run. ``--runs`` plays sessions of ``--hands`` deals
with new bots each (the league's ``--jobs 1`` runs are sessions of 250 deals
a seating: the books learn no longer than that).

Run from a checkout (``PYTHONPATH=<copy>/src`` for another copy's bot):

    OMP_NUM_THREADS=1 nice -n 5 .venv/bin/python bench/bench_check_prices.py \\
        --opponent strongtrap --hands 250 --runs 6 --seed 4901 [--set round_prices=1] \\
        [--json out.json]

``--set NAME=0|1`` sets a ``StrongBot`` switch (class attribute) for both
bots built from it, as the league runs of a frozen copy do.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence
from typing import Any

import bench_league
from rollem.bots.strong import StrongBot, gains
from rollem.bots.strong import bot as strong_bot
from rollem.engine import Hand, SeededSource
from rollem.engine.actions import Bet
from rollem.engine.options import Options
from rollem.hand_ends import tell_hand_end

_priced: list[tuple[float, float]] = []
"""What the last ``bet_gain`` with raises priced: (continue, raise) chances."""


def _recording(inner: Any) -> Any:
    def bet_gain(pot: int, bet: int, share: Any, calls: Any, weights: Any,
                 raises: Any = None, raise_to: int = 0) -> float:
        if raises is not None:
            _priced.append((float((calls * weights).sum()), float((raises * weights).sum())))
        out: float = inner(pot, bet, share, calls, weights, raises, raise_to)
        return out
    return bet_gain


def _answer(events: Sequence[dict[str, Any]], at: int, opp: int) -> str | None:
    """The opponent's answer to the bet at ``events[at]``: its next raise, call or
    fold in the same betting round; ``None`` if none (it was all in)."""
    for e in events[at + 1:]:
        if e.get("kind") == "round":
            return None
        if e.get("seat") == opp and e.get("kind") in ("raise", "call", "fold"):
            return str(e["kind"])
    return None


def play(opponent: str, hands: int, seed: int) -> dict[str, Any]:
    """Both seatings of ``hands`` SDR fixed-limit deals; per round (1-4) the bets
    into a check with their priced and seen answers, and the checks behind."""
    rng = random.Random(f"sdr/hu/fixed-limit/{seed}")
    deals = [rng.getrandbits(48) for _ in range(hands)]
    rows: list[dict[str, Any]] = []
    behind = [0, 0, 0, 0, 0]
    chips = 0.0
    by_first = [0.0] * 5  # strong's chips by the round of its first bet into a check (0: none)
    hands_by_first = [0] * 5
    per_hand: list[dict[str, Any]] = []  # each hand: seating, deal, net, its spots
    for k, hero in enumerate((0, 1)):
        levels = ["strong", opponent] if hero == 0 else [opponent, "strong"]
        bots = bench_league.seat_bots(levels, seed * 7919 + k, seed * 7919)
        for i, deal in enumerate(deals):
            hand = Hand("sdr", [bench_league.STACK] * 2, button=i % 2,
                        options=Options(structure="fixed-limit"), source=SeededSource(deal))
            pending: list[tuple[int, int, float, float]] = []
            spots: list[tuple[int, str]] = []  # (round, bet or check) at each spot
            while not hand.is_over:
                assert hand.pending is not None
                seat = hand.pending.seats[0]
                view = hand.view(seat)
                _priced.clear()
                action = bots[seat].act(view)
                if seat == hero and _priced:
                    rnd = sum(1 for e in view.events if e.get("kind") == "round")
                    spots.append((rnd, "bet" if isinstance(action, Bet) else "check"))
                    if isinstance(action, Bet):
                        pending.append((len(view.events), rnd, *_priced[-1]))
                    else:
                        behind[min(rnd, 4)] += 1
                hand.apply(seat, action)
            tell_hand_end(hand, bots)
            assert hand.result is not None
            net = hand.result.net.get(hero, 0)
            chips += net
            first = min((p[1] for p in pending), default=0)
            by_first[min(first, 4)] += net
            hands_by_first[min(first, 4)] += 1
            per_hand.append({"seating": k, "deal": i, "net": net, "spots": spots})
            events = hand.view(hero).events
            for at, rnd, cont, raise_ in pending:
                ans = _answer(events, at, 1 - hero)
                if ans is not None:
                    rows.append({"round": rnd, "continue": cont, "raise": raise_, "answer": ans})
    return {"opponent": opponent, "hands": hands, "seed": seed, "rows": rows,
            "behind": behind[1:], "strong_chips": chips, "chips_by_first": by_first,
            "hands_by_first": hands_by_first, "hands_played": per_hand}


def summary(result: dict[str, Any]) -> str:
    """The per-round table of :func:`play`'s result."""
    lines = [f"strong vs {result['opponent']}, {result.get('runs', 1)} sessions of "
             f"{result['hands']} deals x 2 seatings, seeds from {result['seed']} "
             f"(strong {result['strong_chips']:+.0f} chips)",
             "round  bets  priced raise  seen   priced continue  seen   checks behind"]
    for rnd in (1, 2, 3, 4):
        rows = [r for r in result["rows"] if r["round"] == rnd]
        n = len(rows)
        if not n:
            lines.append(f"{rnd:>5}  {0:>4}")
            continue
        pr = sum(r["raise"] for r in rows) / n
        pc = sum(r["continue"] for r in rows) / n
        sr = sum(r["answer"] == "raise" for r in rows) / n
        sc = sum(r["answer"] != "fold" for r in rows) / n
        lines.append(f"{rnd:>5}  {n:>4}  {pr:>12.3f}  {sr:.3f}  {pc:>15.3f}  {sc:.3f}  "
                     f"{result['behind'][rnd - 1]:>13}")
    lines.append("strong's chips (hands) by the round of its first bet into a check: "
                 + ", ".join(f"{'none' if r == 0 else r} {c:+.0f} ({h})" for r, (c, h) in
                             enumerate(zip(result["chips_by_first"], result["hands_by_first"],
                                           strict=True))))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", default="strongtrap")
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=4901)
    parser.add_argument("--runs", type=int, default=1,
                        help="sessions of --hands deals (new bots each), seeds from --seed")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=0|1",
                        help="set a StrongBot switch (class attribute), e.g. round_prices=1")
    parser.add_argument("--json", help="also write the rows here")
    args = parser.parse_args()
    for item in args.set:
        name, _, value = item.partition("=")
        if not hasattr(StrongBot, name):
            parser.error(f"StrongBot has no switch {name!r}")
        setattr(StrongBot, name, value not in ("0", "false", "False", ""))
    strong_bot.__dict__["bet_gain"] = _recording(gains.bet_gain)  # the name the bot calls
    result = play(args.opponent, args.hands, args.seed)
    for h in result["hands_played"]:
        h["session"] = 0
    for k in range(1, args.runs):
        more = play(args.opponent, args.hands, args.seed + k)
        for h in more["hands_played"]:
            h["session"] = k
        for key in ("rows", "behind", "chips_by_first", "hands_by_first", "hands_played"):
            result[key] = (result[key] + more[key] if key in ("rows", "hands_played")
                           else [a + b for a, b in zip(result[key], more[key], strict=True)])
        result["strong_chips"] += more["strong_chips"]
    result["runs"] = args.runs
    print(summary(result))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f)


if __name__ == "__main__":
    main()
