"""Stop, Drop and Roll odds (R-SDR-5, R-SDR-6): two hole cards plus the
three Roll cards; the Stop and the Drop are dead, so they cannot appear in
the Roll nor in any opponent's hand.

Opponents' model: each unknown hand is two cards drawn uniformly from the
cards the seat cannot see (not its hole cards, not the dead cards, not the
board, not a hand given with ``vs``); the Roll's missing cards come from the
same unseen cards. Everyone still in goes to the showdown.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

import numpy as np
import numpy.typing as npt

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
    check_seed,
    chunks,
    count_assignments,
    draw,
    np_rng,
    shares,
    summarise,
    unseen,
)
from rollem.odds.evaluate import FLUSH_A, HIGH5_A, KEY, RANK_BIT, SUIT, high5
from rollem.odds.result import Odds, OddsError
from rollem.parallel import child_seed, job_seed, run_parts, split_counts

__all__ = ["EXACT_LIMIT", "sdr_odds", "sdr_outcomes"]

EXACT_LIMIT = 25_000_000
"""Default: enumerate exactly when there are at most this many outcomes: every
case against one unknown hand (at most C(50, 3) x C(47, 2) = 21,187,600, about
a quarter of a second), as play's odds count it
(:data:`rollem.odds.play.SDR_EXACT_LIMIT`: s65-check, ``rollem odds sdr --hand``
alone was Monte Carlo where play said "exact")."""



def sdr_outcomes(unknown: int, board: int, opponents: int) -> int:
    """How many equally likely outcomes exact enumeration visits: Rolls x
    ways to deal the unknown hands (to distinct seats)."""
    return count_assignments(unknown, [3 - board] + [2] * opponents)


def sdr_odds(
    hand: CardsIn,
    *,
    dead: CardsIn = (),
    board: CardsIn = (),
    vs: Sequence[CardsIn] = (),
    opponents: int | None = None,
    samples: int = 100_000,
    seed: int | None = None,
    rng: random.Random | None = None,
    exact_limit: int = EXACT_LIMIT,
    progress: Progress | None = None,
    workers: int = 1,
) -> Odds:
    """Stop, Drop and Roll odds from the cards the caller supplies.

    Args:
        hand: the seat's two hole cards (ints or text such as ``"As Kd"``).
        dead: the Stop and the Drop when known (0 to 2 cards, R-SDR-6).
        board: the Roll cards known (0 to 3).
        vs: opponents' hands known to the caller (two cards each).
        opponents: unknown opponents' hands (default 1 when ``vs`` is empty,
            else 0).
        samples: Monte Carlo worlds when exact enumeration is not used, 1 to
            :data:`rollem.odds.common.MAX_SAMPLES`; drawn in chunks of
            :data:`rollem.odds.common.CHUNK`, so memory does not grow with it.
        seed, rng: seed the Monte Carlo (``seed`` wins over ``rng``).
        exact_limit: enumerate exactly when the outcomes (Rolls x deals of
            the unknown hands) are at most this many; 0 forces Monte Carlo.
            One unknown hand has a fast path (about 17 million showdowns a
            second or more); two or more are enumerated row by row, at most
            :data:`rollem.odds.common.MAX_ENUMERATION` deals.
        progress: called as ``progress(done, samples)`` after each Monte Carlo
            chunk (with several workers: after each worker's part).
        workers: processes to split the Monte Carlo worlds over
            (:mod:`rollem.parallel`): part ``i`` draws from its own stream
            seeded by ``child_seed(seed, i, workers)`` and the parts' tallies
            are added in part order, so the same ``seed`` and ``workers`` give
            the same answer; ``workers=1`` is one stream seeded by ``seed``.

    Returns:
        :class:`Odds` (``game="sdr"``).

    Raises:
        OddsError: wrong card counts, a card given twice, too few cards left,
            ``opponents`` out of its range (naming it), a negative ``seed``.
        ValueError: ``workers`` < 1.
    """
    if workers < 1:
        raise ValueError(f"workers {workers}: expected at least 1")
    check_seed(seed)
    hole = card_list(hand, "hand")
    dead_c = card_list(dead, "dead")
    board_c = card_list(board, "board")
    vs_c = [card_list(v, "vs") for v in vs]
    if len(hole) != 2:
        raise OddsError(f"hand: expected two hole cards, got {len(hole)}")
    if len(dead_c) > 2:
        raise OddsError(f"dead: expected at most two cards (the Stop and the Drop), "
                        f"got {len(dead_c)}")
    if len(board_c) > 3:
        raise OddsError(f"board: expected at most three Roll cards, got {len(board_c)}")
    for v in vs_c:
        if len(v) != 2:
            raise OddsError(f"vs: each hand is two hole cards, got {len(v)}")
    k = (0 if vs_c else 1) if opponents is None else opponents
    if len(vs_c) > 9:
        raise OddsError("at most ten players in Stop, Drop and Roll: "
                        f"at most 9 vs hands, got {len(vs_c)}")
    # At least one opponent, known or not; at most ten players with you (R-SDR-1).
    least, most = (0 if vs_c else 1), 9 - len(vs_c)
    if not least <= k <= most:
        given = f" with {len(vs_c)} vs hand{'s' if len(vs_c) > 1 else ''}" if vs_c else ""
        raise OddsError(f"opponents must be from {least} to {most}{given}, not {k}: at least "
                        "one opponent, at most ten players with you")
    pool = unseen(hole, dead_c, board_c, *vs_c)
    need = 3 - len(board_c) + 2 * k
    if need > len(pool):
        raise OddsError(f"{need} unknown cards are needed but only {len(pool)} are left")
    outcomes = sdr_outcomes(len(pool), len(board_c), k)
    if outcomes <= (exact_limit if k < 2 else min(exact_limit, MAX_ENUMERATION)):
        if k >= 2:
            return summarise(_enumerate(hole, board_c, vs_c, k, pool), "exact", "sdr")
        return _exact(hole, board_c, vs_c, k, pool)
    check_samples(samples)
    if workers > 1:
        base = job_seed(seed if seed is not None or rng is None else rng.getrandbits(64))
        counts = split_counts(samples, workers)
        done = [0]

        def part_done(_index: int, part: Tally) -> None:
            done[0] += part.n
            if progress is not None:
                progress(done[0], samples)

        parts = run_parts(_monte_carlo_part, [
            (hole, board_c, vs_c, k, pool, n, child_seed(base, i, len(counts)))
            for i, n in enumerate(counts)], on_done=part_done)
        tally = Tally()
        for part in parts:
            tally.merge(part)
        return tally.odds("monte-carlo", "sdr")
    gen = np_rng(rng, seed)
    tally = Tally()
    for n in chunks(samples):
        tally.add(_monte_carlo(hole, board_c, vs_c, k, pool, n, gen))
        if progress is not None:
            progress(tally.n, samples)
    return tally.odds("monte-carlo", "sdr")


def _monte_carlo_part(hole: list[int], board: list[int], vs: list[list[int]], k: int,
                      pool: Ints, samples: int, seed: int) -> Tally:
    """One worker's part of :func:`sdr_odds`' Monte Carlo: ``samples`` worlds drawn
    from the stream seeded by ``seed``, in chunks; their tally."""
    gen = np.random.default_rng(seed)
    tally = Tally()
    for n in chunks(samples):
        tally.add(_monte_carlo(hole, board, vs, k, pool, n, gen))
    return tally


def _monte_carlo(hole: list[int], board: list[int], vs: list[list[int]], k: int, pool: Ints,
                 samples: int, gen: np.random.Generator) -> Floats:
    nb = 3 - len(board)
    d = draw(gen, pool, samples, nb + 2 * k)
    roll = np.concatenate([np.broadcast_to(np.asarray(board, dtype=np.int64),
                                           (samples, len(board))), d[:, :nb]], axis=1)
    hero = high5(np.concatenate([np.broadcast_to(np.asarray(hole), (samples, 2)), roll], 1))
    others = []
    for v in vs:
        others.append(high5(np.concatenate(
            [np.broadcast_to(np.asarray(v), (samples, 2)), roll], 1)))
    for j in range(k):
        others.append(high5(np.concatenate([d[:, nb + 2 * j:nb + 2 * j + 2], roll], 1)))
    return shares(hero, np.stack(others, axis=1))


def _enumerate(hole: list[int], board: list[int], vs: list[list[int]], k: int,
               pool: Ints) -> Floats:
    """Shares over every (Roll, unknown hands) deal: two or more unknown hands."""
    nb = 3 - len(board)
    deal = assignments(pool, [nb] + [2] * k)
    s = len(deal)
    roll = np.concatenate([np.broadcast_to(np.asarray(board, dtype=np.int64),
                                           (s, len(board))), deal[:, :nb]], axis=1)
    hero = high5(np.concatenate([np.broadcast_to(np.asarray(hole), (s, 2)), roll], 1))
    others = [high5(np.concatenate([np.broadcast_to(np.asarray(v), (s, 2)), roll], 1))
              for v in vs]
    for j in range(k):
        others.append(high5(np.concatenate([deal[:, nb + 2 * j:nb + 2 * j + 2], roll], 1)))
    return shares(hero, np.stack(others, axis=1))


def _exact(hole: list[int], board: list[int], vs: list[list[int]], k: int,
           pool: Ints) -> Odds:
    nb = 3 - len(board)
    idx = _combos(len(pool), nb)
    rolls = np.concatenate([np.broadcast_to(np.asarray(board, dtype=np.int64),
                                            (len(idx), len(board))), pool[idx]], axis=1)
    hero = high5(np.concatenate([np.broadcast_to(np.asarray(hole), (len(rolls), 2)), rolls], 1))
    known = [high5(np.concatenate([np.broadcast_to(np.asarray(v), (len(rolls), 2)), rolls], 1))
             for v in vs]
    if k == 0:
        return summarise(shares(hero, np.stack(known, axis=1)), "exact", "sdr")
    # One unknown hand: every two-card hand of the unseen cards, for each Roll
    # (those sharing a card with the Roll are skipped); all equally likely.
    pairs = np.asarray(list(combinations(range(len(pool)), 2)), dtype=np.int64)
    pa, pb = pool[pairs[:, 0]], pool[pairs[:, 1]]
    p_key = (KEY[pa] + KEY[pb]).astype(np.int32)
    p_bits = (np.int64(1) << pairs[:, 0]) | (np.int64(1) << pairs[:, 1])
    p_suit = np.where(SUIT[pa] == SUIT[pb], SUIT[pa], -1)
    p_mask = RANK_BIT[pa] | RANK_BIT[pb]
    r_key = KEY[rolls].sum(axis=1).astype(np.int32)
    r_bits = np.zeros(len(idx), dtype=np.int64)
    for j in range(nb):
        r_bits |= np.int64(1) << idx[:, j]
    rs = SUIT[rolls]
    r_suit = np.where((rs == rs[:, :1]).all(axis=1), rs[:, 0], -2)
    r_mask = np.bitwise_or.reduce(RANK_BIT[rolls], axis=1)
    high = _high32()
    if known:
        kv = np.stack(known, axis=1)
        known_best = kv.max(axis=1)
        known_ties = (kv == hero[:, None]).sum(axis=1)
    else:
        known_best = np.full(len(rolls), -1, dtype=np.int64)
        known_ties = np.zeros(len(rolls), dtype=np.int64)
    above = hero > known_best  # the seat beats every known hand on this Roll
    level = hero == known_best  # the seat ties the best known hand
    h32 = hero.astype(np.int32)
    win = tie = equity = n = 0.0
    chunk = max(1, 2_000_000 // len(pairs))
    for lo in range(0, len(rolls), chunk):
        hi = min(len(rolls), lo + chunk)
        opp = high[r_key[lo:hi, None] + p_key[None, :]]
        fr, fp = np.nonzero(r_suit[lo:hi, None] == p_suit[None, :])
        if len(fr):
            opp[fr, fp] = FLUSH_A[r_mask[lo + fr] | p_mask[fp]]
        invalid = (r_bits[lo:hi, None] & p_bits[None, :]) != 0
        opp[invalid] = np.iinfo(np.int32).max  # a hand that cannot be dealt: never counted
        h = h32[lo:hi, None]
        n_beats = (opp < h).sum(axis=1)
        n_ties = (opp == h).sum(axis=1)
        n += float(len(pairs) * (hi - lo) - invalid.sum())
        a, lv, kt = above[lo:hi], level[lo:hi], known_ties[lo:hi]
        win += float(n_beats[a].sum())
        tie += float(n_ties[a].sum() + (n_beats[lv] + n_ties[lv]).sum())
        equity += float(n_beats[a].sum() + n_ties[a].sum() / 2.0
                        + (n_beats[lv] / (1.0 + kt[lv]) + n_ties[lv] / (2.0 + kt[lv])).sum())
    return Odds(win=win / n, tie=tie / n, lose=max(0.0, 1.0 - (win + tie) / n),
                equity=equity / n, method="exact", samples=int(n), stderr=0.0, game="sdr")


def _combos(n: int, r: int) -> Ints:
    """Every ``r``-subset of ``range(n)`` as rows, shape ``(comb(n, r), r)``."""
    rows = list(combinations(range(n), r))
    return np.asarray(rows, dtype=np.int64).reshape(len(rows), r)


_HIGH32: list[npt.NDArray[np.int32]] = []


def _high32() -> npt.NDArray[np.int32]:
    if not _HIGH32:
        # padded: an impossible five (a card twice) may index past the end; masked later
        table = np.zeros(5 * int(KEY.max()) + 1, dtype=np.int32)
        table[:len(HIGH5_A)] = HIGH5_A
        _HIGH32.append(table)
    return _HIGH32[0]
