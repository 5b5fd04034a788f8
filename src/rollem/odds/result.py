"""The answer of every odds calculator: :class:`Odds`, and :class:`OddsError`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Odds", "OddsError"]


class OddsError(ValueError):
    """A question the odds calculators cannot answer as asked: no view, a
    spectator's view, cards used twice, too many players for the cards left.
    The message says what was wrong and what is allowed."""


@dataclass(frozen=True)
class Odds:
    """One seat's chances of winning, tying and losing the pot.

    Attributes:
        win: probability of winning the whole pot (no tie).
        tie: probability of splitting it (a share strictly between 0 and 1).
        lose: probability of winning nothing; ``win + tie + lose == 1``.
        equity: expected share of the pot (0..1), ties split equally.
        method: ``"exact"`` (every outcome enumerated, equally likely) or
            ``"monte-carlo"``.
        samples: outcomes enumerated (exact) or worlds sampled (Monte Carlo).
        stderr: standard error of ``equity`` (0.0 for exact).
        high, low, scoop: 5-2-1 only: probability the seat's high hand beats
            every other live hand outright, its low does, and both do.
        declare: 5-2-1 only: ``{"high": share, "low": share, "both": share}``,
            the expected share of the pot for each declaration (R-521-9) under
            the opponents' declare model; the best of these is ``equity``.
        best_declare: 5-2-1 only: the declaration with the greatest share.
        own_declare: 5-2-1 only, once the seat has declared: its declaration;
            ``win``/``tie``/``lose``/``equity`` are then for it (R-521-9: a
            both-way declarer who does not win both ways outright gets
            nothing), else for ``best_declare``.
        categories: Five Card Roll Your Own: the chance of each final hand
            category for the seat (category label -> probability).
        keep: Five Card Roll Your Own before the discard: the three cards
            whose odds are best (the odds given are for keeping them).
        game: the game's short id.
    """

    win: float
    tie: float
    lose: float
    equity: float
    method: str
    samples: int
    stderr: float
    game: str = "sdr"
    high: float | None = None
    low: float | None = None
    scoop: float | None = None
    declare: dict[str, float] | None = None
    best_declare: str | None = None
    own_declare: str | None = None
    categories: dict[str, float] | None = field(default=None)
    keep: list[str] | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (CLI.md ``rollem odds``); 5-2-1 and Roll Your Own
        fields only where they apply."""
        out: dict[str, Any] = {
            "game": self.game,
            "win": self.win,
            "tie": self.tie,
            "lose": self.lose,
            "equity": self.equity,
            "method": self.method,
            "samples": self.samples,
            "stderr": self.stderr,
        }
        if self.high is not None:
            out.update(high=self.high, low=self.low, scoop=self.scoop,
                       declare=dict(self.declare or {}), best_declare=self.best_declare,
                       declared=self.own_declare)
        if self.categories is not None:
            out["categories"] = dict(self.categories)
        if self.keep is not None:
            out["keep"] = list(self.keep)
        return out
