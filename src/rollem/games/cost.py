"""What a game file's showdown costs: the five-card hands it evaluates (issue 34).

A showdown scores each live player's best five cards (R-C-2): with ``n``
cards to choose from that is C(n, 5) five-card hands per player (C(26, 5) =
65,780), or C(own, hole) x C(board, board) under a hole/board rule (Omaha:
6 x 10 = 60).  Wild cards cost nothing more per hand -- the substitution is
a table lookup (:mod:`rollem.hands.wild`) -- but a wild showdown goes over
every hand twice, once for the value and once for the words ("four aces,
wild 2h plays as As"), and a high-low pot scores each hand for both halves.
So the quantity that drives a showdown's time is

    evaluations = players x hands per player x passes

with ``passes`` 2 for a wild showdown or a high-low (or declare) pot, else
1; the same count bounds the other evaluations of a hand (the hand showing
that opens a round reads at most the same cards).  :data:`MAX_SHOWDOWN_EVALUATIONS`
caps it when a file is read (``rollem check-game``, ``--game-file``, a new
web table): every shipped game needs at most 1,200 (Omaha hi-lo, 10
players), the file of issue 34 (26 cards a player, wild cards, 2 players)
263,120.

A stored file (a history's ``_game_file``, a stored web table) is read as it
was accepted, without this check (:func:`rollem.games.gamefile.parse_game`
with ``strict=False``); the web table computes such a showdown off its event
loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rollem.engine.game import Game
    from rollem.games.gamefile import StepSpec

__all__ = ["MAX_SHOWDOWN_EVALUATIONS", "check_cost", "game_evaluations", "showdown_evaluations"]

MAX_SHOWDOWN_EVALUATIONS = 6_000
"""The most five-card hand evaluations a game's showdown may need (players x
hands per player x passes, see the module).  Five times the costliest shipped
game (Omaha hi-lo at 10 players: 1,200); measured at a few tens of
milliseconds of one core for the costliest file it lets through (13 cards a
player, wild cards, 2 players: 5,148; docs/dev/hostile.md), where the file of
issue 34 needed 263,120 (0.7 s and more).  Room for the home games: nine-card
baseball with wild cards at 5 players (1,260), five-card Omaha hi-lo at 10
(2,000), best five of twelve at 4 players (3,168)."""


def _cards_at_showdown(steps: Sequence[StepSpec]) -> tuple[int, int]:
    """Each player's own cards and the board's at the showdown, counting every
    step (a step with ``when`` as if its option were on, as the deck check
    does: :func:`rollem.games.gamefile._check_cards`)."""
    own = board = 0
    for s in steps:
        p = s.params
        if s.kind == "deal":
            own += p["cards"]
        elif s.kind == "board":
            board += p["cards"]
        elif s.kind == "discard":
            own -= p["cards"]
        elif s.kind == "draw-from-pool":
            own += 1
    return max(own, 0), board


def showdown_evaluations(steps: Sequence[StepSpec], max_players: int) -> int:
    """Five-card hand evaluations of the showdown of ``steps`` (the last one a
    showdown) with ``max_players`` players: players x hands per player x passes
    (see the module)."""
    showdown = steps[-1].params
    own, board = _cards_at_showdown(steps)
    if showdown.get("hole") or showdown.get("board"):
        hands = comb(own, showdown["hole"]) * comb(board, showdown["board"])
    else:
        hands = comb(own + board, 5) if own + board >= 5 else 1
    two = showdown.get("wild") or showdown.get("pot") in ("high-low", "declare")
    return max_players * max(hands, 1) * (2 if two else 1)


def check_cost(steps: Sequence[StepSpec], max_players: int) -> None:
    """Refuse a game whose showdown needs more than :data:`MAX_SHOWDOWN_EVALUATIONS`.

    Raises:
        GameFileError: one line naming the count, how it is made, and the limit.
    """
    from rollem.games.gamefile import GameFileError

    count = showdown_evaluations(steps, max_players)
    if count <= MAX_SHOWDOWN_EVALUATIONS:
        return
    showdown = steps[-1]
    own, board = _cards_at_showdown(steps)
    p = showdown.params
    if p.get("hole") or p.get("board"):
        per = (f"{p['hole']} of {own} own cards with {p['board']} of {board} board cards: "
               f"{comb(own, p['hole']) * comb(board, p['board']):,} hands")
    else:
        per = f"the best five of {own + board} cards: {comb(own + board, 5):,} hands"
    passes = ("; a wild showdown reads each hand twice" if p.get("wild")
              else "; a high-low pot reads each hand twice"
              if p.get("pot") in ("high-low", "declare") else "")
    raise GameFileError(
        f"steps[{showdown.index}]: the showdown would evaluate {count:,} five-card hands "
        f"({max_players} players, {per}{passes}); at most {MAX_SHOWDOWN_EVALUATIONS:,} are "
        "allowed: deal fewer cards, use hole/board, or allow fewer players")


def game_evaluations(game: Game) -> int:
    """:func:`showdown_evaluations` of a game from a file (shipped or a host's),
    at its most players; 0 for a game built in code (no file)."""
    spec = game.spec
    if spec is None:
        return 0
    return showdown_evaluations(spec.steps, spec.max_players)
