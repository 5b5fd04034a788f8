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
cannot see, by **importance weighting**:

- The hidden state is each opponent's six dealt cards (three kept, three
  discarded into the pool) and the pool's shuffled order. Deal and shuffle
  are uniform, so the posterior is uniform over the worlds consistent with
  what the seat saw, times the policy's likelihood of every opponent's keep
  and every expose.
- An opponent's up card was either kept or drawn in an earlier draw (an up
  card the seat itself discarded was drawn). For each combination of these
  origins (a *pattern*) the consistent worlds are drawn uniformly: the
  unknown pool cards and the opponents' hidden kept cards from the unseen
  cards, the opponents' discards a uniform split of the pool's other cards,
  the pool's order uniform given the draws seen (the wild card among the
  cards not drawn). A pattern's prior chance is how many consistent worlds
  it holds (a count, :func:`_log_worlds`).
- **One opponent at a time** (:func:`_group`). Within a pattern, a world
  first lays out the pool without naming its unknown cards (which
  opponent discarded which, which of them each hidden draw took); then,
  one opponent after the other, :data:`CANDIDATES` candidates for what is
  still unnamed of that opponent (its hidden kept cards, from a guide
  (:func:`_guide`) that favours the sets explaining its exposes and keep,
  and the unknown cards among its discards and draws) are weighed by the
  policy's chance of its keep and exposes; one is kept in proportion to its
  weight and the world's weight is multiplied by their mean weight (an
  unbiased estimate of that opponent's likelihood given what is named, so
  every world stays properly weighted). Weighing each opponent by itself
  keeps the weights even where a product over opponents would not.
- **Patterns by a pilot run.** A pilot of :data:`PILOT` worlds per pattern
  estimates how well each explains what was seen; the worlds are shared
  out in proportion to that (:data:`DEFENSIVE` of them by the prior alone)
  and weighted back by prior over share.
- Answers are weighted means; the standard error is that of a ratio
  estimate; the effective number of worlds (``sum(w)^2 / sum(w^2)``) is in
  the model line.

Draws still to come and the wild card (when not yet turned) come from the
pool cards not yet drawn. Nobody folds from here on; no betting is read.
With more patterns than :data:`MAX_PATTERNS`, fewer effective worlds than
:data:`MIN_EFFECTIVE` of those drawn even on a second try with
:data:`RETRY` times the candidates (rare with two opponents; more often
with five or more, late in the hand), or a view the model cannot
place, :func:`ryo_seen_look` returns ``None`` and the caller falls back to
the tracked model (:func:`rollem.odds.ryo.ryo_tracked_odds`), which does
not read keeps or exposes (the model line says which was used).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import product
from math import lgamma

import numpy as np

from rollem.cards import parse_card
from rollem.hands.category import Category
from rollem.odds.common import Floats, Ints, np_rng
from rollem.odds.evaluate import wild5
from rollem.odds.look521 import Bools
from rollem.odds.policy import FAST, FastPolicy
from rollem.odds.result import Odds
from rollem.odds.view import ViewInfo

__all__ = ["MAX_PATTERNS", "SeenOpponent", "SeenPool", "ryo_seen_look", "seen_of"]

MAX_PATTERNS = 64
"""At most this many combinations of up-card origins are weighed."""
MIN_EFFECTIVE = 0.03
"""Below this share of effective worlds (``sum(w)^2 / sum(w^2)`` over the
worlds drawn) the weighting is too uneven to trust: :func:`ryo_seen_look`
returns ``None`` and the caller falls back to the tracked model."""


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
    one card, and a card the seat discarded was drawn."""
    choices = []
    for e, card in enumerate(opp.ups):
        allowed = [r for r in range(1, min(e, len(opp.draws)) + 1)]
        if card not in discards:
            allowed.insert(0, 0)
        choices.append(allowed)
    return [combo for combo in product(*choices)
            if len([r for r in combo if r]) == len({r for r in combo if r})]


def _log_worlds(seen: SeenPool, pattern: tuple[tuple[int, ...], ...], n_unseen: int
                ) -> float | None:
    """Log of the number of consistent worlds under ``pattern`` (up to a
    constant shared by every pattern); ``None`` when there are none. The
    count is: choose the unknown pool cards ``u`` and each opponent's hidden
    kept cards ``f_j`` from the ``n_unseen`` unseen cards, split the pool's
    other cards among the opponents (the same count for every pattern), and
    order the pool cards not at a draw the seat can place (``free``), the
    wild card among those not drawn."""
    n = 3 * (1 + len(seen.opponents))
    known = set(seen.discards) | {c for _, c in seen.my_draws}
    if seen.wild is not None:
        known.add(seen.wild)
    placed = len(seen.my_draws)
    fills = []
    for opp, combo in zip(seen.opponents, pattern, strict=True):
        for card, r in zip(opp.ups, combo, strict=True):
            if r:
                known.add(card)
                placed += 1
        fills.append(3 - sum(1 for r in combo if r == 0))
    u = n - len(known)
    if u < 0 or min(fills) < 0 or u + sum(fills) > n_unseen:
        return None
    free = n - placed - (seen.wild is not None)
    return (-lgamma(u + 1) - sum(lgamma(f + 1) for f in fills)
            - lgamma(n_unseen - u - sum(fills) + 1) + lgamma(free + 1))


def _shuffled(gen: np.random.Generator, cards: Ints) -> Ints:
    """Each row of ``cards`` ``(S, k)`` in a uniformly random order."""
    if cards.shape[1] < 2:
        return cards
    return np.take_along_axis(cards, np.argsort(gen.random(cards.shape), axis=1), axis=1)


PILOT = 64
"""Worlds per pattern in the pilot run that shares the worlds among the
patterns (see :func:`ryo_seen_look`)."""
DEFENSIVE = 0.1
"""The share of worlds given out by the patterns' prior chances alone, so a
pattern the pilot underrates still gets worlds."""
CANDIDATES = 8
"""Candidates drawn per opponent and world (see :func:`_group`)."""
RETRY = 4
"""Where the weights are too uneven: this many times the candidates, this
many times fewer worlds, once (see :func:`ryo_seen_look`)."""


def _group(seen: SeenPool, pattern: tuple[tuple[int, ...], ...], count: int,
           unseen: Ints, policy: FastPolicy, tremble: float, gen: np.random.Generator,
           guides: dict[tuple[int, tuple[int, ...]], tuple[Ints, Floats]],
           candidates: int = CANDIDATES) -> tuple[Ints, Floats, Ints | None]:
    """``count`` worlds of one pattern: every player's final five cards
    ``(count, players, 5)`` (the seat first, then live opponents), the
    weights, and the wild card per world when not yet turned.

    Each world is built in two steps. First the pool's layout, without the
    cards' identities: the pool cards other than the seat's discards (those
    the seat knows of and ``u`` unknown ones, labelled) split uniformly
    among the opponents' discards, and the pool's order (which of the seat's
    discards or which unknown card each hidden draw took). Then one opponent
    at a time: ``candidates`` draws of the unknown cards not yet named and
    its hidden kept cards, uniformly from the unseen cards no earlier step
    named, each weighed by the policy's chance of the opponent's keep (its
    discards are its part of the split) and exposes (its draws the pool's
    order) with it; one is kept in proportion to its weight, and of it only
    the cards of that opponent (its kept cards, its discards, its draws):
    the rest stay unnamed for the next. The world's weight is multiplied by
    the candidates' mean weight, an unbiased estimate of that opponent's
    likelihood given what is already named, so the world stays properly
    weighted (the unknown cards' names are exchangeable, so naming them
    lazily draws from the same uniform prior). Reading one opponent at a
    time keeps the weights even where one draw per world, weighed by a
    product over opponents, would not.
    """
    k = count
    m = len(seen.opponents)
    n = 3 * (1 + m)
    discards = list(seen.discards)
    my_cards = {c for _, c in seen.my_draws}
    fixed_pool = set(my_cards) | ({seen.wild} if seen.wild is not None else set())
    kept_up: list[list[int]] = []
    drawn_up: list[dict[int, int]] = []
    for opp, combo in zip(seen.opponents, pattern, strict=True):
        kept_up.append([c for c, r in zip(opp.ups, combo, strict=True) if r == 0])
        drawn_up.append({r: c for c, r in zip(opp.ups, combo, strict=True) if r})
        fixed_pool.update(drawn_up[-1].values())
    fills = [3 - len(a) for a in kept_up]
    u = n - len(fixed_pool | set(discards))
    if u < 0 or min(fills) < 0 or u + sum(fills) > len(unseen):
        raise ValueError("no world fits this pattern")
    labels = np.arange(52, 52 + u, dtype=np.int64)  # unknown pool card i is 52 + i
    others_fixed = np.asarray(sorted(fixed_pool - set(discards)), dtype=np.int64)
    split = _shuffled(gen, np.broadcast_to(np.concatenate([others_fixed, labels]), (k, 3 * m)))
    placed = set(my_cards) | {c for d in drawn_up for c in d.values()}
    loose_fixed = np.asarray([c for c in discards if c not in placed and c != seen.wild],
                             dtype=np.int64)
    loose = _shuffled(gen, np.broadcast_to(np.concatenate([loose_fixed, labels]),
                                           (k, len(loose_fixed) + u)))
    avail = np.zeros((k, 52), dtype=bool)
    avail[:, unseen] = True
    named = np.full((k, u), -1, dtype=np.int64)
    weight = np.ones(k)
    rows = np.arange(k)
    at_loose = 0
    finals: list[Ints] = []
    live_need: list[int] = []
    for j, opp in enumerate(seen.opponents):
        hidden_draws = [r for r in range(1, len(opp.draws) + 1) if r not in drawn_up[j]]
        at = {r: at_loose + i for i, r in enumerate(hidden_draws)}
        at_loose += len(hidden_draws)
        mine_lab = np.concatenate([split[:, 3 * j:3 * j + 3],
                                   loose[:, [at[r] for r in hidden_draws]]], axis=1)
        local = (mine_lab[:, :, None] == labels[None, None, :]).any(axis=1)  # (k, u)
        fresh = local & (named < 0)
        reps = candidates if fills[j] or fresh.any() else 1
        f = fills[j]
        ratio: Floats | None = None
        if 0 < f < 3:  # hidden kept cards from the guide, the unknown cards uniformly
            key = (j, pattern[j])
            if key not in guides:  # it depends on the opponent's own pattern only
                like = np.asarray(sorted(set(unseen.tolist()) | (fixed_pool - set(discards))),
                                  dtype=np.int64)
                guides[key] = _guide(policy, kept_up[j], f, unseen, like, opp, drawn_up[j],
                                     tremble, gen)
            table, prob = guides[key]
            idx = gen.choice(len(table), size=k * reps, p=prob)
            draw = np.concatenate([_pick_each(gen, avail, reps, u), table[idx]], axis=1)
            # the prior chance of these hidden kept cards (uniform among the sets
            # of the cards left) over the guide's: zero where they clash
            fresh_rep = np.repeat(fresh, reps, axis=0)
            clash = ~avail[np.repeat(rows, reps)[:, None], draw[:, u:]].all(axis=1)
            clash |= ((draw[:, :u, None] == draw[:, None, u:]).any(axis=2) & fresh_rep).any(axis=1)
            left = np.repeat(avail.sum(axis=1) - fresh.sum(axis=1), reps)
            sets = left * (left - 1) / 2 if f == 2 else left.astype(np.float64)
            ratio = np.where(clash, 0.0, 1.0 / (sets * prob[idx]))
        else:
            draw = _pick_each(gen, avail, reps, u + f)  # (k * reps, u + f)
        names = np.where(np.repeat(named, reps, axis=0) >= 0, np.repeat(named, reps, axis=0),
                         draw[:, :u])
        def card(lab: Ints, names: Ints = names, reps: int = reps) -> Ints:
            lab = np.repeat(lab, reps, axis=0)
            if u == 0:
                return lab
            at = np.clip(lab - 52, 0, u - 1)
            return np.where(lab >= 52, np.take_along_axis(names, at, axis=1), lab)

        kept = np.concatenate(
            [np.broadcast_to(np.asarray(kept_up[j], dtype=np.int64), (k * reps, len(kept_up[j]))),
             draw[:, u:]], axis=1)  # up cards kept first
        thrown = card(split[:, 3 * j:3 * j + 3])
        hid = card(loose[:, [at[r] for r in hidden_draws]]) if hidden_draws else None
        got = []
        for r in range(1, len(opp.draws) + 1):
            if r in drawn_up[j]:
                got.append(np.full(k * reps, drawn_up[j][r], dtype=np.int64))
            else:
                assert hid is not None
                got.append(hid[:, hidden_draws.index(r)])
        lik = _opponent_lik(policy, opp, kept, thrown, got, tremble)
        if ratio is not None:
            lik = lik * ratio
        lik = lik.reshape(k, reps)
        total = lik.sum(axis=1)
        weight *= total / reps
        u01 = gen.random(k) * total
        choice = np.minimum((np.cumsum(lik, axis=1) < u01[:, None]).sum(axis=1), reps - 1)
        pick = rows * reps + choice
        named = np.where(fresh, names[pick], named)
        kept = kept[pick]
        np.put_along_axis(avail, kept, False, axis=1)
        avail[np.repeat(rows, u)[fresh.ravel()], named[fresh]] = False
        if opp.live:
            hand = np.concatenate([kept, *[g[pick][:, None] for g in got]], axis=1)
            finals.append(hand)
            live_need.append(5 - hand.shape[1])
    # every unknown pool card is some opponent's discard, so all are named now
    assert (named >= 0).all()
    full = np.concatenate([np.arange(52)[None, :].repeat(k, axis=0), named], axis=1)
    rest = np.take_along_axis(full, loose[:, at_loose:], axis=1)
    mine = np.broadcast_to(np.asarray(seen.mine, dtype=np.int64), (k, len(seen.mine)))
    need = [5 - len(seen.mine), *live_need]
    at_rest = 0
    hands = []
    for j, hand in enumerate([mine, *finals]):
        hands.append(np.concatenate([hand, rest[:, at_rest:at_rest + need[j]]], axis=1))
        at_rest += need[j]
    turned = None if seen.wild is not None else rest[:, at_rest]
    return np.stack(hands, axis=1), weight, turned


def _pick_each(gen: np.random.Generator, avail: Bools, reps: int, m: int) -> Ints:
    """``reps`` draws per row of ``avail`` ``(k, 52)`` (rows may hold
    different numbers of cards) of ``m`` distinct cards among those
    available, uniformly, in random order: ``(k * reps, m)``, the draws of
    row ``i`` at ``i * reps`` to ``i * reps + reps - 1`` (a partial
    Fisher-Yates shuffle)."""
    k = len(avail)
    if m == 0:
        return np.zeros((k * reps, 0), dtype=np.int64)
    size = np.repeat(avail.sum(axis=1), reps)
    if (size < m).any():
        raise ValueError(f"{m} unknown cards are needed but fewer are left")
    first = np.argsort(~avail, axis=1, kind="stable").astype(np.int8)  # available first
    cards = np.repeat(first, reps, axis=0)
    rows = np.arange(k * reps)
    for i in range(m):
        j = i + (gen.random(k * reps) * (size - i)).astype(np.int64)
        ci = cards[:, i].copy()
        cards[:, i] = cards[rows, j]
        cards[rows, j] = ci
    return np.asarray(cards[:, :m], dtype=np.int64)


def _opponent_lik(policy: FastPolicy, opp: SeenOpponent, kept: Ints, thrown: Ints,
                  got: list[Ints], tremble: float) -> Floats:
    """The policy's chance, per row, that an opponent dealt ``kept`` ``(N, 3)``
    (its up cards kept first) and ``thrown`` ``(N, 3)`` keeps ``kept`` and,
    drawing ``got`` (per draw ``(N,)``), exposes its up cards in the order
    seen."""
    n = len(kept)
    scores = policy.keep_scores(np.concatenate([kept, thrown], axis=1))
    best = scores.max(axis=1)
    lik = (1 - tremble) * (scores[:, 0] == best) / (scores == best[:, None]).sum(axis=1) \
        + tremble / 20
    down = kept
    up = np.zeros((n, 0), dtype=np.int64)
    for e, card in enumerate(opp.ups):
        if e >= 1:
            down = np.concatenate([down, got[e - 1][:, None]], axis=1)
        shown = np.argmax(down == card, axis=1)
        lik *= _lik_at(policy, up, down, shown, tremble)
        up = np.concatenate([up, np.full((n, 1), card, dtype=np.int64)], axis=1)
        down = down[np.arange(3)[None, :] != shown[:, None]].reshape(n, 2)
    return np.asarray(lik)


GUIDE_X = 12
"""Random discards per candidate when the guide estimates how likely the
policy is to keep a candidate three."""


def _guide(policy: FastPolicy, kept_up: list[int], f: int, unseen: Ints, like: Ints,
           opp: SeenOpponent, drawn_up: dict[int, int], tremble: float,
           gen: np.random.Generator) -> tuple[Ints, Floats]:
    """A proposal for an opponent's ``f`` hidden kept cards: every set of
    ``f`` unseen cards, with a chance in proportion to how well it explains
    what was seen: the exposes whose down cards are all known under the
    pattern, times the share of ``GUIDE_X`` random discards (from ``like``)
    with which the policy keeps the three. Every set keeps a chance of at
    least a small floor, so every consistent world can be drawn; the weights
    undo the proposal exactly. Returns ``(sets (M, f), chances (M,))``."""
    from itertools import combinations

    if f == 0:
        return np.zeros((1, 0), dtype=np.int64), np.ones(1)
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
        if e >= 1:
            if e not in drawn_up:
                break  # the drawn card is hidden: not known here
            down = np.concatenate([down, np.full((m, 1), drawn_up[e], dtype=np.int64)],
                                  axis=1)
        shown = np.argmax(down == card, axis=1)
        lik *= _lik_at(policy, up, down, shown, tremble)
        up = np.concatenate([up, np.full((m, 1), card, dtype=np.int64)], axis=1)
        down = down[np.arange(3)[None, :] != shown[:, None]].reshape(m, 2)
    rows = np.repeat(kept, GUIDE_X, axis=0)
    avail = np.ones((len(rows), 52), dtype=bool)
    avail[:, [c for c in range(52) if c not in set(like.tolist())]] = False
    avail[np.arange(len(rows))[:, None], rows] = False
    from rollem.odds.look521 import _pick

    xs = _pick(gen, avail, 3)
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
              "(keeps, exposes, draws; importance weighting, {ess:,.0f} effective of {n:,} "
              "worlds); draws and the wild card from the pool")


def ryo_seen_look(seen: SeenPool, *, samples: int = 2000, policy: FastPolicy = FAST,
                  seed: int | None = None, rng: random.Random | None = None,
                  tremble: float | None = None, candidates: int = CANDIDATES,
                  retry: bool = True) -> Odds | None:
    """The seat's odds after the discard, opponents' hands conditioned on
    their keeps and exposes under ``policy`` (see the module doc). Where the
    weights come out too uneven, it tries once more with :data:`RETRY`
    times the candidates per opponent and that many times fewer worlds
    (about the same work) before giving up.

    Args:
        seen: from :func:`seen_of`.
        samples: worlds drawn (weighted; the model line gives the effective
            number).
        policy: needs ``keep_scores`` and ``expose_scores``
            (:class:`rollem.odds.policy.FastPolicy`).
        seed, rng: seed the sampling (``seed`` wins).
        tremble: the chance a player strays from the policy (default
            :data:`rollem.odds.look521.TREMBLE`).
        candidates: per opponent and world (:func:`_group`).
        retry: whether to try once more (see above).

    Returns:
        :class:`Odds` (``equity`` the weighted mean share, ``stderr`` its
        ratio-estimate standard error, ``categories`` the seat's final hand
        categories), or ``None`` when the model cannot place the view (then
        use the tracked model).
    """
    from rollem.odds.common import shares
    from rollem.odds.look521 import TREMBLE

    if not hasattr(policy, "keep_scores") or not hasattr(policy, "expose_scores"):
        return None
    trem = TREMBLE if tremble is None else tremble
    seen_cards = set(seen.mine) | set(seen.discards) | {c for _, c in seen.my_draws}
    for o in seen.opponents:
        seen_cards.update(o.ups)
    if seen.wild is not None:
        seen_cards.add(seen.wild)
    unseen = np.asarray([c for c in range(52) if c not in seen_cards], dtype=np.int64)
    if not seen.my_draws and all(not o.ups and not o.draws for o in seen.opponents):
        return _forward(seen, unseen, samples, policy, trem, np_rng(rng, seed))
    per_opp = [_origins(o, set(seen.discards)) for o in seen.opponents]
    total = 1
    for p in per_opp:
        total *= len(p)
    if total == 0 or total > MAX_PATTERNS:
        return None
    patterns = list(product(*per_opp))
    logs = [_log_worlds(seen, pat, len(unseen)) for pat in patterns]
    kept = [(pat, lw) for pat, lw in zip(patterns, logs, strict=True) if lw is not None]
    if not kept:
        return None
    top = max(lw for _, lw in kept)
    prior = np.asarray([np.exp(lw - top) for _, lw in kept])
    prior /= prior.sum()
    gen = np_rng(rng, seed)
    share_of = prior
    guides: dict[tuple[int, tuple[int, ...]], tuple[Ints, Floats]] = {}
    if len(kept) > 1:  # a pilot run per pattern: how well it explains what was seen
        try:
            z = np.asarray([_group(seen, pat, PILOT, unseen, policy, trem, gen, guides,
                                   candidates)[1].mean()
                            for pat, _ in kept])
        except (IndexError, ValueError, AssertionError):
            return None
        post = prior * z
        if post.sum() > 0:
            share_of = (1 - DEFENSIVE) * post / post.sum() + DEFENSIVE * prior
    counts = gen.multinomial(samples, share_of)
    opts = {"wild_duplicates": seen.wild_duplicates,
            "natural_beats_wild": seen.natural_beats_wild}
    hand_parts: list[Ints] = []
    weight_parts: list[Floats] = []
    turned_parts: list[Ints] = []
    for i, ((pat, _), count) in enumerate(zip(kept, counts, strict=True)):
        if count == 0:
            continue
        try:
            hands, weight, turned = _group(seen, pat, int(count), unseen, policy, trem, gen,
                                           guides, candidates)
        except (IndexError, ValueError, AssertionError):
            return None
        hand_parts.append(hands)
        weight_parts.append(weight * (prior[i] / share_of[i]))
        if turned is not None:
            turned_parts.append(turned)
    hands = np.concatenate(hand_parts)
    w = np.concatenate(weight_parts)
    if seen.wild is not None:
        values = wild5(hands, [seen.wild >> 2], **opts)
    else:  # every world at once per rank of the wild card turned
        values = np.zeros(hands.shape[:2], dtype=np.int64)
        ranks = np.concatenate(turned_parts) >> 2
        for r in np.unique(ranks):
            rows = ranks == r
            values[rows] = wild5(hands[rows], [int(r)], **opts)
    share = shares(values[:, 0], values[:, 1:])
    base = values[:, 0] >> 1 if seen.natural_beats_wild else values[:, 0]
    cats = base >> 20
    tw = float(w.sum())
    if tw <= 0:
        return None
    equity = float((w * share).sum() / tw)
    stderr = float(np.sqrt((w ** 2 * (share - equity) ** 2).sum()) / tw)
    ess = tw ** 2 / float((w ** 2).sum())
    if ess < MIN_EFFECTIVE * len(share):
        if not retry:
            return None
        return ryo_seen_look(seen, samples=max(samples // RETRY, 200), policy=policy,
                             seed=int(gen.integers(1 << 31)), tremble=tremble,
                             candidates=candidates * RETRY, retry=False)
    cat_w = np.bincount(cats, weights=w, minlength=10) / tw
    categories = {Category(i).label: float(cat_w[i]) for i in range(9, -1, -1) if cat_w[i] > 0}
    return Odds(win=float((w * (share >= 1.0)).sum() / tw),
                tie=float((w * ((share > 0) & (share < 1.0))).sum() / tw),
                lose=float((w * (share <= 0.0)).sum() / tw), equity=equity,
                method="monte-carlo", samples=len(share), stderr=stderr, game="rollyourown",
                categories=categories,
                model=MODEL_SEEN.format(policy=policy.name, ess=ess, n=len(share)))


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
