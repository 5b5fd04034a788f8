"""The engine's refusals name the action refused in a player's words (a web
player reads them): "got bet 100", not "got Bet(amount=100)"."""

from __future__ import annotations

import pytest

from rollem.cards import parse_cards
from rollem.engine import Hand, IllegalAction, SeededSource
from rollem.engine.actions import (
    Bet,
    Declare,
    Discard,
    Draw,
    Expose,
    PickWild,
    Raise,
    RunTwice,
    Show,
    Stack,
    action_words,
)


def test_each_action_in_words() -> None:
    ah_kd = tuple(parse_cards("Ah Kd"))
    assert [action_words(a) for a in (
        Bet(1000), Raise(8), Discard(ah_kd), Expose(ah_kd[0]), Draw(()), Draw(ah_kd),
        PickWild(99), Stack(ah_kd), Declare("both"), RunTwice(True), RunTwice(False),
        Show(ah_kd),
    )] == ["bet 1000", "raise to 8", "put Ah Kd in the pool", "turn up Ah", "stand pat",
           "draw, discarding Ah Kd", "pick the pool card at position 99", "stack Ah Kd",
           "declare both", "agree to run it twice", "decline to run it twice", "show Ah Kd"]
    assert action_words("jump") == "'jump'"


@pytest.mark.parametrize(("game", "action", "said"), [
    # R-C-6: a betting decision refuses a wild pick by its words.
    ("sdr", PickWild(99), "seat 0 cannot do that: pick the pool card at position 99 is not a "
                          "betting action; allowed: fold, check, bet 2"),
    ("rollem521", Stack(()), "seat 0 cannot do that: stack no cards is not a betting action"),
    # R-RYO-2: the discard to the pool refuses a bet by its words.
    ("rollyourown", Bet(10**30), "; got bet 1000000000000000000000000000000"),
])
def test_a_refused_action_is_named_in_words(game: str, action: object, said: str) -> None:
    hand = Hand(game, [200] * 3, button=2, source=SeededSource(5))
    seat = hand.pending.seats[0] if hand.pending else 0
    with pytest.raises(IllegalAction) as err:
        hand.apply(seat, action)
    assert said in str(err.value)
    for python in ("PickWild(", "Stack(", "Bet("):
        assert python not in str(err.value)
