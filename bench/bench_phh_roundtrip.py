"""PHH round trips on many hands (tests/test_phh.py runs 30 per variant).

For each PHH variant rollem plays (all 11 of phh-std 0.0.2, or ``--variants``):

- rollem plays HANDS random hands (2 to the game's most players, the button
  anywhere), writes each as PHH (``rollem.phh.write_phh``), PokerKit's
  ``HandHistory.loads`` replays it: its finishing stacks against rollem's;
- PokerKit plays HANDS random hands (cash game, antes as in
  tests/test_phh.py: a big-blind ante in NT, a button ante in FO/8),
  writes them with ``HandHistory.from_game_state``, rollem replays each
  (``rollem.phh.replay_phh``): its finishing stacks against PokerKit's.

Each difference is counted under its known cause (tests/pokerkit_diff.py):
a fixed-limit all-in short of a full bet or raise (R-C-6), the odd chips of
a split pot (R-C-10); anything else is printed with its seed.

    .venv/bin/python bench/bench_phh_roundtrip.py [--hands 1000] [--variants FB,NS]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))

from rollem.phh import PHHError, read_phh, replay_phh, write_phh
from test_phh import GAMES, PK_GAMES, _known_divergence, _our_hand, _pokerkit_hand, _pokerkit_stacks


def ours_to_pokerkit(code: str, hands: int) -> Counter[str]:
    tally: Counter[str] = Counter()
    for seed in range(hands):
        hand = _our_hand(code, seed)
        text = write_phh(hand)
        ours = [hand.stacks[s] for s in read_phh(text)["_seats"]]
        try:
            theirs = _pokerkit_stacks(text)
        except Exception as err:  # PokerKit refuses the file
            theirs = None
            why = f"{type(err).__name__}: {err}"
        if theirs == ours:
            tally["agree"] += 1
        elif _known_divergence(hand):
            short = hand.options.structure == "fixed-limit" and any(
                e.kind in ("bet", "raise") and e.data.get("all_in") for e in hand.events)
            tally["R-C-6 short all-in" if short else "R-C-10 odd chips"] += 1
        else:
            tally["unexplained"] += 1
            print(f"  {code} seed {seed}: rollem {ours}, PokerKit "
                  f"{theirs if theirs is not None else why}")
    return tally


def pokerkit_to_ours(code: str, hands: int) -> Counter[str]:
    tally: Counter[str] = Counter()
    for seed in range(hands):
        text, stacks = _pokerkit_hand(code, seed)
        try:
            replayed = replay_phh(read_phh(text))
            got = replayed.finishing_stacks
        except PHHError as err:
            if "cannot do that" in str(err) and code not in ("NT", "PO"):
                tally["refused (R-C-6: after a short all-in)"] += 1
            else:
                tally["unexplained"] += 1
                print(f"  {code} seed {seed}: refused: {err}")
            continue
        if got == stacks:
            tally["agree"] += 1
        elif sum(a - b for a, b in zip(got or [], stacks, strict=True)) == 0 and (
                code in ("FO/8", "F7S/8") or _known_divergence(replayed.hand)):
            tally["R-C-10 odd chip"] += 1  # (hi-lo halves; a pot split three ways or more)
        else:
            tally["unexplained"] += 1
            print(f"  {code} seed {seed}: rollem {got}, PokerKit {stacks}")
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="hands per variant and way")
    parser.add_argument("--variants", default=",".join(GAMES),
                        help=f"PHH codes, comma-separated (default all: {','.join(GAMES)})")
    args = parser.parse_args()
    codes = [c for c in args.variants.split(",") if c]
    unknown = [c for c in codes if c not in GAMES]
    if unknown:
        parser.error(f"--variants: unknown {unknown[0]!r}; allowed: {', '.join(GAMES)}")
    for code in codes:
        start = time.perf_counter()
        out = ours_to_pokerkit(code, args.hands)
        print(f"{code:6s} rollem -> PHH -> PokerKit: {dict(out)} "
              f"({time.perf_counter() - start:.1f} s)")
        if code in PK_GAMES:
            start = time.perf_counter()
            back = pokerkit_to_ours(code, args.hands)
            print(f"{code:6s} PokerKit -> PHH -> rollem: {dict(back)} "
                  f"({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
