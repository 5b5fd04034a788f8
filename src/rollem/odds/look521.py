"""5-2-1 Roll 'Em odds that look ahead, and advice for each choice (issue 16).

The model, from one seat's view (R-521-1..R-521-9):

- **Worlds.** Each opponent still in holds its up cards and hidden cards
  drawn from the cards the seat cannot see (not its own cards or discards,
  not a face-up card; its own discards come back only after a reshuffle,
  R-521-5). The draws it was seen to make condition its hand: before any
  card is rolled, each opponent's history is sampled forwards (five dealt
  cards, the policy's draws) and weighted by the chance that the policy
  throws as many cards as it was seen to throw in each draw. Once cards
  are rolled, its hidden cards are weighted by the chance that the
  policy's stacking shows its up cards in the order they were rolled (its
  draws are then no longer read), and a revealed declaration against the
  policy's declare. The policy is taken to err at each kind of choice with
  its own chance (then any choice is equally likely): :data:`TREMBLE_DRAW`
  (how many cards a draw throws), :data:`TREMBLE_THROW` (which cards, as
  many as the policy's), :data:`TREMBLE_STACK` (the order the up cards
  were rolled in, by how many are up) and :data:`TREMBLE_DECLARE`,
  measured from how our computer players (``basic``, ``strong``) differ
  from the policy (issue 33, branch s65-model: with 2% everywhere the
  odds were overconfident against them). The opponent the
  policy explains least often (a pilot's estimate) is read first and drawn
  exactly by rejection (:func:`_accepted`; issue 33); for each other one
  several candidate histories are drawn per world (more the rarer its
  choices, :func:`_plan`), one kept in proportion to its weight (the
  world's weight is their mean weight; the rarely explained ones whose
  draws are read take theirs from one pool shared by the worlds,
  :func:`_pooled`); answers are weighted means.
  Histories use distinct cards unless the unseen cards are too few for
  them all (a reshuffle dealt discards again, eight or more players): then
  only the hands are kept apart (one opponent's discards may be in
  another's hand), and an opponent for whose history too few cards are
  left is given its current hand alone (its draws not read).
- **Look-ahead.** Every player still in (the seat included) makes the
  draws, stacking and declare still to come by the policy
  (:mod:`rollem.odds.policy`); replacement cards come from the unseen
  cards no hand holds (each player's own, so the seat's options share
  their worlds). No one folds; no betting is simulated, so the order of
  the four cards shown first changes nothing: a stacking option is the
  card kept down. When the stub is too short for every draw to come
  (eight or more players), its cards go to the first draws (the first
  draw's before the second's, the players in a random order per world)
  and the rest stand for a reshuffle of the discards (R-521-5): for each
  player, distinct cards it neither holds nor discarded (for an opponent,
  nor the seat's cards), not from the stub, drawn uniformly
  (:func:`_replacements`). No hand ever holds a card twice; two players'
  replacement cards may coincide (the discards a reshuffle would hold are
  not simulated).
- **Settlement** is R-521-9 for one pot (side pots ignored).
- **Racing.** Each option of the seat's choice is first played in the
  first quarter of the worlds; one more than :data:`RACE_Z` standard
  errors behind the best so far stops there (:func:`_race`), the others
  are played in every world. The seat's policy choices are asked once per
  distinct set of cards (its kept cards repeat in every world), or for
  every row of a policy that reads them from tables (``by_table``).

:func:`r521_look` answers for the seat's current decision: the equity of
each option (with its standard error) and, when the seat is not choosing,
of the policy's play.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from math import comb, factorial
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from rollem.cards import CARDS
from rollem.odds.common import Floats, Ints, np_rng
from rollem.odds.evaluate import high5, low5
from rollem.odds.policy import FAST, Policy
from rollem.odds.r521 import SIDES, best_declaration, settle
from rollem.odds.result import OddsError

if TYPE_CHECKING:
    from rollem.odds.view import ViewInfo

__all__ = ["TREMBLE", "TREMBLE_DECLARE", "TREMBLE_DRAW", "TREMBLE_STACK", "TREMBLE_THROW",
           "Look521", "Option521", "Seat521", "State521", "r521_look", "state_of"]

Bools = npt.NDArray[np.bool_]

TREMBLE = 0.02
"""The chance a player is taken not to follow the policy at a choice (then
every option is equally likely); keeps worlds alive when a player plays
differently. Roll Your Own's reading (:mod:`rollem.odds.ryoseen`) uses it;
5-2-1 has its own per kind of choice (below)."""

TREMBLE_DRAW = (0.3, 0.3)
"""5-2-1: the chance an opponent's first and second draw throws a number of
cards other than the policy's (then every set of at most two, one cards is
equally likely, R-521-2, R-521-4). Fitted to a table of one third each
policy players, ``basic`` and ``strong`` bots (docs/dev/odds-precision.md,
branch s65-model; the bots agree with the policy's count 95% and 55% of the
time at the first draw, 100% and 59% at the second)."""
TREMBLE_THROW = 0.25
"""5-2-1: where an opponent threw as many cards as the policy would, the
chance it threw other cards (then any as many are equally likely)."""
TREMBLE_STACK = (0.27, 0.36, 0.43, 0.47)
"""5-2-1: the chance an opponent with 1, 2, 3, 4 cards up is taken to have
stacked otherwise than the policy (then every order is equally likely,
R-521-6)."""
TREMBLE_DECLARE = 0.065
"""5-2-1: the chance a revealed declaration is taken to be other than the
policy's (then each of the three is equally likely, R-521-8)."""

CANDIDATES = 4
"""Candidate histories drawn per opponent and world."""

@dataclass
class Seat521:
    """One opponent still in, as the seat saw it."""

    seat: int
    up: list[int]  # up cards in roll order
    drew: list[int | None]  # cards thrown in the first and second draw (None: to come)
    stacked: bool
    declared: int | None


@dataclass
class State521:
    """The seat's knowledge at one point of a 5-2-1 hand."""

    mine: list[int]
    drew: list[int | None]  # the seat's own draws (count thrown), None: to come
    stacked: bool  # the seat's order is fixed (then ``mine`` is in that order)
    declared: int | None
    opponents: list[Seat521]
    unseen: list[int]  # cards that may be in opponents' hidden cards and the stub
    decision: str | None  # the seat's own choice now: "draw1", "draw2", "stack", "declare"
    failed_both_rule: str = "carry"
    discards: list[int] = field(default_factory=list)  # the seat's own discards (R-521-5)


@dataclass
class Option521:
    """One option of the seat's current choice and its look-ahead answer."""

    label: str
    cards: list[str]
    equity: float
    stderr: float
    high_half: float
    low_half: float
    whole_pot: float
    policy: bool = False
    samples: int | None = None  # worlds played, when fewer than all (see _race)


@dataclass
class Look521:
    """The look-ahead answer (see :func:`r521_look`)."""

    equity: float
    stderr: float
    whole: float
    share: float
    nothing: float
    high_half: float
    low_half: float
    best_high: float
    best_low: float
    best_both: float
    declare: dict[str, float]
    samples: int
    effective: float
    options: list[Option521] = field(default_factory=list)
    decision: str | None = None


def state_of(info: ViewInfo) -> State521:
    """Read the 5-2-1 state from a seat's view.

    Raises:
        OddsError: the seat does not hold five cards.
    """
    from rollem.cards import parse_card

    seat = info.seat
    if len(info.mine) != 5:
        raise OddsError(f"seat {seat} holds {len(info.mine)} cards: expected five")
    live = {o.seat for o in info.opponents}
    drew: dict[int, list[int | None]] = {s: [None, None] for s in live | {seat}}
    rolled: dict[int, list[int]] = {s: [] for s in live}
    stacked: set[int] = set()
    rnd = -1
    own_choice: dict[str, str] = {}
    for e in info.events:
        kind, who = e.get("kind"), e.get("seat")
        if kind == "draw_round":
            rnd += 1
        elif kind == "draw" and who in drew and 0 <= rnd < 2:
            drew[who][rnd] = int(e.get("count", len(e.get("cards", []))))
        elif kind == "roll" and who in rolled and e.get("card"):
            rolled[who].append(int(parse_card(e["card"])))
        elif kind == "stacked" and who is not None:
            stacked.add(int(who))
        elif kind == "chose" and who == seat and e.get("action"):
            own_choice[str(e.get("step"))] = str(e["action"])
    decision = None
    if info.pending is not None and info.seat is not None:
        pend = info.pending
        if pend == "draw" and seat_pending(info):
            decision = "draw1" if rnd <= 0 else "draw2"
        elif pend in ("stack", "declare") and seat_pending(info):
            decision = pend
    # draws not yet made this round (or rounds to come) stay None
    opponents = []
    seen = set(info.mine) | set(info.seen_out)
    for o in info.opponents:
        up = rolled.get(o.seat) or list(o.up)
        if o.known is not None and len(o.known) == 5:
            up = list(o.known)
        seen.update(up)
        side = info.declared.get(o.seat)
        opponents.append(Seat521(seat=o.seat, up=up, drew=drew[o.seat],
                                 stacked=o.seat in stacked or bool(up),
                                 declared=SIDES.index(side) if side else None))
    if not info.reshuffled:
        seen.update(info.my_discards)
    own_side = info.declared.get(seat)
    if own_side is None and "declare" in own_choice:
        own_side = own_choice["declare"].split()[-1]
    mine = list(info.mine)
    if "stack" in own_choice and seat not in stacked:  # chosen, not yet revealed
        order = [int(parse_card(t)) for t in own_choice["stack"].split()[1:]]
        if sorted(order) == sorted(mine):
            mine = order
    return State521(
        mine=mine, drew=drew[seat], stacked=seat in stacked or "stack" in own_choice,
        declared=SIDES.index(own_side) if own_side in SIDES else None,
        opponents=opponents, unseen=[c for c in range(52) if c not in seen],
        decision=decision, failed_both_rule=str(info.options.get("failed_both_rule", "carry")),
        discards=list(info.my_discards))


def seat_pending(info: ViewInfo) -> bool:
    """The seat is asked to choose now."""
    return info.pending is not None and info.seat in info.to_act


# ---------------------------------------------------------------- sampling


def _pick(gen: np.random.Generator, avail: Bools, m: int, same: bool = False,
          reps: int = 1) -> Ints:
    """``m`` distinct cards per row among ``avail`` ``(N, 52)``, uniformly, in
    random order: ``(N, m)`` (a partial Fisher-Yates shuffle per row). With
    ``same`` every row is taken to be ``avail[0]`` (``avail`` may be a
    broadcast view): the same cards from the same random numbers, without
    reading ``N`` rows (issue 33: the rejection's tens of thousands of
    candidates). ``reps``: each row of ``avail`` stands for ``reps`` rows in
    a row (``(N * reps, m)``; the cards of each read once)."""
    n = len(avail) * reps
    if m == 0:
        return np.zeros((n, 0), dtype=np.int64)
    if same and n:
        one = np.flatnonzero(avail[0])
        if m > len(one):
            raise OddsError(f"{m} unknown cards are needed but only {len(one)} are left")
        if m <= FEW:
            return np.asarray(one[_shuffled_places(gen, n, len(one), m)], dtype=np.int64)
        return _shuffled(gen, np.broadcast_to(one.astype(np.int8), (n, len(one))).copy(), m)
    from rollem.odds import compiled

    listed = None  # (each row's cards, listed compiled where the kernels are in use)
    if n and compiled.use():  # (one pass, the same cards; branch s72-speed)
        listed = compiled.row_cards(avail)
        size = -1 if listed is None else listed.shape[1]
        unequal = listed is None
    else:
        counts = avail.sum(axis=1)
        size = int(counts[0]) if n else 0
        unequal = n == 0 or bool((counts != size).any())
    if unequal:  # rows of unequal sizes: sort random keys
        if reps > 1:
            avail = np.repeat(avail, reps, axis=0)
        keys = gen.random((n, 52))
        keys[~avail] = 2.0
        return np.asarray(np.argsort(keys, axis=1)[:, :m], dtype=np.int64)
    if m > size:
        raise OddsError(f"{m} unknown cards are needed but only {size} are left")
    cards = (listed if listed is not None
             else np.nonzero(avail)[1].reshape(len(avail), size).astype(np.int8))
    if m <= FEW:
        at = _shuffled_places(gen, n, size, m)
        row = np.repeat(np.arange(len(avail)), reps)[:, None] if reps > 1 else \
            np.arange(n)[:, None]
        return np.asarray(cards[row, at], dtype=np.int64)
    return _shuffled(gen, np.repeat(cards, reps, axis=0) if reps > 1 else cards, m)


FEW = 8
"""Up to this many cards per row :func:`_pick` finds where a row's shuffle
leaves its first cards (:func:`_shuffled_places`) instead of shuffling a
copy of every row (issue 33: tens of thousands of candidate histories a
batch, each of five to eight cards of some forty)."""


def _shuffled_places(gen: np.random.Generator, n: int, size: int, m: int) -> Ints:
    """Where :func:`_shuffled` of ``n`` rows of ``size`` cards takes each of
    its first ``m`` cards from (places in the row, ``(n, m)``), from the same
    random numbers, without moving cards: step ``i`` takes the card at place
    ``j = i + u (size - i)``, which is the card of place ``j`` unless an
    earlier step took from ``j`` too (then the card that step left there:
    the one it found at its own place)."""
    u = gen.random((m, n))  # the numbers of m calls of ``gen.random(n)``, in order
    steps = np.arange(m)
    took = (u * (size - steps)[:, None]).astype(np.int64) + steps[:, None]
    took = took.astype(np.int8)  # the place step i swapped with (j)
    found = np.empty((m, n), dtype=np.int8)  # the card step i found at its place i
    out = np.empty((m, n), dtype=np.int8)
    for i in range(m):
        here = np.full(n, i, dtype=np.int8)
        got = took[i].copy()
        for k in range(i):  # later steps' moves overwrite earlier ones
            np.copyto(here, found[k], where=took[k] == i)
            np.copyto(got, found[k], where=took[k] == took[i])
        found[i] = here
        out[i] = got
    return np.ascontiguousarray(out.T, dtype=np.int64)


def _shuffled(gen: np.random.Generator, cards: npt.NDArray[Any], m: int) -> Ints:
    """The first ``m`` columns of each row of ``cards`` ``(N, size)`` after a
    partial Fisher-Yates shuffle (in place)."""
    n, size = cards.shape
    rows = np.arange(n)
    for i in range(m):
        j = i + (gen.random(n) * (size - i)).astype(np.int64)
        ci = cards[:, i].copy()
        cards[:, i] = cards[rows, j]
        cards[rows, j] = ci
    return np.asarray(cards[:, :m], dtype=np.int64)


def _sample_opponent(gen: np.random.Generator, policy: Policy, opp: Seat521, avail: Bools,
                     reps: int, same: bool = False) -> tuple[Ints, Floats, Ints]:
    """Candidate histories for one opponent in each world: ``(hand (S, 5),
    weight (S,), used cards (S, m))``; ``hand`` holds the up cards first.

    Before any card is rolled the history runs forwards (a dealt hand, the
    policy's draws, weighted by the chance of throwing as many cards as were
    seen); once cards are up, the hidden cards are weighted by the policy's
    stacking only (see the module doc). ``same``: every row of ``avail`` is
    its first (see :func:`_pick`)."""
    s = len(avail)
    hand, lik, picks, later = _histories(gen, policy, opp, avail, reps, same)
    grid = lik.reshape(s, reps)
    total = grid.sum(axis=1)
    cum = np.cumsum(grid, axis=1)
    u = gen.random(s) * total
    choice = np.minimum((cum < u[:, None]).sum(axis=1), reps - 1)
    sel = np.arange(s) * reps + choice
    kept, used = _kept(policy, opp, hand, picks, later, sel)
    return kept, total / reps, used


_Later = tuple[Bools, npt.NDArray[np.float64], Ints]


def _histories(gen: np.random.Generator, policy: Policy, opp: Seat521, avail: Bools,
               reps: int, same: bool = False) -> tuple[Ints, Floats, Ints, _Later | None]:
    """``reps`` candidate histories of ``opp`` per row of ``avail`` ``(S,
    52)`` (see :func:`_sample_opponent`), before one is kept: ``(hand (S
    reps, 5), likelihood (S reps,), picks (S reps, m), later)``; ``later``
    (or ``None``) is what :func:`_kept` needs to make the last draw for the
    kept candidates alone (its match, the tremble's keys, the replacement
    cards)."""
    s = len(avail)
    k = len(opp.up)
    k1 = opp.drew[0] if opp.drew[0] is not None else 0
    k2 = opp.drew[1] if opp.drew[1] is not None else 0
    n = s * reps
    rows, per = (np.broadcast_to(avail[:1], (n, 52)), 1) if same else (avail, reps)
    lik = np.ones(n)
    later: tuple[Bools, npt.NDArray[np.float64], Ints] | None = None
    counting = getattr(policy, "draw_count", None)
    if k == 0:
        picks = _pick(gen, rows, 5 + k1 + k2, same, per)
        hand = picks[:, :5]
        at = 5
        for rnd, most in ((0, 2), (1, 1)):
            count = opp.drew[rnd]
            if count is None:
                continue
            # no later draw reads the hand after this one: it is made for
            # the kept candidates alone (issue 33), from the same numbers
            last = rnd == 1 or opp.drew[1] is None
            if last and counting is not None:
                match = counting(hand, most) == count
            else:
                throw = policy.draw(hand, most)
                match = throw.sum(axis=1) == count
            t = TREMBLE_DRAW[rnd]
            alt = t * comb(5, count) / sum(comb(5, j) for j in range(most + 1))
            lik *= (1 - t) * match + alt
            if count:  # a tremble throws ``count`` cards at random
                keys = gen.random((n, 5))  # for :func:`_alt_throw`
                # the policy's count may still be a tremble's, or other cards
                stray = 1 - (1 - alt / ((1 - t) + alt)) * (1 - TREMBLE_THROW)
                own = match & (gen.random(n) >= stray)
                if last:
                    later = own, keys, picks[:, at:at + count]
                else:
                    throw = np.where(own[:, None], throw, _alt_throw(keys, count))
                    hand = _apply_draw(hand, throw, picks[:, at:at + count])
            at += count
    else:
        h = 5 - k
        picks = _pick(gen, rows, h, same, per)
        up = np.broadcast_to(np.asarray(opp.up, dtype=np.int64), (n, k))
        hand = np.concatenate([up, picks[:, :h]], axis=1)
        order = policy.stack(hand)
        match = (order[:, :k] == np.arange(k)[None, :]).all(axis=1)
        t = TREMBLE_STACK[min(k, 4) - 1]
        lik *= (1 - t) * match + t * factorial(5 - k) / 120
    return hand, lik, picks, later


def _kept(policy: Policy, opp: Seat521, hand: Ints, picks: Ints, later: _Later | None,
          sel: Ints) -> tuple[Ints, Ints]:
    """The kept candidates ``sel`` of :func:`_histories`: ``(hand (S, 5),
    used cards (S, m))``, the last draw made for them alone."""
    if later is not None:
        match, keys, slot = later[0][sel], later[1][sel], later[2][sel]
        kept = hand[sel]
        throw = np.where(match[:, None], policy.draw(kept, 1 if opp.drew[1] is not None else 2),
                         _alt_throw(keys, slot.shape[1]))
        return _apply_draw(kept, throw, slot), picks[sel]
    return hand[sel], picks[sel]


POOL_FROM = 32
"""An opponent whose draws are read (no card up yet) and who is given at
least this many candidates a world (:func:`_plan`) is read from a shared
pool of candidates instead (:func:`_pooled`). Opponents read from their up
cards keep their own candidates: there the weights' noise was not what
cost effective worlds (6 players, first card up: 42% effective of 8,600
worlds a run before, 64% of 5,500 with a pool, the same 3,500 effective for
the same CPU; branch s51-521)."""
POOL_SIZE = 32
"""Candidates in the pool per world (:func:`_pooled`): 64 (as many as the
opponent's own candidates were) cost twice the CPU for the same effective
worlds (6 players, second draw: 0.70 to 0.80 s a run against 0.41 to 0.47
s, about 3,800 effective of 5,000 worlds either way; branch s51-521)."""
POOL_READ = 128
"""Candidates of the pool's likely part (every observed choice the
policy's) each world reads (:func:`_pooled`)."""
POOL_READ_REST = 32
"""Candidates of the pool's other part each world reads."""


def _pooled(gen: np.random.Generator, policy: Policy, opp: Seat521, avail: Bools,
            base: Bools, size: int) -> tuple[Ints, Floats, Ints]:
    """:func:`_sample_opponent` from one pool of ``size`` candidate histories
    shared by every world (issue 33: at 6 players the second draw's rarely
    explained opponents read 64 fresh candidates a world, and their weights'
    noise left under half the worlds effective).

    The pool is dealt from ``base`` ``(52,)``, the unseen cards before any
    opponent was read; world ``w`` may use only the cards of ``avail[w]``
    ``(S, 52)`` (a subset of ``base``: the opponents read before took the
    rest, ``t`` cards). A pool candidate is uniform on ``base``; among those
    that miss the ``t`` cards it is uniform on ``avail[w]``, and it misses
    them with chance ``p_ok = prod_i (u - t - i) / (u - i)`` over its ``m``
    cards (``u`` the size of ``base``). So a candidate's importance weight
    for world ``w`` is its likelihood times ``1[it misses them] / p_ok``,
    whose mean is the world's weight in :func:`_sample_opponent` (the
    chance the opponent's observed choices have given ``avail[w]``).

    Each world reads :data:`POOL_READ` candidates drawn (with replacement)
    from the pool's likely part (likelihood at least half the greatest) and
    :data:`POOL_READ_REST` from the rest, each weighted by its part's size
    over the number read (so the sum over the read candidates is an
    unbiased estimate of the sum over the pool); the world's weight is that
    sum over ``size``, and it keeps one read candidate in proportion to its
    term. Every read candidate has the law of a pool candidate, so the kept
    history and the weight are exact in law as in :func:`_sample_opponent`
    (the weight times any function of the kept history has the expectation
    of the target's). Worlds share the pool's candidates: their histories
    may coincide (a pool of 32 candidates a world holds some 1,600 likely
    ones against 1,000 worlds). A world none of whose read candidates miss
    its taken cards gets weight 0 (and a history from its own cards).
    Returns ``(hand (S, 5), weight (S,), used (S, m))``."""
    s = len(avail)
    hand, lik, picks, later = _histories(gen, policy, opp, np.broadcast_to(base, (size, 52)),
                                         1, same=True)
    m = picks.shape[1]
    masks = (np.int64(1) << picks).sum(axis=1)  # distinct cards: the sum is the union
    gone = base[None, :] & ~avail
    taken = (gone * (np.int64(1) << np.arange(52, dtype=np.int64))).sum(axis=1)
    t = gone.sum(axis=1)
    u = int(base.sum())
    steps = np.arange(m)
    p_ok = np.prod((u - t[:, None] - steps) / (u - steps), axis=1)
    likely = lik >= 0.5 * _max_lik(opp)
    cols, scale = [], []
    for part, read in ((np.flatnonzero(likely), POOL_READ),
                       (np.flatnonzero(~likely), POOL_READ_REST)):
        if len(part):
            cols.append(part[gen.integers(0, len(part), (s, read))])
            scale.append(np.full(read, len(part) / read))
    idx = np.concatenate(cols, axis=1)
    terms = lik[idx] * np.concatenate(scale)[None, :] * ((masks[idx] & taken[:, None]) == 0)
    total = terms.sum(axis=1)
    cum = np.cumsum(terms, axis=1)
    r = gen.random(s) * total
    choice = np.minimum((cum < r[:, None]).sum(axis=1), idx.shape[1] - 1)
    sel = idx[np.arange(s), choice]
    kept, used = _kept(policy, opp, hand, picks, later, sel)
    weight = np.where(total > 0, total / np.maximum(p_ok, 1e-300), 0.0) / size
    bad = np.flatnonzero(total <= 0)
    if len(bad):  # no read candidate fits: weight 0, any history from its cards
        h, _, us = _sample_opponent(gen, policy, opp, avail[bad], 1)
        kept[bad], used[bad] = h, us
    return kept, weight, used


def _alt_throw(keys: npt.NDArray[np.float64], count: int) -> Bools:
    """A tremble's throw: ``count`` of five places per row at random, from
    the uniform numbers ``keys`` ``(n, 5)``: the ``count`` places of smallest numbers."""
    alt = np.zeros(keys.shape, dtype=bool)
    np.put_along_axis(alt, np.argsort(keys, axis=1)[:, :count], True, axis=1)
    return alt


@dataclass
class _World:
    weight: Floats
    opp_hands: list[Ints]  # per opponent (S, 5) current hands, up first
    slots: Ints  # (S, 3 * players) replacement cards, the seat's first
    n: int


def _sample_worlds(state: State521, policy: Policy, samples: int,
                   gen: np.random.Generator) -> _World:
    s = samples
    avail = np.zeros((s, 52), dtype=bool)
    avail[:, state.unseen] = True
    weight = np.ones(s)
    hands = []
    rows = np.arange(s)[:, None]
    mine = np.zeros((s, 52), dtype=bool)
    mine[:, state.mine] = True
    seat_held = mine.copy()
    seat_held[:, state.discards] = True
    held = [seat_held]  # per player: the cards it holds or discarded
    # every opponent's whole history from distinct cards, unless a reshuffle
    # (R-521-5) dealt discards again: then one opponent's thrown cards may be
    # in another's hand, and only the hands are kept apart
    apart = sum(_history_cards(o) for o in state.opponents) <= len(state.unseen)
    n_opp = len(state.opponents)
    order, reps, acc = list(range(n_opp)), [CANDIDATES] * n_opp, [0.0] * n_opp
    if apart and s > 0:
        order, reps, acc = _plan(gen, policy, state, avail[0])
    got: dict[int, tuple[Ints, Ints]] = {}
    base = avail[0].copy() if s > 0 else np.zeros(52, dtype=bool)
    for at, j in enumerate(order):
        opp = state.opponents[j]
        left = int(avail[0].sum())
        if left < 5 - len(opp.up):
            raise OddsError("too few unseen cards for the opponents' hands")
        if left >= _history_cards(opp):
            first = _accepted(gen, policy, opp, avail[0], s, acc[j]) if at == 0 else None
            if first is not None:  # exact draws from its posterior: one weight for all
                hand, used = first
                w = np.ones(s)
            elif reps[j] >= POOL_FROM and not opp.up:
                hand, w, used = _pooled(gen, policy, opp, avail, base, POOL_SIZE * s)
            else:
                hand, w, used = _sample_opponent(gen, policy, opp, avail, reps[j])
        else:  # its current hand alone, its draws not read
            hand = _pick(gen, avail, 5)
            w, used = np.ones(s), hand
        weight *= w
        np.put_along_axis(avail, used if apart else hand, False, axis=1)
        got[j] = hand, used
    for j in range(len(state.opponents)):
        hand, used = got[j]
        hands.append(hand)
        own = mine.copy()
        own[rows, hand] = True
        own[rows, used] = True
        held.append(own)
    players = 1 + len(state.opponents)
    need = 3 * players
    if int(avail[0].sum()) >= need:
        slots = _pick(gen, avail, need)
    else:
        to_come = [state.drew] + [[d if o.up == [] else 0 for d in o.drew]
                                  for o in state.opponents]
        slots = _replacements(gen, avail, held, to_come)
    return _World(weight=weight, opp_hands=hands, slots=slots, n=s)


PILOT = 1000
"""Candidate histories per opponent in the pilot that estimates how often
the policy explains what the opponent was seen to do (:func:`_plan`)."""
REPS_FACTOR = 16.0
"""An opponent whose pilot acceptance is ``p`` gets ``REPS_FACTOR (1 - p) /
p`` candidates per world (at least :data:`CANDIDATES`, at most
:data:`MAX_CANDIDATES`): the relative variance of its weight (the mean of its
candidates' likelihoods) is about ``(1 - p) / (reps p)``, so its share of
the effective worlds about ``1 / (1 + 1 / REPS_FACTOR)`` (16: about 94%;
issue 33, ninth pass: 4 left the 6-player first draw 68% effective, and a
candidate is cheap next to a world's play-out)."""
MAX_CANDIDATES = 64
REJECT_MIN = 0.005
"""The opponent read first is drawn by rejection when its pilot acceptance
is at least this (else as the others)."""
REJECT_ROUNDS = 20


def _max_lik(opp: Seat521) -> float:
    """The greatest likelihood :func:`_sample_opponent` gives a candidate of
    ``opp`` (every observed choice the policy's)."""
    if opp.up:
        t = TREMBLE_STACK[min(len(opp.up), 4) - 1]
        return (1 - t) + t * factorial(5 - len(opp.up)) / 120
    top = 1.0
    for rnd, most in ((0, 2), (1, 1)):
        count = opp.drew[rnd]
        if count is not None:
            options = sum(comb(5, j) for j in range(most + 1))
            t = TREMBLE_DRAW[rnd]
            top *= (1 - t) + t * comb(5, count) / options
    return top


def _observed(opp: Seat521) -> bool:
    """Its history weights its hand (it drew or showed up cards)."""
    return bool(opp.up) or any(d is not None for d in opp.drew)


def _plan(gen: np.random.Generator, policy: Policy, state: State521, avail: Bools
          ) -> tuple[list[int], list[int], list[float]]:
    """The order to read the opponents in (the least likely to be explained
    by the policy first: it is drawn exactly, by :func:`_accepted`) and each
    one's candidates per world, from a pilot of :data:`PILOT` candidates on
    the unseen cards ``avail`` ``(52,)`` (issue 33: at 6 players a seat
    that stood pat in the first draw, which the policy does about 2.5% of
    the time, left 4 candidates a world about a tenth of the worlds
    effective). Any order and any candidate count give the same
    distribution; only the weights' spread changes. Returns the order,
    the candidates per opponent and the pilot's acceptance per opponent (its
    mean likelihood over :func:`_max_lik`; 1 for one whose history is not
    read: its one candidate is as good as several)."""
    n = len(state.opponents)
    acc = [1.0] * n
    rows = np.broadcast_to(avail, (PILOT, 52))
    for j, opp in enumerate(state.opponents):
        if _observed(opp) and int(avail.sum()) >= _history_cards(opp):
            _, w, _ = _sample_opponent(gen, policy, opp, rows, 1, same=True)
            acc[j] = float(w.mean()) / _max_lik(opp)
    order = sorted(range(n), key=lambda j: acc[j])
    reps = [int(min(MAX_CANDIDATES, max(CANDIDATES, np.ceil(
        REPS_FACTOR * (1 - p) / max(p, 1e-9))))) if _observed(o) else 1
        for p, o in zip(acc, state.opponents, strict=True)]
    return order, reps, acc


def _accepted(gen: np.random.Generator, policy: Policy, opp: Seat521, avail: Bools,
              s: int, acc: float) -> tuple[Ints, Ints] | None:
    """``s`` histories of ``opp`` drawn exactly from its posterior given the
    unseen cards ``avail`` ``(52,)`` (the same in every world: it is read
    first), by rejection: candidates drawn as :func:`_sample_opponent`'s,
    each kept with chance its likelihood over :func:`_max_lik`. ``(hand (s,
    5), used (s, m))``, or ``None`` when the pilot's acceptance ``acc`` is
    below :data:`REJECT_MIN` or ``s`` is not filled in
    :data:`REJECT_ROUNDS`."""
    if not _observed(opp) or acc < REJECT_MIN:
        return None
    top = _max_lik(opp)
    hands: list[Ints] = []
    useds: list[Ints] = []
    have = 0
    rate = acc
    for _ in range(REJECT_ROUNDS):
        m = int(min(200_000, np.ceil(1.2 * (s - have) / rate) + 64))
        rows = np.broadcast_to(avail, (m, 52))
        hand, lik, used = _sample_opponent(gen, policy, opp, rows, 1, same=True)
        keep = gen.random(m) * top < lik
        rate = max(float(keep.mean()), REJECT_MIN)
        if keep.any():
            hands.append(hand[keep])
            useds.append(used[keep])
            have += int(keep.sum())
        if have >= s:
            return np.concatenate(hands)[:s], np.concatenate(useds)[:s]
    return None


def _history_cards(opp: Seat521) -> int:
    """The unseen cards :func:`_sample_opponent` draws for ``opp``: its hidden
    cards once cards are up, else its five dealt cards and every
    replacement."""
    if opp.up:
        return 5 - len(opp.up)
    return 5 + sum(d or 0 for d in opp.drew)


def _replacements(gen: np.random.Generator, stub: Bools, held: list[Bools],
                  drew: list[list[int | None]]) -> Ints:
    """Every player's three replacement cards (two for the first draw, one
    for the second; the seat first), ``(S, 3 * players)``, when the stub
    ``stub`` ``(S, 52)`` is too short for them all. The stub's cards, in a
    random order, go to the draws to come (``drew[p][r]`` is None) in
    dealing order: the first draw's before the second's, the players in a
    random order per world. The other cards of player ``p`` stand for a
    reshuffle of the discards (R-521-5): distinct cards outside ``held[p]``
    ``(S, 52)`` (what it holds or discarded) and outside the stub,
    uniformly. So no player is dealt a card twice or a card it holds."""
    s = len(stub)
    players = len(held)
    left = int(stub[0].sum()) if s else 0
    rnd = np.tile([0, 0, 1], players)
    who = np.repeat(np.arange(players), 3)
    come = np.asarray([drew[p][r] is None for p, r in zip(who, rnd, strict=True)])
    rank = np.argsort(gen.random((s, players)), axis=1)  # a random order of the players
    key = np.where(come, rnd, 2)[None, :] * (4 * players) + rank[:, who] * 3 \
        + np.tile([0, 1, 2], players)[None, :]
    order = np.argsort(key, axis=1)[:, :left]
    slots = np.zeros((s, 3 * players), dtype=np.int64)
    from_stub = np.zeros((s, 3 * players), dtype=bool)
    np.put_along_axis(slots, order, _pick(gen, stub, left), axis=1)
    np.put_along_axis(from_stub, order, True, axis=1)
    for p in range(players):
        cols = slice(3 * p, 3 * p + 3)
        fresh = _pick(gen, ~(held[p] | stub), 3)
        slots[:, cols] = np.where(from_stub[:, cols], slots[:, cols], fresh)
    return slots


def _distinct(hands: Ints) -> tuple[Ints, Ints]:
    """The distinct card sets among the rows of ``hands`` ``(S, 5)`` (one row
    each, as first met) and, per row, the index of its set."""
    keys = (np.int64(1) << hands).sum(axis=1)
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    return hands[first], inverse.reshape(-1)


def _throws(policy: Policy, hand: Ints, most: int) -> Bools:
    """``policy.draw(hand, most)``, asked once per distinct set of cards (the
    seat's hands repeat: its kept cards are the same in every world); a
    policy that reads its answers from tables (``by_table``) is asked for
    every row, which is cheaper than finding the distinct sets (issue 33)."""
    if getattr(policy, "by_table", False):
        return policy.draw(hand, most)
    uniq, inv = _distinct(hand)
    if len(uniq) * 2 > len(hand):
        return policy.draw(hand, most)
    thrown = (policy.draw(uniq, most) * (np.int64(1) << uniq)).sum(axis=1)
    return np.asarray((thrown[inv][:, None] >> hand) & 1, dtype=bool)


def _arranged(policy: Policy, hand: Ints) -> Ints:
    """The cards of ``hand`` in the policy's stacking order, asked once per
    distinct set of cards (every row for a ``by_table`` policy, as
    :func:`_throws`)."""
    if getattr(policy, "by_table", False):
        return np.take_along_axis(hand, policy.stack(hand), axis=1)
    uniq, inv = _distinct(hand)
    if len(uniq) * 2 > len(hand):
        return np.take_along_axis(hand, policy.stack(hand), axis=1)
    return np.take_along_axis(uniq, policy.stack(uniq), axis=1)[inv]


def _apply_draw(hand: Ints, throw: Bools, slots: Ints) -> Ints:
    """Replace the thrown cards (left to right) by ``slots`` in order."""
    out = hand.copy()
    k = np.cumsum(throw, axis=1) - 1
    rep = np.take_along_axis(slots, np.clip(k, 0, slots.shape[1] - 1), axis=1)
    return np.where(throw, rep, out)


def _play_opponents(state: State521, policy: Policy, world: _World
                    ) -> tuple[list[Ints], list[Ints], list[Ints]]:
    """Opponents' final hands, their four up cards and their down card."""
    finals, ups, downs = [], [], []
    for j, opp in enumerate(state.opponents):
        hand = world.opp_hands[j]
        base = 3 * (j + 1)
        if not opp.up:
            if opp.drew[0] is None:
                hand = _apply_draw(hand, policy.draw(hand, 2), world.slots[:, base:base + 2])
            if opp.drew[1] is None:
                hand = _apply_draw(hand, policy.draw(hand, 1), world.slots[:, base + 2:base + 3])
        order = policy.stack(hand)
        k = len(opp.up)
        if k:  # up cards first as rolled, the hidden ones in the policy's order
            rank = np.argsort(order, axis=1)  # position of each card in the order
            hidden_rank = rank[:, k:]
            hidden_order = np.argsort(hidden_rank, axis=1) + k
            order = np.concatenate([np.broadcast_to(np.arange(k), (len(hand), k)),
                                    hidden_order], axis=1)
        arranged = np.take_along_axis(hand, order, axis=1)
        finals.append(hand)
        ups.append(arranged[:, :4])
        downs.append(arranged[:, 4])
    return finals, ups, downs


class _Stats:
    """Weighted means and standard errors of per-world values."""

    def __init__(self, weight: Floats) -> None:
        self.w = weight
        self.total = float(weight.sum())
        self.ess = self.total ** 2 / float((weight ** 2).sum()) if self.total > 0 else 0.0

    def mean(self, x: npt.NDArray[Any]) -> float:
        return float((self.w * x).sum() / self.total) if self.total > 0 else 0.0

    def stderr(self, x: npt.NDArray[Any]) -> float:
        if self.total <= 0:
            return 0.0
        mu = self.mean(x)
        return float(np.sqrt((self.w ** 2 * (x - mu) ** 2).sum()) / self.total)


class _Declares:
    """Every player's declare by the policy, with what does not depend on the
    seat's hand computed once (policies with ``factors``/``combine``, like
    :class:`rollem.odds.policy.FastPolicy`; others call ``declare``)."""

    def __init__(self, policy: Policy, finals: list[Ints], ups: list[Ints]) -> None:
        self.policy = policy
        self.finals = finals
        self.ups = ups
        self.high = [high5(f) for f in finals]
        self.low = [low5(f) for f in finals]
        self.fast = hasattr(policy, "factors") and hasattr(policy, "combine")
        self.read = hasattr(policy, "read_up")
        self.reads: list[Any] | None = None
        self.pair: dict[tuple[int, int], Floats] = {}
        self.joint: Any = None  # what _sides_at_once keeps for every option
        if self.fast:
            if self.read:  # each opponent's up cards read once, not once per pair
                self.reads = [policy.read_up(u) for u in ups]  # type: ignore[attr-defined]
            for p, f in enumerate(finals):
                for q, u in enumerate(ups):
                    if p != q:
                        self.pair[p, q] = policy.factors(  # type: ignore[attr-defined]
                            f, u, self.high[p], self.low[p],
                            **({} if self.reads is None else {"read": self.reads[q]}))

    def part(self, rows: slice) -> _Declares:
        """The same for the worlds ``rows`` alone."""
        if self.read and self.reads is None:
            self.reads = [self.policy.read_up(u) for u in self.ups]  # type: ignore[attr-defined]
        sub = object.__new__(_Declares)
        sub.policy = self.policy
        sub.finals = [f[rows] for f in self.finals]
        sub.ups = [u[rows] for u in self.ups]
        sub.high = [h[rows] for h in self.high]
        sub.low = [lo[rows] for lo in self.low]
        sub.fast = self.fast
        sub.read = self.read
        sub.pair = {k: v[rows] for k, v in self.pair.items()}
        sub.joint = None
        sub.reads = None if self.reads is None else [
            tuple(x[:, rows] for x in r) for r in self.reads]
        return sub

    def sides(self, hand: Ints, up: Ints, high: Ints, low: Ints) -> list[Ints]:
        """Declares of the seat (first) and each opponent."""
        n = len(self.finals)
        pol = self.policy
        if not self.fast:
            own = [hand, *self.finals]
            ups = [up, *self.ups]
            return [pol.declare(own[p], np.stack([ups[q] for q in range(n + 1) if q != p],
                                                 axis=1)) for p in range(n + 1)]
        s = len(hand)
        combine = pol.combine  # type: ignore[attr-defined]
        factors = pol.factors  # type: ignore[attr-defined]
        if self.read and getattr(pol, "side_of", None) is not None and n > 0:
            return self._sides_at_once(hand, up, high, low)
        if self.reads is None:
            self.reads = [pol.read_up(u) if self.read else None  # type: ignore[attr-defined]
                          for u in self.ups]
        out = [combine([factors(hand, u, high, low, read=r) if r is not None
                        else factors(hand, u, high, low)
                        for u, r in zip(self.ups, self.reads, strict=True)], s)]
        seat_read = pol.read_up(up) if self.read else None  # type: ignore[attr-defined]
        for p in range(n):
            facts = [self.pair[p, q] for q in range(n) if q != p]
            if seat_read is not None:
                facts.append(factors(self.finals[p], up, self.high[p], self.low[p],
                                     read=seat_read))
            else:
                facts.append(factors(self.finals[p], up, self.high[p], self.low[p]))
            out.append(combine(facts, s))
        return out


    def _sides_at_once(self, hand: Ints, up: Ints, high: Ints, low: Ints) -> list[Ints]:
        """:meth:`sides` for a policy with ``read_up`` and ``side_of``
        (:class:`rollem.odds.policy.FastPolicy`): the seat against every
        opponent in one ``factors`` call, every opponent against the seat in
        another, and each opponent's factors against the others multiplied
        once for all options (issue 33: the seat's options at 6 players
        asked ``factors`` ten times each). The same products in the same
        order as ``combine``, so the same sides."""
        pol: Any = self.policy
        n, s = len(self.finals), len(hand)
        if self.joint is None:
            if self.reads is None:
                self.reads = [pol.read_up(u) for u in self.ups]
            reads = tuple(np.concatenate([r[i] for r in self.reads], axis=1)
                          for i in range(4))
            others = None
            if n > 1:  # opponent p's factors against every other opponent, multiplied
                others = np.empty((n, s, 5))
                for p in range(n):
                    facts = [self.pair[p, q] for q in range(n) if q != p]
                    others[p] = np.prod(np.stack(facts, axis=0), axis=0)
            self.joint = (reads, pol.rank_counts(np.concatenate(self.finals)),
                          np.concatenate(self.high), np.concatenate(self.low), others)
        reads, counts, highs, lows, others = self.joint
        # the seat's ranks counted once and laid side by side for every
        # opponent (the same counts as its hand tiled)
        seat = pol.factors_of_counts(np.tile(pol.rank_counts(hand), (1, n)), np.tile(high, n),
                                     np.tile(low, n), reads).reshape(n, s, 5)
        seat_read = tuple(np.tile(x, (1, n)) for x in pol.read_up(up))
        against = pol.factors_of_counts(counts, highs, lows, seat_read).reshape(n, s, 5)
        prod = against if others is None else others * against
        out = [pol.side_of(np.prod(seat, axis=0))]
        opp = pol.side_of(prod.reshape(n * s, 5)).reshape(n, s)
        return out + list(opp)


def _finish(state: State521, world: _World, decl: _Declares, seat_hand: Ints,
            seat_order: Ints | None, seat_side: int | None, policy: Policy,
            every_side: bool = False) -> dict[str, Floats]:
    """Play the rest from the seat's final hand and settle; per-world arrays."""
    hand = seat_hand
    if seat_order is None:
        my_up = _arranged(policy, hand)[:, :4]
    else:
        my_up = np.take_along_axis(hand, seat_order[:, :4], axis=1)
    h0 = high5(hand)
    l0 = low5(hand)
    sides = decl.sides(hand, my_up, h0, l0)
    weight = np.ones(world.n)
    for j, o in enumerate(state.opponents):
        if o.declared is not None:
            weight *= ((1 - TREMBLE_DECLARE) * (sides[j + 1] == o.declared)
                       + TREMBLE_DECLARE / 3)
            sides[j + 1] = np.full(world.n, o.declared)
    if seat_side is not None:
        sides[0] = np.full(world.n, seat_side)
    high = np.stack([h0, *decl.high], axis=1)
    low = np.stack([l0, *decl.low], axis=1)
    side_arr = np.stack(sides, axis=1)
    share, hi, lo = settle(high, low, side_arr, state.failed_both_rule)
    out: dict[str, Floats] = {"share": share, "hi": hi, "lo": lo, "weight": weight}
    if every_side:
        out["best_hi"] = np.asarray((high[:, :1] > high[:, 1:]).all(axis=1), dtype=np.float64)
        out["best_lo"] = np.asarray((low[:, :1] > low[:, 1:]).all(axis=1), dtype=np.float64)
        out["best_both"] = out["best_hi"] * out["best_lo"]
        for k, name in enumerate(SIDES):
            side_arr[:, 0] = k
            out["decl_" + name] = settle(high, low, side_arr, state.failed_both_rule)[0]
    return out


def _seat_rest(state: State521, policy: Policy, world: _World, hand: Ints,
               from_round: int) -> Ints:
    """The seat's draws from ``from_round`` (0 first, 1 second) by the policy."""
    for rnd, most in ((0, 2), (1, 1)):
        if rnd < from_round or state.drew[rnd] is not None:
            continue
        slot = world.slots[:, 0:2] if rnd == 0 else world.slots[:, 2:3]
        hand = _apply_draw(hand, _throws(policy, hand, most), slot)
    return hand


def _option_result(stats: _Stats, res: dict[str, Floats], label: str, cards: list[str],
                   ) -> Option521:
    w = stats.w * res["weight"]
    st = _Stats(w)
    return Option521(label=label, cards=cards, equity=st.mean(res["share"]),
                     stderr=st.stderr(res["share"]), high_half=st.mean(res["hi"] > 0),
                     low_half=st.mean(res["lo"] > 0), whole_pot=st.mean(res["share"] >= 1.0))


def r521_look(state: State521, *, samples: int = 2000, policy: Policy = FAST,
              seed: int | None = None, rng: random.Random | None = None,
              advice: bool = True) -> Look521:
    """The look-ahead odds of the seat in ``state`` (see the module doc).

    Args:
        state: from :func:`state_of`.
        samples: worlds (with ``advice``, worlds per option; the options
            share their worlds, so their differences are measured closely).
        policy: the choices every player makes in the simulation.
        seed, rng: seed the sampling (``seed`` wins).
        advice: evaluate every option of the seat's current decision.

    Returns:
        :class:`Look521`: the equity of the policy's play (at the declare:
        of the best declaration; once declared: of the declaration made),
        ``declare`` (each declaration's share after the policy's play up to
        it) and, with ``advice``, ``options`` best first.

    Raises:
        OddsError: no opponent, or too few cards.
    """
    if not state.opponents:
        raise OddsError("no opponent: the hand is already won")
    gen = np_rng(rng, seed)
    world = _sample_worlds(state, policy, samples, gen)
    opp = _play_opponents(state, policy, world)
    mine = np.broadcast_to(np.asarray(state.mine, dtype=np.int64), (world.n, 5)).copy()
    decision = state.decision if advice else None
    fixed_order = None
    if state.stacked:
        fixed_order = np.broadcast_to(np.arange(5), (world.n, 5)).copy()
    options: list[Option521] = []

    decl = _Declares(policy, opp[0], opp[1])
    # the policy's own option is the policy's play (below): played once, in
    # every world, with every declaration (issue 33)
    policy_play: dict[str, Floats] = {}

    def policy_run(w: _World, d: _Declares, hand: Ints, order: Ints | None, rows: slice,
                   is_pol: bool) -> dict[str, Floats]:
        whole = is_pol and state.declared is None and rows == slice(0, world.n)
        res = _finish(state, w, d, hand, order, None, policy, every_side=whole)
        if whole:
            policy_play.update(res)
        return res

    def run(hand: Ints, order: Ints | None, side: int | None,
            every_side: bool = False) -> dict[str, Floats]:
        return _finish(state, world, decl, hand, order, side, policy, every_side)

    specs: list[tuple[str, list[str], bool, Any]] = []  # label, cards, policy's, play
    if decision in ("draw1", "draw2"):
        rnd = 0 if decision == "draw1" else 1
        most = 2 if rnd == 0 else 1
        pol = policy.draw(mine[:1], most)[0]

        def drawing(throw: tuple[int, ...], is_pol: bool) -> Any:
            def play(w: _World, d: _Declares, rows: slice) -> dict[str, Floats]:
                mask = np.zeros((w.n, 5), dtype=bool)
                mask[:, list(throw)] = True
                slot = w.slots[:, 0:2] if rnd == 0 else w.slots[:, 2:3]
                hand = _seat_rest(state, policy, w, _apply_draw(mine[rows], mask, slot),
                                  rnd + 1)
                order = fixed_order[rows] if fixed_order is not None else None
                return policy_run(w, d, hand, order, rows, is_pol)
            return play

        for k in range(most + 1):
            for throw in combinations(range(5), k):
                cards = [str(CARDS[state.mine[i]]) for i in throw]
                is_pol = bool(pol[list(throw)].all() and pol.sum() == k)
                specs.append((("throw " + " ".join(cards)) if cards else "stand pat", cards,
                              is_pol, drawing(throw, is_pol)))
    elif decision == "stack":
        pol_order = policy.stack(mine[:1])[0]

        def stacking(order: list[int]) -> Any:
            def play(w: _World, d: _Declares, rows: slice) -> dict[str, Floats]:
                arr = np.broadcast_to(np.asarray(order), (w.n, 5)).copy()
                return policy_run(w, d, mine[rows], arr, rows, order == list(pol_order))
            return play

        for down in range(5):
            rest = [int(i) for i in pol_order if i != down]
            cards = [str(CARDS[state.mine[i]]) for i in (*rest, down)]
            specs.append((f"keep {cards[-1]} down: " + " ".join(cards), cards,
                          int(pol_order[-1]) == down, stacking([*rest, down])))
    for (label, cards, is_pol, _), (res, rows) in zip(specs, _race(world, decl, specs),
                                                       strict=True):
        opt = _option_result(_Stats(world.weight[rows]), res, label, cards)
        opt.policy = is_pol
        opt.samples = None if rows.stop - rows.start == world.n else rows.stop - rows.start
        options.append(opt)
    hand = _seat_rest(state, policy, world, mine, 0)
    base = policy_play or run(hand, fixed_order, state.declared, every_side=True)
    w = world.weight * base["weight"]
    st = _Stats(w)
    declare = {name: st.mean(base["decl_" + name]) for name in SIDES}
    key = "share"
    if decision == "declare":
        best = best_declaration(declare, {"high": st.mean(base["best_hi"]),
                                          "low": st.mean(base["best_lo"]),
                                          "both": st.mean(base["best_both"])})
        key = "decl_" + best
        others = np.stack([u[:1] for u in opp[1]], axis=1)
        pol_side = int(policy.declare(hand[:1], others)[0])
        for k, name in enumerate(SIDES):
            got = base["decl_" + name]
            hi_half, lo_half = _halves(got, k, w)
            options.append(Option521(
                label=f"declare {name}", cards=[], equity=st.mean(got), stderr=st.stderr(got),
                high_half=hi_half, low_half=lo_half, whole_pot=st.mean(got >= 1.0),
                policy=pol_side == k))
    share = base[key]
    high_half, low_half = st.mean(base["hi"] > 0), st.mean(base["lo"] > 0)
    if decision == "declare":  # the halves of the declaration the equity is for (issue 33)
        high_half, low_half = _halves(share, SIDES.index(best), w)
    # on an equity tie the best declaration (best_declaration's rule) is shown first
    options.sort(key=lambda o: (-o.equity, decision == "declare" and o.label != "declare " + best))
    return Look521(
        equity=st.mean(share), stderr=st.stderr(share),
        whole=st.mean(share >= 1.0), share=st.mean((share > 0) & (share < 1.0)),
        nothing=st.mean(share <= 0.0), high_half=high_half,
        low_half=low_half, best_high=st.mean(base["best_hi"]),
        best_low=st.mean(base["best_lo"]), best_both=st.mean(base["best_both"]),
        declare=declare, samples=world.n,
        effective=st.ess, options=options, decision=decision)


RACE_PART = 4
"""Options are first played out in ``1 / RACE_PART`` of the worlds (at least
:data:`RACE_MIN` of them); see :func:`_race`."""
RACE_MIN = 1000
RACE_Z = 4.0
"""An option this many standard errors (of its paired difference) behind the
best after the first part is not played out further."""


def _part(world: _World, decl: _Declares, rows: slice) -> tuple[_World, _Declares]:
    """The worlds ``rows`` alone."""
    sub = _World(weight=world.weight[rows], opp_hands=[h[rows] for h in world.opp_hands],
                 slots=world.slots[rows], n=len(world.weight[rows]))
    return sub, decl.part(rows)


def _race(world: _World, decl: _Declares, specs: Sequence[tuple[str, list[str], bool, Any]]
          ) -> list[tuple[dict[str, Floats], slice]]:
    """Play out each option (``spec[3](world, declares, rows)``) in the
    worlds, racing: every option is first played in the first part of the
    worlds (``1 / RACE_PART`` of them); one whose paired difference with the
    best so far is more than :data:`RACE_Z` standard errors below zero is
    reported from that part alone (its standard error says so), the others
    are played in every world. Returns per option the per-world results and
    the rows played."""
    n = world.n
    first = max(RACE_MIN, n // RACE_PART)
    if len(specs) <= 2 or first >= n:
        return [(spec[3](world, decl, slice(0, n)), slice(0, n)) for spec in specs]
    head = slice(0, first)
    w1, d1 = _part(world, decl, head)
    results = [spec[3](w1, d1, head) for spec in specs]
    weights = [w1.weight * r["weight"] for r in results]
    means = [_Stats(w).mean(r["share"]) for w, r in zip(weights, results, strict=True)]
    lead = int(np.argmax(means))
    tail = slice(first, n)
    w2, d2 = _part(world, decl, tail)
    out = []
    for j, spec in enumerate(specs):
        diff = results[j]["share"] - results[lead]["share"]
        st = _Stats(weights[j])
        if j != lead and st.mean(diff) + RACE_Z * st.stderr(diff) < 0:
            out.append((results[j], head))
            continue
        rest = spec[3](w2, d2, tail)
        out.append(({k: np.concatenate([results[j][k], rest[k]]) for k in results[j]},
                    slice(0, n)))
    return out


def _halves(share: Floats, side: int, w: Floats) -> tuple[float, float]:
    """Chance of a share of the high half and of the low half when the seat
    declares ``side`` and gets ``share`` (a declaration of one side can only
    win that side; both wins both or nothing)."""
    st = _Stats(w)
    if side == 0:
        return st.mean(share > 0), 0.0
    if side == 1:
        return 0.0, st.mean(share > 0)
    return st.mean(share > 0), st.mean(share > 0)


def options_for(look: Look521, top: int = 10) -> Sequence[Option521]:
    """The best ``top`` options."""
    return look.options[:top]
