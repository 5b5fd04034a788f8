"""What a web table state costs to build, with and without the felt's words (issue 26).

Plays ``--hands`` seeded hands of each of ``--games`` at a 6-seat table by random
legal actions and, after every action, builds the state text of every viewer
(six seats and a watcher: :meth:`rollem.server.game_session.GameSession.view_json`,
what every broadcast sends).  Reports microseconds per viewer state, median of
``--runs`` runs, with the felt's words (``hand_name``, ``log``, ``last_actions``)
and with them left out (``GameSession._add_felt`` a no-op: the state as before
issue 26), runs interleaved, after the server's warm-up.  No network, no store:
the state build alone, the part of ``bench/bench_web_load.py``'s figure that
these words add to.

    .venv/bin/python bench/bench_web_state.py [--hands 12] [--runs 3]
        [--games sdr,rollyourown,rollem521,holdem]
"""

from __future__ import annotations

import argparse
import statistics
import time

from random_sessions import random_play
from rollem.server.game_session import GameSession, warm_up

SEATS = 6


def one_run(games: list[str], hands: int, felt: bool) -> float:
    """Microseconds per viewer state over ``hands`` hands of each game."""
    names = [f"p{i}" for i in range(SEATS)]
    saved = GameSession._add_felt
    if not felt:
        GameSession._add_felt = (  # type: ignore[method-assign]
            lambda self, data, seat, names, log_json=False: b"")
    try:
        spent, states = 0.0, 0
        for session in random_play(games, hands, SEATS, names):
            start = time.perf_counter()
            for viewer in (None, *range(SEATS)):
                session.view_json(viewer, names)
            spent += time.perf_counter() - start
            states += SEATS + 1
        return 1e6 * spent / states
    finally:
        GameSession._add_felt = saved  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--games", default="sdr,rollyourown,rollem521,holdem")
    args = parser.parse_args()
    games = args.games.split(",")
    warm_up()  # as `rollem serve` does: tables built on first use are not counted
    results: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(args.runs):
        for felt in (False, True):
            results[felt].append(one_run(games, args.hands, felt))
    for felt in (False, True):
        runs = ", ".join(f"{x:.1f}" for x in results[felt])
        print(f"{'with' if felt else 'without'} the felt's words: "
              f"{statistics.median(results[felt]):.1f} us per viewer state (runs: {runs})")


if __name__ == "__main__":
    main()
