"""Help on the decision in front of a player, for any game: the terminal's ``?``
(and, at the dealer's choice, on the games offered: :func:`choose_game_help`).

Our three games have hand-written help (:func:`rollem.rules.decision_help`).
Any other game -- a standard game or a user's game file -- is explained from
its own data: what the decision is (the same words for every game), what the
seat may do now (its :class:`~rollem.engine.decisions.Legal`), the game's
steps of that kind (as ``rollem check-game`` words them) and the game's rules
text. A user's file that reuses one of our ids is explained from its data too.

>>> from rollem.games import get
>>> text = explain_decision(get("draw5"), "draw")
>>> "discards 0 to 3 and is dealt replacements" in text
True
>>> explain_decision(get("sdr"), "bet") == decision_help("sdr", "bet")
True
"""

from __future__ import annotations

from collections.abc import Sequence

from rollem.cards import format_cards
from rollem.engine.decisions import Legal
from rollem.engine.game import Game
from rollem.rules import GAMES, RulesError, decision_help
from rollem.rules.decisions import BET, CHOOSE_GAME_END, CHOOSE_GAME_START, GAME_BLURBS

__all__ = ["HELP_KIND", "asks_for", "choose_game_help", "decision_kind", "explain_decision"]

STEPS_OF_KIND: dict[str, tuple[str, ...]] = {
    "bet": ("bet", "bring-in"),
    "discard_to_pool": ("discard",),
    "expose": ("expose",),
    "draw": ("draw",),
    "pick_wild": ("pick-wild",),
    "stack": ("stack", "roll-up"),
    "declare": ("declare", "showdown"),
}
"""Decision kind -> the game-file steps (``[[steps]] step = ...``) it comes from."""

HELP_KIND = {
    "bet": "bet",
    "discard": "discard_to_pool",
    "expose": "expose",
    "draw": "draw",
    "wild": "pick_wild",
    "stack": "stack",
    "declare": "declare",
}
"""Legal action name -> the decision kind of :func:`explain_decision`."""

_BETTING = ("fold", "check", "call", "bet", "raise")


def decision_kind(legal: Legal) -> str:
    """The kind of the decision ``legal`` offers, for :func:`explain_decision`
    (``bet``, ``discard_to_pool``, ...; the terminal's ``?`` and the web table's
    "How to play" both name it so)."""
    for name in legal.actions:
        if name in _BETTING:
            return "bet"
        if name in HELP_KIND:
            return HELP_KIND[name]
    return legal.kind


STRUCTURES: dict[str, str] = {
    "fixed-limit": "This table plays fixed limit: each bet and raise is one size (the small "
                   "bet or the big bet of the round) and the raises per round are capped.",
    "pot-limit": "This table plays pot limit: a bet or raise may be as large as the pot.",
    "no-limit": "This table plays no limit: a bet or raise may be all your chips.",
}


def _count(legal: Legal) -> str:
    lo, hi = legal.min_count, legal.max_count
    n = str(hi) if lo == hi else f"{lo} to {hi}"
    return f"{n} card" + ("" if hi == 1 else "s")


_BACK_TO_PLAYERS = ("Nobody sees them and the pool is shuffled; the cards you give up may "
                    "come back to you or go to an opponent.")
_OUT_OF_PLAY = "No player gets them back: they are out of every hand."
"""A pool nobody draws from (no ``draw-from-pool`` step, as in Crazy Pineapple)."""


def _what(kind: str, legal: Legal | None) -> str:
    """What the decision is, the same for every game; with ``legal``, its numbers."""
    if kind == "bet":
        return BET
    if kind == "discard_to_pool":
        n = _count(legal) if legal is not None else "some of your cards"
        return f"Choose {n} to put face down into the shared pool. {_BACK_TO_PLAYERS}"
    if kind == "expose":
        return ("Choose one of your down cards to turn face up; everyone chooses at the "
                "same time.")
    if kind == "draw":
        if legal is None:
            return "Choose the cards to throw away; you are dealt as many new ones."
        pat = " (or none: stand pat)" if legal.min_count == 0 else ""
        return (f"Choose {_count(legal)} to throw away{pat}; you are dealt as many new "
                f"ones. Your cards: {format_cards(legal.cards)}.")
    if kind == "pick_wild":
        left = f"the {legal.positions} cards" if legal is not None else "the cards"
        return (f"You pick the wild card: one of {left} left in the pool, by its position "
                "(1 = the top; you cannot see them). It is turned face up and every card "
                "of its rank is wild for everyone.")
    if kind == "stack":
        return ("Put your cards in the order they will be rolled up, top first; everyone "
                "stacks at the same time and the order is then fixed. The last card stays "
                "hidden until the showdown.")
    if kind == "declare":
        return ("Declare high, low or both; everyone declares secretly and all are revealed "
                "together. High plays for the high half, low for the low half; both plays "
                "for the whole pot but must win both ways outright, else it gets nothing "
                "from that pot (the house option failed_both_rule says where such chips "
                "go).")
    return "Your decision now."


def _bring_in_words(legal: Legal) -> str:
    """The first betting round of a stud game, at the bring-in (``legal.forced``)."""
    size = (str(legal.min_to) if legal.min_to == legal.max_to
            else f"{legal.min_to} to {legal.max_to}")
    if legal.forced == "bring-in":
        text = ("You bring it in: your up card is the one that must start the betting, so "
                f"you must either bring it in for {legal.call_amount} (a forced bet smaller "
                "than the small bet) or complete it to the full small bet. You cannot check "
                "or fold.")
        if "bet" in legal.actions:
            text += f" Completing here is a bet of {size}."
        return text
    return ("The bet is only the bring-in, not yet a full bet. Call: match the bring-in. "
            f"Complete: raise it to a full bet ({size}); the next raise goes up from "
            "there. Fold: give up the hand.")


def _paragraph(text: str) -> str:
    return " ".join(text.split())


def _rules(game: Game) -> str:
    """The game's rules text as one paragraph, less a leading ``"Name: "``."""
    text = _paragraph(game.rules)
    head = game.name.lower() + ":"
    if text.lower().startswith(head) and text[len(head):].strip():
        rest = text[len(head):].strip()
        text = rest[0].upper() + rest[1:]
    return text


def asks_for(game: Game, kind: str) -> bool:
    """Whether ``game`` ever asks a player for the decision ``kind`` (a kind of
    :data:`rollem.rules.DECISION_KINDS`): every game bets; the others come from
    the game's steps (a game without steps data: assumed to)."""
    if kind == "bet" or game.spec is None:
        return True
    wanted = ("declare",) if kind == "declare" else STEPS_OF_KIND.get(kind, ())
    return any(s.kind in wanted for s in game.spec.steps)


def explain_decision(game: Game, kind: str, legal: Legal | None = None,
                     structure: str | None = None) -> str:
    """A few plain sentences on the decision ``kind`` in ``game`` (the terminal's ``?``).

    Args:
        game: the hand's game (shipped or from a user's game file).
        kind: the decision kind (:data:`rollem.rules.DECISION_KINDS`: ``bet``,
            ``discard_to_pool``, ``draw``...); another kind gets the general words.
        legal: what the seat may do now: its numbers (cards to choose, pool
            positions, bet sizes) go into the text.
        structure: the table's betting structure (``fixed-limit``, ``pot-limit``,
            ``no-limit``), said at a betting decision of a game without
            hand-written help.

    Returns:
        Paragraphs separated by a blank line. Our three games as shipped: the
        hand-written help (:func:`rollem.rules.decision_help`); any other game:
        the decision in general words, what the seat may do now, the game's
        steps of that kind and its rules text.
    """
    from rollem.games import is_shipped
    from rollem.games.describe import describe_step

    if game.id in GAMES and is_shipped(game):
        try:
            return decision_help(game.id, kind)
        except RulesError:
            pass  # a decision the hand-written help does not cover: from the data
    parts = [_what(kind, legal)]
    if kind == "bet" and legal is not None and legal.forced:
        parts[0] = _bring_in_words(legal)
    if kind == "discard_to_pool" and game.spec is not None and not game.spec.pools_discards:
        # nothing draws from the discards (Crazy Pineapple): out of play, no pool (issue 33)
        n = _count(legal) if legal is not None else "some of your cards"
        parts[0] = f"Choose {n} to discard face down. {_OUT_OF_PLAY}"
    if kind == "bet":
        if structure in STRUCTURES:
            parts[0] += " " + STRUCTURES[structure]
        if legal is not None and legal.actions:
            parts[0] += f" You may now: {legal.describe()}."
    steps = STEPS_OF_KIND.get(kind, ())
    spec = game.spec
    if spec is not None and steps and kind != "bet":
        lines = list(dict.fromkeys(describe_step(s, pooled=spec.pools_discards)
                                   for s in spec.steps if s.kind in steps))
        if lines:
            parts.append(f"In {game.name}: " + " ".join(lines))
    if spec is not None and kind == "bet":
        rounds = sum(1 for s in spec.steps if s.kind == "bet")
        parts.append(f"{game.name} has {rounds} betting round{'s' if rounds != 1 else ''}.")
    if game.rules.strip():
        parts.append(f"The rules of {game.name}: {_rules(game)}")
    elif spec is not None:
        parts.append(f"The steps of {game.name}: "
                     + " ".join(describe_step(s, pooled=spec.pools_discards) for s in spec.steps))
    return "\n\n".join(parts)


def _first_sentence(text: str, most: int = 200) -> str:
    words = text
    end = words.find(". ")
    first = words if end < 0 else words[: end + 1]
    return first if len(first) <= most else first[: most - 3].rstrip() + "..."


def game_blurb(game: Game) -> str:
    """One sentence on ``game`` for the dealer's choice: the hand-written one of our
    three games as shipped, else its name, id, players and its rules text's first
    sentence."""
    from rollem.games import is_shipped

    if game.id in GAME_BLURBS and is_shipped(game):
        return GAME_BLURBS[game.id]
    head = f"{game.name} ({game.id}, {game.min_players} to {game.max_players} players)"
    return f"{head}: {_first_sentence(_rules(game))}" if game.rules.strip() else head + "."


def choose_game_help(fits: Sequence[Game], offered: Sequence[Game] = (),
                     players: int | None = None) -> str:
    """The help on naming the game (dealer's choice): each game that ``fits`` the
    players dealt in, in one sentence; the ``offered`` games that do not fit
    ``players``, by name with their player range (R-C-12)."""
    parts = [CHOOSE_GAME_START, *(game_blurb(g) for g in fits)]
    left_out = [g for g in offered if g not in fits]
    if left_out and players is not None:
        parts.append(f"Also offered, but not for {players} players: "
                     + ", ".join(f"{g.name} ({g.id}, {g.min_players} to {g.max_players})"
                                 for g in left_out) + ".")
    parts.append(CHOOSE_GAME_END)
    return " ".join(parts)
