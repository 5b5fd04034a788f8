"""Snapshot histories of our three games played by their former Python definitions
(tests/legacy_games.py) with the current engine and history writer: the game files
must replay them byte for byte (tests/test_gamefile_builtin.py). Rerun after a change
of the history format:  .venv/bin/python scripts/gen_builtin_snapshots.py
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from legacy_games import ROLL_YOUR_OWN, ROLLEM521, SDR  # noqa: E402
from rollem.bots.random_bot import random_action  # noqa: E402
from rollem.engine import Hand, Options, SeededSource  # noqa: E402
from rollem.history import write_history  # noqa: E402

LEGACY = {"sdr": SDR, "rollyourown": ROLL_YOUR_OWN, "rollem521": ROLLEM521}
CASES: list[tuple[str, dict[str, Any]]] = [
    ("sdr", {}), ("sdr", {"house": {"burn_before_roll": True}}),
    ("sdr", {"structure": "no-limit"}),
    ("rollyourown", {}),
    ("rollyourown", {"structure": "pot-limit", "house": {"wild_duplicates": True}}),
    ("rollem521", {}),
    ("rollem521", {"house": {"bet_after_declare": True, "failed_both_rule": "split"}}),
    ("rollem521", {"structure": "no-limit", "caps": (1, 2)}),
]


def main() -> None:
    out = ROOT / "tests" / "histories" / "builtin"
    out.mkdir(parents=True, exist_ok=True)
    for k, (game, opt) in enumerate(CASES):
        for seed in range(3):
            rng = random.Random(1000 * k + seed)
            n = rng.randint(2, 6)
            stacks = [rng.choice([5, 20, 60, 200]) for _ in range(n)]
            hand = Hand(LEGACY[game], stacks, button=seed % n, options=Options(**opt),
                        source=SeededSource(seed + 17 * k))
            while not hand.is_over:
                assert hand.pending is not None
                seat = hand.pending.seats[0]
                hand.apply(seat, random_action(hand.legal_actions(seat), rng))
            (out / f"{game}_{k}_{seed}.toml").write_text(write_history(hand))


if __name__ == "__main__":
    main()
