"""The order in which others may know a seat's cards (R-RYO-2, R-RYO-5, R-521-2).

A seat holds its cards in the order it was dealt them, with cards it drew
(a Roll Your Own pool draw, a 5-2-1 or draw-game replacement) after them.
Shown in that order, another seat's hand would tell which of its cards were
drawn: a discard drawn back from the pool, or the card that replaced another.
Others only saw cards turned face up, one at a time, and then the hand shown,
so they get the seat's cards in :func:`public_order`: the face-up cards in the
order turned up, then the others highest first. The seat itself, and a full
history, keep the order it holds them in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rollem.cards import Card
from rollem.engine.events import Event

if TYPE_CHECKING:
    from rollem.engine.hand import Hand

__all__ = ["public_order", "show_event", "turned_up"]


def turned_up(hand: Hand) -> dict[int, list[Card]]:
    """Seat -> its cards in the order they were turned face up (dealt up,
    exposed, rolled), from the hand's events."""
    out: dict[int, list[Card]] = {}
    for e in hand.events:
        if e.seat is not None and e.kind in ("deal_up", "expose", "roll"):
            cards = e.data["cards"] if "cards" in e.data else [e.data["card"]]
            out.setdefault(e.seat, []).extend(cards)
    return out


def public_order(cards: Sequence[Card], turned: Sequence[Card] = ()) -> list[Card]:
    """``cards`` (one seat's) as others may know them: those in ``turned`` (the
    seat's list from :func:`turned_up`) in that order, then the rest highest
    first (by rank, then suit)."""
    first = [c for c in turned if c in cards]
    return first + sorted((c for c in cards if c not in first), reverse=True)


def show_event(hand: Hand, seat: int, data: dict[str, Any]) -> Event:
    """A ``show`` event of ``seat`` (``data["cards"]``, and ``data["hand"]`` where
    given, in the order it holds them): the seat sees that order, everyone else
    :func:`public_order`."""
    turned = turned_up(hand).get(seat, ())
    public = {**data, "cards": public_order(data["cards"], turned)}
    if "hand" in data:
        public["hand"] = public_order(data["hand"], turned)
    return Event("show", seat, data, frozenset((seat,)), public)
