"""5-2-1 look-ahead odds with more players than the stub can serve: the
replacement cards stand for a reshuffle (R-521-5) and no hand ever holds a
card twice; the policy's stacking order is a permutation even for a row
that holds a card twice (an ``IndexError`` from uninitialised memory before)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from rollem.cards import parse_cards
from rollem.engine import Hand, SeededSource
from rollem.odds import view_equity
from rollem.odds.look521 import _replacements
from rollem.odds.policy import FAST, FastPolicy, PolicyPlayer


def c(text: str) -> list[int]:
    return [int(x) for x in parse_cards(text, allow_duplicates=True)]


def test_stack_of_a_row_holding_a_card_three_times_is_a_permutation() -> None:
    # 2c 2c 2c 7d 9s: a high hand (trips) keeps a card of its biggest group
    # down (the first 2c); the rest show lowest first, the two equal 2c in
    # their given order, then 7d, 9s. Five copies of one card: the first
    # stays down, the others in order.
    # 2c 7d 9s Kh Ah (no repeat) is better as a low: the ace stays down and
    # the worst low cards show first.
    rows = np.asarray([c("2c 2c 2c 7d 9s"), c("Kh Kh Kh Kh Kh"), c("2c 7d 9s Kh Ah")])
    order = FAST.stack(rows)
    assert order.tolist() == [[1, 2, 3, 4, 0], [1, 2, 3, 4, 0], [3, 2, 1, 0, 4]]
    assert order.dtype == np.int64


def test_stack_is_a_permutation_for_any_row() -> None:
    gen = np.random.default_rng(7)
    rows = gen.integers(0, 52, size=(4000, 5))  # repeats allowed
    order = FAST.stack(rows)
    assert (np.sort(order, axis=1) == np.arange(5)).all()


def test_replacements_serve_the_stub_first_and_never_repeat_in_a_hand() -> None:
    # ten players: the stub holds 2 cards; every player's three replacement
    # cards are distinct and outside what it holds or threw; the stub's two
    # cards go to first-draw slots, once each
    gen = np.random.default_rng(3)
    s = 500
    stub = np.zeros((s, 52), dtype=bool)
    stub[:, [50, 51]] = True
    held = []
    for p in range(10):
        h = np.zeros((s, 52), dtype=bool)
        h[:, 5 * p:5 * p + 5] = True
        held.append(h)
    held[0][:, 49] = True  # a card the seat threw earlier
    slots = _replacements(gen, stub, held, [[None, None]] * 10)
    assert slots.shape == (s, 30)
    for p in range(10):
        mine = slots[:, 3 * p:3 * p + 3]
        assert (np.sort(mine, axis=1)[:, 1:] != np.sort(mine, axis=1)[:, :-1]).all()
        assert not held[p][np.arange(s)[:, None], mine].any()
    first_draw = np.tile([True, True, False], 10)
    for card in (50, 51):  # each stub card once, in a first-draw slot
        assert ((slots == card).sum(axis=1) == 1).all()
        assert ((slots[:, first_draw] == card).sum(axis=1) == 1).all()
    # every player already served in the first draw: the stub goes to the second
    slots = _replacements(gen, stub, held, [[1, None]] * 10)
    for card in (50, 51):
        assert ((slots[:, ~first_draw] == card).sum(axis=1) == 1).all()
    # the seat's own discard (49) is never dealt to it; others may get it
    assert (slots[:, 3:] == 49).any()


@pytest.mark.parametrize("players", [10, 8])
def test_many_players_every_hand_in_the_worlds_holds_five_different_cards(
        players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # seat 0 of a seeded hand played by the policy, at every decision to the
    # declare: the public odds (with advice: every player's draws, stacking
    # and declare simulated) ask the policy only about hands of five
    # different cards, and answer. Before the fix the stub's few cards were
    # dealt again and again (a seat drawing three got one of them twice) and
    # the stacking read uninitialised memory as an index: an IndexError at
    # random; and after a reshuffle (R-521-5) the opponents' histories did
    # not fit in the unseen cards: "too few unseen cards" from the first
    # draw on.
    asked = []

    def check(cards: Any) -> None:
        s = np.sort(np.asarray(cards), axis=1)
        twice = (s[:, 1:] == s[:, :-1]).any(axis=1)
        assert not twice.any(), s[twice][:3]
        asked.append(len(s))

    draw, stack = FastPolicy.draw, FastPolicy.stack

    def checked_draw(self: FastPolicy, cards: Any, most: int) -> Any:
        check(cards)
        return draw(self, cards, most)

    def checked_stack(self: FastPolicy, cards: Any) -> Any:
        check(cards)
        return stack(self, cards)

    monkeypatch.setattr(FastPolicy, "draw", checked_draw)
    monkeypatch.setattr(FastPolicy, "stack", checked_stack)
    hand = Hand("rollem521", [200] * players, button=players - 1, source=SeededSource(11))
    pl = [PolicyPlayer() for _ in range(players)]
    kinds = []
    while not hand.is_over:
        seat = hand.pending.seats[0]  # type: ignore[union-attr]
        view = hand.view(seat)
        kind = hand.pending.kind  # type: ignore[union-attr]
        if seat == 0:
            kinds.append(kind)
            odds = view_equity(view, samples=200, seed=1, advice=True)
            assert 0.0 <= odds.equity <= 1.0
            if kind != "bet":
                assert odds.advice is not None
                assert odds.advice.options == {"draw": (16, 6), "stack": (5,),
                                               "declare": (3,)}[kind][kinds.count(kind) - 1]
        hand.apply(seat, pl[seat].act(view))
    assert kinds.count("draw") == 2 and {"stack", "declare"} <= set(kinds)
    assert any(e.kind == "reshuffle" for e in hand.events)
    assert sum(asked) > 5_000  # the worlds were checked, not just the players' hands
