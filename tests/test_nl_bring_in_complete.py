"""s74-night: facing a stud bring-in nobody has completed, a raise completes it
to the round's bet (R-C-6's completion) in pot and no limit as in fixed limit:
no-limit razz at the web table, ante 1, bring-in 1, bets 2/4, offered the seat
after the bring-in "Complete to 3" (the bring-in plus a bet), while the
bring-in seat itself may complete to 2 -- and PokerKit, whose differential
tests check the fixed-limit games, completes to the small bet in every
structure (``min_completion_betting_or_raising_to_amount``)."""

from __future__ import annotations

import pytest

from rollem.engine import Call, Hand, Options, Raise, SeededSource


def _after_bring_in(game: str, structure: str) -> tuple[Hand, int]:
    """A 4-handed hand of ``game`` (ante 1, bring-in 1, bets 2/4) with the bring-in
    posted: the hand and the seat to act, facing it."""
    hand = Hand(game, [100, 100, 100, 100], button=0, source=SeededSource(3),
                options=Options(structure=structure, ante=1, small_bet=2, big_bet=4))
    [bringer] = hand.pending.seats
    assert hand.legal_actions(bringer).forced == "bring-in"
    hand.apply(bringer, Call())  # (posts the bring-in of 1)
    [seat] = hand.pending.seats
    return hand, seat


@pytest.mark.parametrize("structure", ["no-limit", "pot-limit", "fixed-limit"])
@pytest.mark.parametrize("game", ["razz", "stud"])
def test_facing_the_bring_in_a_raise_completes_to_the_small_bet(game: str,
                                                                structure: str) -> None:
    hand, seat = _after_bring_in(game, structure)
    legal = hand.legal_actions(seat)
    assert legal.forced == "complete" and legal.call_amount == 1
    assert legal.min_to == 2  # (main, pot and no limit: 3)
    # pot limit: the pot after calling (4 antes, the bring-in, the call: 6) on
    # top of the bring-in; no limit: all in
    assert legal.max_to == {"no-limit": 99, "pot-limit": 7, "fixed-limit": 2}[structure]
    hand.apply(seat, Raise(2))
    assert hand.current_bet == 2 and hand.full_level == 2 and hand.n_full == 1
    # the completion is a full bet: the next raise is by a full bet again
    [after] = hand.pending.seats
    assert hand.legal_actions(after).min_to == 4
