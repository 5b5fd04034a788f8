"""5-2-1 Roll 'Em draws from a seat's view: which draws are still to come and
what a hand becomes after them (R-521-2, R-521-4).

Used by the ``basic`` bot to rate a hand before the draws by its chances
after them (not as it stands), and by the ``strong`` bot's simulations.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rollem.cards import Card, parse_card

if TYPE_CHECKING:
    from rollem.engine.views import HandView

__all__ = ["DRAW_SIZES", "after_draws", "draws_left", "unseen_cards"]

DRAW_SIZES = (2, 1)
"""The most cards each 5-2-1 draw may replace: two, then one (R-521-2, R-521-4)."""

DrawPolicy = Callable[[list[Card], int], tuple[Card, ...]]
"""``policy(cards, most) -> cards to throw`` (e.g. :func:`rollem.bots.basic.draw_choice`)."""


def draws_left(view: HandView) -> tuple[int, ...]:
    """The sizes of the draws not yet started in the seat's hand: ``(2, 1)``
    before the first draw, ``(1,)`` between them, ``()`` after (a draw in
    progress counts as started). Only for ``rollem521``; ``()`` otherwise."""
    if view.game != "rollem521":
        return ()
    started = sum(1 for e in view.events if e.get("kind") == "draw_round")
    if any(e.get("kind") in ("stacked", "roll") for e in view.events):
        return ()
    return DRAW_SIZES[started:]


def unseen_cards(view: HandView) -> list[Card]:
    """Cards the seat cannot place: not its own, not face up anywhere, not the
    turned wild card, and (before any reshuffle) not one it discarded."""
    seen: set[int] = {int(parse_card(c)) for c in view.my_cards}
    for s in view.seats:
        seen.update(int(parse_card(c)) for c in s.cards if c is not None)
    seen.update(int(parse_card(c)) for c in (*view.board, *view.dead))
    reshuffled = any(e.get("kind") == "reshuffle" for e in view.events)
    for e in view.events:
        kind = e.get("kind")
        if kind == "draw" and e.get("seat") == view.seat and e.get("cards") and not reshuffled:
            seen.update(int(parse_card(c)) for c in e["cards"])
        elif kind in ("wild", "roll", "expose") and e.get("card"):
            seen.add(int(parse_card(e["card"])))
    return [Card(c) for c in range(52) if c not in seen]


def after_draws(cards: Sequence[Card], draws: Sequence[int], unseen: Sequence[Card],
                rng: random.Random, policy: DrawPolicy) -> tuple[list[Card], list[Card]]:
    """One sample of the hand after ``draws`` (sizes) played by ``policy``,
    replacements dealt at random from ``unseen`` (not mutated).

    Returns:
        ``(hand, thrown)``: the five cards after the draws and the cards thrown.
    """
    hand = list(cards)
    thrown: list[Card] = []
    left = [Card(c) for c in unseen]
    for most in draws:
        throw = policy(hand, most)
        if not throw:
            continue
        new = [left.pop(rng.randrange(len(left))) for _ in throw]
        hand = [c for c in hand if c not in throw] + new
        thrown.extend(throw)
    return hand, thrown
