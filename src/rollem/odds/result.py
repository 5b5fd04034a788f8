"""The answer of every odds calculator: :class:`Odds`, and :class:`OddsError`."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

__all__ = ["WORLDS_WORDS", "Advice", "Choice", "Odds", "OddsError", "worlds_words"]


def worlds_words(effective: float, worlds: int) -> str:
    """How many weighted worlds a run drew and how precise they are, for a model
    line: ``"4,000 worlds, each with several orders of the pool left, as precise
    as about 6,469 independent deals"``.  Each world's chances are means over
    several orders of the pool left, so its effective count (the equally weighted,
    independent deals of the same precision) may be above the worlds drawn: it
    was said "6,469 effective of 4,000 worlds" (try-out of stop 52), nonsense to a
    reader; ``effective`` is rounded to whole deals."""
    return (f"{worlds:,} worlds, each with several orders of the pool left, as precise as "
            f"about {effective:,.0f} independent deals")


WORLDS_WORDS = re.compile(r"[\d,]+ worlds, each with several orders of the pool left, as "
                          r"precise as about [\d,]+ independent deals")
""":func:`worlds_words` in a model line (play's batches put their totals in it)."""


class OddsError(ValueError):
    """A question the odds calculators cannot answer as asked: no view, a
    spectator's view, cards used twice, too many players for the cards left.
    The message says what was wrong and what is allowed."""


class HistoryOddsError(OddsError):
    """An :class:`OddsError` about a history's text itself (not TOML, a bad
    field or line, a player's copy that does not play): ``rollem odds
    --history`` names the file before the message, as ``rollem replay`` does."""


@dataclass(frozen=True)
class Choice:
    """One option of the seat's current choice and its look-ahead equity.

    Attributes:
        action: what to do, in the words of the table's buttons (issue 26):
            ``"throw 9c 4d 2s"`` (into the pool), ``"throw Kd"``,
            ``"stand pat"``, ``"keep Qs down: 4c 6s Qc Ah Qs"``,
            ``"declare low"``, ``"turn up 7h"``, ``"pick pool card 3"`` (1 = first).
        cards: the cards the option names (thrown, the stacking order,
            the card exposed), as text; empty for a declaration or a pick.
        equity: expected share of the pot (0..1) after taking it, every
            player then playing by the policy.
        stderr: standard error of ``equity``.
        policy: the policy would choose this option.
        whole_pot: chance of taking the whole pot (a scoop in 5-2-1).
        high_half, low_half: 5-2-1 only: chance of a share of the high half,
            of the low half.
        samples: the worlds this option was played out in, when fewer than
            the advice's ``samples``: an option clearly behind the best after
            the first quarter of the worlds is not played further (its
            ``stderr`` is from those worlds); ``None``: all of them.
        interval: the half-width of a 95% interval for this option's
            figures (equity, halves), as a fraction of the pot; ``None``
            when not worked out (:mod:`rollem.odds.play`, issue 33).
    """

    action: str
    cards: list[str]
    equity: float
    stderr: float
    policy: bool = False
    whole_pot: float | None = None
    high_half: float | None = None
    low_half: float | None = None
    samples: int | None = None
    interval: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        out: dict[str, Any] = {"action": self.action, "cards": list(self.cards),
                               "equity": self.equity, "stderr": self.stderr,
                               "policy": self.policy}
        if self.samples is not None:
            out["samples"] = self.samples
        if self.whole_pot is not None:
            out["whole_pot"] = self.whole_pot
        if self.high_half is not None:
            out["high_half"] = self.high_half
            out["low_half"] = self.low_half
        if self.interval is not None:
            out["interval"] = self.interval
        return out


@dataclass(frozen=True)
class Advice:
    """Every option (the best ``top``) of the choice the seat faces now.

    Attributes:
        decision: ``"discard"`` (the three to throw into the pool), ``"expose"``, ``"wild"``,
            ``"draw"`` (first or second 5-2-1 draw), ``"stack"`` or ``"declare"``.
        choices: best first.
        options: how many options there are in all.
        samples: worlds per option (the options share their worlds); a
            choice with its own ``samples`` was played in fewer.
        policy: the name of the policy every player plays by afterwards.
        note: a remark on the model, e.g. why every option has the same equity.
    """

    decision: str
    choices: list[Choice]
    options: int
    samples: int
    policy: str
    note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"decision": self.decision, "choices": [c.to_dict() for c in self.choices],
                "options": self.options, "samples": self.samples, "policy": self.policy,
                "note": self.note}


@dataclass(frozen=True)
class Odds:
    """One seat's chances of winning, tying and losing the pot.

    Attributes:
        win: probability of taking the whole pot (no split; in 5-2-1 a
            scoop, or one side with nobody on the other); JSON also
            ``whole_pot``.
        tie: probability of splitting it (a share strictly between 0 and 1).
        lose: probability of winning nothing; ``win + tie + lose == 1``.
        equity: expected share of the pot (0..1), ties split equally.
        method: ``"exact"`` (every outcome enumerated, equally likely) or
            ``"monte-carlo"``.
        samples: outcomes enumerated (exact) or worlds sampled (Monte Carlo).
        stderr: standard error of ``equity`` (0.0 for exact).
        high, low, scoop: 5-2-1 only: probability the seat's final high hand
            beats every other live hand outright, its low does, and both do.
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
        high_half, low_half: 5-2-1 only: the chance of a share of the high
            half and of the low half of the pot (with the look-ahead).
        model: the look-ahead model in words (``None``: no choice left to
            simulate).
        advice: the options of the seat's current choice, when asked for
            and the seat has one (:class:`Advice`).
        effective: Monte Carlo with weighted worlds (importance weighting):
            the effective number of worlds (``None``: every world counts
            fully, as many as ``samples``).
        interval: the half-width of a 95% interval that holds for every
            probability given here (equity, whole pot, share, nothing, the
            halves), as a fraction of the pot; 0.0 for exact, ``None`` when
            not worked out (only :mod:`rollem.odds.play` does: issue 33).
        rough: the interval may be too narrow: a batch's weights collapsed
            (:data:`rollem.odds.play.COLLAPSED`; issue 33, branch s50-odds),
            shown as "rough".
        evidence: importance-weighted Roll Your Own after the discard: the
            batch's mean unnormalised weight per world (``None`` elsewhere),
            an unbiased estimate of how likely what was seen is, on the
            sampler's one scale whatever its proposal, so that play may lean
            the batches' mean towards their ratio of sums
            (:data:`rollem.odds.play.EVIDENCE_SHARE`; issue 33, branches
            s63-bias, s64-bias). Not part of :meth:`to_dict`.
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
    high_half: float | None = None
    low_half: float | None = None
    model: str | None = None
    advice: Advice | None = None
    effective: float | None = None
    interval: float | None = None
    rough: bool = False
    evidence: float | None = None

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
        if self.high_half is not None:
            out.update(high_half=self.high_half, low_half=self.low_half)
        out["whole_pot"] = self.win
        if self.model is not None:
            out["model"] = self.model
        if self.advice is not None:
            out["advice"] = self.advice.to_dict()
        if self.effective is not None:
            out["effective"] = self.effective
        if self.interval is not None:
            out["interval"] = self.interval
        return out
