"""Pending decisions and legal options (what a seat may do now)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rollem.cards import CARDS, Card

__all__ = ["Legal", "Pending"]


@dataclass(slots=True)
class Pending:
    """The decision the hand waits for.

    Attributes:
        kind: ``"bet"`` (betting round) or the step's decision kind
            (``"discard"``, ``"expose"``, ``"draw"``, ``"wild"``, ``"stack"``,
            ``"declare"`` ...).
        seats: seats that must still act: one seat for a one-at-a-time
            decision; for an all-at-once decision, every seat that has not
            chosen yet.
        simultaneous: True for an all-at-once decision (choices hidden until all
            have chosen, then revealed together).

    ``pending.legal`` / ``pending.legal_for(seat)``: the legal options with
    amounts (call amount, bet/raise-to bounds...), as ``hand.legal_actions``.
    """

    kind: str
    seats: tuple[int, ...]
    simultaneous: bool = False
    hand: Any = field(default=None, repr=False, compare=False)
    """The hand waiting for this decision (set by the hand)."""

    @property
    def legal(self) -> Legal:
        """The legal options of the first seat asked (``seats[0]``)."""
        return self.legal_for(self.seats[0])

    def legal_for(self, seat: int) -> Legal:
        """The legal options of ``seat`` (empty when it is not asked)."""
        if self.hand is None:
            return Legal(kind=self.kind)
        result: Legal = self.hand.legal_actions(seat)
        return result


@dataclass(frozen=True, slots=True)
class Legal:
    """What one seat may do now (empty ``actions`` = nothing).

    Attributes:
        kind: the decision kind (see :class:`Pending`).
        actions: allowed action names, among ``fold check call bet raise``
            and the other games' ``discard expose draw wild stack declare``.
        call_amount: chips a call adds (all-in for less when the stack is short).
        min_to, max_to: bounds of ``Bet(amount)`` / ``Raise(to)``, as the seat's
            total bet in the round (equal in fixed limit; 0 when not allowed).
        cards: the cards the seat may choose among (discard/expose/draw/stack).
        min_count, max_count: how many cards to choose.
        positions: for a wild pick, positions ``0 .. positions-1`` may be picked.
        sides: for a declare, the sides allowed.
        forced: at a stud bring-in (see :mod:`rollem.engine.forced`):
            ``"bring-in"`` for the seat that must bring it in (``call`` posts
            the bring-in of ``call_amount``, ``bet`` completes to ``min_to``),
            ``"complete"`` for a seat facing a bring-in nobody has completed
            (``raise`` completes); ``""`` otherwise.
        into_pool: for a discard, whether the cards go to a pool a later step
            uses (Roll Your Own) or out of play (a game file's, as Crazy
            Pineapple's; issue 33).
    """

    kind: str
    actions: tuple[str, ...] = ()
    call_amount: int = 0
    min_to: int = 0
    max_to: int = 0
    cards: tuple[Card, ...] = ()
    min_count: int = 0
    max_count: int = 0
    positions: int = 0
    sides: tuple[str, ...] = ()
    forced: str = ""
    into_pool: bool = True

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (cards as text)."""
        return {
            "kind": self.kind,
            "actions": list(self.actions),
            "call_amount": self.call_amount,
            "min_to": self.min_to,
            "max_to": self.max_to,
            "cards": [str(CARDS[c]) for c in self.cards],
            "min_count": self.min_count,
            "max_count": self.max_count,
            "positions": self.positions,
            "sides": list(self.sides),
            "forced": self.forced,
            "into_pool": self.into_pool,
        }

    def describe(self) -> str:
        """Human text of the allowed actions, for error messages."""
        parts: list[str] = []
        for name in self.actions:
            if name == "call":
                word = "bring in for" if self.forced == "bring-in" else "call"
                parts.append(f"{word} {self.call_amount}")
            elif name in ("bet", "raise"):
                word = "bet" if name == "bet" else "raise to"
                if self.forced:  # the bet or raise that completes a bring-in
                    word = "complete to"
                if self.min_to == self.max_to:
                    parts.append(f"{word} {self.min_to}")
                else:
                    parts.append(f"{word} {self.min_to}..{self.max_to}")
            else:
                parts.append(name)
        return ", ".join(parts) if parts else "nothing"
