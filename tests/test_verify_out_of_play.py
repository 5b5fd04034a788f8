"""A player's copy of a hand with an out-of-play discard is checked to its end
(s62-fresh, docs/verify.md).

A game file's discard that no later step draws from (Crazy Pineapple, the
worked example of docs/write-your-own-game.md) still shuffles the discards as
a pool, from the dealer's secret stream, but the turn and the river come from
the committed deck after it.  The copy's check stopped at that shuffle ("not
checked from line 13 ... the pool's shuffle"), so a copy with its turn and
river swapped verified as "ok".  Roll Your Own's pool, which later draws and
the wild pick use, still stops the check.
"""

from __future__ import annotations

import hashlib
import random
import re
import tomllib
from pathlib import Path

from rollem.engine import Call, Check, Discard, Hand
from rollem.engine.commit_reveal import ZERO_HASH, CommittedSource, DealProof
from rollem.games.gamefile import load_game
from rollem.history import write_own_copy
from rollem.verify import verify_history, verify_text

PAGE = Path(__file__).parent.parent / "docs" / "write-your-own-game.md"


def _pineapple(k: int, players: int = 3) -> Hand:
    """Crazy Pineapple from a committed deck, everyone calling to the showdown,
    each discarding a random one of its three cards."""
    game = load_game(str(re.findall(r"```toml\n(.*?)```", PAGE.read_text(), flags=re.S)[0]))
    rng = random.Random(k)
    proof = DealProof(hashlib.sha256(f"pineapple{k}".encode()).digest(),
                      {s: f"c{s}x{k}" for s in range(players)}, k, ZERO_HASH)
    hand = Hand(game, [200] * players, button=k % players, source=CommittedSource(proof))
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        legal = hand.legal_actions(seat)
        if "discard" in legal.actions:
            hand.apply(seat, Discard((rng.choice(legal.cards),)))
        else:
            hand.apply(seat, Call() if "call" in legal.actions else Check())
    return hand


def test_an_out_of_play_discard_does_not_stop_a_copys_check() -> None:
    for k in range(3):
        hand = _pineapple(k)
        board = len(hand.board)
        assert board == 5 and [label for label, _ in hand.source.outcomes] == ["deck", "pool"]
        for seat in range(hand.n):
            verdict = verify_text(write_own_copy(hand, seat))
            assert verdict.status == "verified", verdict.reason
            assert "not checked" not in verdict.reason
            # its two hole cards, the flop, turn and river, and the shown hands
            assert verdict.cards >= 2 + board


def test_a_copy_with_its_turn_and_river_swapped_fails() -> None:
    data = tomllib.loads(write_own_copy(_pineapple(1), 0))
    lines = data["actions"]
    turn = next(i for i, line in enumerate(lines) if line.endswith("# turn"))
    river = next(i for i, line in enumerate(lines) if line.endswith("# river"))
    t, r = lines[turn].split()[2], lines[river].split()[2]
    bad = dict(data, actions=list(lines))
    bad["actions"][turn] = lines[turn].replace(t, r)
    bad["actions"][river] = lines[river].replace(r, t)
    verdict = verify_history(bad)
    assert verdict.status == "failed"
    assert verdict.reason.startswith(f"line {turn + 1} of actions (d db {r} # turn)")
    assert f"the replay deals d db {t} here" in verdict.reason
