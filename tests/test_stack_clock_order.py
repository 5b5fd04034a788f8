"""The clock's stacking order in 5-2-1 (R-C-15) told which cards a player drew
(branch s74-leak).

The clock stacked a seat's cards "in their current order", the order held, and a
draw puts its replacements after the kept cards (R-521-2, R-521-4).  The roll-ups
(R-521-7) then turned up the kept cards first: a seat that let its stacking time
out told the table which of its cards were kept and which drawn, what every view
and copy keeps hidden (:func:`rollem.engine.public_order.public_order`).  The clock
now stacks the cards in the places they were dealt to, each replacement in the
place of the card it replaced (:func:`rollem.engine.draw.held_in_places`).
"""

from __future__ import annotations

import random

from rollem.cards import CARDS
from rollem.engine import Hand, SeededSource
from rollem.engine.actions import Call, Check, Draw, Stack
from rollem.server.game_session import timeout_action


def _to_stacking(seed: int, draws: dict[int, list[tuple[int, ...]]]
                 ) -> tuple[Hand, dict[int, list[int]]]:
    """A 5-2-1 hand of 3 checking and calling players to its stacking; seat ``s``
    discards the cards at the places (0-based, of the five dealt) ``draws[s]`` names,
    one tuple a draw.  Returns the hand and each seat's cards by place, as dealt and
    replaced."""
    hand = Hand("rollem521", [100] * 3, button=0, source=SeededSource(seed))
    places = {s: list(hand.hole[s]) for s in range(3)}
    done = {s: 0 for s in range(3)}
    while hand.pending.kind != "stack":
        seat = hand.pending.seats[0]
        legal = hand.legal_actions(seat)
        if "draw" in legal.actions:
            which = draws.get(seat, [(), ()])[done[seat]]
            done[seat] += 1
            thrown = tuple(places[seat][i] for i in which)
            hand.apply(seat, Draw(thrown))
            new = [c for c in hand.hole[seat] if c not in places[seat]]
            for i, card in zip(sorted(which), new, strict=True):
                places[seat][i] = card
        else:
            hand.apply(seat, Check() if "check" in legal.actions else Call())
    return hand, places


def test_the_clock_stacks_each_replacement_in_the_place_of_the_card_it_replaced() -> None:
    # seat 0 throws the second and fourth cards, then the first; seat 1 stands pat
    hand, places = _to_stacking(3, {0: [(1, 3), (0,)], 2: [(4,), ()]})
    for seat in range(3):
        clock = timeout_action(hand, seat)
        assert isinstance(clock, Stack)
        assert list(clock.order) == places[seat], (seat, [str(CARDS[c]) for c in clock.order])
    # the order held is another: the kept cards, then the first draw's, then the second's
    assert hand.hole[0] == [places[0][2], places[0][4], places[0][1], places[0][3],
                            places[0][0]]


def test_the_first_card_the_clock_rolls_up_is_as_often_drawn_as_its_place_was() -> None:
    """Over many deals, each seat drawing two cards then one at random places, the
    first card rolled up (the clock's stacking) is a drawn one in about half the
    rolls, as often as its place was drawn to: in the order held it was never
    one (the kept cards rolled first)."""
    rng = random.Random(5)
    first_rolls = drawn = 0
    for seed in range(60):
        draws = {s: [tuple(rng.sample(range(5), 2)), tuple(rng.sample(range(5), 1))]
                 for s in range(3)}
        hand, _places = _to_stacking(seed, draws)
        dealt: dict[int, set[int]] = {s: set() for s in range(3)}
        for e in hand.events:
            if e.kind == "deal_hole":
                dealt[e.seat].update(e.data["cards"])
        while not hand.is_over:
            seat = hand.pending.seats[0]
            legal = hand.legal_actions(seat)
            if "stack" in legal.actions or "declare" in legal.actions:
                hand.apply(seat, timeout_action(hand, seat))
            else:
                hand.apply(seat, Check() if "check" in legal.actions else Call())
        rolled: set[int] = set()
        for e in hand.events:
            if e.kind == "roll" and e.seat not in rolled:
                rolled.add(e.seat)
                first_rolls += 1
                drawn += e.data["card"] not in dealt[e.seat]
    assert first_rolls == 60 * 3
    assert 0.3 < drawn / first_rolls < 0.7, (drawn, first_rolls)  # (85 of 180)


def test_held_in_places_without_a_draw_is_the_order_dealt() -> None:
    from rollem.engine.draw import held_in_places

    hand, places = _to_stacking(11, {})
    for seat in range(3):
        assert list(held_in_places(hand, seat)) == places[seat] == list(hand.hole[seat])


def test_the_stacking_lists_the_cards_in_the_places_dealt() -> None:
    """What a player keeps with "Keep as dealt" (the web table's button, the
    terminal's ``k``) is the stacking decision's card list: the places dealt, not
    the order held, whose drawn cards come last (stop 74: the button kept the order
    held and so told the table, as the cards rolled up, which were drawn)."""
    hand, places = _to_stacking(3, {0: [(1, 3), (0,)], 2: [(4,), ()]})
    for seat in range(3):
        assert list(hand.legal_actions(seat).cards) == places[seat], seat
    assert hand.hole[0] != places[0]  # (the order held: another)
