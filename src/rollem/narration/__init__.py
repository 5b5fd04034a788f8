"""Narration: one layer that says what happened in players' words, for every
interface (terminal, web table, ``rollem replay``, docs).

- :func:`hand_words`: a hand's description naming every card that breaks a
  tie (``"pair of sixes, king-ten-deuce"``), lows as lows (``"eight-seven
  low, five-three-deuce"``), each wild card with what it plays as
  (``"three eights, ace-deuce (wild 5d plays as 8d)"``).
- :class:`Narrator`: a hand's events (``HandView.events`` dicts), one at a
  time, as sentences (:class:`Line`), with the pot after each bet; keeps the
  face-up cards of every seat (folded ones too), draw counts and order.
- :func:`narrate_view` / :func:`result_for_view`: a whole view (finished or
  not) told step by step / only its result: per pot and half who won what
  with which hand, who failed both ways and whose hand beat them, carried
  pots, the viewer's own hand when it loses.
- :func:`narrate_hand` (an engine hand, all cards) and
  :func:`narrate_history` (a history file, full or a player's redacted copy).

Cards in :attr:`Line.text` are short text (``Qh``); :data:`CARD_PATTERN`
finds them for interfaces that draw cards their own way. The developer note
is ``docs/dev/narration.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rollem.narration.hands import hand_words, high_low_words, wild_note
from rollem.narration.history import Story, hand_events, narrate_hand, narrate_history
from rollem.narration.lines import CARD_PATTERN, Line, result_then_shows
from rollem.narration.results import ResultFacts, result_lines
from rollem.narration.story import Narrator
from rollem.narration.words import Names

if TYPE_CHECKING:
    from rollem.engine.views import HandView

__all__ = [
    "CARD_PATTERN",
    "Line",
    "Names",
    "Narrator",
    "ResultFacts",
    "Story",
    "hand_events",
    "hand_words",
    "high_low_words",
    "narrate_hand",
    "narrate_history",
    "narrate_view",
    "result_for_view",
    "result_lines",
    "wild_note",
]


def _as_dict(view: HandView | Mapping[str, Any]) -> Mapping[str, Any]:
    return view if isinstance(view, Mapping) else view.to_dict()


def _narrator(v: Mapping[str, Any], names: Sequence[str]) -> Narrator:
    seats = v.get("seats") or []
    committed = sum(int(s.get("committed", 0)) for s in seats)
    bets = sum(int(s.get("bet", 0)) for s in seats)
    carry_in = 0
    if v.get("result") is None and seats:
        carry_in = max(0, int(v.get("pot", 0)) + bets - committed)
    elif v.get("result") is not None:
        total = sum(int(p["amount"]) for p in v["result"].get("pots", []))
        carry_in = max(0, total - committed)
    return Narrator(names, v.get("seat"), options=v.get("options") or {}, carry_in=carry_in,
                    game=v.get("game"))


def _my_cards(v: Mapping[str, Any]) -> list[str | None]:
    seat = v.get("seat")
    seats = v.get("seats") or []
    if seat is None or not 0 <= int(seat) < len(seats):
        return []
    return list(seats[int(seat)].get("cards") or [])


def narrate_view(view: HandView | Mapping[str, Any], names: Sequence[str]) -> list[Line]:
    """A hand as ``view.seat`` saw it, step by step, then the result if it is over.

    Args:
        view: a :class:`rollem.engine.HandView` or its ``to_dict()`` (JSON) form.
        names: one name per seat; the viewer is told as ``You``.
    """
    v = _as_dict(view)
    nar = _narrator(v, names)
    out: list[Line] = []
    for e in v.get("events", []):
        out += nar.feed(e)
    out += nar.finish()
    if v.get("result") is not None:
        out = result_then_shows(out, nar.result(v["result"], my_cards=_my_cards(v)))
    return out


def result_for_view(view: HandView | Mapping[str, Any], names: Sequence[str]) -> list[Line]:
    """Only the result sentences of a finished hand's view (``[]`` while it runs)."""
    v = _as_dict(view)
    if v.get("result") is None:
        return []
    nar = _narrator(v, names)
    for e in v.get("events", []):
        nar.feed(e)
    return nar.result(v["result"], my_cards=_my_cards(v))
