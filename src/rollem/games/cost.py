"""What a game file's showdown costs: the hands it evaluates (issue 34).

A showdown scores each live player's best five cards (R-C-2): with ``n``
cards to choose from that is C(n, 5) five-card hands per player (C(26, 5) =
65,780), or C(own, hole) x C(board, board) under a hole/board rule (Omaha:
6 x 10 = 60).  A high-low (or declare) pot scores each hand for both halves.
Wild cards multiply the work: each five-card hand is valued with the wild
cards' substitution and then again for the words ("four aces, wild 2h plays
as As"), about twenty times the work of a plain hand (measured: 15.5 against
0.8 microseconds a hand, docs/dev/hostile.md).  So the quantity that drives a
showdown's time, in plain five-card hand evaluations, is

    evaluations = players x hands per player x weight

with ``weight`` :data:`WILD_WEIGHT` for a showdown with wild cards, 2 for a
high-low or declare pot, else 1; the same count bounds the hand's other
evaluations (the hand showing that opens a round reads at most the same
cards).  :data:`MAX_SHOWDOWN_EVALUATIONS` caps it when a file is read
(``rollem check-game``, ``--game-file``, a new web table).

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

__all__ = ["MAX_SHOWDOWN_EVALUATIONS", "WILD_WEIGHT", "check_cost", "game_evaluations",
           "naming_evaluations", "showdown_evaluations"]

WILD_WEIGHT = 20
"""What one five-card hand of a showdown with wild cards costs, in plain hands:
its value and its words, each with the wild cards' substitution (measured 19 to
20 times a plain hand's time)."""

MAX_SHOWDOWN_EVALUATIONS = 15_000
"""The most plain five-card hand evaluations a game's showdown may need (players
x hands per player x weight, see the module): a few milliseconds of one core
(docs/dev/hostile.md).  Twelve times the costliest shipped game (Omaha hi-lo
at 10 players: 1,200; Roll Your Own, wild, 8 players: 160) and room for the
home games: nine-card baseball with wild cards at 5 players (5 x 126 x 20 =
12,600), five-card Omaha hi-lo at 10 (2,000), best five of twelve at 4
players (3,168).  The file of issue 34 (26 cards a player, wild cards, 2
players) needed 2,631,200: 0.7 s a showdown and more."""


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


def _hands_and_weight(steps: Sequence[StepSpec]) -> tuple[int, int, str]:
    """Five-card hands per player, the weight of each, and how they are made (words)."""
    p = steps[-1].params
    own, board = _cards_at_showdown(steps)
    if p.get("hole") or p.get("board"):
        hands = comb(own, p["hole"]) * comb(board, p["board"])
        how = f"{p['hole']} of {own} own cards with {p['board']} of {board} board cards"
    else:
        hands = comb(own + board, 5) if own + board >= 5 else 1
        how = f"the best five of {own + board} cards"
    if p.get("wild"):
        return max(hands, 1), WILD_WEIGHT, f"{how}, x {WILD_WEIGHT} for wild cards"
    if p.get("pot") in ("high-low", "declare"):
        return max(hands, 1), 2, f"{how}, x 2 for a {p['pot']} pot"
    return max(hands, 1), 1, how


def showdown_evaluations(steps: Sequence[StepSpec], max_players: int) -> int:
    """Plain five-card hand evaluations of the showdown of ``steps`` (the last one a
    showdown) with ``max_players`` players: players x hands per player x weight
    (see the module)."""
    hands, weight, _how = _hands_and_weight(steps)
    return max_players * hands * weight


def check_cost(steps: Sequence[StepSpec], max_players: int) -> None:
    """Refuse a game whose showdown needs more than :data:`MAX_SHOWDOWN_EVALUATIONS`.

    Raises:
        GameFileError: one line naming the count, how it is made, and the limit.
    """
    from rollem.games.gamefile import GameFileError

    count = showdown_evaluations(steps, max_players)
    if count <= MAX_SHOWDOWN_EVALUATIONS:
        return
    hands, _weight, how = _hands_and_weight(steps)
    raise GameFileError(
        f"steps[{steps[-1].index}]: the showdown would cost {count:,} hand evaluations "
        f"({max_players} players x {hands:,} five-card hands, {how}); at most "
        f"{MAX_SHOWDOWN_EVALUATIONS:,} are allowed: deal fewer cards, use hole/board, or "
        "allow fewer players")


def game_evaluations(game: Game) -> int:
    """:func:`showdown_evaluations` of a game from a file (shipped or a host's),
    at its most players; 0 for a game built in code (no file)."""
    spec = game.spec
    if spec is None:
        return 0
    return showdown_evaluations(spec.steps, spec.max_players)


def naming_evaluations(fives: int, *, wild: bool, halves: bool = False) -> int:
    """Plain five-card hand evaluations to name one seat's hand (its words, the
    wild cards' stand-ins: :func:`rollem.narration.felt.hand_so_far`,
    :func:`rollem.narration.hands.with_wild_note`): ``fives`` five-card hands
    x :data:`WILD_WEIGHT` with wild cards, else x 2 for a high and a low half
    (``halves``), else x 1.  A game accepted under :data:`MAX_SHOWDOWN_EVALUATIONS`
    names any one seat's hand within it (the showdown counts every seat's); a
    stored file accepted before the bound (issue 34) may not: the web table,
    which names hands on its event loop, names none past it (stop 63: 20 cards
    with wild cards, C(20, 5) x 20 = 310,080, 0.3 s a name)."""
    return max(fives, 1) * (WILD_WEIGHT if wild else 2 if halves else 1)
