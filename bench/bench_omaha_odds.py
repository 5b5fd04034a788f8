"""Omaha odds speed: worlds per CPU second of the plain model, vectorised vs scalar vs PokerKit.

The question (issue 33, branch s51-omaha): seat 0's equity in Omaha and Omaha
hi-lo at 2 to 6 players, its four hole cards known, every other hand unknown,
preflop (five board cards to come) and on the flop (two to come). Timed, as CPU
of this process (``time.process_time``; one thread, ``OMP_NUM_THREADS=1``):

- ``vector``: :func:`rollem.odds.filegame.file_game_odds` as play calls it
  (:mod:`rollem.odds.holeboard`: every world and its 60 two-and-three hands
  per player at once);
- ``scalar``: the same model one world at a time (the path before branch
  s51-omaha, still used for the other game files), by switching
  :func:`rollem.odds.holeboard.vectorised` off;
- ``pokerkit``: PokerKit's ``calculate_equities`` (``OmahaHoldemHand``, with
  ``OmahaEightOrBetterLowHand`` for hi-lo), single-threaded, the same deal.

Printed per row: worlds per CPU second of each, the ratios, and each equity
(± its 95% error where stated) so that the answers can be seen to agree.

    .venv/bin/python bench/bench_omaha_odds.py [--vector 40000] [--scalar 2000]
                                               [--pokerkit 2000] [--players 2,6] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from rollem.cards import parse_cards
from rollem.games import get
from rollem.odds import holeboard
from rollem.odds.filegame import file_game_odds
from rollem.odds.view import SeatInfo, ViewInfo

HERO = "As Ad Kh Qh"
FLOP = "2h 7c Jd"


def _info(game: str, players: int, board: str) -> ViewInfo:
    return ViewInfo(
        game=game, seat=0, mine=[int(c) for c in parse_cards(HERO)], my_up=[],
        board=[int(c) for c in parse_cards(board)] if board else [], dead=[], my_pool=[],
        wild_ranks=[], pool=0, stub=0,
        opponents=[SeatInfo(i + 1, [], 4, None) for i in range(players - 1)],
        options={}, events=[], round="", pending=None, seen_out=[], my_discards=[],
        reshuffled=False, declared={}, folded_dealt=0, to_act=[])


def rollem_rate(game: str, players: int, board: str, samples: int,
                scalar: bool) -> tuple[float, float, float]:
    """(worlds per CPU s, equity, 95% half-width) of the plain model."""
    info = _info(game, players, board)
    keep = holeboard.vectorised
    if scalar:
        holeboard.vectorised = lambda spec: False  # type: ignore[assignment]
    try:
        file_game_odds(info, get(game), samples=50, seed=1)  # warm the tables
        t = time.process_time()
        odds = file_game_odds(info, get(game), samples=samples, seed=2)
        cpu = time.process_time() - t
    finally:
        holeboard.vectorised = keep  # type: ignore[assignment]
    return samples / cpu, odds.equity, 1.96 * odds.stderr


def pokerkit_rate(game: str, players: int, board: str, samples: int) -> tuple[float, float]:
    """(worlds per CPU s, seat 0's equity) of PokerKit's calculate_equities."""
    from pokerkit import (
        Card,
        Deck,
        OmahaEightOrBetterLowHand,
        OmahaHoldemHand,
        calculate_equities,
    )

    types = (OmahaHoldemHand,) if game == "omaha" else (OmahaHoldemHand,
                                                        OmahaEightOrBetterLowHand)
    hero = list(Card.parse(HERO.replace(" ", "")))
    flop = list(Card.parse(board.replace(" ", ""))) if board else []
    ranges = [[hero]] + [[[]] for _ in range(players - 1)]
    calculate_equities(ranges, flop, 4, 5, Deck.STANDARD, types, sample_count=50)
    t = time.process_time()
    eq = calculate_equities(ranges, flop, 4, 5, Deck.STANDARD, types, sample_count=samples)
    return samples / (time.process_time() - t), eq[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--vector", type=int, default=40_000, help="worlds, vectorised")
    parser.add_argument("--scalar", type=int, default=2_000, help="worlds, scalar")
    parser.add_argument("--pokerkit", type=int, default=2_000, help="worlds, PokerKit (0: skip)")
    parser.add_argument("--players", default="2,6", help="player counts (comma-separated)")
    parser.add_argument("--json", action="store_true", help="one JSON object per row")
    args = parser.parse_args()
    for game in ("omaha", "omaha8"):
        for players in (int(p) for p in args.players.split(",")):
            for board, when in (("", "preflop"), (FLOP, "flop")):
                v_rate, v_eq, v_hw = rollem_rate(game, players, board, args.vector, False)
                s_rate, s_eq, s_hw = rollem_rate(game, players, board, args.scalar, True)
                row: dict[str, object] = {
                    "game": game, "players": players, "when": when,
                    "vector_worlds_per_cpu_s": round(v_rate), "vector_equity": round(v_eq, 4),
                    "vector_half_width": round(v_hw, 4),
                    "scalar_worlds_per_cpu_s": round(s_rate), "scalar_equity": round(s_eq, 4),
                    "scalar_half_width": round(s_hw, 4),
                    "vector_over_scalar": round(v_rate / s_rate, 1)}
                if args.pokerkit:
                    p_rate, p_eq = pokerkit_rate(game, players, board, args.pokerkit)
                    row.update(pokerkit_worlds_per_cpu_s=round(p_rate),
                               pokerkit_equity=round(p_eq, 4),
                               vector_over_pokerkit=round(v_rate / p_rate, 1))
                if args.json:
                    print(json.dumps(row), flush=True)
                else:
                    print(" ".join(f"{k}={v}" for k, v in row.items()), flush=True)


if __name__ == "__main__":
    main()
