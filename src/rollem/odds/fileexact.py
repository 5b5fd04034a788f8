"""Exact odds in games from game files, where the deals left are few (issue 33).

The plain model of :mod:`rollem.odds.filegame` deals every card the viewer
has not seen uniformly at random: the board still to come and each player's
cards still to come (an opponent's hidden cards and its later ones). Where
those completions are few, every one is counted, equally likely, in place
of sampling: hold'em at the river heads-up is the C(45, 2) = 990 hands the
opponent may hold, not 20,000 random worlds. The law, the showdown and the
pot's shares are the plain model's (:func:`rollem.odds.holeboard.world_shares`:
ties split, a high-low pot in halves, the whole pot to the high when no low
qualifies), so the answer is the sampled answer's limit.

How it counts, for each completion of the board (``C(u, b)`` of the ``u``
unseen cards; a chunk of boards at a time): each player still to get cards
(a *drawer*) has a table of values, one for each set of cards it may get
from the cards left (``C(u - b, m)``), each hand scored once; players with
nothing to come are scored once per board. The deals are the rows of an
index table shared by every board (disjoint sets for the drawers:
:func:`deal_index`), each row a look-up in the drawers' tables. Cost: the
hands scored, in five-card look-ups (:func:`exact_work`), plus the rows.

Not here (sampled as before): a deuce-to-seven low, and a ``declare`` showdown
(no plain model at all).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from math import comb
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from rollem.odds.common import MAX_ENUMERATION
from rollem.odds.result import Odds

if TYPE_CHECKING:
    from rollem.games.gamefile import GameSpec

__all__ = ["EXACT_WORK", "FILE_EXACT_LIMIT", "combination_rows", "countable", "deal_index",
           "exact_file_odds", "exact_work", "outcomes"]

Ints = npt.NDArray[np.int64]
Small = npt.NDArray[np.int8]
"""Cards and card positions (0..51): bytes, so that C(47, 5) hands of five
take 7.7 MB, not 61 (their first use cost up to a second of page faults)."""

FILE_EXACT_LIMIT = 2_000_000
"""Deals counted at most in a game file's exact odds (``rollem odds
--history`` and play; :func:`rollem.odds.view_equity`'s ``exact_limit``):
five-card draw heads-up, the C(47, 5) = 1,533,939 hands the opponent may
hold, fits (about 0.1 s of CPU)."""

EXACT_WORK = 16_000_000
"""The most five-card look-ups (:func:`exact_work`) an exact count may take,
whatever ``exact_limit`` says: about 0.3 s of one core here
(docs/dev/odds-precision.md, branch s71-exact). Omaha hi-lo at the river
heads-up (C(43, 4) = 123,410 hands of 60 fives, high and low: 14.8 million)
fits; hold'em on the flop heads-up (1,081 boards x 990 hands of 21 fives:
22.5 million) is sampled."""

ROW_WORK = 3.0
"""A deal's row, per player, counted as this many five-card look-ups (its
look-up and its share of the pot: measured, branch s71-exact)."""

CELLS = 262_144
"""Boards are counted a chunk at a time, about this many hands or rows each
(memory: a few arrays of this many words per player)."""

Players = Sequence[tuple[Sequence[int], int]]


def countable(spec: GameSpec) -> bool:
    """True when ``spec``'s showdown is scored here (the module doc): not a
    ``declare`` pot, not a deuce-to-seven low."""
    p = spec.steps[-1].params
    if p["pot"] == "declare":
        return False
    return bool(p["pot"] == "high" or p["low"] == "ace-to-five")


def outcomes(unseen: int, board_more: int, players: Players) -> int:
    """How many equally likely deals exact counting visits: completions of the
    board x disjoint sets for the players still to get cards."""
    total, left = comb(unseen, board_more), unseen - board_more
    for _, more in players:
        total *= comb(left, more)
        left -= more
    return total


def _fives(spec: GameSpec, own: int, board: int) -> int:
    """Five-card look-ups that score one hand of ``own`` cards with ``board``
    board cards (high and low for a high-low pot; a wild hand counted twice:
    its table look-up is about twice the cost)."""
    p = spec.steps[-1].params
    hole, from_board = p["hole"], p["board"]
    n = comb(own, hole) * comb(board, from_board) if hole else comb(own + board, 5)
    if p["pot"] == "high-low" or (p["wild"] and p["pot"] == "high" and not hole):
        n *= 2
    return max(n, 1)


def exact_work(spec: GameSpec, players: Players, board: int, board_more: int,
               unseen: int) -> float:
    """The cost of counting exactly, in five-card look-ups: for each completion
    of the board, every hand each drawer may get (players with the same known
    cards and count to come share a table) and each other player's one hand,
    plus :data:`ROW_WORK` per player per deal."""
    left = unseen - board_more
    tables = {(tuple(sorted(k)), m) for k, m in players if m}
    hands = sum(comb(left, m) * _fives(spec, len(k) + m, board + board_more)
                for k, m in tables)
    fixed = sum(_fives(spec, len(k), board + board_more) for k, m in players if not m)
    rows = outcomes(left, 0, [(k, m) for k, m in players if m])
    return comb(unseen, board_more) * (hands + fixed + ROW_WORK * rows * len(players))


@lru_cache(maxsize=16)
def combination_rows(n: int, k: int) -> Small:
    """Every ``k``-subset of ``range(n)``, once each, shape ``(C(n, k), k)``,
    each row increasing, in colex order (by last card, then the rest the same
    way): the subsets of ``range(m)`` are the first ``C(m, k)`` rows, so each
    table is slices of the one for ``(n - 1, k - 1)`` (C(47, 5) in some 20 ms;
    read-only)."""
    if n > 127:
        raise ValueError(f"n {n}: at most 127 cards (positions are bytes)")
    out = np.empty((comb(n, k), k), dtype=np.int8)
    if k == 0 or k > n:
        out.setflags(write=False)
        return out
    prev = combination_rows(n - 1, k - 1)
    pos = 0
    for last in range(k - 1, n):  # rows ending in ``last``: the (k-1)-subsets below it
        c = comb(last, k - 1)
        out[pos:pos + c, :k - 1] = prev[:c]
        out[pos:pos + c, k - 1] = last
        pos += c
    out.setflags(write=False)
    return out


@lru_cache(maxsize=8)
def deal_index(n: int, sizes: tuple[int, ...]) -> Ints:
    """Every way to give disjoint sets of ``sizes`` cards from ``n`` cards, as
    rows of combination numbers (column ``i``: the row of
    ``combination_rows(n, sizes[i])`` the ``i``-th drawer gets); shape
    ``(ways, len(sizes))``, all equally likely under uniform dealing
    (read-only)."""
    if len(sizes) == 1:  # one drawer: every row of its table
        one = np.arange(comb(n, sizes[0]), dtype=np.int64)[:, None]
        one.setflags(write=False)
        return one
    out = np.zeros((1, 0), dtype=np.int64)
    used = np.zeros(1, dtype=np.int64)  # bit i: card i taken
    for k in sizes:
        combos = combination_rows(n, k)
        bits = (np.int64(1) << combos.astype(np.int64)).sum(axis=1) if k \
            else np.zeros(1, dtype=np.int64)
        r, j = np.nonzero((used[:, None] & bits[None, :]) == 0)
        out = np.concatenate([out[r], j[:, None]], axis=1)
        used = used[r] | bits[j]
    out.setflags(write=False)
    return out


Cards = npt.NDArray[np.integer[Any]]
Scorer = Callable[[Cards, Cards], tuple[Ints, Ints | None]]


def _scorer(spec: GameSpec, wild_ranks: Sequence[int], options: Any) -> Scorer:
    """``score(own (N, n), board (N, m)) -> (highs, lows or None)`` as the scalar
    model's :func:`rollem.odds.filegame._scorer`, every row at once: highs
    greater is better (zeros for a low-only pot), lows :data:`rollem.odds.
    holeboard.NO_LOW` where none qualifies, ``None`` for a high-only pot."""
    from rollem.hands.batch import _best_of_subsets, _card_words, _gather, high_values, wild_values
    from rollem.odds.holeboard import _qualified_low_table, vectorised, world_values

    p = spec.steps[-1].params
    pot = p["pot"]
    if vectorised(spec):
        def hole_board(own: Cards, board: Cards) -> tuple[Ints, Ints | None]:
            highs, lows = world_values(spec, [own], board)
            return highs[:, 0], None if lows is None else lows[:, 0]
        return hole_board
    wild = tuple(wild_ranks) if p["wild"] else ()
    dup = bool(options.get("wild_duplicates", False))
    nbw = bool(options.get("natural_beats_wild", False))
    table = _qualified_low_table(int(p["qualifier"])) if pot != "high" else None

    def low_five(h: Any) -> Any:
        assert table is not None
        return _gather(h, _card_words(), table, flush=False, wilds=False)

    def score(own: Cards, board: Cards) -> tuple[Ints, Ints | None]:
        cards = np.concatenate([own, board], axis=1)
        highs = np.zeros(len(cards), dtype=np.int64)
        if pot != "low":
            highs = (wild_values(cards, wild, wild_duplicates=dup, natural_beats_wild=nbw)
                     if wild else high_values(cards)).astype(np.int64)
        lows = None
        if table is not None:
            lows = (_best_of_subsets(cards, low_five) if cards.shape[1] > 5
                    else low_five(cards)).astype(np.int64)
        return highs, lows
    return score


def exact_file_odds(spec: GameSpec, players: Players, board: Sequence[int], board_more: int,
                    unseen: Sequence[int], *, wild_ranks: Sequence[int], options: Any,
                    game_id: str) -> Odds:
    """The viewer's odds counted over every deal of the cards still to come.

    Args:
        spec: the game file (:func:`countable` holds).
        players: per player still in (the viewer first), ``(known cards,
            cards still to come)``.
        board, board_more: the board so far and how many board cards are to come.
        unseen: the cards the viewer has not seen (the deals' cards).
        wild_ranks, options: the hand's wild ranks and house options (as the
            scalar model reads them).

    Returns:
        :class:`Odds` with ``method="exact"``, ``samples`` the deals counted
        (:func:`outcomes`), ``stderr`` 0; win (the whole pot), tie (a share)
        and lose counted as the sampled path counts its worlds.
    """
    from rollem.odds.holeboard import world_shares

    score = _scorer(spec, wild_ranks, options)
    pot = spec.steps[-1].params["pot"]
    pool = np.asarray(unseen, dtype=np.int8)
    u, left = len(pool), len(pool) - board_more
    drawers = [i for i, (_, m) in enumerate(players) if m]
    index = deal_index(left, tuple(players[i][1] for i in drawers))
    rows = len(index)
    tables: dict[tuple[tuple[int, ...], int], int] = {}  # shared tables: drawer -> first
    for i in drawers:
        tables.setdefault((tuple(sorted(players[i][0])), players[i][1]), i)
    biggest = max([rows] + [comb(left, m) for _, m in tables])
    per = max(1, CELLS // max(biggest, 1))
    boards = combination_rows(u, board_more)
    known_board = np.asarray(board, dtype=np.int8)
    total = wins = ties = 0.0
    n = 0
    for lo in range(0, len(boards), per):
        chunk = boards[lo:lo + per]
        b = len(chunk)
        taken = np.zeros((b, u), dtype=bool)
        taken[np.arange(b)[:, None], chunk] = True
        rest = pool[np.nonzero(~taken)[1].reshape(b, left)]  # (b, left), in pool order
        full_board = np.concatenate(
            [np.broadcast_to(known_board, (b, len(known_board))), pool[chunk]], axis=1)
        highs_cols: list[Ints] = []
        lows_cols: list[Ints | None] = []
        values: dict[int, tuple[Ints, Ints | None]] = {}
        for i, (known, more) in enumerate(players):
            mine = np.asarray(known, dtype=np.int8)
            if not more:  # one hand per board
                h, lw = score(np.broadcast_to(mine, (b, len(mine))), full_board)
                highs_cols.append(np.repeat(h, rows))
                lows_cols.append(None if lw is None else np.repeat(lw, rows))
                continue
            first = tables[(tuple(sorted(known)), more)]
            if first not in values:  # every hand this drawer may get, on each board
                combos = combination_rows(left, more)
                got = rest[:, combos]  # (b, hands, more)
                hands = len(combos)
                own = np.concatenate(
                    [np.broadcast_to(mine, (b, hands, len(mine))), got], axis=2)
                h, lw = score(own.reshape(b * hands, -1),
                              np.repeat(full_board, hands, axis=0))
                values[first] = (h.reshape(b, hands),
                                 None if lw is None else lw.reshape(b, hands))
            h2, l2 = values[first]
            col = index[:, drawers.index(i)]
            highs_cols.append(h2[:, col].reshape(-1))
            lows_cols.append(None if l2 is None else l2[:, col].reshape(-1))
        highs = np.stack(highs_cols, axis=1)
        lows = None if pot == "high" else np.stack(
            [c for c in lows_cols if c is not None], axis=1)
        share = world_shares(pot, highs, lows)
        total += float(share.sum())
        wins += float((share >= 1.0).sum())
        ties += float(((share > 0.0) & (share < 1.0)).sum())
        n += len(share)
    return Odds(win=wins / n, tie=ties / n, lose=(n - wins - ties) / n, equity=total / n,
                method="exact", samples=n, stderr=0.0, game=game_id)


def fits(spec: GameSpec, players: Players, board: int, board_more: int, unseen: int,
         exact_limit: int) -> bool:
    """True when the deals are at most ``exact_limit``, their rows at most
    :data:`rollem.odds.common.MAX_ENUMERATION` where two or more players get
    cards (memory), and the work at most :data:`EXACT_WORK`."""
    if exact_limit <= 0 or not countable(spec):
        return False
    if outcomes(unseen, board_more, players) > exact_limit:
        return False
    drawers = [(k, m) for k, m in players if m]
    if len(drawers) > 1 and outcomes(unseen - board_more, 0, drawers) > MAX_ENUMERATION:
        return False
    return exact_work(spec, players, board, board_more, unseen) <= EXACT_WORK
