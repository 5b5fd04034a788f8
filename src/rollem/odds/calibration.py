"""Calibration of the look-ahead odds against hands played by the policy (issue 16).

:func:`calibrate` plays seeded hands in which every seat plays by a policy
(:class:`rollem.odds.policy.PolicyPlayer`: card choices by the policy,
check or call every bet, the players the look-ahead model assumes). At one
decision of seat 0 per hand it records the equity predicted for the option
the seat then takes (or the odds' equity where there is no advice), and at
the end the share of the pot the seat won. Predictions are binned; in each
bin the realised total is compared with the predicted total, its variance
the sum of ``p (1 - p)`` (a share is in 0..1, so this bounds its variance)
plus the predictions' own Monte Carlo variance. The sum of squared
z-scores is compared with the 99.9% point of chi-squared
(:func:`chi2_limit`). With ``opponents`` the other seats are our computer
players instead (``basic``, ``strong``, or a mixed table), whose choices
the model reads only as the policy's, straying; with ``shown`` it also
counts the figures shown at 99% or more, or 1% or less, that the hand
contradicted (issue 33, branch s65-model;
``bench/bench_model_opponents.py``, ``tests/test_odds_against_bots.py``).
``tests/test_odds_lookahead.py`` runs it small; ``bench/bench_calibration.py``
large.

>>> chi2_limit(3) > 3
True
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

import numpy as np

__all__ = ["BIN_EDGES", "Calibration", "calibrate", "chi2_limit", "realised_share"]

BIN_EDGES = (0.0, 0.15, 0.35, 0.6, 1.01)
"""Predicted equity bins."""


def chi2_limit(dof: int, z: float = 3.09) -> float:
    """The upper point of chi-squared with ``dof`` degrees of freedom at the
    normal quantile ``z`` (3.09: 99.9%), by Wilson-Hilferty."""
    a = 2 / (9 * dof)
    return dof * (1 - a + z * math.sqrt(a)) ** 3


def realised_share(hand: Any, seat: int) -> float:
    """The share of the whole pot ``seat`` won in a finished hand (a carried
    pot counts as won by nobody), 0..1."""
    result = hand.result
    assert result is not None
    total = sum(p.amount for p in result.pots) + result.carried
    return float(sum(p.winners.get(seat, 0) for p in result.pots) / total)


@dataclass
class Calibration:
    """The outcome of :func:`calibrate`."""

    predicted: list[float]
    stderr: list[float]
    realised: list[float]
    kinds: dict[str, int]
    models: dict[str, int]
    seconds: list[float] = field(default_factory=list)
    """Per prediction, the wall-clock time of the odds and advice (s)."""
    cpu_seconds: list[float] = field(default_factory=list)
    """Per prediction, this process's CPU time for the odds and advice (s)."""
    bins: list[tuple[float, float, int, float, float, float]] = field(default_factory=list)
    """Per bin with at least 5 predictions: ``(low, high, n, mean predicted,
    mean realised, z)``."""
    chi2: float = 0.0
    dof: int = 0
    shown: list[tuple[int, dict[str, float], dict[str, float]]] = field(default_factory=list)
    """Per prediction (with ``shown``): the hand's number ``n``, the chances
    shown for the option the seat takes (``equity``, ``whole``, in 5-2-1
    ``high_half``, ``low_half``; ``nothing`` where there is no advice; 0..1)
    and what happened (the share won; 1.0 or 0.0 for the others)."""

    def extremes(self, edge: float = 0.01) -> tuple[int, int]:
        """``(shown, wrong)`` of :meth:`wrong_extremes`."""
        count, wrong = self.wrong_extremes(edge)
        return count, len(wrong)

    def wrong_extremes(self, edge: float = 0.01) -> tuple[int, list[tuple[int, str, float, float]]]:
        """``(shown, wrong)``: how many shown chances were at least ``1 -
        edge`` or at most ``edge``, and how many of those the hand
        contradicted (the event did not happen, or did; for the equity a
        share below ``1 - edge``, or above ``edge``): the overconfidence a
        user sees (issue 33, branch s65-model); the wrong ones as ``(hand,
        figure, shown, happened)``."""
        count = 0
        wrong: list[tuple[int, str, float, float]] = []
        for n, figs, real in self.shown:
            for name, p in figs.items():
                r = real[name]
                if p >= 1 - edge or p <= edge:
                    count += 1
                    if (p >= 1 - edge and r < 1 - edge) or (p <= edge and r > edge):
                        wrong.append((n, name, p, r))
        return count, wrong

    @property
    def limit(self) -> float:
        """The 99.9% point for :attr:`dof` (``inf`` with no bin)."""
        return chi2_limit(self.dof) if self.dof else math.inf

    @property
    def ok(self) -> bool:
        """The predictions match the realised shares (chi-squared below its
        99.9% point, in at least two bins)."""
        return self.dof >= 2 and self.chi2 < self.limit

    def spread(self) -> tuple[float, float]:
        """The mean realised share of the hands predicted above the median,
        and below it (predictions that carry information differ)."""
        p = np.asarray(self.predicted)
        r = np.asarray(self.realised)
        mid = float(np.median(p))
        return float(r[p >= mid].mean()), float(r[p < mid].mean())

    @property
    def fallbacks(self) -> int:
        """Predictions answered by a fallback model (Roll Your Own's tracked
        pool, which does not read opponents' keeps and exposes)."""
        return sum(n for name, n in self.models.items() if name.startswith("tracked"))


def calibrate(game: str, *, hands: int, players: int, pick: str = "any",
              samples: int = 300, seed: int = 1000, opponents: str = "policy",
              shown: bool = False, first: int = 0) -> Calibration:
    """Play ``hands`` seeded hands by the policy and compare predictions
    with outcomes (see the module doc).

    Args:
        game: ``"sdr"``, ``"rollyourown"`` or ``"rollem521"``.
        hands, players: how many hands, of how many players (400 chips,
            ante 12, every seat by the policy).
        pick: which decision of seat 0 is predicted: ``"any"`` (its card
            choices in turn, one per hand), ``"first"`` (its first decision
            of any kind, bets included), ``"late"`` (its first decision of
            any kind once it has drawn twice: in Roll Your Own from the
            pool, R-RYO-5..6; in 5-2-1 both draws), or a decision kind
            (``"discard"``, ``"expose"``, ``"draw"``, ...: the first of it),
            ``"every"``: its ``n % 10``-th decision of any kind, bets
            included (in 5-2-1 the rounds after cards are rolled too), or
            ``"rolled"`` (5-2-1): its ``n % 5``-th decision once cards are
            rolled up (R-521-7), where the opponents' stacking is read.
        samples: worlds per option for each prediction.
        seed: hand ``n`` is dealt from ``SeededSource(seed + n)``.
        opponents: who plays seats 1 and up (seat 0 plays the policy):
            ``"policy"`` (:class:`rollem.odds.policy.PolicyPlayer`, the
            players the model assumes), ``"basic"`` or ``"strong"`` (the
            computer players of the table and the terminal,
            :func:`rollem.bots.make_bot`, their card choices; every bet is
            checked or called, so that no one folds, as the model assumes),
            or ``"mixed"`` (seat ``s`` of hand ``n`` by ``(s + n) % 3``:
            policy, basic, strong). Issue 33, branch s65-model.
        shown: also record, per prediction, the seat's shown chances and
            what happened (:attr:`Calibration.shown`).
        first: the hands are numbered ``first`` to ``first + hands - 1``
            (to replay some of a longer run).

    Raises:
        KeyError: an unknown ``opponents``.
    """
    import time

    from rollem.engine import Hand, Options, SeededSource
    from rollem.odds.policy import FAST, PolicyPlayer
    from rollem.odds.view import view_equity

    preds: list[float] = []
    errs: list[float] = []
    real: list[float] = []
    kinds: dict[str, int] = {}
    models: dict[str, int] = {}
    seconds: list[float] = []
    cpu: list[float] = []
    shows: list[tuple[int, dict[str, float], dict[str, float]]] = []
    for n in range(first, first + hands):
        hand = Hand(game, [400] * players, button=n % players, options=Options(ante=12),
                    source=SeededSource(seed + n))
        seats = [PolicyPlayer(FAST, random.Random(s)) if s == 0
                 else _opponent(opponents, s, n) for s in range(players)]
        choices = every = after = 0
        figures: dict[str, float] | None = None
        predicted: tuple[float, float] | None = None
        while not hand.is_over:
            assert hand.pending is not None
            kind = hand.pending.kind
            seat = hand.pending.seats[0]
            view = hand.view(seat)
            if seat == 0 and predicted is None:
                card_choice = kind != "bet"
                if pick == "first":
                    want = True
                elif pick == "late":
                    want = _draws(view) >= 2
                elif pick == "any":
                    want = card_choice and choices == n % 4
                elif pick == "every":
                    want = every == n % 10
                elif pick == "rolled":
                    want = _rolled(view) and after == n % 5
                    after += _rolled(view)
                else:
                    want = kind == pick
                choices += card_choice
                every += 1
                if want:
                    start, start_cpu = time.perf_counter(), time.process_time()
                    odds = view_equity(view, samples=samples, seed=n, advice=True)
                    took = time.perf_counter() - start
                    took_cpu = time.process_time() - start_cpu
                    row = None
                    if odds.advice is not None:
                        row = next((ch for ch in odds.advice.choices if ch.policy), None)
                    if row is not None:
                        predicted = (row.equity, row.stderr)
                    elif odds.advice is None or len({ch.equity for ch in odds.advice.choices}) == 1:
                        predicted = (odds.equity, odds.stderr)
                    if predicted is not None:
                        seconds.append(took)
                        cpu.append(took_cpu)
                        kinds[kind] = kinds.get(kind, 0) + 1
                        model = (odds.model or odds.method).split(":")[0]
                        models[model] = models.get(model, 0) + 1
                        # the option the seat takes (at the 5-2-1 declare the
                        # odds' own figures are the best declaration's)
                        figs = ({"equity": row.equity, "whole": row.whole_pot,
                                 "high_half": row.high_half, "low_half": row.low_half}
                                if row is not None else
                                {"equity": odds.equity, "whole": odds.win,
                                 "nothing": odds.lose, "high_half": odds.high_half,
                                 "low_half": odds.low_half})
                        figures = {k: v for k, v in figs.items() if v is not None}
            hand.apply(seat, seats[seat].act(view))
        if predicted is None:
            continue
        preds.append(predicted[0])
        errs.append(predicted[1])
        real.append(realised_share(hand, 0))
        if shown and figures is not None:
            shows.append((n, figures, _happened(hand, 0)))
    out = Calibration(predicted=preds, stderr=errs, realised=real, kinds=kinds, models=models,
                      seconds=seconds, cpu_seconds=cpu, shown=shows)
    p, e, r = np.asarray(preds), np.asarray(errs), np.asarray(real)
    for lo, hi in pairwise(BIN_EDGES):
        m = (p >= lo) & (p < hi)
        k = int(m.sum())
        if k < 5:
            continue
        var = float((p[m] * (1 - p[m])).sum() + (e[m] ** 2).sum())
        z = float((r[m].sum() - p[m].sum()) / math.sqrt(max(var, 1e-9)))
        out.bins.append((lo, hi, k, float(p[m].mean()), float(r[m].mean()), z))
        out.chi2 += z * z
        out.dof += 1
    return out


class _CardBot:
    """A computer player's card choices, every bet checked or called (the
    look-ahead model has no one fold)."""

    def __init__(self, bot: Any, caller: Any) -> None:
        self.bot, self.caller = bot, caller

    def act(self, view: Any) -> object:
        if set(view.legal.actions) & {"discard", "expose", "wild", "draw", "stack", "declare"}:
            return self.bot.act(view)
        return self.caller.act(view)


def _opponent(opponents: str, seat: int, n: int) -> Any:
    """Seat ``seat``'s player in hand ``n`` (see :func:`calibrate`).

    Raises:
        KeyError: an unknown ``opponents``."""
    from rollem.bots import make_bot
    from rollem.odds.policy import FAST, PolicyPlayer

    level = opponents
    if opponents == "mixed":
        level = ("policy", "basic", "strong")[(seat + n) % 3]
    caller = PolicyPlayer(FAST, random.Random(seat))
    if level == "policy":
        return caller
    if level not in ("basic", "strong"):
        raise KeyError(f"unknown opponents {opponents!r}: expected policy, basic, strong or mixed")
    return _CardBot(make_bot(level, random.Random(1000 * n + seat)), caller)


def _happened(hand: Any, seat: int) -> dict[str, float]:
    """What the chances of :attr:`Calibration.shown` came to for ``seat``."""
    share = realised_share(hand, seat)
    pot = hand.result.pots[0]
    out = {"equity": share, "whole": float(share >= 1 - 1e-9), "nothing": float(share <= 0)}
    if pot.high is not None and pot.low is not None:
        out.update(high_half=float(pot.high.get(seat, 0) > 0),
                   low_half=float(pot.low.get(seat, 0) > 0))
    return out


def _rolled(view: Any) -> bool:
    """A card has been rolled up in this 5-2-1 hand (R-521-7)."""
    return any(e.get("kind") == "roll" for e in view.to_dict()["events"])


def _draws(view: Any) -> int:
    """How many times the viewing seat has drawn so far (pool draws in Roll
    Your Own, draws in 5-2-1)."""
    seat = view.seat
    return sum(1 for e in view.to_dict()["events"]
               if e.get("kind") in ("pool_draw", "draw") and e.get("seat") == seat)
