"""Odds and advice as text for players: ``rollem odds``, ``rollem play
--show-odds`` and anything else that shows an :class:`rollem.odds.Odds`.

Words: equity is the expected share of the pot; "whole pot" is taking all
of it (in 5-2-1 a scoop, or one side with nobody declaring the other); the
high half and the low half are named as such; no bare "win".
"""

from __future__ import annotations

from rollem.odds.result import Advice, Odds

__all__ = ["ADVICE_HEADS", "RULE_OF_THUMB", "advice_lines", "odds_line", "odds_lines",
           "show_odds_text"]

SHOW_SAMPLES = 2000
"""Worlds (per option, at a choice) for ``rollem play --show-odds``."""


def _pct(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{100 * x:.{digits}f}%"


def odds_line(odds: Odds, digits: int = 0) -> str:
    """One line: equity, then the chances of the whole pot, a share, nothing
    (5-2-1: the high half and the low half too, and the best declaration)."""
    def p(x: float | None) -> str:
        return _pct(x, digits)

    whole = "whole pot (scoop)" if odds.high_half is not None else "whole pot"
    parts = [f"equity {p(odds.equity)} (expected share of the pot)",
             f"{whole} {p(odds.win)}", f"a share {p(odds.tie)}", f"nothing {p(odds.lose)}"]
    if odds.high_half is not None:
        parts += [f"high half {p(odds.high_half)}", f"low half {p(odds.low_half)}"]
    if odds.declare is not None and odds.own_declare is None:
        parts.append(f"best declare {odds.best_declare}")
    return " · ".join(parts)


ADVICE_HEADS = {"discard": "cards to throw into the pool", "draw": "cards to throw",
                "stack": "stacking order", "declare": "what to declare",
                "expose": "card to turn up", "wild": "pool card to pick"}
"""The advice's subject per decision, as the table's buttons ask it (issue 26)."""

RULE_OF_THUMB = "<- rule of thumb"
"""Marks the option the look-ahead's own simple play (its policy) would take."""


def advice_lines(advice: Advice, digits: int = 1) -> list[str]:
    """The options of the seat's choice, best first, one a line, with equity
    and standard error, in the words of the table's buttons ("throw Kd") and
    plain words for the method (deals played out, a rule of thumb for every
    later choice); the rule of thumb's own pick marked."""
    subject = ADVICE_HEADS.get(advice.decision, advice.decision)
    shown = len(advice.choices)
    which = (f"the {shown} best of {advice.options} options" if shown < advice.options
             else f"all {advice.options} options")
    head = (f"Advice, {subject} ({which}, each played out in {advice.samples:,} random deals; "
            "every later choice made by rule of thumb):")
    lines = [head]
    width = max(len(c.action) for c in advice.choices) if advice.choices else 0
    for c in advice.choices:
        extra = ""
        if c.high_half is not None:
            extra = f"   high half {_pct(c.high_half, 0)}, low half {_pct(c.low_half, 0)}"
        mark = f"   {RULE_OF_THUMB}" if c.policy else ""
        if c.samples is not None:
            extra += f"   (stopped after {c.samples:,} deals: clearly behind)"
        lines.append(f"  {c.action:<{width}}  equity {_pct(c.equity, digits)} "
                     f"± {_pct(c.stderr, digits)}{extra}{mark}")
    if advice.note:
        lines.append(f"  ({advice.note})")
    return lines


def odds_lines(odds: Odds) -> list[str]:
    """Every line ``rollem odds`` prints for ``odds``."""
    lines = [odds_line(odds, 2)]
    if odds.method == "exact":
        n = odds.samples
        lines.append(f"exact: {n:,} outcome{'' if n == 1 else 's'} enumerated")
    else:
        lines.append(f"Monte Carlo: {odds.samples:,} samples, standard error "
                     f"{_pct(odds.stderr, 2)}")
    if odds.model:
        lines.append(f"model: {odds.model}")
    if odds.declare is not None:
        lines.append(f"best final hand among those in: high {_pct(odds.high, 2)}   "
                     f"low {_pct(odds.low, 2)}   both (a scoop) {_pct(odds.scoop, 2)}")
        shares = "   ".join(f"{k} {_pct(v, 2)}" for k, v in odds.declare.items())
        if odds.own_declare is not None:
            lines.append(f"declared {odds.own_declare} (the odds above are for it); "
                         f"each declaration's expected share: {shares}")
        else:
            lines.append(f"declare (expected share of the pot): {shares}   "
                         f"(best: {odds.best_declare})")
    if odds.categories:
        lines.append("final hand: " + ", ".join(
            f"{k} {_pct(v, 2)}" for k, v in odds.categories.items()))
    if odds.keep:
        lines.append("best three to keep: " + " ".join(odds.keep))
    if odds.advice is not None:
        lines += advice_lines(odds.advice)
    return lines


def show_odds_text(view: object, *, rng: object = None, samples: int = SHOW_SAMPLES
                   ) -> tuple[str, bool]:
    """What ``rollem play --show-odds`` prints for the player's ``view``:
    ``("Your odds: ..." and, at a card choice, the advice lines, True)``, or
    ``("(odds not available: why)", False)``."""
    import random

    from rollem.odds import OddsError, view_equity

    try:
        odds = view_equity(view, samples=samples, advice=True,
                           rng=rng if isinstance(rng, random.Random) else None)
    except OddsError as err:
        return f"(odds not available: {err})", False
    lines = ["Your odds: " + odds_line(odds)]
    if odds.advice is not None:
        lines += advice_lines(odds.advice)
    return "\n".join(lines), True
