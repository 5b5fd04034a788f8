"""Odds for any game from a game file, by Monte Carlo from one seat's view (issue 18).

The plain model, read off the game file's steps (:class:`rollem.games.gamefile.GameSpec`)
and nothing game-specific:

- every card the viewer cannot see is uniformly random among the cards it has
  not seen (its own cards, every face-up card, the board, dead cards, folded
  seats' up cards, its own discards are seen);
- the steps still to come deal each player still in the cards the file says
  (hole cards down or up, draws from the pool) and the board its cards; draws
  from the stub are taken as standing pat (no betting, nobody folds: everyone
  still in goes to the showdown);
- a discard still to come (a discard step) keeps, in hindsight, the cards that
  play best at the showdown;
- the showdown is the file's: high, low (ace-to-five with its qualifier, or
  deuce-to-seven), high-low split (the odd chip aside), hole/board rules
  (Omaha: exactly two and three), fixed wild ranks. A ``declare`` showdown has
  no plain model here (5-2-1 Roll 'Em has its own calculator).

Where the deals still to come are few enough (``exact_limit``; a bound on the
work), every one is counted instead of sampled (:mod:`rollem.odds.fileexact`:
the same model, ``method="exact"``; issue 33). A showdown with a hole/board rule
(Omaha, Omaha hi-lo) is scored every world at once (:mod:`rollem.odds.holeboard`:
the same law, numpy's draws); the others one world at a time here.

Equity is the expected share of the pot (ties split, a high-low pot in halves,
the whole pot to the high hand when no low qualifies); side pots are not
modelled (every seat still in is taken to have put in as much).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any, cast

from rollem.odds.common import Progress
from rollem.odds.result import Odds, OddsError

if TYPE_CHECKING:
    from rollem.cards import Card
    from rollem.engine.game import Game
    from rollem.games.gamefile import GameSpec
    from rollem.odds.view import ViewInfo

__all__ = ["file_game_odds", "final_counts", "plain_model_refusal"]

Score = Callable[[Sequence[int], Sequence[int]], tuple[int, int | None]]


def final_counts(spec: GameSpec, options: Any) -> tuple[int, int]:
    """``(hole cards each player ends with, board cards)`` of ``spec`` under
    ``options`` (steps switched off by a ``when`` house option left out)."""
    own = board = 0
    for s in spec.steps:
        if s.when is not None and not options.get(s.when, spec.house[s.when]):
            continue
        p = s.params
        if s.kind == "deal":
            own += p["cards"]
        elif s.kind == "discard":
            own -= p["cards"]
        elif s.kind == "draw-from-pool":
            own += 1
        elif s.kind == "board":
            board += p["cards"]
    return own, board


def plain_model_refusal(spec: GameSpec) -> str | None:
    """Why the plain model cannot give odds for ``spec`` (one line), or ``None``:
    a ``declare`` showdown has no model of the declarations here (issue 34:
    practice odds are refused when such a table is created)."""
    if spec.steps[-1].params["pot"] == "declare":
        return (f"no plain odds for {spec.id!r}: a declare showdown needs a model of "
                "the declarations (only 5-2-1 Roll 'Em has one)")
    return None


def _scorer(spec: GameSpec, wild_ranks: Sequence[int], options: Any) -> Score:
    """``score(own, board) -> (high, low or None)``: greater is better; ``low`` is
    ``None`` when the pot has no low half or the hand's low does not qualify."""
    from rollem import hands as ev
    from rollem.engine.showdown import deuce_to_seven_value, qualifies

    p = spec.steps[-1].params
    pot, low_kind, qualifier = p["pot"], p["low"], p["qualifier"]
    hole, need_board, wild = p["hole"], p["board"], p["wild"]
    refusal = plain_model_refusal(spec)
    if refusal is not None:
        raise OddsError(refusal)
    wild_set = tuple(wild_ranks)
    dup = bool(options.get("wild_duplicates", False))
    nbw = bool(options.get("natural_beats_wild", False))

    boards: dict[tuple[int, ...], list[tuple[int, ...]]] = {}  # shared by the seats

    def fives(own: Sequence[int], board: Sequence[int]) -> list[tuple[int, ...]]:
        key = tuple(board)
        combos = boards.get(key)
        if combos is None:
            if len(boards) > 8:
                boards.clear()
            combos = boards[key] = list(combinations(board, need_board))
        return [h + b for h in combinations(own, hole) for b in combos]

    def low_card(c: int) -> bool:
        """May be in a qualifying ace-to-five low (an ace, or rank <= qualifier)."""
        r = c >> 2
        return r == 12 or r + 2 <= qualifier

    def high_of(own: Sequence[int], board: Sequence[int]) -> int:
        if hole:
            return max(ev.high_value(f) for f in fives(own, board))
        cards = [*own, *board]
        if wild and wild_set:
            return ev.wild_value(cards, wild_set, wild_duplicates=dup, natural_beats_wild=nbw)
        return ev.high_value(cards)

    def low_of(own: Sequence[int], board: Sequence[int]) -> int | None:
        if qualifier and low_kind == "ace-to-five":
            # a qualifying low holds only such cards: look at those alone
            own = [c for c in own if low_card(c)]
            board = [c for c in board if low_card(c)]
            if (len(own) < hole or len(board) < need_board) if hole \
                    else len(own) + len(board) < 5:
                return None
        groups = fives(own, board) if hole else [(*own, *board)]
        if low_kind == "deuce-to-seven":
            return max(deuce_to_seven_value(cast("Sequence[Card]", f)) for f in groups)
        v = max(ev.low_value(f) for f in groups)
        return v if qualifies(v, qualifier) else None

    if pot == "high":
        return lambda own, board: (high_of(own, board), None)
    if pot == "low":
        return lambda own, board: (0, low_of(own, board))
    return lambda own, board: (high_of(own, board), low_of(own, board))


def _share(me: int, values: list[int | None]) -> float:
    """The share of ``me`` among the best of ``values`` (``None``: not in it)."""
    best = max((v for v in values if v is not None), default=None)
    if best is None or values[me] != best:
        return 0.0
    return 1.0 / sum(1 for v in values if v == best)


def file_game_odds(info: ViewInfo, game: Game, *, samples: int = 200,
                   rng: random.Random | None = None, seed: int | None = None,
                   progress: Progress | None = None, exact_limit: int = 0) -> Odds:
    """The viewer's odds in a game from a game file (the module doc's model).

    Args:
        info: the viewer's view (:func:`rollem.odds.view.read_view`).
        game: the game, with its parsed file (``game.spec``).
        samples: Monte Carlo worlds (1 or more; standard error about
            ``0.5 / sqrt(samples)``).
        exact_limit: count every deal still to come exactly
            (:mod:`rollem.odds.fileexact`, ``method="exact"``) when there are
            at most this many and the count fits its work bound
            (:data:`rollem.odds.fileexact.EXACT_WORK`); 0 (the default, the
            computer players' few milliseconds): always Monte Carlo.

    Raises:
        OddsError: the game has no game file, a declare showdown, or too few
            unseen cards for what is still to be dealt.
    """
    from rollem.engine.options import Options

    spec = game.spec
    if spec is None:
        raise OddsError(f"game {game.id!r} has no game file to read its steps from")
    if samples < 1:
        raise OddsError(f"samples must be at least 1, got {samples}")
    options = Options.from_dict(dict(info.options))
    wild_ranks = list(info.wild_ranks)
    score = _scorer(spec, wild_ranks, options)
    final_own, final_board = final_counts(spec, options)
    pot = spec.steps[-1].params["pot"]
    seen = set(info.mine) | set(info.board) | set(info.dead) | set(info.seen_out) \
        | set(info.my_pool) | set(info.my_discards)
    players: list[tuple[list[int], int]] = [(list(info.mine),
                                             max(final_own - len(info.mine), 0))]
    for o in info.opponents:
        if o.known is not None:  # every card visible (shown)
            known, more = list(o.known), max(final_own - len(o.known), 0)
        else:  # its hidden cards now, and the cards still to come
            known = list(o.up)
            more = o.hidden + max(final_own - len(o.up) - o.hidden, 0)
        seen |= set(known)
        players.append((known, more))
    board_more = max(final_board - len(info.board), 0)
    unseen = [c for c in range(52) if c not in seen]
    need = board_more + sum(more for _, more in players)
    if need > len(unseen):
        raise OddsError(f"{need} cards still to deal but only {len(unseen)} unseen")
    if len(players) == 1:
        return Odds(win=1.0, tie=0.0, lose=0.0, equity=1.0, method="exact", samples=1,
                    stderr=0.0, game=game.id)
    if need == 0:
        samples = 1
    else:
        from rollem.odds.fileexact import exact_file_odds, fits

        if fits(spec, players, len(info.board), board_more, len(unseen), exact_limit):
            # few deals left: every one counted (issue 33, branch s71-exact)
            return exact_file_odds(spec, players, info.board, board_more, unseen,
                                   wild_ranks=wild_ranks, options=options, game_id=game.id)
        from rollem.odds.holeboard import hole_board_odds, vectorised

        if vectorised(spec):  # Omaha's two and three, every world at once (issue 33)
            return hole_board_odds(spec, players, info.board, board_more, unseen,
                                   samples=samples, game_id=game.id, rng=rng, seed=seed,
                                   progress=progress)
    r = random.Random(seed) if seed is not None else (rng or random.Random())
    total = total_sq = 0.0
    wins = ties = 0
    for i in range(samples):
        drawn = r.sample(unseen, need) if need else []
        k = 0
        board = list(info.board) + drawn[k:k + board_more]
        k += board_more
        highs: list[int | None] = []
        lows: list[int | None] = []
        for known, more in players:
            own = known + drawn[k:k + more]
            k += more
            h, lo = score(own, board)
            highs.append(h)
            lows.append(lo)
        if pot == "high":
            share = _share(0, highs)
        elif pot == "low":
            share = _share(0, lows)
        elif any(v is not None for v in lows):
            share = 0.5 * _share(0, highs) + 0.5 * _share(0, lows)
        else:
            share = _share(0, highs)
        total += share
        total_sq += share * share
        wins += share >= 1.0
        ties += 0.0 < share < 1.0
        if progress is not None and (i + 1) % 1000 == 0:
            progress(i + 1, samples)
    n = samples
    mean = total / n
    var = max(total_sq / n - mean * mean, 0.0)
    exact = need == 0
    return Odds(win=wins / n, tie=ties / n, lose=(n - wins - ties) / n, equity=mean,
                method="exact" if exact else "monte-carlo", samples=n,
                stderr=0.0 if exact else math.sqrt(var / n), game=game.id)
