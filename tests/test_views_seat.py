"""``Hand.view(seat)`` for a seat the hand does not have (stop 51): a clear
error, never a view.  Before, ``view(9)`` at a 2-seat hand was a spectator's
view with a ``legal`` of nothing, ``view(-1)`` the same, and ``view(True)`` was
seat 1's own view with its hole cards; after the hand ``view(9)`` raised an
``IndexError``.  A spectator is ``None``: it holds no card a player holds face
down (R-C-13), before and after the showdown."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rollem.bots.random_bot import random_action
from rollem.engine import EngineError, Hand, SeededSource
from rollem.engine.views import build_view


def _hand() -> Hand:
    return Hand("sdr", [200, 200], button=1, source=SeededSource(7))


@pytest.mark.parametrize("seat", [2, 9, -1, -2])
def test_a_seat_the_hand_does_not_have_is_a_clear_error(seat: int) -> None:
    hand = _hand()
    with pytest.raises(EngineError) as caught:
        hand.view(seat)
    assert str(caught.value) == (f"view of seat {seat}: no such seat; the viewer is a seat "
                                 "0..1 of this 2-seat hand, or None for a spectator")
    base = build_view(hand, None, events=False)
    with pytest.raises(EngineError):  # (the web table's shared-base path too)
        build_view(hand, seat, events=False, base=base)


@pytest.mark.parametrize(("seat", "named"), [(True, "bool True"), ("0", "str '0'"),
                                              (1.0, "float 1.0")])
def test_a_viewer_that_is_no_int_is_a_type_error(seat: Any, named: str) -> None:
    with pytest.raises(TypeError) as caught:
        _hand().view(seat)
    assert str(caught.value).startswith(f"view of {named}: the viewer is a seat 0..1 "), caught


def test_a_spectator_sees_no_hole_card_and_a_seat_only_its_own() -> None:
    hand = _hand()
    watcher, ann, bob = hand.view(None), hand.view(0), hand.view(1)
    assert [s.cards for s in watcher.seats] == [[None, None], [None, None]]
    assert watcher.legal is None and watcher.my_pool == []
    assert ann.seats[1].cards == [None, None] and None not in ann.seats[0].cards
    assert bob.seats[0].cards == [None, None] and bob.seats[1].cards == ["Js", "4h"]
    held = {c for view in (ann, bob) for s in view.seats for c in s.cards if c is not None}
    for e in watcher.events:  # (no event tells a spectator a hole card)
        assert not held & {str(v) for v in e.values()}, e


def test_after_the_hand_an_unknown_seat_is_the_same_error() -> None:
    hand, rng = _hand(), random.Random(3)
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        hand.apply(seat, random_action(hand.legal_actions(seat), rng))
    with pytest.raises(EngineError) as caught:  # (was an IndexError from hand.showable)
        hand.view(9)
    assert str(caught.value).startswith("view of seat 9: no such seat; ")
    assert hand.result is not None
    shown = set(hand.result.shown_cards)
    for s in hand.view(None).seats:  # (only the cards shown at the showdown)
        assert s.cards == [] or (None in s.cards) == (s.seat not in shown), s
