"""A narrated line: plain text plus what it is about, so each interface can style it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

__all__ = ["CARD_PATTERN", "Line", "result_then_shows"]

CARD_PATTERN = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA])([cdhs])(?![A-Za-z0-9])")
"""Matches each card in a narrated text (``Qh``: group 1 the rank, group 2 the
suit), for interfaces that draw cards their own way (suit symbols, colour)."""


@dataclass(frozen=True, slots=True)
class Line:
    """One sentence of narration.

    Attributes:
        text: the sentence in players' words; cards as short text (``Qh``,
            see :data:`CARD_PATTERN`), chips as whole numbers.
        kind: what it narrates: an event kind (``"bet"``, ``"fold"``,
            ``"show"``, ``"deal_hole"``...; ``"show_after"`` for cards shown by
            choice after the hand, R-C-11) or a result kind (``"win"``,
            ``"split"``, ``"half"``, ``"scoop"``, ``"failed_both"``,
            ``"carry"``, ``"lose"``, ``"net"``).
        seat: the seat it is about, or ``None``.
        mine: True when it is about the viewer (interfaces may bold it).
    """

    text: str
    kind: str
    seat: int | None = None
    mine: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: ``text``, ``kind``, ``seat``, ``mine``."""
        return {"text": self.text, "kind": self.kind, "seat": self.seat, "mine": self.mine}


def result_then_shows(told: list[Line], result: list[Line]) -> list[Line]:
    """A whole hand's lines: ``told`` (its events) then ``result``, with the cards
    shown by choice after the hand (``show_after``) told last, after the pot is
    awarded, as they happened (issue 33)."""
    return ([line for line in told if line.kind != "show_after"] + result
            + [line for line in told if line.kind == "show_after"])
