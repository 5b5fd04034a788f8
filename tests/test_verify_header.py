"""``rollem verify`` of a full history checks its PHH header's forced bets and
bet sizes against its ``_options``, as ``rollem replay`` and a player's copy
do (s62-fresh).

A full history with ``antes``, ``blinds_or_straddles`` or ``small_bet``
rewritten was "verified" (every card is where the committed deck put it)
while ``rollem replay`` refused the same file ("antes = [1, 0, 1] contradicts
_options"): the header is what the narration and other PHH readers read.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from rollem.bots.random_bot import random_action
from rollem.engine import Hand
from rollem.engine.commit_reveal import ZERO_HASH, CommittedSource, DealProof
from rollem.history import HistoryError, replay, write_history
from rollem.verify import verify_text


def _full(game: str) -> str:
    rng = random.Random(1)
    proof = DealProof(hashlib.sha256(game.encode()).digest(), {0: "a", 1: "b", 2: "c"}, 1,
                      ZERO_HASH)
    hand = Hand(game, [200] * 3, button=0, source=CommittedSource(proof))
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        hand.apply(seat, random_action(hand.legal_actions(seat), rng))
    return write_history(hand, players=["Ann", "Bob", "Cy"])


@pytest.mark.parametrize(("game", "old", "new", "said"), [
    ("sdr", "antes = [\n    1,\n    1,", "antes = [\n    1,\n    0,",
     "antes = [1, 0, 1] contradicts _options (ante = 1): the hand's antes are [1, 1, 1]"),
    ("sdr", "small_bet = 2\nbig_bet = 4\nstarting", "small_bet = 3\nbig_bet = 4\nstarting",
     "small_bet = 3 contradicts _options (small_bet = 2)"),
    ("holdem", "blinds_or_straddles = [\n    0,", "blinds_or_straddles = [\n    5,",
     "blinds_or_straddles = [5, 1, 2] contradicts _options: the hand posts [0, 1, 2]"),
], ids=["antes", "small_bet", "blinds"])
def test_a_full_history_with_a_rewritten_header_fails(game: str, old: str, new: str,
                                                      said: str) -> None:
    text = _full(game)
    assert verify_text(text).status == "verified"
    bad = text.replace(old, new, 1)
    assert bad != text
    with pytest.raises(HistoryError, match="contradicts _options"):
        replay(bad)
    verdict = verify_text(bad)
    assert verdict.status == "failed"
    assert verdict.reason == said
