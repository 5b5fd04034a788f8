"""What padding a seat's view to a public length costs (stop 55, :mod:`rollem.server.own_pad`).

Plays ``--hands`` seeded hands of each of ``--games`` at a ``--seats`` table by
random legal actions and, after every action, builds the view text of every
seat (:meth:`rollem.server.game_session.GameSession.view_json`, what a
broadcast sends each seat; a watcher's is built only as the padding needs it,
as at a table with no watcher).  Runs alternate (ABAB) between the padding on
and off (``pad_view`` replaced by the text as it is: main's behaviour), in one
process after the server's warm-up.  Reports, per run, CPU microseconds (this thread) per seat
state, and over the padded runs the bytes a seat's state had before and after
padding (mean, and the own part's largest share of the allowance).

    .venv/bin/python bench/bench_own_pad.py [--hands 8] [--runs 4] [--seats 6] [--viewers 1]
        [--games holdem,stud,rollyourown,rollem521]
"""

from __future__ import annotations

import argparse
import statistics
import time

from random_sessions import random_play
from rollem.server import game_session
from rollem.server.game_session import warm_up
from rollem.server.own_pad import own_allowance, pad_view


def one_run(games: list[str], hands: int, seats: int, pad: bool,
            sizes: list[tuple[int, int, int]], viewers: int | None = None) -> float:
    """Microseconds per seat state; appends (raw, padded, watcher) lengths to ``sizes``."""
    names = [f"p{i}" for i in range(seats)]
    game_session.pad_view = pad_view if pad else (lambda own, watcher: own)  # type: ignore[assignment]
    spent, states = 0.0, 0
    for session in random_play(games, hands, seats, names):
        start = time.thread_time()
        texts = [session.view_json(viewer, names) for viewer in range(viewers or seats)]
        spent += time.thread_time() - start
        states += len(texts)
        if pad:
            watcher = len(session.view_json(None, names))
            sizes.extend((len(t.rstrip(" }")) + 1, len(t), watcher) for t in texts)
    game_session.pad_view = pad_view
    return 1e6 * spent / states


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=8)
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--seats", type=int, default=6)
    parser.add_argument("--games", default="holdem,stud,rollyourown,rollem521")
    parser.add_argument("--viewers", type=int, default=None,
                        help="seats whose states are built (default: all; 1: one person "
                             "among computer players, the padding's dearest case)")
    args = parser.parse_args()
    games = args.games.split(",")
    warm_up()
    times: dict[bool, list[float]] = {True: [], False: []}
    sizes: list[tuple[int, int, int]] = []
    for _ in range(args.runs):
        for pad in (False, True):
            times[pad].append(one_run(games, args.hands, args.seats, pad, sizes,
                                      args.viewers))
    for pad in (False, True):
        print(f"{'padded' if pad else 'as main'}: us per seat state "
              f"{' '.join(f'{t:.1f}' for t in times[pad])} "
              f"(median {statistics.median(times[pad]):.1f})")
    raw = statistics.fmean(r for r, _, _ in sizes)
    padded = statistics.fmean(p for _, p, _ in sizes)
    share = max((r - w) / own_allowance(w) for r, _, w in sizes)
    print(f"bytes per seat state: {raw:.0f} raw, {padded:.0f} padded "
          f"(+{padded - raw:.0f}, x{padded / raw:.2f}; {len(sizes)} states); "
          f"own part at most {share:.2f} of the allowance")


if __name__ == "__main__":
    main()
