"""A place given while a rebuy is still open may not move (stop 59, branch
s59-night): at a tournament night four players busted in one hand while rebuys
were open; the computer player among them (it never rebuys) was listed "3rd", a
paid place of 50/30/20, while the three friends decided, and became "4th"
(unpaid, shared with two of them) when one rebought.  Now a bust's place is
given only once no rebuy can move it: not while one busted in the same hand,
or before, may still buy in again."""

from __future__ import annotations

from rollem.tournament import SCHEDULES
from rollem.tournament.session import Tournament


def _four_bust_in_one_hand() -> tuple[Tournament, list[int]]:
    """Six entrants (seats 0-5), rebuys in level 1; hand 1: seats 1, 2, 3 and 5
    bust, seat 1 having started it with 20 chips, the others 40."""
    t = Tournament(SCHEDULES["turbo"], 6, buy_in=20, rebuy_levels=1)
    t.record([40, 20, 40, 40, 40, 40], [100, 0, 0, 0, 80, 0])
    return t, [100, 0, 0, 0, 80, 0]


def test_no_place_is_given_that_a_waiting_rebuy_may_move() -> None:
    t, stacks = _four_bust_in_one_hand()
    t.decline_rebuy(5)  # (the web table declines for a computer player at once)
    assert t.places(stacks)[5] == 3  # (the count as if nobody rebought)
    assert t.rebuy_waiting() == [1, 2, 3]
    # seat 5 (a computer player: never rebuys) has no place yet (main: "3rd")
    assert t.places_known(stacks) == {}
    assert [line["place"] for line in t.ledger(stacks)] == [None] * 6
    t.decline_rebuy(2)
    t.decline_rebuy(3)
    assert t.places_known(stacks) == {}  # (seat 1 may still rebuy)
    t.rebuy(1)
    stacks[1] = 100
    # seat 1's bust is taken back: 2, 3 and 5 share 4th (of 4th to 6th)
    assert t.places_known(stacks) == {2: 4, 3: 4, 5: 4}
    assert [line["place"] for line in t.ledger(stacks)] == [None, None, 4, 4, None, 4]


def test_a_bust_before_a_waiting_rebuy_keeps_its_place() -> None:
    """A bust in an earlier hand than the one who may still rebuy is placed:
    a rebuy after it cannot move it (it took the worst place still open)."""
    t = Tournament(SCHEDULES["turbo"], 4, buy_in=10, rebuy_levels=1)
    t.record([40, 40, 40, 40], [80, 40, 40, 0])       # hand 1: seat 3 (out for good)
    t.decline_rebuy(3)
    t.record([80, 40, 40, 0], [120, 0, 40, 0])        # hand 2: seat 1, may rebuy
    stacks = [120, 0, 40, 0]
    assert t.places_known(stacks) == {3: 4}
    t.decline_rebuy(1)
    assert t.places_known(stacks) == {3: 4, 1: 3}
