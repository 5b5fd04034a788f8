"""5-2-1 Roll 'Em odds and the declare advisor (R-521-7..R-521-9).

Each player's hand is its five cards, ranked high (R-C-2) and ace-to-five
low (R-C-3). The seat's own five cards are taken as they are now (as if it
stands pat in any draw still to come). Each opponent's hidden cards are
uniformly random among the cards the seat cannot see (not its own cards, not
a face-up card, not its own discards unless a reshuffle put discards back in
play, R-521-5).

Opponents' declare model (R-521-8): an opponent whose declaration is
already revealed keeps it; any other declares the way its hand ranks higher
among all five-card hands (its percentile as a high hand against its
percentile as an ace-to-five low), and declares both when its hand is in
the top 1% of five-card hands both ways (a wheel, a six-high straight).

Settlement is R-521-9 for one pot: a seat that declares both must win both
ways outright; failed both-declarers are removed and the pot is split
between the remaining high and low declarers; if nobody remains the pot is
carried (the seat's share is 0), or split under ``failed_both_rule="split"``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

from rollem.odds.common import (
    MAX_ENUMERATION,
    CardsIn,
    Floats,
    Ints,
    Progress,
    Tally,
    assignments,
    card_list,
    check_samples,
    chunks,
    count_assignments,
    draw,
    np_rng,
    unseen,
)
from rollem.odds.evaluate import high5, low5
from rollem.odds.result import Odds, OddsError

if TYPE_CHECKING:
    from rollem.odds.view import ViewInfo

__all__ = ["SIDES", "best_declaration", "declare_model", "r521_odds", "r521_view_odds",
           "settle", "side_shares"]

SIDES = ("high", "low", "both")

TIE = 1e-12
"""Expected shares this close are an equity tie (see :func:`best_declaration`)."""


def best_declaration(declare: Mapping[str, float], outright: Mapping[str, float | None]
                     ) -> str:
    """The best declaration (R-521-8) from each declaration's expected share.

    ``declare``: ``"high"``/``"low"``/``"both"`` -> expected share of the pot
    (0..1). ``outright``: the same keys -> the chance the seat's hand wins
    that declaration's half-pots outright (its high beats every other high,
    its low every other low; ``"both"``: both at once); ``None`` or a missing
    key counts as 0.

    The greatest share wins. On an equity tie (within :data:`TIE`), the
    declaration whose half-pots the hand wins outright more often is the best
    (a hand that never wins the high but always the low is told "low", not
    "high" by list order: stop 54); if that ties too, the safer one: a single
    side (high, then low) before both, which risks the whole pot (R-521-9).
    Returns one of :data:`SIDES`.
    """
    top = max(declare[name] for name in SIDES)
    tied = [name for name in SIDES if declare[name] >= top - TIE]
    return max(tied, key=lambda name: (outright.get(name) or 0.0, -SIDES.index(name)))
BOTH_PERCENTILE = 0.99
"""An opponent declares both when its hand is at least this good both ways."""



@cache
def _reference() -> tuple[Ints, Ints]:
    """Sorted high and low values of 100,000 random five-card hands (fixed seed)."""
    gen = np.random.default_rng(521)
    hands = np.argpartition(gen.random((100_000, 52)), 4, axis=1)[:, :5]
    return np.sort(high5(hands)), np.sort(low5(hands))


@cache
def _reference_steps() -> tuple[tuple[Ints, Ints], tuple[Ints, Ints]]:
    """:func:`_reference`'s high and low values as their distinct values
    ``(U,)`` and, for ``k`` = 0..U, how many reference hands are at or below
    the ``k``-th (``(U + 1,)``, from 0): ``at[searchsorted(values, x,
    "right")]`` is ``searchsorted(reference, x, "right")``, searched in about
    6,000 values, not 100,000 (issue 31, twenty-third pass)."""
    out = []
    for ref in _reference():
        values, counts = np.unique(ref, return_counts=True)
        at = np.concatenate([np.zeros(1, dtype=np.int64), np.cumsum(counts)])
        values.setflags(write=False)
        at.setflags(write=False)
        out.append((values, at))
    return out[0], out[1]


def declare_model(high: Ints, low: Ints) -> Ints:
    """The opponents' declare model: 0 high, 1 low, 2 both, per hand.

    ``high``/``low``: values (any shape) of the hands. A hand declares the way
    its percentile among five-card hands is greater (high on equal), both
    when both percentiles are at least :data:`BOTH_PERCENTILE`.
    """
    (u_hi, at_hi), (u_lo, at_lo) = _reference_steps()
    size = len(_reference()[0])
    p_hi = at_hi[np.searchsorted(u_hi, high, side="right")] / size
    p_lo = at_lo[np.searchsorted(u_lo, low, side="right")] / size
    side = np.where(p_lo > p_hi, 1, 0)
    return np.where((p_hi >= BOTH_PERCENTILE) & (p_lo >= BOTH_PERCENTILE), 2, side)


def _max_of_others(a: Ints) -> Ints:
    """Per row and column, the greatest value in the row's other columns
    (the least ``int64`` when there is none): shape of ``a`` ``(S, n)``."""
    s, n = a.shape
    neg = np.iinfo(np.int64).min
    if n == 1:
        return np.full((s, 1), neg, dtype=np.int64)
    top = a.argmax(axis=1)
    rows = np.arange(s)
    first = a[rows, top]
    rest = a.copy()
    rest[rows, top] = neg
    second = rest.max(axis=1)
    out: Ints = np.where(np.arange(n)[None, :] == top[:, None], second[:, None],
                         first[:, None])
    return out


def settle(high: Ints, low: Ints, sides: Ints, rule: str = "carry"
           ) -> tuple[Floats, Floats, Floats]:
    """Seat 0's share of one pot under R-521-9, and its shares of the high
    half and of the low half, per world.

    Args:
        high, low: hand values, shape ``(S, n)`` (column 0 is the seat).
        sides: declarations, ``(S, n)``: 0 high, 1 low, 2 both.
        rule: ``failed_both_rule``: ``"carry"`` (nobody left: the pot
            carries, share 0) or ``"split"`` (the failed both-declarers share).

    Returns:
        ``(share, high_share, low_share)``, each ``(S,)`` floats in 0..1.

    Heads-up (``n == 2``) the outcome of a world depends only on the two
    declarations and on how the two highs and the two lows compare, so it is
    read from a table of the 81 cases (each settled once by the general
    rule, :func:`_settle_rows`): the same floats, in a few array operations
    (issue 31, twenty-third pass: the bots' small batches).
    """
    if high.ndim == 2 and high.shape[1] == 2 and rule in ("carry", "split"):
        return _settle_pair(high, low, sides, rule)
    return _settle_rows(high, low, sides, rule)


@cache
def _pair_table(rule: str) -> Floats:
    """``(3, 81)``: heads-up :func:`_settle_rows` (share, high share, low
    share) per case, the case index
    ``27 * seat's side + 9 * other's side + 3 * high order + low order``
    (an order: 0 below, 1 equal, 2 above the other's value)."""
    case = np.arange(81)
    sides = np.stack([case // 27, case // 9 % 3], axis=1).astype(np.int64)
    high = np.stack([case // 3 % 3, np.ones(81, dtype=np.int64)], axis=1).astype(np.int64)
    low = np.stack([case % 3, np.ones(81, dtype=np.int64)], axis=1).astype(np.int64)
    table: Floats = np.stack(_settle_rows(high, low, sides, rule))
    table.setflags(write=False)
    return table


def _settle_pair(high: Ints, low: Ints, sides: Ints, rule: str
                 ) -> tuple[Floats, Floats, Floats]:
    """:func:`settle` for two hands, by :func:`_pair_table`."""
    h0, h1 = high[:, 0], high[:, 1]
    l0, l1 = low[:, 0], low[:, 1]
    case = sides[:, 0] * 27 + sides[:, 1] * 9 + (h0 > h1) * 3 + (h0 >= h1) * 3 \
        + (l0 > l1) + (l0 >= l1)
    got = _pair_table(rule)[:, case]
    return got[0], got[1], got[2]


def _settle_rows(high: Ints, low: Ints, sides: Ints, rule: str = "carry"
                 ) -> tuple[Floats, Floats, Floats]:
    """:func:`settle` for any number of hands, column by column (same
    arguments and returns)."""
    s, n = high.shape
    on_hi = sides != 1
    on_lo = sides != 0
    neg = np.iinfo(np.int64).min
    both = sides == 2
    if both.any():
        wins = (high > _max_of_others(np.where(on_hi, high, neg))) \
            & (low > _max_of_others(np.where(on_lo, low, neg)))
        failed = both & ~wins
    else:
        failed = np.zeros((s, n), dtype=bool)
    rest_hi = on_hi & ~failed
    rest_lo = on_lo & ~failed
    if rule == "split":
        nobody = ~rest_hi.any(axis=1) & ~rest_lo.any(axis=1)
        rest_hi = np.where(nobody[:, None], failed, rest_hi)
        rest_lo = np.where(nobody[:, None], failed, rest_lo)
    any_hi = rest_hi.any(axis=1)
    any_lo = rest_lo.any(axis=1)
    half = np.where(any_hi & any_lo, 0.5, 1.0)
    best_hi = np.where(rest_hi, high, neg).max(axis=1)
    best_lo = np.where(rest_lo, low, neg).max(axis=1)
    top_hi = rest_hi & (high == best_hi[:, None])
    top_lo = rest_lo & (low == best_lo[:, None])
    got_hi = np.where(top_hi[:, 0], half / np.maximum(top_hi.sum(axis=1), 1), 0.0)
    got_lo = np.where(top_lo[:, 0], half / np.maximum(top_lo.sum(axis=1), 1), 0.0)
    return got_hi + got_lo, got_hi, got_lo


def side_shares(high: Ints, low: Ints, sides: Ints, *, failed_both_rule: str = "carry"
                ) -> Floats:
    """Seat 0's share of one pot per world under R-521-9 (:func:`settle`'s
    first part; same arguments)."""
    return settle(high, low, sides, failed_both_rule)[0]


def r521_odds(
    hand: CardsIn,
    opponents: Sequence[tuple[CardsIn, int]],
    *,
    out: CardsIn = (),
    declared: Mapping[int, str] | None = None,
    failed_both_rule: str = "carry",
    samples: int = 20_000,
    seed: int | None = None,
    rng: random.Random | None = None,
    exact_limit: int = 2_000_000,
    own_side: str | None = None,
    progress: Progress | None = None,
) -> Odds:
    """5-2-1 odds and declare shares from cards the caller supplies.

    Args:
        hand: the seat's five cards.
        opponents: per opponent still in, ``(up cards, hidden count)`` with
            ``len(up) + hidden == 5``.
        out: other cards the seat knows are not in any opponent's hand (its
            own discards, folded seats' up cards).
        declared: opponent index (into ``opponents``) -> revealed side.
        failed_both_rule: R-521-9 house option, ``"carry"`` or ``"split"``.
        samples, seed, rng, exact_limit, progress: as
            :func:`rollem.odds.sdr_odds`; exact when the opponents' hidden
            cards can be dealt in at most ``exact_limit`` ways.
        own_side: the seat's own declaration once made (R-521-8): then
            ``win``/``tie``/``lose``/``equity``/``stderr`` are for it, not for
            the best declaration.

    Returns:
        :class:`Odds` with ``high``, ``low``, ``scoop``, ``declare`` (expected
        share per declaration), ``best_declare`` (:func:`best_declaration`:
        on an equity tie the side the hand wins outright) and ``own_declare``;
        ``win``/``tie``/``lose``/``equity``/``stderr`` are for ``own_side``
        when given, else for the best declaration. ``win`` is taking the
        whole pot (a scoop, or one side with nobody on the other), ``tie``
        any share of it (half, a split half), ``lose`` nothing.

    Raises:
        OddsError: wrong card counts, a card twice, no opponent.
    """
    mine = card_list(hand, "hand")
    if len(mine) != 5:
        raise OddsError(f"hand: expected five cards, got {len(mine)}")
    if not opponents:
        raise OddsError("no opponent: give at least one opponent still in the hand")
    ups = [card_list(u, "opponent up cards") for u, _ in opponents]
    hidden = [int(h) for _, h in opponents]
    for u, h in zip(ups, hidden, strict=True):
        if h < 0 or len(u) + h != 5:
            raise OddsError(f"an opponent holds five cards: {len(u)} up + {h} hidden given")
    pool = unseen(mine, card_list(out, "out"), *ups)
    m = sum(hidden)
    n_ways = count_assignments(len(pool), hidden)
    if n_ways == 0:
        raise OddsError(f"{m} unknown cards are needed but only {len(pool)} are left")
    for side in (declared or {}).values():
        if side not in SIDES:
            raise OddsError(f"declared side {side!r}: expected high, low or both")
    if own_side is not None and own_side not in SIDES:
        raise OddsError(f"own_side {own_side!r}: expected high, low or both")

    def score(deal: Ints) -> tuple[dict[str, Floats], Any, Any]:
        s = len(deal)
        hands = [np.broadcast_to(np.asarray(mine, dtype=np.int64), (s, 5))]
        at = 0
        for u, h in zip(ups, hidden, strict=True):
            hands.append(np.concatenate(
                [np.broadcast_to(np.asarray(u, dtype=np.int64), (s, len(u))),
                 deal[:, at:at + h]], axis=1))
            at += h
        stack = np.stack(hands, axis=1)  # (S, n, 5)
        high = high5(stack)
        low = low5(stack)
        sides = declare_model(high, low)
        for j, side in (declared or {}).items():
            sides[:, j + 1] = SIDES.index(side)
        p_high = (high[:, :1] > high[:, 1:]).all(axis=1)
        p_low = (low[:, :1] > low[:, 1:]).all(axis=1)
        per_side: dict[str, Floats] = {}
        for k, name in enumerate(SIDES):
            sides[:, 0] = k
            per_side[name] = side_shares(high, low, sides, failed_both_rule=failed_both_rule)
        return per_side, p_high, p_low

    tallies = {name: Tally() for name in SIDES}
    n_high = n_low = n_scoop = 0
    if n_ways <= min(exact_limit, MAX_ENUMERATION):
        method = "exact"
        batches: Iterator[Ints] = iter([assignments(pool, hidden)])
    else:
        check_samples(samples)
        method = "monte-carlo"
        gen = np_rng(rng, seed)
        batches = (draw(gen, pool, n, m) for n in chunks(samples))
    for deal in batches:
        per_side, p_high, p_low = score(deal)
        for name in SIDES:
            tallies[name].add(per_side[name])
        n_high += int(p_high.sum())
        n_low += int(p_low.sum())
        n_scoop += int((p_high & p_low).sum())
        if progress is not None and method != "exact":
            progress(tallies["high"].n, samples)
    total = tallies["high"].n
    declare = {name: t.equity for name, t in tallies.items()}
    best = best_declaration(declare, {"high": n_high / total, "low": n_low / total,
                                      "both": n_scoop / total})
    chosen = own_side if own_side is not None else best
    return tallies[chosen].odds(
        method, "rollem521",
        high=n_high / total, low=n_low / total, scoop=n_scoop / total,
        declare=declare, best_declare=best, own_declare=own_side)


def r521_view_odds(info: ViewInfo, *, samples: int, rng: random.Random | None,
                   seed: int | None, exact_limit: int, progress: Progress | None = None
                   ) -> Odds:
    """:func:`r521_odds` from a seat's view (see :func:`rollem.odds.view_equity`);
    once the seat's own declaration is in its view, the odds are for it."""
    if len(info.mine) != 5:
        raise OddsError(f"seat {info.seat} holds {len(info.mine)} cards: expected five")
    opponents = [(o.known if o.known is not None else o.up,
                  0 if o.known is not None else o.hidden) for o in info.opponents]
    if not opponents:
        return Odds(win=1.0, tie=0.0, lose=0.0, equity=1.0, method="exact", samples=1,
                    stderr=0.0, game="rollem521", high=1.0, low=1.0, scoop=1.0,
                    declare={"high": 1.0, "low": 1.0, "both": 1.0}, best_declare="both",
                    own_declare=info.declared.get(info.seat))
    out = [c for c in info.seen_out if c not in info.mine]
    if not info.reshuffled:
        out += [c for c in info.my_discards if c not in info.mine and c not in out]
    index = {o.seat: i for i, o in enumerate(info.opponents)}
    declared = {index[s]: side for s, side in info.declared.items() if s in index}
    return r521_odds(info.mine, opponents, out=out, declared=declared,
                     failed_both_rule=str(info.options.get("failed_both_rule", "carry")),
                     samples=samples, seed=seed, rng=rng, exact_limit=exact_limit,
                     own_side=info.declared.get(info.seat), progress=progress)
