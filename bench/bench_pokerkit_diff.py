"""The PokerKit differential on many hands (the tests run 60 per game).

For each of hold'em fixed and no limit, Omaha pot limit, Omaha hi-lo,
stud, stud hi-lo and razz: play HANDS random hands in rollem (the shipped
game files) and PokerKit with the same cards and actions; every legal action
set and the final stacks must agree (``tests/pokerkit_diff.py``). Prints the
hands, decisions compared and known fixed-limit divergences per game.

    .venv/bin/python bench/bench_pokerkit_diff.py [--hands 2000]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))

from pokerkit_diff import VARIANTS, Tally, play_both


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per game")
    args = parser.parse_args()
    for name, variant in VARIANTS.items():
        tally = Tally()
        start = time.perf_counter()
        for seed in range(args.hands):
            play_both(variant, seed, tally)
        print(f"{name:10s} {args.hands} hands agree: {tally.decisions} decisions, "
              f"{tally.known} known fixed-limit all-in divergences, {tally.odd_chips} hands "
              f"with the hi-lo odd chip placed by R-C-10 "
              f"({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
