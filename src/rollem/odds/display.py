"""Odds and advice as text for players: ``rollem odds``, ``rollem play
--show-odds`` and anything else that shows an :class:`rollem.odds.Odds`.

Words: equity is the expected share of the pot; "whole pot" is taking all
of it (in 5-2-1 a scoop, or one side with nobody declaring the other); the
high half and the low half are named as such; no bare "win".
"""

from __future__ import annotations

from typing import Any

from rollem.odds.result import Advice, Odds

__all__ = ["ADVICE_HEADS", "RULE_OF_THUMB", "advice_lines", "fit", "odds_line", "odds_lines",
           "play_lines", "rounded_shares",
           "show_odds_text"]

SHOW_SAMPLES = 1000
"""Worlds a batch (per option, at a choice) for ``rollem play --show-odds``
(:func:`rollem.odds.play.play_odds` adds batches until ±1.5 points or about a
second of CPU)."""


def _pct(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{100 * x:.{digits}f}%"


ROUGH_EFFECTIVE = 1000
"""Weighted worlds (Roll Your Own after the discard, 5-2-1): with fewer
effective worlds than this the stated interval is called rough, for a few
very heavy worlds can move the answer more than it says (measured: at 6
players late in Roll Your Own, about 400 effective worlds in a second, the
interval covered a long run's value 4 times in 20; docs/dev/odds-precision.md)."""

WIDTH = 80
"""Lines shown in play are at most this many columns (issue 33)."""


def rounded_shares(chances: list[float], digits: int = 0) -> list[float]:
    """Chances that add up to 1 (whole pot, a share, nothing), rounded to
    ``digits`` decimals of a percent so that the percentages shown add up
    to exactly 100 (largest remainder: each is rounded down, then the ones
    that lost most are rounded up; issue 33)."""
    scale = 100 * 10 ** digits
    raw = [max(0.0, x) * scale for x in chances]
    down = [int(x) for x in raw]
    short = round(sum(raw)) - sum(down)
    for i in sorted(range(len(raw)), key=lambda i: down[i] - raw[i])[:max(0, short)]:
        down[i] += 1
    return [d / scale for d in down]


def fit(line: str, width: int | None = WIDTH, indent: str = "  ") -> list[str]:
    """``line`` as lines of at most ``width`` columns, broken only between
    its phrases (at ``" · "`` and at three spaces), never inside one; the
    lines after the first indented by ``indent`` (a phrase longer than a
    line is broken between words). ``width`` ``None``: ``[line]`` (a browser
    wraps its own lines)."""
    import re
    import textwrap

    if width is None:
        return [line]

    parts = re.split(r"( · |   )", line)
    out: list[str] = []
    cur = parts[0]
    for sep, part in zip(parts[1::2], parts[2::2], strict=True):
        if len(cur) + len(sep) + len(part) + 2 <= width:  # room for a " ·" after it
            cur += sep + part
        elif sep == " · " and len(cur) <= width < len(cur) + 2:
            # the phrase fills its line: its " ·" begins the next (s67-try: the 5-2-1
            # declare's "Your odds: equity 13% if you declare high (the best; expected
            # share of the pot)", 79 columns, left the " ·" alone on a line of its own)
            out.append(cur)
            cur = indent + "· " + part
        else:
            out.append(cur + (" ·" if sep == " · " else ""))
            cur = indent + part
    out.append(cur)
    lines: list[str] = []
    for text in out:
        if len(text) <= width:
            lines.append(text)
        else:  # (a " ·" kept with the word before it: never a line of its own)
            lines += [x.replace("\u00a0·", " ·") for x in textwrap.wrap(
                text.replace(" ·", "\u00a0·"), width, subsequent_indent=indent,
                break_long_words=False, break_on_hyphens=False)]
    return lines


def odds_line(odds: Odds, digits: int = 0) -> str:
    """One line: equity, then the chances of the whole pot, a share, nothing
    (5-2-1: the high half and the low half too, and the best declaration).
    The whole pot, a share and nothing add up to 100% as shown
    (:func:`rounded_shares`)."""
    def p(x: float | None) -> str:
        return _pct(x, digits)

    whole = "whole pot (scoop)" if odds.high_half is not None else "whole pot"
    win, tie, lose = rounded_shares([odds.win, odds.tie, odds.lose], digits)
    parts = [f"equity {p(odds.equity)} (expected share of the pot)",
             f"{whole} {p(win)}", f"a share {p(tie)}", f"nothing {p(lose)}"]
    if odds.high_half is not None:
        parts += [f"high half {p(odds.high_half)}", f"low half {p(odds.low_half)}"]
    if odds.declare is not None and odds.own_declare is None:
        if odds.advice is not None and odds.advice.decision == "declare":
            # the equity and the halves are the best declaration's (issue 33)
            parts[0] = (f"equity {p(odds.equity)} if you declare {odds.best_declare} "
                        "(the best; expected share of the pot)")
        else:
            parts.append(f"best declare {odds.best_declare}")
    return " · ".join(parts)


ADVICE_HEADS = {"discard": "cards to throw into the pool", "draw": "cards to throw",
                "stack": "stacking order", "declare": "what to declare",
                "expose": "card to turn up", "wild": "pool card to pick"}
"""The advice's subject per decision, as the table's buttons ask it (issue 26)."""

RULE_OF_THUMB = "<- rule of thumb"
"""Marks the option the look-ahead's own simple play (its policy) would take."""


def advice_lines(advice: Advice, digits: int = 1, width: int | None = None,
                 rough: bool = False) -> list[str]:
    """The options of the seat's choice, best first, one a line, with equity
    and standard error (or, where worked out, its 95% interval: issue 33), in
    the words of the table's buttons ("throw Kd") and plain words for the
    method (deals played out, a rule of thumb for every later choice); the
    rule of thumb's own pick marked; lines broken at ``width`` columns
    (:func:`fit`; ``None``: never). ``rough``: the worlds the options were
    played out in are the odds' own, called rough (few effective worlds,
    :func:`play_lines`), and the heading says their intervals are rough too
    (s67-try: the odds said "rough" while the options of the same worlds
    stated plain 95% intervals)."""
    subject = ADVICE_HEADS.get(advice.decision, advice.decision)
    shown = len(advice.choices)
    which = (f"the {shown} best of {advice.options} options" if shown < advice.options
             else f"all {advice.options} options")
    head = (f"Advice, {subject} ({which}, each played out in {advice.samples:,} random deals; "
            "every later choice made by rule of thumb):")
    interval = bool(advice.choices) and all(c.interval is not None for c in advice.choices)
    if interval and rough:
        head = head[:-2] + "; ± is a 95% interval, rough: few effective worlds, may be wider):"
    elif interval:
        head = head[:-2] + "; ± is a 95% interval):"
    elif advice.choices:  # (rollem odds: play's ± is a 95% interval, so say which)
        head = head[:-2] + "; ± is one standard error):"
    lines = fit(head, width)
    wide = max(len(c.action) for c in advice.choices) if advice.choices else 0
    for c in advice.choices:
        extra = ""
        if c.high_half is not None:
            extra = f"   high half {_pct(c.high_half, 0)}, low half {_pct(c.low_half, 0)}"
        mark = f"   {RULE_OF_THUMB}" if c.policy else ""
        if c.samples is not None:
            extra += f"   (stopped after {c.samples:,} deals: clearly behind)"
        if interval and c.interval == 0.0:
            spread = " (exact)"
        elif interval:
            spread = f" ± {100 * (c.interval or 0.0):.1f}"
        else:
            spread = f" ± {_pct(c.stderr, digits)}"
        lines += fit(f"  {c.action:<{wide}}  equity {_pct(c.equity, digits)}"
                     f"{spread}{extra}{mark}", width, indent="    ")
    if advice.note:
        lines += fit(f"  ({advice.note})", width, indent="   ")
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


def play_lines(odds: Odds, width: int | None = WIDTH) -> list[str]:
    """The lines shown in play for ``odds`` (from :func:`rollem.odds.play.play_odds`):
    "Your odds", saying whether they are exact or how wide their 95%
    interval is, then the advice; none over ``width`` columns (the terminal:
    :data:`WIDTH`), broken between phrases; ``width`` ``None`` (the web
    table, whose browser wraps): the odds one line, each option one line."""
    rough = odds.interval is not None and not (odds.method == "exact" and odds.interval == 0.0) \
        and (odds.rough or (odds.effective is not None and odds.effective < ROUGH_EFFECTIVE))
    if odds.interval is None:
        how = ""
    elif odds.method == "exact" and odds.interval == 0.0:
        how = " · exact (every outcome counted)"
    elif rough:
        how = (f" · each ± {100 * odds.interval:.1f} points, rough (few effective worlds: "
               "may be wider)")
    else:
        how = f" · each ± {100 * odds.interval:.1f} points (95% interval, Monte Carlo)"
    lines = fit("Your odds: " + odds_line(odds) + how, width)
    if odds.advice is not None:
        lines += advice_lines(odds.advice, width=width, rough=rough)
    return lines


def show_odds_text(view: object, *, rng: object = None, samples: int = SHOW_SAMPLES,
                   width: int = WIDTH, **budget: Any) -> tuple[str, bool]:
    """What ``rollem play --show-odds`` prints for the player's ``view``:
    ``("Your odds: ..." and, at a card choice, the advice lines, True)``, or
    ``("(odds not available: why)", False)``. The odds are
    :func:`rollem.odds.play.play_odds`' (exact, or to ±1.5 points within
    about a second of CPU: issue 33), ``samples`` worlds a batch; ``budget``
    goes to it (``cpu_seconds``, ``clock``, ``max_batches``, ``seed``,
    ``straying``). Lines are at most ``width`` columns (:data:`WIDTH`; a
    narrower terminal's width, so that it does not break them mid-phrase)."""
    import random

    from rollem.odds import OddsError
    from rollem.odds.play import play_odds

    try:
        odds = play_odds(view, batch=samples,
                         rng=rng if isinstance(rng, random.Random) else None, **budget)
    except OddsError as err:
        # fitted as every odds line (issue 33: no line over 80 columns)
        return "\n".join(fit(f"(odds not available: {err})", width)), False
    return "\n".join(play_lines(odds, width)), True
