"""Exact odds in games from game files: CPU of counting every deal left, as a ratio
to the sampled path (issue 33, branch s71-exact).

For each case (the largest :mod:`rollem.odds.fileexact` counts in each kind of
game, and hold'em at the river heads-up), seat 0's odds by
:func:`rollem.odds.filegame.file_game_odds` counted (``exact_limit``
:data:`rollem.odds.fileexact.FILE_EXACT_LIMIT`) and sampled (``--samples``
worlds, ``rollem odds --history``'s default 20,000), alternated run by run,
``--runs`` times each; CPU of this process (``time.process_time``, one thread).
Printed per case: the deals counted, the work (:func:`rollem.odds.fileexact.
exact_work`, five-card look-ups), the median CPU of each, the ratio
counted / sampled, nanoseconds per look-up, and both equities (the sampled one
with its 95% error) so that they can be seen to agree. ``cold``: the first
count in a fresh process (the combination tables built), once per case.

    OMP_NUM_THREADS=1 nice -n 5 .venv/bin/python bench/bench_file_exact.py \\
        [--runs 5] [--samples 20000] [--json]

``--play``: :func:`rollem.odds.play.play_odds` (as ``--show-odds`` shows it) on
heads-up hands played by calls and checks (seed 21) to the river, the turn, the
Omaha hi-lo river and five-card draw's first round, counted and with the count
switched off (the sampled batches to ±1.5 points), alternated run by run
(``time.thread_time``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from rollem.cards import parse_cards
from rollem.engine import Call, Check, Hand, SeededSource
from rollem.engine.game import Game
from rollem.engine.options import Options
from rollem.games import get
from rollem.odds import fileexact
from rollem.odds.filegame import file_game_odds, final_counts
from rollem.odds.result import Odds
from rollem.odds.view import SeatInfo, ViewInfo

CASES = [
    # (name, game, own cards, opponents' (up cards, hidden), board)
    ("hold'em river, heads-up", "holdem", "Qs Jd", [("", 2)], "Qh 9c 5d 2s Td"),
    ("hold'em turn, heads-up", "holdem", "Qs Jd", [("", 2)], "Qh 9c 5d 2s"),
    ("hold'em river, 3 players", "holdem", "Qs Jd", [("", 2), ("", 2)], "Qh 9c 5d 2s Td"),
    ("Omaha river, heads-up", "omaha", "As 2d Kh Kc", [("", 4)], "3c 7d Kd 9s 4h"),
    ("Omaha hi-lo river, heads-up", "omaha8", "As 2d Kh Kc", [("", 4)], "3c 7d Kd 9s 4h"),
    ("stud hi-lo 7th street, heads-up", "stud8", "As 2d 3h 9c 9s Kd 7h", [("4c 5d Qh Jh", 3)],
     ""),
    ("five-card draw, heads-up", "draw5", "As Ad 3h 4c 8s", [("", 5)], ""),
    ("deuces wild, heads-up", "deuces-wild", "As Ad 3h 4c 8s", [("", 5)], ""),
]


def _info(game: str, mine: str, opponents: list[tuple[str, int]], board: str) -> ViewInfo:
    return ViewInfo(
        game=game, seat=0, mine=[int(c) for c in parse_cards(mine)], my_up=[],
        board=[int(c) for c in parse_cards(board)] if board else [], dead=[], my_pool=[],
        wild_ranks=[0] if game == "deuces-wild" else [], pool=0, stub=0,
        opponents=[SeatInfo(i + 1, [int(c) for c in parse_cards(up)] if up else [], hidden,
                            None) for i, (up, hidden) in enumerate(opponents)],
        options={}, events=[], round="", pending=None, seen_out=[], my_discards=[],
        reshuffled=False, declared={}, folded_dealt=0, to_act=[])


def _work(game: str, info: ViewInfo) -> float:
    spec = get(game).spec
    assert spec is not None
    own, board = final_counts(spec, Options())
    players = [(info.mine, own - len(info.mine))]
    players += [(o.up, o.hidden + max(own - len(o.up) - o.hidden, 0)) for o in info.opponents]
    seen = len(info.mine) + len(info.board) + sum(len(o.up) for o in info.opponents)
    return fileexact.exact_work(spec, players, len(info.board), board - len(info.board),
                                52 - seen)


def _cpu(info: ViewInfo, game: Game, **kw: Any) -> tuple[float, Odds]:
    """CPU seconds of one call of :func:`file_game_odds` and its answer."""
    t = time.process_time()
    out = file_game_odds(info, game, **kw)
    return time.process_time() - t, out


def _heads_up(game: str, board: int, seed: int = 21) -> Hand:
    """A heads-up hand played by calls and checks until the board has ``board`` cards."""
    hand = Hand(game, [200, 200], button=0, source=SeededSource(seed))
    while len(hand.board) < board:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        legal = hand.legal_actions(seat)
        hand.apply(seat, Call() if "call" in legal.actions else Check())
    return hand


def play(runs: int) -> None:
    """The ``--play`` comparison (the module doc)."""
    from rollem.odds.play import play_odds

    real = fileexact.fits
    print(f"load average {os.getloadavg()[0]:.2f}; play_odds, median of {runs} runs each")
    for game, board in [("holdem", 5), ("holdem", 4), ("omaha8", 5), ("draw5", 0)]:
        hand = _heads_up(game, board)
        assert hand.pending is not None
        view = hand.view(hand.pending.seats[0])
        cpu: dict[str, list[float]] = {"exact": [], "sampled": []}
        last: dict[str, Odds] = {}
        try:
            for r in range(runs):
                for mode in ("exact", "sampled"):
                    fileexact.fits = real if mode == "exact" else _never  # type: ignore[assignment]
                    t = time.thread_time()
                    last[mode] = play_odds(view, seed=r + 1)
                    cpu[mode].append(time.thread_time() - t)
        finally:
            fileexact.fits = real  # type: ignore[assignment]
        e, s = last["exact"], last["sampled"]
        ce, cs = statistics.median(cpu["exact"]), statistics.median(cpu["sampled"])
        print(f"{game} ({board} board cards): exact {ce:.3f} s ({e.samples:,} deals, "
              f"{100 * e.equity:.2f}%) | sampled {cs:.3f} s ({s.samples:,} worlds, "
              f"{100 * s.equity:.2f} ± {100 * (s.interval or 0.0):.2f}) | ratio {ce / cs:.2f}")


def _never(*_args: object, **_kw: object) -> bool:
    return False


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--samples", type=int, default=20_000)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--play", action="store_true")
    args = ap.parse_args()
    if args.play:
        play(args.runs)
        return
    rows = []
    for name, game, mine, opponents, board in CASES:
        info = _info(game, mine, opponents, board)
        g = get(game)
        fileexact.combination_rows.cache_clear()
        fileexact.deal_index.cache_clear()
        cold, exact = _cpu(info, g, exact_limit=fileexact.FILE_EXACT_LIMIT)
        counted: list[float] = []
        sampled: list[float] = []
        mc = exact
        for r in range(args.runs):  # alternated run by run (the load varies)
            t, exact = _cpu(info, g, exact_limit=fileexact.FILE_EXACT_LIMIT)
            counted.append(t)
            t, mc = _cpu(info, g, samples=args.samples, seed=r + 1)
            sampled.append(t)
        assert exact.method == "exact" and mc.method == "monte-carlo"
        work = _work(game, info)
        c, s = statistics.median(counted), statistics.median(sampled)
        rows.append({"case": name, "deals": exact.samples, "work": work,
                     "cold_s": cold, "exact_s": c, "sampled_s": s, "ratio": c / s,
                     "ns_per_lookup": 1e9 * c / work, "exact_equity": exact.equity,
                     "sampled_equity": mc.equity, "sampled_95": 1.96 * mc.stderr})
    if args.json:
        print(json.dumps({"load": os.getloadavg(), "rows": rows}, indent=1))
        return
    print(f"load average {os.getloadavg()[0]:.2f}; median of {args.runs} runs each, "
          f"sampled: {args.samples:,} worlds")
    print(f"{'case':34} {'deals':>10} {'work (M)':>9} {'cold s':>7} {'exact s':>8} "
          f"{'sampled s':>9} {'ratio':>6} {'ns/look-up':>10}  equity exact | sampled")
    for r in rows:
        print(f"{r['case']:34} {r['deals']:>10,} {r['work'] / 1e6:>9.2f} {r['cold_s']:>7.3f} "
              f"{r['exact_s']:>8.3f} {r['sampled_s']:>9.3f} {r['ratio']:>6.2f} "
              f"{r['ns_per_lookup']:>10.1f}  {100 * r['exact_equity']:.2f}% | "
              f"{100 * r['sampled_equity']:.2f} ± {100 * r['sampled_95']:.2f}")


if __name__ == "__main__":
    main()
