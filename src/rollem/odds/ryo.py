"""Five Card Roll Your Own odds (R-RYO-1..R-RYO-9), with the chance of each
final hand category.

Each player ends with five cards: the three it kept plus one draw from the
pool in each of the two draws (R-RYO-5, R-RYO-6); the wild rank is the rank
of a card turned from what is left in the pool (R-RYO-7), and the showdown
is the wild-card high hand (R-RYO-9, house options ``wild_duplicates`` and
``natural_beats_wild``).

Model of what the seat cannot see:

- The seat's own discards still unaccounted for are in the pool; the rest
  of the pool, and every opponent's down cards (kept or drawn), are
  uniformly random among the cards the seat cannot see.
- Limitation: which cards were drawn from the pool is not tracked. An
  opponent's drawn down card is not restricted to the pool's cards, and is
  never one of the seat's own discards (in truth it may be). Where the seat
  could deduce it (e.g. heads-up once every pool card is accounted for:
  its own discards, its draws, the turned wild card), the odds are off;
  ``tests/histories/rollyourown_seed_example.toml`` at seat 0 is such a
  case.
- Draws still to come, and the wild card when not yet turned, come from the
  shuffled pool: uniformly random among its cards.
- Before the discard, an opponent keeps three of its six cards at random,
  and the seat's odds are those of its best keep (the three cards whose odds
  are best; :attr:`Odds.keep`).
- Every player still in goes to the showdown.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np

from rollem.cards import CARDS, CardError, parse_cards
from rollem.hands.category import Category
from rollem.odds.common import (
    MAX_ENUMERATION,
    Floats,
    Ints,
    Progress,
    Tally,
    assignments,
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

__all__ = ["ryo_odds", "ryo_view_odds"]

CardsIn = Sequence[int] | str


def _cards(value: CardsIn, what: str) -> list[int]:
    try:
        return [int(c) for c in (parse_cards(value) if isinstance(value, str) else value)]
    except CardError as err:
        raise OddsError(f"{what}: {err}") from None


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
    mine = _cards(hand, "hand")
    ups = [_cards(u, "opponent up cards") for u, _ in opponents]
    hidden = [int(h) for _, h in opponents]
    if not opponents:
        raise OddsError("no opponent: give at least one opponent still in the hand")
    if not 3 <= len(mine) <= 6:
        raise OddsError(f"hand: expected three to six cards, got {len(mine)}")
    for u, h in zip(ups, hidden, strict=True):
        if h < 0 or not 3 <= len(u) + h <= 6 or (len(u) + h == 6 and u):
            raise OddsError(f"an opponent holds three to six cards (six all down): "
                            f"{len(u)} up + {h} hidden given")
    out_c = _cards(out, "out")
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
    return _odds(mine, ups, hidden, _cards(pool_known, "pool_known"), pool_unknown, out_c,
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
