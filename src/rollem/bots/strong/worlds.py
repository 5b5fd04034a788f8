"""Sampled worlds for the ``strong`` bot: the rest of a hand from one seat's view.

A world gives every opponent still in its hidden cards and deals every card
still to come, uniformly among the cards the seat cannot see (the view's
own rule: :func:`rollem.odds.view.read_view`). For each world we keep the
seat's pot share at the showdown (per declaration in 5-2-1, R-521-9) and each
opponent's *strength*, a number in 0..1 (a percentile) that the reads of
:mod:`rollem.bots.strong.reads` turn into a weight: how likely that
opponent's actions were with those cards. Weighted worlds are the weighted
ranges of the opponents.

Strength per game:

- Stop, Drop and Roll: before the Roll, the percentile of the hole cards'
  equity against one random hand (:func:`preflop_percentile`, R-SDR-6); once
  the Roll is out, the made hand's percentile.
- Five Card Roll Your Own and 5-2-1: the percentile of the hand the
  opponent ends with, since bets there follow the visible draw to it
  (5-2-1: the better of its high and its low percentile, R-C-3, taken as a
  percentile among final hands, :func:`final_percentile`, except heads-up in
  fixed limit).

5-2-1 before the draws: the seat's own draws are played as the ``basic``
bot would; a heads-up opponent's as the better of two candidate deals
(:func:`_improved`), two or more opponents' by the look-ahead odds' policy
(:func:`_policy_draws`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from rollem.bots.basic import draw_choice
from rollem.bots.draw521 import after_draws, draws_left
from rollem.cards import Card, parse_card
from rollem.engine.views import HandView
from rollem.hands import showing_value
from rollem.odds.common import draw, unseen
from rollem.odds.evaluate import high5, low5, wild5
from rollem.odds.r521 import SIDES, _reference, declare_model, side_shares
from rollem.odds.view import ViewInfo, read_view

__all__ = ["Worlds", "preflop_strength", "sample_worlds"]

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


@dataclass
class Worlds:
    """``S`` sampled worlds of the rest of a hand, from one seat.

    Attributes:
        share: the seat's pot share per world, per declaration (``"pot"`` for
            the high-only games; ``"high"``, ``"low"``, ``"both"`` in 5-2-1):
            arrays of shape ``(S,)``, 0..1.
        strength: opponents' strength percentiles, shape ``(S, k)``.
        seats: the ``k`` opponents' seat numbers (columns of ``strength``).
        extra: ``"high"``: the final high values (R-C-2; Roll Your Own: with its
            wild cards, R-RYO-9) per world, the seat's first then each
            opponent's, shape ``(S, 1 + k)`` (their category is ``value >> 20``);
            5-2-1 also ``"low"``.
    """

    share: dict[str, Floats]
    strength: Floats
    seats: list[int]
    extra: dict[str, object] = field(default_factory=dict)
    like: Floats | None = None
    """Card-only likelihood per world, shape ``(S,)`` (5-2-1: the opponents'
    stack orders, :func:`stack_likelihood`), multiplied into the reads'
    weights; ``None``: all alike."""

    def joined(self, other: Worlds) -> Worlds:
        """These worlds and ``other``'s (sampled from the same view) together."""
        extra: dict[str, object] = {}
        for k, v in self.extra.items():
            o = other.extra.get(k)
            extra[k] = (np.concatenate([v, o]) if isinstance(v, np.ndarray)
                        and isinstance(o, np.ndarray) else v)
        like = None
        if self.like is not None or other.like is not None:
            like = np.concatenate([
                self.like if self.like is not None else np.ones(len(self.strength)),
                other.like if other.like is not None else np.ones(len(other.strength))])
        return Worlds({k: np.concatenate([v, other.share[k]]) for k, v in self.share.items()},
                      np.concatenate([self.strength, other.strength]), self.seats, extra, like)

    def equity(self, weights: Floats | None = None) -> dict[str, float]:
        """Weighted mean share per declaration (``weights`` shape ``(S,)``)."""
        if weights is None or weights.sum() <= 0:
            return {k: float(v.mean()) for k, v in self.share.items()}
        w = weights / weights.sum()
        return {k: float((v * w).sum()) for k, v in self.share.items()}


def _shares(hero: Ints, others: Ints) -> Floats:
    if others.shape[1] == 0:
        return np.ones(hero.shape, dtype=np.float64)
    best = others.max(axis=1)
    ties = (others == hero[:, None]).sum(axis=1)
    out: Floats = np.where(hero > best, 1.0, np.where(hero == best, 1.0 / (1 + ties), 0.0))
    return out


def _percentile(values: Ints) -> Floats:
    """Rank of each value among all values given, 0..1 (ties averaged)."""
    flat = values.ravel()
    if flat.size == 0:
        return np.zeros(values.shape)
    order = np.sort(flat)
    lo = np.searchsorted(order, flat, side="left")
    hi = np.searchsorted(order, flat, side="right")
    pct: Floats = ((lo + hi) / 2.0 / flat.size).reshape(values.shape)
    return pct


@cache
def preflop_strength() -> Floats:
    """Stop, Drop and Roll: each two hole cards' equity against one random hand with a
    random Roll (R-SDR-6), as a ``(52, 52)`` table in 0..1: a fixed-seed Monte Carlo
    of 400 deals for each of the 169 kinds of two cards (pair, suited, offsuit),
    computed once."""
    gen = np.random.default_rng(20)
    kinds = [(hi * 4, lo * 4 + (0 if suited else 1))
             for hi in range(13) for lo in range(hi + 1)
             for suited in ((False,) if hi == lo else (True, False))]
    hole = np.asarray(kinds, dtype=np.int64)
    n = 400
    keys = gen.random((len(kinds), n, 52))
    rows = np.arange(len(kinds))[:, None]
    keys[rows, :, hole[:, 0][:, None]] = 2.0
    keys[rows, :, hole[:, 1][:, None]] = 2.0
    rest = np.argpartition(keys, 4, axis=2)[:, :, :5]
    roll = rest[:, :, :3]
    mine = np.concatenate([np.broadcast_to(hole[:, None, :], (len(kinds), n, 2)), roll], 2)
    opp = np.concatenate([rest[:, :, 3:5], roll], 2)
    hv, ov = high5(mine), high5(opp)
    eq = ((hv > ov) + 0.5 * (hv == ov)).mean(axis=1)
    by_kind = {(int(a) >> 2, int(b) >> 2, (int(a) & 3) == (int(b) & 3)): float(e)
               for (a, b), e in zip(hole, eq, strict=True)}
    table = np.zeros((52, 52))
    for a in range(52):
        for b in range(52):
            if a != b:
                hi, lo = max(a >> 2, b >> 2), min(a >> 2, b >> 2)
                table[a, b] = by_kind[hi, lo, (a & 3) == (b & 3) and hi != lo]
    return table


@cache
def preflop_percentile() -> Floats:
    """:func:`preflop_strength` as percentiles among the 1,326 two-card hands, 0..1."""
    eq = preflop_strength()
    a, b = np.triu_indices(52, 1)
    values = np.sort(eq[a, b])
    pct = np.searchsorted(values, eq, side="right") / len(values)
    out: Floats = np.where(np.eye(52, dtype=bool), 0.0, pct)
    return out


def _sdr(info: ViewInfo, samples: int, gen: np.random.Generator) -> Worlds:
    known = [o for o in info.opponents if o.known is not None]
    unknown = [o for o in info.opponents if o.known is None]
    pool = unseen(info.mine, info.dead, info.board, *[o.known or [] for o in known],
                  [c for c in info.seen_out if c not in info.mine])
    nb = 3 - len(info.board)
    d = draw(gen, pool, samples, nb + 2 * len(unknown))
    board = np.concatenate([np.broadcast_to(np.asarray(info.board, dtype=np.int64),
                                            (samples, len(info.board))), d[:, :nb]], 1)
    holes = [np.broadcast_to(np.asarray(o.known, dtype=np.int64), (samples, 2)) for o in known]
    holes += [d[:, nb + 2 * j: nb + 2 * j + 2] for j in range(len(unknown))]
    hero = high5(np.concatenate([np.broadcast_to(np.asarray(info.mine), (samples, 2)), board], 1))
    opp_v = np.stack([high5(np.concatenate([h, board], 1)) for h in holes], 1) \
        if holes else np.zeros((samples, 0), dtype=np.int64)
    pf = preflop_percentile()
    early = np.stack([pf[h[:, 0], h[:, 1]] for h in holes], 1) \
        if holes else np.zeros((samples, 0))
    extra: dict[str, object] = {"high": np.concatenate([hero[:, None], opp_v], 1)}
    if nb > 0:
        strength = early
    else:
        strength = _percentile(opp_v)
        # the bets before the Roll were made on the hole cards alone (issue 31)
        extra["early"] = early
    seats = [o.seat for o in known] + [o.seat for o in unknown]
    return Worlds({"pot": _shares(hero, opp_v)}, strength, seats, extra=extra)


def expose_likelihood(hands: Ints, up: Sequence[int], last: int, down: int) -> Floats:
    """R-RYO-3, R-RYO-5: how likely an opponent's last exposed card is in each
    world, by the *hider* model: a player turns up the down card that shows the
    weakest hand (R-C-8), keeping pairs and high cards down. A world where one
    of the ``down`` cards the opponent still holds would have shown weaker than
    ``last`` gets :data:`HIDER_STRAY`, else 1.

    Args:
        hands: the opponent's cards per world ``(S, m)``: the ``len(up)`` face-up
            cards first, then the ``down`` cards it holds now (then any to come).
        up: its face-up cards, ``last`` among them.
        last: the card it turned up last.
        down: how many cards it holds face down now.

    Returns:
        ``(S,)`` likelihoods, :data:`HIDER_STRAY` or 1.
    """
    s = hands.shape[0]
    if last not in up or down < 1 or s == 0:
        return np.ones(s)
    before = [c for c in up if c != last]
    table = np.asarray([showing_value([*before, r * 4]) for r in range(13)])
    held = hands[:, len(up):len(up) + down] >> 2
    ok = table[held].min(axis=1) >= table[last >> 2]
    out: Floats = np.where(ok, 1.0, HIDER_STRAY)
    return out


def _last_exposed(events: Sequence[Mapping[str, Any]], seat: int) -> int | None:
    """The card ``seat`` turned up last (R-RYO-3, R-RYO-5), if any."""
    card = None
    for e in events:
        if e.get("kind") == "expose" and e.get("seat") == seat and e.get("card"):
            card = int(parse_card(str(e["card"])))
    return card


def _ryo(info: ViewInfo, samples: int, gen: np.random.Generator) -> Worlds:
    ups = [o.known if o.known is not None else o.up for o in info.opponents]
    hidden = [0 if o.known is not None else 5 - len(o.up) for o in info.opponents]
    mine_left = max(0, 5 - len(info.mine))
    wild_known = bool(info.wild_ranks)
    pool = unseen(info.mine, *ups, info.seen_out)
    need = mine_left + sum(hidden) + (0 if wild_known else 1)
    d = draw(gen, pool, samples, need)
    rows = [np.concatenate([np.broadcast_to(np.asarray(info.mine[:5], dtype=np.int64),
                                            (samples, min(5, len(info.mine)))),
                            d[:, :mine_left]], 1)]
    at = mine_left
    for u, h in zip(ups, hidden, strict=True):
        rows.append(np.concatenate([np.broadcast_to(np.asarray(u, dtype=np.int64),
                                                    (samples, len(u))), d[:, at:at + h]], 1))
        at += h
    hands = np.stack(rows, 1)
    opts = {"wild_duplicates": bool(info.options.get("wild_duplicates", False)),
            "natural_beats_wild": bool(info.options.get("natural_beats_wild", False))}
    if wild_known:
        values = wild5(hands, info.wild_ranks, **opts)
    else:
        values = np.zeros(hands.shape[:2], dtype=np.int64)
        ranks = d[:, at] >> 2
        for r in np.unique(ranks):
            sel = ranks == r
            values[sel] = wild5(hands[sel], [int(r)], **opts)
    strength = _percentile(values[:, 1:])
    like = np.ones(samples)
    for j, o in enumerate(info.opponents):
        last = _last_exposed(info.events, o.seat) if o.known is None else None
        if last is not None:
            like *= expose_likelihood(hands[:, j + 1], o.up, last, o.hidden)
    return Worlds({"pot": _shares(values[:, 0], values[:, 1:])}, strength,
                  [o.seat for o in info.opponents], extra={"high": values}, like=like)


def r521_strength(high: Ints, low: Ints) -> Floats:
    """A 5-2-1 hand's strength: the better of its high and its low percentile
    among five-card hands (R-C-2, R-C-3), 0..1."""
    ref_hi, ref_lo = _reference()
    p_hi = np.searchsorted(ref_hi, high, side="right") / len(ref_hi)
    p_lo = np.searchsorted(ref_lo, low, side="right") / len(ref_lo)
    out: Floats = np.maximum(p_hi, p_lo)
    return out


@cache
def _final_strengths() -> Floats:
    """:func:`r521_strength` of 20,000 final 5-2-1 hands, sorted: five random
    cards after both draws (two, then one; R-521-2, R-521-4) thrown by the
    look-ahead odds' policy (:data:`rollem.odds.policy.FAST`), fixed seed."""
    from rollem.odds.policy import FAST

    gen = np.random.default_rng(521)
    deal = draw(gen, np.arange(52, dtype=np.int64), 20000, 8)
    hand = deal[:, :5]
    at = 5
    for most in (2, 1):
        throw = FAST.draw(hand, most)
        k = np.clip(np.cumsum(throw, axis=1) - 1, 0, most - 1)
        hand = np.where(throw, np.take_along_axis(deal[:, at:at + most], k, axis=1), hand)
        at += most
    out: Floats = np.sort(r521_strength(high5(hand), low5(hand)))
    return out


def final_percentile(strength: Floats) -> Floats:
    """A 5-2-1 final hand's :func:`r521_strength` as a percentile among final
    hands (:func:`_final_strengths`, ties at their middle), 0..1.

    The reads take a bet from an opponent betting a share ``r`` of the time
    as coming from the top ``r`` of its hands; on the random-hand scale of
    :func:`r521_strength` the hands after the draws sit high (median 0.91;
    79% above 0.7), so a bet at rate 0.3 ruled out a fifth of them, not 70%:
    multiway the read equity facing a last-round bet ran 0.03-0.10 above the
    share the real cards gave, and heads-up in no limit the ``tag`` exploit
    beat ``strong``. On this scale ``strong`` gained against ``tag`` there
    +61.7 [+30.6, +92.9] BB/100 over 3,000 paired deals."""
    ref = _final_strengths()
    lo = np.searchsorted(ref, strength, side="left")
    hi = np.searchsorted(ref, strength, side="right")
    out: Floats = (lo + hi) / (2.0 * len(ref))
    return out


HIDER_STRAY = 0.05
"""Likelihood of a world whose hidden cards go against the hider model of
:func:`stack_likelihood` (5-2-1 stack orders) or :func:`expose_likelihood`
(Roll Your Own exposes): a player may stack and expose as it likes."""


@cache
def _popcount() -> Ints:
    """Set bits of every 9-bit number (ace-to-five ranks 1..8 as bits 1..8)."""
    out: Ints = np.asarray([bin(i).count("1") for i in range(512)], dtype=np.int64)
    return out


def _going_low(hands: Ints) -> npt.NDArray[np.bool_]:
    """Per row of five cards, whether a player plans a low hand as a draw-by-plan
    player would (:func:`rollem.bots.basic._plan_521`, vectorised): a made
    eight-low, else with no trips, two pair, pair of nines or better or four
    to a flush, three or more distinct cards seven or lower."""
    ranks = hands >> 2
    low = np.where(ranks == 12, 1, ranks + 2)
    bits = np.bitwise_or.reduce(np.left_shift(1, low), axis=1)
    ones = _popcount()
    lows8 = ones[bits & 0b111111110]
    lows7 = ones[bits & 0b11111110]
    counts = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2)
    pairs = (counts == 2).sum(axis=1) // 2
    top = counts.max(axis=1)
    paired_rank = np.where(counts >= 2, ranks, -1).max(axis=1)
    suits = hands & 3
    flush4 = ((suits[:, :, None] == suits[:, None, :]).sum(axis=2) >= 4).any(axis=1)
    high = (top >= 3) | (pairs >= 2) | (paired_rank >= 7) | flush4
    out: npt.NDArray[np.bool_] = (lows8 == 5) | (~high & (lows7 >= 3))
    return out


def stack_likelihood(hands: Ints, shown: int) -> Floats:
    """R-521-6, R-521-7: how likely an opponent's stack order is in each world,
    by the *hider* model: a player keeps down to the end the card that tells
    most: for a hand going high one of its highest rank group (a pair's card,
    else its highest card: the card whose absence shows the weakest hand), for
    a hand going low (:func:`_going_low`) its best low card. A world where
    that card is among the ``shown`` face-up cards gets :data:`HIDER_STRAY`,
    else 1.

    Args:
        hands: the opponent's five cards per world, ``(S, 5)``, the ``shown``
            face-up cards first.
        shown: how many are face up (1..4; 0 or 5: all alike).

    Returns:
        ``(S,)`` likelihoods, :data:`HIDER_STRAY` or 1.
    """
    s = hands.shape[0]
    if not 0 < shown < 5 or s == 0:
        return np.ones(s)
    ranks = hands >> 2
    counts = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2)
    group = ranks[np.arange(s), np.argmax(counts * 13 + ranks, axis=1)]
    low = np.where(ranks == 12, 1, ranks + 2)
    best_low = ranks[np.arange(s), np.argmin(low, axis=1)]
    key = np.where(_going_low(hands), best_low, group)
    hidden_ok = (ranks[:, shown:] == key[:, None]).any(axis=1)
    out: Floats = np.where(hidden_ok, 1.0, HIDER_STRAY)
    return out


def _improved(d2: Ints, ups: list[list[int]], hidden: list[int]) -> Ints:
    """Opponents' hidden cards when draws are still to come: of two candidate
    deals per opponent (the halves of ``d2``), the stronger hand, a cheap stand-in
    for the opponent's own draws improving it (R-521-2, R-521-4)."""
    m = sum(hidden)
    a, b = d2[:, :m], d2[:, m:]
    out = a.copy()
    at = 0
    for u, h in zip(ups, hidden, strict=True):
        if h:
            s = len(d2)
            up = np.broadcast_to(np.asarray(u, dtype=np.int64), (s, len(u)))
            ha = np.concatenate([up, a[:, at:at + h]], 1)
            hb = np.concatenate([up, b[:, at:at + h]], 1)
            better = r521_strength(high5(hb), low5(hb)) > r521_strength(high5(ha), low5(ha))
            out[better, at:at + h] = b[better, at:at + h]
        at += h
    return out


def _policy_draws(d: Ints, hidden: list[int], left: Sequence[int], pool: Ints,
                  mine: Ints, gen: np.random.Generator) -> Ints:
    """Multiway, before the draws: each opponent's sampled five hidden cards
    after the draws still to come (``left``, R-521-2, R-521-4), thrown by the
    look-ahead odds' policy (:data:`rollem.odds.policy.FAST`) and replaced from
    ``pool`` by cards that neither that hand nor the seat's own hand of the
    world (``mine``) holds. Two opponents may draw the same card (the deck is
    too small to keep five players' candidates apart); the look-ahead odds
    allow such repeats too. The better-of-two stand-in of :func:`_improved`
    left multiway hands far too weak: a random 6-handed seat's best expected
    share came out 0.27 against a fair 1/6 (0.16 with these draws), so the
    bot bet two thirds of its first-round hands into five players."""
    from rollem.odds.policy import FAST

    out = d.copy()
    s = len(d)
    cards = np.asarray(pool, dtype=np.int64)
    at = 0
    for h in hidden:
        if h == 5:
            hand = out[:, at:at + 5]
            for most in left:
                throw = FAST.draw(hand, most)
                cand = draw(gen, cards, s, min(len(cards), most + 10))
                held = np.concatenate([hand, mine], 1)
                clash = (cand[:, :, None] == held[:, None, :]).any(axis=2)
                order = np.argsort(clash, axis=1, kind="stable")[:, :most]
                fresh = np.take_along_axis(cand, order, axis=1)
                k = np.clip(np.cumsum(throw, axis=1) - 1, 0, most - 1)
                hand = np.where(throw, np.take_along_axis(fresh, k, axis=1), hand)
            out[:, at:at + 5] = hand
        at += h
    return out


def _r521(info: ViewInfo, view: HandView, samples: int, gen: np.random.Generator,
          rng: random.Random, answer_declares: bool = False) -> Worlds:
    ups = [o.known if o.known is not None else o.up for o in info.opponents]
    hidden = [0 if o.known is not None else o.hidden for o in info.opponents]
    out = [c for c in info.seen_out if c not in info.mine]
    if not info.reshuffled:
        out += [c for c in info.my_discards if c not in info.mine and c not in out]
    pool = unseen(info.mine, out, *ups)
    left = draws_left(view)
    mine = np.broadcast_to(np.asarray(info.mine, dtype=np.int64), (samples, 5)).copy()
    if left and sum(hidden) + sum(left) <= len(pool):
        # the seat's own draws to come (played as the basic bot would): a few
        # dozen sampled outcomes, each with its own opponents' cards
        groups = min(samples, 24)
        rest = [Card(c) for c in pool]
        m = sum(hidden)
        multiway = len(ups) >= 2
        # heads-up: the better of two candidate deals stands for the opponent's draws
        # (tuned there); multiway the opponents draw by the odds' policy instead
        twice = 2 if not multiway and 2 * m + 5 <= len(pool) else 1
        d2 = np.zeros((samples, twice * m), dtype=np.int64)
        for g in range(groups):
            hand, _ = after_draws([Card(c) for c in info.mine], left, rest, rng, draw_choice)
            rows_g = np.arange(g, samples, groups)
            mine[rows_g] = hand
            free = np.asarray([c for c in pool if c not in set(hand)], dtype=np.int64)
            d2[rows_g] = draw(gen, free, len(rows_g), twice * m)
        if twice == 2:
            d = _improved(d2, ups, hidden)
        elif multiway:
            d = _policy_draws(d2, hidden, left, pool, mine, gen)
        else:
            d = d2
    else:
        d = draw(gen, pool, samples, sum(hidden))
    rows = [mine]
    at = 0
    for u, h in zip(ups, hidden, strict=True):
        rows.append(np.concatenate([np.broadcast_to(np.asarray(u, dtype=np.int64),
                                                    (samples, len(u))), d[:, at:at + h]], 1))
        at += h
    hands = np.stack(rows, 1)
    high, low = high5(hands), low5(hands)
    index = {o.seat: i for i, o in enumerate(info.opponents)}
    rule = str(info.options.get("failed_both_rule", "carry"))
    if answer_declares and len(ups) >= 2:  # opponents declare their best share
        from rollem.bots.strong.declare import answer_sides

        sides = answer_sides(high, low, rule=rule,
                             fixed={index[s] + 1 for s in info.declared if s in index})
    else:
        sides = declare_model(high, low)
    for seat, side in info.declared.items():
        if seat in index:
            sides[:, index[seat] + 1] = SIDES.index(side)
    share: dict[str, Floats] = {}
    for k, name in enumerate(SIDES):
        sides[:, 0] = k
        share[name] = side_shares(high, low, sides, failed_both_rule=rule)
    strength = r521_strength(high[:, 1:], low[:, 1:])
    if len(ups) >= 2 or info.options.get("structure", "fixed-limit") != "fixed-limit":
        # on the scale of final hands, which the reads' action rates assume
        # (:func:`final_percentile`); heads-up in fixed limit keeps the
        # random-hand scale it was tuned on (the final-hand scale cost there
        # 6-40 BB/100 against the exploits, over 1,000 paired deals each)
        strength = final_percentile(strength)
    like = np.ones(samples)
    for j, (u, h) in enumerate(zip(ups, hidden, strict=True)):
        if h and u and len(u) + h == 5:
            like *= stack_likelihood(hands[:, j + 1], len(u))
    return Worlds(share, strength, [o.seat for o in info.opponents],
                  extra={"high": high, "low": low}, like=like)


def sample_worlds(view: HandView, samples: int, rng: random.Random, *,
                  answer_declares: bool = False) -> Worlds:
    """``samples`` worlds of the rest of the hand from ``view`` (any of the three
    games), seeded by ``rng``. 5-2-1 multiway with ``answer_declares``, each
    opponent declares its best share in the world
    (:func:`rollem.bots.strong.declare.answer_sides`), else by the
    percentile model.

    Raises:
        rollem.odds.OddsError: not a seat's view, or a game with no model.
    """
    info = read_view(view)
    gen = np.random.default_rng(rng.getrandbits(64))
    if not info.opponents:
        return Worlds({k: np.ones(1) for k in (("pot",) if info.game != "rollem521" else SIDES)},
                      np.zeros((1, 0)), [])
    if info.game == "sdr":
        return _sdr(info, samples, gen)
    if info.game == "rollyourown":
        return _ryo(info, samples, gen)
    if info.game == "rollem521":
        return _r521(info, view, samples, gen, rng, answer_declares)
    from rollem.odds import OddsError

    raise OddsError(f"the strong bot has no model of game {info.game!r}")
