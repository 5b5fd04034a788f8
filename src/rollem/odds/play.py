"""The odds shown in play, within a CPU budget (issue 33).

``rollem play --show-odds``, the web table's practice odds and the advice
with them show figures a player reads mid-hand, so each must be either
exact or come with an honest 95% interval, and be ready within about a
second of CPU. :func:`play_odds` does it:

- **Exact first.** Where the game's calculator counts every outcome within
  the budget it does (Stop, Drop and Roll: :data:`SDR_EXACT_LIMIT`; a game
  from a game file where its deals still to come fit
  :data:`rollem.odds.fileexact.EXACT_WORK`, at most
  :data:`rollem.odds.fileexact.FILE_EXACT_LIMIT`: hold'em from the turn
  heads-up, Omaha at the river heads-up, stud's seventh street heads-up,
  five-card draw heads-up; branch s71-exact).
  ``interval`` is 0.
- **Else Monte Carlo in batches** of ``batch`` worlds (per option at a
  choice), each from its own seed, until every figure's 95% interval is at
  most :data:`HALF_WIDTH` (±1.5 points; not before :data:`BETWEEN_BATCHES`
  batches, and never where the batches' spread checks the error,
  :data:`SPREAD`) or the next batch would pass the
  budget (:data:`CPU_SECONDS` of this thread's CPU time less a
  :data:`RESERVE`, a batch taken to cost as much as the dearest so far:
  :func:`batch_cost`); then a last, smaller batch in what is left of the
  budget (:data:`LAST_PART`). Importance-weighted batches are made smaller
  where fewer than :data:`MIN_BATCHES` would fit (:func:`min_batches_size`).
  The batches are averaged; the interval says what was reached (:func:`interval_of`).

The interval (half-width, :data:`Z95` standard errors) is the largest of
the figures' own: the equity's from the calculator's standard error
(importance-weighted worlds: by ancestor, :mod:`rollem.odds.ryoseen`); a
chance (whole pot, a share, nothing, the halves) from ``p (1 - p)`` over the
effective number of worlds (Kish's ``(sum w)^2 / sum w^2``, or the
calculator's own count, ``Odds.effective``), ``p`` shrunk towards one half
by two worlds each way (Agresti-Coull), so that a chance seen 0 times is
not given a zero-width interval. From :data:`BETWEEN_BATCHES` batches on,
the spread of the batches' equities is a check on the stated error: the
larger of the two is used. Importance-weighted batches are instead pooled
by the inverse of their stated variance, the pooled error stated times
:data:`POOL_FACTOR` (:func:`combine`; issue 33, branch s49-pool); in Roll
Your Own from the third card up at 5 and 6 players they are weighed by
worlds, their spread checking the stated error with Student's t
(:data:`SPREAD`; branch s52-ryo); at 4 players from the third card up they
are weighed by worlds, the error stated times :data:`WORLDS_FACTOR` and the
interval at least :data:`WORLDS_FLOOR` (branch s65-spread; after the wild
card, where the batches take the place steps, times
:data:`WORLDS_PLACES_FACTOR`, 1.1: branch s66-width4). An importance-weighted
equity near 0 or 100, where its relative error is large, has an interval
that allows for the error's growth towards the middle
(:func:`edge_half_width`; branch s70-edge).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from rollem.odds.result import WORLDS_WORDS, Advice, Choice, Odds, worlds_words

__all__ = ["BATCH", "CPU_SECONDS", "HALF_WIDTH", "SPREAD", "Z95", "batch_cost", "edge_half_width",
           "interval_of",
           "min_batches_size", "play_odds", "spread_stderr", "t975"]

CPU_SECONDS = 1.0
"""The CPU time (s) the odds shown in play may take (issue 33)."""
HALF_WIDTH = 0.015
"""The 95% interval aimed for: ±1.5 points of the pot."""
Z95 = 1.96
"""Standard errors in a 95% interval (normal)."""
BATCH = 1000
"""Monte Carlo worlds per batch (per option at a choice)."""
SDR_EXACT_LIMIT = 25_000_000
"""Stop, Drop and Roll in play counts exactly up to this many outcomes: every
case against one unknown hand (at most C(50, 3) x C(47, 2) = 21,187,600, about
a quarter of a second), and against several up to
:data:`rollem.odds.common.MAX_ENUMERATION` deals (about half a second)."""
ALL_OPTIONS = 1000
"""More options than any choice has (each batch lists them all)."""
BETWEEN_BATCHES = 5
"""From this many batches on, their spread checks the stated error; and
the batches stop early (the interval within :data:`HALF_WIDTH`) only from
then on (issue 33): a stated error is itself an estimate, and stopping as
soon as it first comes out small enough picks the runs where it came out
too small. Counted in whole batches: where each batch is a part of one
(``batch_part``; :func:`rollem.odds.ryoseen.play_part`), from this many
whole batches' worth on (20 quarter batches, 14 of 3/8; branch s51-ryo2)."""
WEIGHTED_BETWEEN = 3
"""Where the worlds are importance-weighted (the calculator states its own
effective count), the batches' spread checks the stated error from this
many batches on (issue 33): there the stated error (counted by ancestor)
runs low (at 6 players in Roll Your Own, where only two or three batches
fit the budget, by about a fifth). Used only where :func:`combine` is
told not to pool (``pooled=False``: the bench's long runs)."""
POOL_FACTOR = 1.2
"""Importance-weighted batches are pooled by inverse stated variance and the
pooled standard error is stated times this (issue 33, branch s49-pool): the
batches' stated errors run low (their distances from an 80-batch truth over
their stated errors: root mean square 1.06 to 1.16 at 6 players in Roll Your
Own after the second draw), and pooling by them favours the batches whose
error came out small (pooled runs: 1.18 to 1.38 with no factor; with 1.2,
0.98 to 1.15, covering 96, 98 and 35 of 100, 100 and 40 runs;
docs/dev/odds-precision.md)."""
COLLAPSED = 0.05
"""An importance-weighted batch with fewer effective worlds than this share of
its worlds has collapsed: the combined answer is marked rough
(``Odds.rough``; issue 33, branch s50-odds). Measured in the coverage bench:
Roll Your Own at 4 players in the third card up round, 18 of 20 runs held
such a batch and their intervals covered a long run 2 times in 20 (batches
stating errors as small as 0.02 points from a few ancestors); in the 16
other weighted views at 2 to 6 players, at most 2 of 20 runs
(docs/dev/odds-precision.md)."""
LAST_PART = 0.15
"""Where a whole batch no longer fits the budget, a last one of the share of
a batch that does (times :data:`LAST_MARGIN`) is run if that share is at
least this (issue 33; 0.3 before branch s50-odds)."""
LAST_MARGIN = 0.8
"""The share of what is left of the budget a last, smaller batch is sized to
(a batch's cost does not all shrink with its worlds; 0.7 before branch
s50-odds, when the budget held nothing back: :data:`RESERVE`)."""
RESERVE = 0.05
"""The share of the budget no batch is planned into (issue 33, branch
s50-odds): batches are sized to end by ``(1 - RESERVE) * cpu_seconds``, so
that one dearer than planned still ends within the budget (before, runs at
6 players in Roll Your Own took up to 1.059 s of a 1 s budget)."""
MIN_BATCHES = 4
"""Importance-weighted batches (pooled by their stated errors) are sized so
that at least this many fit the budget (:func:`min_batches_size`; issue 33,
branch s50-odds)."""
WORLDS_FACTOR = 1.2
"""Where play weighs importance-weighted batches by worlds, their spread
checking the stated error with the normal's 1.96 (``pooled`` ``False``:
Roll Your Own at 4 players from the third card up, :func:`rollem.odds.
ryoseen.pooled_view`), the combined error and interval are stated times
this (issue 33, branch s65-spread): the batches are skewed (2.8% of them
find the rare worlds where the seat takes the pot, at 10 to 20 points),
most runs stop at five batches, and a run whose five missed that tail
comes out low with a small error and a small spread (branch s65-four:
covered 284 of 309 at hand 30001; docs/dev/odds-precision.md). Not where
the batches take the place steps (after the wild card since branch s66-mix):
:data:`WORLDS_PLACES_FACTOR` there."""
WORLDS_FLOOR = 0.001
"""The least interval (a tenth of a point of the pot) stated where
:data:`WORLDS_FACTOR` applies (issue 33, branch s65-spread): after the wild
card at 4 players a chance near 0.08% was stated ±0.03 to ±0.06 from
batches whose weights hide how rare the seat's wins are (47 of 60 runs
covered, branch s65-four)."""
WORLDS_PLACES_FACTOR = 1.1
"""What :data:`WORLDS_FACTOR` is where the batches take the place steps
(:func:`rollem.odds.ryoseen.places_view`: Roll Your Own at 4 players after
the wild card since branch s66-mix, with the origin shares learnt and twice
the worlds read; issue 33, branch s66-width4). There a batch's stated error
matches the spread of a run's batches (hand 31002: 4.1 against 4.3 points)
and the batches of a run are as far apart as those of different runs (their
means' variance over the batches' own, 27 hands: 0.33 to 1.75, about 1), so
× 1.2 (measured on the sampler without the place steps at hand 30001) left
hand 31002 over ±1.5 in 46 of 50 runs. Replayed on 625 runs at 1 s (27
hands, 8 to 50 seeds each, every batch kept) against truths by plain
importance sampling: × 1.2 covered 603 of 617 judged (97.7%), 101 runs
over ±1.5; × 1.1 596 (96.6% ± 0.7), 49 over; × 1 583 (94.5% ± 0.9), 20
over, its misses on hands where play's runs sit 0.3 to 0.4 points from the
truth (31006, 31015), which the batches' spread does not show
(docs/dev/odds-precision.md). :data:`WORLDS_FLOOR` still applies."""
MIN_FILL = 0.9
"""The share of what is left of the budget after the first batch that the
:data:`MIN_BATCHES` - 1 smaller batches are sized to fill."""


def play_odds(view: Any, *, rng: random.Random | None = None, seed: int | None = None,
              game: Any = None, cpu_seconds: float = CPU_SECONDS,
              half_width: float = HALF_WIDTH, batch: int = BATCH,
              max_batches: int | None = None, top: int = 10,
              batch_part: float | None = None,
              clock: Callable[[], float] = time.thread_time,
              straying: float | None = None) -> Odds:
    """The seat's odds and advice for play (see the module doc).

    Args:
        view: ``hand.view(seat)`` or its ``to_dict()``
            (:func:`rollem.odds.view_equity`).
        rng, seed: seed the batches (``seed`` wins); with neither, fresh
            entropy.
        game: a table's own game file (:func:`rollem.odds.view_equity`).
        cpu_seconds: the budget; no further batch is started when the time
            spent plus one batch's would pass it.
        half_width: stop once every figure's 95% interval is this narrow
            (not in a :data:`SPREAD` view: it runs to the budget).
        batch: worlds per batch (per option at a choice).
        max_batches: at most this many batches (``None``: the budget alone).
        top: at most this many options in the advice, best first.
        batch_part: the share of a whole sampler batch each batch draws
            (``None``: :func:`rollem.odds.ryoseen.play_part` of the view,
            0.25 in Roll Your Own at 6 players after the wild card, 0.5 at
            6 players in the third card up round and at 5 players in the
            third card up round, 4 at 3 players after the wild card, else 1
            (at 5 players after the wild card 0.5: 1,000 worlds, read
            from 4,000); the
            bench's long runs pass 1.0).
        clock: the CPU clock (s; default this thread's CPU time: the web table
            runs the odds in a worker thread); tests pass a counting one, so that the
            answer does not depend on the machine.
        straying: the chance each other player's card choice is any legal one
            rather than the policy's, where the table knows who they are
            (:func:`rollem.odds.straying.for_bots`: 1.0 where every other player
            is a ``random`` computer player; ``None``: the model's default,
            :data:`rollem.odds.look521.TREMBLE`). Read by Roll Your Own after
            the discard (:mod:`rollem.odds.ryoseen`; issue 33, branch s67-rough).

    Returns:
        :class:`Odds` with ``interval`` set (0.0 when exact) and, with
        advice, each choice's ``interval``; ``samples`` the worlds of all
        batches together.

    Raises:
        OddsError: as :func:`rollem.odds.view_equity` (a negative ``seed`` too).
        ValueError: ``straying`` outside 0..1.
    """
    from rollem.odds.straying import others_stray

    with others_stray(straying):
        return _play_odds(view, rng=rng, seed=seed, game=game, cpu_seconds=cpu_seconds,
                          half_width=half_width, batch=batch, max_batches=max_batches,
                          top=top, batch_part=batch_part, clock=clock)


def _play_odds(view: Any, *, rng: random.Random | None, seed: int | None, game: Any,
               cpu_seconds: float, half_width: float, batch: int, max_batches: int | None,
               top: int, batch_part: float | None, clock: Callable[[], float]) -> Odds:
    """:func:`play_odds` within its straying (:func:`rollem.odds.straying.others_stray`)."""
    from rollem.odds.common import check_seed
    from rollem.odds.fileexact import FILE_EXACT_LIMIT
    from rollem.odds.view import VIEW_EXACT_LIMIT, read_view, view_equity

    check_seed(seed)
    start = clock()
    info = read_view(view)
    exact_limit = SDR_EXACT_LIMIT if info.game == "sdr" else VIEW_EXACT_LIMIT \
        if info.game in ("rollyourown", "rollem521") else FILE_EXACT_LIMIT
    seeds = random.Random(seed) if seed is not None else (rng or random.Random())

    from rollem.odds.ryoseen import (
        evidence_lean,
        part_of_batch,
        places_view,
        play_part,
        pooled_view,
        setup_seconds,
        shared_proposals,
        spread_view,
        stated_dof,
    )

    # issue 33, branch s50-ryo: by worlds where not; branch s52-ryo: allowing
    # for the batches' spread where a batch's chain leaves much frozen
    pooled: bool | str = pooled_view(info)
    if pooled and spread_view(info):
        pooled = SPREAD

    # smaller batches, more of them, at 6 players after the wild card
    # (branch s51-ryo2, kept with SPREAD by branch s52-ryo)
    base = play_part(info) if batch_part is None else batch_part
    # where the batches' spread checks the error (SPREAD), a run uses its whole
    # budget: stopping once the spread first came out small picks the runs whose
    # spread came out too small (stop 63: 180 runs of the same seeds covered the
    # truth 167 times run to the end, 162 times stopped at ±1.5; at 6 players after
    # the wild card, the median ±1.36 in place of ±1.48; docs/dev/odds-precision.md)
    stops_early = pooled != SPREAD
    # leaning towards the batches' ratio of sums where the view says how far
    # (6 players after the wild card; branch s67-lean6)
    lean = evidence_lean(info)
    leaning: dict[str, Any] = {} if lean is None else {"lean": lean}
    # the batches' stated errors beside their spread where the view says how
    # much they count (5 players after the wild card; branch s68-five)
    dof = stated_dof(info)
    if dof:
        leaning["stated"] = dof

    def one(part: float = 1.0) -> Odds:
        # every option in every batch (an option listed only where it came out
        # well would be biased upwards); the best ``top`` once combined
        part *= base
        with part_of_batch(part):
            return view_equity(view, samples=max(1, round(batch * part)),
                               seed=seeds.getrandbits(63), advice=True,
                               exact_limit=exact_limit, game=game, top=ALL_OPTIONS)

    # Roll Your Own after the discard: one pilot for all batches, its cost counted
    with shared_proposals(clock, deadline=start + cpu_seconds * (1.0 - RESERVE)):
        before = clock() - start
        runs = [one()]
        if runs[0].method == "exact":
            return _exact(_top(runs[0], top))
        first = clock() - start
        # the first batch's own cost, without reading the view and making the
        # proposals (issue 33: at 6 players in Roll Your Own these were up to
        # a third of the first batch, which taken as a batch's cost left up to
        # a quarter of the second unused)
        own = max(first - before - setup_seconds(), 0.0)
        weighted = runs[0].effective is not None
        by_worlds = weighted and pooled is False  # (stated wider: _widen)
        # not with the place steps (4 players after the wild card; branch s66-width4)
        factor = WORLDS_PLACES_FACTOR if places_view(info) else WORLDS_FACTOR
        target = cpu_seconds * (1.0 - RESERVE)
        size = 1.0  # the share of a whole batch the next batches are
        costs: list[tuple[float, float]] = []  # (share, CPU s) of each later batch
        spent_before, size_run = first, 1.0
        while True:
            odds = _widen(_top(combine(runs, pooled, **leaning), top), by_worlds, factor)
            assert odds.interval is not None
            spent = clock() - start
            if len(runs) > 1:  # this batch's cost, its combining included
                costs.append((size_run, spent - spent_before))
            if (stops_early and odds.interval <= half_width
                    and _advice_done(odds.advice, half_width)
                    and len(runs) * base >= BETWEEN_BATCHES):
                return odds
            if max_batches is not None and len(runs) >= max_batches:
                return odds
            unit = batch_cost(own, costs)
            left = target - spent
            if weighted and len(runs) == 1:
                size = min_batches_size(left, unit)
            if unit * size > left:
                # a last, smaller batch in what is left of the budget (issue 33)
                part = LAST_MARGIN * left / max(unit, 1e-9)
                if part < LAST_PART or not math.isfinite(part):
                    return odds
                runs.append(one(min(part, size)))
                return _widen(_top(combine(runs, pooled, **leaning), top), by_worlds, factor)
            spent_before, size_run = spent, size
            runs.append(one(size))


def _widen(odds: Odds, by_worlds: bool, factor: float | None = None) -> Odds:
    """``odds`` with its stated error and interval times ``factor`` (``None``:
    :data:`WORLDS_FACTOR`; play passes :data:`WORLDS_PLACES_FACTOR` with the
    place steps, branch s66-width4), the interval at least
    :data:`WORLDS_FLOOR`, where ``by_worlds`` (importance-weighted batches
    weighed by worlds without Student's t: Roll Your Own at 4 players from
    the third card up; issue 33, branch s65-spread), but not past 0 or 100
    where it was within them before (branch s70-edge); else ``odds`` as it
    is."""
    if not by_worlds or odds.interval is None:
        return odds
    if factor is None:
        factor = WORLDS_FACTOR
    # not past 0 or 100 where the interval did not already pass it (issue 33,
    # branch s70-edge: :func:`edge_half_width`'s may reach it, times 1.1 pass it)
    wider = odds.interval * factor
    near = min(odds.equity, 1.0 - odds.equity)
    if odds.interval <= near:
        wider = min(wider, near)
    return replace(odds, stderr=odds.stderr * factor, interval=max(wider, WORLDS_FLOOR))


def batch_cost(own: float, costs: Sequence[tuple[float, float]]) -> float:
    """The CPU seconds a whole batch is taken to cost when sizing the next
    (issue 33, branch s50-odds): the dearest per whole batch of the later
    batches so far (``costs``: each one's share of a whole batch and CPU
    seconds), or the first batch's own cost ``own`` before there is one.
    The dearest, not the mean: a batch dearer than the mean started just
    within the budget is what took runs past it (1.059 s of CPU at most
    over 600 runs, branch s49-pool).

    >>> batch_cost(0.25, [])
    0.25
    >>> batch_cost(0.25, [(1.0, 0.2), (1.0, 0.22), (0.5, 0.12)])
    0.24
    """
    if not costs:
        return own
    return max(c / p for p, c in costs)


def min_batches_size(left: float, unit: float) -> float:
    """The share of a whole batch the batches after the first are, so that
    at least :data:`MIN_BATCHES` fit the budget (issue 33, branch s50-odds):
    1 where ``MIN_BATCHES - 1`` whole batches of ``unit`` CPU seconds fit
    in the ``left`` seconds of the budget, else :data:`MIN_FILL` of the
    share that does (not under :data:`LAST_PART`). Used for importance-
    weighted batches, which are pooled by their stated errors: pooled over
    two or three, one batch whose stated error came out small takes most of
    the weight (a run of three stated ±1.59 points, branch s49-pool).

    >>> min_batches_size(0.75, 0.2)
    1.0
    >>> round(min_batches_size(0.45, 0.25), 3)
    0.54
    """
    need = (MIN_BATCHES - 1) * unit
    if not math.isfinite(left) or left >= need:
        return 1.0
    return max(MIN_FILL * left / max(need, 1e-9), LAST_PART)


def _top(odds: Odds, top: int) -> Odds:
    """``odds`` with the best ``top`` options of its advice."""
    if odds.advice is None:
        return odds
    return replace(odds, advice=replace(odds.advice, choices=odds.advice.choices[:top]))


def _exact(odds: Odds) -> Odds:
    adv = odds.advice
    if adv is not None:
        adv = replace(adv, choices=[replace(c, interval=0.0 if c.stderr == 0 else
                                            Z95 * c.stderr) for c in adv.choices])
    return replace(odds, interval=0.0, advice=adv)


def _advice_done(advice: Advice | None, half_width: float) -> bool:
    """Every option played in every world has its interval within ``half_width``
    (one left behind early by the advice's race is clearly not the best)."""
    if advice is None:
        return True
    return all(c.interval is not None and c.interval <= half_width
               for c in advice.choices if c.samples is None)


def _chance_se(p: float, effective: float) -> float:
    """Standard error of a chance ``p`` seen over ``effective`` worlds, ``p``
    shrunk by two worlds each way (Agresti-Coull)."""
    q = (p * effective + 2) / (effective + 4)
    return math.sqrt(q * (1 - q) / (effective + 4))


def interval_of(equity_se: float, chances: Sequence[float | None], effective: float) -> float:
    """The 95% half-width covering the equity (standard error ``equity_se``)
    and every chance in ``chances`` (``None`` skipped) over ``effective``
    worlds."""
    ses = [equity_se] + [_chance_se(p, effective) for p in chances if p is not None]
    return Z95 * max(ses)


EDGE_BETA = 2.0
"""How fast the equity's error is taken to grow away from 0 and 100 where a
run's relative error is large (:func:`edge_half_width`; at most 2, so that
each end of the interval is one share): the error at a share ``p`` is the
run's own times ``(p (1 - p) / (e (1 - e)))**(b / 2)``, ``e`` the run's
equity, ``b`` this times ``(r -`` :data:`EDGE_FROM` ``) / (``
:data:`EDGE_FULL` ``-`` :data:`EDGE_FROM` ``)`` within 0..1, ``r = 1.96 se
/ min(e, 1 - e)`` the run's relative error (issue 33, branch s70-edge). At
2 the error is a constant share of ``p (1 - p)`` (a constant error on the
logit scale); at 1 the interval is Wilson's."""
EDGE_FROM = 0.10
"""The relative error ``1.96 se / min(e, 1 - e)`` up to which a run's interval
is Wald's ``1.96 se`` (:func:`edge_half_width`): hands in the middle, whose
runs' relative errors are 0.01 to 0.07, keep their width exactly (at 5
players after the wild card, 36 of 1,469 runs on hands 10% to 90% from 0
or 100 were widened, at most × 1.03; issue 33, branch s70-edge)."""
EDGE_FULL = 0.25
"""The relative error from which a run's interval allows in full
(:data:`EDGE_BETA`) for its error's growth towards the middle (5 players
after the wild card: 31051 at 1.21%, runs' relative errors 0.2 to 0.3;
31036 at 0.18%, 0.4 to 0.8; issue 33, branch s70-edge)."""


def edge_half_width(equity: float, stderr: float, beta: float = EDGE_BETA) -> float:
    """The 95% half-width of an equity ``equity`` (a share of the pot, 0 to
    1) whose standard error ``stderr`` shrinks with it towards 0 or 100:
    the larger of the distances from ``equity`` to the shares ``p`` with
    ``|p - e| = 1.96 se(p)``, ``se(p)`` :data:`EDGE_BETA`'s (a score
    interval in Wilson's manner, the error taken at the share tried rather
    than at the estimate; both ends within 0..1). Roll Your Own's weighted
    batches near 0 and 100 scatter with a long tail towards the middle: a
    run that missed the rare, heavy worlds where the seat wins comes out low
    and states a small error, so Wald's ``1.96 se`` misses it (5 players
    after the wild card, hand 31051 at 1.21%: 72 of 86 runs covered, 13 of
    the 14 misses low; issue 33, branch s70-edge). ``1.96 se`` where
    ``equity`` is 0 or 1 or ``stderr`` not positive; never less than it.

    Raises:
        ValueError: ``equity`` outside 0..1, ``stderr`` negative or not
            finite, or ``beta`` outside 0..2.

    >>> round(edge_half_width(0.5, 0.01), 6)  # the middle: Wald's
    0.0196
    >>> round(edge_half_width(0.4, 0.0107), 6)  # r 0.052: Wald's
    0.020972
    >>> round(edge_half_width(0.0081, 0.00122), 6)  # r 0.295: b 2
    0.003376
    >>> round(edge_half_width(0.0081, 0.0006), 6)  # r 0.145: b 0.6
    0.001227
    """
    if not (0.0 <= equity <= 1.0 and math.isfinite(stderr) and stderr >= 0
            and 0.0 <= beta <= 2.0):
        raise ValueError(f"need an equity within 0..1, a finite error not negative and beta "
                         f"within 0..2; got {equity}, {stderr}, {beta}")
    wald = Z95 * stderr
    near = min(equity, 1.0 - equity)
    if near <= 0.0 or stderr == 0.0:
        return wald
    grow = (wald / near - EDGE_FROM) / (EDGE_FULL - EDGE_FROM)
    if grow <= 0.0:
        return wald
    power = beta * min(1.0, grow) / 2
    var = equity * (1.0 - equity)

    def beyond(p: float) -> bool:  # p further than 1.96 of its own error
        return abs(p - equity) >= wald * math.pow(p * (1.0 - p) / var, power)

    ends = []
    for bound in (0.0, 1.0):  # bisection to 1e-12: one end each side (beta at most 2)
        inside, out = equity, bound
        for _ in range(40):
            mid = 0.5 * (inside + out)
            if beyond(mid):
                out = mid
            else:
                inside = mid
        ends.append(abs(out - equity))
    return max(wald, *ends)


def _effective(odds: Odds) -> float:
    return float(odds.effective if odds.effective is not None else odds.samples)


def _mean(values: Sequence[float | None], weights: Sequence[float]) -> float | None:
    known = [v for v in values if v is not None]
    if len(known) < len(values):
        return None
    return sum(w * v for w, v in zip(weights, known, strict=True)) / sum(weights)


def pool_shares(stderrs: Sequence[float]) -> list[float] | None:
    """Each batch's share in an inverse-variance pool: ``1 / se**2``
    normalised (issue 33); ``None`` where a stated error is 0 or not finite
    (no pool: such a batch would take the whole weight)."""
    if any(not (se > 0 and math.isfinite(se)) for se in stderrs):
        return None
    inv = [1.0 / (se * se) for se in stderrs]
    total = sum(inv)
    return [v / total for v in inv]


POOL_Q = 2.326
"""The normal quantile of the point (99%) beyond which the batches' Cochran's
Q says they disagree (:func:`pool_consistent`)."""


def pool_consistent(equities: Sequence[float], stderrs: Sequence[float],
                    factor: float = POOL_FACTOR) -> bool:
    """Whether importance-weighted batches agree within their stated errors
    (times ``factor``), so that pooling them by inverse stated variance is
    honest (issue 33, branch s50-odds): Cochran's ``Q = sum((x - m)**2 /
    (factor * se)**2)`` about the pooled mean ``m`` at most chi-squared's 99%
    point on ``len - 1`` degrees of freedom (Wilson-Hilferty,
    :func:`rollem.odds.calibration.chi2_limit`). Where it is not, a batch
    states an error far too small (one whose weights fell on one ancestor
    states about 0) and would take the pool: :func:`combine` then weighs the
    batches by worlds, their spread checking the error. Measured (Roll Your
    Own, 5 players, third card up, 20 runs recomputed on their batches):
    covered 17 of 20, rms z 1.16, against 15 and 2.22 pooled; no change on
    the 6-player runs after the second draw (docs/dev/odds-precision.md).
    One batch, or a stated error not positive: ``True``.

    >>> pool_consistent([0.10, 0.12, 0.11], [0.01, 0.01, 0.01])
    True
    >>> pool_consistent([0.0433, 0.0942, 0.018], [0.0002, 0.0212, 0.005])
    False
    """
    from rollem.odds.calibration import chi2_limit

    if len(equities) < 2 or pool_shares(stderrs) is None:
        return True
    inv = [1.0 / (se * se) for se in stderrs]
    m = sum(w * x for w, x in zip(inv, equities, strict=True)) / sum(inv)
    q = sum(w * (x - m) ** 2 for w, x in zip(inv, equities, strict=True)) / factor ** 2
    return q <= chi2_limit(len(equities) - 1, POOL_Q)


SPREAD = "spread"
"""``combine(runs, pooled=SPREAD)``: importance-weighted batches weighed by
worlds, not pooled, their spread checking the stated error from
:data:`WEIGHTED_BETWEEN` batches on with Student's t (:func:`t975`) on
``k - 1`` degrees of freedom in place of :data:`Z95` (issue 33, branch
s52-ryo): the spread of a few batches is itself a rough estimate of their
error. Play asks for it where :func:`rollem.odds.ryoseen.spread_view` says
so (Roll Your Own from the third card up at 5 and 6 players), where a
batch's chain never moves where the opponents' up cards came from, and a
batch may state 0.05 points where batches spread 10. Measured (60 runs at 5
and 6 players third card up, 20 after the wild card, against 40 s long
runs): covered 55, 58 and 20 (rms z 1.12, 0.77, 0.83) against the pool's
45, 50 and 19 (2.35, 1.60, 1.13); pooled allowing for a shared spread
(DerSimonian-Laird, Hartung-Knapp) 54, 56 and 20 (1.52, 0.89, 0.83);
docs/dev/odds-precision.md. Such a run uses its whole budget, never
stopping early at :data:`HALF_WIDTH` (stop 63)."""

EVIDENCE_SHARE = 0.0
"""With :data:`SPREAD`, where every batch states its mean unnormalised
weight (:attr:`rollem.odds.result.Odds.evidence`), how far the batches'
mean leans from weighing them by worlds (0) towards their ratio of sums
(1), each batch's weight over the run's mean capped at
:data:`EVIDENCE_CAP` (:func:`evidence_shares`), its error
:func:`lean_stderr` (issue 33, branch s64-bias). Each batch's equity is a
self-normalised mean, ``sum w x / sum w`` over its worlds, so it is off by
minus the covariance of its total weight (over the mean) with its equity:
+0.32 points at 6 players after the wild card in quarter batches (hand
30001), +0.19 in half batches, all of it from the last opponent's step; a
mean of batches keeps it however many there are, the ratio of sums does
not, but the batches' weights are noisy (docs/dev/odds-precision.md,
s64-bias: at 1 with the cap at 2, 349 runs came to 19.82 against main's
20.09, the truth 19.82, covered 93.4% against 91.1%, the median interval
1.12 times main's). 0: main's mean by worlds, bit for bit."""
EVIDENCE_CAP = 2.0
"""The most a batch's weight over its run's mean counts for where the
batches lean towards their ratio of sums (:data:`EVIDENCE_SHARE`): the
weights' tail (the largest of 15,633 quarter batches at 7.5 times its
run's mean) is where the ratio's noise comes from (issue 33, branch
s64-bias: capped at 2, the runs' spread 0.719 points against 0.762)."""

T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
        2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
"""Student's t at 97.5% for 1 to 30 degrees of freedom."""


def t975(dof: int) -> float:
    """Student's t at 97.5% on ``dof`` degrees of freedom (at least 1;
    beyond 30 ``1.96 + 2.37 / dof``, Cornish-Fisher's first term).

    >>> t975(4), t975(60)
    (2.776, 1.9995)
    """
    if dof < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {dof}")
    return T975[dof - 1] if dof <= len(T975) else round(Z95 + 2.37 / dof, 4)


def spread_stderr(equities: Sequence[float], worlds: Sequence[int]) -> float:
    """The standard error of the worlds-weighted mean of batches, read from
    their spread alone: ``sqrt(sum n_i (x_i - m)**2 / ((k - 1) N))``, the
    batches' equities ``x_i`` of ``n_i`` worlds each (``N`` in all, ``k``
    batches, at least 2; ``m`` their mean weighted by worlds). Unbiased where
    a batch's variance is one world's over its worlds; larger batches weigh
    more in the spread as they do in the mean (issue 33, branch s58-ryo: the
    formula before, ``sum w_i (x_i - m)**2 k / (k - 1) sum w_i**2``, is the
    same for batches alike and larger where the last batch is smaller,
    though that batch's larger spread is already allowed for by its fewer
    worlds). Equities are shares of the pot (0 to 1).

    Raises:
        ValueError: fewer than two batches, their counts differ, or a batch
            has no worlds.

    >>> round(spread_stderr([0.30, 0.32, 0.31], [1000, 1000, 1000]), 6)
    0.005774
    >>> round(spread_stderr([0.30, 0.32, 0.31], [1000, 1000, 500]), 6)
    0.006325
    """
    if len(equities) != len(worlds) or len(worlds) < 2 or min(worlds) < 1:
        raise ValueError(f"need two batches or more, each of one world or more, with an "
                         f"equity each; got {len(equities)} equities, worlds {list(worlds)}")
    total = sum(worlds)
    m = sum(n * x for n, x in zip(worlds, equities, strict=True)) / total
    return math.sqrt(sum(n * (x - m) ** 2 for n, x in zip(worlds, equities, strict=True))
                     / ((len(worlds) - 1) * total))


def evidence_shares(runs: Sequence[Odds], lean: float, cap: float = EVIDENCE_CAP
                    ) -> tuple[list[float], list[float]] | None:
    """Each batch's share of the mean leaning ``lean`` (0 to 1) from its
    worlds' share towards its share of the ratio of sums, and each batch's
    weight over the run's mean ``z_i``: the batch's total unnormalised
    weight ``evidence * samples`` over the run's mean per world, capped at
    ``cap`` and scaled again so that ``sum n_i z_i`` is the run's worlds
    ``N``; the share ``n_i ((1 - lean) + lean z_i) / N``. ``None`` where a
    batch states no positive, finite ``evidence`` (issue 33, branch
    s64-bias).

    Raises:
        ValueError: ``lean`` outside 0..1 or ``cap`` not above 1.

    >>> from rollem.odds.result import Odds
    >>> b = [Odds(0, 0, 1, 0.3, "monte-carlo", 500, 0.01, evidence=e) for e in (1.0, 3.0, 2.0)]
    >>> shares, z = evidence_shares(b, 1.0, cap=10.0)
    >>> [round(x, 4) for x in shares], [round(x, 4) for x in z]
    ([0.1667, 0.5, 0.3333], [0.5, 1.5, 1.0])
    >>> [round(x, 4) for x in evidence_shares(b, 0.5, cap=1.25)[0]]
    [0.2576, 0.3939, 0.3485]
    """
    if not 0.0 <= lean <= 1.0 or not cap > 1.0:
        raise ValueError(f"lean must be within 0..1 and cap above 1, got {lean}, {cap}")
    worlds = [max(r.samples, 1) for r in runs]
    n = sum(worlds)
    weight = []
    for r, w in zip(runs, worlds, strict=True):
        if r.evidence is None or not (math.isfinite(r.evidence) and r.evidence > 0):
            return None
        weight.append(r.evidence * w)
    mean = sum(weight) / n
    z = [min(x / w / mean, cap) for x, w in zip(weight, worlds, strict=True)]
    scale = sum(w * v for w, v in zip(worlds, z, strict=True)) / n
    z = [v / scale for v in z]
    return [w * ((1 - lean) + lean * v) / n for w, v in zip(worlds, z, strict=True)], z


def lean_stderr(equities: Sequence[float], worlds: Sequence[int], z: Sequence[float],
                lean: float) -> float:
    """The standard error of the batches' mean leaning ``lean`` towards
    their ratio of sums (:func:`evidence_shares`' ``z``), read from their
    spread alone by the delta method: ``sqrt(sum n_i u_i**2 / ((k - 1)
    N))``, ``u_i = (1 - lean) (x_i - m) + lean z_i (x_i - r)``, ``m`` the
    mean by worlds, ``r`` the ratio ``sum n_i z_i x_i / N`` (equities
    shares of the pot, 0 to 1; ``k`` batches, at least 2). At ``lean`` 0
    it is :func:`spread_stderr` (issue 33, branch s64-bias).

    Raises:
        ValueError: as :func:`spread_stderr`, or the ``z`` do not match.

    >>> round(lean_stderr([0.30, 0.32, 0.31], [1000, 1000, 500], [1.0, 1.0, 1.0], 0.0), 6)
    0.006325
    >>> round(lean_stderr([0.30, 0.32, 0.31], [500, 500, 500], [0.5, 1.5, 1.0], 1.0), 6)
    0.005092
    """
    if len(z) != len(worlds):
        raise ValueError(f"need a weight per batch; got {len(z)} for {len(worlds)} batches")
    if lean == 0.0:
        return spread_stderr(equities, worlds)
    spread_stderr(equities, worlds)  # (its checks)
    total = sum(worlds)
    m = sum(n * x for n, x in zip(worlds, equities, strict=True)) / total
    r = sum(n * v * x for n, v, x in zip(worlds, z, equities, strict=True)) / total
    u = [(1 - lean) * (x - m) + lean * v * (x - r) for v, x in zip(z, equities, strict=True)]
    return math.sqrt(sum(n * a * a for n, a in zip(worlds, u, strict=True))
                     / ((len(worlds) - 1) * total))


def stated_stderr(spread: float, batches: int, stated: float, dof: float) -> float:
    """The standard error of ``batches`` batches' mean (``k``, at least 2)
    from their spread's error ``spread`` (:func:`spread_stderr` or
    :func:`lean_stderr`, on ``k - 1`` degrees of freedom) and their own
    stated errors combined ``stated`` (each batch's by its share of the
    mean) taken as ``dof`` degrees of freedom (above 0): the two variances
    pooled by their degrees of freedom, ``sqrt(((k - 1) spread**2 + dof
    stated**2) / (k - 1 + dof))``, times Student's t on ``k - 1 + dof``
    (rounded) over :data:`Z95`, so that 1.96 of it is the 95% half-width.
    Errors in the equity's units (shares of the pot). Where the spread of a
    few batches is itself rough and the batches' stated errors close to it
    (Roll Your Own at 5 players after the wild card: 14 half batches a run,
    the spread's ±1.97 and the stated ±2.04 points on hand 31021), the
    interval rests on more than ``k - 1`` degrees of freedom (issue 33,
    branch s68-five); the stated errors alone there covered 92%.

    Raises:
        ValueError: fewer than 2 batches, ``dof`` not above 0, or an error
            negative or not finite.

    >>> round(stated_stderr(0.01, 14, 0.01, 7.0), 6)  # t at 20 over 1.96
    0.010643
    >>> round(stated_stderr(0.02, 8, 0.01, 7.0), 6)
    0.017304
    """
    if batches < 2 or not dof > 0 or not all(
            math.isfinite(x) and x >= 0 for x in (spread, stated, dof)):
        raise ValueError(f"need 2 batches or more, dof above 0 and errors finite and not "
                         f"negative; got {batches}, {dof}, {spread}, {stated}")
    k1 = batches - 1
    var = (k1 * spread * spread + dof * stated * stated) / (k1 + dof)
    return math.sqrt(var) * t975(max(1, round(k1 + dof))) / Z95


def pooled_stderr(stderrs: Sequence[float], factor: float = POOL_FACTOR) -> float:
    """The stated standard error of an inverse-variance pool of batches whose
    stated errors are ``stderrs``: ``factor / sqrt(sum 1 / se**2)``
    (issue 33; :data:`POOL_FACTOR`). Errors as :func:`pool_shares`
    (``ValueError`` where it gives ``None``)."""
    if pool_shares(stderrs) is None:
        raise ValueError(f"stated errors must be positive and finite, got {list(stderrs)}")
    return factor / math.sqrt(sum(1.0 / (se * se) for se in stderrs))


def combine(runs: Sequence[Odds], pooled: bool | str = True, lean: float | None = None,
            stated: float | None = None, edge: bool = True) -> Odds:
    """The batches ``runs`` (each a Monte Carlo :class:`Odds` of the same
    question from its own seed) as one answer, and ``interval`` (see the
    module doc; the chances over the effective worlds of all batches
    together).

    Plain batches: each figure the mean weighted by the batch's worlds, its
    standard error from theirs, checked by the batches' spread from
    :data:`BETWEEN_BATCHES` on.

    Importance-weighted batches (the calculator states its own effective
    count), with ``pooled`` (as in play): every figure the mean weighted by
    the inverse of the batch's stated equity variance (:func:`pool_shares`),
    the equity's standard error :func:`pooled_stderr` (issue 33, branch
    s49-pool): a batch whose weights collapsed states a large error and
    weighs little, where the spread check let it widen the whole run. Not
    pooled (``pooled=False``: the bench's long runs, the truth the pooled
    runs are checked against) they are weighted by worlds as plain batches
    are, the spread checking from :data:`WEIGHTED_BETWEEN` batches on.
    With ``pooled`` :data:`SPREAD` they are weighted by worlds, the spread
    checking with Student's t (issue 33, branch s52-ryo), the spread's
    error :func:`spread_stderr` (each batch by its worlds; branch s58-ryo),
    leaning towards the batches' ratio of sums by :data:`EVIDENCE_SHARE`.
    ``lean`` (0 to 1; ``None``: :data:`EVIDENCE_SHARE`) is how far, with
    ``pooled`` :data:`SPREAD` or ``False`` (then the error from the spread by
    :func:`lean_stderr` with the normal's 1.96): play passes
    :func:`rollem.odds.ryoseen.evidence_lean`'s where it says one (6 players
    after the wild card; branches s67-four and s67-lean6).

    ``stated`` (``None`` or 0: as above) with ``pooled`` :data:`SPREAD`: the
    degrees of freedom the batches' own stated errors count for beside their
    spread's ``k - 1`` (:func:`stated_stderr`), in place of the larger of the
    two: play passes :func:`rollem.odds.ryoseen.stated_dof`'s where it says
    one (5 players after the wild card; issue 33, branch s68-five).

    ``edge`` (as in play): with importance-weighted batches the equity's
    interval is at least :func:`edge_half_width`'s, the error's growth
    towards the middle allowed for where the run's relative error is large
    (near 0 and 100), but not past 0 or 100 where the interval did not
    already reach it: at most ``min(equity, 1 - equity)`` (issue 33, branch
    s70-edge); ``False``: as before it.

    Weighting by a batch's own error (or effective count) favours the
    batches whose error came out small, which biases the mean where the two
    go together (importance weighting at 6 players in Roll Your Own: 100
    batches weighted by effective count came to 16.48 ± 0.30%, 100 weighted
    alike to 16.04 ± 0.26%, though of a sampler resampling in one group
    rather than eight; pooled by inverse variance, the runs of
    docs/dev/odds-precision.md's s49-pool section came 0.14, 0.04 and
    -0.04 points from the worlds-weighted mean, well within their
    intervals)."""
    total = sum(_effective(r) for r in runs)
    worlds = sum(max(r.samples, 1) for r in runs)
    share = [max(r.samples, 1) / worlds for r in runs]
    weighted = any(r.effective is not None for r in runs)
    pool = (pool_shares([r.stderr for r in runs])
            if weighted and pooled and pooled != SPREAD else None)
    if pool is not None and not pool_consistent([r.equity for r in runs],
                                                [r.stderr for r in runs]):
        pool = None  # the batches disagree beyond their errors: by worlds, spread checked
    if pool is not None:
        share = pool
    by_worlds = share
    toward = EVIDENCE_SHARE if lean is None else lean
    # (by worlds too, SPREAD or not, where ``lean`` is given: branch s67-four)
    leant = (evidence_shares(runs, toward, EVIDENCE_CAP)
             if (pooled == SPREAD or (pooled is False and lean is not None))
             and weighted and toward > 0 else None)
    if leant is not None:  # towards the ratio of sums (issue 33, branch s64-bias)
        share = leant[0]

    def mean(attr: str) -> Any:
        return _mean([getattr(r, attr) for r in runs], share)

    if pool is not None:
        se = pooled_stderr([r.stderr for r in runs])
    else:
        se = math.sqrt(sum((s * r.stderr) ** 2 for s, r in zip(share, runs, strict=True)))
    if pool is None and len(runs) >= (WEIGHTED_BETWEEN if weighted else BETWEEN_BATCHES):
        m = mean("equity")
        spread = sum(s * (r.equity - m) ** 2 for s, r in zip(share, runs, strict=True))
        by_spread = math.sqrt(spread * len(runs) / (len(runs) - 1) * sum(s * s for s in share))
        if leant is not None:  # the delta method (branch s64-bias)
            by_spread = lean_stderr([r.equity for r in runs],
                                    [max(r.samples, 1) for r in runs], leant[1], toward)
        if pooled == SPREAD and weighted:  # issue 33, branch s52-ryo
            if leant is None:
                by_spread = spread_stderr([r.equity for r in runs],
                                          [max(r.samples, 1) for r in runs])
            if stated and math.isfinite(se) and math.isfinite(by_spread):
                # the spread and the stated errors together (branch s68-five)
                se = stated_stderr(by_spread, len(runs), se, stated)
                by_spread = 0.0
            else:
                by_spread *= t975(len(runs) - 1) / Z95
        se = max(se, by_spread)
    first = runs[0]
    declare = None
    if first.declare is not None:
        declare = {k: sum(s * (r.declare or {}).get(k, 0.0) for s, r in
                          zip(share, runs, strict=True)) for k in first.declare}
    categories = None
    if first.categories is not None:
        names = dict.fromkeys(k for r in runs for k in (r.categories or {}))
        categories = {k: sum(s * (r.categories or {}).get(k, 0.0) for s, r in
                             zip(share, runs, strict=True)) for k in names}
    win, tie, lose = mean("win"), mean("tie"), mean("lose")
    high_half, low_half = mean("high_half"), mean("low_half")
    interval = interval_of(se, [win, tie, lose, high_half, low_half], total)
    equity = mean("equity")
    near = min(equity, 1.0 - equity)
    if weighted and edge and near > 0 and math.isfinite(se):
        # the error's growth towards the middle, never past 0 or 100 where
        # the interval did not already reach it (issue 33, branch s70-edge)
        interval = max(interval, min(edge_half_width(equity, se), near))
    samples = sum(r.samples for r in runs)
    model = first.model
    if model is not None:  # the counts of every batch together
        model = WORLDS_WORDS.sub(worlds_words(total, samples), model)
    best_declare = first.best_declare
    if declare:
        from rollem.odds.r521 import best_declaration

        best_declare = best_declaration(declare, {"high": mean("high"), "low": mean("low"),
                                                  "both": mean("scoop")})
    return _as_best_declaration(replace(
        first, win=win, tie=tie, lose=lose, equity=equity, samples=samples,
        stderr=se, high=mean("high"), low=mean("low"), scoop=mean("scoop"), declare=declare,
        best_declare=best_declare,
        categories=categories, high_half=high_half, low_half=low_half,
        effective=total if any(r.effective is not None for r in runs) else None,
        model=model, interval=interval, rough=collapsed(runs),
        advice=_combine_advice([r.advice for r in runs], by_worlds, total)))


def _as_best_declaration(odds: Odds) -> Odds:
    """At the 5-2-1 declare, ``odds`` (batches combined) with the headline of its
    best declaration: equity, halves and whole pot / a share / nothing as the
    advice's option for ``best_declare`` gives them (a declaration wins
    something when it takes a share of its half, :func:`rollem.odds.look521.
    _halves`); else ``odds`` unchanged.

    Each batch's headline is its own best declaration's, so batches that
    differ on the best (a near tie) averaged into halves no declaration has:
    "equity 1% if you declare low ... high half 1% · low half 1%" beside the
    advice's "declare low ... high half 0%, low half 2%" (s71-new; issue 33's
    5-2-1 declare item)."""
    adv = odds.advice
    if adv is None or adv.decision != "declare" or odds.best_declare is None:
        return odds
    best = next((c for c in adv.choices if c.action == f"declare {odds.best_declare}"), None)
    if best is None or None in (best.high_half, best.low_half, best.whole_pot):
        return odds
    assert best.high_half is not None and best.low_half is not None
    assert best.whole_pot is not None
    something = max(best.high_half, best.low_half)
    return replace(odds, equity=best.equity, high_half=best.high_half,
                   low_half=best.low_half, win=best.whole_pot,
                   tie=max(0.0, something - best.whole_pot), lose=1.0 - something)


def collapsed(runs: Sequence[Odds]) -> bool:
    """Whether a batch of ``runs`` is importance-weighted with fewer than
    :data:`COLLAPSED` of its worlds effective (issue 33, branch s50-odds).

    >>> collapsed([Odds(win=0.1, tie=0, lose=0.9, equity=0.1, method="monte-carlo",
    ...                 samples=4000, stderr=0.0002, effective=150.0)])
    True
    """
    return any(r.effective is not None and r.effective < COLLAPSED * max(r.samples, 1)
               for r in runs)


def _combine_advice(advs: Sequence[Advice | None], share: Sequence[float], effective: float
                    ) -> Advice | None:
    """The batches' advice as one: per option (by its action) the mean of
    the batches that list it."""
    first = advs[0]
    if first is None or any(a is None for a in advs):
        return first
    by: dict[str, list[tuple[float, Choice]]] = {}
    for s, adv in zip(share, advs, strict=True):
        assert adv is not None
        for c in adv.choices:
            by.setdefault(c.action, []).append((s, c))
    choices = []
    for rows in by.values():
        weight = sum(s for s, _ in rows)
        part = [s / weight for s, _ in rows]
        cs = [c for _, c in rows]
        equity = sum(p * c.equity for p, c in zip(part, cs, strict=True))
        se = math.sqrt(sum((p * c.stderr) ** 2 for p, c in zip(part, cs, strict=True)))
        behind = [c.samples for c in cs if c.samples is not None]
        samples = None
        if behind:  # left behind in at least one batch: say the worlds it was played in
            n_all = sum((a.samples if a is not None else 0) for a in advs)
            samples = sum(c.samples if c.samples is not None else (n_all // len(advs))
                          for c in cs)
        hi = _mean([c.high_half for c in cs], part)
        lo = _mean([c.low_half for c in cs], part)
        whole = _mean([c.whole_pot for c in cs], part)
        frac = weight * (1.0 if samples is None else
                         samples / max(1, sum(a.samples for a in advs if a is not None)))
        interval = interval_of(se, [hi, lo], effective * frac)
        choices.append(replace(cs[0], equity=equity, stderr=se, high_half=hi, low_half=lo,
                               whole_pot=whole, samples=samples, interval=interval,
                               policy=any(c.policy for c in cs)))
    if first.decision != "stack":
        choices.sort(key=lambda c: -c.equity)
    return replace(first, choices=choices,
                   samples=sum(a.samples for a in advs if a is not None))
