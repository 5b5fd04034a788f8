"""Helpers for engine tests: stacked decks and random legal play."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from rollem.cards import CARDS, parse_cards
from rollem.engine import (
    Ante,
    Bet,
    BettingRound,
    Call,
    Check,
    DealHole,
    ExposeOne,
    Fold,
    Hand,
    Options,
    Raise,
    ReplaySource,
    Showdown,
)
from rollem.games import Game

EXPOSE_GAME = Game(
    id="expose-test",
    name="Expose test",
    min_players=2,
    max_players=10,
    build=lambda o: [
        Ante(o.ante),
        DealHole(5),
        ExposeOne(),
        BettingRound("round 1", o.small_bet, 1, o.structure),
        ExposeOne(),
        BettingRound("round 2", o.big_bet, 3, o.structure),
        Showdown(cards_of=lambda h, s: list(h.hole[s])),
    ],
)
"""A generic test game with two all-at-once exposes (not a real game)."""


def sdr_deck(
    n: int,
    button: int,
    holes: Mapping[int, str],
    stop: str = "",
    drop: str = "",
    roll: str = "",
) -> list[int]:
    """A deck order dealing ``holes`` (seat -> two cards), the Stop, Drop and Roll (R-C-13)."""
    order = [(button + i) % n for i in range(1, n + 1)]
    deck: list[int | None] = [None] * 52
    for k in range(2):
        for j, s in enumerate(order):
            if s in holes:
                deck[k * n + j] = parse_cards(holes[s])[k]
    base = 2 * n
    if stop:
        deck[base + 1] = parse_cards(stop)[0]
    if drop:
        deck[base + 3] = parse_cards(drop)[0]
    for i, c in enumerate(parse_cards(roll) if roll else []):
        deck[base + 4 + i] = c
    used = {c for c in deck if c is not None}
    rest = iter(c for c in CARDS if c not in used)
    return [c if c is not None else next(rest) for c in deck]


def stacked_hand(
    stacks: Sequence[int],
    button: int,
    holes: Mapping[int, str],
    *,
    stop: str = "",
    drop: str = "",
    roll: str = "",
    options: Options | None = None,
) -> Hand:
    """An SDR hand dealt from a stacked deck."""
    deck = sdr_deck(len(stacks), button, holes, stop, drop, roll)
    return Hand("sdr", stacks, button=button, options=options,
                source=ReplaySource([("deck", deck)]))


def random_action(hand: Hand, seat: int, rng: random.Random) -> object:
    """A uniformly random legal betting action (sizes uniform in the legal range)."""
    legal = hand.legal_actions(seat)
    name = rng.choice(legal.actions)
    if name == "fold":
        return Fold()
    if name == "check":
        return Check()
    if name == "call":
        return Call()
    amount = rng.randint(legal.min_to, legal.max_to)
    return Bet(amount) if name == "bet" else Raise(amount)


def play_out(hand: Hand, rng: random.Random) -> None:
    """Play ``hand`` to the end with random legal betting actions."""
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        hand.apply(seat, random_action(hand, seat, rng))
