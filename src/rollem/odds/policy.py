"""The card-choice policy the look-ahead odds play for every player (issue 16).

Where draws, exposes, the wild pick, stacking or the declare are still to
come, the look-ahead (:mod:`rollem.odds.look521`, :mod:`rollem.odds.lookryo`)
has every player still in make them by a :class:`Policy`: a set of
vectorised functions of what that player sees, one row per simulated world.
Any object with these methods can be passed (``policy=``); the default is
:data:`FAST`, a :class:`FastPolicy`:

- **Keep three of six** (R-RYO-2): the three cards that work best together
  (trips, a high pair, then high, suited, connected cards) -- the ``basic``
  computer player's rule, vectorised.
- **Expose** (R-RYO-3, R-RYO-5): the down card that shows the weakest hand
  (``basic``'s rule). In the model no betting follows, so the exposed card
  changes no share of the pot; the look-ahead does not simulate it.
- **Wild pick** (R-RYO-7): the pool is face down and shuffled, so every
  position is alike; position 0.
- **5-2-1 draw** (R-521-2, R-521-4), first rule that applies: stand pat with
  a straight or better, or five different ranks eight or lower; with trips
  or two pair throw the odd cards; with four different low ranks (eight or
  lower, aces low) throw the fifth card; with a pair of nines or better
  throw the odd cards, lowest first; with four cards of a suit throw the odd
  suit; with three different low ranks throw the others, highest low rank
  first; with a smaller pair throw odd cards; else throw the lowest cards.
  At most the number allowed; of two cards of a rank, the one with the
  smaller card id counts first (so the choice depends on the cards alone,
  not on their order).
- **Stacking** (R-521-6): a hand that is better as a low (its ace-to-five
  low percentile among five-card hands above its high percentile) keeps its
  best low card down and shows its worst low cards first; a high hand keeps
  one card of its biggest group (or its highest card) down and shows its
  lowest cards first.
- **Declare** (R-521-8): from its own five cards and every other player's
  four up cards: for each opponent and each rank the hidden card may have
  (weighted by the cards of that rank not among its own cards and that
  opponent's up cards), that opponent's hand
  by rank (flushes not read) and its likely side (the way its hand ranks
  higher among five-card hands; both when in the top 1% both ways); the
  chance of beating every opponent on each side, treating opponents as
  independent; then the side with the greatest expected share: high
  ``P(high) * (1 + P(nobody low)) / 2``, low likewise, both ``P(both)``.

Sides are coded 0 high, 1 low, 2 both throughout. :class:`PolicyPlayer`
plays a hand by a policy (card choices) and checks or calls every bet; the
calibration tests use it.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations, permutations
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from rollem.odds.evaluate import high5, low5

__all__ = ["FAST", "FastPolicy", "Policy", "PolicyPlayer", "low_ranks"]

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]

TRIPLES = np.asarray(list(combinations(range(6), 3)), dtype=np.int64)
"""The 20 ways to keep three of six cards (indices), in a fixed order."""


class Policy(Protocol):
    """Card choices by what a player sees, one row per world (all ``int64``
    card ids 0..51). Each choice must depend on the set of cards a row
    holds, not on their order: the look-ahead asks once per distinct set
    and maps the answer back by card."""

    name: str

    def keep(self, cards: Ints) -> Ints:
        """``cards`` ``(S, 6)``: the index into :data:`TRIPLES` of the three
        kept (R-RYO-2), shape ``(S,)``."""
        ...

    def draw(self, cards: Ints, most: int) -> Bools:
        """``cards`` ``(S, 5)``: which to throw, ``(S, 5)`` bool, at most
        ``most`` per row (R-521-2, R-521-4)."""
        ...

    def stack(self, cards: Ints) -> Ints:
        """``cards`` ``(S, 5)``: the stacking order as indices, top first; the
        last stays down (R-521-6). Shape ``(S, 5)``."""
        ...

    def declare(self, own: Ints, others_up: Ints) -> Ints:
        """``own`` ``(S, 5)``, ``others_up`` ``(S, k, 4)`` the other players'
        up cards: 0 high, 1 low, 2 both per row (R-521-8)."""
        ...


def low_ranks(cards: Ints) -> Ints:
    """Ace-to-five rank of each card: ace 1, deuce 2 ... king 13 (R-C-3)."""
    r = cards >> 2
    return np.where(r == 12, 1, r + 2)


def _showing_key(ranks: Ints) -> Ints:
    """The value of one to three exposed ranks ``(S, k)`` as a partial hand
    (R-C-8: trips, then a pair, then high cards; comparable for equal k),
    ordered like :func:`rollem.hands.core.partial_value`."""
    k = ranks.shape[1]
    cnt = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2)
    order = np.argsort(-(cnt * 16 + ranks), axis=1, kind="stable")
    sorted_r = np.take_along_axis(ranks, order, axis=1)
    key = cnt.max(axis=1)
    for i in range(3):
        key = key * 13 + (sorted_r[:, i] if i < k else 0)
    return np.asarray(key, dtype=np.int64)


@cache
def _showing_table(k: int) -> Ints:
    """:func:`_showing_key` of every ``k`` ranks (1..3), indexed by the ranks
    in base 13, first rank most significant."""
    index = np.arange(13 ** k)
    ranks = np.stack([index // 13 ** (k - 1 - i) % 13 for i in range(k)], axis=1)
    return _showing_key(ranks)


@cache
def _keep_table() -> Floats:
    """The policy's score of keeping three cards, by their ranks in any order
    (``r1 * 169 + r2 * 13 + r3``) plus 2197 when all three share a suit:
    trips, then pairs (by pair, then kicker), then three unpaired cards by
    their ranks, a common suit and how close they are (a straight or flush
    to draw to)."""
    r = np.arange(2197)
    three = np.stack([r // 169, r // 13 % 13, r % 13], axis=1)
    ranks = -np.sort(-three, axis=1)
    a, b, d = ranks[:, 0], ranks[:, 1], ranks[:, 2]
    trips = (a == b) & (b == d)
    pair_top = np.where(a == b, a, np.where(b == d, b, -1))
    kicker = np.where(a == b, d, a)
    span = a - d
    out = []
    for suited in (False, True):
        plain = (a * 4 + b * 2 + d).astype(np.float64) + (18.0 if suited else 0.0) \
            + np.where(span <= 4, 14.0 - 2.0 * span, 0.0)
        out.append(np.where(trips, 400.0 + a,
                            np.where(pair_top >= 0, 200.0 + 8 * pair_top + kicker, plain)))
    return np.concatenate(out)


@cache
def _keep_table_by_cards() -> Any:
    """:func:`_keep_table` indexed by three cards ``c1 * 2704 + c2 * 52 + c3``
    (0..51 each), as ``int16`` (every score is a whole number below 420): one
    lookup per triple instead of ranks, suits and a flush test (issue 33: the
    Roll Your Own sampler asks for the keep's chance some hundred thousand
    times a batch). Pairs of equal cards index scores no hand reaches."""
    c = np.arange(52)
    r, s = c >> 2, c & 3
    index = (r[:, None, None] * 169 + r[None, :, None] * 13 + r[None, None, :]
             + 2197 * ((s[:, None, None] == s[None, :, None])
                       & (s[None, :, None] == s[None, None, :])))
    scores = _keep_table()[index.ravel()]
    assert (scores == np.round(scores)).all() and scores.max() < 2 ** 15
    return scores.astype(np.int16)


_T0, _T1, _T2 = (TRIPLES[:, i] for i in range(3))


def keep_ranks_fast(cards: Ints) -> Any:
    """:meth:`FastPolicy.keep_scores` as ``int16`` (the same order of the 20
    keeps, the same ties), from :func:`_keep_table_by_cards`: ``(S, 20)``."""
    c = np.asarray(cards, dtype=np.int32)
    return _keep_table_by_cards()[c[:, _T0] * 2704 + c[:, _T1] * 52 + c[:, _T2]]


@cache
def _percentile_refs() -> tuple[Ints, Ints]:
    from rollem.odds.r521 import _reference

    return _reference()


def _low_is_better(high: Ints, low: Ints) -> Bools:
    """The hand ranks higher as an ace-to-five low than as a high hand among
    all five-card hands (percentiles of a fixed sample)."""
    ref_hi, ref_lo = _percentile_refs()
    p_hi = np.searchsorted(ref_hi, high, side="right")
    p_lo = np.searchsorted(ref_lo, low, side="right")
    return np.asarray(p_lo > p_hi)


@cache
def _completion_tables() -> tuple[Ints, Ints, Ints, Ints]:
    """For every multiset of four ranks: the non-flush high value, the low
    value and the likely side of the five-card hand it makes with each of
    the 13 ranks. Returns ``(index, high, low, side)``: ``index`` maps the
    sum of the four cards' rank weights to a row of the ``(M, 13)`` tables."""
    from itertools import combinations_with_replacement

    from rollem.hands.tables import RANK_WEIGHTS
    from rollem.odds.r521 import declare_model

    multisets = np.asarray(list(combinations_with_replacement(range(13), 4)), dtype=np.int64)
    m = len(multisets)
    ranks = np.concatenate([np.repeat(multisets, 13, axis=0),
                            np.tile(np.arange(13), m)[:, None]], axis=1)  # (13m, 5)
    occ = (np.tril(np.ones((5, 5), dtype=np.int64), k=-1)[None]
           * (ranks[:, :, None] == ranks[:, None, :])).sum(axis=2)
    cards = 4 * ranks + (ranks + occ) % 4  # never five of one suit
    bad = occ.max(axis=1) >= 4  # five of a rank: impossible, weight 0 later
    cards[bad] = [0, 4, 8, 12, 17]
    hi = high5(cards).reshape(m, 13)
    lo = low5(cards).reshape(m, 13)
    side = declare_model(hi, lo)
    weights = np.asarray(RANK_WEIGHTS, dtype=np.int64)
    index = np.full(4 * RANK_WEIGHTS[12] + 1, -1, dtype=np.int64)
    index[weights[multisets].sum(axis=1)] = np.arange(m)
    return index, hi, lo, side


@cache
def _completion_tables_t() -> tuple[Ints, Ints, Ints, Ints]:
    """:func:`_completion_tables` with the ``(M, 13)`` tables transposed to ``(13, M)``."""
    index, hi, lo, side = _completion_tables()
    return (index, np.ascontiguousarray(hi.T), np.ascontiguousarray(lo.T),
            np.ascontiguousarray(side.T))


_WEIGHTS = np.asarray([0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415],
                      dtype=np.int64)


class FastPolicy:
    """The default policy (see the module doc): rule-based, vectorised.

    Args:
        name: shown in the odds' model line.
    """

    by_table = True
    """:meth:`draw` and :meth:`stack` are table lookups: asking them for
    every row is cheaper than finding the rows' distinct card sets first
    (issue 33; the look-ahead reads this)."""

    def __init__(self, name: str = "fast") -> None:
        self.name = name

    # ------------------------------------------------------------ Roll Your Own
    def keep(self, cards: Ints) -> Ints:
        """Index into :data:`TRIPLES` of the best three to keep (R-RYO-2)."""
        return np.asarray(self.keep_scores(cards).argmax(axis=1), dtype=np.int64)

    def keep_scores(self, cards: Ints) -> Floats:
        """The score of each of the 20 ways to keep three of ``cards``
        ``(S, 6)`` (:data:`TRIPLES` order), ``(S, 20)``: :meth:`keep` takes
        the greatest; equal scores are equally good to the policy."""
        c = np.asarray(cards, dtype=np.int16)
        r = c >> 2
        s = c & 3
        t0, t1, t2 = TRIPLES[:, 0], TRIPLES[:, 1], TRIPLES[:, 2]
        s0, s1 = s[:, t0], s[:, t1]
        index = r[:, t0] * np.int16(169) + r[:, t1] * np.int16(13) + r[:, t2] \
            + np.int16(2197) * ((s0 == s1) & (s1 == s[:, t2]))
        return np.asarray(_keep_table()[index], dtype=np.float64)

    def expose_scores(self, up: Ints, down: Ints) -> Ints:
        """Roll Your Own before the wild card (R-RYO-3, R-RYO-5): for ``up``
        ``(S, k)`` (k 0..2) and each of the three ``down`` cards ``(S, 3)``,
        the value of the hand that would show (pairs and trips count, R-C-8);
        the policy exposes a card of least value (ties: at random)."""
        up = np.asarray(up, dtype=np.int64)
        down = np.asarray(down, dtype=np.int64)
        k = up.shape[1] + 1
        base = np.zeros(len(up), dtype=np.int64)
        for i in range(up.shape[1]):
            base = base * 13 + (up[:, i] >> 2)
        return np.asarray(_showing_table(k)[base[:, None] * 13 + (down >> 2)], dtype=np.int64)

    # ------------------------------------------------------------ 5-2-1 draws
    def draw(self, cards: Ints, most: int) -> Bools:
        """Which cards to throw in a 5-2-1 draw, at most ``most`` (see the
        module doc): ``(S, 5)`` booleans for ``cards`` ``(S, 5)``. Read from
        a table by the hand's ranks and suit pattern (:func:`_draw_table`;
        issue 33); the same answer as :func:`draw_by_rules`."""
        c = np.asarray(cards, dtype=np.int64)
        if most not in (1, 2) or c.ndim != 2 or c.shape[1] != 5:
            return draw_by_rules(c, most)
        ct = np.ascontiguousarray(c.T)  # worked on (5, S) columns
        pos, ok = _id_places(ct)
        bits = _draw_table(most)[_rank_key(ct) * 7 + _suit_class(ct, pos)]
        out = np.ascontiguousarray(((bits[None, :] >> pos) & 1).T).astype(bool)
        if not ok.all():  # a card held twice: the rules themselves
            bad = ~ok
            out[bad] = draw_by_rules(c[bad], most)
        return out

    def draw_count(self, cards: Ints, most: int) -> Ints:
        """How many cards :meth:`draw` throws per row, ``(S,)``, without
        saying which (issue 33: the look-ahead weighs tens of thousands of
        candidate histories by the count alone)."""
        c = np.asarray(cards, dtype=np.int64)
        if most not in (1, 2) or c.ndim != 2 or c.shape[1] != 5:
            return np.asarray(draw_by_rules(c, most).sum(axis=1), dtype=np.int64)
        ct = np.ascontiguousarray(c.T)
        pos, ok = _id_places(ct)
        bits = _draw_table(most)[_rank_key(ct) * 7 + _suit_class(ct, pos)]
        out = np.bitwise_count(bits).astype(np.int64)
        if not ok.all():  # a card held twice: the rules themselves
            bad = ~ok
            out[bad] = draw_by_rules(c[bad], most).sum(axis=1)
        return np.asarray(out, dtype=np.int64)

    # ------------------------------------------------------------ stacking
    def stack(self, cards: Ints) -> Ints:
        """Stacking order (indices, top first; the last stays down): a
        permutation of 0..4 per row, ``(S, 5)`` ``int64``, even for a row
        that holds a card twice (its copies keep their given order). Read
        from a table by the hand's ranks and whether it is a flush
        (:func:`_stack_table`; issue 33); the same answer as
        :func:`stack_by_rules`."""
        c = np.asarray(cards, dtype=np.int64)
        if c.ndim != 2 or c.shape[1] != 5:
            return stack_by_rules(c)
        ct = np.ascontiguousarray(c.T)  # worked on (5, S) columns
        pos, ok = _id_places(ct)
        suit = ct & 3
        flush = (suit == suit[:1]).all(axis=0)
        code = _stack_table()[_rank_key(ct) * 2 + flush].astype(np.int64)
        # each card's place in the order, from its place by card id
        place = _PLACES.ravel()[code[None, :] * 5 + pos]
        out = np.empty_like(ct)
        np.put_along_axis(out, place, np.arange(5)[:, None], axis=0)
        out = np.ascontiguousarray(out.T)
        if not ok.all():  # a card held twice: the rules themselves
            bad = ~ok
            out[bad] = stack_by_rules(c[bad])
        return out

    # ------------------------------------------------------------ declare
    def declare(self, own: Ints, others_up: Ints) -> Ints:
        """The side to declare from the own five and the others' up cards."""
        own = np.asarray(own, dtype=np.int64)
        up = np.asarray(others_up, dtype=np.int64)
        facts = [self.factors(own, up[:, j]) for j in range(up.shape[1])]
        return self.combine(facts, len(own))

    def read_up(self, up4: Ints) -> tuple[Ints, Ints, Ints, Ints]:
        """What :meth:`factors` needs of an opponent's four up cards ``up4``
        ``(S, 4)`` alone: per rank its hidden card may have (rows) and world
        (columns), the hand's likely side, high and low value, and the cards
        of the rank among ``up4``. Pass it as ``factors(..., read=)`` to
        evaluate many own hands against the same up cards."""
        up4 = np.asarray(up4, dtype=np.int64)
        index, t_hi, t_lo, t_side = _completion_tables_t()
        rows = index[_WEIGHTS[up4 >> 2].sum(axis=1)]  # (S,)
        n = len(up4)
        counts = np.bincount((((up4 >> 2).T * n) + np.arange(n)[None, :]).ravel(),
                             minlength=13 * n).reshape(13, n)
        return t_side[:, rows], t_hi[:, rows], t_lo[:, rows], counts

    def factors(self, own: Ints, up4: Ints | None, high: Ints | None = None,
                low: Ints | None = None,
                read: tuple[Ints, Ints, Ints, Ints] | None = None) -> Floats:
        """The declare's view of one opponent: for ``own`` ``(S, 5)`` against
        that opponent's ``up4`` ``(S, 4)`` (or its :meth:`read_up`), the
        chances (over the rank of its hidden card, weighted by the cards of
        that rank not among ``own`` and ``up4``) that it is no obstacle high,
        low, both ways, that it is not on the low side and not on the high
        side: ``(S, 5)`` floats."""
        own = np.asarray(own, dtype=np.int64)
        if read is None:
            assert up4 is not None
            read = self.read_up(up4)
        return self.factors_of_counts(self.rank_counts(own),
                                      high5(own) if high is None else high,
                                      low5(own) if low is None else low, read)

    @staticmethod
    def rank_counts(own: Ints) -> Ints:
        """The cards of each rank in each row of ``own`` ``(S, k)``: ``(13, S)``."""
        n = len(own)
        return np.bincount((((own >> 2).T * n) + np.arange(n)[None, :]).ravel(),
                           minlength=13 * n).reshape(13, n)

    @staticmethod
    def factors_of_counts(counts: Ints, high: Ints, low: Ints,
                          read: tuple[Ints, Ints, Ints, Ints]) -> Floats:
        """:meth:`factors` from the own hands' :meth:`rank_counts` ``counts``
        ``(13, S)``, high and low values ``(S,)`` and the opponent's
        :meth:`read_up` (issue 33: the look-ahead counts a hand's ranks once
        for every opponent it is read against). The same floats as
        :meth:`factors`."""
        h = high[None, :]
        lo = low[None, :]
        # worked on (13, S): one row per rank the hidden card may have
        side_j, hi_j, lo_j, up_counts = read
        n = counts.shape[1]
        seen = counts + up_counts
        w = np.maximum(0, 4 - seen).astype(np.float64)
        w /= np.maximum(w.sum(axis=0), 1.0)
        not_lo_side = side_j == 0
        not_hi_side = side_j == 1
        ok_hi = not_hi_side | (h > hi_j)
        ok_lo = not_lo_side | (lo > lo_j)
        tests = (ok_hi, ok_lo, ok_hi & ok_lo, not_lo_side, not_hi_side)
        if n > 1:
            # the weights of the ranks passing each test, summed rank by rank
            # as the masked sums below do (one einsum: a third of their
            # time; issue 33)
            return np.ascontiguousarray(np.einsum("kjs,js->sk", np.stack(tests), w))
        # one hand: numpy sums its 13 ranks pairwise, and a declare can tie
        # to the last bit (a full house against kings and queens up: both
        # against high); these sums keep the policy's answer there
        out = np.empty((5, n))
        for k, test in enumerate(tests):
            out[k] = np.where(test, w, 0.0).sum(axis=0)
        return np.ascontiguousarray(out.T)

    @staticmethod
    def combine(factors: list[Floats], s: int) -> Ints:
        """The side from the :meth:`factors` of every opponent (independent)."""
        if not factors:
            return np.zeros(s, dtype=np.int64)
        return FastPolicy.side_of(np.prod(np.stack(factors, axis=0), axis=0))

    @staticmethod
    def side_of(prod: Floats) -> Ints:
        """The side from the product ``(S, 5)`` of every opponent's
        :meth:`factors` (what :meth:`combine` multiplies)."""
        p_hi, p_lo, p_both, no_low, no_high = prod.T
        e_hi = p_hi * (1 + no_low) / 2
        e_lo = p_lo * (1 + no_high) / 2
        best = np.where(e_lo > e_hi, 1, 0)
        return np.asarray(np.where(p_both > np.maximum(e_hi, e_lo), 2, best), dtype=np.int64)


def draw_by_rules(cards: Ints, most: int) -> Bools:
    """:meth:`FastPolicy.draw` computed from the rules (see the module doc):
    what :func:`_draw_table` holds, and the answer for rows that hold a card
    twice."""
    c = np.asarray(cards, dtype=np.int64)
    # worked on (5, S) columns: sums over five cards add five rows
    ct = np.ascontiguousarray(c.T)
    r = ct >> 2
    lr = np.where(r == 12, 1, r + 2)
    suit = ct & 3
    same = r[:, None, :] == r[None, :, :]  # (5, 5, S)
    cnt = same.sum(axis=1)
    # first of its rank: no card of its rank with a smaller id (so the
    # choice depends on the cards, not on their order)
    first = ~(same & (ct[None, :, :] < ct[:, None, :])).any(axis=1)
    cat = high5(c) >> 20
    low8 = first & (lr <= 8)
    n_low8 = low8.sum(axis=0)
    n_low7 = (first & (lr <= 7)).sum(axis=0)
    same_suit = (suit[:, None, :] == suit[None, :, :]).sum(axis=1)
    four_flush = same_suit.max(axis=0) == 4
    max_cnt = cnt.max(axis=0)
    pair_rank = np.where(cnt >= 2, r, -1).max(axis=0)
    # the first rule that applies (see the module doc), 0..7
    rule = np.select(
        [(cat >= 4) | (n_low8 == 5), (cat == 2) | (cat == 3), n_low8 == 4,
         (max_cnt >= 2) & (pair_rank >= 7), four_flush, n_low7 >= 3, max_cnt >= 2],
        [0, 1, 2, 3, 4, 5, 6], 7)
    eligible = np.select(
        [rule == 0, (rule == 1) | (rule == 3) | (rule == 6), rule == 2, rule == 4,
         rule == 5],
        [False, cnt == 1, ~low8, same_suit != 4, ~low8], True)
    low_rule = (rule == 2) | (rule == 5)
    # badness: the greatest is thrown first, ties: the smaller card id first
    bad = np.where(low_rule, np.where(low8, lr, 20 + lr), -r)
    key = np.where(eligible, bad * 64 + 63 - ct, np.iinfo(np.int64).min)
    place = (key[None, :, :] > key[:, None, :]).sum(axis=1)
    return np.ascontiguousarray((eligible & (place < most)).T)


def stack_by_rules(cards: Ints) -> Ints:
    """:meth:`FastPolicy.stack` computed from the rules (see the module doc):
    what :func:`_stack_table` holds, and the answer for rows that hold a card
    twice."""
    c = np.asarray(cards, dtype=np.int64)
    is_low = _low_is_better(high5(c), low5(c))
    ct = np.ascontiguousarray(c.T)  # (5, S)
    r = ct >> 2
    lr = np.where(r == 12, 1, r + 2)
    cnt = (r[:, None, :] == r[None, :, :]).sum(axis=1)
    # the card kept down: a low hand's best low card; a high hand's card of
    # its biggest group (the highest); shown first: the worst low card, or
    # the lowest card (ties by card id)
    low_key = (14 - lr) * 64 + ct
    hi_key = r * 64 + ct
    hide = np.where(is_low, np.argmin(lr * 64 + ct, axis=0),
                    np.argmax(cnt * 1024 + hi_key, axis=0))
    key = np.where(is_low, low_key, hi_key)
    key[hide, np.arange(len(c))] = 1 << 20
    # a stable sort: always a permutation, equal keys (only a card held
    # twice has them) in their given order
    order = np.argsort(key, axis=0, kind="stable")
    return np.ascontiguousarray(order.T, dtype=np.int64)


_W5 = np.asarray((0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415),
                 dtype=np.int64)
"""Rank weights whose sums over five ranks are distinct
(:data:`rollem.hands.tables.RANK_WEIGHTS`)."""
_KEYS = 4 * 79415 + 43258 + 1
_PERMS = np.asarray(list(permutations(range(5))), dtype=np.int64)
"""The 120 orders of five places, as :func:`_stack_table` codes them."""
_PERM_CODE = np.zeros(5 ** 5, dtype=np.uint8)
_PERM_CODE[(_PERMS * 5 ** np.arange(5)).sum(axis=1)] = np.arange(120)
_PLACES = np.argsort(_PERMS, axis=1)
"""Per order of :data:`_PERMS`: each place's position in it."""


def _rank_key(ct: Ints) -> Ints:
    """The multiset of the five ranks of each column of ``ct`` ``(5, S)``,
    as one number below :data:`_KEYS`."""
    return np.asarray(_W5[ct >> 2].sum(axis=0), dtype=np.int64)


def _id_places(ct: Ints) -> tuple[Ints, Bools]:
    """Each card's place among its column's five by card id (0 the
    smallest) ``(5, S)``, and whether the column's cards are distinct
    ``(S,)``: the cards below it in the column's set of cards, counted."""
    bit = np.left_shift(np.int64(1), ct)
    held = bit[0] | bit[1] | bit[2] | bit[3] | bit[4]
    pos = np.bitwise_count(held[None, :] & (bit - 1)).astype(np.int64)
    return pos, np.bitwise_count(held) == 5


def _suit_class(ct: Ints, pos: Ints) -> Ints:
    """Per column of ``ct`` ``(5, S)``: 0 no four cards of a suit; 1 + p
    four of a suit, the odd card at place ``p`` by card id (``pos``); 6 a
    flush."""
    shift = (ct & 3) * 4
    counts = np.left_shift(np.int64(1), shift).sum(axis=0)  # four bits per suit
    own = (counts[None, :] >> shift) & 15  # cards of each card's suit
    top = own.max(axis=0)
    odd = (pos * (own == 1)).sum(axis=0)
    return np.where(top == 5, 6, np.where(top == 4, 1 + odd, 0))


@cache
def _patterns() -> tuple[Ints, Ints, Ints]:
    """One hand, its cards in card-id order, for every multiset of five
    ranks (at most four of a rank) and suit class (:func:`_suit_class`) a
    hand can have: ``(hands (H, 5), rank keys (H,), classes (H,))``."""
    from itertools import combinations_with_replacement

    ranks = np.asarray(list(combinations_with_replacement(range(13), 5)), dtype=np.int64)
    ranks = ranks[ranks[:, 0] != ranks[:, 4]]  # ascending: five of a rank is impossible
    same = ranks[:, :, None] == ranks[:, None, :]
    occ = np.tril(same, k=-1).sum(axis=2)  # cards of its rank before it
    size = same.sum(axis=2)
    group = np.concatenate([np.zeros((len(ranks), 1), dtype=np.int64),
                            np.cumsum(ranks[:, 1:] != ranks[:, :-1], axis=1)], axis=1)
    # no four of a suit: a rank's cards take consecutive suits (ascending),
    # from suit 0 in every other rank and up to suit 3 in the others
    hands = [4 * ranks + np.where(group % 2 == 0, 0, 4 - size) + occ]
    classes = [np.zeros(len(ranks), dtype=np.int64)]
    distinct = (size == 1).all(axis=1)
    hands.append(4 * ranks[distinct])  # a flush
    classes.append(np.full(int(distinct.sum()), 6))
    for odd in range(5):
        rest = np.delete(size, odd, axis=1) - np.delete(same[:, :, odd], odd, axis=1)
        four = (rest == 1).all(axis=1)  # the other four of distinct ranks: suit 1
        # the odd card of suit 2 after a card of its rank, else of suit 0
        after = ranks[:, odd] == ranks[:, odd - 1] if odd else np.zeros(len(ranks), bool)
        suits = np.ones((len(ranks), 5), dtype=np.int64)
        suits[:, odd] = np.where(after, 2, 0)
        hands.append((4 * ranks + suits)[four])
        classes.append(np.full(int(four.sum()), 1 + odd))
    h = np.concatenate(hands)
    return h, _rank_key(h.T), np.concatenate(classes)


@cache
def _draw_table(most: int) -> npt.NDArray[np.uint8]:
    """:func:`draw_by_rules` by rank multiset and suit class (index
    ``rank key * 7 + class``): the cards thrown as bits by place in card-id
    order (issue 33: the 5-2-1 look-ahead asks for draws some hundred
    thousand times a second). The rules depend on the cards only through
    their ranks, four or five of a suit and, between cards of one rank,
    their card ids; so one hand of each pattern answers for all."""
    hands, keys, classes = _patterns()
    thrown = draw_by_rules(hands, most)  # hands are in card-id order
    bits = (thrown * (1 << np.arange(5))[None, :]).sum(axis=1)
    table = np.zeros(_KEYS * 7, dtype=np.uint8)
    table[keys * 7 + classes] = bits
    return table


@cache
def _stack_table() -> npt.NDArray[np.uint8]:
    """:func:`stack_by_rules` by rank multiset and flush (index ``rank key
    * 2 + flush``): the order of places in card-id order, as an index into
    :data:`_PERMS` (the rules read the ranks, a flush and, between cards of
    one rank, their card ids)."""
    hands, keys, classes = _patterns()
    pick = (classes == 0) | (classes == 6)
    hands, keys, flush = hands[pick], keys[pick], (classes[pick] == 6).astype(np.int64)
    order = stack_by_rules(hands)
    code = _PERM_CODE[(order * 5 ** np.arange(5)).sum(axis=1)]
    table = np.zeros(_KEYS * 2, dtype=np.uint8)
    table[keys * 2 + flush] = code
    return table


FAST = FastPolicy()
"""The default look-ahead policy."""


def _cards_of(texts: Any) -> list[int]:
    from rollem.cards import parse_card

    return [int(parse_card(t)) for t in texts if t is not None]


class PolicyPlayer:
    """Plays a hand by ``policy`` for every card choice and checks or calls
    every bet (never folds, never raises): the players the look-ahead model
    assumes, used by the calibration tests. ``act(view)`` returns a legal
    action from the seat's view alone.
    """

    def __init__(self, policy: Policy = FAST, rng: random.Random | None = None) -> None:
        self.policy = policy
        self.rng = rng if rng is not None else random.Random(0)

    def act(self, view: Any) -> object:
        """The action for ``view.seat`` (a :class:`rollem.engine.HandView`)."""
        from rollem.bots.basic import expose_choice
        from rollem.cards import CARDS, parse_rank
        from rollem.engine.actions import (
            Call,
            Check,
            Declare,
            Discard,
            Draw,
            Expose,
            PickWild,
            Stack,
        )

        legal = view.legal
        acts = legal.actions
        cards = [int(c) for c in legal.cards]
        if "discard" in acts:
            k = int(self.policy.keep(np.asarray([cards]))[0])
            kept = {cards[i] for i in TRIPLES[k]}
            return Discard(tuple(CARDS[c] for c in cards if c not in kept))
        if "expose" in acts:
            me = view.seats[view.seat]
            up = [CARDS[c] for c in _cards_of(
                [t for t, u in zip(me.cards, me.up, strict=False) if u])]
            wild = [parse_rank(r) for r in view.wild_ranks]
            return Expose(expose_choice([CARDS[c] for c in cards], up, wild, self.rng))
        if "wild" in acts:
            return PickWild(0)
        if "draw" in acts:
            throw = self.policy.draw(np.asarray([cards]), legal.max_count)[0]
            return Draw(tuple(CARDS[c] for c, t in zip(cards, throw, strict=True) if t))
        if "stack" in acts:
            order = self.policy.stack(np.asarray([cards]))[0]
            return Stack(tuple(CARDS[cards[i]] for i in order))
        if "declare" in acts:
            own = _cards_of(view.my_cards)
            ups = []
            for s in view.seats:
                if s.seat == view.seat or not s.dealt or s.folded:
                    continue
                ups.append(_cards_of([t for t, u in zip(s.cards, s.up, strict=False) if u])[:4])
            arr = np.asarray([ups], dtype=np.int64).reshape(1, len(ups), 4)
            side = int(self.policy.declare(np.asarray([own]), arr)[0])
            return Declare(("high", "low", "both")[side])
        if "check" in acts:
            return Check()
        return Call()
