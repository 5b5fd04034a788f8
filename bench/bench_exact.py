"""Exact exploitability of the bots in the last betting round of a reduced
heads-up Stop, Drop and Roll (24-card deck: nines to aces; fixed limit).

For each of ``--boards`` seeded boards (Stop, Drop and the three Roll cards,
drawn from the 24 cards; the first three betting rounds checked through, so
the pot holds the two antes), each player's two hole cards are any two of
the 19 cards left (171 combinations, every pair that shares no card equally
likely). The bot's policy is read from the bot itself: for every hole and
every history of the last round where its seat acts and it can still be
(R-SDR-7: a bet and up to three raises), a real hand is set up with the
engine and the bot asked for its action ``--queries`` times (fresh bots with
different seeds, so its mixing shows as frequencies), from its own view with
the 28 cards outside the reduced deck added to the dead cards (so both
levels' odds and ranges know the deck). :mod:`rollem.bots.exact` then
computes, exactly for that policy, what a best reply wins per hand averaged
over the two seats (the exploitability), and solves the subgame (CFR+) for
the equilibrium's own figure, which should be near 0.

This is the last round only (the subgame with uniform ranges), not the whole
game: the bots act from about 2,000 views per board, which is what a
loaded machine allows; figures in chips per hand and BB/100 (big bet 4).

    .venv/bin/python bench/bench_exact.py [--boards 3] [--queries 2] \\
        [--levels basic,strong] [--seed 1]
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import random
import time
from collections.abc import Sequence

import numpy as np

from rollem.bots import Bot, make_bot
from rollem.bots.exact import RiverGame, equilibrium, exploitability, histories
from rollem.cards import CARDS, parse_card
from rollem.engine import Hand, HandView, ReplaySource
from rollem.engine.actions import Bet, Call, Check, Fold, Raise
from rollem.odds.evaluate import high5

DECK = [f"{r}{s}" for r in "9TJQKA" for s in "cdhs"]
OUTSIDE = [str(c) for c in CARDS if str(c) not in DECK]
NAMES = {Check: "k", Bet: "b", Raise: "r", Call: "c", Fold: "f"}


def _view(board: Sequence[str], hole: Sequence[str], seat: int, history: str) -> HandView:
    """``seat``'s view at ``history`` of the last round: it holds ``hole``; the
    other seat two cards from outside the reduced deck (never seen); the burns
    from outside too; rounds 1 to 3 checked through."""
    stop, drop, *roll = board
    other = OUTSIDE[:2]
    seat_cards = [list(hole), other] if seat == 0 else [other, list(hole)]
    top = [seat_cards[0][0], seat_cards[1][0], seat_cards[0][1], seat_cards[1][1],
           OUTSIDE[2], stop, OUTSIDE[3], drop, *roll]
    order = top + [str(c) for c in CARDS if str(c) not in top]
    hand = Hand("sdr", [200, 200], button=1,
                source=ReplaySource([("deck", [int(parse_card(c)) for c in order])]))
    while hand.pending is not None and hand.view(0).round != "after the roll":
        hand.apply(hand.pending.seats[0], Check())
    for a in history:
        s = hand.pending.seats[0] if hand.pending is not None else 0
        legal = hand.view(s).legal
        assert legal is not None
        act = {"k": Check(), "c": Call(), "f": Fold(), "b": Bet(legal.min_to),
               "r": Raise(legal.min_to)}[a]
        hand.apply(s, act)
    view = hand.view(seat)
    assert view.legal is not None and hand.pending is not None
    assert hand.pending.seats[0] == seat
    seen = set(view.dead) | set(view.board) | set(hole)
    return dataclasses.replace(view, dead=view.dead + [c for c in OUTSIDE if c not in seen])


def river_game(board: Sequence[str]) -> tuple[RiverGame, list[tuple[str, str]]]:
    """The subgame of ``board`` (Stop, Drop, Roll): holes, compatibility, results."""
    left = [c for c in DECK if c not in board]
    holes = list(itertools.combinations(left, 2))
    roll = [int(parse_card(c)) for c in board[2:]]
    cards = np.asarray([[int(parse_card(a)), int(parse_card(b)), *roll] for a, b in holes])
    value = high5(cards).astype(np.float64)
    result = np.sign(value[:, None] - value[None, :])
    sets = [set(h) for h in holes]
    compatible = np.asarray([[0.0 if sets[i] & sets[j] else 1.0 for j in range(len(holes))]
                             for i in range(len(holes))])
    return RiverGame(compatible, result, pot=2, bet=4, cap=4), holes


def read_policy(game: RiverGame, holes: Sequence[tuple[str, str]], board: Sequence[str],
                level: str, queries: int, seed: int) -> tuple[dict[str, np.ndarray], int]:
    """The bot's action frequencies at every history it can reach, per hole
    (unreachable rows: uniform, they weigh nothing); and the views asked."""
    policy: dict[str, np.ndarray] = {}
    asked = 0
    for h in sorted(histories(game), key=len):
        seat = game.actor(h)
        acts = game.actions(h)
        mine = np.ones(game.n)  # the bot's own reach: its earlier actions in h
        for p in range(len(h)):
            if game.actor(h[:p]) == seat:
                mine = mine * policy[h[:p]][:, game.actions(h[:p]).index(h[p])]
        probs = np.full((game.n, len(acts)), 1.0 / len(acts))
        for i, hole in enumerate(holes):
            if mine[i] <= 0:
                continue
            counts = np.zeros(len(acts))
            for q in range(queries):
                bot: Bot = make_bot(level, random.Random(seed * 7_919 + q * 104_729 + i))
                action = bot.act(_view(board, hole, seat, h))
                counts[acts.index(NAMES[type(action)])] += 1
                asked += 1
            probs[i] = counts / queries
        policy[h] = probs
    return policy, asked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=3)
    parser.add_argument("--queries", type=int, default=2, help="asks per hole and history")
    parser.add_argument("--levels", default="basic,strong")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=1500,
                        help="CFR+ iterations (0: skip the equilibrium's own figure)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    totals: dict[str, list[float]] = {}
    for b in range(args.boards):
        board = rng.sample(DECK, 5)
        game, holes = river_game(board)
        t = time.perf_counter()
        print(f"board {b + 1}: stop {board[0]} drop {board[1]} roll {' '.join(board[2:])}; "
              f"{game.n} holes", flush=True)
        if args.iterations:
            strat, v0 = equilibrium(game, args.iterations)
            eq = exploitability(game, strat)
            print(f"  equilibrium: seat 0 wins {v0:+.3f} chips/hand; its exploitability "
                  f"{eq:.4f} ({time.perf_counter() - t:.0f} s)", flush=True)
            totals.setdefault("equilibrium", []).append(eq)
        for level in args.levels.split(","):
            t = time.perf_counter()
            policy, asked = read_policy(game, holes, board, level, args.queries,
                                        args.seed * 100 + b)
            x = exploitability(game, policy)
            totals.setdefault(level, []).append(x)
            print(f"  {level:<7} exploitability {x:.3f} chips/hand = {x / 4 * 100:.1f} BB/100 "
                  f"({asked} views, {time.perf_counter() - t:.0f} s)", flush=True)
    print("mean over boards:")
    for level, xs in totals.items():
        m = sum(xs) / len(xs)
        print(f"  {level:<11} {m:.3f} chips/hand = {m / 4 * 100:.1f} BB/100")


if __name__ == "__main__":
    main()
