"""Five Card Roll Your Own odds (R-RYO-1..R-RYO-9), with the chance of each
final hand category.

Each player ends with five cards: the three it kept plus one draw from the
pool in each of the two draws (R-RYO-5, R-RYO-6); the wild rank is the rank
of a card turned from what is left in the pool (R-RYO-7), and the showdown
is the wild-card high hand (R-RYO-9, house options ``wild_duplicates`` and
``natural_beats_wild``).

Model of what the seat cannot see:

- From a seat's view after the discard (:func:`ryo_view_odds`) the pool is
  tracked (:func:`ryo_tracked_odds`): it held the seat's own discards and
  three unknown discards per other player dealt in; the seat's draws and the
  turned wild card came from it; an opponent's down card that was drawn is
  one of the pool's cards the seat cannot place, possibly one of the seat's
  own discards. ``tests/histories/rollyourown_seed_example.toml`` at seat 0:
  B's drawn down card is Qc or 2c.
- :func:`ryo_odds` from cards the caller supplies (and the view before the
  discard) uses the simpler model: the seat's own discards still unaccounted
  for are in the pool; the rest of the pool, and every opponent's down
  cards, are uniformly random among the cards the seat cannot see.
- Draws still to come, and the wild card when not yet turned, come from the
  shuffled pool: uniformly random among its cards.
- Before the discard, an opponent keeps three of its six cards at random,
  and the seat's odds are those of its best keep (the three cards whose odds
  are best; :attr:`Odds.keep`).
- Every player still in goes to the showdown; opponents' choices (what they
  turn up, how they bet) are not read as information.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np

from rollem.cards import CARDS
from rollem.hands.category import Category
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
    shares,
    summarise,
    unseen,
)
from rollem.odds.evaluate import wild5
from rollem.odds.result import Odds, OddsError

if TYPE_CHECKING:
    from rollem.odds.view import ViewInfo

__all__ = ["ryo_odds", "ryo_tracked_odds", "ryo_view_odds"]



def ryo_odds(
    hand: CardsIn,
    opponents: Sequence[tuple[CardsIn, int]],
    *,
    pool_known: CardsIn = (),
    pool_unknown: int = 0,
    out: CardsIn = (),
    wild_ranks: Sequence[int] | None = None,
    wild_duplicates: bool = False,
    natural_beats_wild: bool = False,
    samples: int = 20_000,
    seed: int | None = None,
    rng: random.Random | None = None,
    exact_limit: int = 2_000_000,
    progress: Progress | None = None,
) -> Odds:
    """Five Card Roll Your Own odds from cards the caller supplies.

    Args:
        hand: the seat's cards: six before the discard, then three to five.
            It draws until it holds five.
        opponents: per opponent still in, ``(up cards, hidden count)``; an
            opponent holding six (before the discard) keeps three, and every
            opponent draws until it holds five.
        pool_known: cards the seat knows are in the pool (its discards). With
            six cards in ``hand`` this is ignored: the discards are the three
            not kept.
        pool_unknown: the other cards in the pool (with six cards in ``hand``:
            three per other player dealt in, folded ones included).
        out: other cards the seat knows are out of play (the turned wild
            card, folded seats' up cards).
        wild_ranks: the wild rank(s) when turned; ``None``: still to come.
        wild_duplicates, natural_beats_wild: house options (R-RYO-9).
        samples, seed, rng, exact_limit: as :func:`rollem.odds.sdr_odds`;
            exact when no draw is left, the wild rank is known and the
            opponents' down cards can be dealt in at most ``exact_limit`` ways.

    Returns:
        :class:`Odds` with ``categories`` (the seat's final hand category ->
        probability) and, before the discard, ``keep`` (the best three).

    Raises:
        OddsError: wrong card counts, a card twice, too few cards in the pool.
    """
    mine = card_list(hand, "hand")
    ups = [card_list(u, "opponent up cards") for u, _ in opponents]
    hidden = [int(h) for _, h in opponents]
    if not opponents:
        raise OddsError("no opponent: give at least one opponent still in the hand")
    if not 3 <= len(mine) <= 6:
        raise OddsError(f"hand: expected three to six cards, got {len(mine)}")
    for u, h in zip(ups, hidden, strict=True):
        if h < 0 or not 3 <= len(u) + h <= 6 or (len(u) + h == 6 and u):
            raise OddsError(f"an opponent holds three to six cards (six all down): "
                            f"{len(u)} up + {h} hidden given")
    out_c = card_list(out, "out")
    gen = np_rng(rng, seed)
    opts = {"wild_duplicates": wild_duplicates, "natural_beats_wild": natural_beats_wild}
    if len(mine) == 6:
        best: Odds | None = None
        state = gen.bit_generator.state
        for keep in combinations(mine, 3):
            gen.bit_generator.state = state  # the same worlds for every keep
            discards = [c for c in mine if c not in keep]
            odds = _odds(list(keep), ups, hidden, discards, pool_unknown, out_c, wild_ranks,
                         opts, samples, gen, exact_limit, None)
            if best is None or odds.equity > best.equity:
                best = Odds(**{**odds.__dict__, "keep": [str(CARDS[c]) for c in keep]})
        assert best is not None
        return best
    return _odds(mine, ups, hidden, card_list(pool_known, "pool_known"), pool_unknown, out_c,
                 wild_ranks, opts, samples, gen, exact_limit, progress)


def _odds(mine: list[int], ups: list[list[int]], hidden: list[int], pool_known: list[int],
          pool_unknown: int, out: list[int], wild_ranks: Sequence[int] | None,
          opts: dict[str, bool], samples: int, gen: np.random.Generator,
          exact_limit: int, progress: Progress | None) -> Odds:
    kept_hidden = [3 if len(u) + h == 6 else h for u, h in zip(ups, hidden, strict=True)]
    sizes = [len(u) + h for u, h in zip(ups, kept_hidden, strict=True)]
    draws = [5 - len(mine)] + [5 - s for s in sizes]
    total_draws = sum(draws)
    pool = unseen(mine, out, pool_known, *ups)
    need_wild = wild_ranks is None
    if total_draws == 0 and not need_wild:
        n_ways = count_assignments(len(pool), kept_hidden)
        if n_ways == 0:
            raise OddsError(f"{sum(kept_hidden)} unknown cards are needed but only "
                            f"{len(pool)} are left")
        if n_ways <= min(exact_limit, MAX_ENUMERATION):
            deal = assignments(pool, kept_hidden)
            hands = _hands(mine, ups, kept_hidden, deal, np.zeros((len(deal), 0), np.int64),
                           [0] * len(draws))
            return _summary(hands, [list(wild_ranks or ())], None, opts, "exact")
    check_samples(samples)
    in_pool = len(pool_known) + pool_unknown
    if in_pool < total_draws + need_wild:
        raise OddsError(f"the pool holds {in_pool} cards but {total_draws} draws"
                        f"{' and the wild card' if need_wild else ''} are to come")
    m = sum(kept_hidden)
    tally = Tally()
    cats = np.zeros(10, dtype=np.int64)
    for n in chunks(samples):
        d = draw(gen, pool, n, m + pool_unknown)
        known = np.broadcast_to(np.asarray(pool_known, dtype=np.int64), (n, len(pool_known)))
        pile = np.concatenate([known, d[:, m:]], axis=1)
        order = np.argsort(gen.random(pile.shape), axis=1)
        pile = np.take_along_axis(pile, order, axis=1)
        hands = _hands(mine, ups, kept_hidden, d[:, :m], pile[:, :total_draws], draws)
        turned = pile[:, total_draws] if need_wild else None
        share, chunk_cats = _score(hands, [list(wild_ranks or ())], turned, opts)
        tally.add(share)
        cats += chunk_cats
        if progress is not None:
            progress(tally.n, samples)
    return tally.odds("monte-carlo", "rollyourown", categories=_categories(cats, tally.n))


def _hands(mine: list[int], ups: list[list[int]], hidden: list[int], deal: Ints,
           drawn: Ints, draws: list[int]) -> Ints:
    """Five cards per player per world: ``(S, players, 5)``, the seat first."""
    s = len(deal)
    rows = []
    at_d = 0
    at_h = 0
    for j, own in enumerate([mine, *ups]):
        parts = [np.broadcast_to(np.asarray(own, dtype=np.int64), (s, len(own)))]
        if j > 0:
            h = hidden[j - 1]
            parts.append(deal[:, at_h:at_h + h])
            at_h += h
        parts.append(drawn[:, at_d:at_d + draws[j]])
        at_d += draws[j]
        rows.append(np.concatenate(parts, axis=1))
    return np.stack(rows, axis=1)


def _score(hands: Ints, wild: list[list[int]], turned: Ints | None, opts: dict[str, bool]
           ) -> tuple[Floats, Ints]:
    """The seat's share per world and the count of its final hand categories."""
    s, n, _ = hands.shape
    values = np.zeros((s, n), dtype=np.int64)
    if turned is None:
        values = wild5(hands, wild[0], **opts)
    else:
        ranks = turned >> 2
        for r in np.unique(ranks):
            rows = ranks == r
            values[rows] = wild5(hands[rows], [int(r)], **opts)
    share: Floats = shares(values[:, 0], values[:, 1:])
    base = values[:, 0] >> 1 if opts["natural_beats_wild"] else values[:, 0]
    return share, np.bincount(base >> 20, minlength=10)


def _categories(cats: Ints, total: int) -> dict[str, float]:
    return {Category(i).label: float(cats[i] / total) for i in range(9, -1, -1) if cats[i]}


def _summary(hands: Ints, wild: list[list[int]], turned: Ints | None, opts: dict[str, bool],
             method: str) -> Odds:
    share, cats = _score(hands, wild, turned, opts)
    return summarise(share, method, "rollyourown", categories=_categories(cats, len(share)))


def ryo_view_odds(info: ViewInfo, *, samples: int, rng: random.Random | None,
                  seed: int | None, exact_limit: int, progress: Progress | None = None
                  ) -> Odds:
    """:func:`ryo_odds` from a seat's view (see :func:`rollem.odds.view_equity`)."""
    opponents: list[tuple[CardsIn, int]] = []
    for o in info.opponents:
        if o.known is not None and len(o.known) == 5:
            opponents.append((o.known, 0))
        else:
            opponents.append((o.up, o.hidden))
    if not opponents:
        return Odds(win=1.0, tie=0.0, lose=0.0, equity=1.0, method="exact", samples=1,
                    stderr=0.0, game="rollyourown")
    visible = set(info.mine) | set(info.seen_out)
    for u, _ in opponents:
        visible.update(int(c) for c in u)
    out = [c for c in info.seen_out if c not in info.mine]
    if len(info.mine) < 6 and info.my_pool:
        tracked = ryo_tracked_odds(info, samples=samples, rng=rng, seed=seed,
                                   exact_limit=exact_limit, progress=progress)
        if tracked is not None:
            return tracked
    if len(info.mine) == 6:
        dealt = 1 + len(info.opponents) + info.folded_dealt
        known: list[int] = []
        unknown = 3 * (dealt - 1)
    else:
        known = [c for c in info.my_pool if c not in visible]
        if len(known) > info.pool:
            known = known[:info.pool]
        unknown = info.pool - len(known)
    return ryo_odds(
        info.mine, opponents, pool_known=known, pool_unknown=unknown, out=out,
        wild_ranks=info.wild_ranks or None,
        wild_duplicates=bool(info.options.get("wild_duplicates", False)),
        natural_beats_wild=bool(info.options.get("natural_beats_wild", False)),
        samples=samples, seed=seed, rng=rng, exact_limit=exact_limit, progress=progress)


def _hypergeom(x: int, hidden: int, up: int, drawn: int) -> float:
    """The chance that ``x`` of ``drawn`` cards chosen at random among
    ``hidden + up`` slots are hidden ones."""
    from math import comb

    total = comb(hidden + up, drawn)
    return comb(hidden, x) * comb(up, drawn - x) / total if total else 0.0


def ryo_tracked_odds(info: ViewInfo, *, samples: int, rng: random.Random | None,
                     seed: int | None, exact_limit: int = 0,
                     progress: Progress | None = None) -> Odds | None:
    """Odds after the discard with the pool tracked (R-RYO-2, R-RYO-5..7).

    The pool was the seat's own discards ``K`` plus the other players'
    discards ``U`` (three each, uniformly random unseen cards). Cards the seat
    drew and the turned wild card came from the pool, so those not in ``K``
    are known members of ``U``. Each opponent drew as many cards as its
    ``pool_draw`` events say: its up cards that are in ``K`` were drawn; the
    rest of its draws are among its other up cards and its down cards, the
    drawn slots chosen uniformly (a hypergeometric mixture over how many are
    down). A down card that was drawn comes from the pool's cards the seat
    cannot place (the unaccounted part of ``K`` and the unknown part of
    ``U``); a kept down card from the other unseen cards. The rest of the
    pool (its size is known; folded players' draws took the difference) holds
    the draws still to come and the wild card.

    Returns ``None`` when the counts admit no consistent world (the caller then
    falls back to the untracked model). Exact (every world, weighted by its
    probability) when no draw is left, the wild rank is known and the worlds
    are at most ``exact_limit``; else Monte Carlo (``samples`` worlds, chunked).
    """
    from itertools import product

    from rollem.cards import parse_card

    me = info.seat
    draws_by: dict[int, int] = {}
    my_draws: list[int] = []
    wild_cards: list[int] = []
    for e in info.events:
        kind, who = e.get("kind"), e.get("seat")
        if kind == "pool_draw" and who is not None:
            draws_by[int(who)] = draws_by.get(int(who), 0) + 1
            if who == me and e.get("card"):
                my_draws.append(int(parse_card(e["card"])))
        elif kind == "wild" and e.get("card"):
            wild_cards.append(int(parse_card(e["card"])))
    own = set(info.my_pool)
    seen = set(info.mine) | set(info.seen_out) | set(wild_cards)
    ups: list[list[int]] = []
    hidden: list[int] = []
    spans: list[tuple[int, int, int]] = []  # per opponent: (other up cards, down, to place)
    for o in info.opponents:
        cards = list(o.known) if o.known is not None and len(o.known) == 5 else list(o.up)
        h = 0 if o.known is not None and len(o.known) == 5 else o.hidden
        ups.append(cards)
        hidden.append(h)
        seen.update(cards)
        in_k = sum(1 for c in cards if c in own)
        to_place = max(0, draws_by.get(o.seat, 0) - in_k)
        spans.append((len(cards) - in_k, h, to_place))
    k_unplaced = [c for c in info.my_pool if c not in seen]
    u_size = 3 * (len(info.opponents) + info.folded_dealt)
    u_known = len({c for c in [*my_draws, *wild_cards] if c not in own})
    unseen_cards = unseen(seen | own | set(my_draws))
    draws = [5 - len(info.mine)] + [5 - len(u) - h for u, h in zip(ups, hidden, strict=True)]
    total_draws = sum(draws)
    need_wild = not info.wild_ranks
    groups: list[tuple[float, list[int], int, int]] = []  # (p, down drawn per opp, |U?|, F)
    ranges = [range(max(0, r - a), min(r, h) + 1) for a, h, r in spans]
    for combo in product(*ranges):
        p = 1.0
        for x, (a, h, r) in zip(combo, spans, strict=True):
            p *= _hypergeom(x, h, a, r)
        n_u = u_size - u_known - sum(r - x for x, (_, _, r) in zip(combo, spans, strict=True))
        drawn_down = sum(combo)
        folded_took = len(k_unplaced) + n_u - info.pool - drawn_down
        kept_down = sum(h - x for x, (_, h, _) in zip(combo, spans, strict=True))
        if p <= 0 or n_u < 0 or folded_took < 0 or n_u + kept_down > len(unseen_cards) \
                or info.pool < total_draws + need_wild:
            continue
        groups.append((p, [int(x) for x in combo], n_u, folded_took))
    if not groups:
        return None
    opts = {"wild_duplicates": bool(info.options.get("wild_duplicates", False)),
            "natural_beats_wild": bool(info.options.get("natural_beats_wild", False))}
    k_arr = np.asarray(k_unplaced, dtype=np.int64)
    if total_draws == 0 and not need_wild:
        exact = _tracked_exact(info, ups, hidden, groups, unseen_cards, k_arr, opts,
                               min(exact_limit, MAX_ENUMERATION))
        if exact is not None:
            return exact
    check_samples(samples)
    gen = np_rng(rng, seed)
    weights = np.asarray([g[0] for g in groups])
    counts = gen.multinomial(samples, weights / weights.sum())
    tally = Tally()
    cats = np.zeros(10, dtype=np.int64)
    for (_, xs, n_u, _), count in zip(groups, counts, strict=True):
        kept = [h - x for x, h in zip(xs, hidden, strict=True)]
        for n in chunks(int(count)):
            d = draw(gen, unseen_cards, n, n_u + sum(kept))
            pool = np.concatenate([np.broadcast_to(k_arr, (n, len(k_arr))), d[:, :n_u]], axis=1)
            pool = np.take_along_axis(pool, np.argsort(gen.random(pool.shape), axis=1), axis=1)
            down_drawn, rest = pool[:, :sum(xs)], pool[:, len(pool[0]) - info.pool:]
            parts = []
            at_k, at_x = n_u, 0
            for x, k in zip(xs, kept, strict=True):
                parts += [d[:, at_k:at_k + k], down_drawn[:, at_x:at_x + x]]
                at_k += k
                at_x += x
            deal = np.concatenate(parts, axis=1) if parts else np.zeros((n, 0), np.int64)
            hands = _hands(info.mine, ups, hidden, deal, rest[:, :total_draws], draws)
            turned = rest[:, total_draws] if need_wild else None
            share, chunk_cats = _score(hands, [list(info.wild_ranks)], turned, opts)
            tally.add(share)
            cats += chunk_cats
            if progress is not None:
                progress(tally.n, samples)
    return tally.odds("monte-carlo", "rollyourown", categories=_categories(cats, tally.n))


def _tracked_exact(info: ViewInfo, ups: list[list[int]], hidden: list[int],
                   groups: list[tuple[float, list[int], int, int]], unseen_cards: Ints,
                   k_arr: Ints, opts: dict[str, bool], limit: int) -> Odds | None:
    """Every world of :func:`ryo_tracked_odds` when nothing is left to draw:
    per group, every choice of the unknown discards and kept down cards, times
    every choice of the drawn down cards from the pool's unplaced cards; each
    world weighted by its group's probability over its group's worlds.
    ``None`` when there are more than ``limit`` worlds."""
    plans = []
    total = 0
    for p, xs, n_u, _ in groups:
        kept = [h - x for x, h in zip(xs, hidden, strict=True)]
        n_deal = count_assignments(len(unseen_cards), [n_u, *kept])
        n_pick = count_assignments(len(k_arr) + n_u, xs)
        total += n_deal * n_pick
        if total > limit or n_deal * n_pick == 0:
            return None
        plans.append((p, xs, n_u, kept, n_deal * n_pick))
    shares_all: list[Floats] = []
    weights: list[Floats] = []
    cats = np.zeros(10, dtype=np.float64)
    norm = sum(p for p, *_ in plans)
    for p, xs, n_u, kept, worlds in plans:
        deal = assignments(unseen_cards, [n_u, *kept])  # (D, n_u + sum(kept))
        pick = assignments(np.arange(len(k_arr) + n_u, dtype=np.int64), xs)  # (M, sum(xs))
        pool = np.concatenate([np.broadcast_to(k_arr, (len(deal), len(k_arr))),
                               deal[:, :n_u]], axis=1)
        rows_d = np.repeat(np.arange(len(deal)), len(pick))
        rows_m = np.tile(np.arange(len(pick)), len(deal))
        drawn = np.take_along_axis(pool[rows_d], pick[rows_m], axis=1)
        kept_cards = deal[rows_d, n_u:]
        parts = []
        at_k = at_x = 0
        for x, k in zip(xs, kept, strict=True):
            parts += [kept_cards[:, at_k:at_k + k], drawn[:, at_x:at_x + x]]
            at_k += k
            at_x += x
        n = len(rows_d)
        hand_deal = np.concatenate(parts, axis=1) if parts else np.zeros((n, 0), np.int64)
        hands = _hands(info.mine, ups, hidden, hand_deal, np.zeros((n, 0), np.int64),
                       [0] * (len(ups) + 1))
        share, chunk_cats = _score(hands, [list(info.wild_ranks)], None, opts)
        w = np.full(n, p / norm / worlds)
        shares_all.append(share)
        weights.append(w)
        cats += chunk_cats * (p / norm / worlds)
    share = np.concatenate(shares_all)
    categories = {Category(i).label: float(cats[i]) for i in range(9, -1, -1) if cats[i]}
    return summarise(share, "exact", "rollyourown", weights=np.concatenate(weights),
                     categories=categories)
