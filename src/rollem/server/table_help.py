"""The web table's help on the decision in front of a player ("How to play",
issue 9): the same words as the terminal's ``?`` (:mod:`rollem.rules.game_help`),
for the game being dealt, the table's structure and what the seat may do now.

The seat's decision is read from the live table, never from the request: the
page names nothing but which table it sits at (its seat cookie says the seat).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rollem.rules import DECISION_KINDS
from rollem.rules.game_help import asks_for, choose_game_help, decision_kind, explain_decision

if TYPE_CHECKING:
    from rollem.server.live_table import LiveTable

__all__ = ["MAX_ASKED_DECISION", "asked_decision_help", "asked_decision_refusal", "games_dealt",
           "seat_decision_help"]

MAX_ASKED_DECISION = 32
"""Most characters of the ``?decision=`` a page asks help on (the longest kind of
:data:`rollem.rules.DECISION_KINDS`, ``discard_to_pool``, has 15)."""


def asked_decision_refusal(decision: str | None) -> str | None:
    """Why ``?decision=`` is refused (HTTP 400 ``bad_decision``): longer than
    :data:`MAX_ASKED_DECISION` characters; ``None`` when it is not (absent, a kind,
    or a short unknown word: answered with no help and not quoted back)."""
    if decision is None or len(decision) <= MAX_ASKED_DECISION:
        return None
    return (f"decision names a kind of decision ({', '.join(DECISION_KINDS)}) in at most "
            f"{MAX_ASKED_DECISION} characters, not {len(decision)}")


def seat_decision_help(table: LiveTable, seat: int | None) -> tuple[str, str] | None:
    """``(decision kind, help text)`` on the decision ``seat``'s occupant has now,
    or ``None`` when it has none (a watcher, a seat not dealt in, not its turn, or
    a decision already made).

    Naming the game of a dealer's choice (R-C-12): each game that fits the
    players dealt in and the offered games that do not
    (:func:`~rollem.rules.game_help.choose_game_help`). A decision in a hand:
    :func:`~rollem.rules.game_help.explain_decision` of the hand's game (a
    dealer's choice: the game chosen; a game file's game from its own data),
    with the seat's :class:`~rollem.engine.decisions.Legal` and the structure.
    The text is plain paragraphs separated by blank lines.
    """
    if seat is None:
        return None
    choice = table.open_choice()
    if choice is not None and seat == table.chooser():
        config = table.config
        fits = [config.game_of(g) for g in choice["games"]]
        offered = [config.game_of(g) for g in config.choices]
        return "choose_game", choose_game_help(fits, offered, len(choice["players"]))
    session = table.hand
    if session is None or session.over or table.hand_viewer(seat, session) is None:
        return None
    view = session.hand.view(seat)
    legal = view.legal
    if legal is None or not legal.actions or "show" in legal.actions:
        return None
    kind = decision_kind(legal)
    return kind, explain_decision(session.hand.game, kind, legal,
                                  view.options.get("structure"))


def asked_decision_help(table: LiveTable, game: str | None, decision: str,
                        delayed: bool = False) -> str | None:
    """The help on ``decision`` (a kind of :data:`rollem.rules.DECISION_KINDS`) in
    the table's game ``game`` (an id the table may deal; ``None``: no game named
    yet), without a seat's numbers: for a page that is not at a decision of its
    own. ``None`` when ``decision`` is no such kind, ``game`` is not one the
    table deals (:func:`games_dealt`, ``delayed``: as a delayed watcher may know),
    or ``game`` never asks for ``decision``."""
    config = table.config
    if decision == "choose_game":
        if config.game != "dealers-choice":
            return None
        offered = [config.game_of(g) for g in config.choices]
        return choose_game_help(offered)
    if game is None or game not in games_dealt(table, delayed) or decision not in DECISION_KINDS:
        return None
    dealt = config.game_of(game)
    if not asks_for(dealt, decision):
        return None
    return explain_decision(dealt, decision, None, config.structure)


def games_dealt(table: LiveTable, delayed: bool = False) -> set[str]:
    """The ids of the games ``table`` deals: its one game, or a dealer's choice's
    offered games (R-C-12), the game of the last hand that ended (on the felt until
    the next deal; the host may have changed the offered games since), and the game
    of the hand in play or of the deal waiting for client seeds.  ``delayed``: as a
    delayed watcher may know them (issue 27: nothing of a hand before it ended), so
    without the last two: a game the table does not offer would name them."""
    config = table.config
    ids = set(config.choices) if config.game == "dealers-choice" else {config.game}
    if table.final_hand is not None:
        ids.add(table.final_hand.hand.game.id)
    if delayed:
        return ids
    if table.hand is not None:
        ids.add(table.hand.hand.game.id)
    seeding = table.session.get("seeding")
    if seeding and seeding.get("game") is not None:
        ids.add(str(seeding["game"]))
    return ids
