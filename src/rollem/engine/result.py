"""The result of a finished hand (R-C-9..R-C-11), JSON-ready as CLI.md's ``replay``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rollem.cards import CARDS, Card

__all__ = ["HandOutcome", "PotResult"]


@dataclass
class PotResult:
    """One pot (main pot first, then side pots).

    Attributes:
        amount: chips in the pot.
        eligible: seats that could win it, in seat order.
        winners: seat -> chips won from this pot.
        high, low: for high-low games, seat -> chips of each half (else ``None``).
    """

    amount: int
    eligible: tuple[int, ...]
    winners: dict[int, int]
    high: dict[int, int] | None = None
    low: dict[int, int] | None = None

    def to_dict(self) -> dict[str, Any]:
        """CLI.md form: ``amount``, ``eligible``, ``winners`` (and ``high``/``low``)."""
        out: dict[str, Any] = {
            "amount": self.amount,
            "eligible": list(self.eligible),
            "winners": {str(s): c for s, c in sorted(self.winners.items())},
        }
        if self.high is not None:
            out["high"] = {str(s): c for s, c in sorted(self.high.items())}
        if self.low is not None:
            out["low"] = {str(s): c for s, c in sorted(self.low.items())}
        return out


@dataclass
class HandOutcome:
    """How a hand ended.

    Attributes:
        game: the game's short id.
        pots: each pot with its winners (uncalled bets already returned).
        net: seat -> chips won (+) or lost (-) in the hand, for every dealt-in seat.
        shown: seat -> description of each hand shown at showdown.
        shown_cards: seat -> the cards shown.
        carried: chips carried to the next hand (R-521-9), 0 if none.
        showdown: False when all others folded (R-C-11).
    """

    game: str
    pots: list[PotResult]
    net: dict[int, int]
    shown: dict[int, str] = field(default_factory=dict)
    shown_cards: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    carried: int = 0
    showdown: bool = True

    def to_dict(self, *, cards: bool = False) -> dict[str, Any]:
        """CLI.md ``replay --json`` form: ``game``, ``pots``, ``net``, ``shown``, ``carried``;
        with ``cards`` also ``shown_cards`` (seat -> the cards shown)."""
        out: dict[str, Any] = {
            "game": self.game,
            "pots": [p.to_dict() for p in self.pots],
            "net": {str(s): c for s, c in sorted(self.net.items())},
            "shown": {str(s): d for s, d in sorted(self.shown.items())},
            "carried": self.carried,
        }
        if cards:
            out["shown_cards"] = {
                str(s): [str(CARDS[c]) for c in cs] for s, cs in sorted(self.shown_cards.items())
            }
        return out
