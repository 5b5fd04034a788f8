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
  cards not drawn). Patterns get worlds in proportion to how many
  consistent worlds they hold (a count, :func:`_log_worlds`), so each
  world's weight is just the policy's likelihood.
- Answers are weighted means; the standard error is that of a ratio
  estimate; the effective number of worlds (``sum(w)^2 / sum(w^2)``) is in
  the model line.

Draws still to come and the wild card (when not yet turned) come from the
pool cards not yet drawn. Nobody folds from here on; no betting is read.
The proposal (how worlds are drawn before weighting) guides each
opponent's hidden kept cards (:func:`_guide`: the sets that explain its
exposes and that the policy would keep are drawn more often; the weights
undo this exactly). It works well heads-up and with three players; with
more opponents, late in the hand, the weights grow uneven. With more
patterns than :data:`MAX_PATTERNS`, fewer effective worlds than
:data:`MIN_EFFECTIVE` of those drawn, or a view the model cannot place,
:func:`ryo_seen_look` returns ``None`` and the caller falls back to the
tracked model (:func:`rollem.odds.ryo.ryo_tracked_odds`), which does not
read keeps or exposes (the model line says which was used).
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
from rollem.odds.policy import FAST, FastPolicy
from rollem.odds.result import Odds
from rollem.odds.view import ViewInfo

__all__ = ["MAX_PATTERNS", "SeenOpponent", "SeenPool", "ryo_seen_look", "seen_of"]

MAX_PATTERNS = 400
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


def _group(seen: SeenPool, pattern: tuple[tuple[int, ...], ...], count: int,
           unseen: Ints, policy: FastPolicy, tremble: float, gen: np.random.Generator,
           guides: dict[tuple[int, tuple[int, ...]], tuple[Ints, Floats]]
           ) -> tuple[Ints, Floats, Ints | None]:
    """``count`` worlds of one pattern: every player's final five cards
    ``(count, players, 5)`` (the seat first, then live opponents), the
    likelihood weights, and the wild card per world when not yet turned."""
    k = count
    n = 3 * (1 + len(seen.opponents))
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
    total_fill = sum(fills)
    # each opponent's hidden kept cards from its guide (see _guide), then the
    # unknown pool cards uniformly from the unseen cards left
    like = np.asarray(sorted(set(unseen.tolist()) | (fixed_pool - set(discards))),
                      dtype=np.int64)
    parts = []
    log_q = np.zeros(k)
    for j, opp in enumerate(seen.opponents):
        key = (j, pattern[j])
        if key not in guides:  # a guide depends on the opponent's own pattern only
            guides[key] = _guide(policy, kept_up[j], fills[j], unseen, like, opp, drawn_up[j],
                                 tremble, gen)
        table, prob = guides[key]
        if len(table) == 0:  # uniform over sets of three unseen cards
            parts.append(unseen[np.argsort(gen.random((k, len(unseen))), axis=1)[:, :3]])
            log_q -= lgamma(len(unseen) + 1) - lgamma(4) - lgamma(len(unseen) - 2)
            continue
        pick = gen.choice(len(table), size=k, p=prob)
        parts.append(table[pick])
        log_q += np.log(prob[pick])
    fill_cards = np.concatenate(parts, axis=1) if parts else np.zeros((k, 0), np.int64)
    srt = np.sort(fill_cards, axis=1)
    clash = (srt[:, 1:] == srt[:, :-1]).any(axis=1) if total_fill > 1 else np.zeros(k, bool)
    is_fill = (unseen[None, :, None] == fill_cards[:, None, :]).any(axis=2)
    keys = gen.random((k, len(unseen))) + is_fill
    unknown_pool = unseen[np.argsort(keys, axis=1)[:, :u]]
    # weight: uniform prior over the fill assignments (|V|! / (prod f! (|V|-F)!)) over
    # the guide's chance of the fills drawn; clashing fills are no world
    n_v = len(unseen)
    log_assign = lgamma(n_v + 1) - sum(lgamma(f + 1) for f in fills) - lgamma(n_v - total_fill + 1)
    weight = np.where(clash, 0.0, np.exp(-log_q - log_assign))
    # the pool's cards other than the seat's discards, split among the opponents
    others_fixed = np.asarray(sorted(fixed_pool - set(discards)), dtype=np.int64)
    others = np.concatenate([np.broadcast_to(others_fixed, (k, len(others_fixed))),
                             unknown_pool], axis=1)
    assert others.shape[1] == 3 * len(seen.opponents)
    split = _shuffled(gen, others)
    # pool cards whose place the seat does not know (not the wild card)
    placed = set(my_cards) | {c for d in drawn_up for c in d.values()}
    loose_fixed = np.asarray([c for c in discards if c not in placed and c != seen.wild],
                             dtype=np.int64)
    loose = _shuffled(gen, np.concatenate(
        [np.broadcast_to(loose_fixed, (k, len(loose_fixed))), unknown_pool], axis=1))
    at_loose = 0
    at_fill = 0
    finals: list[Ints] = []
    live_need: list[int] = []
    for j, opp in enumerate(seen.opponents):
        kept = np.concatenate(
            [np.broadcast_to(np.asarray(kept_up[j], dtype=np.int64), (k, len(kept_up[j]))),
             fill_cards[:, at_fill:at_fill + fills[j]]], axis=1)  # up cards kept first
        at_fill += fills[j]
        six = np.concatenate([kept, split[:, 3 * j:3 * j + 3]], axis=1)
        scores = policy.keep_scores(six)
        best = scores.max(axis=1)
        weight *= (1 - tremble) * (scores[:, 0] == best) / (scores == best[:, None]).sum(axis=1) \
            + tremble / 20
        got = []  # the cards it drew, by draw
        for r in range(1, len(opp.draws) + 1):
            if r in drawn_up[j]:
                got.append(np.full(k, drawn_up[j][r], dtype=np.int64))
            else:
                got.append(loose[:, at_loose])
                at_loose += 1
        # its exposes, in order: the first from the three kept, then one of
        # the three down cards after each draw
        down = kept
        up = np.zeros((k, 0), dtype=np.int64)
        for e, card in enumerate(opp.ups):
            if e >= 1:
                down = np.concatenate([down, got[e - 1][:, None]], axis=1)
            shown = np.argmax(down == card, axis=1)
            weight *= _lik_at(policy, up, down, shown, tremble)
            up = np.concatenate([up, np.full((k, 1), card, dtype=np.int64)], axis=1)
            down = down[np.arange(3)[None, :] != shown[:, None]].reshape(k, 2)
        if opp.live:
            hand = np.concatenate([kept, *[g[:, None] for g in got]], axis=1)
            finals.append(hand)
            live_need.append(5 - hand.shape[1])
    rest = loose[:, at_loose:]
    mine = np.broadcast_to(np.asarray(seen.mine, dtype=np.int64), (k, len(seen.mine)))
    need = [5 - len(seen.mine), *live_need]
    at = 0
    hands = []
    for j, hand in enumerate([mine, *finals]):
        hands.append(np.concatenate([hand, rest[:, at:at + need[j]]], axis=1))
        at += need[j]
    turned = None if seen.wild is not None else rest[:, at]
    return np.stack(hands, axis=1), weight, turned


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
                  tremble: float | None = None) -> Odds | None:
    """The seat's odds after the discard, opponents' hands conditioned on
    their keeps and exposes under ``policy`` (see the module doc).

    Args:
        seen: from :func:`seen_of`.
        samples: worlds drawn (weighted; the model line gives the effective
            number).
        policy: needs ``keep_scores`` and ``expose_scores``
            (:class:`rollem.odds.policy.FastPolicy`).
        seed, rng: seed the sampling (``seed`` wins).
        tremble: the chance a player strays from the policy (default
            :data:`rollem.odds.look521.TREMBLE`).

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
    gen = np_rng(rng, seed)
    counts = gen.multinomial(samples, prior / prior.sum())
    opts = {"wild_duplicates": seen.wild_duplicates,
            "natural_beats_wild": seen.natural_beats_wild}
    guides: dict[tuple[int, tuple[int, ...]], tuple[Ints, Floats]] = {}
    share_parts: list[Floats] = []
    weight_parts: list[Floats] = []
    cat_parts: list[Ints] = []
    for (pat, _), count in zip(kept, counts, strict=True):
        if count == 0:
            continue
        try:
            hands, weight, turned = _group(seen, pat, int(count), unseen, policy, trem, gen,
                                           guides)
        except (IndexError, ValueError, AssertionError):
            return None
        if turned is None:
            assert seen.wild is not None
            values = wild5(hands, [seen.wild >> 2], **opts)
        else:
            values = np.zeros(hands.shape[:2], dtype=np.int64)
            ranks = turned >> 2
            for r in np.unique(ranks):
                rows = ranks == r
                values[rows] = wild5(hands[rows], [int(r)], **opts)
        share_parts.append(shares(values[:, 0], values[:, 1:]))
        weight_parts.append(weight)
        base = values[:, 0] >> 1 if seen.natural_beats_wild else values[:, 0]
        cat_parts.append(base >> 20)
    share = np.concatenate(share_parts)
    w = np.concatenate(weight_parts)
    cats = np.concatenate(cat_parts)
    tw = float(w.sum())
    if tw <= 0:
        return None
    equity = float((w * share).sum() / tw)
    stderr = float(np.sqrt((w ** 2 * (share - equity) ** 2).sum()) / tw)
    ess = tw ** 2 / float((w ** 2).sum())
    if ess < MIN_EFFECTIVE * len(share):
        return None
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
