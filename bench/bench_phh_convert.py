"""``rollem convert`` round trips on many hands (tests/test_phh_convert.py runs
a few per game).

For each PHH variant rollem plays (FT, NT, PO, FO/8, F7S, F7S/8, FR):

- rollem -> PHH -> rollem -> PHH: rollem plays HANDS random hands (as in
  bench_phh_roundtrip.py), its history goes to PHH
  (``rollem.phh.convert.history_to_phh``), back to a rollem history
  (``phh_to_history``) and to PHH again; counted: the second PHH equal to
  the first, and the converted history replaying to each player's stacks;
- PokerKit -> PHH -> rollem -> PHH: PokerKit plays HANDS random hands
  (``HandHistory.from_game_state``, as in bench_phh_roundtrip.py), each
  goes to a rollem history and back; counted: equal to PokerKit's file
  (comments aside, amounts as numbers), or equal but for the order of the
  shows (rollem writes them in its engine's order, R-C-11, which after an
  all-in runout is not PokerKit's; the stacks are the same either way).

Anything refused or different is counted by its first words and printed
with its seed (at most three a variant).

    .venv/bin/python bench/bench_phh_convert.py [--hands 1000]
"""

from __future__ import annotations

import argparse
import sys
import time
import tomllib
from collections import Counter
from decimal import Decimal
from pathlib import Path
from typing import Any

import tomli_w

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))

from rollem.history import HistoryError, replay, write_history
from rollem.phh import PHHError, read_phh
from rollem.phh.convert import history_to_phh, phh_to_history
from test_phh import GAMES, _our_hand, _pokerkit_hand


def _same_amounts(a: Any, b: Any) -> bool:
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same_amounts(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, str) and isinstance(b, str):
        x, y = a.split("#")[0].split(), b.split("#")[0].split()
        if len(x) == len(y) == 3 and x[1] == y[1] == "cbr":
            return x[0] == y[0] and Decimal(x[2]) == Decimal(y[2])
        return x == y
    return bool(a == b)


def _shows_sorted(lines: list[str]) -> list[str]:
    """Each run of show lines (``pN sm ...``) in player order."""
    out: list[str] = []
    run: list[str] = []
    for line in [*lines, ""]:
        if line.split()[1:2] == ["sm"]:
            run.append(line)
            continue
        out += sorted(run)
        run = []
        if line:
            out.append(line)
    return out


def ours(code: str, hands: int, shown: list[int]) -> Counter[str]:
    tally: Counter[str] = Counter()
    for seed in range(hands):
        hand = _our_hand(code, seed)
        names = [f"P{s}" for s in range(hand.n)]
        try:
            phh = history_to_phh(tomllib.loads(write_history(hand, players=names)))
            back = phh_to_history(read_phh(tomli_w.dumps(phh)))
            again = history_to_phh(tomllib.loads(tomli_w.dumps(back)))
            stacks = dict(zip(back["players"], replay(back).stacks, strict=True))
        except (PHHError, HistoryError) as err:
            key = "refused: " + " ".join(str(err).split()[:6])
            tally[key] += 1
            if shown[0] < 3:
                shown[0] += 1
                print(f"  {code} seed {seed}: {err}")
            continue
        want = {names[s]: hand.stacks[s] for s in range(hand.n) if hand.dealt[s]}
        tally["same PHH and stacks" if again == phh and stacks == want else "different"] += 1
    return tally


def pokerkit(code: str, hands: int, shown: list[int]) -> Counter[str]:
    tally: Counter[str] = Counter()
    for seed in range(hands):
        text, _ = _pokerkit_hand(code, seed)
        source = read_phh(text)
        try:
            back = history_to_phh(tomllib.loads(tomli_w.dumps(phh_to_history(source)),
                                                parse_float=Decimal))
        except (PHHError, HistoryError) as err:
            key = "refused: " + " ".join(str(err).split()[:6])
            tally[key] += 1
            if shown[0] < 3:
                shown[0] += 1
                print(f"  {code} seed {seed}: {err}")
            continue
        same = list(back) == list(source) and all(_same_amounts(back[k], source[k])
                                                  for k in source)
        if same:
            tally["same as PokerKit's file"] += 1
        elif list(back) == list(source) and all(_same_amounts(
                _shows_sorted(back[k]) if k == "actions" else back[k],
                _shows_sorted(source[k]) if k == "actions" else source[k]) for k in source):
            tally["same but the order of the shows"] += 1
        else:
            tally["different"] += 1
            if shown[0] < 3:
                shown[0] += 1
                print(f"  {code} seed {seed}: {back['actions']} for {source['actions']}")
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1000)
    args = parser.parse_args()
    total = 0.0
    for code in GAMES:
        shown = [0]
        start = time.perf_counter()
        a = ours(code, args.hands, shown)
        b = pokerkit(code, args.hands, shown)
        took = time.perf_counter() - start
        total += took
        print(f"{code}: rollem->PHH->rollem->PHH {dict(a)}; PokerKit->rollem->PHH {dict(b)}; "
              f"{took:.1f} s ({1000 * took / (2 * args.hands):.1f} ms a hand)")
    print(f"all: {total:.1f} s")


if __name__ == "__main__":
    main()
