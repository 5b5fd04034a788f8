"""``rollem odds --history`` on a 10-player Omaha hi-lo hand (stop 51): the time of
:func:`rollem.odds.history.history_odds` (20,000 worlds, the command's default)
before the flop (``--at 0``) and on the river, with the worlds scored by numpy
(:mod:`rollem.odds.filegame_batch`) and by the per-world scorer it replaced, in
alternation (ABAB) in one process, one core.  Both give the same odds (the same
worlds); printed: each run's seconds, the medians and their ratio.

The hand: ten seats of 200, everyone checks or calls down (so all ten reach the
river), seeded.

    nice -n 15 .venv/bin/python bench/bench_omaha_history.py [--rounds 3] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import rollem.odds.filegame_batch as batch
from rollem.engine import Call, Check, Hand, SeededSource
from rollem.history import write_history
from rollem.odds.history import history_odds


def _history(seed: int) -> str:
    hand = Hand("omaha8", [200] * 10, button=0, source=SeededSource(seed))
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        legal = hand.legal_actions(seat)
        hand.apply(seat, Check() if "check" in legal.actions else Call())
    return write_history(hand)


def _run(text: str, at: int | None, numpy_worlds: bool) -> tuple[float, float]:
    """CPU seconds of one history_odds, and its equity."""
    fits = batch.batch_fits
    if not numpy_worlds:
        batch.batch_fits = lambda *a: False  # type: ignore[assignment]
    try:
        t = time.process_time()
        odds, _ = history_odds(text, 0, at=at, seed=3)
        return time.process_time() - t, odds.equity
    finally:
        batch.batch_fits = fits


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    text = _history(args.seed)
    history_odds(text, 0, at=0, samples=200, seed=1)  # (imports, tables)
    for at, label in ((0, "before the flop"), (None, "the river (seat 0 drawing dead)")):
        times: dict[bool, list[float]] = {True: [], False: []}
        equity: dict[bool, float] = {}
        for _ in range(args.rounds):
            for numpy_worlds in (True, False):
                seconds, equity[numpy_worlds] = _run(text, at, numpy_worlds)
                times[numpy_worlds].append(seconds)
        fast, slow = statistics.median(times[True]), statistics.median(times[False])
        print(f"{label}: numpy {[round(t, 2) for t in times[True]]} s, per world "
              f"{[round(t, 2) for t in times[False]]} s; medians {fast:.2f} / {slow:.2f} s "
              f"(x{slow / fast:.1f}); equity {equity[True]:.6f} == {equity[False]:.6f}: "
              f"{equity[True] == equity[False]}")


if __name__ == "__main__":
    main()
