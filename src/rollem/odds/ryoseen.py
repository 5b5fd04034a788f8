"""Five Card Roll Your Own after the discard, reading what opponents did (issue 16).

What the seat saw of each other player dealt in (folded ones included):
the cards it exposed, in order (R-RYO-3, R-RYO-5, R-RYO-6), how many cards
it drew and when (the pool's draw order), and of the pool (R-RYO-2,
R-RYO-7): its own three discards, the cards it drew itself, the turned wild
card. Under the look-ahead model every player keeps three of six and
exposes by a policy (:class:`rollem.odds.policy.FastPolicy`: ``keep`` and
the expose rule, the down card that shows the weakest hand), straying with
chance :data:`rollem.odds.look521.TREMBLE` (then any option is equally
likely). This module answers with the posterior over everything the seat
cannot see, by **sequential importance sampling**, one opponent at a time:

- The hidden state is each opponent's six dealt cards (three kept, three
  discarded into the pool) and the pool's shuffled order. Deal and shuffle
  are uniform, so the posterior is uniform over the worlds consistent with
  what the seat saw, times the policy's likelihood of every opponent's keep
  and every expose.
- **Layout** (:func:`_layout`): the pool's order with the opponents'
  discards as unnamed *labels*; the seat's own discards placed where they
  may be; and per opponent the *origins* of its up cards (each was kept or
  drawn in an earlier draw, :func:`_origins`; an up card drawn names the
  label at that draw), drawn in proportion to a pilot run's estimate
  (:data:`PILOT` worlds) of how likely each is. An opponent has at most
  five origins, so many opponents cost no more than a few (the joint
  combinations, 5^5 with six players, are never listed). At 6 players in
  the third card up round (and at 5 before the wild card,
  :data:`LEARN_THIRD_FROM`) the pilot is made in two stages and each run's
  shares are averaged into the next run's (:data:`LEARN_FROM`), and a
  seat's discard an opponent shows is placed by that opponent's origins
  (:func:`_discard_places`), and the seat's other discards by the origins
  of whoever drew each place (:func:`_hidden_places`), each place's weight
  taken on at that opponent's step; whose discard each card named in the
  pool was is drawn by the keep policy once the origins are drawn
  (:func:`_relabel`), its weight taken on at the owner's step.
- **One opponent at a time** (:func:`_read_opponent`): :data:`CANDIDATES`
  candidates for what is still unnamed of it (its hidden kept cards from a
  guide (:func:`_guide`) that favours sets explaining its keep and exposes,
  restricted to the cards still free; its unnamed discards and draws
  uniformly) are weighed by the policy's chance of its keep and exposes;
  one is kept in proportion to its weight and the world's weight is
  multiplied by their mean weight (an unbiased estimate of that opponent's
  likelihood given what is named). The weights carry the number of ways to
  name what is left (``(A)_U``, ``A`` free cards, ``U`` unnamed labels), so
  that worlds stay comparable between steps; it telescopes to a constant
  at the end. Between opponents the worlds are **resampled** where the
  weights have grown uneven (:data:`RESAMPLE`).
- Answers are weighted means; the standard error counts the worlds by
  their ancestor before any resampling (copies are not independent), and
  the effective number of worlds in the model line is the spread of the
  shares over the squared standard error (with several orders of the pool
  left per world, what each chance's own error implies, the fewest).

With four or more opponents (:data:`MOVES_FROM`), after the last opponent
is read the worlds are resampled once more and each takes :data:`MOVES`
(at 6 players :data:`PLACE_MOVES`, in batches of :data:`PLACE_WORLDS`)
Metropolis steps (:func:`_move`, issue 33): two
cards the seat has not seen exchange places, and with five opponents (6
players, :data:`PLACE_FROM`) in turn with them two places in the pool
exchange what lies there (the card and who threw it), each accepted with
the ratio of the policy's chances; at 6 players one card step in
:data:`GUIDED_EVERY` is a *guided* step instead (:class:`_Steer`: one
opponent's hidden kept cards proposed anew from its guide, accepted with the
Metropolis-Hastings ratio). Resampling leaves many copies of a few worlds (at 6
players a 4,000-world batch came from some hundred ancestors); the steps,
which leave the posterior unchanged, let the copies drift apart, and the
standard error (still counted by ancestor) shrinks with the spread. Two
more kinds, exact and off by default (:data:`ORIGIN_EVERY`,
:data:`REDEAL_EVERY`; branch s51-ryo), change what the others never do:
where an opponent's up cards came from (:func:`_origin_step`), and that
with its hidden cards at once (:func:`_redeal_step`).

Draws still to come and the wild card (when not yet turned) come from the
pool cards not yet drawn: per world :data:`FUTURES` orders of them, each as
likely, the world's answer their mean (issue 33). Nobody folds from here on; no betting is read.
With fewer than :data:`MIN_EFFECTIVE` effective worlds even on a second try
with :data:`RETRY` times the candidates (within a CPU budget, a second try
sized to the time left, or none and the collapsed run returned as it is:
:func:`retry_worlds`), or a view the model cannot place,
:func:`ryo_seen_look` returns ``None`` and the caller falls back to the
tracked model (:func:`rollem.odds.ryo.ryo_tracked_odds`), which does not
read keeps or exposes (the model line says which was used).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from contextvars import ContextVar
from dataclasses import dataclass
from itertools import combinations, pairwise, permutations, product
from typing import Any, TypeVar, cast

import numpy as np

from rollem.cards import parse_card
from rollem.hands.category import Category
from rollem.odds import compiled, straying
from rollem.odds.common import Floats, Ints, np_rng
from rollem.odds.evaluate import wild5
from rollem.odds.keepchance import keep_chance
from rollem.odds.look521 import Bools
from rollem.odds.policy import FAST, FastPolicy, _keep_table_by_cards
from rollem.odds.result import Odds, worlds_words
from rollem.odds.view import ViewInfo

__all__ = ["SeenOpponent", "SeenPool", "evidence_lean", "part_of_batch", "read_order",
           "ryo_seen_look", "seen_of", "setup_seconds", "shared_proposals", "spread_view",
           "stated_dof", "traced"]

MIN_EFFECTIVE = 25
"""Below this many effective worlds (see the module doc) the weighting is
too uneven to trust (the standard error itself needs some dozens of
independent ancestors): :func:`ryo_seen_look` tries once more, then
returns ``None`` and the caller falls back to the tracked model (in play's
batches after the wild card at 3 to 6 players neither: :data:`KEEP_WILD`,
:data:`KEEP_COLLAPSED`)."""
KEEP_WILD: frozenset[int] = frozenset({2, 3, 4, 5})
"""Counts of opponents with which, after the wild card and within
:func:`shared_proposals` (the batches of the odds shown in play), a batch
whose worlds collapse (under :data:`MIN_EFFECTIVE` effective) is kept as it
is, not drawn again: 3 players (issue 33, branch s66-wide). Drawing a
collapsed batch again drops the batches that found the rare worlds of large
weight, and every run's answer with them: at hand 31040 (the seat about 6%)
long runs with every batch kept came to 6.09 ± 0.09 points (the plain,
learnt and learnt-without-owners samplers within 0.4 of each other), with
the batches drawn again to 1.9 (plain) to 5.6 (learnt), and play's runs
were 3.4 ± 0.7 points low (covered 3 of 12; docs/dev/odds-precision.md).

6 players (5 opponents) since branch s67-six: there a run's quarter batches
fall under 25 effective worlds 0 to 3 times, and a retry (500 worlds at 64
candidates, its proposals made afresh) costs several batches' CPU, so
(play's dearest-batch sizing, :func:`rollem.odds.play.batch_cost`) 35 of
119 of main's runs on the open hands ended under 0.9 s, some at 0.77 s
with 11 batches, where with the batches kept none of 94 did (24 to 34
batches). On 8 wide hands (31012, 31014, 31027, 31040, 31069, 31081, 31091,
31092; truths with every batch kept, 15 to 25 runs of 20 whole batches,
ratio of sums), play at 1 s alternated seed by seed with main (12 seeds,
load 5.5-8.6): covered 80 of 88 runs against 79 of 89, the runs' mean 0.02
above the truths against 0.22, the median interval ±2.10 both (paired
width ratio 0.988 ± 0.017); at 31014 (83.64 ± 0.33) −0.03 against +1.07
(docs/dev/odds-precision.md, branch s67-six). Not narrower: the width there
is the quarter batches' spread (4 to 7 points over about 28 batches), which
no knob screened there (steps, candidates, futures, reads, batch sizes)
reduced by more than a tenth.

4 players (3 opponents) since branch s68-four: there play's quarter batches
collapse rarely (hand 31015: 6 of 760 batches of 500 worlds as play draws
them, every batch kept), but those few found the worlds of large weight and
low equity (their ratio of sums 51.6 ± 2.1, 1.2% of the evidence), so
drawing them again put the ratio of sums of the others 0.2 points high
(70.57 ± 0.18 against 70.35 ± 0.20 with every batch kept; in batches of 100
worlds, 9% collapsing, 70.80 ± 0.24 against 69.93 ± 0.27; plain importance
sampling 69.99 ± 0.12). That selection, not a step of the sampler (long
chains of each kind of step agree with one another and with plain
importance sampling), is play's batches' +0.36 there: live, 100 seeds, the
ratio of sums of play's batches 69.81 ± 0.16 kept against 70.16 ± 0.16
(docs/dev/odds-precision.md, branch s68-four).

5 players (4 opponents) since branch s68-five2: play's half batches there
(1,000 worlds kept of 4,000 read) collapse as rarely (hand 31021: 9 of 2,280
drawn as play draws them, every batch kept, 0.5% of the evidence), and
drawing them again put the others' ratio of sums 0.070 ± 0.026 points high
(69.94 against 69.87 ± 0.09; the truth 69.83 ± 0.08; quarter batches, 3.5%
collapsing, +0.51 ± 0.11); hand 31035 none to speak of. Of play's +0.70
there (branch s68-five) that is the selection; 0.16 to 0.18 more is each
batch's self-normalisation (the mean by worlds against the same batches'
ratio of sums, paired), left (:data:`LEAN_WILD`); the rest was not seen
again (docs/dev/odds-precision.md, branch s68-five2)."""
KEEP_COLLAPSED: frozenset[int] = frozenset({2, 3, 4, 5})
"""Counts of opponents with which, after the wild card and within
:func:`shared_proposals`, a batch drawn again whose worlds collapse too is
returned as it is (play calls the run rough) rather than ``None`` (issue 33,
branch s66-wide). With ``None`` that batch alone is answered by the tracked
model, another question, and averaged in with the others: at 3 players hand
31019 (the seat about 68%) a fifth of a run's batches were the tracked
model's, at about 38% (runs 63 to 73% ± 3 to 4.7). Under :data:`KEEP_WILD`
no batch is drawn again; this is the guard where that is off. 6 players too
since branch s67-six (with :data:`KEEP_WILD`): main's run at hand 31014
seed 1 held one tracked-model batch (78.0%, averaged in with the others).
4 players too since branch s68-four, 5 players since branch s68-five2 (with
:data:`KEEP_WILD`)."""
THREE_THIRD: frozenset[int] = frozenset({2})
"""Counts of opponents with which, in the third card up round before the wild
card (every opponent showing three cards), play's batches are taken as after
the wild card at 3 players (branch s66-wide): every batch kept as drawn, none
drawn again or answered ``None`` (as :data:`KEEP_WILD`, :data:`KEEP_COLLAPSED`),
the shares learnt (:func:`learns_shares`), weighed by worlds with their
spread and Student's t (:func:`spread_view`), :data:`PART_THIRD` of a batch
each (:func:`play_part`): 3 players (issue 33, branch s67-three).

Main pooled them by their stated errors and drew collapsed batches again. On
hands 0 to 5 of 3 `basic` players (``bench/bench_ryo_bots.py``, seed 60000;
seat 0's first view of the round), against truths of every plain batch kept
(retry off, 1,200 batches of 4,000 worlds, ratio of sums), 20 runs each:
main's runs covered 83 of 120 (hand 2: 4 of 20, the runs' mean 8.59 against
10.66 ± 0.06; hand 1: 19.43 against 18.09 ± 0.15), median ±1.49 (stopped
early at ±1.5), 63 rough; with this rule 114 of 120, median ±0.43, 49
rough, CPU at most 0.95 s (alternated seed by seed in one process, load 2.1
to 4.3). On hands 31001-31020 (``bench_odds_hands.py``) the median ±0.38
against ±1.48, the widest ±0.64, CPU at most 0.951 s. The rule without
:data:`PART_THIRD` (1,000-world batches) covered 102 of 120: their
self-normalised means ran high (hand 1: 19.00). The bench's long run of
play's own pooling (``bench_ryo_bots.py --coverage``) put hand 3 at 54.25
where every batch kept says 55.32 ± 0.12 (docs/dev/odds-precision.md)."""
PART_THIRD: dict[int, float] = {2: 4.0}
"""Per count of opponents in :data:`THREE_THIRD`, the share of a sampler batch
(:data:`rollem.odds.play.BATCH` worlds) one batch of play draws there
(:func:`play_part`): 4 (4,000 worlds) at 3 players, as :data:`PART_WILD`
(issue 33, branch s67-three: the runs' mean at hand 1 18.45 against
19.00 in batches of 1,000, the truth 18.09 ± 0.15)."""


THREE_SECOND: frozenset[int] = frozenset({2})
"""Counts of opponents with which, in the second card up round (every
opponent showing two cards, before the wild card), play's batches are taken
as in the third card up round under :data:`THREE_THIRD` (every batch kept as
drawn, weighed by worlds with their spread and Student's t,
:data:`PART_SECOND` of a batch each), but the shares not learnt
(:func:`learns_shares` holds from the third card up only): 3 players (issue
33, branch s68-second).

Main pooled them by their stated errors, drew collapsed batches again and
stopped at ±1.5: on hands 0 to 9 of 3 `basic` players (``bench/bench_ryo_bots.py``,
seed 60000; seat 0's first view of the round), against truths of every plain
batch kept (about 1,400 batches of 4,000 worlds a hand, ratio of sums, ±0.02
to ±0.07), 20 runs each alternated seed by seed (load 7 to 10): main covered
178 of 200 (hand 2: the runs' mean 23.39 against 24.71, 12 of 20; hand 9:
62.88 against 62.03, 15 of 20), median ±1.49; with this rule 191 of 200, the
runs' means within 0.2 of every truth, median ±0.52, widest ±0.93, CPU at
most 0.95 s. With the shares learnt too, 110 of 120 on hands 0 to 5 against
114 (docs/dev/odds-precision.md)."""
PART_SECOND: dict[int, float] = {2: 4.0}
"""Per count of opponents in :data:`THREE_SECOND`, the share of a sampler
batch (:data:`rollem.odds.play.BATCH` worlds) one batch of play draws in the
second card up round (:func:`play_part`): 4 (4,000 worlds) at 3 players
(issue 33, branch s68-second)."""


def _three_third(seen: SeenPool) -> bool:
    """Whether ``seen`` is in the third card up round before the wild card
    with a count of opponents in :data:`THREE_THIRD`."""
    return seen.wild is None and _all_up(seen) and len(seen.opponents) in THREE_THIRD


def _three_second(seen: SeenPool) -> bool:
    """Whether ``seen`` is in the second card up round (every opponent
    showing two cards) before the wild card with a count of opponents in
    :data:`THREE_SECOND` (issue 33, branch s68-second)."""
    return (seen.wild is None and bool(seen.opponents) and len(seen.opponents) in THREE_SECOND
            and all(len(o.ups) == 2 for o in seen.opponents))


def _three_kept(seen: SeenPool) -> bool:
    """Whether play keeps every batch of ``seen`` as drawn and weighs them by
    worlds with their spread: :func:`_three_third` or :func:`_three_second`."""
    return _three_third(seen) or _three_second(seen)


@dataclass(frozen=True)
class SeenOpponent:
    """Another player dealt in, as the seat saw it."""

    seat: int
    ups: list[int]  # exposed cards, in the order exposed
    draws: list[int]  # pool positions it drew, in order (first draw, second draw)
    live: bool


@dataclass(frozen=True)
class SeenPool:
    """What the seat saw of a Roll Your Own hand after the discard."""

    mine: list[int]  # the seat's cards now (kept three, then its draws)
    discards: list[int]  # the seat's three discards (in the pool)
    my_draws: list[tuple[int, int]]  # (pool position, card)
    opponents: list[SeenOpponent]
    drawn: int  # pool cards drawn so far
    wild: int | None  # the turned wild card
    wild_duplicates: bool = False
    natural_beats_wild: bool = False


def seen_of(info: ViewInfo) -> SeenPool | None:
    """Read :class:`SeenPool` from a seat's view; ``None`` before the
    discard or when the view has no pool to track."""
    if len(info.mine) >= 6 or len(info.my_pool) != 3:
        return None
    me = info.seat
    dealt: list[int] = []
    ups: dict[int, list[int]] = {}
    draws: dict[int, list[int]] = {}
    my_draws: list[tuple[int, int]] = []
    position = 0
    wild = None
    for e in info.events:
        kind, who = e.get("kind"), e.get("seat")
        if kind == "deal_hole" and who is not None:
            dealt.append(int(who))
        elif kind == "expose" and who is not None and e.get("card"):
            ups.setdefault(int(who), []).append(int(parse_card(e["card"])))
        elif kind == "pool_draw" and who is not None:
            if who == me and e.get("card"):
                my_draws.append((position, int(parse_card(e["card"]))))
            draws.setdefault(int(who), []).append(position)
            position += 1
        elif kind == "wild" and e.get("card"):
            wild = int(parse_card(e["card"]))
    live = {o.seat for o in info.opponents}
    opponents = [SeenOpponent(seat=s, ups=ups.get(s, []), draws=draws.get(s, []),
                              live=s in live) for s in dealt if s != me]
    if not any(o.live for o in opponents):
        return None
    return SeenPool(mine=list(info.mine), discards=list(info.my_pool), my_draws=my_draws,
                    opponents=opponents, drawn=position, wild=wild,
                    wild_duplicates=bool(info.options.get("wild_duplicates", False)),
                    natural_beats_wild=bool(info.options.get("natural_beats_wild", False)))


def _origins(opp: SeenOpponent, discards: set[int]) -> list[tuple[int, ...]]:
    """Every way the opponent's up cards may have come: per up card 0 (kept)
    or the draw (1 or 2) it came from; an up card exposed after draw ``e``
    came from draw ``e`` or earlier, the first one was kept, each draw is
    one card, and a card the seat discarded was drawn.

    Remembered by what it reads (the up cards, the number of draws, which up
    cards the seat discarded): a batch asks it some fifty times (issue 33,
    branch s61-ryo2). The list returned is shared: callers only read it."""
    key = (tuple(opp.ups), len(opp.draws), tuple(c in discards for c in opp.ups))
    found = _ORIGINS.get(key)
    if found is None:
        if len(_ORIGINS) > 4096:  # (a long-lived server: some thousands of views)
            _ORIGINS.clear()
        found = _ORIGINS[key] = _origins_of(opp, discards)
    return found


_ORIGINS: dict[tuple[tuple[int, ...], int, tuple[bool, ...]], list[tuple[int, ...]]] = {}
""":func:`_origins`' answers, by what it reads (a few dozen keys a view)."""


def _origins_of(opp: SeenOpponent, discards: set[int]) -> list[tuple[int, ...]]:
    """:func:`_origins`, worked out."""
    choices = []
    for e, card in enumerate(opp.ups):
        allowed = [r for r in range(1, min(e, len(opp.draws)) + 1)]
        if card not in discards:
            allowed.insert(0, 0)
        choices.append(allowed)
    return [combo for combo in product(*choices)
            if len([r for r in combo if r]) == len({r for r in combo if r})]


PILOT = 400
"""Worlds in the pilot run that estimates how likely each origin of each
opponent's up cards is (see :func:`_layout`)."""
DEFENSIVE = 0.2
"""The share of each opponent's origins drawn alike, so that one the pilot
underrates still gets worlds."""
MIN_WORLDS = 4000
"""With three or more opponents at least this many worlds are drawn,
whatever fewer were asked for (with the place steps :data:`PLACE_WORLDS`):
with fewer, few ancestors survive the resampling and the standard error
comes out too small (measured with four opponents late in the hand: at
1,000 worlds the stated errors were about half the real spread; at 10,000
they matched it)."""
RETRY = 4
"""Where the weights are too uneven: this many times the candidates, this
many times fewer worlds (but not fewer than :data:`RETRY_WORLDS`, nor more
than were asked for), once (see :func:`ryo_seen_look`)."""
RETRY_WORLDS = 2500
"""The fewest worlds a retry draws (fewer where fewer were asked for): a
small run is retried with all its worlds, at :data:`RETRY` times the work."""
RETRY_FEWEST = 500
"""Within a CPU budget (:func:`shared_proposals` with a ``deadline``): a
retry sized to the time left that would draw fewer worlds than this is not
made, and the collapsed run is returned as it is (its few effective worlds
say so: :data:`rollem.odds.play.COLLAPSED`; issue 33, branch s50-ryo)."""
RETRY_MARGIN = 0.8
"""The share of the time left to the deadline a retry is sized to (its
cost per world is foreseen from the run it retries, not known)."""
FUTURES = 2
"""Per world, this many orders of the pool's cards not yet drawn (the draws
still to come and the wild card) are played out, each order as likely
given the world, and the world's answer is their mean (a Rao-Blackwellised
estimate, issue 33): at 5 and 6 players it halves the error of the chances
shown, for about a fifth more time a batch. The worlds in ``samples`` and
in the model line count each world once, not each order. 2 since branch
s63-ryo (8 before): a batch's equity spreads alike from 2 to 16 (branch
s62-ryo2), and 2 costs about a tenth less a batch."""
MOVES = 32
"""Metropolis steps per world after the last opponent is read (:func:`_move`;
issue 33). The :data:`FUTURES` orders of the pool left are played out on the
worlds of the last steps, one each. At 6 players 32 steps halve the spread of
a 4,000-world batch's equity between seeds for about twice its time; 16 gain
less per second, 64 no more."""
GROUPS = 1
"""With the moves on, a batch's worlds are resampled in this many groups,
each on its own (:func:`_resample`); with more than one, the stated error is
the larger of the error counted by ancestor and that counted by group. One
(issue 33, fifth pass): at 6 players the groups' weights are so uneven (of
8 groups, some 5 effective) that a batch's equity spread more (2.4 points
against 1.5 over 24 and 60 batches), and the error counted over 8 groups
was still too small (z-scores' spread 1.7)."""
PLACE_EVERY = 2
"""Every this many Metropolis steps, one exchanges two places in the pool
instead of two cards (:func:`_move`; 0: never)."""
PLACE_FROM = 5
"""The place steps are made with at least this many opponents (6 players):
at 5 players, 36 runs of one batch, each with its own pilot, spread alike
with and without them (0.58 and 0.57 points), most runs closer together
with them but three of 36 some 1.5 points low, which an interval check
between runs caught (issue 33, fifth pass)."""
PLACE_WILD: frozenset[int] = frozenset({3, 4})
"""Counts of opponents under :data:`PLACE_FROM` with which the place steps
are made after the wild card too (4 players; :func:`takes_places`), with 6
players' sampler there (:data:`PLACE_WORLDS`, :data:`GUIDED_EVERY`,
:data:`PLACE_CANDIDATES`, :func:`wild_view`'s origin and re-deal steps) and
the shares learnt (:data:`LEARN_WILD_FROM`). Issue 33, branch s65-wild4:
there every batch's weights collapsed (1% to 7% of its worlds effective)
and runs spread wide (hand 31006 86.5% ± 16.1 in play); on 10 wide hands
(2 to 3 seeds, settings alternated in one process) over ±1.5 7 of 22 runs
against main's 20, the median ±1.49 against ±2.46, the widest ±2.81
against ±20.1; on 5 ordinary hands none over either way
(docs/dev/odds-precision.md, branch s65-wild4). Not shipped then: its long
runs at hand 31006 (83.25) sat below main's batches without moves (91.5),
taken for a lost mode. Branch s66-mix settled the truths by plain
importance sampling in 100,000- to 200,000-world batches (31006 83.04 ±
0.49, 31002 54.90 ± 0.11): the worlds where no opponent strays from the
policy hold 90% and 93% of the posterior, and main's 4,000-world batches
that miss them stay among the strays' (higher equities, evidence some 60
times less); this sampler agrees with both truths. On hands
31001-31020, 3 seeds, alternated with main in one process: over ±1.5 10
of 60 runs against 19, the widest ±2.68 against ±21.6, covered 42 of 42
against 35 where a truth was settled; with :data:`READ_MORE_WILD` too
(docs/dev/odds-precision.md, branch s66-mix). Branch s66-temper's plain
importance sampling at 31006 (89.7 ± 0.3 over 732 runs of 20,000 worlds)
left out the 30% of runs whose worlds collapsed (under
:data:`MIN_EFFECTIVE`, answered ``None``), the runs that found the heavy
no-stray worlds; with them kept the same runs come lower, toward 83 (the
lead, stop 66); its tempered runs with every kind of step put 31006 at
82.9 ± 0.2.

5 players (4 opponents) since branch s66-wild56: there too a batch's worlds
were 2 to 13% effective on the wide hands of 31021-31060 and the batches 3
to 16 points apart. The sampler is exact (hand 31021, every batch kept,
ratio of sums: 69.73 ± 0.26 against the plain sampler's 69.87 ± 0.16), but
each batch's self-normalised mean is biased by about its effective worlds'
inverse: in 500-world batches (:data:`LATE_PART`) play's runs sat about 4.5
points high there (covered 2 of 10), so in play whole 2,000-world batches
(:data:`PART_WILD`), about 0.4 high; on hands 31021, 31035, 31042, 31047
the median interval ±3.13 against main's ±3.67 (24 runs each), the widest
±5.2 against ±10.9; over 31021-31060 over ±1.5 5 of 40 against 7, the
median ±0.54 against ±0.82 (docs/dev/odds-precision.md)."""


def takes_places(seen: SeenPool) -> bool:
    """Whether batches of ``seen`` take the place steps (and 6 players'
    sampler with them): with :data:`PLACE_FROM` opponents or more, or after
    the wild card with a count in :data:`PLACE_WILD` (issue 33).

    >>> o = SeenOpponent(seat=1, ups=[1, 2, 3], draws=[0, 4], live=True)
    >>> [takes_places(SeenPool([], [], [], [o] * m, 8, wild))
    ...  for m, wild in ((3, 9), (3, None), (2, 9), (4, 9), (5, None))]
    [True, False, False, True, True]
    """
    m = len(seen.opponents)
    return m >= PLACE_FROM or (seen.wild is not None and m in PLACE_WILD)


PLACE_WORLDS = 2000
"""With the place steps (:data:`PLACE_FROM` opponents), a batch draws this
many worlds (not :data:`MIN_WORLDS`), each taking :data:`PLACE_MOVES`
steps; more worlds are drawn in batches of this size
(:func:`_in_batches`). Issue 33, sixth pass: 6 players, hand 30001 of
``bench_play_odds.py``, the spread of a batch's equity between seeds times
its CPU time was about half that of 4,000 worlds with 32 steps (1.75 points
in 0.16 s over 120 batches, against 1.87 in 0.22 s over 24; 1,000 worlds
with 128 steps no better, and seemingly biased upwards)."""
PLACE_MOVES = 64
"""The Metropolis steps per world with the place steps (see :data:`PLACE_WORLDS`)."""
GUIDED_EVERY = 2
"""With the place steps (:data:`PLACE_FROM` opponents), one card step in this
many is a *guided* step instead (:class:`_Steer`; 0: none): one opponent's
hidden kept cards proposed anew from its guide (:func:`_guide`), all at once,
exchanged with wherever those cards lay; the opponents in turn. Issue 33,
branch s48-odds: a guided step is accepted 13% to 39% of the time (per
opponent, hand 30002), where a card step that changes any chance is about 4%;
30 batches of ``bench_play_odds.py``'s hands after the seat's second draw,
the same seeds with and without, spread by 1.48 against 1.99 points (30002),
0.77 against 1.01 (30003), 1.34 against 1.41 (30001) for about 8% more CPU
(docs/dev/odds-precision.md, fourteenth pass). 1 (every card step guided) was
no better."""
MOVES_FROM = 4
"""The moves are made with at least this many opponents (5 players or more,
where the worlds' weights are most uneven); with fewer the odds in play
were already within ±1.5 points in a second without them, and their
intervals covered at the stated rate (issue 33)."""
LATE_MOVES_FROM = 3
"""From the third card up on (every opponent has exposed three cards), the
moves are made with this many opponents too (4 players; issue 33, branch
s50-ryo): there, without them, a batch's weights fell on a few ancestors
(4,000 worlds, 50 to 700 effective; 18 of 20 runs in play held a batch
under 5% effective) and batches that missed the rare worlds where the seat
takes the pot came out low stating small errors; with them 1,300 to 8,000
effective (one batch in eight 180) for 0.13 s against 0.08 s a batch."""

ORIGIN_EVERY = 0
"""Every this many Metropolis steps, in the views :func:`wild_view` names,
one opponent (in turn) also takes an origin step (:func:`_origin_step`; 0:
none). Off (issue 33, branch s51-ryo; docs/dev/odds-precision.md): at 6
players after the wild card, every 2 steps, 24 batches of 2,000 worlds
spread by 8.5 points of equity against 11.8 without, for 0.30 s of CPU a
batch against 0.19 (about a fifth less spread squared times CPU), but 20
runs of play at 1 s were no better (1 of 20 within ±1.5 points against 0,
covered 15 against 16, rms z 2.04 against 1.10); in the third card up round
at 6 players 2.8 against 3.1 for 0.30 s against 0.16."""

REDEAL_EVERY = 0
"""Every this many Metropolis steps, in the views :func:`wild_view` names,
one opponent (in turn) also takes a re-deal step (:func:`_redeal_step`; 0:
none; issue 33, branch s51-ryo)."""
REDEAL_CANDIDATES = 4
"""The deals a re-deal step chooses among, the world's own one of them."""

CANDIDATES = 4
"""Candidates drawn per opponent and world (see :func:`_read_opponent`)."""
PLACE_CANDIDATES = 16
"""The candidates per opponent and world with the place steps (at 6 players,
:data:`PLACE_FROM`). Issue 33: with 16 instead of 4 a 2,000-world batch of
``bench_play_odds.py``'s hand 30001 spreads by about half as much between
seeds (branch s46-odds, ``bench/bench_ryo_batch.py``, 16 batches, load 31 to
33: 0.94 points against 1.82) for about 1.6 times the CPU (0.36 s against
0.23), so the spread squared times the CPU is about 2.3 times smaller (0.32
against 0.75 x 10^-4); and a batch states about its spread (1.13 points:
honest), where with 4 it stated 0.6 of it. The effective worlds a batch states
per CPU second are fewer (3,300 against 5,800), but with 4 candidates they
overstate what the spread implies some 2.5 times (docs/dev/odds-precision.md,
twelfth pass). Branch s44-odds had kept 4 (the effective count per CPU second
the same, with the steps of then)."""
LATE_CANDIDATES = 16
"""The candidates per opponent and world from the third card up (every
opponent showing three cards, :func:`_all_up`) with four opponents (5
players; with five or more the place steps' :data:`PLACE_CANDIDATES`).
Issue 33, branch s53-ryo: there a 4,000-world batch's importance weights
fall on a few hundred worlds (its effective count 200 to 400) and batches
spread by 2.3 to 3.3 points; with 16 candidates, 1.5 to 1.9 points for
about 1.6 times the CPU (0.24 s against 0.15 s a batch), so spread squared
times CPU about half (three seeds of 24 batches each, hand 30001;
docs/dev/odds-precision.md)."""
LATE_CANDIDATES_FROM = 4
LATE_CANDIDATES_PART = 0.5
"""The share of a whole batch (:data:`MIN_WORLDS`) one batch of play draws
where :data:`LATE_CANDIDATES` are drawn (:func:`play_part`): 2,000 worlds,
7 or 8 batches in 1 s, so the spread check's t is about 2.4 rather than
2.8 to 3.2 with 4 or 5 whole batches of 16 candidates. Issue 33, branch
s53-ryo, 60 runs against the 40 s long run: within ±1.5 16 against main's
11, covered 59 against 55, mean 0.18 points above the long run against
0.27 to 0.36; whole batches of 16 candidates were no better than main
(within 8, covered 55, 4 or 5 batches a run)."""
"""The fewest opponents :data:`LATE_CANDIDATES` are drawn with (at 4
players, 3 opponents, the late views were already within ±1.5 points)."""
WORLD_CAP = 2
"""The effective worlds a batch states are at most this many per world drawn
(see :func:`ryo_seen_look`); a world's chances are means over its
:data:`FUTURES` orders of the pool left, so its chances' errors may imply
more than one. Issue 33, branch s47-odds: at one per world, at 6 players
before the seat's second draw (the worlds' weights about even) the cap, not
the worlds, set the interval shown (about ±1.5 points, where a batch's
chance of the whole pot spread by 0.40 to 0.64 points between seeds and
its own error by ancestor said 0.42 to 0.52). With no cap below
:data:`FUTURES`, play's runs there stated ±0.5 to ±0.75 and covered a long
run 25 times of 30 on hand 30001 (their mean some 0.2 points above it);
at two per world they stated ±0.85 to ±1.04 and covered 15 of 15
(docs/dev/odds-precision.md, thirteenth pass)."""
LAST_CANDIDATES = 0
"""The candidates per world for the last :data:`LAST_READS` opponents in
:func:`read_order` (at least the batch's own; 0: the batch's own). Issue 33,
branch s64-last: the last step's weight carries the covariance of a batch's
total weight with its equity (its self-normalisation bias, branch s64-bias);
its weight is the mean of its candidates' weights. Measured: no gain. The
last step's total over a batch is as noisy at 64 as at 16 (sd of its log
0.334 against 0.338; its variation is between the partial worlds, not within
one), the bias the same (0.25 against 0.21, ± 0.05) and spread² × CPU 1.12
times main's (3,335 quarter batches, docs/dev/odds-precision.md)."""
LAST_READS = 1
"""How many opponents, the last in :func:`read_order`, draw
:data:`LAST_CANDIDATES`."""
READ_MORE: float = 2
"""With the moves, from the third card up with :data:`READ_MORE_FROM`
opponents or more, the worlds laid out and read are this many times the
batch's, then resampled (systematically, each kept world given the mean
weight) down to the batch's before the moves and the showdowns (1: none).
Issue 33, branch s64-last: the batch's total weight, whose covariance with
its equity is its self-normalisation bias, is then a mean over more
partial worlds before the last read (more ancestors). At 6 players after the
wild card (hand 30001, quarter batches, 3,120 rounds alternating with main):
at 2 a batch's spread² × CPU is 0.88 ± 0.03 of main's (spread 3.19 points
against 4.08 for 1.45 times the CPU) and the bias 0.18 against 0.26; in play
at 1 s (300 seeds alternating) the runs' mean 19.96 against 20.08 (truth
19.82), the median interval ±1.19 against ±1.22, 283 covered against 276, 297
within ±1.5 against 290. Third card up at 6 players, spread² × CPU about 0.75
of main's. At 6 players only (:data:`READ_MORE_FROM`, stop 64): third card
up at 5 players in play's half batches one screen found spread² × CPU about
1.15 times main's, and the earlier views at 6 players were not measured
(tests/test_odds_ryo_same.py pins the bits without it)."""
READ_MORE_FROM = 5
"""The fewest opponents :data:`READ_MORE` is used with (6 players; the
place steps' :data:`PLACE_FROM`), from the third card up only."""
READ_MORE_THIRD: frozenset[int] = frozenset({3})
"""Counts of opponents under :data:`READ_MORE_FROM` with which
:data:`READ_MORE` is used too, in the third card up round only (the wild
card not yet turned; :func:`reads_more`): 4 players (issue 33, branch
s65-four). There play's whole batches mostly stop at five; their equities
are skewed (a few find the rare worlds where the seat takes the pot), and
read from twice the worlds they spread less. In play at 1 s (hand 30001,
truth 6.59 ± 0.03), 309 seeds in three legs alternating with it off: the
runs' sd 0.37 against 0.50 points, the median interval ±0.56 against ±0.67,
covered 284 against 271 (p 0.11), 300 within ±1.5 against 301, CPU at most
0.94 s both; neither is biased (mean − truth −0.04 ± 0.02, −0.03 ± 0.03)
(docs/dev/odds-precision.md). After the wild card at 4 players it stays
off (no gain there: 48 covered of 60 against 47)."""
READ_MORE_WILD: frozenset[int] = frozenset({3})
"""Counts of opponents under :data:`READ_MORE_FROM` with which
:data:`READ_MORE` is used after the wild card too (:func:`reads_more`): 4
players, where the place steps are taken (:data:`PLACE_WILD`). Issue 33,
branch s66-mix: hands 31001-31020 at 1 s, 3 seeds alternated in one
process with it, without it and main (load 10.4-15.5): over ±1.5 8 of 60
runs against 12 and main's 19, the widest ±2.05 against ±2.21 and ±20.7,
covered 42 of 42 against 40 and 36 (truths by plain importance sampling);
3 more seeds on 14 hands against main: over 6 of 42 against 19, covered
37 of 39 against 34; the CPU within 0.95 s (docs/dev/odds-precision.md,
branch s66-mix)."""
READ_MORE_WILD_TIMES: dict[int, float] = {4: 4.0}
"""Per count of opponents, after the wild card, :func:`reads_more` holds and
the worlds laid out and read are this many times the batch's
(:func:`read_more_times`) in place of :data:`READ_MORE`: 5 players, 4 times,
in play's half batches (:data:`PART_WILD`: 1,000 worlds kept of 4,000 read;
issue 33, branch s67-five). There, on the wide hands (31021, 31035, 31047,
31042), a 2,000-world batch read as dealt had 5 to 8% of its worlds
effective (median) and its equity spread 5 to 6 points: its weights fall on
a few ancestors, which reading four times the worlds before resampling down
gives more to come from (16 to 18% effective). In play at 1 s, alternated
with main seed by seed in one process (81 runs a side, load 4.9-10.6): the
median interval ±2.66 against ±3.08, the widest ±5.01 against ±6.49, still
all but 2 over ±1.5; against the truths (every batch kept, ratio of sums)
covered 74 of 75 against 68, the runs' mean +0.23 ± 0.14 points from the
truth against +0.46 ± 0.19 (hand 31021 +0.32 ± 0.24 against +1.38 ± 0.29,
covered 25 of 25 against 21). The cost: where a batch read as dealt is not
collapsed the reading is wasted, and the runs come out wider (hands
31049, 31058: ±0.95 and ±1.08 against ±0.74 and ±0.84, within ±1.5); over
hands 31021-31060 (seeds 1 and 2) over ±1.5 5 and 4 of 40 against 5 and 5,
the median ±0.74 and ±0.64 against ±0.59 and ±0.57 (docs/dev/odds-precision.md,
branch s67-five). The read is exact: hand 31044, 20 whole batches a run,
every batch kept, 85.99 ± 0.05 against 85.93 ± 0.11 read as dealt."""
RESAMPLE = 0.5
"""After an opponent is read, the worlds are resampled (in proportion to
their weights, each then given the mean weight) when fewer than this share
of them are effective (``sum(w)^2 / sum(w^2)``)."""


def _layout(seen: SeenPool, k: int, gen: np.random.Generator, shares: list[Floats] | None,
            owners: tuple[Ints, list[Floats]] | None = None
            ) -> tuple[Ints, Ints, Ints, Floats, Floats]:
    """The pool's order and every opponent's origins of its up cards in
    ``k`` worlds, without naming the unseen cards: ``order`` ``(k, n)``, per
    pool position either one of the seat's discards (a card, below 52) or a
    *label* ``52 + 3 j + i``, the ``i``-th discard of opponent ``j``;
    ``named`` ``(k, 3 m)``, per label its card where already known (a card
    the seat drew itself; the turned wild card, taken to be at the first
    position not drawn, the pool's positions being exchangeable; an up card
    an opponent drew) and ``-1`` elsewhere; ``origin`` ``(k, m)``, per
    opponent the index of its origins in :func:`_origins`; the weights; and
    per opponent a log factor its step multiplies in ``(k, m)``.

    Under the prior every order is equally likely. The seat's discards are
    placed first, each uniformly among the positions it may hold (one it
    drew itself or that was turned wild: that position; one an opponent
    shows: a position that opponent drew before showing it; any other: a
    position whose card the seat has not seen), the labels then uniformly in
    the others. Each opponent's origins are drawn among those that fit, in
    proportion to ``shares`` (per opponent, per origin in :func:`_origins`
    order: a pilot run's estimate of how likely each is; ``None``: alike),
    partly uniformly. The weights undo both proposals, and carry the number of
    ways to name the labels left unnamed (``(A)_U``, ``A`` unseen cards,
    ``U`` labels), so that they stay comparable between worlds with
    different origins (:func:`_read_opponent` divides it back out); the
    parts for an opponent's origins are put off to its step, and so is the
    part for the place of a seat's discard it shows, where that place is
    steered (:func:`_discard_places`; issue 33, branch s55-ryo2: in the
    layout's weights, the worlds where the seat's 4♥ lay at the rare place
    weighed 14 times the others on hand 30001, every resampling before that
    opponent's step, the last, copied them, and there most were lost; put
    off, a batch's equity spread 2.24 points against 2.79, 100 batches as
    play draws them, the same CPU); and so is the part for the place of a
    seat's discard no one shows, drawn by the origins of the opponent that
    drew that place (:func:`_hidden_places`; 1.79 points against 2.24).

    ``owners`` (:func:`_owner_prefs`, where :func:`steers_owners`): whose
    discard each named label is, drawn anew once the origins are drawn, by
    the keep policy (:func:`_relabel`)."""
    m = len(seen.opponents)
    n = 3 * (1 + m)
    rows = np.arange(k)
    discards = set(seen.discards)
    mine_at = {p: c for p, c in seen.my_draws}
    wild_at = seen.drawn if seen.wild is not None else None
    known = set(mine_at) | ({wild_at} if wild_at is not None else set())
    steer = shares is not None and learns_shares(seen)
    options: list[tuple[int, list[int], Floats, int]] = []
    for s in seen.discards:
        at = [p for p, c in mine_at.items() if c == s]
        if not at and s == seen.wild:
            at = [wild_at]  # type: ignore[list-item]
        prefer = np.ones(n)
        shower = -1  # the opponent that shows it, where its place is steered
        if not at:
            for j, opp in enumerate(seen.opponents):
                if s in opp.ups:
                    e = opp.ups.index(s)
                    at = [opp.draws[r] for r in range(min(e, len(opp.draws)))]
                    if steer:
                        prefer = _discard_places(opp, e, _origins(opp, discards),
                                                 shares[j], n)  # type: ignore[index]
                        shower = j
                    break
            else:
                at = [p for p in range(n) if p not in known]
                if steer:
                    prefer, shower = _hidden_places(seen, shares, n), -2  # type: ignore[arg-type]
        options.append((s, at, prefer, shower))
    options.sort(key=lambda o: len(o[1]))  # the forced ones first
    order = np.full((k, n), -1, dtype=np.int64)
    taken = np.zeros((k, n), dtype=bool)
    weight = np.ones(k)
    later = np.zeros((k, m))  # log factors each opponent's step takes on (see below)
    fast = compiled.use()
    for s, at, prefer, shower in options:
        if fast:  # the same draws, sums and places in two compiled passes (branch s69-speed2)
            at_mask = np.zeros(n, dtype=bool)
            at_mask[at] = True
            by = np.full(n, -1)
            if shower == -2:
                for j, opp in enumerate(seen.opponents):
                    by[opp.draws] = j
            inv_q = compiled.place_discard(gen, at_mask, prefer, bool((prefer != 1).any()),
                                           shower, by, s, taken, order, weight, later)
            if inv_q is not None:
                if shower >= 0:
                    later[:, shower] += np.log(np.maximum(inv_q, 1e-300))
                continue
        mask = np.zeros((k, n), dtype=bool)
        mask[:, at] = True
        mask &= ~taken
        mass = mask * prefer
        total = mass.sum(axis=1)
        weight *= total > 0
        pos = np.where(mask, gen.random((k, n)), -1.0).argmax(axis=1)
        if (prefer != 1).any():  # in proportion to the opponent's origins that put it there
            live = total > 0
            pos[live] = _sample_rows(gen, mass[live], 1)
        # 1 / q of the place (the prior is uniform over orders); where it was
        # steered, put off to the step of the opponent that shows it (as the
        # 1 / q of its origins): resampling before that step keeps it
        inv_q = np.where(total > 0, total / np.maximum(mass[rows, pos], 1e-300), 0.0)
        if shower >= 0:
            weight *= total > 0
            later[:, shower] += np.log(np.maximum(inv_q, 1e-300))
        elif shower == -2:  # the place's part put off to the step of the one that drew it
            by = np.full(n, -1)
            for j, opp in enumerate(seen.opponents):
                by[opp.draws] = j
            drew = by[pos]
            weight *= total
            off = (drew >= 0) & (total > 0)
            later[rows[off], drew[off]] -= np.log(prefer[pos[off]])
        else:
            weight *= inv_q
        taken[rows, pos] = True
        order[rows, pos] = s
    label_keys = gen.random((k, 3 * m))
    if not (compiled.use() and compiled.fill_labels(order, taken, label_keys)):  # (s68-fuse)
        free = np.argsort(taken, axis=1, kind="stable")[:, :3 * m]  # positions not taken
        order[rows[:, None], free] = 52 + np.argsort(label_keys, axis=1)
    named = np.full((k, 3 * m), -1, dtype=np.int64)
    fixed = dict(mine_at)
    if wild_at is not None:
        fixed[wild_at] = seen.wild  # type: ignore[assignment]
    for p, c in fixed.items():
        item = order[:, p]
        lab = item >= 52
        named[rows[lab], item[lab] - 52] = c
        weight *= (lab | (item == c))  # a discard of the seat there must be that card
    origin = np.zeros((k, m), dtype=np.int64)
    a = np.full(k, 52 - len(_seen_cards(seen)))
    for j, opp in enumerate(seen.opponents):
        combos = _origins(opp, discards)
        if fast:  # the same fits, draw and names in one compiled pass (branch s63-ryo)
            ask_at, name_at = _origin_asks(opp, discards)
            base = np.full(len(combos), 1 / len(combos))
            if shares is not None:
                base = (1 - DEFENSIVE) * shares[j] + DEFENSIVE * base
            is_up = np.zeros(52 + 3 * m, dtype=bool)
            is_up[opp.ups] = True
            compiled.layout_origins(order, named, np.asarray(opp.draws, dtype=np.int64), ask_at,
                                    name_at, is_up, np.ascontiguousarray(base, dtype=np.float64),
                                    gen.random(k), LOG_FACTORIAL, int(a[0]), weight, later, j,
                                    origin)
            continue
        item = order[:, opp.draws] if opp.draws else np.zeros((k, 0), dtype=np.int64)
        fits = np.ones((k, len(combos)), dtype=bool)
        # per draw, what each origin asks of it, worked out once for every
        # origin that asks it (issue 33, branch s61-ryo2: the same booleans)
        is_up = np.zeros(52 + 3 * m, dtype=bool)
        is_up[opp.ups] = True
        asks: dict[tuple[int, int], Bools] = {}
        for i, combo in enumerate(combos):
            drawn_up = {r: c for c, r in zip(opp.ups, combo, strict=True) if r}
            for r in range(1, len(opp.draws) + 1):
                x = drawn_up.get(r, -1) if drawn_up.get(r, -1) in discards else \
                    (-2 if r in drawn_up else -3)
                fit = asks.get((r, x))
                if fit is None:
                    it = item[:, r - 1]
                    if x >= 0:  # that discard of the seat
                        fit = it == x
                    elif x == -2:  # a label not named yet
                        fit = (it >= 52) & (named[rows, np.maximum(it - 52, 0)] == -1)
                    else:  # a hidden draw: not one of its up cards
                        fit = ~is_up[it]
                    asks[(r, x)] = fit
                fits[:, i] &= fit
        base = np.full(len(combos), 1 / len(combos))
        if shares is not None:
            base = (1 - DEFENSIVE) * shares[j] + DEFENSIVE * base
        chance = fits * base
        total = chance.sum(axis=1)
        weight *= total > 0
        pick = np.minimum(((np.cumsum(chance, axis=1) / np.maximum(total, 1e-300)[:, None])
                           < gen.random(k)[:, None]).sum(axis=1), len(combos) - 1)
        origin[:, j] = pick
        before = _log_falling(a, (named < 0).sum(axis=1))
        for i, combo in enumerate(combos):
            for c, r in zip(opp.ups, combo, strict=True):
                if r and c not in discards:
                    at = (pick == i) & (total > 0) & (item[:, r - 1] >= 52)
                    named[rows[at], item[at, r - 1] - 52] = c
        # 1 / q of the origins, and the change in the number of ways to name
        # the labels left ((A)_U, A unseen cards, U unnamed labels): put off
        # to the opponent's step, so that resampling before it keeps them
        q = np.where(total > 0, chance[rows, pick] / np.maximum(total, 1e-300), 1.0)
        later[:, j] += _log_falling(a, (named < 0).sum(axis=1)) - before - np.log(q)
    if owners is not None:
        order, named = _relabel(seen, order, named, origin, weight, later, gen, owners)
    return order, named, origin, weight, later


def _origin_asks(opp: SeenOpponent, discards: set[int]) -> tuple[Ints, Ints]:
    """Per origin of ``opp`` (:func:`_origins` order) and draw, what the
    origin asks of the pool there (a seat's discard ``x >= 0``; -2 a label
    not named yet; -3 a card not one of its up cards) and the up card it
    names there (-1 none): two ``(origins, draws)`` arrays for
    :func:`rollem.odds.compiled.layout_origins`, remembered as :func:`_origins` is."""
    key = (tuple(opp.ups), len(opp.draws), tuple(c in discards for c in opp.ups))
    found = _ASKS.get(key)
    if found is not None:
        return found
    combos = _origins(opp, discards)
    d = len(opp.draws)
    asks = np.full((len(combos), d), -3, dtype=np.int64)
    name_at = np.full((len(combos), d), -1, dtype=np.int64)
    for i, combo in enumerate(combos):
        drawn_up = {r: c for c, r in zip(opp.ups, combo, strict=True) if r}
        for r in range(1, d + 1):
            if r in drawn_up:
                c = drawn_up[r]
                asks[i, r - 1] = c if c in discards else -2
                name_at[i, r - 1] = -1 if c in discards else c
    if len(_ASKS) > 4096:
        _ASKS.clear()
    _ASKS[key] = (asks, name_at)
    return asks, name_at


_ASKS: dict[tuple[tuple[int, ...], int, tuple[bool, ...]], tuple[Ints, Ints]] = {}
""":func:`_origin_asks`' answers, by what it reads."""


def _discard_places(opp: SeenOpponent, e: int, combos: list[tuple[int, ...]], shares: Floats,
                    n: int) -> Floats:
    """Per pool place ``(n,)``, the chance :func:`_layout` gives one of the
    seat's discards that ``opp`` shows as its ``e``-th up card, up to a
    constant: the share (as :func:`_layout` mixes it, :data:`DEFENSIVE` of
    it alike) of the opponent's origins that drew it from that place, its
    draw ``r`` being pool place ``opp.draws[r - 1]`` (issue 33, branch
    s55-ryo). Placed alike among the places it may hold, as before, half the
    worlds at 6 players put it where the origins the posterior gives 0.01 to
    0.07 need it (hand 30001: seat 1 shows the seat's 4♥; drawn first or
    last, (0, 0, 1) or (0, 0, 2) and (0, 1, 2)), and those worlds were lost
    at the opponent's step.

    >>> o = SeenOpponent(seat=1, ups=[1, 2, 3], draws=[1, 7], live=True)
    >>> combos = [(0, 0, 1), (0, 0, 2), (0, 1, 2)]
    >>> _discard_places(o, 2, combos, np.array([0.0, 0.5, 0.5]), 9)[[1, 7]].round(4).tolist()
    [0.0667, 0.9333]
    """
    base = (1 - DEFENSIVE) * np.asarray(shares) + DEFENSIVE / len(combos)
    out = np.zeros(n)
    for combo, b in zip(combos, base, strict=True):
        out[opp.draws[combo[e] - 1]] += b
    return out


def _hidden_places(seen: SeenPool, shares: list[Floats], n: int) -> Floats:
    """Per pool place ``(n,)``, the chance :func:`_layout` gives one of the
    seat's discards that no opponent shows (nor the seat drew), up to a
    constant: at an opponent's draw ``r`` (pool place ``opp.draws[r - 1]``)
    the share (mixed with :data:`DEFENSIVE` as :func:`_layout` mixes it) of
    that opponent's origins that leave draw ``r`` hidden (a discard of the
    seat there is not one of its up cards), elsewhere 1; ``shares`` per
    opponent, in :func:`_origins` order (issue 33, branch s55-ryo2).

    Placed alike, such a discard fell at an opponent's draw its likely
    origins need for an up card in some worlds, and there only its unlikely
    origins fit: that opponent's step (where the layout's ``1 / q`` of its
    origins is taken on) weighed those worlds far below the rest
    (hand 30001, third card up: every step's weights the more uneven). The
    place's own ``1 / q`` is taken on at the same step (:func:`_layout`).

    >>> o = SeenOpponent(seat=1, ups=[1, 2, 3], draws=[1, 7], live=True)
    >>> _origins(o, set())
    [(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 1, 0), (0, 1, 2)]
    >>> shares = [np.array([0.0, 0.0, 0.5, 0.0, 0.5])]
    >>> _hidden_places(SeenPool([], [], [], [o], 2, None), shares, 9)[[0, 1, 7]].round(4).tolist()
    [1.0, 0.48, 0.12]
    """
    discards = set(seen.discards)
    out = np.ones(n)
    for j, opp in enumerate(seen.opponents):
        combos = _origins(opp, discards)
        base = (1 - DEFENSIVE) * np.asarray(shares[j]) + DEFENSIVE / len(combos)
        for r, at in enumerate(opp.draws, start=1):
            out[at] = sum(b for combo, b in zip(combos, base, strict=True) if r not in combo)
    return out


OWNER_SAMPLES = 128
"""Per opponent and origin of its up cards, the kept sets (from its guide)
:func:`_owner_prefs` averages the keep policy's chances over."""
OWNER_CAP = 1.0
"""The most :func:`_owner_prefs` gives an owner, over a card's chance among
random discards: an owner is steered away from where its keep would not
have thrown the card, never towards one (issue 33, branch s56-ryo:
uncapped, the chances of a few owners ran to 15 and a batch's equity
spread 3.55 points against 1.79 over 100 batches, the weights of the
owners drawn alone a Kish share of 0.0003)."""
OWNER_FLOOR = 0.1
"""The share of :func:`_owner_prefs`' chance that is alike for every
owner (1), so that an owner the estimate underrates still gets worlds."""
OWNERS = True
"""Whether :func:`steers_owners` views draw whose discard each named label
is by the keep policy (:func:`_relabel`; issue 33, branch s56-ryo)."""


def steers_owners(seen: SeenPool) -> bool:
    """Whether runs of ``seen`` within :func:`shared_proposals` draw whose
    discard each named card of the pool was by the keep policy
    (:func:`_owner_prefs`, :func:`_relabel`): where the origin shares are
    learnt (:func:`learns_shares`) and :data:`OWNERS` is on."""
    return OWNERS and learns_shares(seen)


def _owner_prefs(seen: SeenPool, policy: FastPolicy, tremble: float, unseen: Ints,
                 guides: dict[tuple[int, tuple[int, ...]], tuple[Ints, Floats]],
                 gen: np.random.Generator) -> tuple[Ints, list[Floats]]:
    """How likely each opponent was to throw each card a label of the pool
    may be named (issue 33, branch s56-ryo): ``(cards (C,), per opponent
    (origins, C))``, ``cards`` every card an opponent's discard may be found
    to be (one the seat drew, the turned wild card, an up card; none of the
    seat's discards), and per opponent ``j`` and origin of its up cards
    (:func:`_origins` order) the keep policy's mean chance of its keep with
    that card among its three discards over its mean chance with three
    unseen ones (:data:`OWNER_SAMPLES` kept sets from its guide, the other
    discards unseen cards drawn alike), mixed with :data:`OWNER_FLOOR` of 1
    (alike). 0 (before the floor) where the card is one of the up cards that
    origin keeps.

    Why: at 6 players in the third card up round the step of an opponent
    whose discards the layout named as cards its keep would not have thrown
    (hand 30001: seat 2 shows 5♠ 6♠, and a five or six named as one of its
    discards) weighed those worlds some 0.013 against 0.5 to 1.9 (branch
    s55-ryo2): placed alike, a named card fell on such an owner in a
    fifth of the worlds."""
    discards = set(seen.discards)
    named = {c for _, c in seen.my_draws}
    if seen.wild is not None:
        named.add(seen.wild)
    for o in seen.opponents:
        named.update(o.ups)
    cards = np.asarray(sorted(named - discards), dtype=np.int64)
    n_c = len(cards)
    out: list[Floats] = []
    s = OWNER_SAMPLES
    for j, opp in enumerate(seen.opponents):
        combos = _origins(opp, discards)
        tab = np.zeros((len(combos), n_c))
        for i, combo in enumerate(combos):
            kept_up = [c for c, r in zip(opp.ups, combo, strict=True) if r == 0]
            f = 3 - len(kept_up)
            table, prob = guides[(j, combo)]
            avail = np.zeros((s, 52), dtype=bool)
            avail[:, unseen] = True
            if f == 3 or not len(table):
                hidden = _pick_each(gen, avail, 1, f)
            else:
                hidden = table[gen.choice(len(table), size=s, p=prob)]
            kept = np.concatenate([np.broadcast_to(np.asarray(kept_up, dtype=np.int64),
                                                   (s, len(kept_up))), hidden], axis=1)
            xs = _pick_each(gen, avail, 1, 3, exclude=hidden)
            base = _keep_lik(policy, kept, xs, tremble).mean()
            thrown = np.repeat(xs, n_c, axis=0)
            thrown[:, 0] = np.tile(cards, s)
            lik = _keep_lik(policy, np.repeat(kept, n_c, axis=0), thrown, tremble)
            tab[i] = lik.reshape(s, n_c).mean(axis=0) / base
            tab[i, np.isin(cards, kept_up)] = 0.0
        out.append((1 - OWNER_FLOOR) * np.minimum(tab, OWNER_CAP) + OWNER_FLOOR)
    return cards, out


def _relabel(seen: SeenPool, order: Ints, named: Ints, origin: Ints, weight: Floats, later: Floats,
             gen: np.random.Generator, owners: tuple[Ints, list[Floats]]) -> tuple[Ints, Ints]:
    """Whose discard each label of :func:`_layout`'s pool is, drawn anew
    once the origins are drawn (issue 33, branch s56-ryo): returns the new
    ``(order, named)``; ``weight`` ``(k,)`` and ``later`` ``(k, m)`` (log
    factors per opponent's step) are multiplied in place.

    Which places hold labels, and the cards named there, do not depend on
    whose discards the labels are (an origin needs an unnamed label at a
    draw, any one), so the labels' owners may be drawn after the origins.
    Under the prior every arrangement of the ``3 m`` labels is as likely.
    Here the places with a named card come first, in place order: the owner
    ``j`` in proportion to its labels left times ``prefs`` (:func:`_owner_prefs`,
    at ``j``'s origin in the world); the labels left then alike in the other
    places, and each owner's three labels in a random order among its
    places. The weight of that is the product over named places of the
    mean chance of the labels left over the one drawn: the mean (the same
    between worlds but for the cards named) is taken on here, ``1 /`` the
    chance at the owner's step (as the ``1 / q`` of its origins), so that
    resampling before it keeps it. Drawn alike (every ``prefs`` 1) it is the
    prior's, the weight 1."""
    m = len(seen.opponents)
    cards, prefs = owners
    k, n = order.shape
    drawer = np.full(n, -1)
    for j, opp in enumerate(seen.opponents):
        drawer[opp.draws] = j
    rows = np.arange(k)
    is_lab = order >= 52
    card_at = np.where(is_lab, named[rows[:, None], np.maximum(order - 52, 0)], -1)
    col = np.full(52, -1)
    col[cards] = np.arange(len(cards))
    left = np.full((k, m), 3)
    owner = np.full((k, n), -1)
    if compiled.use():  # the same owners and factors, in one pass (branch s62-ryo)
        has = card_at >= 0
        r = gen.random(int(has.sum()))  # (each place's worlds' numbers, place after place)
        compiled.relabel_owners(card_at, col, prefs, origin, left, drawer, r, weight, owner,
                                later)
    for p in range(n if not compiled.use() else 0):
        at = np.flatnonzero(card_at[:, p] >= 0)
        if not len(at):
            continue
        ci = col[card_at[at, p]]
        pref = np.stack([prefs[j][origin[at, j], ci] for j in range(m)], axis=1)
        mass = left[at] * pref
        pick = _sample_rows(gen, mass, 1)
        norm = mass.sum(axis=1) / left[at].sum(axis=1)
        if drawer[p] >= 0:  # (an up card drawn: at its drawer's step, as its origins' 1 / q)
            later[at, drawer[p]] += np.log(norm)
        else:  # (a card the seat drew, the wild card)
            weight[at] *= norm
        later[at, pick] -= np.log(pref[np.arange(len(at)), pick])
        left[at, pick] -= 1
        owner[at, p] = pick
    # the owners left, alike in the places left (in place order)
    rest_keys = gen.random((k, 3 * m))
    perm_keys = gen.random((k, m, 3))  # (each owner's three labels' order among its places)
    if compiled.use():  # the same owners and labels, in two passes (s61-ryo2, s68-fuse)
        perm = compiled.relabel_rest(owner, is_lab, left, rest_keys, perm_keys)
        return compiled.relabel_places(is_lab, owner, perm, card_at, order, named.shape[1])
    slot = np.repeat(np.arange(m), 3)[None, :]
    used = np.tile(np.arange(3), m)[None, :] < (3 - left)[:, slot[0]]
    rest = np.argsort(np.where(used, 2.0, rest_keys), axis=1)
    places = np.argsort(~(is_lab & (owner < 0)), axis=1, kind="stable")[:, :3 * m]
    fill = np.arange(3 * m)[None, :] < (is_lab & (owner < 0)).sum(axis=1)[:, None]
    r_i, c_i = np.nonzero(fill)
    owner[r_i, places[r_i, c_i]] = slot[0][rest[r_i, c_i]]
    perm = np.argsort(perm_keys, axis=2)
    new_order = order.copy()
    new_named = np.full_like(named, -1)
    seen_of_owner = np.zeros((k, m), dtype=np.int64)
    for p in range(n):
        lab = np.flatnonzero(is_lab[:, p])
        j = owner[lab, p]
        i = perm[lab, j, seen_of_owner[lab, j]]
        seen_of_owner[lab, j] += 1
        new_order[lab, p] = 52 + 3 * j + i
        has = card_at[lab, p] >= 0
        new_named[lab[has], 3 * j[has] + i[has]] = card_at[lab[has], p]
    return new_order, new_named


BY_DRAWS_FROM = 4
"""From the third card up (every opponent showing three cards) with this
many opponents, and fewer than :data:`PLACE_FROM` (5 players), the
opponents are read in the order they first drew from the pool
(:func:`read_order`; issue 33, branch s54-ryo)."""


def read_order(seen: SeenPool) -> list[int]:
    """The order :func:`_worlds` reads the opponents in (indices into
    ``seen.opponents``): at 5 players from the third card up
    (:data:`BY_DRAWS_FROM` opponents, all showing three cards, fewer than
    :data:`PLACE_FROM`) in the order of their first draws from the pool (who
    drew first, first; issue 33, branch s54-ryo), else as dealt (the seat's
    left first).

    Why: a batch's equity there is set mostly by how its worlds split
    between two origins of one opponent's up cards (hand 30001: seat 1, its
    second up card kept or drawn first, the seat taking the pot in some 1%
    of worlds one way and 7% the other). Read last (as dealt), after three
    resamplings, that split rested on the few ancestors left and ran from
    0.1 to 0.9 between batches; read first it rests on every world the
    layout drew. 72 half batches a setting (three pilots): the spread of a
    batch's equity 1.37 points against 1.97 (hand 30001), 0.97 against 1.30
    (30002), 0.60 against 0.93 (30003, 48 batches each), the same CPU. In
    play (hand 30001, third card up, 60 runs a side against the 40 s long
    run): within ±1.5 points 30 against 19, covered 59 against 55, median
    ±1.52 against ±2.02 (docs/dev/odds-precision.md). At 6 players (third
    card up, hand 30001) the same order spread more (6.0 against 4.0), so
    the dealt order is kept there.

    >>> o = lambda at: SeenOpponent(seat=1, ups=[1, 2, 3], draws=[at, at + 4], live=True)
    >>> read_order(SeenPool([], [], [], [o(1), o(2), o(3), o(0)], 8, None))
    [3, 0, 1, 2]
    >>> read_order(SeenPool([], [], [], [o(1), o(2), o(3), o(0), o(4)], 10, None))
    [0, 1, 2, 3, 4]
    """
    m = len(seen.opponents)
    if _all_up(seen) and m >= BY_DRAWS_FROM and not takes_places(seen):
        first = [o.draws[0] if o.draws else 52 for o in seen.opponents]  # (52: none)
        return sorted(range(m), key=lambda j: (first[j], j))
    return list(range(m))


def _seen_cards(seen: SeenPool) -> set[int]:
    """Every card the seat has seen."""
    out = set(seen.mine) | set(seen.discards) | {c for _, c in seen.my_draws}
    for o in seen.opponents:
        out.update(o.ups)
    if seen.wild is not None:
        out.add(seen.wild)
    return out


LOG_FACTORIAL = np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, 53)))])
"""``log(n!)`` for ``n`` 0..52."""


def _log_falling(a: Ints, t: Ints | int) -> Floats:
    """``log(a (a - 1) ... (a - t + 1))`` per row; ``-inf`` where ``t > a``."""
    low = a - t
    return np.where(low >= 0, LOG_FACTORIAL[np.maximum(a, 0)] - LOG_FACTORIAL[np.maximum(low, 0)],
                    -np.inf)


def _from_guide(gen: np.random.Generator, table: Ints, prob: Floats, avail: Bools,
                reps: int) -> tuple[Ints, Floats]:
    """``reps`` sets per row of ``avail`` ``(k, 52)`` from the guide's sets
    ``table`` ``(M, f)`` (``f`` 0..2) and chances ``prob``, restricted to the
    sets of available cards: ``(k * reps, f)``, and per set ``log(Z / p)``,
    ``p`` its chance in the guide and ``Z`` the guide's chance of the
    available sets (so ``p / Z`` is the chance it was drawn). A pair is drawn
    as an ordered pair from the symmetric table of chances, one card then
    the other; the other by :func:`_second_of_pair`."""
    k = len(avail)
    f = table.shape[1]
    if f == 0:
        return np.zeros((k * reps, 0), dtype=np.int64), np.zeros(k * reps)
    av = avail.astype(np.float32)
    if f == 1:
        single = np.zeros(52, dtype=np.float32)
        single[table[:, 0]] = prob
        mass = av * single  # (k, 52)
        z = mass.sum(axis=1)
        first = _sample_rows(gen, mass, reps)
        with np.errstate(divide="ignore", invalid="ignore"):  # no set left: weight 0
            ratio = np.log(np.repeat(z, reps) / single[first])
        return first[:, None], np.nan_to_num(ratio, nan=-np.inf).astype(np.float64)
    pair, sums = _pair_tables(table, prob)
    mass = av * (av @ pair)  # (k, 52): each first card's share of the ordered pairs
    z = mass.sum(axis=1) / 2
    first = _sample_rows(gen, mass, reps)
    second = _second_of_pair(gen, pair, avail, first, reps, sums)
    with np.errstate(divide="ignore", invalid="ignore"):  # no pair left: weight 0
        ratio = np.log(np.repeat(z, reps) / pair[first, second])
    return (np.stack([first, second], axis=1),
            np.nan_to_num(ratio, nan=-np.inf).astype(np.float64))


SECOND_TRIES = 6
"""Rounds of :func:`_second_of_pair`'s rejection before the draws still
rejected are drawn from their rows' masked chances directly."""


_PAIRS: dict[int, tuple[Ints, Floats, tuple[Any, tuple[Floats, Floats, Floats]]]] = {}
"""The guides' pair tables :func:`_pair_tables` laid out, by the id of the
guide's sets (held with its chances, so compared by identity)."""


def _pair_tables(table: Ints, prob: Floats) -> tuple[Any, tuple[Floats, Floats, Floats]]:
    """A guide of pairs (sets ``table`` ``(M, 2)``, chances ``prob``
    ``(M,)``) as :func:`_from_guide` reads it: the symmetric ``(52, 52)``
    float32 table of chances, and :func:`_second_of_pair`'s running sum of
    it (float64, ``(52 * 52,)``) with each row's sum before and at its end
    ``(52,)``. Laid out once per guide (issue 33, branch s62-ryo: the guides
    are the pilot's for every batch of a run; the same arrays as before)."""
    hit = _PAIRS.get(id(table))
    if hit is not None and hit[0] is table and hit[1] is prob:
        return hit[2]
    pair = np.zeros((52, 52), dtype=np.float32)
    pair[table[:, 0], table[:, 1]] = prob
    pair[table[:, 1], table[:, 0]] = prob
    cum = np.cumsum(np.asarray(pair, dtype=np.float64).reshape(-1))
    ends = cum[51::52]
    starts = np.concatenate([[0.0], ends[:-1]])
    out = (pair, (cum, np.ascontiguousarray(starts), np.ascontiguousarray(ends)))
    if len(_PAIRS) >= 256:  # (a run's guides are a few dozen)
        _PAIRS.clear()
    _PAIRS[id(table)] = (table, prob, out)
    return out


def _second_of_pair(gen: np.random.Generator, pair: Any, avail: Bools, first: Ints,
                    reps: int, sums: tuple[Floats, Floats, Floats] | None = None) -> Ints:
    """Per draw ``i`` (row ``i // reps`` of ``avail`` ``(k, 52)``), the second
    card of a pair whose first is ``first[i]``: card ``c`` with chance
    ``pair[first[i], c]`` among the row's available cards (``pair`` ``(52,
    52)``, non-negative, the row of every first card drawn holding some
    available mass): ``(k * reps,)``.

    Issue 33 (branch s47-odds): drawn from ``pair[first[i]]`` over all 52
    cards (one search in a table of cumulative chances per first card, made
    once) and drawn again where the card is not available, which is the law
    above exactly (rejection sampling); the draws still rejected after
    :data:`SECOND_TRIES` rounds are drawn from the masked row itself (as
    before: a cumulative sum over ``(draws, 52)``, which for every draw was
    most of the guide's cost)."""
    n = len(first)
    if sums is None:
        sums = _pair_tables_of(pair)
    cum, starts, ends = sums
    flat_avail = avail.reshape(-1)
    out = np.zeros(n, dtype=np.int64)
    todo = np.arange(n)
    if compiled.use():  # each round's search and rejection in one pass (branch s62-ryo)
        first_c = np.ascontiguousarray(first, dtype=np.int64)
        flat_c = np.ascontiguousarray(flat_avail, dtype=np.bool_)
        for _ in range(SECOND_TRIES):
            todo = compiled.second_round(todo, gen.random(len(todo)), first_c, starts, ends,
                                         cum, flat_c, reps, out)
            if not len(todo):
                return out
        row_left = todo // reps
        left = _sample_rows(gen, avail[row_left].astype(np.float32) * pair[first[todo]], 1)
        out[todo] = left
        return out
    row = np.repeat(np.arange(len(avail)), reps)
    for _ in range(SECOND_TRIES):
        c = first[todo]
        lo, hi = starts[c], ends[c]
        u = np.minimum(lo + gen.random(len(todo)) * (hi - lo), np.nextafter(hi, lo))
        card = (compiled.search_rows(cum, u, 52, c) if compiled.use() else
                np.clip(np.searchsorted(cum, u, side="right") - 52 * c, 0, 51))
        out[todo] = card
        todo = todo[~flat_avail[row[todo] * 52 + card]]
        if not len(todo):
            return out
    left = _sample_rows(gen, avail[row[todo]].astype(np.float32) * pair[first[todo]], 1)
    out[todo] = left
    return out


def _pair_tables_of(pair: Any) -> tuple[Floats, Floats, Floats]:
    """:func:`_second_of_pair`'s running sum of ``pair`` ``(52, 52)`` and
    each row's sum before and at its end, where no guide's are at hand."""
    cum = np.cumsum(np.asarray(pair, dtype=np.float64).reshape(-1))
    ends = cum[51::52]
    return cum, np.concatenate([[0.0], ends[:-1]]), np.ascontiguousarray(ends)


def _sample_rows(gen: np.random.Generator, mass: Any, reps: int) -> Ints:
    """``reps`` indices per row of ``mass`` ``(k, M)``, each in proportion
    to the row's masses: ``(k * reps,)``, row ``i``'s at ``i * reps``..."""
    k, size = mass.shape
    if compiled.use():  # the same sum, points and search in one pass (branch s62-ryo)
        return compiled.sample_rows(mass, gen.random((k, reps)))
    # one search over every row's masses laid end to end (issue 33)
    cum = np.cumsum(np.asarray(mass, dtype=np.float64).reshape(-1))
    ends = cum[size - 1::size]
    starts = np.concatenate([[0.0], ends[:-1]])
    u = np.minimum(starts[:, None] + gen.random((k, reps)) * (ends - starts)[:, None],
                   np.nextafter(ends, starts)[:, None])  # (never a row's end: no zero mass)
    if compiled.use():  # the same indices, each searched within its row (branch s57-ryo)
        return compiled.search_rows(cum, u.reshape(-1), size, np.repeat(np.arange(k), reps))
    idx = np.searchsorted(cum, u.reshape(-1), side="right") - np.repeat(np.arange(k) * size,
                                                                         reps)
    return np.asarray(np.clip(idx, 0, size - 1), dtype=np.int64)


def _read_opponent(seen: SeenPool, j: int, order: Ints, named: Ints, origin: Ints,
                   avail: Bools, policy: FastPolicy, tremble: float,
                   gen: np.random.Generator,
                   guides: dict[tuple[int, tuple[int, ...]], tuple[Ints, Floats]],
                   candidates: int, expose: _ExposeTable | None = None,
                   ahead: Ahead | None = None
                   ) -> tuple[Floats, Ints, Ints]:
    """Name what is still unnamed of opponent ``j`` in each world, its
    origins of its up cards given (:func:`_layout`): its hidden kept cards
    and the unnamed cards among its three discards and its draws.

    Per world, ``candidates`` candidates: the hidden kept cards from the
    guide (:func:`_guide`), the unnamed cards uniformly among the unseen
    cards no earlier step named; each is weighed by the policy's chance of
    its keep and exposes over the proposal's chance of it (zero where it
    clashes with what is named), times the number of ways to name the rest
    after it over that before it. One is kept in proportion to its weight,
    and the world's weight is multiplied by the candidates' mean weight: an
    unbiased estimate of the opponent's likelihood summed over what of it
    was not yet named, so every world stays properly weighted (the prior is
    uniform over deals and pool orders: every full world is equally likely
    before the policy is read).

    Returns the factor per world ``(k,)``, the chosen kept cards ``(k, 3)``
    and the chosen cards of its discards and draws ``(k, 3 + draws)``;
    ``named`` and ``avail`` are not changed here. ``expose``: the view's
    table of the exposes' chances (:func:`_expose_table`). ``ahead``: the
    read's look-ahead (:data:`LOOK_AHEAD`, :func:`_ahead_of`): each
    candidate's weight times the factors it gains (:func:`_ahead_logs`; the
    caller puts them off to the drawers' reads)."""
    opp = seen.opponents[j]
    if expose is None:
        expose = _expose_table(seen, policy, tremble)
    k = len(order)
    reps = candidates
    if (READ_FUSED and _fused_now() and type(policy).keep_scores is FastPolicy.keep_scores):
        # every origin's candidates in two compiled passes (issue 33, branch s63-ryo)
        return _read_fused(seen, j, order, named, origin, avail, tremble, gen, guides, reps,
                           expose, **({"ahead": ahead} if ahead is not None else {}))
    rows = np.arange(k)
    d = len(opp.draws)
    own = np.arange(3 * j, 3 * j + 3)
    item = order[:, opp.draws] if d else np.zeros((k, 0), dtype=np.int64)
    lab = np.concatenate([np.broadcast_to(own, (k, 3)), np.where(item >= 52, item - 52, -1)],
                         axis=1)  # (k, 3 + d): the label of each slot, -1 for the seat's card
    cur = np.where(lab >= 0, named[rows[:, None], np.maximum(lab, 0)],
                   np.concatenate([np.full((k, 3), -1), item], axis=1))
    dup = [(lab[:, 3 + r] - 3 * j) for r in range(d)]  # a draw of its own discard
    dup_ok = [(x >= 0) & (x < 3) for x in dup]
    fresh = (cur == -1) & (lab >= 0)
    for r in range(d):
        fresh[:, 3 + r] &= ~dup_ok[r]
    n_fresh = fresh.sum(axis=1)
    a_count = avail.sum(axis=1)
    unnamed = (named < 0).sum(axis=1)
    fast = compiled.use()  # the layout and the choice compiled (branch s57-ryo2)
    if fast:
        cur_c = np.ascontiguousarray(cur, dtype=np.int64)
        fresh_c = np.ascontiguousarray(fresh)
        dup_c = (np.ascontiguousarray(np.stack(dup, axis=1), dtype=np.int64) if d
                 else np.zeros((k, 0), dtype=np.int64))
        dup_ok_c = (np.ascontiguousarray(np.stack(dup_ok, axis=1)) if d
                    else np.zeros((k, 0), dtype=bool))
    out_w = np.zeros((k, reps))
    # the fast policy's keep table: the candidates weighed where laid out
    weigh = (_keep_table_by_cards().reshape(-1)
             if fast and type(policy).keep_scores is FastPolicy.keep_scores else None)
    out_kept = np.zeros((k, reps, 3), dtype=np.int64)
    out_val = np.zeros((k, reps, 3 + d), dtype=np.int64)
    for i, combo in enumerate(_origins(opp, set(seen.discards))):
        sub = np.flatnonzero(origin[:, j] == i)
        if not len(sub):
            continue
        ks = len(sub)
        kept_up = [c for c, r in zip(opp.ups, combo, strict=True) if r == 0]
        f = 3 - len(kept_up)
        sub_avail = avail[sub]
        sub_fresh = fresh[sub]
        a_s, nf_s, u_s = a_count[sub], n_fresh[sub], unnamed[sub]
        # the ways to name what is left after this step over before it:
        # (A - f - nf)_(U - nf) / (A)_U, times 1 / q of the hidden cards
        count = _log_falling(a_s - f - nf_s, u_s - nf_s) - _log_falling(a_s, u_s)
        table, prob = guides[(j, combo)]
        if f == 3 or not len(table):
            draw = _pick_each(gen, sub_avail, reps, f + 3 + d)
            hidden, names = draw[:, :f], draw[:, f:]
            # q = f! / (A)_(f + nf)
            log_q = LOG_FACTORIAL[f] - _log_falling(a_s, f + nf_s)
            factor = np.repeat(np.exp(count - log_q), reps)
        else:
            hidden, log_ratio = _from_guide(gen, table, prob, sub_avail, reps)
            names = _pick_each(gen, sub_avail, reps, 3 + d, exclude=hidden)
            # q = (prob / Z) / (A - f)_nf, Z the guide's chance of the sets left
            log_q = -_log_falling(a_s - f, nf_s)
            factor = np.exp(np.repeat(count - log_q, reps) + log_ratio)
        if weigh is not None and compiled.read_weigh(
                sub, reps, names, cur_c, fresh_c, dup_c, dup_ok_c,
                np.asarray(kept_up, dtype=np.int64), hidden, out_kept, out_val, weigh, tremble,
                expose.powers[j], expose.flat, int(expose.offset[j]), factor, out_w):
            continue  # laid out and weighed in one compiled pass (branch s62-ryo)
        if fast:  # the same cards, laid out and written in one pass
            kept, val_r, thrown, shown = compiled.read_names(
                sub, reps, names, cur_c, fresh_c, dup_c, dup_ok_c,
                np.asarray(kept_up, dtype=np.int64), hidden, out_kept, out_val)
        else:
            val_r = np.where(np.repeat(sub_fresh, reps, axis=0), names,
                             np.repeat(cur[sub], reps, axis=0))
            for r in range(d):  # a draw of its own discard is that discard's card
                own_i = np.repeat(np.where(dup_ok[r][sub], dup[r][sub], 0), reps)
                val_r[:, 3 + r] = np.where(np.repeat(dup_ok[r][sub], reps),
                                           val_r[np.arange(ks * reps), own_i], val_r[:, 3 + r])
            kept = np.concatenate([np.broadcast_to(np.asarray(kept_up, dtype=np.int64),
                                                   (ks * reps, len(kept_up))), hidden], axis=1)
            out_kept[sub] = kept.reshape(ks, reps, 3)
            out_val[sub] = val_r.reshape(ks, reps, 3 + d)
            thrown = np.maximum(val_r[:, :3], 0)
            shown = np.concatenate([kept, val_r[:, 3:]], axis=1)
        lik = _keep_lik(policy, kept, thrown, tremble) * expose.lik(j, shown)
        out_w[sub] = (lik * factor).reshape(ks, reps) / reps
    if ahead is not None:
        out_w *= np.exp(_ahead_logs(ahead, out_val))
    total = out_w.sum(axis=1)
    u01 = gen.random(k) * total
    if fast:  # the same running sums and candidate chosen
        chosen_kept, chosen_val = compiled.choose_rows(out_w, u01, out_kept, out_val)
        return total, chosen_kept, chosen_val
    choice = np.minimum((np.cumsum(out_w, axis=1) < u01[:, None]).sum(axis=1), reps - 1)
    return total, out_kept[rows, choice], out_val[rows, choice]


def _read_fused(seen: SeenPool, j: int, order: Ints, named: Ints, origin: Ints, avail: Bools,
                tremble: float, gen: np.random.Generator,
                guides: dict[tuple[int, tuple[int, ...]], tuple[Ints, Floats]], reps: int,
                expose: _ExposeTable, ahead: Ahead | None = None
                ) -> tuple[Floats, Ints, Ints]:
    """:func:`_read_opponent` for the fast policy with the kernels in use:
    every world's ``reps`` candidates drawn (:func:`rollem.odds.compiled.read_draw`,
    each world by its origin's proposal), weighed and one kept
    (:func:`rollem.odds.compiled.read_score`), the exposes' chances not tabled
    yet filled first. The same law as the origin-by-origin path, its own
    random numbers (issue 33, branch s63-ryo)."""
    opp = seen.opponents[j]
    k = len(order)
    mode, n_up, kept_ups, single, pair = _read_tables(opp, j, seen, guides)
    out_kept, out_val, factor = compiled.read_draw(
        gen, origin[:, j], avail, named, order, np.asarray(opp.draws, dtype=np.int64), j, mode,
        n_up, kept_ups, single, pair, LOG_FACTORIAL, reps)
    if ahead is not None:  # (branch s71-draw)
        # times the exponential of each candidate's gain where it is not 0 (most
        # are: exp(0) is 1, times 1 the same factor); numpy's exp of a float64 is
        # libm's, one at a time, without AVX-512 (12 ns a candidate: branch s72-speed)
        gain = _ahead_logs(ahead, out_val)
        on = gain != 0.0
        factor[on] *= np.exp(gain[on])
    weigh = _keep_table_by_cards().reshape(-1)
    while True:
        got = compiled.read_score(gen, out_kept, out_val, factor, weigh, tremble,
                                  expose.powers[j], expose.flat, int(expose.offset[j]))
        if got is not None:
            return got
        # some exposes not tabled yet: filled (as the numpy path's lik does), then again
        expose.lik(j, np.concatenate([out_kept, out_val[:, :, 3:]], axis=2).reshape(
            k * reps, -1).astype(np.int64))


READ_FUSED = True
"""Whether :func:`_read_opponent` draws and weighs every origin's candidates
in :func:`rollem.odds.compiled.read_draw` and :func:`~rollem.odds.compiled.read_score`
where the kernels are in use (issue 33, branch s63-ryo: the same law as the
origin-by-origin path, its own random stream, so other bits); False: origin by
origin, as before."""

_FUSED_RUN: ContextVar[bool | None] = ContextVar("ryoseen_fused_run", default=None)
"""Whether this run reads in one pass, fixed when the run began
(:func:`ryo_seen_look`; in play, the first batch's answer for every batch): the
kernels may become ready mid-run, and the two reads draw other numbers, so a
seeded run must not switch between them. ``None``: no run fixed it (a bench
or test calling the steps), ask :func:`rollem.odds.compiled.use`."""


def _fused_now() -> bool:
    """Whether the read is made in one pass now (:data:`_FUSED_RUN`)."""
    fixed = _FUSED_RUN.get()
    return compiled.use() if fixed is None else fixed


_READ_TABLES: dict[tuple[int, int], tuple[Any, ...]] = {}
""":func:`_read_tables` by the id of the guides and the opponent (held with
the guides, so compared by identity)."""


def _read_tables(opp: SeenOpponent, j: int, seen: SeenPool,
                 guides: dict[tuple[int, tuple[int, ...]], tuple[Ints, Floats]]
                 ) -> tuple[Ints, Ints, Ints, Floats, Floats]:
    """Per origin ``i`` of opponent ``j`` (:func:`_origins` order), what
    :func:`rollem.odds.compiled.read_draw` reads: how its hidden kept cards
    are drawn (0 uniformly, 1 one card from its guide, 2 a pair), the number
    of up cards kept and those cards ``(n, 3)``, the guide's chances of one
    card ``(n, 52)`` and of a pair (symmetric, ``(n, 52, 52)``), float64 of
    the float32 chances :func:`_from_guide` draws from. Laid out once per
    guides (a run's batches share the pilot's)."""
    combos = _origins(opp, set(seen.discards))
    mine = [guides[(j, combo)] for combo in combos]
    key = (id(guides), j)
    hit = _READ_TABLES.get(key)
    if hit is not None and hit[0] is guides and len(hit[1]) == len(mine) and all(
            a is b for a, b in zip(hit[1], mine, strict=True)):
        return hit[2]  # type: ignore[no-any-return]
    n = len(combos)
    mode = np.zeros(n, dtype=np.int64)
    n_up = np.zeros(n, dtype=np.int64)
    kept_ups = np.zeros((n, 3), dtype=np.int64)
    single = np.zeros((n, 52))
    pair = np.zeros((n, 52, 52))
    for i, combo in enumerate(combos):
        kept_up = [c for c, r in zip(opp.ups, combo, strict=True) if r == 0]
        f = 3 - len(kept_up)
        n_up[i] = len(kept_up)
        kept_ups[i, :len(kept_up)] = kept_up
        table, prob = mine[i]
        if f == 3 or f == 0 or not len(table):
            continue
        mode[i] = f
        if f == 1:
            one = np.zeros(52, dtype=np.float32)
            one[table[:, 0]] = prob
            single[i] = one
        else:
            pair[i] = _pair_tables(table, prob)[0]
    out = (mode, n_up, kept_ups, single, pair)
    if len(_READ_TABLES) >= 64:
        _READ_TABLES.clear()
    _READ_TABLES[key] = (guides, mine, out)
    return out


LOOK_AHEAD: frozenset[int] = frozenset({4, 5})
"""Counts of opponents with which, after the wild card (:func:`wild_view`
views, in batches that make moves), a read looks ahead to the opponents
read after it (issue 33, branch s71-draw): where a candidate names one of
the read opponent's discards that a later-read opponent drew (hidden from
the seat), the candidate's weight is multiplied by that later opponent's
look-ahead factor for the card's rank (:func:`_ahead_table`: how likely its
exposes are with that card at that draw, the rest of its cards alike), so
the candidates kept and the worlds resampled are those the later read will
like; the factor is put off, divided back out, to the drawer's read (the
layout's ``later``). The partial worlds' target between the two reads is
the usual one times these factors, and each is taken out at the drawer's
read, so the answers' law is the same (the label steps leave those labels
as named meanwhile: :func:`rollem.odds.compiled.label_steps_live`'s
``hold``). Empty: off, main's worlds bit for bit.

6 players (5 opponents) since branch s71-draw: played at 1 s against main,
alternated run by run (seeds 101-112, load 5-15), the interval × 0.964 ±
0.023 over the 8 wide hands and 31149, 31157 (× 0.993 ± 0.022 on the 8 wide
alone, neutral; 31157 × 0.78 ± 0.11, median ±6.11 → ±3.90; 31149 × 0.93 ±
0.04), covering the truths 116 of 120 against 112 (docs/dev/odds-precision.md).
5 players (4 opponents) since branch s72-ahead: the same way (seeds 101-140,
load 2.5-12), the interval × 0.950 ± 0.017 over the four wide hands (31021,
31035, 31042, 31047; median ±1.75 → ±1.65), covering 155 of 160 against
153; six edge and middle hands (31036, 31049, 31051, 31057, 31058, 31188)
× 0.980 ± 0.029, covering 113 of 120 against 115."""
LOOK_POWER = 1.0
"""The look-ahead factors (:data:`LOOK_AHEAD`) raised to this power (any
power keeps the law; 0 weighs nothing but still holds the labels)."""
LOOK_KEEP = False
"""Whether the look-ahead factors (:func:`_ahead_table`) weigh the later
opponent's hidden kept cards by how likely it is to hold and keep them (the
unseen cards of those ranks, times the policy's keep chance with
:data:`LOOK_KEEP_X` random discards; :func:`_ahead_keep_weights`) and its
draws not known by the unseen cards of each rank, in place of every rank
alike (issue 33, branch s72-ahead). Either keeps the law (the factor is
divided back out at the drawer's read)."""
LOOK_KEEP_X = 16
"""Random discards per set of hidden kept cards in :func:`_ahead_keep_weights`."""
LOOK_KEEP_SEED = 72
"""The seed of :func:`_ahead_keep_weights`' discards (its own generator: the
run's draws are not touched)."""


def _ahead_keep_weights(policy: FastPolicy, tremble: float, kept_up: list[int], f: int,
                        unseen: Ints) -> Floats:
    """Per ranks of an opponent's ``f`` hidden kept cards ``(13,) * f``
    (symmetric), how likely it is to hold and keep them beside its kept up
    cards ``kept_up``: the sum over every set of ``f`` unseen cards of those
    ranks of the policy's keep chance (:func:`_keep_lik`) averaged over
    :data:`LOOK_KEEP_X` random discards from the rest of the unseen cards
    (:data:`LOOK_KEEP_SEED`); each order of a set's ranks gets its share."""
    from math import factorial

    from rollem.odds.look521 import _pick

    if f == 0:
        return np.ones(())
    table = unseen[np.asarray(list(combinations(range(len(unseen)), f)), dtype=np.int64)]
    m = len(table)
    kept = np.concatenate([np.broadcast_to(np.asarray(kept_up, dtype=np.int64),
                                           (m, len(kept_up))), table], axis=1)
    rows = np.repeat(kept, LOOK_KEEP_X, axis=0)
    avail = np.zeros((len(rows), 52), dtype=bool)
    avail[:, unseen] = True
    avail[np.arange(len(rows))[:, None], rows] = False
    xs = _pick(np.random.default_rng(LOOK_KEEP_SEED), avail, 3)
    share = _keep_lik(policy, rows, xs, tremble).reshape(m, LOOK_KEEP_X).mean(axis=1)
    out = np.zeros((13,) * f)
    ranks = table >> 2
    for perm in permutations(range(f)):
        np.add.at(out, tuple(ranks[:, p] for p in perm), share / factorial(f))
    return out


def _ahead_table(seen: SeenPool, expose: _ExposeTable) -> tuple[list[Ints], Floats]:
    """The look-ahead factors (:data:`LOOK_AHEAD`) of a view: per opponent
    ``m`` and origin ``i`` of its up cards (:func:`_origins` order) the first
    of its keys ``base[m][i]``, and the log factors ``(keys,)``: at key
    ``base + sum_t r_t 14 ** (d - 1 - t)`` for the ranks ``r_t`` of its ``d``
    draws (13: not known yet), the log of its exposes' chance
    (:class:`_ExposeTable`) averaged alike over the ranks of its hidden kept
    cards and of its draws not known, times :data:`LOOK_POWER`, the origin's
    highest 0 (a draw that is an up card there is looked up at its rank
    only). Made once a table and power."""
    hit = expose.ahead.get((LOOK_POWER, LOOK_KEEP))
    if hit is not None:
        return hit
    discards = set(seen.discards)
    unseen = np.asarray(sorted(set(range(52)) - _seen_cards(seen)), dtype=np.int64)
    # a draw not known: each rank alike, or (LOOK_KEEP) as many as its unseen cards
    prior = (np.bincount(unseen >> 2, minlength=13).astype(np.float64) if LOOK_KEEP
             else np.ones(13))
    base: list[Ints] = []
    logs: list[Floats] = []
    n = 0
    for m, o in enumerate(seen.opponents):
        d = len(o.draws)
        width = 3 + d
        tab = expose.tables[m].reshape((13,) * width)  # axis a: the key's place width - 1 - a
        firsts = []
        for combo in _origins(o, discards):
            kept_up = [u >> 2 for u, r in zip(o.ups, combo, strict=True) if r == 0]
            # the kept cards' places fixed where up, averaged where hidden (the
            # last axes: places 0 .. 2), the draws' axes (places d + 2 .. 3) left
            idx = tuple(kept_up[width - 1 - a] if width - 1 - a < len(kept_up) else slice(None)
                        for a in range(width))
            sub = tab[idx]
            hidden = tuple(range(d, sub.ndim))
            good = ~np.isnan(sub)  # (a draw that is an up card: filled at its rank only)
            if hidden and LOOK_KEEP:  # the hidden kept ranks by holding and keeping them
                held = _ahead_keep_weights(
                    expose.policy, expose.tremble,
                    [u for u, r in zip(o.ups, combo, strict=True) if r == 0], len(hidden), unseen)
                held = held.reshape((1,) * d + held.shape)
                full = ((np.where(good, sub, 0.0) * held).sum(axis=hidden)
                        / np.maximum((good * held).sum(axis=hidden), 1e-300))
            elif hidden:
                full = (np.where(good, sub, 0.0).sum(axis=hidden)
                        / np.maximum(good.sum(axis=hidden), 1))
            else:
                full = sub  # (13,) * d, the draws' axes reversed
            full = np.where(good.any(axis=hidden), full, np.nan) if hidden else full
            full = np.array(np.transpose(full) if d > 1 else full)  # the draws' axes, t = 0 ..
            for u, r in zip(o.ups, combo, strict=True):  # a draw that is an up card: its rank
                if r:
                    off = np.ones(13, dtype=bool)
                    off[u >> 2] = False
                    full[(slice(None),) * (r - 1) + (off,)] = np.nan
            ext = np.full((14,) * d, np.nan)
            ext[(slice(0, 13),) * d] = full
            for mask in product((False, True), repeat=d):  # a draw not known: averaged
                if not any(mask):
                    continue
                part = full
                for t in reversed(range(d)):
                    if mask[t]:
                        good = ~np.isnan(part)
                        by = prior.reshape([13 if a == t else 1 for a in range(d)])
                        part = np.expand_dims((np.where(good, part, 0.0) * by).sum(axis=t)
                                              / np.maximum((good * by).sum(axis=t), 1e-300), t)
                ext[tuple(13 if mask[t] else slice(0, 13) for t in range(d))] = \
                    part.reshape([1 if mask[t] else 13 for t in range(d)])[
                        tuple(0 if mask[t] else slice(None) for t in range(d))]
            top = max(float(np.nanmax(ext)), 1e-300) if d else 1.0
            firsts.append(n)
            flat = np.nan_to_num(ext.reshape(-1), nan=0.0) / top
            logs.append(LOOK_POWER * np.log(np.maximum(flat, 1e-12)))
            n += len(flat)
        base.append(np.asarray(firsts, dtype=np.int64))
    got = (base, np.concatenate(logs) if logs else np.zeros(0))
    expose.ahead[(LOOK_POWER, LOOK_KEEP)] = got
    return got


def _drawers(seen: SeenPool, order: Ints) -> tuple[Ints, Ints]:
    """Per world and label, the opponent that drew it and at which of its
    draws ``(k, 3 m)`` each (-1: in no opponent's draw)."""
    k = len(order)
    n_lab = 3 * len(seen.opponents)
    who = np.full((k, n_lab + 1), -1, dtype=np.int64)  # (the last column: not a label)
    at = np.full((k, n_lab + 1), -1, dtype=np.int64)
    rows = np.arange(k)
    for m, o in enumerate(seen.opponents):
        for t, p in enumerate(o.draws):
            lab = order[:, p] - 52
            lab = np.where(lab >= 0, lab, n_lab)
            who[rows, lab] = m
            at[rows, lab] = t
    return who[:, :n_lab], at[:, :n_lab]


Ahead = tuple[Ints, Ints, Ints, Floats]
"""A read's look-ahead (:func:`_ahead_of`): per world ``(k, 3)`` the drawer
of each of the read opponent's discards that its read names and an opponent
not read yet drew (-1: none) and that draw's stride in the drawer's keys,
per world and opponent ``(k, m)`` its key now (:func:`_ahead_table`), and
the log factors."""


def _ahead_of(seen: SeenPool, j: int, order: Ints, named: Ints, origin: Ints, done: set[int],
              base: list[Ints], logs: Floats) -> Ahead | None:
    """The look-ahead of opponent ``j``'s read (:data:`Ahead`), ``None`` where
    it names no card an opponent not read yet drew (compiled where the
    kernels are in use: :func:`rollem.odds.compiled.ahead_of`, the same
    arrays)."""
    k = len(named)
    m_all = len(seen.opponents)
    draws = np.asarray([len(o.draws) for o in seen.opponents], dtype=np.int64)
    if compiled.use():
        places = np.full((m_all, max(int(draws.max()), 1)), -1, dtype=np.int64)
        bases = np.zeros((m_all, max(len(b) for b in base)), dtype=np.int64)
        for m, o in enumerate(seen.opponents):
            places[m, :len(o.draws)] = o.draws
            bases[m, :len(base[m])] = base[m]
        done_mask = np.zeros(m_all, dtype=bool)
        done_mask[list(done)] = True
        got = compiled.ahead_of(j, order, named, origin, places, draws, done_mask, bases, m_all)
        return None if got is None else (*got, logs)
    who, at = _drawers(seen, order)
    drawer = np.full((k, 3), -1, dtype=np.int64)
    stride = np.zeros((k, 3), dtype=np.int64)
    for x in range(3):
        lab = 3 * j + x
        by = who[:, lab]
        on = (named[:, lab] < 0) & (by >= 0) & (by != j) & ~np.isin(by, list(done))
        drawer[on, x] = by[on]
        stride[on, x] = 14 ** (draws[by[on]] - 1 - at[on, lab])
    if not (drawer >= 0).any():
        return None
    key = np.full((k, m_all), -1, dtype=np.int64)
    for m in set(drawer[drawer >= 0].tolist()):
        o = seen.opponents[m]
        d = len(o.draws)
        km = base[m][origin[:, m]]
        for t, p in enumerate(o.draws):
            item = order[:, p]
            card = np.where(item < 52, item, named[np.arange(k), np.maximum(item - 52, 0)])
            km = km + np.where(card >= 0, card >> 2, 13) * 14 ** (d - 1 - t)
        key[:, m] = km
    return drawer, stride, key, logs


def _held(seen: SeenPool, order: Ints, named: Ints, done: set[int]) -> Bools:
    """Per world and label ``(k, 3 m)``: named, and drawn by an opponent not
    read yet (those whose card a read's look-ahead weighed: the label steps
    leave them as named, :data:`LOOK_AHEAD`)."""
    if compiled.use():  # (one compiled pass; branch s72-speed)
        return compiled.held_labels(order, named, np.asarray(
            [p for m, o in enumerate(seen.opponents) if m not in done for p in o.draws],
            dtype=np.int64))
    k = len(order)
    hold = np.zeros(named.shape, dtype=bool)
    rows = np.arange(k)
    for m, o in enumerate(seen.opponents):
        if m in done:
            continue
        for p in o.draws:
            lab = order[:, p] - 52
            on = lab >= 0
            hold[rows[on], lab[on]] = named[rows[on], lab[on]] >= 0
    return hold


def _ahead_parts(ahead: Ahead, val: Any) -> dict[int, Floats]:
    """Per drawer ``m``, each candidate's log look-ahead factor gained ``(k,
    reps)`` from its discards' cards ``val[:, :, :3]``: the drawer's log factor
    with them known over that without (0 where it names none of its draws)."""
    drawer, stride, key, logs = ahead
    k, reps = val.shape[0], val.shape[1]
    out: dict[int, Floats] = {}
    for m in set(drawer[drawer >= 0].tolist()):
        now = key[:, m]
        new = np.broadcast_to(now[:, None], (k, reps)).copy()
        hit = np.zeros(k, dtype=bool)
        for x in range(3):
            on = drawer[:, x] == m
            if on.any():
                hit |= on
                rank = np.asarray(val[on, :, x], dtype=np.int64) >> 2
                new[on] += (rank - 13) * stride[on, x][:, None]
        gain = np.zeros((k, reps))
        gain[hit] = logs[new[hit]] - logs[now[hit]][:, None]
        out[m] = gain
    return out


def _ahead_logs(ahead: Ahead, val: Any) -> Floats:
    """The look-ahead's log factor of each candidate ``(k, reps)`` from its
    discards' cards ``val[:, :, :3]`` (:func:`_ahead_parts`, every drawer's;
    compiled where the kernels are in use, :func:`rollem.odds.compiled.ahead_gain`)."""
    if compiled.use():
        got = np.empty(val.shape[:2])
        compiled.ahead_gain(*ahead, val, False, got)
        return got
    out = np.zeros(val.shape[:2])
    for gain in _ahead_parts(ahead, val).values():
        out += gain
    return out


def _put_off(later: Floats, ahead: Ahead, val: Ints) -> None:
    """The look-ahead's log factors of the kept candidates (their discards'
    cards ``val[:, :3]``) put off to each drawer's read: taken from ``later``
    ``(k, m)``, so that read divides them back out (:data:`LOOK_AHEAD`)."""
    if compiled.use():
        compiled.ahead_gain(*ahead, np.ascontiguousarray(val[:, None, :], dtype=np.int64), True,
                            later)
        return
    for m, gain in _ahead_parts(ahead, val[:, None, :]).items():
        later[:, m] -= gain[:, 0]


def _worlds(seen: SeenPool, k: int, unseen: Ints, policy: FastPolicy, tremble: float,
            gen: np.random.Generator, candidates: int = CANDIDATES,
            shares: list[Floats] | None = None,
            guides: dict[tuple[int, tuple[int, ...]], tuple[Ints, Floats]] | None = None,
            futures: int = 1, moves: int = 0
            ) -> tuple[Ints, Floats, Ints | None, Ints, list[Floats]]:
    """``k`` worlds: every player's final five cards ``(k, players, 5)`` (the
    seat first, then live opponents), the weights, the wild card per world
    when not yet turned, each world's ancestor among the first ``k``
    (resampling copies worlds: their errors are counted by ancestor), and
    per opponent the weighted share of each origin of its up cards once it
    is read (for ``shares`` of a later run, :func:`_layout`). ``guides``: the
    proposals for opponents' hidden kept cards (:func:`_guide`) per opponent
    and origin, filled where missing (an earlier run's may be passed: any
    fixed proposal keeps the weights exact).

    The pool's order and the up cards' origins first (:func:`_layout`), then
    one opponent after the other (:func:`_read_opponent`); after each, the
    worlds are resampled where the weights have grown uneven
    (:data:`RESAMPLE`), each new world given the mean weight (so the total,
    an estimate of how likely what was seen is, is kept). With the moves and
    :data:`READ_MORE` above 1 where :func:`reads_more` (6 players from the
    third card up, 4 players in the third card up round), that many times
    ``k`` worlds are laid out and read, then resampled down to ``k`` (the
    ancestors then among those)."""
    final_k = k
    if moves and READ_MORE > 1 and reads_more(seen):  # (issue 33, branch s64-last; stop 64)
        k = round(k * read_more_times(seen))
    rows = np.arange(k)
    discards = set(seen.discards)
    groups = GROUPS if moves else 1
    if guides is None:
        guides = {}
    for j, opp in enumerate(seen.opponents):
        for combo in _origins(opp, discards):
            if (j, combo) in guides:  # (the proposal of an earlier run of the same view)
                continue
            kept_up = [c for c, r in zip(opp.ups, combo, strict=True) if r == 0]
            drawn_up = {r: c for c, r in zip(opp.ups, combo, strict=True) if r}
            guides[(j, combo)] = _guide(policy, kept_up, 3 - len(kept_up), unseen, unseen, opp,
                                        drawn_up, tremble, gen)
    owners = None
    if shares is not None and steers_owners(seen):  # (issue 33, branch s56-ryo)
        shared = _SHARED.get()
        key = ("owners", repr(seen), policy.name, tremble)
        owners = shared.get(key) if shared is not None else None
        if owners is None:
            owners = _owner_prefs(seen, policy, tremble, unseen, guides, gen)
            if shared is not None:
                shared[key] = owners
    order, named, origin, weight, later = _layout(seen, k, gen, shares, owners)
    trace = _TRACE.get()
    trace_steps: list[dict[str, Any]] = []
    expose = _expose_table(seen, policy, tremble)
    found: list[Floats] = []
    avail = np.zeros((k, 52), dtype=bool)
    avail[:, unseen] = True
    eve = rows.copy()
    finals: dict[int, Ints] = {}
    kept_all = np.zeros((k, len(seen.opponents), 3), dtype=np.int64)
    found_at: dict[int, Floats] = {}
    reading = read_order(seen)
    late = set(reading[len(reading) - LAST_READS:]) if LAST_CANDIDATES else set()
    partial = PARTIAL_STEPS.get(len(seen.opponents), 0) if moves and wild_view(seen) else 0
    relabels = (label_steps_for(seen)
                if moves and (PARTIAL_NUMPY or _labels_compiled(policy)) else 0)
    vals: dict[int, Ints] = {}  # (the read opponents' discards and draws, for the steps)
    part_tables = _partial_tables(seen, guides) if partial else None
    is_unseen = np.zeros(52, dtype=bool)
    is_unseen[unseen] = True
    looks = (bool(moves) and wild_view(seen) and len(seen.opponents) in LOOK_AHEAD
             and (not relabels or (PARTIAL_LIVE and _labels_compiled(policy))))
    ahead_base, ahead_logs = _ahead_table(seen, expose) if looks else ([], np.zeros(0))
    done: set[int] = set()  # (the opponents read so far)
    for j in reading:
        opp = seen.opponents[j]
        if weight.sum() <= 0:
            raise ValueError("no world fits what was seen")
        pick, weight = _resample(gen, weight, groups)
        if pick is not None:
            order, named, avail, eve = (_rows(order, pick), _rows(named, pick),
                                        _rows(avail, pick), _rows(eve, pick))
            origin, later = _rows(origin, pick), _rows(later, pick)
            finals = {i: _rows(h, pick) for i, h in finals.items()}
            kept_all = _rows(kept_all, pick)
            vals = {i: _rows(v, pick) for i, v in vals.items()}
        if (partial or relabels) and len(vals) >= PARTIAL_FROM:  # (branch s69-partial)
            if part_tables is not None:
                _hidden_steps(seen, kept_all, vals, avail, origin, policy, tremble, gen, expose,
                              part_tables, partial)
                for i in finals:
                    finals[i][:, :3] = kept_all[:, i]
            if relabels and vals:
                hold = None
                if looks:  # the labels whose card a look-ahead weighs stay as named
                    hold = _held(seen, order, named, done)
                _label_steps(seen, order, named, avail, is_unseen, vals, kept_all, policy,
                             tremble, gen, expose, relabels,
                             **({"hold": hold} if hold is not None else {}))
                for i in finals:
                    finals[i][:, 3:] = vals[i][:, 3:]
        ahead = None
        if looks:  # (branch s71-draw)
            ahead = _ahead_of(seen, j, order, named, origin, done, ahead_base, ahead_logs)
        factor, kept, val = _read_opponent(seen, j, order, named, origin, avail, policy,
                                           tremble, gen, guides,
                                           max(candidates, LAST_CANDIDATES) if j in late
                                           else candidates, expose,
                                           **({"ahead": ahead} if ahead is not None else {}))
        weight = weight * factor * np.exp(later[:, j])
        if ahead is not None:
            _put_off(later, ahead, val)
        done.add(j)
        if trace is not None:
            trace_steps.append(_step_record(opp.seat, weight, factor * np.exp(later[:, j]),
                                            origin[:, j]))
        by_origin = np.bincount(origin[:, j], weights=weight,
                                minlength=len(_origins(opp, discards)))
        found_at[j] = by_origin / max(by_origin.sum(), 1e-300)
        d = len(opp.draws)
        if not (compiled.use() and compiled.name_read(  # (one pass; branch s67-fast)
                named, avail, kept, val, order, np.asarray(opp.draws, dtype=np.int64), j)):
            lab = np.concatenate([np.broadcast_to(np.arange(3 * j, 3 * j + 3), (k, 3)),
                                  order[:, opp.draws] - 52 if d else np.zeros((k, 0), np.int64)],
                                 axis=1)
            for s in range(3 + d):
                is_lab = lab[:, s] >= 0
                named[rows[is_lab], lab[is_lab, s]] = val[is_lab, s]
            avail[rows[:, None], kept] = False
            avail[rows[:, None], np.clip(val, 0, 51)] = False  # seen cards are off already
        if opp.live:
            finals[j] = np.concatenate([kept, val[:, 3:]], axis=1)
        kept_all[:, j] = kept
        if partial or relabels:
            vals[j] = np.asarray(val, dtype=np.int64)
    if weight.sum() <= 0:
        raise ValueError("no world fits what was seen")
    found = [found_at[j] for j in range(len(seen.opponents))]
    assert (named >= 0).all()  # every label is some opponent's discard
    if compiled.use():  # (one compiled pass; branch s69-speed2)
        cards = compiled.cards_of(order, named)
    else:
        cards = np.where(order < 52, order, np.take_along_axis(named, np.maximum(order - 52, 0),
                                                               axis=1))
    if k > final_k:  # down to the batch's worlds, the total weight kept
        r = gen.random()
        fast_pick = compiled.systematic(weight, r, final_k) if compiled.use() else None
        if fast_pick is not None:  # (one compiled pass; branch s69-speed2)
            pick = fast_pick
        else:
            edges = np.cumsum(weight)
            edges /= edges[-1]
            pick = np.minimum(np.searchsorted(edges, (r + np.arange(final_k)) / final_k,
                                              side="right"), k - 1)
        weight = np.full(final_k, weight.sum() / k)
        kept_all, cards = _rows(kept_all, pick), _rows(cards, pick)
        order, eve = _rows(order, pick), _rows(eve, pick)
        origin = _rows(origin, pick)
        finals = {i: _rows(h, pick) for i, h in finals.items()}
        k = final_k
    snaps = None
    if moves and len(unseen) >= 2:
        pick, weight = _resample(gen, weight, groups, always=True)
        assert pick is not None
        kept_all, cards = _rows(kept_all, pick), _rows(cards, pick)
        order, eve = _rows(order, pick), _rows(eve, pick)
        snaps = _move(seen, kept_all, cards, order, unseen, policy, tremble, gen, moves,
                      futures, guided=(_rows(origin, pick), guides),
                      origins=ORIGIN_EVERY if wild_view(seen) else 0,
                      redeal=REDEAL_EVERY if wild_view(seen) else 0)
    rest = cards[:, seen.drawn + (seen.wild is not None):]
    mine = np.broadcast_to(np.asarray(seen.mine, dtype=np.int64), (k, len(seen.mine)))
    hands, turns = [], []
    live = sorted(finals)
    skip = seen.drawn + (seen.wild is not None)
    draws = [np.asarray(o.draws, dtype=np.int64) for o in seen.opponents]
    need = 5 - len(seen.mine) + sum(2 - len(draws[j]) for j in live)
    all_hands = None  # (every future's hands, made compiled: branch s69-speed2)
    if (snaps is not None and compiled.use() and len(seen.mine) <= 5
            and all(len(draws[j]) <= 2 for j in live) and need <= cards.shape[1] - skip):
        all_hands = np.empty((k, futures, 1 + len(live), 5), dtype=np.int64)
    for t in range(futures):
        if snaps is not None and all_hands is not None:  # the same cards, one pass a future
            kept_all, cards = snaps[min(t, len(snaps) - 1)]
            rest = compiled.shuffle_rows(cards[:, skip:], gen.random((k, cards.shape[1] - skip)))
            made = compiled.fill_hands(all_hands, t, np.asarray(seen.mine, dtype=np.int64),
                                       kept_all, cards, np.asarray(live, dtype=np.int64), draws,
                                       rest)
            assert made
            turns.append(rest[:, need])
            continue
        if snaps is not None:  # the world after more Metropolis steps
            kept_all, cards = snaps[min(t, len(snaps) - 1)]
            finals = {j: np.concatenate([kept_all[:, j], cards[:, seen.opponents[j].draws]],
                                        axis=1) for j in finals}
            rest = cards[:, seen.drawn + (seen.wild is not None):]
        if t or snaps is not None:  # the pool's cards not yet drawn in another order
            keys = gen.random(rest.shape)
            rest = compiled.shuffle_rows(rest, keys) if compiled.use() else \
                np.take_along_axis(rest, np.argsort(keys, axis=1), axis=1)
        at = 0
        out = []
        for hand in [mine, *[finals[j] for j in sorted(finals)]]:
            need = 5 - hand.shape[1]
            out.append(np.concatenate([hand, rest[:, at:at + need]], axis=1))
            at += need
        hands.append(np.stack(out, axis=1))
        turns.append(rest[:, at])
    turned = None if seen.wild is not None else np.stack(turns, axis=1)
    if trace is not None:
        by = np.asarray(np.bincount(eve, weights=weight), dtype=np.float64)
        trace.append({"worlds": k, "moves": moves, "steps": trace_steps,
                      "ancestors": int((by > 0).sum()), "ancestor_kish": _kish(by) * len(by)})
    return (all_hands if all_hands is not None else np.stack(hands, axis=1), weight, turned, eve,
            found)


PARTIAL_STEPS: dict[int, int] = {}
"""Per count of opponents, the Metropolis steps on the partial worlds
between reads after the wild card (:func:`wild_view` views, where
:func:`_worlds` makes moves): before each opponent's read after the first,
this many :func:`_partial_step` passes over every opponent read so far
(issue 33, branch s69-partial; empty: none, main's worlds bit for bit)."""


def _partial_tables(seen: SeenPool,
                    guides: dict[tuple[int, tuple[int, ...]], tuple[Ints, Floats]]
                    ) -> tuple[list[Ints], list[Ints], _SteerTables]:
    """:func:`_partial_step`'s tables: per opponent and origin (:func:`_origins`
    order) its count of hidden kept cards and its guide's id among
    :func:`_steer_tables`' (-1 where it has none: no hidden card, or three,
    drawn alike), and those tables."""
    discards = set(seen.discards)
    combos = [_origins(opp, discards) for opp in seen.opponents]
    tables = _steer_tables(combos, guides)
    ids = tables[0]
    hidden = [np.asarray([sum(r == 0 for r in c) for c in cs], dtype=np.int64) for cs in combos]
    hidden = [3 - h for h in hidden]
    gids = [np.asarray([ids.get((j, c), -1) for c in cs], dtype=np.int64)
            for j, cs in enumerate(combos)]
    return hidden, gids, tables


PARTIAL_LABELS: dict[int, int] = {5: 32, 4: 32}
"""Per count of opponents, the label steps (:func:`_label_steps`) on the
partial worlds before each opponent's read after the first, after the wild
card (issue 33, branch s69-partial). Measured: 8 and 16 a read cut a quarter
batch's variance × 1.4 and × 1.7 over the 8 wide hands, at × 2.3 CPU here in
numpy, × 1.4 compiled (``bench/ryo_partial_kernels.py``). In play since
branch s70-step, 32 Metropolis steps on the live labels (:data:`PARTIAL_LIVE`,
:data:`PARTIAL_METROPOLIS`) and compiled only (:data:`PARTIAL_NUMPY`): at 1 s
the interval × 0.87 at 6 players and × 0.84 on 5 players' wide hands (×
1.05-1.1 on two narrow ones, under ±1; docs/dev/odds-precision.md). Not at
4 players (3 opponents; branch s70-third): 32 a read × 1.006 ± 0.016 over 94
paired runs on its five wide hands, 8 and 16 × 0.97 ± 0.03."""
PARTIAL_THIRD: dict[int, int] = {}
"""Per count of opponents, the label steps (as :data:`PARTIAL_LABELS`) in the
third card up round before the wild card (every opponent showing three cards;
:func:`label_steps_for`). The partial worlds' target is the same law there
(the layout names only seen cards, a read's factor is its chance times a count
of unnamed cards and labels; the wild card not yet turned is one more unnamed
card; branch s70-third). Empty: none there, main's worlds bit for bit. 32 a
read measured in play at 1 s (hands 31001-31050 at 5 players, 31001-31050 at
6): the interval × 1.00-1.07 (the steps' cost, batches × 0.7-0.75, eats the
variance they cut), and every run already within ±1.1 at play's budget."""
PARTIAL_FROM = 1
"""The partial steps are made before a read once this many opponents are read."""


def label_steps_for(seen: SeenPool) -> int:
    """The label steps a read (:func:`_label_steps`) in batches of ``seen``
    that make moves: :data:`PARTIAL_LABELS` after the wild card
    (:func:`wild_view`), :data:`PARTIAL_THIRD` in the third card up round
    before it (every opponent showing three cards), by count of opponents;
    0 elsewhere (issue 33, branches s70-step, s70-third).

    >>> o = SeenOpponent(seat=1, ups=[1, 2, 3], draws=[0, 4], live=True)
    >>> p = SeenOpponent(seat=2, ups=[5, 6], draws=[1], live=True)
    >>> [label_steps_for(SeenPool([], [], [], opps, 12, wild)) for opps, wild in
    ...  (([o] * 5, 26), ([o] * 4, 26), ([o] * 2, 26), ([o] * 5, None), ([o] * 4 + [p], None))]
    [32, 32, 0, 0, 0]
    """
    m = len(seen.opponents)
    if wild_view(seen):
        return PARTIAL_LABELS.get(m, 0)
    if seen.wild is None and _all_up(seen):
        return PARTIAL_THIRD.get(m, 0)
    return 0


def _hidden_steps(seen: SeenPool, kept: Ints, vals: dict[int, Ints], avail: Bools,
                  origin: Ints, policy: FastPolicy, tremble: float, gen: np.random.Generator,
                  expose: _ExposeTable, tables: tuple[list[Ints], list[Ints], _SteerTables],
                  steps: int) -> None:
    """``steps`` passes of :func:`_partial_step` over every read opponent
    (``vals``' keys, in order); ``kept`` ``(k, m, 3)`` and ``avail`` changed
    in place."""
    for _ in range(steps):
        for i in vals:
            now = np.ascontiguousarray(kept[:, i])
            moved = _partial_step(seen, i, now, vals[i], avail, origin, policy, tremble, gen,
                                  expose, tables)
            if moved.any():
                kept[:, i] = now


PARTIAL_NUMPY = False
"""Whether the label steps (:data:`PARTIAL_LABELS`) are made where the
compiled kernels are not in use, by :func:`_label_gibbs` (numpy Gibbs steps
cost a batch about × 3 at 32 a read: there they are left out, the same target
without them; issue 33, branch s70-step)."""


def _labels_compiled(policy: FastPolicy) -> bool:
    """Whether :func:`_label_steps` makes its steps compiled: the kernels in
    use and the fast policy's keep chances."""
    return compiled.use() and type(policy).keep_scores is FastPolicy.keep_scores


def _label_steps(seen: SeenPool, order: Ints, named: Ints, avail: Bools, is_unseen: Bools,
                 vals: dict[int, Ints], kept: Ints, policy: FastPolicy, tremble: float,
                 gen: np.random.Generator, expose: _ExposeTable, steps: int,
                 hold: Bools | None = None) -> None:
    """``steps`` :func:`_label_gibbs` steps, one after the other; where the
    compiled kernels are in use (and the fast policy), all of them in one
    :func:`rollem.odds.compiled.label_steps` pass: the same law, its own
    random numbers (issue 33, branch s69-label). ``hold`` ``(k, 3 m)``:
    labels left as named (:data:`LOOK_AHEAD`; the live compiled steps only)."""
    if steps > 0 and _labels_compiled(policy):
        _label_steps_compiled(seen, order, named, avail, is_unseen, vals, kept, tremble, gen,
                              expose, steps, **({"hold": hold} if hold is not None else {}))
        return
    if hold is not None:
        raise ValueError("labels are held by the live compiled label steps only")
    for _ in range(steps):
        _label_gibbs(seen, order, named, avail, is_unseen, vals, kept, policy, tremble, gen,
                     expose)


PARTIAL_METROPOLIS = True
"""Whether the compiled label steps (:func:`_label_steps_compiled`) are
Metropolis steps (a card proposed alike among the candidates, two chances a
move) in place of Gibbs draws over every candidate: the same target, about
half a step's cost (the world's preamble is the rest; issue 33, branch s69-label;
on since s70-step). The numpy path makes Gibbs steps either way."""
PARTIAL_LIVE = True
"""Whether the compiled label steps step only each world's live labels (those a
read named with an unseen card, listed once a world;
:func:`rollem.odds.compiled.label_steps_live`): ``ceil(steps × live / 3 m)``
steps a world, each on a live label, as many moves as the scan over all ``3 m``
labels makes on average, for about 0.7 of its cost at 32 Metropolis steps
(a call 1.0-1.1 ms against 1.45-1.5 at 6 players, 1,000 worlds, and less
Python around it; issue 33, branch s70-step)."""
MISS_ROOM = 4096
"""How many exposes' keys not tabled yet one compiled label pass notes (the
worlds past them stay as they are that step, as the others do)."""


def _label_consts(expose: _ExposeTable, n: int) -> tuple[Ints, Ints, Ints, Ints, Ints, Ints]:
    """:func:`_label_steps_compiled`'s arrays fixed by the view, made once per
    exposes' table (one a view within :func:`shared_proposals`; its
    opponents' draws are the view's) and pool's length ``n``: per opponent its
    draws' count ``(m,)``; per place of the pool its drawer and the draw's
    rank ``(n,)`` each (-1 none); the exposes' key powers ``(m, 3 + most
    draws)``; the draws' places; the tables' offsets (issue 33, branch
    s71-cheap)."""
    got = expose.label_consts.get(n)
    if got is not None:
        return got
    opps = expose.opponents
    m = len(opps)
    maxd = max(len(o.draws) for o in opps)
    nd = np.asarray([len(o.draws) for o in opps], dtype=np.int64)
    drawer_of = np.full(n, -1, dtype=np.int64)
    rank_of = np.full(n, -1, dtype=np.int64)
    powers = np.zeros((m, 3 + maxd), dtype=np.int64)
    for j, o in enumerate(opps):
        for r, pl in enumerate(o.draws):
            drawer_of[pl] = j
            rank_of[pl] = r
        powers[j, :len(expose.powers[j])] = expose.powers[j]
    draw_at = np.asarray([pl for o in opps for pl in o.draws], dtype=np.int64)
    made = (nd, drawer_of, rank_of, powers, draw_at, expose.offset.astype(np.int64))
    expose.label_consts[n] = made
    return made


def _label_steps_compiled(seen: SeenPool, order: Ints, named: Ints, avail: Bools,
                          is_unseen: Bools, vals: dict[int, Ints], kept: Ints, tremble: float,
                          gen: np.random.Generator, expose: _ExposeTable, steps: int,
                          hold: Bools | None = None) -> None:
    """:func:`_label_steps` by :func:`rollem.odds.compiled.label_steps`: the
    labels (alike among the ``3 m``) and uniforms drawn here, ``(steps, k)``
    each; the exposes' keys the pass found not tabled filled after it (those
    worlds stayed that step). ``named``, ``avail`` and ``vals`` changed in
    place (issue 33, branch s69-label)."""
    m = len(seen.opponents)
    k, n = order.shape
    nd, drawer_of, rank_of, powers, draw_at, offsets = _label_consts(expose, n)
    maxd = powers.shape[1] - 3
    miss_x = np.zeros(MISS_ROOM, dtype=np.int64)
    miss_c = np.zeros((MISS_ROOM, 3 + maxd), dtype=np.int64)
    V = np.empty((k, m, 3 + maxd), dtype=np.int64)
    readmask = np.zeros(m, dtype=bool)
    for x in range(m):
        if x in vals:
            v = vals[x]
            V[:, x, :v.shape[1]] = v
            V[:, x, v.shape[1]:] = 0
            readmask[x] = True
        else:
            V[:, x] = 0
    if PARTIAL_LIVE:  # (branch s70-step)
        tries, start, total = compiled.label_tries(named, is_unseen, steps, 3 * m, hold)
        n_miss, _ = compiled.label_steps_live(
            named, np.ascontiguousarray(order, dtype=np.int64), avail, is_unseen, V, readmask,
            np.ascontiguousarray(kept, dtype=np.int64), nd, draw_at, drawer_of, rank_of,
            _keep_table_by_cards().reshape(-1), tremble, expose.flat, offsets, powers, miss_x,
            miss_c, tries, start, gen.random(2 * total), PARTIAL_METROPOLIS,
            bounded=expose.top <= 1.0, hold=hold)
    else:
        if hold is not None:
            raise ValueError("labels are held by the live compiled label steps only")
        lab = (gen.random((steps, k)) * 3 * m).astype(np.int64)
        u = gen.random((steps, k))
        u2 = gen.random((steps, k)) if PARTIAL_METROPOLIS else None
        n_miss, _ = compiled.label_steps(
            lab, u, named, np.ascontiguousarray(order, dtype=np.int64), avail, is_unseen, V,
            readmask, np.ascontiguousarray(kept, dtype=np.int64), nd, drawer_of, rank_of,
            _keep_table_by_cards().reshape(-1), tremble, expose.flat,
            expose.offset.astype(np.int64), powers, miss_x, miss_c, u2)
    for i in range(n_miss):  # (the keys not tabled: filled for the next steps)
        x = int(miss_x[i])
        expose.lik(x, miss_c[i:i + 1, :3 + int(nd[x])])
    for x in vals:
        vals[x][:] = V[:, x, :vals[x].shape[1]]


def _label_gibbs(seen: SeenPool, order: Ints, named: Ints, avail: Bools, is_unseen: Bools,
                 vals: dict[int, Ints], kept: Ints, policy: FastPolicy, tremble: float,
                 gen: np.random.Generator, expose: _ExposeTable,
                 probe: list[Any] | None = None) -> Bools:
    """A Gibbs step on the partial worlds (issue 33, branch s69-partial): in
    each world one label of the pool (alike among the ``3 m``), where a
    read named it with an unseen card (not the layout with a seen one), is
    named anew among that card and the cards still unnamed, in proportion to
    the policy chances of the read opponents that read it: its owner's (the
    card among its discards, and among its draws where it drew its own
    discard) and its drawer's (among its draws). ``named``, ``avail`` and
    ``vals`` (per read opponent its discards and draws ``(k, 3 + draws)``,
    as :func:`_read_opponent` returns them) are changed in place; ``kept``
    ``(k, m, 3)`` is read. Returns which worlds changed. ``probe``, where
    given, gets the worlds stepped, their labels, and per candidate its world
    (among those), card and chance appended (for tests).

    Why exact: the partial target (:func:`_partial_step`) reads a name
    through the read opponents' chances only; the counts of unnamed cards
    and labels stay, the layout's put-off factors read only the names the
    layout gave (seen cards), and an unread drawer's origins ask of a
    hidden draw only that it is none of its up cards (an unseen card never
    is)."""
    m = len(seen.opponents)
    k = len(order)
    lab = (gen.random(k) * 3 * m).astype(np.int64)
    rows = np.arange(k)
    card = named[rows, lab]
    ok = (card >= 0) & is_unseen[np.maximum(card, 0)]
    live = np.flatnonzero(ok)
    out = np.zeros(k, dtype=bool)
    if not len(live):
        return out
    lab_l, card_l = lab[live], card[live]
    cand = avail[live].copy()
    cand[np.arange(len(live)), card_l] = True
    w_i, c_i = np.nonzero(cand)
    mass = np.zeros((len(live), 52))
    lik = np.ones(len(w_i))
    target = lab_l[w_i]
    touched: list[tuple[int, Ints, Bools]] = []
    for x in vals:
        opp = seen.opponents[x]
        d = len(opp.draws)
        labs = np.concatenate([np.broadcast_to(np.arange(3 * x, 3 * x + 3), (k, 3)),
                               order[:, opp.draws] - 52 if d else np.zeros((k, 0), np.int64)],
                              axis=1)
        hit = labs[live] == lab_l[:, None]  # (live, 3 + d): the slots that read the label
        reads = hit.any(axis=1)
        if not reads.any():
            continue
        touched.append((x, live[reads], hit[reads]))
        sel = np.flatnonzero(reads[w_i])
        wl = w_i[sel]
        v = vals[x][live[wl]].copy()
        v[hit[wl]] = np.repeat(c_i[sel], hit[wl].sum(axis=1))
        kx = kept[live[wl], x]
        lik[sel] *= _keep_lik(policy, kx, v[:, :3], tremble) * expose.lik(
            x, np.concatenate([kx, v[:, 3:]], axis=1))
    del target
    if probe is not None:
        probe.append((live, lab_l, w_i, c_i, lik.copy()))
    mass[w_i, c_i] = lik
    cum = np.cumsum(mass, axis=1)
    u = gen.random(len(live)) * cum[:, -1]
    new = np.minimum((cum <= u[:, None]).sum(axis=1), 51)
    moved = new != card_l
    acc = live[moved]
    avail[acc, card_l[moved]] = True
    avail[acc, new[moved]] = False
    named[acc, lab_l[moved]] = new[moved]
    new_of = np.full(k, -1)
    new_of[live] = new
    for x, at, hit in touched:
        v = vals[x]
        sub = v[at]
        sub[hit] = np.repeat(new_of[at], hit.sum(axis=1))
        v[at] = sub
    out[acc] = True
    return out


def _partial_step(seen: SeenPool, i: int, kept: Ints, val: Ints, avail: Bools, origin: Ints,
                  policy: FastPolicy, tremble: float, gen: np.random.Generator,
                  expose: _ExposeTable,
                  tables: tuple[list[Ints], list[Ints], _SteerTables]) -> Bools:
    """One Metropolis step on the partial worlds for opponent ``i``, already
    read (issue 33, branch s69-partial): its hidden kept cards ``kept[:, 3 -
    f:]`` (``kept`` ``(k, 3)``, its up cards kept first; ``f`` hidden under
    the world's origin of its up cards) are proposed anew among themselves
    and the cards still unnamed in that world (``avail`` ``(k, 52)``); its
    discards and draws ``val`` ``(k, 3 + draws)`` stay. ``kept`` and
    ``avail`` are changed in place where accepted; returns which worlds moved.

    The partial worlds' target after a read (the weights :func:`_worlds`
    carries) is the layout's part, times each read opponent's policy chance
    (:func:`_keep_lik` times its exposes), times the ways to name what is
    left (:func:`_read_opponent`'s count: numbers of unnamed cards and labels
    only). Exchanging hidden kept cards with unnamed cards leaves every
    count, every name in the pool and every other opponent's chance as it
    was, and the layout's put-off factors (``later``) read none of them, so
    only this opponent's chance changes. With one or two hidden cards the new
    set is drawn from the opponent's guide for its origin (:func:`_guide`,
    as :class:`_Steer`), refused where it takes a named card: accepted with
    the ratio of chances times ``g(old) / g(new)``: an independence
    Metropolis-Hastings step. Worlds whose origin leaves none or three hidden
    cards (no guide; none of the latter after the wild card at 6 players)
    stay."""
    hidden_of, gids, (_, _, tab, cum, start, end, lo, hi, _, log_g) = tables
    k = len(kept)
    f = hidden_of[i][origin[:, i]]
    g = gids[i][origin[:, i]]
    new = kept.copy()
    ok = np.zeros(k, dtype=bool)
    log_ratio = np.zeros(k)
    r1, r2 = gen.random(k), gen.random(k)
    guided = np.flatnonzero(g >= 0)
    if len(guided):
        gg = g[guided]
        u = lo[gg] + r1[guided] * (hi[gg] - lo[gg])
        idx = np.clip(np.searchsorted(cum, u, side="right"), start[gg], end[gg] - 1)
        a, b = tab[idx, 0], tab[idx, 1]
        two = f[guided] == 2
        y = kept[guided, 2]
        x = np.where(two, kept[guided, 1], y)
        free = avail[guided]
        fits = (free[np.arange(len(guided)), a] | (a == x) | (a == y)) & \
            (free[np.arange(len(guided)), b] | (b == x) | (b == y))
        log_ratio[guided] = log_g[gg * 2704 + x * 52 + y] - log_g[gg * 2704 + a * 52 + b]
        new[guided[two], 1] = a[two]
        new[guided, 2] = b
        ok[guided] = fits
    at = np.flatnonzero(ok & (new != kept).any(axis=1))
    if not len(at):
        return np.zeros(k, dtype=bool)
    old_lik = _keep_lik(policy, kept[at], val[at, :3], tremble) * expose.lik(
        i, np.concatenate([kept[at], val[at, 3:]], axis=1))
    new_lik = _keep_lik(policy, new[at], val[at, :3], tremble) * expose.lik(
        i, np.concatenate([new[at], val[at, 3:]], axis=1))
    with np.errstate(divide="ignore"):
        log_ratio[at] += np.log(new_lik) - np.log(old_lik)
    accept = np.zeros(k, dtype=bool)
    accept[at] = r2[at] < np.exp(log_ratio[at])
    acc = np.flatnonzero(accept)
    avail[acc[:, None], kept[acc]] = True
    avail[acc[:, None], new[acc]] = False
    kept[acc] = new[acc]
    return accept


def _move(seen: SeenPool, kept: Ints, cards: Ints, order: Ints, unseen: Ints,
          policy: FastPolicy, tremble: float, gen: np.random.Generator, moves: int,
          times: int = 1,
          guided: tuple[Ints, dict[tuple[int, tuple[int, ...]], tuple[Ints, Floats]]] | None
          = None, origins: int = 0, redeal: int = 0,
          end: list[Any] | None = None, place_steps: bool | None = None
          ) -> list[tuple[Ints, Ints]]:
    """``moves`` Metropolis steps on each complete world (issue 33): ``kept``
    ``(k, m, 3)`` every opponent's kept cards (up cards kept first),
    ``cards`` ``(k, n)`` the pool in order; ``order`` (:func:`_layout`)
    says where each opponent's discards lie. Returns the ``(kept, cards)``
    of the last ``times`` steps. ``place_steps``: whether the place steps are
    made (``None``: where :func:`takes_places`). ``end``, where given, gets
    one tuple appended after the last step: every slot ``(k, 3 m + n)``
    (the kept cards, then the pool), where each opponent's six cards lie
    ``(k, m, 6)`` (slot columns), and per world and opponent the policy's
    chance of its keep and of its exposes ``(k, m)`` (both at ``tremble``;
    ``bench/bench_ryo_temper.py``'s tempered runs, branch s66-temper).

    Two kinds of step, in turn (:data:`PLACE_EVERY`; the second only with
    :data:`PLACE_FROM` opponents or more):

    - **cards**: two cards the seat has not seen exchange places wherever
      they are (an opponent's hidden kept card, a discard, a hidden draw,
      the stub), the first among those in the world's slots (dealt, or in
      the pool), the second among all other unseen cards (a symmetric
      proposal: the exchange keeps which slots hold unseen cards); who threw
      a pool card stays with its place, so the thrower's keep is weighed
      anew;
    - **places** (issue 33, fifth pass): two places in the pool exchange
      what lies there, the card and who threw it together: the first among
      the places already drawn, the second among all others, both among
      those whose card the seat has not seen there (not its own draws, the
      turned wild card, an up card an opponent drew). This moves the seat's
      own discards and who threw what a player drew, which the card steps
      never change (drawn once, at the layout, they were shared by every
      copy of a world: the spread left however many card steps were made).
      Only the players drawing either place are weighed anew (their
      exposes; every keep stays).

    Each step keeps everything the seat saw, and every complete world is
    equally likely before the policy is read, so it is accepted with the
    ratio of the policy's chances of every opponent's keep and exposes
    (each part, :func:`_keep_lik` and :func:`_expose_lik`, recomputed only
    for the opponents it reads) and leaves the posterior unchanged; copies
    of one world made by resampling drift apart."""
    k = len(cards)
    m = len(seen.opponents)
    n = cards.shape[1]
    base = 3 * m  # the pool's first slot
    width = base + n  # the slots: every opponent's kept cards, then the pool
    stub = width  # one more column stands for the stub, read by nobody
    wide = width + 1
    # issue 33 (branch s46-odds): every per-world table is kept flat and
    # indexed by ``row * columns + column``, one gather a read; per step the
    # work is a few whole-batch operations, the rest on the worlds that read
    # a moved slot or accept (the same chain, step by step, as before)
    state = np.zeros((k, wide), dtype=np.int64)
    state[:, :base] = kept.reshape(k, base)
    state[:, base:width] = cards
    flat_state = state.reshape(-1)
    row_w = np.arange(k) * wide
    # the flat address of each opponent's six cards (its kept three, then
    # its discards, which the place steps move)
    fast_tables = compiled.use()  # (the tables below compiled: the same integers; s68-fuse)
    if fast_tables:
        six = compiled.six_slots(order, m, base, wide)
    else:
        six = np.zeros((k, m, 6), dtype=np.int64)
        for j in range(m):
            six[:, j, :3] = row_w[:, None] + 3 * j + np.arange(3)
            six[:, j, 3:] = row_w[:, None] + base + np.argmax(
                order[:, :, None] == (52 + 3 * j + np.arange(3))[None, None, :], axis=1)
    flat_six = six.reshape(k * m, 6)
    draws = [base + np.asarray(o.draws, dtype=np.int64) for o in seen.opponents]
    # which opponent's keep reads each slot (-1: none; one at most: its kept
    # three, or who threw a pool card, -1 the seat) and which one's exposes
    # (its kept three and its draws: fixed), and where in its six a discard's
    # slot is; a step reads at most two of each, not a bit per opponent
    keeper = np.full((k, wide), -1, dtype=np.int64)
    keeper[:, base:width] = np.where(order >= 52, (order - 52) // 3, -1)
    show_reader = np.full(wide, -1, dtype=np.int64)
    for j in range(m):
        keeper[:, 3 * j:3 * j + 3] = j
        show_reader[3 * j:3 * j + 3] = j
        show_reader[draws[j]] = j
    flat_keeper = keeper.reshape(-1)
    in_six = np.zeros(k * wide, dtype=np.int64)
    in_six[six[:, :, 3:].reshape(-1)] = np.tile(np.arange(3, 6), k * m)

    # the slots each opponent's exposes read (its kept three, then its
    # draws): fixed; its exposes' chance tabled by their ranks (:class:`_ExposeTable`)
    show_cols = [np.concatenate([np.arange(3 * j, 3 * j + 3), draws[j]]) for j in range(m)]
    table = _expose_table(seen, policy, tremble)

    def keep_many(at: Ints, x: Ints | None = None, y: Ints | None = None) -> Floats:
        """The keep's chance of the opponents at ``at`` (``row * m + j``;
        cards ``x`` and ``y`` exchanged where given): one call for all."""
        h = flat_state[flat_six[at]]
        if x is not None and y is not None:
            xs, ys = x[:, None], y[:, None]
            h = np.where(h == xs, ys, np.where(h == ys, xs, h))
        return _keep_lik(policy, h[:, :3], h[:, 3:], tremble, six=h)

    lik_keep = keep_many(np.arange(k * m))
    lik_show = np.stack([table.lik(j, state[:, show_cols[j]]) for j in range(m)],
                        axis=1).reshape(-1)
    # each opponent's exposes' key in the table (:meth:`_ExposeTable.many`),
    # kept up to date: a step that moves a card of rank ``a`` out of a slot
    # an opponent's exposes read at place ``p``, and one of rank ``b`` in,
    # adds ``(b - a) * 13 ** p`` (a lookup instead of reading the slots again)
    slot_power = np.zeros((m, wide), dtype=np.int64)  # (the stub's column: 0)
    for j in range(m):
        slot_power[j, show_cols[j]] = table.powers[j]
    flat_power = slot_power.reshape(-1)
    show_key = np.stack([(state[:, show_cols[j]] >> 2) @ table.powers[j] + table.offset[j]
                         for j in range(m)], axis=1).reshape(-1)
    rows = np.arange(k)

    def pairs(j1: Ints, j2: Ints) -> tuple[Ints, Ints]:
        """The (world, opponent) pairs a step reads: opponent ``j1[i]`` and
        ``j2[i]`` in world ``i`` (-1: none; one pair where the two are one)."""
        one = j1 >= 0
        two = (j2 >= 0) & (j2 != j1)
        return (np.concatenate([rows[one], rows[two]]), np.concatenate([j1[one], j2[two]]))

    is_unseen = np.zeros(53, dtype=bool)
    is_unseen[unseen] = True
    # where each unseen card lies (the stub's column: in the stub)
    hidden = is_unseen[state]
    hidden[:, stub] = False
    if fast_tables:
        where = compiled.where_cards(state, hidden, stub)
    else:
        r, c = np.nonzero(hidden)
        where = np.full((k, 53), stub, dtype=np.int64)
        where[r, state[r, c]] = c
    flat_where = where.reshape(-1)
    row_53 = np.arange(k) * 53

    def listing(mask: Bools) -> tuple[Ints, Ints, Ints]:
        """Per world the slots where ``mask`` holds, first; how many; and
        each listed slot's index in the list (flat, ``wide`` a row)."""
        if fast_tables:
            return compiled.list_slots(mask)
        r, c = np.nonzero(mask)
        out = np.zeros((k, wide), dtype=np.int64)
        at = np.zeros((k, wide), dtype=np.int64)
        i = (np.cumsum(mask, axis=1) - 1)[r, c]
        out[r, i] = c
        at[r, c] = i
        return out.reshape(-1), mask.sum(axis=1), at.reshape(-1)

    def relist(mask: Bools, at: Ints, out: Ints, count: Ints, index: Ints | None = None
               ) -> None:
        """:func:`listing` again in worlds ``at`` only (``mask`` theirs,
        ``(len(at), wide)``), into its outputs in place."""
        r, c = np.nonzero(mask)
        i = (np.cumsum(mask, axis=1) - 1)[r, c]
        out.reshape(k, wide)[at[r], i] = c
        if index is not None:
            index.reshape(k, wide)[at[r], c] = i
        count[at] = mask.sum(axis=1)

    listed, size, index = listing(hidden)
    # the places whose card the seat has not seen there: not its own draws,
    # not the turned wild card, not an opponent's up card
    ups = np.zeros(53, dtype=bool)
    ups[[u for o in seen.opponents for u in o.ups]] = True
    fixed = [p for p, _ in seen.my_draws] + ([seen.drawn] if seen.wild is not None else [])
    free = np.zeros((k, wide), dtype=bool)
    free[:, base:width] = ~ups[cards]
    fixed_cols = np.asarray([base + p for p in fixed], dtype=np.int64)
    free[:, fixed_cols] = False
    drawn = np.zeros(wide, dtype=bool)
    drawn[base:base + seen.drawn] = True
    places, n_places, _ = listing(free)
    firsts, n_firsts, _ = listing(free & drawn)
    can_place = (n_firsts > 0) & (n_places > 1)
    last_place = row_w + np.maximum(n_places - 1, 0)
    u = len(unseen)
    every = PLACE_EVERY if (takes_places(seen) if place_steps is None else place_steps) else 0
    guide_every = GUIDED_EVERY if guided is not None and takes_places(seen) else 0
    if guide_every:
        assert guided is not None
        steer = _Steer(seen, guided[0], guided[1], k)
        guide_every = guide_every if steer.any else 0
    n_guided = 0
    n_origin = 0
    discards = set(seen.discards)
    combos = [{c: i for i, c in enumerate(_origins(o, discards))} for o in seen.opponents]
    keep_table = (_keep_table_by_cards().reshape(-1)
                  if type(policy).keep_scores is FastPolicy.keep_scores else None)
    fast_steps = compiled.use() and keep_table is not None  # (another policy: numpy)
    buffers: tuple[Any, ...] | None = None  # (compiled.move_step's, made at its first step)
    # the steps before the last ``times`` made in one compiled call where no
    # origin or re-deal step is among them (issue 33, branch s68-fuse: the
    # same draws and steps, without a Python call each); where one stops on
    # an expose not in the table, that step is made below from its draws
    chain = fast_steps and not origins and not redeal
    chained, given = 0, None
    out = []
    for step in range(moves):
        if step < chained:
            continue  # (made by the chain)
        if chain and given is None and step < moves - times:
            if buffers is None:
                buffers = compiled.move_buffers(k)
            chained, n_guided, given = _chain(gen, step, moves - times, every, guide_every,
                                              n_guided, steer if guide_every else None, size,
                                              can_place, flat_state, listed, firsts, n_firsts,
                                              places, n_places, unseen, flat_where, flat_keeper,
                                              show_reader, flat_six, lik_keep, lik_show,
                                              show_key, flat_power, table.flat, keep_table,
                                              tremble, in_six, is_unseen, index, m, wide, stub,
                                              buffers)
            if step < chained:
                continue
        lay = origins and step % origins == origins - 1
        if lay or (redeal and step % redeal == redeal - 1):
            # an origin or a re-deal step (issue 33, branch s51-ryo), besides
            # this step's own: one opponent's kept three and draws laid out
            # anew (and its hidden cards dealt anew)
            j = n_origin % m
            n_origin += 1
            six_cols = flat_six.reshape(k, m, 6) - row_w[:, None, None]
            moved = (_origin_step(j, gen, state, where, keeper, six_cols, show_cols,
                                  seen.opponents[j], discards, is_unseen, m, lik_keep,
                                  lik_show, show_key, table, policy, tremble) if lay else
                     _redeal_step(j, gen, REDEAL_CANDIDATES, state, where, keeper, six_cols,
                                  show_cols, seen.opponents[j], discards, is_unseen, m,
                                  lik_keep, lik_show, show_key, table, policy, tremble))
            if moved.any():
                # which slots hold unseen cards, and which places a place
                # step may move, as they are now (in the worlds it changed)
                at = np.flatnonzero(moved)
                hidden = is_unseen[state[at]]
                hidden[:, stub] = False
                relist(hidden, at, listed, size, index)
                free[at, base:width] = ~ups[state[at, base:width]]
                free[np.ix_(at, fixed_cols)] = False
                relist(free[at], at, places, n_places)
                relist(free[at] & drawn, at, firsts, n_firsts)
                can_place = (n_firsts > 0) & (n_places > 1)
                last_place = row_w + np.maximum(n_places - 1, 0)
                if guide_every:
                    at = np.flatnonzero(moved)
                    now = state[at][:, show_cols[j]]
                    came = [np.where(a < 3, 0, a - 2) for a in
                            (np.argmax(now == c, axis=1) for c in seen.opponents[j].ups)]
                    steer.set_origin(j, at, [combos[j][tuple(int(x) for x in t)]
                                             for t in zip(*came, strict=True)])
        place = every > 0 and step % every == every - 1
        if guide_every and not place and (step // max(every, 1)) % guide_every == 0:
            # a guided step (issue 33, branch s48-odds): one opponent's hidden
            # kept cards, all at once, from its guide
            j = n_guided % m
            n_guided += 1
            steer.step(j, gen, flat_state, flat_where, flat_keeper, show_reader, flat_six,
                       flat_power, row_w, row_53, wide, stub, m, lik_keep, lik_show, show_key,
                       table, show_cols, state, policy, tremble, given)
            given = None
            if step >= moves - times:  # the last
                out.append((state[:, :base].reshape(k, m, 3).copy(),
                            state[:, base:width].copy()))
            continue
        if fast_steps:
            # the same proposal and ratios, compiled (issue 33, branch s57-ryo);
            # the random numbers, logs and the acceptance as the numpy path
            if given is not None:  # (drawn by the chain, which stopped here)
                r1, r2, c2_at, r3 = given
                given = None
            else:
                r1 = gen.random(k)
                r2 = gen.random(k) if place else None
                c2_at = None if place else gen.integers(0, u - 1, k)
                # the acceptance's draws: the proposal draws none (branch s62-ryo)
                r3 = gen.random(k)
            assert keep_table is not None
            if buffers is None:
                buffers = compiled.move_buffers(k)
            ok_now = can_place if place else size > 0
            if compiled.move_step(place, r1, r2, c2_at, r3, ok_now, flat_state, listed, size,
                                  firsts, n_firsts, places, n_places, unseen, flat_where,
                                  flat_keeper, show_reader, flat_six, lik_keep, lik_show,
                                  show_key, flat_power, table.flat, keep_table, tremble,
                                  in_six, is_unseen, index, m, wide, buffers):
                if step >= moves - times:  # the last
                    out.append((state[:, :base].reshape(k, m, 3).copy(),
                                state[:, base:width].copy()))
                continue
            # an expose's chance not in the table: read, then as before
            proposal = buffers[:10]
            _, _, _, _, c1, c2, at4, new4, ratio4, _ = proposal
            miss_r, miss_c = np.nonzero(np.isnan(new4[:, 2:]))
            for jj in (np.unique(at4[miss_r, 2 + miss_c] % m) if len(miss_r)
                       else ()):  # (as the numpy path; none missed: no np.unique)
                pick = (at4[miss_r, 2 + miss_c] % m) == jj
                mr, mc = miss_r[pick], 2 + miss_c[pick]
                h = state[mr[:, None], show_cols[jj]]
                xa, ya = c1[mr, None], c2[mr, None]
                new4[mr, mc] = table.lik(int(jj), np.where(h == xa, ya, np.where(h == ya, xa, h)))
                ratio4[mr, mc] = new4[mr, mc] / lik_show[at4[mr, mc]]
            with np.errstate(divide="ignore"):
                logs = np.log(ratio4)
            log_ratio = (logs[:, 0] + logs[:, 1]) + (logs[:, 2] + logs[:, 3])
            accept = (r3 < np.exp(log_ratio)) & ok_now
            compiled.move_apply(place, accept, proposal, flat_state, flat_keeper, flat_six,
                                in_six, is_unseen, flat_where, listed, index, lik_keep,
                                lik_show, show_key, m, wide)
            if step >= moves - times:  # the last
                out.append((state[:, :base].reshape(k, m, 3).copy(),
                            state[:, base:width].copy()))
            continue
        if place:
            s1 = firsts[row_w + (gen.random(k) * n_firsts).astype(np.int64)]
            i2 = (gen.random(k) * np.maximum(n_places - 1, 1)).astype(np.int64)
            s2 = places[row_w + i2]
            s2 = np.where(s2 == s1, places[last_place], s2)
            a1, a2 = row_w + s1, row_w + s2
            c1, c2 = flat_state[a1], flat_state[a2]
            sr, sj = pairs(show_reader[s1], show_reader[s2])
            ok_rows = can_place
            kr = np.zeros(0, dtype=np.int64)
        else:
            s1 = listed[row_w + (gen.random(k) * size).astype(np.int64)]
            a1 = row_w + s1
            c1 = flat_state[a1]
            c2 = unseen[gen.integers(0, u - 1, k)]
            c2 = np.where(c2 == c1, unseen[u - 1], c2)  # any unseen card but c1, alike
            s2 = flat_where[row_53 + c2]
            a2 = row_w + s2
            kr, kj = pairs(flat_keeper[a1], flat_keeper[a2])
            sr, sj = pairs(show_reader[s1], show_reader[s2])
            ok_rows = size > 0  # (none unseen in the slots: nothing to move)
        # the log of the ratio of the policy's chances, every part the step reads
        log_ratio = np.zeros(k)
        if len(kr):
            k_at = kr * m + kj
            new_keep = keep_many(k_at, c1[kr], c2[kr])
            log_ratio += np.bincount(kr, weights=np.log(new_keep / lik_keep[k_at]),
                                     minlength=k)
        if len(sr):
            s_at = sr * m + sj
            gain = (c2[sr] >> 2) - (c1[sr] >> 2)
            new_key = (show_key[s_at] + (flat_power[sj * wide + s1[sr]]
                                         - flat_power[sj * wide + s2[sr]]) * gain)
            new_show = table.flat[new_key]
            miss = np.isnan(new_show)
            if miss.any():  # (none where every world fits its origins)
                for jj in np.unique(sj[miss]):
                    at = np.flatnonzero(miss & (sj == jj))
                    h = state[sr[at, None], show_cols[jj]]
                    xa, ya = c1[sr[at], None], c2[sr[at], None]
                    new_show[at] = table.lik(int(jj), np.where(h == xa, ya,
                                                               np.where(h == ya, xa, h)))
            log_ratio += np.bincount(sr, weights=np.log(new_show / lik_show[s_at]),
                                     minlength=k)
        accept = (gen.random(k) < np.exp(log_ratio)) & ok_rows
        ok = np.flatnonzero(accept)
        b1, b2 = a1[ok], a2[ok]
        d1, d2 = c1[ok], c2[ok]
        flat_state[b1] = d2
        flat_state[b2] = d1  # (the stub's column: nobody reads it)
        if place:
            # who threw each card moves with it; unseen cards change slots
            o1, o2 = flat_keeper[b1], flat_keeper[b2]
            flat_keeper[b1], flat_keeper[b2] = o2, o1
            p1, p2 = in_six[b1], in_six[b2]
            for dst, who, pos in ((b2, o1, p1), (b1, o2, p2)):
                mine = who >= 0
                flat_six[ok[mine] * m + who[mine], pos[mine]] = dst[mine]
            in_six[b1], in_six[b2] = p2, p1
            u1, u2 = is_unseen[d1], is_unseen[d2]
            t1, t2 = s1[ok], s2[ok]
            r53 = row_53[ok]
            flat_where[r53[u1] + d1[u1]] = t2[u1]
            flat_where[r53[u2] + d2[u2]] = t1[u2]
            # a seen card (one of the seat's discards) and an unseen one
            # exchanged: the unseen card's slot is listed instead
            for a, b, ua, ub in ((b1, b2, u1, u2), (b2, b1, u2, u1)):
                sw = ua & ~ub
                if sw.any():
                    rw = row_w[ok[sw]]
                    i = index[a[sw]]
                    listed[rw + i] = b[sw] - rw
                    index[b[sw]] = i
        else:
            r53 = row_53[ok]
            flat_where[r53 + d1] = s2[ok]
            flat_where[r53 + d2] = s1[ok]
        if len(kr):
            keep = accept[kr]
            lik_keep[k_at[keep]] = new_keep[keep]
        if len(sr):
            keep = accept[sr]
            lik_show[s_at[keep]] = new_show[keep]
            show_key[s_at[keep]] = new_key[keep]
        if step >= moves - times:  # the last
            out.append((state[:, :base].reshape(k, m, 3).copy(), state[:, base:width].copy()))
    if end is not None:  # (the tempered runs: where each world's discards lie, its chances)
        end.append((state[:, :width].copy(), flat_six.reshape(k, m, 6) - row_w[:, None, None],
                    lik_keep.reshape(k, m).copy(), lik_show.reshape(k, m).copy()))
    return out


def _chain(gen: np.random.Generator, step: int, end: int, every: int, guide_every: int,
           n_guided: int, steer: _Steer | None, size: Ints, can_place: Bools,
           flat_state: Ints, listed: Ints, firsts: Ints, n_firsts: Ints, places: Ints,
           n_places: Ints, unseen: Ints, flat_where: Ints, flat_keeper: Ints,
           show_reader: Ints, flat_six: Ints, lik_keep: Floats, lik_show: Floats,
           show_key: Ints, flat_power: Ints, show_flat: Floats, keep_table: Any,
           tremble: float, in_six: Ints, is_unseen: Bools, index: Ints, m: int, wide: int,
           stub: int, buffers: tuple[Any, ...]) -> tuple[int, int, tuple[Any, ...] | None]:
    """:func:`_move`'s steps ``step`` to ``end - 1`` in one compiled call
    (:func:`rollem.odds.compiled.move_chain`; issue 33, branch s68-fuse), its
    tables updated in place: ``(the step it stopped at, n_guided then, that
    step's draws)``; the draws ``None`` where it made every step, else the
    numbers that step drew, as :func:`_move` (a card or place step's ``(r1,
    r2, c2_at, r3)``) or :meth:`_Steer.step` (``(r, r_acc)``) would have
    drawn them, for the step to be made there."""
    k = len(size)
    move_fixed = (flat_state, listed, size, firsts, n_firsts, places, n_places, unseen,
                  flat_where, flat_keeper, show_reader, flat_six, lik_keep, lik_show, show_key,
                  flat_power, show_flat, keep_table, float(tremble), in_six, is_unseen, index,
                  int(m), int(wide), *buffers)
    if steer is not None:
        steer_fixed: tuple[Any, ...] = (
            steer.lo, steer.hi, steer.cum, steer.start, steer.end, steer.size, steer.tab,
            steer.log_g, flat_state, flat_where, flat_keeper, show_reader, flat_six, flat_power,
            lik_keep, lik_show, show_key, show_flat, keep_table, float(tremble), int(m),
            int(wide), int(stub))
        gid_t = np.ascontiguousarray(steer.gid.T)
    else:  # (no guided steps: arguments of the right types, never read)
        f0, i0 = np.zeros(0), np.zeros(0, dtype=np.int64)
        steer_fixed = (f0, f0, f0, i0, i0, i0, np.zeros((0, 2), dtype=np.int64), f0, i0, i0, i0,
                       i0, np.zeros((0, 6), dtype=np.int64), i0, f0, f0, i0, f0, keep_table, 0.0,
                       1, 1, 0)
        gid_t = np.zeros((1, 0), dtype=np.int64)
    draws = np.empty((3, k))
    draw_int = np.empty(k, dtype=np.int64)
    stop, n_guided = compiled.move_chain(gen, step, end, every, guide_every, n_guided,
                                         len(unseen), size > 0, can_place, move_fixed,
                                         steer_fixed, gid_t, draws, draw_int)
    if stop == end:
        return stop, n_guided, None
    place = every > 0 and stop % every == every - 1
    if guide_every and not place and (stop // max(every, 1)) % guide_every == 0:
        return stop, n_guided, (draws[0], draws[1])
    return stop, n_guided, (draws[0], draws[1] if place else None,
                            None if place else draw_int, draws[2])


def _patterns(d: int) -> Ints:
    """Every way to lay five cards out as a kept three and ``d`` draws, up to
    the order of the kept three: ``(patterns, 3 + d)``, each row the index
    (among the five, in the order they lie) of the card each slot takes."""
    out: list[list[int]] = []
    for kept in combinations(range(3 + d), 3):
        rest = [i for i in range(3 + d) if i not in kept]
        out.extend([*kept, *p] for p in permutations(rest))
    return np.asarray(out, dtype=np.int64)


def _fitting(now: Ints, pats: Ints, opp: SeenOpponent, discards: set[int], is_unseen: Bools,
             mine: Bools) -> Bools:
    """Which layouts (:func:`_patterns`) of an opponent's kept three and
    draws ``now`` ``(k, w)`` fit what the seat saw, per world ``(k,
    patterns)``: an up card exposed after draw ``e`` kept or drawn by draw
    ``e``, the first one kept, one the seat discarded drawn, a card the seat
    saw and the opponent does not show (``~is_unseen`` and not ``mine``)
    where it lies. The same layouts fit from each of them."""
    w = now.shape[1]
    n_p = len(pats)
    # which layouts fit depends only on where j's up cards and the cards it
    # may not move lie among its slots: one row of a small table per world
    fixed = ~(is_unseen[now] | mine[now])  # a card the seat saw and j does not show
    code = fixed @ (1 << np.arange(w))
    for card in opp.ups:
        code = code * w + np.argmax(now == card, axis=1)
    kinds, back = np.unique(code, return_inverse=True)
    fit_of = np.zeros((len(kinds), n_p), dtype=bool)
    for i, c in enumerate(kinds.tolist()):
        at_up = []
        for _ in opp.ups:
            at_up.append(c % w)
            c //= w
        at_up.reverse()
        still = [b for b in range(w) if (c >> b) & 1]
        for q, pat in enumerate(pats.tolist()):
            to = {src: dst for dst, src in enumerate(pat)}  # where each card goes
            ok = all(to[b] == b for b in still)
            for e, (src, card) in enumerate(zip(at_up, opp.ups, strict=True)):
                came = 0 if to[src] < 3 else to[src] - 2  # 0 kept, else the draw (1, 2)
                ok = ok and came <= e and (came > 0 or card not in discards)
            fit_of[i, q] = ok
    return np.asarray(fit_of[back.reshape(-1)], dtype=bool)


def _readers(j: int, keeper: Ints, cols: Ints) -> list[Ints]:
    """Whose keep reads opponent ``j``'s kept three and draws (``cols``) in each
    world: ``j`` itself, then the thrower of each of its draws (``keeper``'s
    column), each once and never ``j`` again (-1 where it is). ``(k,)`` each."""
    k, w = len(keeper), len(cols)
    throwers = [keeper[:, cols[3 + t]] for t in range(w - 3)]
    readers = [np.full(k, j)]
    for t, who in enumerate(throwers):  # each thrower of a draw once, and not j
        readers.append(np.where((who == j) | np.any([who == x for x in throwers[:t]], axis=0)
                                if t else who == j, -1, who))
    return readers


def _lay(j: int, acc: Ints, new_cols: Ints, state: Ints, where: Ints, keeper: Ints,
         six_cols: Ints, cols: Ints, is_unseen: Bools, m: int, lik_keep: Floats,
         lik_show: Floats, show_key: Ints, table: _ExposeTable, policy: FastPolicy,
         tremble: float) -> None:
    """Opponent ``j``'s kept three and draws laid as ``new_cols`` ``(len(acc), w)``
    in the worlds ``acc`` (an origin or re-deal step's accepted ones): the state,
    where its unseen cards lie, its exposes' key and chance, and the keep's
    chance of ``j`` and of each thrower of its draws, updated in place."""
    w = len(cols)
    state[acc[:, None], cols[None, :]] = new_cols
    rr, ci = np.nonzero(is_unseen[new_cols])
    where[acc[rr], new_cols[rr, ci]] = cols[ci]
    show_key[acc * m + j] = (new_cols >> 2) @ table.powers[j] + table.offset[j]
    lik_show[acc * m + j] = table.lik(j, new_cols)
    for who in [np.full(len(acc), j)] + [keeper[acc, cols[3 + t]] for t in range(w - 3)]:
        on = who >= 0
        ra, wa = acc[on], who[on]
        h = state[ra[:, None], six_cols[ra, wa]]
        lik_keep[ra * m + wa] = _keep_lik(policy, h[:, :3], h[:, 3:], tremble, six=h)


def _reader_lik(state: Ints, six_cols: Ints, cols: Ints, rows: Ints, who: Ints,
                new_cols: Ints, policy: FastPolicy, tremble: float) -> Floats:
    """The policy's chance of the keep of opponent ``who`` ``(n,)`` (one of
    :func:`_readers`) in worlds ``rows`` ``(n,)`` were the slots ``cols`` (one
    opponent's kept three and draws, ``(w,)``) to hold ``new_cols`` ``(n, w)``:
    its six cards read from ``state`` through ``six_cols``, those in ``cols``
    replaced. ``(n,)``."""
    sc = six_cols[rows, who]
    h = state[rows[:, None], sc]
    for s in range(len(cols)):
        h = np.where(sc == cols[s], new_cols[:, s:s + 1], h)
    return _keep_lik(policy, h[:, :3], h[:, 3:], tremble, six=h)


def _ups_first_moved(chosen: Ints, now: Ints, mine: Bools) -> tuple[Bools, Ints]:
    """An origin or re-deal step's chosen layouts ``chosen`` ``(k, w)`` put in
    the order the state keeps, in place: each kept three (the first three
    columns) with the opponent's up cards (``mine``, ``(53,)`` by card) first,
    each part in the order it lay. Returns which worlds' layouts differ from
    ``now`` ``(k, w)`` ``(k,)`` and their indices."""
    kept = chosen[:, :3]
    chosen[:, :3] = np.take_along_axis(kept, np.argsort(~mine[kept], axis=1, kind="stable"),
                                       axis=1)
    moved: Bools = np.asarray((chosen != now).any(axis=1), dtype=bool)
    return moved, np.flatnonzero(moved)


def _origin_step(j: int, gen: np.random.Generator, state: Ints, where: Ints, keeper: Ints,
                 six_cols: Ints, show_cols: list[Ints], opp: SeenOpponent, discards: set[int],
                 is_unseen: Bools, m: int, lik_keep: Floats, lik_show: Floats,
                 show_key: Ints, table: _ExposeTable, policy: FastPolicy,
                 tremble: float) -> Bools:
    """One *origin step* for opponent ``j`` in every world (issue 33, branch
    s51-ryo): the cards in its kept three and its draws are laid out anew
    among those slots, one way (:func:`_patterns`: which three it kept,
    which it drew when) drawn alike among those that fit what the seat saw
    (an up card exposed after draw ``e`` kept or drawn by draw ``e``, the
    first one kept, a card the seat discarded drawn, and no card the seat
    saw moved but ``j``'s up cards). This changes where ``j``'s up cards
    came from (their origins, :func:`_origins`), which no other step does:
    the card steps move only unseen cards and the place steps never move a
    place holding an up card, so each world kept the origins the layout
    drew, and late in the hand a batch's worlds came to share one set of
    them, different between batches. The layouts that fit are the same from
    each of them (so the proposal is alike both ways), and every complete
    world is equally likely before the policy, so the new layout is
    accepted with the ratio of the policy's chances of what it changes
    (``j``'s keep and exposes, and the keep of whoever threw each of its
    draws): a Metropolis step that leaves the posterior unchanged. ``j``'s
    kept three are then put up cards first (the order nothing but the
    guided steps reads).

    The tables are :func:`_move`'s (``state`` ``(k, wide)``, ``where``
    ``(k, 53)``, ``keeper`` ``(k, wide)``, ``six_cols`` ``(k, m, 6)`` the
    columns of each opponent's six cards; the chances and the expose keys
    per world and opponent), updated in place. Returns the worlds whose
    layout changed ``(k,)``."""
    k = len(state)
    cols = show_cols[j]  # its kept three, then its draws
    w = len(cols)
    if w == 3:
        return np.zeros(k, dtype=bool)
    pats = _patterns(w - 3)
    n_p = len(pats)
    now = state[:, cols]
    mine = np.zeros(53, dtype=bool)
    mine[opp.ups] = True
    fits = _fitting(now, pats, opp, discards, is_unseen, mine)
    # one of the layouts that fit, alike (the same ones from each of them)
    n_fit = fits.sum(axis=1)  # at least one: the world's own
    pick = np.minimum((np.cumsum(fits, axis=1) <= (gen.random(k) * n_fit)[:, None]).sum(axis=1),
                      n_p - 1)
    rows = np.arange(k)
    h_all = np.take_along_axis(now, pats[pick], axis=1)  # (k, w)
    log_ratio = np.log(table.lik(j, h_all) / lik_show[rows * m + j])
    readers = _readers(j, keeper, cols)
    for who in readers:
        on = np.flatnonzero(who >= 0)
        log_ratio[on] += np.log(_reader_lik(state, six_cols, cols, on, who[on], h_all[on],
                                            policy, tremble) / lik_keep[on * m + who[on]])
    pick = np.where(gen.random(k) < np.exp(log_ratio), pick, 0)  # pattern 0: as it lies
    chosen = np.take_along_axis(now, pats[pick], axis=1)
    moved, acc = _ups_first_moved(chosen, now, mine)
    if not len(acc):
        return moved
    _lay(j, acc, chosen[acc], state, where, keeper, six_cols, cols, is_unseen, m, lik_keep,
         lik_show, show_key, table, policy, tremble)
    return moved


def _redeal_step(j: int, gen: np.random.Generator, c: int, state: Ints, where: Ints,
                 keeper: Ints, six_cols: Ints, show_cols: list[Ints], opp: SeenOpponent,
                 discards: set[int], is_unseen: Bools, m: int, lik_keep: Floats,
                 lik_show: Floats, show_key: Ints, table: _ExposeTable, policy: FastPolicy,
                 tremble: float) -> Bools:
    """One *re-deal step* for opponent ``j`` in every world (issue 33, branch
    s51-ryo): its kept three and draws laid out anew as by an origin step
    (:func:`_origin_step`) *and* its hidden cards there (those the seat has
    not seen) dealt anew from themselves and the stub's cards, by iterated
    sampling importance resampling: ``c - 1`` new deals, each a layout drawn
    alike among those that fit (:func:`_fitting`) and the hidden slots
    filled with different cards of that set in a random order, the world's
    own deal added, and one of the ``c`` kept in proportion to the policy's
    chance of the world it makes (``j``'s keep and exposes, and the keep of
    whoever threw each of its draws; nothing else reads those slots or the
    stub). The deals it draws among are the same from each of them, alike,
    so the step leaves the posterior unchanged. It moves what the single
    exchanges and the origin steps hardly do: at 6 players after the wild
    card an opponent kept a card (an unseen eight) in most of a batch's
    worlds because, with its up cards' origins as they lay, no other card
    fitted its keep and exposes, and with other origins no card fitted
    until the hidden card changed too. Tables and return as
    :func:`_origin_step`'s."""
    k = len(state)
    cols = show_cols[j]
    w = len(cols)
    stub = state.shape[1] - 1
    if w == 3:
        return np.zeros(k, dtype=bool)
    rows = np.arange(k)
    pats = _patterns(w - 3)
    now = state[:, cols]
    mine = np.zeros(53, dtype=bool)
    mine[opp.ups] = True
    fits = _fitting(now, pats, opp, discards, is_unseen, mine)
    n_fit = fits.sum(axis=1)
    unseen = np.flatnonzero(is_unseen[:52])
    pool = np.concatenate([np.where(is_unseen[now], now, -1),
                           np.where(where[:, unseen] == stub, unseen[None, :], -1)], axis=1)
    valid = pool >= 0
    deals = np.repeat(now[:, None, :], c, axis=1)  # (k, c, w): the first the world's own
    for t in range(1, c):
        pick = np.minimum((np.cumsum(fits, axis=1) <= (gen.random(k) * n_fit)[:, None]
                           ).sum(axis=1), len(pats) - 1)
        lay = np.take_along_axis(now, pats[pick], axis=1)
        hidden = is_unseen[lay]
        keys = np.where(valid, gen.random(pool.shape), 2.0)
        dealt = np.take_along_axis(pool, np.argsort(keys, axis=1), axis=1)
        fill = np.take_along_axis(dealt, np.maximum(np.cumsum(hidden, axis=1) - 1, 0), axis=1)
        deals[:, t] = np.where(hidden, fill, lay)
    flat = deals.reshape(k * c, w)
    rep_rows = np.repeat(rows, c)
    log_p = np.log(table.lik(j, flat))
    readers = _readers(j, keeper, cols)
    for who in readers:
        wr = np.repeat(who, c)
        on = np.flatnonzero(wr >= 0)
        log_p[on] += np.log(_reader_lik(state, six_cols, cols, rep_rows[on], wr[on], flat[on],
                                        policy, tremble))
    grid = log_p.reshape(k, c)
    prob = np.exp(grid - grid.max(axis=1, keepdims=True))
    cum = np.cumsum(prob, axis=1)
    choice = np.minimum((cum < gen.random(k)[:, None] * cum[:, -1:]).sum(axis=1), c - 1)
    chosen = deals[rows, choice]
    moved, acc = _ups_first_moved(chosen, now, mine)
    if not len(acc):
        return moved
    old = now[acc]
    rr, ci = np.nonzero(is_unseen[old])
    where[acc[rr], old[rr, ci]] = stub  # the old hidden cards to the stub, then the new in
    _lay(j, acc, chosen[acc], state, where, keeper, six_cols, cols, is_unseen, m, lik_keep,
         lik_show, show_key, table, policy, tremble)
    return moved


_SteerTables = tuple[dict[tuple[int, tuple[int, ...]], int], bool, Ints, Floats, Ints, Ints,
                     Floats, Floats, Ints, Floats]
_STEER_LAST: list[tuple[list[Any], list[list[tuple[int, ...]]], _SteerTables] | None] = [None]
"""The last guides :class:`_Steer` laid out (held, so compared by identity) and their tables."""


def _steer_tables(combos: list[list[tuple[int, ...]]],
                  guides: dict[tuple[int, tuple[int, ...]], tuple[Ints, Floats]]
                  ) -> _SteerTables:
    """:class:`_Steer`'s tables of the guides' sets (those of one or two
    cards), per opponent ``j`` and origin ``combos[j]``: their ids, whether
    any, the sets (two columns, a single card twice), the running chances,
    each guide's first and end row, its running chance before and at its end,
    its cards a set, and ``log`` of the chance of every ordered pair
    (``52 * 52`` a guide)."""
    ids: dict[tuple[int, tuple[int, ...]], int] = {}
    tabs, cums, probs, sizes = [], [], [], []
    for j, options in enumerate(combos):
        for combo in options:
            table, prob = guides.get((j, combo), (np.zeros((0, 3), np.int64), np.zeros(0)))
            if not len(table) or table.shape[1] not in (1, 2):
                continue
            ids[(j, combo)] = len(ids)
            two = table if table.shape[1] == 2 else np.concatenate([table, table], axis=1)
            tabs.append(two)
            cums.append(prob)
            flat = np.zeros(52 * 52)
            flat[two[:, 0] * 52 + two[:, 1]] = prob
            flat[two[:, 1] * 52 + two[:, 0]] = prob
            probs.append(flat)
            sizes.append((len(table), table.shape[1]))
    empty = np.zeros(0, dtype=np.int64)
    if not ids:
        return ids, False, empty, np.zeros(0), empty, empty, np.zeros(0), np.zeros(0), empty, \
            np.zeros(0)
    tab = np.concatenate(tabs)  # (sets, 2): a single card twice
    cum = np.cumsum(np.concatenate(cums))
    ends = np.cumsum([n for n, _ in sizes])
    start = np.concatenate([[0], ends[:-1]]).astype(np.int64)
    end = ends.astype(np.int64)
    lo = np.concatenate([[0.0], cum])[start]
    hi = cum[end - 1]
    size = np.asarray([f for _, f in sizes], dtype=np.int64)
    log_g = np.log(np.maximum(np.concatenate(probs), 1e-300))
    return ids, True, tab, cum, start, end, lo, hi, size, log_g


class _Steer:
    """The guided steps of :func:`_move` (issue 33, branch s48-odds).

    A card step exchanges two unseen cards picked at random, and where it
    changes what an opponent's keep or exposes read, the policy's chance of
    the new world is mostly far below the old one's (at 6 players about 4%
    of the card steps that change a chance are accepted): an opponent's
    hidden kept cards, which most of the seat's odds hang on, hardly move
    after the worlds are resampled. A guided step proposes, for one opponent
    ``j`` in every world, a new set of its hidden kept cards (those not
    exposed under the world's origins of its up cards) from the guide of
    that opponent and origin (:func:`_guide`: every set of unseen cards,
    drawn whatever is free), and exchanges the cards of the old set it does
    not share with those of the new set (sorted, old to new) wherever they
    lie: another opponent's kept cards or discards, the pool, the stub. The
    exchange maps the new world back to the old one by the old set, so it
    is accepted with the ratio of the policy's chances (every part it reads)
    times ``g(old) / g(new)``, ``g`` the guide's chance of a set: a
    Metropolis-Hastings step that leaves the posterior unchanged."""

    def __init__(self, seen: SeenPool, origin: Ints,
                 guides: dict[tuple[int, tuple[int, ...]], tuple[Ints, Floats]], k: int
                 ) -> None:
        m = len(seen.opponents)
        discards = set(seen.discards)
        self.combos = [_origins(opp, discards) for opp in seen.opponents]
        got = [guides.get((j, combo)) for j in range(m) for combo in self.combos[j]]
        # the guides' tables: the same in every batch within
        # :func:`shared_proposals`, so laid out once (issue 33, branch s61-ryo2)
        last = _STEER_LAST[0]
        if (last is not None and len(last[0]) == len(got) and last[1] == self.combos
                and all(a is b for a, b in zip(last[0], got, strict=True))):
            tables = last[2]
        else:
            tables = _steer_tables(self.combos, guides)
            _STEER_LAST[0] = (got, self.combos, tables)
        self.ids, self.any, self.tab, self.cum, self.start, self.end, self.lo, self.hi, \
            self.size, self.log_g = tables
        # per opponent and origin its guide's id (-1: none), read at each world's
        # origins (one gather, not a mask an origin: branch s72-speed)
        by_origin = np.full((m, max((len(c) for c in self.combos), default=0)), -1,
                            dtype=np.int64)
        for (j, combo), g in self.ids.items():
            by_origin[j, self.combos[j].index(combo)] = g
        self.gid = np.ascontiguousarray(by_origin[np.arange(m)[None, :], origin[:, :m]])

    def set_origin(self, j: int, rows: Ints, combo: list[int]) -> None:
        """Opponent ``j``'s origins in worlds ``rows`` are now ``combo``
        (indices in :func:`_origins`; an origin step, :func:`_origin_step`):
        its guided steps draw from that origin's guide (none where it has none)."""
        self.gid[rows, j] = [self.ids.get((j, self.combos[j][c]), -1) for c in combo]

    def step(self, j: int, gen: np.random.Generator, flat_state: Ints, flat_where: Ints,
             flat_keeper: Ints, show_reader: Ints, flat_six: Ints, flat_power: Ints,
             row_w: Ints, row_53: Ints, wide: int, stub: int, m: int, lik_keep: Floats,
             lik_show: Floats, show_key: Ints, table: _ExposeTable, show_cols: list[Ints],
             state: Ints, policy: FastPolicy, tremble: float,
             given: tuple[Any, ...] | None = None) -> None:
        """One guided step for opponent ``j`` in every world (the tables are
        :func:`_move`'s, updated in place where accepted). ``given``: its
        ``(r, r_acc)`` where :func:`_chain` drew them (the compiled step)."""
        k = len(row_w)
        if compiled.use() and type(policy).keep_scores is FastPolicy.keep_scores:
            # the same step compiled (issue 33, branch s57-ryo): the random
            # numbers, logs and the acceptance as the numpy path below
            if given is not None:
                r, r_acc = given
            else:
                r = gen.random(k)
                r_acc = gen.random(k)  # (the proposal draws none: branch s62-ryo)
            done, proposal = compiled.steer_step(
                j, r, r_acc, np.ascontiguousarray(self.gid[:, j]), self.lo, self.hi,
                self.cum, self.start, self.end, self.size, self.tab, self.log_g, flat_state,
                flat_where, flat_keeper, show_reader, flat_six, flat_power, lik_keep,
                lik_show, show_key, table.flat, _keep_table_by_cards().reshape(-1), tremble,
                m, wide, stub)
            if done:  # proposed, accepted and made in one compiled pass
                return
            # an expose's chance not in the table: read, then as before
            xa, _, base, live, at8, new8, ratio8, _ = proposal
            miss_r, miss_c = np.nonzero(np.isnan(new8[:, 4:]))
            for jj in (np.unique(at8[miss_r, 4 + miss_c] % m) if len(miss_r)
                       else ()):  # (as the numpy path; none missed: no np.unique)
                pick = (at8[miss_r, 4 + miss_c] % m) == jj
                mr, mc = miss_r[pick], 4 + miss_c[pick]
                h = state[mr[:, None], show_cols[jj]]
                p1, q1, p2, q2 = (xa[mr, c, None] for c in range(4))
                new8[mr, mc] = table.lik(int(jj), np.where(h == p1, q1, np.where(
                    h == q1, p1, np.where(h == p2, q2, np.where(h == q2, p2, h)))))
                ratio8[mr, mc] = new8[mr, mc] / lik_show[at8[mr, mc]]
            with np.errstate(divide="ignore"):
                logs = np.log(ratio8)
            log_ratio = base + (((logs[:, 0] + logs[:, 1]) + logs[:, 2]) + logs[:, 3])
            log_ratio += ((logs[:, 4] + logs[:, 5]) + logs[:, 6]) + logs[:, 7]
            accept = (r_acc < np.exp(log_ratio)) & live
            compiled.steer_apply(accept, proposal, flat_state, flat_where, lik_keep, lik_show,
                                 show_key, wide, stub)
            return
        rows = np.arange(k)
        g = self.gid[:, j]
        ok = g >= 0
        gs = np.maximum(g, 0)
        u = self.lo[gs] + gen.random(k) * (self.hi[gs] - self.lo[gs])
        idx = np.clip(np.searchsorted(self.cum, u, side="right"), self.start[gs],
                      self.end[gs] - 1)
        two = self.size[gs] == 2
        new = self.tab[idx]  # (k, 2)
        a, b = np.minimum(new[:, 0], new[:, 1]), np.maximum(new[:, 0], new[:, 1])
        y = flat_state[row_w + 3 * j + 2]
        x = np.where(two, flat_state[row_w + 3 * j + 1], y)
        x, y = np.minimum(x, y), np.maximum(x, y)
        dummy = 52  # a card that lies nowhere (its place: the stub's column)
        # the old cards not in the new set, exchanged with the new ones not in
        # the old, in order: (x1 <-> a1), (x2 <-> a2); ``dummy`` for none
        x1, a1, x2, a2 = x.copy(), a.copy(), y.copy(), b.copy()
        swaps: tuple[tuple[Bools, tuple[Any, Any, Any, Any]], ...] = (
            (a == x, (dummy, dummy, y, b)), (a == y, (x, b, dummy, dummy)),
            (b == x, (dummy, dummy, y, a)), (b == y, (x, a, dummy, dummy)))
        for cond, v in swaps:
            c = cond & two
            for arr, val in zip((x1, a1, x2, a2), v, strict=True):
                arr[c] = val if isinstance(val, int) else val[c]
        same = (a == x) & (b == y)  # the same set: nothing moves
        one = ~two  # a single hidden card: (y <-> a)
        x1[one], a1[one], x2[one], a2[one] = y[one], a[one], dummy, dummy
        same |= one & (a == y)
        for arr in (x1, a1, x2, a2):
            arr[same] = dummy
        s_x1, s_a1 = flat_where[row_53 + x1], flat_where[row_53 + a1]
        s_x2, s_a2 = flat_where[row_53 + x2], flat_where[row_53 + a2]
        slots = np.stack([s_x1, s_a1, s_x2, s_a2], axis=1)
        keepers = flat_keeper[row_w[:, None] + slots]
        readers = show_reader[slots]
        hit_keep = np.zeros((k, m + 1), dtype=bool)
        hit_keep[rows[:, None], keepers] = True  # (-1: the last column, nobody)
        hit_show = np.zeros((k, m + 1), dtype=bool)
        hit_show[rows[:, None], readers] = True
        hit_keep[~ok | same] = False
        hit_show[~ok | same] = False
        kr, kj = np.nonzero(hit_keep[:, :m])
        sr, sj = np.nonzero(hit_show[:, :m])
        log_ratio = np.where(ok & ~same, self.log_g[gs * 2704 + x * 52 + y]
                             - self.log_g[gs * 2704 + a * 52 + b], 0.0)

        def mapped(h: Ints, r: Ints) -> Ints:
            p1, q1, p2, q2 = x1[r, None], a1[r, None], x2[r, None], a2[r, None]
            return np.where(h == p1, q1, np.where(h == q1, p1, np.where(
                h == p2, q2, np.where(h == q2, p2, h))))

        if len(kr):
            k_at = kr * m + kj
            h = mapped(flat_state[flat_six[k_at]], kr)
            new_keep = _keep_lik(policy, h[:, :3], h[:, 3:], tremble, six=h)
            log_ratio += np.bincount(kr, weights=np.log(new_keep / lik_keep[k_at]),
                                     minlength=k)
        if len(sr):
            s_at = sr * m + sj
            base_p = sj * wide
            new_key = show_key[s_at].copy()
            for p, q, sp, sq in ((x1, a1, s_x1, s_a1), (x2, a2, s_x2, s_a2)):
                gain = (q[sr] >> 2) - (p[sr] >> 2)
                new_key += (flat_power[base_p + sp[sr]] - flat_power[base_p + sq[sr]]) * gain
            new_show = table.flat[new_key]
            miss = np.isnan(new_show)
            if miss.any():  # (none where every world fits its origins)
                for jj in np.unique(sj[miss]):
                    at = np.flatnonzero(miss & (sj == jj))
                    hh = mapped(state[sr[at, None], show_cols[jj]], sr[at])
                    new_show[at] = table.lik(int(jj), hh)
            log_ratio += np.bincount(sr, weights=np.log(new_show / lik_show[s_at]),
                                     minlength=k)
        accept = (gen.random(k) < np.exp(log_ratio)) & ok & ~same
        acc = np.flatnonzero(accept)
        rw, r53 = row_w[acc], row_53[acc]
        for p, q, sp, sq in ((x1, a1, s_x1, s_a1), (x2, a2, s_x2, s_a2)):
            flat_state[rw + sp[acc]] = q[acc]
            flat_state[rw + sq[acc]] = p[acc]  # (the stub's column: nobody reads it)
        for p, q, sp, sq in ((x1, a1, s_x1, s_a1), (x2, a2, s_x2, s_a2)):
            flat_where[r53 + q[acc]] = sp[acc]
            flat_where[r53 + p[acc]] = sq[acc]
        flat_where[row_53 + dummy] = stub
        if len(kr):
            keep = accept[kr]
            lik_keep[k_at[keep]] = new_keep[keep]
        if len(sr):
            keep = accept[sr]
            lik_show[s_at[keep]] = new_show[keep]
            show_key[s_at[keep]] = new_key[keep]


def group_of(k: int, groups: int) -> Ints:
    """The group of each of ``k`` worlds in ``groups`` groups of (nearly)
    equal size, in blocks: ``(k,)``."""
    return np.arange(k) * groups // k


_A = TypeVar("_A", bound="np.ndarray[Any, Any]")


def _rows(x: _A, pick: Ints) -> _A:
    """The rows ``pick`` of ``x`` (``x[pick]``, a new C-ordered array): by
    ``np.take`` along the first axis, the same values in about a third of
    fancy indexing's time on a batch's tables (issue 33, branch s69-speed2)."""
    return cast(_A, np.take(x, pick, axis=0))


def _resample(gen: np.random.Generator, weight: Floats, groups: int = 1,
              always: bool = False) -> tuple[Ints | None, Floats]:
    """Resample the worlds where their weights have grown uneven (fewer than
    :data:`RESAMPLE` of them effective), or ``always``: the indices drawn
    (``None``: none) and the new weights. In ``groups`` groups
    (:func:`group_of`), each on its own: a world's copies stay in its group
    and take the group's mean weight, so the groups stay independent (their
    spread is an honest error, issue 33); one group is the whole batch."""
    k = len(weight)
    if groups <= 1:
        if not always and weight.sum() ** 2 >= RESAMPLE * k * (weight ** 2).sum():
            return None, weight
        return _systematic(gen, weight), np.full(k, weight.sum() / k)
    pick = np.arange(k)
    new = weight.copy()
    edges = np.searchsorted(group_of(k, groups), np.arange(groups + 1))
    done = False
    for a, b in pairwise(edges):
        w = weight[a:b]
        total = w.sum()
        if total <= 0 or (not always and total ** 2 >= RESAMPLE * (b - a) * (w ** 2).sum()):
            continue
        pick[a:b] = a + _systematic(gen, w)
        new[a:b] = total / (b - a)
        done = True
    return (pick if done else None), new


def _systematic(gen: np.random.Generator, weight: Floats) -> Ints:
    """Systematic resampling: ``len(weight)`` indices, each drawn in
    proportion to its weight with the least spread."""
    k = len(weight)
    r = gen.random()
    if compiled.use():  # (one compiled pass; branch s69-speed2)
        pick = compiled.systematic(weight, r, k)
        if pick is not None:
            return pick
    edges = np.cumsum(weight)
    edges /= edges[-1]
    u = (r + np.arange(k)) / k
    return np.minimum(np.searchsorted(edges, u, side="right"), k - 1)


def _pick_each(gen: np.random.Generator, avail: Bools, reps: int, m: int,
               exclude: Ints | None = None) -> Ints:
    """``reps`` draws per row of ``avail`` ``(k, 52)`` (rows may hold
    different numbers of cards) of ``m`` distinct cards among those
    available, uniformly, in random order: ``(k * reps, m)``, the draws of
    row ``i`` at ``i * reps`` to ``i * reps + reps - 1``. ``exclude``
    ``(k * reps, e)``: per draw, distinct available cards it may not take.

    One card after the other, each uniformly among the row's available
    cards (listed once per row, not per draw), drawn again where it is one
    already taken or excluded: a uniform draw among the others (issue 33:
    about twice as fast as shuffling a copy of the row per draw)."""
    k = len(avail)
    e = 0 if exclude is None else exclude.shape[1]
    if m == 0:
        return np.zeros((k * reps, 0), dtype=np.int64)
    size = avail.sum(axis=1)
    if (size - e < m).any():
        raise ValueError(f"{m} unknown cards are needed but fewer are left")
    if compiled.use():  # the listing and the draws in one pass (issue 33, branch s61-ryo2)
        return compiled.pick_avail_rows(gen, avail, reps, m, exclude)
    # issue 33 (branch s56-fast): the same draws from the same stream, with
    # fewer passes (the listing from one search, each card's bit made once)
    width = avail.shape[1]
    flat = np.flatnonzero(avail)  # row by row, the available cards first
    row = flat // width
    first = np.zeros(k * width, dtype=np.int64)
    first[row * width + np.arange(len(flat)) - np.repeat(np.cumsum(size) - size, size)] = (
        flat - row * width)
    if compiled.use():  # the same draws, compiled (issue 33, branch s57-ryo)
        return compiled.pick_each_rows(gen, first, size, width, reps, m, exclude)
    n = k * reps
    start = np.repeat(np.arange(k) * width, reps)  # each draw's row in ``first``
    size_r = np.repeat(size.astype(np.float64), reps)
    out = np.empty((n, m), dtype=np.int64)
    # per draw, the cards it has taken (or may not take) as bits of one integer
    taken = np.zeros(n, dtype=np.int64)
    if exclude is not None:
        for x in range(e):
            taken |= np.left_shift(1, exclude[:, x])
    for i in range(m):
        u = gen.random(n)
        u *= size_r
        at = u.astype(np.int64)
        at += start
        card = first.take(at)
        bit = np.left_shift(1, card)
        if i or e:  # (the first card of a draw with nothing excluded is never taken)
            todo = np.flatnonzero(taken & bit)
            while len(todo):  # taken already: drawn again (uniform among the others)
                again = first.take(start[todo] + (gen.random(len(todo)) * size_r[todo]
                                                  ).astype(np.int64))
                card[todo] = again
                bit[todo] = now = np.left_shift(1, again)
                todo = todo[(taken[todo] & now) != 0]
        out[:, i] = card
        taken |= bit
    return out


def _opponent_lik(policy: FastPolicy, opp: SeenOpponent, kept: Ints, thrown: Ints,
                  got: list[Ints], tremble: float) -> Floats:
    """The policy's chance, per row, that an opponent dealt ``kept`` ``(N, 3)``
    (its up cards kept first) and ``thrown`` ``(N, 3)`` keeps ``kept`` and,
    drawing ``got`` (per draw ``(N,)``), exposes its up cards in the order
    seen: :func:`_keep_lik` times :func:`_expose_lik`."""
    return _expose_lik(policy, opp, kept, got, tremble,
                       start=_keep_lik(policy, kept, thrown, tremble))


def _keep_lik(policy: FastPolicy, kept: Ints, thrown: Ints, tremble: float,
              six: Ints | None = None) -> Floats:
    """The policy's chance, per row, that a player dealt ``kept`` ``(N, 3)``
    and ``thrown`` ``(N, 3)`` keeps ``kept`` (R-RYO-2; ties alike, any three
    with chance ``tremble``). ``six``: the two side by side ``(N, 6)``, where
    the caller has them."""
    if type(policy).keep_scores is FastPolicy.keep_scores:
        # the default policy's scores from a table by cards, read keep by keep
        # (issue 33, branch s56-fast: bit for bit the same, about half the time)
        return keep_chance(kept, thrown, tremble)
    if six is None:
        six = np.concatenate([kept, thrown], axis=1)
    scores = policy.keep_scores(six)  # another policy's as it gives them
    best = scores.max(axis=1)
    return np.asarray((1 - tremble) * (scores[:, 0] == best)
                      / (scores == best[:, None]).sum(axis=1) + tremble / 20)


def _expose_lik(policy: FastPolicy, opp: SeenOpponent, kept: Ints, got: list[Ints],
                tremble: float, start: Floats | None = None) -> Floats:
    """The policy's chance, per row, that an opponent keeping ``kept``
    ``(N, 3)`` (its up cards kept first) and drawing ``got`` (per draw
    ``(N,)``) exposes its up cards in the order seen (R-RYO-3, R-RYO-5);
    times ``start`` ``(N,)`` where given."""
    n = len(kept)
    lik = np.ones(n) if start is None else start.copy()
    down = kept
    up = np.zeros((n, 0), dtype=np.int64)
    for e, card in enumerate(opp.ups):
        if e >= 1:
            down = np.concatenate([down, got[e - 1][:, None]], axis=1)
        shown = np.argmax(down == card, axis=1)
        lik *= _lik_at(policy, up, down, shown, tremble)
        up = np.concatenate([up, np.full((n, 1), card, dtype=np.int64)], axis=1)
        down = down[np.arange(3)[None, :] != shown[:, None]].reshape(n, 2)
    return lik


class _ExposeTable:
    """Every opponent's chance of its exposes (:func:`_expose_lik`), tabled by
    the ranks of the cards its exposes read, filled as they are asked for
    (issue 33: the Metropolis steps ask the same few thousand hands over and
    over). The expose rule reads ranks only (:meth:`FastPolicy.expose_scores`),
    and which of two cards of one rank is shown changes nothing it reads
    after, so the chance of a hand is that of its ranks: per opponent ``j``
    one slot per rank pattern of its kept three and its draws
    (``13 ** (3 + draws)``, at most 371,293 with two draws)."""

    def __init__(self, seen: SeenPool, policy: FastPolicy, tremble: float) -> None:
        self.opponents = [SeenOpponent(seat=o.seat, ups=[(u >> 2) * 4 for u in o.ups],
                                       draws=o.draws, live=o.live) for o in seen.opponents]
        self.policy = policy
        self.tremble = tremble
        self.powers = [13 ** np.arange(3 + len(o.draws), dtype=np.int64)
                       for o in seen.opponents]
        sizes = [13 ** (3 + len(o.draws)) for o in seen.opponents]
        self.offset = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
        self.flat = np.full(sum(sizes), np.nan)  # every table laid end to end
        self.top = 0.0  # the highest chance filled (at most 1: branch s71-cheap)
        # the label steps' arrays fixed by the view, by the pool's length (_label_consts)
        self.label_consts: dict[int, tuple[Ints, Ints, Ints, Ints, Ints, Ints]] = {}
        self.tables = [self.flat[a:a + n] for a, n in zip(self.offset, sizes, strict=True)]
        self.flat_powers = np.stack([np.resize(p, 5) for p in self.powers])
        # (:func:`_ahead_table`, by power and LOOK_KEEP)
        self.ahead: dict[tuple[float, bool], tuple[list[Ints], Floats]] = {}
        # every rank pattern a world may hold, filled at once: per origin of
        # the up cards (:func:`_origins`) the up cards' slots are fixed and
        # any rank may lie in the others (at most 13 ** 3 patterns each)
        discards = set(seen.discards)
        for j, o in enumerate(seen.opponents):
            pats = []
            for combo in _origins(o, discards):
                kept_up = [u >> 2 for u, r in zip(o.ups, combo, strict=True) if r == 0]
                drawn_up = {r: u >> 2 for u, r in zip(o.ups, combo, strict=True) if r}
                slots: list[list[int]] = [[r] for r in kept_up]
                slots += [list(range(13))] * (3 - len(kept_up))
                slots += [[drawn_up[r]] if r in drawn_up else list(range(13))
                          for r in range(1, len(o.draws) + 1)]
                pats.append(np.asarray(list(product(*slots)), dtype=np.int64).reshape(
                    -1, len(slots)))
            if pats:
                # the distinct keys, in order, by a mask of the table (issue 33,
                # branch s56-fast: the keys np.unique gave, a tenth of its time)
                seen_key = np.zeros(len(self.tables[j]), dtype=bool)
                seen_key[np.concatenate(pats) @ self.powers[j]] = True
                self._fill(j, np.flatnonzero(seen_key))

    def _fill(self, j: int, keys: Ints) -> None:
        ranks = (keys[:, None] // self.powers[j]) % 13
        c = ranks * 4
        got = _expose_lik(self.policy, self.opponents[j], c[:, :3],
                          [c[:, 3 + r] for r in range(c.shape[1] - 3)], self.tremble)
        self.tables[j][keys] = got
        if len(got):
            self.top = max(self.top, float(got.max()))

    def many(self, j: Ints, cards: Ints) -> Floats:
        """:meth:`lik` of opponent ``j[i]`` for row ``i`` of ``cards``
        ``(N, w)``, every ``j[i]`` with ``w - 3`` draws."""
        if not len(j):
            return np.zeros(0)
        w = cards.shape[1]
        key = ((cards >> 2) * self.flat_powers[j, :w]).sum(axis=1) + self.offset[j]
        out = self.flat[key]
        if np.isnan(out).any():  # (none where every world fits its origins)
            for jj in np.unique(j):
                at = j == jj
                out[at] = self.lik(int(jj), cards[at])
        return np.asarray(out, dtype=np.float64)

    def lik(self, j: int, cards: Ints) -> Floats:
        """:func:`_expose_lik` of opponent ``j`` per row of ``cards``
        ``(N, 3 + draws)``: its kept three (up cards kept first), then the
        card of each of its draws."""
        key = (cards >> 2) @ self.powers[j]
        table = self.tables[j]
        out = table[key]
        miss = np.isnan(out)
        if miss.any():  # (none where every world fits its origins)
            # the whole block of each key missed (the ranks of its first two
            # cards any): a Metropolis chain misses keys next to each other
            # batch after batch, and a call costs the same for one key or
            # 169 (issue 33, branch s61-ryo2; each key's chance is its own row's)
            block = np.unique(key[miss] // EXPOSE_BLOCK)
            self._fill(j, (block[:, None] * EXPOSE_BLOCK
                           + np.arange(EXPOSE_BLOCK)[None, :]).reshape(-1))
            out = table[key]
        return np.asarray(out, dtype=np.float64)


EXPOSE_BLOCK = 169
"""The keys :meth:`_ExposeTable.lik` fills about a key missed: those sharing
its ranks but the first two (``13 ** 2``; 1: the key alone, as before)."""


def _expose_table(seen: SeenPool, policy: FastPolicy, tremble: float) -> _ExposeTable:
    """The :class:`_ExposeTable` of this view: within :func:`shared_proposals`
    one for every run of it, else a new one."""
    shared = _SHARED.get()
    if shared is None:
        return _ExposeTable(seen, policy, tremble)
    key = ("expose", repr(seen), policy.name, tremble)
    if key not in shared:
        shared[key] = _ExposeTable(seen, policy, tremble)
    table: _ExposeTable = shared[key]
    return table


GUIDE_X = 12
"""Random discards per candidate when the guide estimates how likely the
policy is to keep a candidate three."""


def _guide(policy: FastPolicy, kept_up: list[int], f: int, unseen: Ints, like: Ints,
           opp: SeenOpponent, drawn_up: dict[int, int], tremble: float,
           gen: np.random.Generator) -> tuple[Ints, Floats]:
    """A proposal for an opponent's ``f`` hidden kept cards: every set of
    ``f`` unseen cards, with a chance in proportion to how well it explains
    what was seen: the exposes whose down cards are all known under these
    origins of its up cards (the first expose after a hidden draw averaged
    over the drawn card's rank), times the share of ``GUIDE_X`` random
    discards (from ``like``) with which the policy keeps the three. Every
    set keeps a chance of at least a small floor, so every consistent world
    can be drawn; the weights undo the proposal exactly. Returns
    ``(sets (M, f), chances (M,))``."""
    from itertools import combinations

    if f == 3:  # nothing of it seen yet: uniform (the keep is weighed in the world)
        return np.zeros((0, 3), dtype=np.int64), np.zeros(0)
    table = unseen[np.asarray(list(combinations(range(len(unseen)), f)), dtype=np.int64)]
    m = len(table)
    kept = np.concatenate([np.broadcast_to(np.asarray(kept_up, dtype=np.int64),
                                           (m, len(kept_up))), table], axis=1)
    lik = np.ones(m)
    down = kept
    up = np.zeros((m, 0), dtype=np.int64)
    for e, card in enumerate(opp.ups):
        if e >= 1 and e not in drawn_up:
            # the drawn card is hidden: this expose's chance averaged over the
            # ranks it may have (the expose reads ranks only), then no further
            ranks = np.bincount(unseen >> 2, minlength=13) / len(unseen)
            both = np.concatenate([np.repeat(down, 13, axis=0),
                                   np.tile(np.arange(13) * 4, m)[:, None]], axis=1)
            at = _lik_at(policy, np.repeat(up, 13, axis=0), both,
                         np.argmax(both == card, axis=1), tremble)
            lik *= (at.reshape(m, 13) * ranks).sum(axis=1)
            break
        if e >= 1:
            down = np.concatenate([down, np.full((m, 1), drawn_up[e], dtype=np.int64)],
                                  axis=1)
        shown = np.argmax(down == card, axis=1)
        lik *= _lik_at(policy, up, down, shown, tremble)
        up = np.concatenate([up, np.full((m, 1), card, dtype=np.int64)], axis=1)
        down = down[np.arange(3)[None, :] != shown[:, None]].reshape(m, 2)
    rows = np.repeat(kept, GUIDE_X, axis=0)
    avail = np.zeros((len(rows), 52), dtype=bool)
    avail[:, like] = True  # (the same as every other card cleared; a set a card was 5 ms a run)
    avail[np.arange(len(rows))[:, None], rows] = False
    from rollem.odds.look521 import _pick

    xs = _pick(gen, avail, 3)
    if type(policy).keep_scores is FastPolicy.keep_scores:  # (the same, faster: s56-fast)
        keep = keep_chance(rows, xs, 0.0)
    else:
        scores = policy.keep_scores(np.concatenate([rows, xs], axis=1))
        best = scores.max(axis=1)
        keep = ((scores[:, 0] == best) / (scores == best[:, None]).sum(axis=1))
    lik *= keep.reshape(m, GUIDE_X).mean(axis=1) + 0.05
    prob = lik / lik.sum()
    prob = 0.9 * prob + 0.1 / m  # a floor: every set stays possible
    return table, prob / prob.sum()


def _lik_at(policy: FastPolicy, up: Ints, down: Ints, shown: Ints, tremble: float
            ) -> Floats:
    """Chance the policy exposes ``down[s, shown[s]]`` per row."""
    v = policy.expose_scores(up, down)
    low = v.min(axis=1)
    ties = (v == low[:, None]).sum(axis=1)
    hit = np.take_along_axis(v, shown[:, None], axis=1)[:, 0] == low
    return np.asarray((1 - tremble) * hit / ties + tremble / down.shape[1])


MODEL_SEEN = ("look-ahead: every other player dealt in kept three of six and exposed by the "
              "{policy} policy; their hidden cards and the pool weighted by what was seen "
              "(keeps, exposes, draws; importance weighting, one opponent at a time, "
              "{worlds}); draws and the wild card from the pool")
""":func:`ryo_seen_look`'s model line (``worlds``:
:func:`rollem.odds.result.worlds_words`)."""


def ryo_seen_look(seen: SeenPool, *, samples: int = 2000, policy: FastPolicy = FAST,
                  seed: int | None = None, rng: random.Random | None = None,
                  tremble: float | None = None, candidates: int | None = None,
                  retry: bool = True) -> Odds | None:
    """The seat's odds after the discard, opponents' hands conditioned on
    their keeps and exposes under ``policy`` (see the module doc). Where the
    effective number of worlds comes out below :data:`MIN_EFFECTIVE`, it
    tries once more with :data:`RETRY` times the candidates per opponent
    and that many times fewer worlds (about the same work; at least
    :data:`RETRY_WORLDS` of those asked for) before giving up.

    Args:
        seen: from :func:`seen_of`.
        samples: worlds drawn (weighted; the model line gives the effective
            number); at least :data:`MIN_WORLDS` with three or more
            opponents (the odds' ``samples`` says how many).
        policy: needs ``keep_scores`` and ``expose_scores``
            (:class:`rollem.odds.policy.FastPolicy`).
        seed, rng: seed the sampling (``seed`` wins). A seeded run outside
            play (no :func:`shared_proposals`) first waits up to
            :data:`WAIT_FOR_KERNELS` seconds for the compiled loops, so that
            a seed gives the same figures in every process of an install.
        tremble: the chance a player strays from the policy (default
            :data:`rollem.odds.look521.TREMBLE`).
        candidates: per opponent, world and origin of its up cards
            (:func:`_read_opponent`; ``None``: :func:`candidates_for`).
        retry: whether to try once more (see above).

    Returns:
        :class:`Odds` (``equity`` the weighted mean share, ``stderr`` its
        standard error counted by ancestor, ``categories`` the seat's final
        hand categories), or ``None`` when the model cannot place the view
        (then use the tracked model).
    """
    if _FUSED_RUN.get() is None:  # a run begins: its read is fixed for all of it
        shared = _SHARED.get()
        if shared is not None:  # play's batches: as the first batch found it
            fused = shared.setdefault(_FUSED, _fused_at_start(seeded=False))
        else:
            fused = _fused_at_start(seeded=seed is not None or rng is not None)
        token = _FUSED_RUN.set(fused)
        try:
            return _seen_look(seen, samples=samples, policy=policy, seed=seed, rng=rng,
                              tremble=tremble, candidates=candidates, retry=retry)
        finally:
            _FUSED_RUN.reset(token)
    return _seen_look(seen, samples=samples, policy=policy, seed=seed, rng=rng,
                      tremble=tremble, candidates=candidates, retry=retry)


WAIT_FOR_KERNELS = 120.0
"""Seconds a seeded run outside play waits for the compiled loops
(:func:`_fused_at_start`): compiled once after an install (some seconds),
loaded from numba's disk cache after that (a fraction of a second)."""


def _fused_at_start(*, seeded: bool) -> bool:
    """Whether a run beginning now reads in one pass. A seeded run outside
    play (``rollem odds --seed``, a test, a bench) waits for the kernels, so
    that a seed gives the same figures in every process of an install; play
    and the web table's odds, which run to a CPU budget and so are not
    reproducible anyway, never wait: their first runs read origin by origin
    while the kernels load (the same law)."""
    if not READ_FUSED:
        return False
    if seeded:
        return compiled.wait(WAIT_FOR_KERNELS)
    return compiled.use()


def _seen_look(seen: SeenPool, *, samples: int, policy: FastPolicy, seed: int | None,
               rng: random.Random | None, tremble: float | None, candidates: int | None,
               retry: bool) -> Odds | None:
    """:func:`ryo_seen_look` within a run whose read is fixed (:data:`_FUSED_RUN`)."""
    from rollem.odds.common import shares
    from rollem.odds.look521 import TREMBLE

    if not hasattr(policy, "keep_scores") or not hasattr(policy, "expose_scores"):
        return None
    # the table's computer players where play says who they are (branch s67-rough)
    trem = straying.tremble(TREMBLE) if tremble is None else tremble
    seen_cards = set(seen.mine) | set(seen.discards) | {c for _, c in seen.my_draws}
    for o in seen.opponents:
        seen_cards.update(o.ups)
    if seen.wild is not None:
        seen_cards.add(seen.wild)
    unseen = np.asarray([c for c in range(52) if c not in seen_cards], dtype=np.int64)
    gen = np_rng(rng, seed)
    if not seen.my_draws and all(not o.ups and not o.draws for o in seen.opponents):
        return _forward(seen, unseen, samples, policy, trem, gen)
    if any(not _origins(o, set(seen.discards)) for o in seen.opponents):
        return None
    place = takes_places(seen)
    if candidates is None:
        candidates = candidates_for(seen)
    if len(seen.opponents) >= 3 and retry:  # (a retry has its own count)
        samples = max(samples, round((PLACE_WORLDS if place else MIN_WORLDS) * _PART.get()))
    if place and retry and samples >= 2 * PLACE_WORLDS and not _IN_BATCHES.get():
        return _in_batches(seen, samples, policy, gen, tremble, candidates)
    shared = _SHARED.get()
    key = (repr(seen), policy.name, trem, candidates)
    proposal = shared.get(key) if shared is not None else None
    clock = shared.get(_CLOCK) if shared is not None else None
    attempt_began = clock() if clock is not None else 0.0
    setup_cost = 0.0
    try:
        if proposal is None:
            # alone, the pilot and the run each make their guides (as before
            # issue 33); shared, the pilot's are kept for every run
            began = attempt_began
            guides: dict[tuple[int, tuple[int, ...]], tuple[Ints, Floats]] | None = (
                {} if shared is not None else None)
            likely = None
            if any(len(_origins(o, set(seen.discards))) > 1 for o in seen.opponents):
                staged = PILOT_STAGES > 1 and learns_shares(seen)
                likely = _worlds(seen, PILOT if staged else pilot_worlds(seen), unseen, policy,
                                 trem, gen, candidates, guides=guides)[4]
                if staged:
                    likely = _worlds(seen, pilot_worlds(seen) - PILOT, unseen, policy, trem,
                                     gen, candidates, likely, guides=guides)[4]
            proposal = (likely, guides)
            if shared is not None:
                shared[key] = proposal
                _expose_table(seen, policy, trem)  # (made once, part of the set-up)
                if clock is not None:
                    setup_cost = clock() - began
                    shared[_SETUP] = shared.get(_SETUP, 0.0) + setup_cost
                    shared[(_SETUP, key)] = setup_cost
        moves = (PLACE_MOVES if place else MOVES) if len(seen.opponents) >= moves_from(seen) else 0
        hands, w, turned, eve, found = _worlds(seen, samples, unseen, policy, trem, gen,
                                               candidates, proposal[0], proposal[1],
                                               futures=FUTURES, moves=moves)
        if shared is not None and proposal[0] is not None and learns_shares(seen):
            shared[key] = (_learnt(shared, key, proposal[0], found, samples), proposal[1])
    except (IndexError, ValueError, AssertionError):
        return None
    opts = {"wild_duplicates": seen.wild_duplicates,
            "natural_beats_wild": seen.natural_beats_wild}
    k, fut = hands.shape[:2]
    flat = hands.reshape(k * fut, *hands.shape[2:])
    if turned is None:
        values = wild5(flat, [int(seen.wild) >> 2], **opts)  # type: ignore[arg-type]
    else:  # every world at once per rank of the wild card turned
        values = np.zeros(flat.shape[:2], dtype=np.int64)
        ranks = turned.reshape(-1) >> 2
        for r in np.unique(ranks):
            rows = ranks == r
            values[rows] = wild5(flat[rows], [int(r)], **opts)
    each = shares(values[:, 0], values[:, 1:]).reshape(k, fut)
    share = each.mean(axis=1)  # per world, the mean over its orders of the pool left
    base = values[:, 0] >> 1 if seen.natural_beats_wild else values[:, 0]
    cats = base >> 20
    tw = float(w.sum())
    if tw <= 0:
        return None
    equity = float((w * share).sum() / tw)
    # the error of a ratio estimate, the worlds grouped by ancestor (copies
    # made by resampling are not independent); with the moves, also by
    # group (:func:`_resample`: the groups are independent), the larger
    clusters = [eve] + ([group_of(k, GROUPS)] if moves and GROUPS > 1 else [])

    def error(x: Floats, mean: float) -> float:
        return max(float(np.sqrt((np.bincount(c, weights=w * (x - mean), minlength=samples)
                                  ** 2).sum()) / tw) for c in clusters)

    stderr = error(share, equity)
    spread = float((w * (share - equity) ** 2).sum() / tw)
    ess = len(share) if stderr <= 0 else min(len(share), spread / stderr ** 2)
    chances = [(each >= 1.0).mean(axis=1), ((each > 0) & (each < 1.0)).mean(axis=1),
               (each <= 0.0).mean(axis=1)]  # whole pot, a share, nothing, per world
    if fut > 1:
        # a world's chances are means over its orders, not 0 or 1: the
        # effective worlds are what each chance's own error (by ancestor)
        # implies, ``p (1 - p) / se^2``, the fewest over the chances (the
        # equity has its own error), at most :data:`WORLD_CAP` per world
        # (its orders of the pool left share its weight; few ancestors give
        # a large error by ancestor, so the "rough" label, below 1,000,
        # still flags few independent worlds)
        implied = []
        for x in chances:
            p = float((w * x).sum() / tw)
            se = error(x, p)
            if se > 0:
                implied.append(p * (1 - p) / se ** 2)
        if implied:
            ess = min(min(implied), WORLD_CAP * float(k))
    if ess < MIN_EFFECTIVE and not retry:
        if not (shared is not None and ((seen.wild is not None
                and len(seen.opponents) in KEEP_COLLAPSED) or _three_kept(seen))):
            return None
        # (a retry that collapsed too: this run as it is, KEEP_COLLAPSED)
    elif ess < MIN_EFFECTIVE and not (shared is not None and (
            (seen.wild is not None and len(seen.opponents) in KEEP_WILD) or _three_kept(seen))):
        again: int | None = max(samples // RETRY, min(samples, RETRY_WORLDS))
        if shared is not None and clock is not None and shared.get(_DEADLINE) is not None:
            now = clock()
            again = retry_worlds(
                max(samples // RETRY, min(samples, RETRY_WORLDS)), samples=samples,
                cost=now - attempt_began - setup_cost,
                left=float(shared[_DEADLINE]) - now,
                setup=(0.0 if (*key[:3], candidates * RETRY) in shared
                       else RETRY * float(shared.get((_SETUP, key), setup_cost))))
        if again is not None:
            return ryo_seen_look(seen, samples=again, policy=policy,
                                 seed=int(gen.integers(1 << 31)), tremble=tremble,
                                 candidates=candidates * RETRY, retry=False)
        # no retry fits the budget: this run as it is (its effective worlds
        # say how few; play calls it rough)
    cat_w = np.bincount(cats, weights=np.repeat(w, fut) / fut, minlength=10) / tw
    categories = {Category(i).label: float(cat_w[i]) for i in range(9, -1, -1) if cat_w[i] > 0}
    win, tie, lose = (float((w * x).sum() / tw) for x in chances)
    return Odds(win=win, tie=tie, lose=lose, equity=equity,
                method="monte-carlo", samples=k, stderr=stderr, game="rollyourown",
                categories=categories, effective=ess, evidence=tw / k,
                model=MODEL_SEEN.format(policy=policy.name, worlds=worlds_words(ess, k)))


_TRACE: ContextVar[list[dict[str, Any]] | None] = ContextVar("ryoseen_trace", default=None)
"""Within :func:`traced`: the list each run's weights are recorded in."""


@contextmanager
def traced() -> Iterator[list[dict[str, Any]]]:
    """A diagnostic (issue 33, branch s59-ryo): within, every batch of
    worlds :func:`ryo_seen_look` draws (pilots included) appends to the
    list yielded a dict: ``worlds`` (int), ``moves`` (the Metropolis steps,
    0 in a pilot), ``ancestors`` (how many of the layout's worlds the final
    ones descend from) and ``ancestor_kish`` (their effective number,
    weighed by their descendants' weights), and ``steps``, per opponent's
    step in :func:`read_order` a dict of ``seat``; ``kish``, the share of
    effective worlds ``(sum w)^2 / (k sum w^2)`` of the weights after the
    step (since the last resampling, :data:`RESAMPLE`); ``step_kish``, that
    of the step's own factor; ``within``, the mean over the opponent's
    origins (by worlds) of the step factor's share within each; and
    ``between``, its share were each origin's factors their mean. Nothing
    drawn changes: the same worlds and odds as without."""
    out: list[dict[str, Any]] = []
    token = _TRACE.set(out)
    try:
        yield out
    finally:
        _TRACE.reset(token)


def _kish(w: Floats) -> float:
    """The share of effective worlds, ``(sum w)^2 / (len(w) sum w^2)``, in
    [0, 1] (0 where every weight is 0).

    >>> _kish(np.array([1.0, 1.0, 0.0, 0.0]))
    0.5
    """
    sq = float((w * w).sum())
    return 0.0 if sq <= 0 else float(w.sum()) ** 2 / (len(w) * sq)


def _step_record(seat: int, weight: Floats, step: Floats, origin: Ints) -> dict[str, Any]:
    """One opponent's step for :func:`traced` (see there)."""
    flat = np.zeros(len(step))
    within = 0.0
    for o in np.unique(origin):
        at = origin == o
        flat[at] = step[at].mean()
        within += at.sum() * _kish(step[at])
    return {"seat": seat, "kish": _kish(weight), "step_kish": _kish(step),
            "within": float(within) / max(len(step), 1), "between": _kish(flat)}


_SHARED: ContextVar[dict[Any, Any] | None] = ContextVar("ryoseen_shared", default=None)
"""Within :func:`shared_proposals`: the pilot's origin shares and the guides
per view, made once and used by every later run of the same view."""


LEARN_FROM = 5
"""In the third card up round (:func:`learns_shares`) with this many
opponents (6 players), each run
of a view within :func:`shared_proposals` leaves its own origin shares
(what it found, per opponent, once that opponent was read) averaged into
the proposal the next run draws its origins from (:func:`_learnt`), and
the pilot draws :data:`LEARN_PILOT` worlds in :data:`PILOT_STAGES` stages (issue
33, branch s55-ryo).

Why: there a batch's weights collapse between an opponent's origins, not
within them (hand 30001, third card up: an opponent's step leaves 4 to 11%
of the worlds effective, against 26 to 38% among the worlds of one origin),
because the 400-world pilot, which draws every origin alike, misjudges the
split of the opponents read late (seat 4's second up card drawn last:
0.82 in the pilot, 0.19 to 0.25 in the batches). 48 batches (three pilots)
a setting: the spread of a batch's equity 2.63 points against 3.98, the
same CPU a batch (2.38 with :func:`_discard_places`); each part alone did
less (a 2,000-world pilot 3.22, learning 3.77; docs/dev/odds-precision.md).
After the wild card 8.90 against 11.74 (quarter batches), but its
runs there came out low (:func:`learns_shares`). In play (with :data:`PILOT_STAGES`,
60 runs a side against the 40 s long run): the median interval ±2.72
points against main's ±4.35, covered 58 against 57, within ±1.5 1
against 0."""
LEARN_THIRD_FROM = 4
"""The fewest opponents with which the shares are learnt (as with
:data:`LEARN_FROM`: the pilot in :data:`PILOT_STAGES` stages of
:data:`LEARN_PILOT` worlds, each run's shares averaged into the next's, the
discards placed and their owners drawn; :func:`learns_shares`) in the third
card up round before the wild card: at 5 players there (4 opponents), not
after the wild card (not measured). Issue 33, branch s65-five: there a
run's batches all share one 400-world pilot's proposal, and how widely they
spread is the run's, not chance's (per run, a batch's sd 1.1 to 3.4 points
between the 10th and 90th percentile of 60 runs; the sd of its log 0.43
against 0.25 were the batches exchangeable between runs), so the runs over
±1.5 were those with a poor pilot: 14 of 40 pilots gave seat 4 (read last)
under 0.2 of its origin ``(0, 1, 2)`` and held all 8 of those runs. With the
shares learnt (hand 30001, 1 s of play, 140 seeds alternating with main in
one process, load 6.7 to 12.9): over ±1.5 0 runs against 26, the median
±0.47 against ±0.82, the widest ±0.78 against ±3.01, covered 133 against
125 (truth 6.54 ± 0.1, branch s65-four), the runs' mean 6.64 against 7.00,
a batch's bias (by worlds less the ratio of sums) +0.05 against +0.56, the
CPU within 0.97 s (docs/dev/odds-precision.md, branch s65-five)."""
LEARN_WILD_FROM = 3
"""The fewest opponents with which the shares are learnt after the wild
card under :data:`LEARN_FROM` (5 players; 6 players by :data:`LEARN_WILD`),
as :data:`LEARN_THIRD_FROM` before it (:func:`learns_shares`). Issue 33,
branch s65-wild5: there too every batch of a run drew from one 400-world
pilot's proposal, and on hand 30004 that pilot's worlds descend from 2
ancestors; a run's batches spread from 7 to 76 points and play showed
33.6% ± 22.1. In play at 1 s (settings alternating seed by seed in one
process; docs/dev/odds-precision.md, branch s65-wild5): on the five hands
with runs over ±1.5 in a 40-hand survey, over ±1.5 34 of 80 runs against
65, the median ±1.43 against ±2.66 (hand 30004 ±3.18 against ±19.13, its
runs' sd 1.13 points against 13.53); on eight ordinary hands, over ±1.5 0
of 32 against 3, the median ±0.47 against ±0.81; the CPU within 0.95 s.
Hand 30034's long runs agree (learnt 9.39 ± 0.05, main's 9.28 ± 0.06).
3 since branch s66-mix (4 players too, with :data:`PLACE_WILD`; branch
s65-wild4's patch)."""
LEARN_WILD_ALSO: frozenset[int] = frozenset({2})
"""Counts of opponents besides :data:`LEARN_WILD_FROM` up to :data:`LEARN_FROM`
with which the shares are learnt after the wild card (:func:`learns_shares`):
3 players (issue 33, branch s66-wide). There the learnt sampler's long runs
agree with the plain one's where every batch is kept (hand 31040: 6.09 ± 0.09
against 6.31 ± 0.65; 31019: 68.37 ± 0.17 against 66.41 ± 0.94 by ratio of
sums, 68.58 ± 0.17 against 68.53 ± 0.67 by worlds; 31031: 38.2 ± 0.6 against
35.9 ± 2.9), with a tenth to a fifth of the spread between runs
(docs/dev/odds-precision.md). 4 players learn by :data:`LEARN_WILD_FROM`
since branch s66-mix."""
LEARN_FOUR: frozenset[int] = frozenset({3})
"""Counts of opponents with which the shares are learnt in the third card up
round before the wild card (as with :data:`LEARN_THIRD_FROM`): 4 players
(issue 33, branch s65-spread). There a batch's weights often
collapsed (a fifth to a thirtieth of its worlds effective), and the hands whose
runs were over ±1.5 were those: hand 30018 third card up ±3.68, ±2.86, ±1.25 (3
seeds) against ±0.92, ±1.11, ±0.90 learnt, 30020 ±2.79, ±3.96, ±1.32 against
±0.78, ±0.56, ±0.72; at hand 30001 (truth 6.59 ± 0.03, branch s65-four) 120
seeds alternating with main in one process: the runs' sd 0.27 against 0.36,
the median interval ±0.46 against ±0.59, covered 118 against 113 (with
:data:`rollem.odds.play.WORLDS_FACTOR`), the mean +0.01 ± 0.03 from the truth.
Over hands 30001-30030 (2 seeds) over ±1.5 1 of 60 against 5; learnt runs came
0.18 ± 0.08 below main's, main's bias: at hand 30016 main's batches weighed by
worlds sat 0.37 above their ratio of sums (50.98 against 50.61), the learnt
50.60 and 50.56 (docs/dev/odds-precision.md, branch s65-spread)."""
LEARN_PILOT = 1000
"""The pilot's worlds where the shares are learnt (:data:`LEARN_FROM`;
elsewhere :data:`PILOT`), drawn in :data:`PILOT_STAGES` stages."""
PILOT_STAGES = 2
"""Where the shares are learnt, the pilot is made in this many stages: the
first draws :data:`PILOT` worlds with every origin alike, the second the
rest of :data:`LEARN_PILOT` with the first's shares (issue 33, branch
s55-ryo). Drawn alike, the pilot's last opponents rest on few worlds
(hand 30001: seat 4's origin (0, 0, 2) 0.008 in a 2,000-world pilot, 0.2
in the batches), so the first batches of a run, before learning has
mended it, spread most: 10 runs of 5 batches, the first batch's spread
4.5 points in one stage of 2,000 worlds, 2.3 in two of 400 and 600, every
batch's 3.13 against 2.50, the set-up 0.12 s against 0.09."""
LEARN_WILD = True
"""Whether :func:`learns_shares` holds after the wild card too (6 players;
issue 33, branch s56-ryo): there the origin shares are learnt, the seat's
discards placed by them and whose discard each named card was drawn by
the keep policy, as in the third card up round. Hand 30001, 20 pilots x 5
quarter batches (500 worlds), the same seeds: a batch's equity spread 4.37
points against 12.89 (whole batches 2.19 against 10.00), its stated
error about its spread (3 to 4 points) where main's stated a third of it;
quarter and whole batches agree (20.03 ± 0.44, 20.06 ± 0.24), main's
batches' own mean 20.96 ± 1.12 and 22.22 ± 1.29. In play (60 runs a
side): the median interval ±2.53 against main's ±6.32, covered 60 against
the steered long run (20.06; main 53), 51 against branch s52-ryo's 40 s
long run of main's batches (21.09 ± 0.75, the runs 0.93 ± 0.16 below it;
main 54). Which long run is the nearer is not settled
(docs/dev/odds-precision.md); ``False`` restores main's sampler there."""
_LEARNT = "learnt"
"""The key (with a view's) of the worlds behind its learnt shares."""


def pilot_worlds(seen: SeenPool) -> int:
    """The worlds the pilot run of ``seen`` draws: :data:`LEARN_PILOT` where
    the shares are learnt (:func:`learns_shares`), else :data:`PILOT`."""
    return LEARN_PILOT if learns_shares(seen) else PILOT


def learns_shares(seen: SeenPool) -> bool:
    """Whether runs of ``seen`` within :func:`shared_proposals` learn the
    origin shares they propose from the runs before them, and place a
    seat's discard an opponent shows by them (:func:`_discard_places`):
    from the third card up round on (every one showing three cards) with
    :data:`LEARN_FROM` opponents; after the wild card only while
    :data:`LEARN_WILD` (branch s56-ryo; branch s55-ryo had left it out:
    there 20 runs of play with the shares learnt, nothing else steered,
    came out 2.1 ± 0.4 points below the 40 s long run of main's batches).
    Also in the third card up round before the wild card with
    :data:`LEARN_THIRD_FROM` opponents (5 players; branch s65-five) or a
    count of opponents in :data:`LEARN_FOUR` (4 players; branch s65-spread),
    and after it with :data:`LEARN_WILD_FROM` (5 players; branch s65-wild5) or
    a count of opponents in :data:`LEARN_WILD_ALSO` (3 players; branch s66-wide)."""
    if not _all_up(seen):
        return False
    m = len(seen.opponents)
    return ((seen.wild is None or LEARN_WILD) and m >= LEARN_FROM) or (
        seen.wild is None and m >= LEARN_THIRD_FROM) or (
        seen.wild is None and m in LEARN_FOUR) or (
        seen.wild is not None and LEARN_WILD_FROM <= m < LEARN_FROM) or (
        seen.wild is not None and m in LEARN_WILD_ALSO) or _three_third(seen)


def _learnt(shared: dict[Any, Any], key: Any, shares: list[Floats], found: list[Floats],
            worlds: int) -> list[Floats]:
    """The origin shares a view's next run proposes: the mean of the
    pilot's (:data:`LEARN_PILOT` worlds) and every run's since, each weighed by
    its worlds; the count is kept in ``shared`` under ``(_LEARNT, key)``.
    Each run's weights undo the proposal it drew from (fixed when it
    starts), so each stays exact; the proposal follows what was found."""
    before = float(shared.get((_LEARNT, key), LEARN_PILOT))
    shared[(_LEARNT, key)] = before + worlds
    return [(before * a + worlds * b) / (before + worlds) for a, b in zip(shares, found,
                                                                        strict=True)]


def candidates_for(seen: SeenPool) -> int:
    """The candidates per opponent and world :func:`ryo_seen_look` draws in
    ``seen`` by default: :data:`PLACE_CANDIDATES` with the place steps
    (:data:`PLACE_FROM` opponents), :data:`LATE_CANDIDATES` from the third
    card up with :data:`LATE_CANDIDATES_FROM` opponents, else
    :data:`CANDIDATES`.

    >>> o = SeenOpponent(seat=1, ups=[1, 2, 3], draws=[0, 4], live=True)
    >>> p = SeenOpponent(seat=2, ups=[5, 6], draws=[1, 5], live=True)
    >>> [candidates_for(SeenPool([], [], [], opps, 8, None))
    ...  for opps in ([o] * 4, [o, o, o, p], [o] * 3, [o] * 5)]
    [16, 4, 4, 16]
    """
    if takes_places(seen):
        return PLACE_CANDIDATES
    if _all_up(seen) and len(seen.opponents) >= LATE_CANDIDATES_FROM:
        return LATE_CANDIDATES
    return CANDIDATES


def moves_from(seen: SeenPool) -> int:
    """The fewest opponents the moves are made with in ``seen``:
    :data:`LATE_MOVES_FROM` once every opponent has exposed three cards
    (the third card up round on), else :data:`MOVES_FROM`.

    >>> o = SeenOpponent(seat=1, ups=[1, 2, 3], draws=[0, 4], live=True)
    >>> p = SeenOpponent(seat=2, ups=[5, 6], draws=[1, 5], live=True)
    >>> pool = SeenPool(mine=[], discards=[], my_draws=[], opponents=[o, o, o],
    ...                 drawn=8, wild=None)
    >>> moves_from(pool), moves_from(SeenPool([], [], [], [o, o, p], 8, None))
    (3, 4)
    """
    if _all_up(seen):
        return min(MOVES_FROM, LATE_MOVES_FROM)
    return MOVES_FROM


LATE_PART = 0.25
"""The share of a whole sampler batch (:data:`PLACE_WORLDS` worlds) that
one batch of the odds shown in play draws at 6 players after the wild card
(:func:`play_part`; issue 33, branch s51-ryo2): about four times as many
batches fit the 1 s budget (12 to 20 rather than 4 or 5), so the interval
rests on the spread of many batches (a batch's stated error there is a
third to a half of the spread between batches). 40 runs: covered 36
against main's 33, rms z 1.00 and 1.14 against 2.12 and 1.91
(docs/dev/odds-precision.md); not kept then (no more covered). Kept by
branch s52-ryo with the batches weighed by worlds, their spread checked
with Student's t (:func:`spread_view`): on many batches the t is near
1.96 and the spread a steadier estimate (20 runs: the median interval
±6.6 against ±8.1 in whole batches, covered 20 and 19 of 20). 3/8 in
place of 1/4 since branch s63-play: each batch's equity is a self-normalised
mean, biased by about its worlds' inverse, which no spread shows (hand
30001, 300 runs each: quarter batches 20.12 ± 0.05 points, 3/8 20.05 ±
0.05, the long run 19.83 ± 0.03). In play, 300 runs a side at once: covered
282 against 279 (rms z 1.04 against 1.08), the median interval ±1.70 both,
within ±1.5 69 against 84, 1.12 times the worlds; replayed on their
batches, 283 against 277 (docs/dev/odds-precision.md). A quarter again
since stop 63, on branch s63-ryo's cheaper batches (90 runs a side at once,
load 1 to 3): with the early stop covered 83 against 77 of 90, within
±1.5 72 against 68, widest ±2.16 against ±2.27; without it (``half_width``
0) covered 84 against 83, within 73 against 69, median ±1.36 against ±1.35;
the runs' means 19.95 to 20.00 both."""


THIRD_PART = 0.5
"""The share of a whole sampler batch (:data:`PLACE_WORLDS` worlds) that
one batch of the odds shown in play draws at 6 players in the third card
up round, before the wild card (:func:`play_part`; issue 33, branch
s58-ryo): 1,000 worlds, 7 to 9 batches in 1 s rather than 4 or 5 whole
ones, so the spread check's t is 2.36 to 2.45 rather than 2.78 to 3.18.
A half batch spreads about what a whole one does per CPU second (hand
30001, 3 pilots: 1.77 points in 0.105 s against 1.46 in 0.18 s, spread
squared times CPU 0.32 × 10⁻⁴ both; a quarter batch 2.2 to 3.1 points in
0.064 s, 0.31 to 0.64: heavier tails). In play, 150 runs a side paired
with main: the median interval ±1.47 against ±1.79, within ±1.5 81
against 48, covered 143 against 146 (docs/dev/odds-precision.md)."""


PART_WILD: dict[int, float] = {2: 4.0, 4: 0.5}
"""Per count of opponents, the share of a sampler batch (:data:`rollem.odds.
play.BATCH` worlds) one batch of the odds shown in play draws after the wild
card (:func:`play_part`): 4 (4,000 worlds) at 3 players (issue 33, branch
s66-wide), 1 (:data:`PLACE_WORLDS`, 2,000 worlds with the place steps,
:data:`PLACE_WILD`) at 5 players (branch s66-wild56: quarter batches, 6
players' :data:`LATE_PART`, sat 4.5 points high at hand 31021). Each
batch's equity is a self-normalised mean, biased by about its effective
worlds' inverse, which no spread between batches shows; with the
shares learnt (:data:`LEARN_WILD_ALSO`) batches of 1,000 worlds were 0.24 ±
0.10 points above the long run at hand 31040 and 0.53 ± 0.17 at 31019. At 5
players a half (1,000 worlds) since branch s67-five, each read from 4,000
(:data:`READ_MORE_WILD_TIMES`): a batch's total weight is then a mean over
the 4,000, and the 2,000-world batches' bias at 31021 (+1.38 ± 0.29 points
in play) came to +0.32 ± 0.24; whole batches read from 8,000 were as
precise (the runs' sd 0.88 points against 1.47) but only 6 or 7 fit a
second and Student's t on so few widened the interval (±2.68)."""


def play_part(info: ViewInfo) -> float:
    """The share of a whole sampler batch one batch of the odds shown in
    play draws for the view ``info``: :data:`LATE_PART` in Roll Your Own at
    6 players after the wild card (:func:`wild_view`), else 1.0 (issue 33,
    branch s51-ryo2). At 6 players in the third card up round before the
    wild card :data:`THIRD_PART` (branch s58-ryo; a quarter batch there
    spreads more for its CPU than a whole one: 5.2 points in 0.078 s
    against 2.75 in 0.165 s, branch s51-ryo, and 20 runs in quarter
    batches were within ±1.5 2 and 3 times against main's 8). At 5
    players from the third card up, where each opponent is read from
    :data:`LATE_CANDIDATES` (:func:`candidates_for`),
    :data:`LATE_CANDIDATES_PART` (branch s53-ryo; with 4 candidates, 40
    runs in quarter batches had been within 36 times against main's 31 but
    covered 28 against 31). After the wild card with a count of opponents in
    :data:`PART_WILD` its share (4 at 3 players, branch s66-wide; at 5
    players 1, branch s66-wild56, then 0.5, each batch read from 4 times its
    worlds, branch s67-five), before :data:`LATE_PART`."""
    if info.game != "rollyourown" or len(info.mine) >= 6:
        return 1.0
    seen = seen_of(info)
    if seen is None:
        return 1.0
    if seen.wild is not None and _all_up(seen) and len(seen.opponents) in PART_WILD:
        return PART_WILD[len(seen.opponents)]
    if _three_third(seen) and len(seen.opponents) in PART_THIRD:
        return PART_THIRD[len(seen.opponents)]
    if _three_second(seen) and len(seen.opponents) in PART_SECOND:
        return PART_SECOND[len(seen.opponents)]
    if wild_view(seen):
        return LATE_PART
    if len(seen.opponents) >= PLACE_FROM and _all_up(seen):
        return THIRD_PART
    if not takes_places(seen) and candidates_for(seen) == LATE_CANDIDATES:
        return LATE_CANDIDATES_PART
    return 1.0


def reads_more(seen: SeenPool) -> bool:
    """Whether a batch of ``seen`` with the moves lays out and reads
    :data:`READ_MORE` times its worlds (:func:`_worlds`): from the third card
    up (every opponent showing three cards) with :data:`READ_MORE_FROM`
    opponents or more (6 players; stop 64), and in the third card up round
    before the wild card is turned with a count of opponents in
    :data:`READ_MORE_THIRD` (4 players; issue 33, branch s65-four), and after
    the wild card with a count in :data:`READ_MORE_WILD` (4 players; branch
    s66-mix).

    >>> o = SeenOpponent(seat=1, ups=[1, 2, 3], draws=[0, 4], live=True)
    >>> p = SeenOpponent(seat=2, ups=[5, 6], draws=[1, 5], live=True)
    >>> [reads_more(SeenPool([], [], [], opps, 8, wild)) for opps, wild in
    ...  (([o] * 5, None), ([o] * 5, 9), ([o] * 3, None), ([o] * 3, 9), ([o] * 4, None),
    ...   ([o, o, p], None))]
    [True, True, True, True, False, False]
    """
    if not _all_up(seen):
        return False
    count = len(seen.opponents)
    return count >= READ_MORE_FROM or (seen.wild is None and count in READ_MORE_THIRD) or (
        seen.wild is not None and (count in READ_MORE_WILD or count in READ_MORE_WILD_TIMES))


def read_more_times(seen: SeenPool) -> float:
    """How many times a batch's worlds a batch of ``seen`` lays out and reads
    where :func:`reads_more` holds: after the wild card with a count of
    opponents in :data:`READ_MORE_WILD_TIMES` its factor (4 at 5 players;
    issue 33, branch s67-five), else :data:`READ_MORE`. Only where
    :data:`READ_MORE` is above 1 (tests set it to 1 to read no more anywhere).

    >>> o = SeenOpponent(seat=1, ups=[1, 2, 3], draws=[0, 4], live=True)
    >>> [read_more_times(SeenPool([], [], [], [o] * m, 8, 9)) for m in (3, 4, 5)]
    [2, 4.0, 2]
    """
    if seen.wild is not None and len(seen.opponents) in READ_MORE_WILD_TIMES:
        return READ_MORE_WILD_TIMES[len(seen.opponents)]
    return READ_MORE


def wild_view(seen: SeenPool) -> bool:
    """Whether ``seen`` is a view after the wild card is turned with
    :data:`PLACE_FROM` opponents or more (6 players; issue 33, branch
    s51-ryo) or a count in :data:`PLACE_WILD` (:func:`takes_places`: 4 and
    5 players): there :func:`_move` takes origin and re-deal steps every
    :data:`ORIGIN_EVERY` and :data:`REDEAL_EVERY` steps (none while those
    are 0).

    >>> o = SeenOpponent(seat=1, ups=[1, 2, 3], draws=[0, 4], live=True)
    >>> six, before = SeenPool([], [], [], [o] * 5, 12, 26), SeenPool([], [], [], [o] * 5, 12, None)
    >>> wild_view(six), wild_view(before), wild_view(SeenPool([], [], [], [o] * 2, 6, 26))
    (True, False, False)
    """
    return seen.wild is not None and _all_up(seen) and takes_places(seen)


def _all_up(seen: SeenPool) -> bool:
    """Whether every opponent has exposed three cards (the third card up
    round on)."""
    return bool(seen.opponents) and all(len(o.ups) >= 3 for o in seen.opponents)


def pooled_view(info: ViewInfo) -> bool:
    """Whether play pools this view's importance-weighted batches by their
    stated errors (:func:`rollem.odds.play.combine`); ``False`` (weighed by
    worlds, their spread checking the error) where the moves are made only
    because the third card is up (:data:`LATE_MOVES_FROM`: 4 players; issue
    33, branch s50-ryo). There a batch's stated error was about half its
    spread (79 batches of 4,000 worlds: standard deviation 1.31 points, rms
    stated error 0.68) and the pool favoured the batches that missed the
    rare worlds where the seat takes the pot (20 runs: covered 9 of 20, rms
    z 2.35; by worlds 15, 1.35, 19 within ±1.5; docs/dev/odds-precision.md).
    At 5 and 6 players by worlds left most runs wider than ±1.5, so they
    stayed pooled until branch s52-ryo, which weighs them by worlds there
    too, the spread checked with Student's t (:func:`spread_view`: the
    pool's intervals covered 45, 50 and 46 of 60 runs). ``True`` for every
    other view."""
    if info.game != "rollyourown" or len(info.mine) >= 6:
        return True
    seen = seen_of(info)
    if seen is None or not seen.opponents:
        return True
    return not moves_from(seen) <= len(seen.opponents) < MOVES_FROM


def spread_view(info: ViewInfo) -> bool:
    """Whether play weighs this view's batches by worlds, their spread
    checking the stated error with Student's t
    (:data:`rollem.odds.play.SPREAD`; issue 33, branch s52-ryo), rather
    than pooling them by their stated errors: Roll Your Own from the third
    card up (every
    opponent showing three cards) with 4 opponents or more (5 and 6
    players), where a batch's chain never moves where each opponent's up
    cards came from (branch s51-ryo) and batches stated a third to a half
    of their spread; after the wild card also with a count of opponents in
    :data:`SPREAD_WILD` (3 players; branch s66-wide). ``False`` for every
    other view."""
    if info.game != "rollyourown" or len(info.mine) >= 6:
        return False
    seen = seen_of(info)
    if seen is None or not seen.opponents:
        return False
    if seen.wild is not None and _all_up(seen) and len(seen.opponents) in SPREAD_WILD:
        return True
    if _three_kept(seen):
        return True
    return _all_up(seen) and len(seen.opponents) >= MOVES_FROM


def places_view(info: ViewInfo) -> bool:
    """Whether this Roll Your Own view's batches take the place steps
    (:func:`takes_places`: 5 players or more, and since branch s66-mix 4
    players after the wild card); ``False`` for every other view (issue 33,
    branch s66-width4: there play states the error of batches weighed by
    worlds times :data:`rollem.odds.play.WORLDS_PLACES_FACTOR`, not
    :data:`~rollem.odds.play.WORLDS_FACTOR`)."""
    if info.game != "rollyourown" or len(info.mine) >= 6:
        return False
    seen = seen_of(info)
    return seen is not None and bool(seen.opponents) and takes_places(seen)


SPREAD_WILD: frozenset[int] = frozenset({2})
"""Counts of opponents under :data:`MOVES_FROM` with which, after the wild
card, :func:`spread_view` holds too: 3 players (issue 33, branch s66-wide).
Pooled by their stated errors, the batches that missed the rare worlds of
large weight stated the smallest errors and took the pool, and runs stopped
at ±1.5 as soon as the pool said so (hand 31040: 0.3 ± 0.6 where the long
run is 6.1). Weighed by worlds the runs use the whole budget."""
LEAN_WILD: dict[int, float] = {5: 0.5}
"""Per count of opponents, after the wild card (every opponent showing three
cards), how far play leans a run's batches from their mean by worlds towards
their ratio of sums (0 to 1; :func:`evidence_lean`,
:func:`rollem.odds.play.combine`'s ``lean``, each batch's weight capped at
:data:`rollem.odds.play.EVIDENCE_CAP` times the run's mean, the error
:func:`rollem.odds.play.lean_stderr` with Student's t; counts not listed take
:data:`rollem.odds.play.EVIDENCE_SHARE`, 0): 6 players, where the batches
are weighed by worlds with Student's t (:data:`rollem.odds.play.SPREAD`)
and run to the budget (issue 33, branch s67-lean6; the ``lean`` from branch
s67-four, whose 4-player entry was not merged).

Each quarter batch's equity is a self-normalised mean, off by minus the
covariance of its total weight with its equity; a run's mean by worlds keeps
that however many batches it holds. Replayed on 1,167 of main's runs at 1 s
on the 8 wide hands (31012, 31014, 31027, 31040, 31069, 31081, 31091, 31092;
truths from branch s67-six; every batch kept, each rule applied to the same
batches; 141 to 147 seeds a hand; load 1.0 to 6.0): by worlds covered 1,097
(94.0%), the median ±1.99, hand 31081 +0.84 ± 0.10 from its truth (126 of
147 covered), 31040 +0.53, 31069 +0.37, 31012 −0.22; leaning 0.5, 1,111
(95.2%; 23 runs gained, 9 lost), the median ±2.08 (× 1.040), 31081 +0.44
(137 covered), 31040 +0.29, 31069 +0.20, 31012 +0.01. Leaning 0.25, 0.75,
1.0: 1,100, 1,113, 1,110 at × 1.017, 1.069, 1.106; main's interval × 1.05
or × 1.1: 1,109 and 1,116, the offsets left. The 40 runs of hands
31001-31020 (seeds 1, 2) moved by at most 0.39 points, 5 over ±1.5 both
(docs/dev/odds-precision.md, branch s67-lean6)."""


def _opponents_after_the_wild_card(info: ViewInfo) -> int | None:
    """The count of opponents where ``info`` is Roll Your Own after the wild card
    (R-RYO-7) with every opponent showing three cards, else ``None``."""
    if info.game != "rollyourown" or len(info.mine) >= 6:
        return None
    seen = seen_of(info)
    if seen is None or not seen.opponents or seen.wild is None or not _all_up(seen):
        return None
    return len(seen.opponents)


def evidence_lean(info: ViewInfo) -> float | None:
    """How far play leans this view's batches towards their ratio of sums
    (0 to 1, :data:`LEAN_WILD`): Roll Your Own after the wild card with a
    count of opponents listed there; ``None`` (play's
    :data:`rollem.odds.play.EVIDENCE_SHARE`) for every other view (issue 33,
    branches s67-four and s67-lean6)."""
    count = _opponents_after_the_wild_card(info)
    return None if count is None else LEAN_WILD.get(count)


STATED_WILD: dict[int, float] = {4: 4.0}
"""Per count of opponents, after the wild card (every opponent showing three
cards), the degrees of freedom play gives the batches' own stated errors
beside their spread's (:func:`stated_dof`, :func:`rollem.odds.play.
stated_stderr`; counts not listed: the larger of the stated error and the
spread's times Student's t on ``k - 1``): 5 players (issue 33, branch
s68-five). There a run holds 12 to 16 half batches (:data:`PART_WILD`) whose
stated errors and spread agree on average (hand 31021: ±2.04 and ±1.97
points a run, 31035 ±2.11 and ±2.10), and the larger of the two with t on
13 stated the runs wider than they scatter. Replayed on 332 recorded runs
(hands 31021, 31035, 31042, 31047, 31049, 31058; 1 s, load 1.4 to 10.7;
truths of long runs): the median interval ±2.03 against ±2.12, the widest
±3.76 against ±4.21, covered 94.9% against 96.1%; over hands 31021-31060
(seeds 1 to 3) no run wider. The stated errors alone covered 92.2%
(docs/dev/odds-precision.md, branch s68-five)."""


def stated_dof(info: ViewInfo) -> float | None:
    """The degrees of freedom play gives this view's batches' stated errors
    beside their spread (:data:`STATED_WILD`): Roll Your Own after the wild
    card with a count of opponents listed there; ``None`` (the larger of the
    two, Student's t on the spread) for every other view (issue 33, branch
    s68-five)."""
    count = _opponents_after_the_wild_card(info)
    return None if count is None else STATED_WILD.get(count)


def retry_worlds(again: int, *, samples: int, cost: float, left: float,
                 setup: float) -> int | None:
    """The worlds a retry of a collapsed run draws within a CPU budget
    (issue 33, branch s50-ryo): ``again`` (:data:`RETRY_WORLDS` rule) where
    it fits, else as many as fit :data:`RETRY_MARGIN` of the ``left``
    seconds, or ``None`` (no retry) where that is under
    :data:`RETRY_FEWEST`. The retry's cost is foreseen from the run it
    retries (``samples`` worlds in ``cost`` seconds, its set-up not
    counted): per world :data:`RETRY` times as dear (:data:`RETRY` times the
    candidates), plus ``setup`` seconds for the retry's own proposals where
    they are not made yet.

    >>> retry_worlds(2500, samples=4000, cost=0.16, left=2.0, setup=0.2)
    2500
    >>> retry_worlds(2500, samples=4000, cost=0.16, left=0.4, setup=0.0)
    2000
    >>> retry_worlds(2500, samples=4000, cost=0.16, left=0.4, setup=0.3) is None
    True
    """
    if cost <= 0 or samples <= 0:
        return again if left > setup else None
    per_world = RETRY * cost / samples
    fit = int((RETRY_MARGIN * left - setup) / per_world)
    if fit >= again:
        return again
    return fit if fit >= RETRY_FEWEST else None


_CLOCK = "clock"
"""The key of :func:`shared_proposals`' clock in its shared dict (the
proposals' keys are tuples)."""
_SETUP = "setup"
"""The key of the clock time spent making proposals (:func:`setup_seconds`)."""
_FUSED = "fused"
"""The key of whether a shared run reads in one pass (:data:`_FUSED_RUN`)."""
_DEADLINE = "deadline"
"""The key of :func:`shared_proposals`' deadline (clock seconds)."""


_PART: ContextVar[float] = ContextVar("ryoseen_part", default=1.0)
"""Within :func:`part_of_batch`: the share of :data:`MIN_WORLDS` drawn."""


_IN_BATCHES: ContextVar[bool] = ContextVar("ryoseen_in_batches", default=False)
"""Within :func:`_in_batches`: each run is one batch."""


def _in_batches(seen: SeenPool, samples: int, policy: FastPolicy, gen: np.random.Generator,
                tremble: float | None, candidates: int) -> Odds | None:
    """``samples`` worlds as batches of about :data:`PLACE_WORLDS` (each at
    least that many), sharing their proposals (:func:`shared_proposals`),
    combined as the odds shown in play are (:func:`rollem.odds.play.combine`:
    the mean weighted by worlds, the error checked against the batches'
    spread; issue 33). ``None`` where a batch is."""
    from rollem.odds.play import combine

    n = max(1, samples // PLACE_WORLDS)
    runs: list[Odds] = []
    token = _IN_BATCHES.set(True)
    try:
        with shared_proposals() if _SHARED.get() is None else nullcontext():
            for i in range(n):
                odds = ryo_seen_look(seen, samples=samples // n + (i < samples % n),
                                     policy=policy, seed=int(gen.integers(1 << 31)),
                                     tremble=tremble, candidates=candidates)
                if odds is None:
                    return None
                runs.append(odds)
    finally:
        _IN_BATCHES.reset(token)
    return combine(runs)


@contextmanager
def part_of_batch(part: float) -> Iterator[None]:
    """Runs of :func:`ryo_seen_look` inside draw at least ``part`` (0..1]
    of :data:`MIN_WORLDS` worlds: a last batch sized to what is left of the
    CPU budget (:func:`rollem.odds.play.play_odds`; issue 33)."""
    token = _PART.set(part)
    try:
        yield
    finally:
        _PART.reset(token)


@contextmanager
def shared_proposals(clock: Callable[[], float] | None = None,
                     deadline: float | None = None) -> Iterator[None]:
    """Runs of :func:`ryo_seen_look` inside share their proposals: the
    pilot run and the guides are made by the first run of a view and used
    as they are by the later ones (batches of the same question,
    :func:`rollem.odds.play.play_odds`; issue 33). Each run stays exact
    (its weights undo whatever fixed proposal it draws from) and the runs
    are independent given the proposal; only the first pays for it.

    ``clock`` (seconds, e.g. ``time.thread_time``): where given, the time
    spent making the proposals is counted (:func:`setup_seconds`), so that
    a caller sizing its batches to a budget can tell the first batch's own
    cost from the set-up's.

    ``deadline`` (a time of ``clock``, with it): where a run's weights
    collapse, its retry is sized to the time left before it, or not made
    (:func:`retry_worlds`; issue 33, branch s50-ryo: the retry took runs at
    6 players after the wild card to 1.27 s of a 1 s budget)."""
    shared: dict[Any, Any] = {} if clock is None else {_CLOCK: clock}
    if clock is not None and deadline is not None:
        shared[_DEADLINE] = deadline
    token = _SHARED.set(shared)
    try:
        yield
    finally:
        _SHARED.reset(token)


def setup_seconds() -> float:
    """Within :func:`shared_proposals` with a clock: the clock time spent so
    far making proposals (the pilot run, the guides, the exposes' table;
    issue 33: at 6 players 0.05 to 0.2 s of a first batch's 0.3 to 0.6 s of
    CPU). 0.0 elsewhere."""
    shared = _SHARED.get()
    return float(shared.get(_SETUP, 0.0)) if shared is not None else 0.0


def _forward(seen: SeenPool, unseen: Ints, samples: int, policy: FastPolicy, tremble: float,
             gen: np.random.Generator) -> Odds:
    """Before any expose or draw is seen (the seat's first expose): nothing
    of the opponents is seen but that each kept three by the policy, so the
    worlds are drawn forwards, exactly: each opponent's six from the unseen
    cards, its keep by the policy (ties at random; any three with chance
    ``tremble``), its three others into the pool; then the draws and the
    wild card from the shuffled pool. Every world has weight 1."""
    from rollem.odds.common import shares, summarise
    from rollem.odds.look521 import _pick
    from rollem.odds.policy import TRIPLES

    s = samples
    m = len(seen.opponents)
    avail = np.zeros((s, 52), dtype=bool)
    avail[:, unseen] = True
    six = _pick(gen, avail, 6 * m).reshape(s * m, 6)
    score = policy.keep_scores(six)
    best = score == score.max(axis=1, keepdims=True)
    keep = np.where(best, gen.random(score.shape), -1.0).argmax(axis=1)
    keep = np.where(gen.random(s * m) < tremble, gen.integers(0, 20, s * m), keep)
    others = np.asarray([[i for i in range(6) if i not in t] for t in TRIPLES])
    kept = np.take_along_axis(six, TRIPLES[keep], axis=1).reshape(s, m, 3)
    thrown = np.take_along_axis(six, others[keep], axis=1).reshape(s, 3 * m)
    pool = np.concatenate([np.broadcast_to(np.asarray(seen.discards), (s, 3)), thrown], axis=1)
    pool = np.take_along_axis(pool, np.argsort(gen.random(pool.shape), axis=1), axis=1)
    live = [j for j, o in enumerate(seen.opponents) if o.live]
    need = 5 - len(seen.mine)
    mine = np.concatenate([np.broadcast_to(np.asarray(seen.mine), (s, len(seen.mine))),
                           pool[:, :need]], axis=1)
    at = need
    hands = [mine]
    for j in live:
        hands.append(np.concatenate([kept[:, j], pool[:, at:at + 2]], axis=1))
        at += 2
    stack = np.stack(hands, axis=1)
    turned = pool[:, at]
    opts = {"wild_duplicates": seen.wild_duplicates,
            "natural_beats_wild": seen.natural_beats_wild}
    values = np.zeros(stack.shape[:2], dtype=np.int64)
    ranks = turned >> 2
    for r in np.unique(ranks):
        rows = ranks == r
        values[rows] = wild5(stack[rows], [int(r)], **opts)
    share = shares(values[:, 0], values[:, 1:])
    base = values[:, 0] >> 1 if seen.natural_beats_wild else values[:, 0]
    cats = np.bincount(base >> 20, minlength=10) / s
    categories = {Category(i).label: float(cats[i]) for i in range(9, -1, -1) if cats[i] > 0}
    return summarise(share, "monte-carlo", "rollyourown", categories=categories,
                     model=MODEL_FORWARD.format(policy=policy.name))


MODEL_FORWARD = ("look-ahead: every other player dealt in kept three of six by the {policy} "
                 "policy (drawn forwards: nothing else of theirs seen yet); draws and the wild "
                 "card from the pool")
