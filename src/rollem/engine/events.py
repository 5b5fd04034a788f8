"""Events: everything that happens in a hand, with who may see it.

An :class:`Event` is appended to ``Hand.events`` for each thing that
happens. ``to`` is ``None`` for a public event, or the set of seats allowed
to see ``data``; for everybody else, ``public`` (if not ``None``) is the
redacted form (e.g. "seat 3 was dealt 2 cards" without the cards), and if
``public`` is ``None`` the event is invisible to them. Filtering is therefore
mechanical: :func:`visible_form`.

``data`` is a plain dict; values under the keys ``card`` (one card) and
``cards`` (a list) are cards, formatted as text by :func:`event_to_dict`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from rollem.cards import CARDS

__all__ = ["Event", "event_to_dict", "visible_form"]


class Event(NamedTuple):
    """One thing that happened.

    Attributes:
        kind: what happened (``"ante"``, ``"deal_hole"``, ``"bet"``, ``"fold"``,
            ``"chose"``, ``"show"``, ``"win"`` ...).
        seat: the seat it concerns, or ``None``.
        data: details (JSON-ready apart from cards under ``card``/``cards``).
        to: ``None`` = public; else the seats that may see ``data``.
        public: what the other seats see instead, or ``None`` = nothing.
    """

    kind: str
    seat: int | None
    data: dict[str, Any]
    to: frozenset[int] | None = None
    public: dict[str, Any] | None = None


def visible_form(event: Event, seat: int | None) -> dict[str, Any] | None:
    """The data of ``event`` as ``seat`` (``None`` = spectator) may see it, or ``None``."""
    if event.to is None or (seat is not None and seat in event.to):
        return event.data
    return event.public


def event_to_dict(event: Event, seat: int | None) -> dict[str, Any] | None:
    """JSON-ready form of ``event`` for ``seat``, or ``None`` when hidden from it."""
    data = visible_form(event, seat)
    if data is None:
        return None
    out: dict[str, Any] = {"kind": event.kind, "seat": event.seat}
    for key, value in data.items():
        if key == "card":
            out[key] = str(CARDS[value])
        elif key == "cards":
            out[key] = [str(CARDS[c]) for c in value]
        else:
            out[key] = value
    return out
