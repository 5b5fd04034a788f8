"""The ``strong`` bot's card choices, as plain functions.

Two layers, both usable outside the bot (the look-ahead odds of
:mod:`rollem.odds` may call them as "the strongest card-choice policy the
computer players have"):

- card-level functions, ``cards (+ what is known) -> choice``:
  :func:`keep_choice` (Five Card Roll Your Own discard, R-RYO-2),
  :func:`expose_choice` (R-RYO-3, R-RYO-5), :func:`draw_choice` (5-2-1 draws,
  R-521-2, R-521-4), :func:`stack_choice` (R-521-6), :func:`declare_choice`
  (R-521-8, from sampled shares);
- :func:`card_action`, ``(view, rng) -> action`` for any card decision of a
  :class:`rollem.engine.HandView` (a discard, expose, wild pick, draw or
  stack), from that view only.

Keep and draw options are each valued by simulating the rest of the hand
(``worlds`` deals per option, at most 32, the same deals for every option so
that options differ by the choice and not by luck): the draws to come, the
wild card, and opponents' five cards, then the showdown (5-2-1: each hand
declaring its better side by :func:`rollem.odds.r521.declare_model`, settled
by R-521-9). Stacking orders are scored by how little they show early and
one is picked at random among the near-best, so the up cards do not tell
the plan.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from itertools import combinations, permutations

import numpy as np
import numpy.typing as npt

from rollem.bots.basic import draw_choice as basic_draw_choice
from rollem.cards import Card, parse_card, parse_rank
from rollem.engine.actions import Discard, Draw, Expose, PickWild, Stack
from rollem.engine.views import HandView
from rollem.hands import showing_value
from rollem.odds.evaluate import high5, low5, wild5
from rollem.odds.r521 import declare_model, side_shares

__all__ = ["MAX_WORLDS", "card_action", "declare_choice", "draw_choice", "expose_choice",
           "keep_choice", "stack_choice"]

MAX_WORLDS = 32
"""The most simulated deals per option of a card choice."""

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


def _deals(unseen: Sequence[int], worlds: int, count: int, rng: random.Random) -> Ints:
    """``worlds`` rows of ``count`` distinct cards drawn from ``unseen``."""
    gen = np.random.default_rng(rng.getrandbits(64))
    pool = np.asarray(list(unseen), dtype=np.int64)
    keys = gen.random((worlds, len(pool)))
    idx = np.argsort(keys, axis=1)[:, :count]
    out: Ints = pool[idx]
    return out


def _share(hero: Ints, others: Ints) -> Floats:
    if others.shape[1] == 0:
        return np.ones(hero.shape)
    best = others.max(axis=1)
    ties = (others == hero[:, None]).sum(axis=1)
    out: Floats = np.where(hero > best, 1.0, np.where(hero == best, 1.0 / (1 + ties), 0.0))
    return out


def keep_choice(cards: Sequence[int], opponents: int, rng: random.Random, *,
                worlds: int = MAX_WORLDS, wild_duplicates: bool = False,
                natural_beats_wild: bool = False) -> tuple[Card, ...]:
    """Five Card Roll Your Own discard (R-RYO-2): the three of the six ``cards`` to
    put in the pool, so that the three kept have the best chances: each of the 20
    keeps plays ``worlds`` deals of two draws and a wild card (R-RYO-5..R-RYO-9)
    against four random five-card hands, scored heads-up against each (steadier
    than one showdown; ``opponents`` is accepted for the interface).

    Returns:
        The cards to discard (three, in the order given).

    Raises:
        ValueError: unless six distinct cards are given.
    """
    if len(cards) != 6 or len(set(cards)) != 6:
        raise ValueError(f"keep_choice needs six distinct cards, got {len(cards)}")
    del opponents  # the score is heads-up against each of four simulated hands
    k = 4
    unseen = [c for c in range(52) if c not in cards]
    deal = _deals(unseen, worlds, 3 + 5 * k, rng)
    keeps = list(combinations(range(6), 3))
    arr = np.asarray(cards, dtype=np.int64)
    mine = np.concatenate([np.repeat(arr[np.asarray(keeps)][:, None, :], worlds, 1),
                           np.broadcast_to(deal[None, :, :2], (len(keeps), worlds, 2))], 2)
    opp = np.broadcast_to(deal[None, :, 3:3 + 5 * k].reshape(1, worlds, k, 5),
                          (len(keeps), worlds, k, 5))
    hands = np.concatenate([mine[:, :, None, :], opp], 2).reshape(-1, k + 1, 5)
    wild = np.tile(deal[:, 2] >> 2, len(keeps))
    values = np.zeros(hands.shape[:2], dtype=np.int64)
    opts = {"wild_duplicates": wild_duplicates, "natural_beats_wild": natural_beats_wild}
    for r in np.unique(wild):
        sel = wild == r
        values[sel] = wild5(hands[sel], [int(r)], **opts)
    mine_v = values[:, :1]
    duel = ((mine_v > values[:, 1:]) + 0.5 * (mine_v == values[:, 1:])).mean(axis=1)
    score = duel.reshape(len(keeps), worlds).mean(axis=1)
    score = score + np.asarray([rng.random() * 1e-6 for _ in keeps])
    best = keeps[int(np.argmax(score))]
    return tuple(Card(cards[i]) for i in range(6) if i not in best)


def expose_choice(down: Sequence[int], up: Sequence[int], wild_ranks: Collection[int],
                  rng: random.Random) -> Card:
    """R-RYO-3, R-RYO-5: the down card to turn up: among those that leave the weakest
    hand showing (equal showing values), one at random, so the exposures do not
    tell the hand."""
    scored = [(showing_value([*up, c], wild_ranks), c) for c in down]
    least = min(v for v, _ in scored)
    return Card(rng.choice([c for v, c in scored if v == least]))


def _r521_values(hands: Ints) -> Floats:
    """Seat 0's share per row of ``hands`` ``(N, n, 5)``: everybody declares its
    better side (:func:`declare_model`), settled by R-521-9."""
    high, low = high5(hands), low5(hands)
    sides = declare_model(high, low)
    return side_shares(high, low, sides)


def draw_choice(cards: Sequence[int], most: int, unseen: Sequence[int], rng: random.Random, *,
                least: int = 0, later: Sequence[int] = (), opponents: int = 1,
                worlds: int = MAX_WORLDS) -> tuple[Card, ...]:
    """5-2-1 draw (R-521-2, R-521-4): the cards to throw, ``least`` to ``most`` of the
    five ``cards``, chosen by simulation: every option plays ``worlds`` deals of
    its replacements from ``unseen`` and of the ``later`` draws (sizes, played by
    :func:`rollem.bots.basic.draw_choice`), against ``opponents`` (1..3 simulated)
    hands of five unseen cards; the option with the greatest mean pot share wins.

    Raises:
        ValueError: unless five distinct cards and ``0 <= least <= most <= 5``.
    """
    if len(cards) != 5 or len(set(cards)) != 5 or not 0 <= least <= most <= 5:
        raise ValueError("draw_choice needs five distinct cards and 0 <= least <= most <= 5")
    k = max(1, min(3, opponents))
    extra = most + sum(later)
    deal = _deals(unseen, worlds, extra + 5 * k, rng)
    opts = _undominated([t for n in range(least, most + 1) for t in combinations(range(5), n)],
                        cards)
    base = [Card(c) for c in cards]
    arr = np.asarray(cards, dtype=np.int64)
    opp = deal[:, extra:].reshape(worlds, k, 5)

    def score(options: list[tuple[int, ...]], later_draws: Sequence[int]) -> Floats:
        hands = np.zeros((len(options), worlds, k + 1, 5), dtype=np.int64)
        hands[:, :, 1:, :] = opp[None]
        for i, throw in enumerate(options):
            keep = [j for j in range(5) if j not in throw]
            hands[i, :, 0, :len(keep)] = arr[keep]
            hands[i, :, 0, len(keep):] = deal[:, :len(throw)]
            if not later_draws:
                continue
            for w in range(worlds):
                hand = [Card(int(c)) for c in hands[i, w, 0]]
                at = len(throw)
                for size in later_draws:
                    thrown = basic_draw_choice(hand, size)
                    hand = [c for c in hand if c not in thrown] + \
                        [Card(int(c)) for c in deal[w, at:at + len(thrown)]]
                    at += size
                hands[i, w, 0] = hand
        flat = _r521_values(hands.reshape(-1, k + 1, 5))
        # equal shares: throw fewer cards (a made hand stands pat), then at random
        noise = np.asarray([rng.random() * 1e-6 - 1e-4 * len(t) for t in options])
        out: Floats = flat.reshape(len(options), worlds).mean(axis=1) + noise
        return out

    first = score(opts, ())
    if later:  # the draws to come only for the four best options as they stand
        top = [opts[i] for i in np.argsort(-first)[:4]]
        best = top[int(np.argmax(score(top, later)))]
    else:
        best = opts[int(np.argmax(first))]
    return tuple(base[j] for j in best)


def _undominated(options: list[tuple[int, ...]], cards: Sequence[int]) -> list[tuple[int, ...]]:
    """The draw options (positions to throw) less those a same-rank swap beats:
    of options that throw the same ranks, only those keeping the most cards of
    one suit (the same ranks kept, so the same lows and pairs, and the better
    flush chances). The simulation's few worlds cannot see that difference, and
    threw the suited five of 2c 3c 4c 5c 5d."""
    def suited(throw: tuple[int, ...]) -> int:
        suits = [cards[j] & 3 for j in range(5) if j not in throw]
        return max((suits.count(x) for x in set(suits)), default=0)

    best: dict[tuple[int, ...], int] = {}
    for t in options:
        ranks = tuple(sorted(cards[j] >> 2 for j in t))
        best[ranks] = max(best.get(ranks, 0), suited(t))
    return [t for t in options if suited(t) == best[tuple(sorted(cards[j] >> 2 for j in t))]]


def _low_rank(card: int) -> int:
    r = card >> 2
    return 1 if r == 12 else r + 2


def stack_choice(cards: Sequence[int], rng: random.Random, *, tolerance: float = 0.08
                 ) -> tuple[Card, ...]:
    """R-521-6: an order (top first) for five cards that shows as little as it can
    before the last card: for a hand going high (:func:`declare_model`) the high
    hands showing after 1..4 cards, for a low one its low cards showing, each
    ranked among all 120 orders; one order is picked at random among those within
    ``tolerance`` of the best, so the order itself tells little."""
    hand = [Card(c) for c in cards]
    arr = np.asarray([cards], dtype=np.int64)
    going_low = int(declare_model(high5(arr), low5(arr))[0]) == 1
    orders = list(permutations(hand))
    scores = np.zeros(len(orders))
    for n in range(1, 5):
        if going_low:
            vals = np.asarray([sum(9 - _low_rank(c) for c in set(o[:n]) if _low_rank(c) <= 8)
                               for o in orders], dtype=np.float64)
        else:
            vals = np.asarray([showing_value(o[:n]) for o in orders], dtype=np.float64)
        ranks = np.argsort(np.argsort(vals, kind="stable"), kind="stable")
        lo, hi = vals.min(), vals.max()
        scores += (vals - lo) / (hi - lo) if hi > lo else 0.0
        del ranks
    scores /= 4.0
    near = [i for i in range(len(orders)) if scores[i] <= scores.min() + tolerance]
    return tuple(orders[rng.choice(near)])


def declare_choice(shares: dict[str, float], sides: Sequence[str]) -> str:
    """R-521-8: the allowed side with the greatest expected share (``shares`` from
    weighted worlds); high before low before both on equal shares."""
    order = [s for s in ("high", "low", "both") if s in sides]
    return max(order, key=lambda s: (shares.get(s, 0.0), -order.index(s)))


def card_action(view: HandView, rng: random.Random, *, worlds: int = MAX_WORLDS) -> object:
    """The strong choice for the card decision ``view`` asks for (a discard,
    expose, wild pick, draw or stack), from ``view`` alone.

    Raises:
        ValueError: the view asks for no card decision.
    """
    legal = view.legal
    if legal is None or not legal.actions:
        raise ValueError("card_action needs a view with a card decision pending")
    acts = legal.actions
    live = sum(1 for s in view.seats if s.dealt and not s.folded)
    cards = [int(c) for c in legal.cards]
    if "discard" in acts:
        opts = view.options
        if len(cards) == 6 and legal.max_count == 3:
            return Discard(keep_choice(cards, live - 1, rng, worlds=worlds,
                                       wild_duplicates=bool(opts.get("wild_duplicates")),
                                       natural_beats_wild=bool(opts.get("natural_beats_wild"))))
        return Discard(tuple(Card(c) for c in cards[:legal.max_count]))
    if "expose" in acts:
        me = view.seats[view.seat] if view.seat is not None else None
        up = [int(parse_card(c)) for c, u in zip(me.cards, me.up, strict=False)
              if u and c is not None] if me is not None else []
        return Expose(expose_choice(cards, up, [parse_rank(r) for r in view.wild_ranks], rng))
    if "wild" in acts:
        return PickWild(rng.randrange(legal.positions))  # face down: all alike (R-RYO-7)
    if "draw" in acts:
        from rollem.bots.draw521 import draws_left, unseen_cards

        later = draws_left(view)
        later = later[1:] if later else ()
        throw = draw_choice(cards, legal.max_count, unseen_cards(view), rng,
                            least=legal.min_count, later=later, opponents=live - 1,
                            worlds=worlds)
        return Draw(throw)
    if "stack" in acts:
        return Stack(stack_choice(cards, rng))
    raise ValueError(f"card_action: {legal.describe()} is not a card decision")
