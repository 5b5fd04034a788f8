r"""The format of a hand history and its fields (R-C-13): the version,
:class:`HistoryError`, the parsed :class:`History` and its :class:`DealLine`\ s,
and the small text helpers every part of :mod:`rollem.history` uses."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rollem.cards import CARDS, Card
from rollem.engine.options import Options

VERSION = 2
"""Format version written in ``_version`` (2: PHH's concatenated cards in
``d dh``, ``d db`` and ``sm`` lines, ``sd`` for draws, ``min_bet`` only in
pot- and no-limit, ``seats``; shows by choice)."""

READ_VERSIONS = (1, 2)
"""Format versions :func:`read_history` reads."""


MAX_MESSAGE = 300
"""Longest message of a :class:`HistoryError`, in characters (issue 34: a value
of a hostile file is elided, not echoed whole)."""


def _cap(message: str) -> str:
    """``message`` on one line, at most :data:`MAX_MESSAGE` characters: a longer
    one keeps its start and its end, the middle elided (``...``)."""
    line = " ".join(message.split())
    if len(line) <= MAX_MESSAGE:
        return line
    tail = 60
    return f"{line[:MAX_MESSAGE - tail - 5]} ... {line[-tail:]}"


def _brief(value: object, limit: int = 60) -> str:
    """``repr(value)`` in at most ``limit`` characters (``[1, 2, 3, ...]``), for a
    value of the file named in a message."""
    text = " ".join(repr(value).split())
    return text if len(text) <= limit else text[:limit - 4] + " ..."


class HistoryError(ValueError):
    """A history that cannot be read or does not replay; the message (one
    line of at most :data:`MAX_MESSAGE` characters, issue 34) says where and why."""

    def __init__(self, message: str) -> None:
        super().__init__(_cap(str(message)))



def _p(seat: int | None) -> str:
    return f"p{(seat or 0) + 1}"


def _phh(cards: Sequence[int]) -> str:
    """Cards concatenated, as PHH writes them: ``QsQd``."""
    return "".join(str(CARDS[c]) for c in cards)


def _one_line(text: str) -> str:
    return " ".join(text.split())


@dataclass(frozen=True)
class DealLine:
    """A dealer line (``d ...``) or show line (``pN sm``) of a history: the
    replay must deal or show exactly this at this point (R-C-13).

    Attributes:
        code: ``dh``, ``du``, ``db``, ``dead``, ``burn``, ``pd``, ``wild``,
            ``show`` (``pN sm CARDS``) or ``muck`` (``pN sm``).
        seat: the seat it names, or ``None``.
        cards: the cards it names, in order.
        number: its line number (1-based) in ``actions``.
        text: the line as written.
        anchor: how many players' actions come before it.
    """

    code: str
    seat: int | None
    cards: tuple[Card, ...]
    number: int
    text: str
    anchor: int

    def where(self) -> str:
        """``line 5 of actions (d dead Qh # stop), after action 1``."""
        return f"line {self.number} of actions ({self.text}), after action {self.anchor}"


@dataclass
class History:
    """A parsed history (see the module doc)."""

    game: str
    stacks: list[int]
    button: int
    options: Options
    carry_in: int
    deck: list[Card] | None
    shuffles: list[tuple[str, list[Card]]]
    deals: list[tuple[str, int | None, list[Card]]]
    actions: list[tuple[int, str]]
    result: dict[str, Any] | None
    raw: dict[str, Any] = field(default_factory=dict)
    checks: list[tuple[str, int | None, list[Card]]] = field(default_factory=list)
    """``("pd", seat, [card])`` draws from the pool and ``("wild", None, [card])``
    the wild card turned, as written (R-RYO-5..R-RYO-7); the replay checks them
    with every other line of :attr:`lines`."""
    action_lines: list[int] = field(default_factory=list)
    """For each entry of :attr:`actions`, its line number (1-based) in the
    history's ``actions`` list, which also holds dealing, showdown and comment
    lines. Players' actions are numbered 1, 2, ... on their own (``--at K``,
    replay errors); this maps them back to the file."""
    lines: list[DealLine] = field(default_factory=list)
    """Every dealer and ``sm`` line, in order, with the number of players'
    actions before it: the replay checks each against what it deals and shows
    there; an ``sm`` line after the end is a show by choice (R-C-11)."""

