"""The rules for players: plain-words text for each game, and short help for
each decision a player faces.

The texts are Markdown files shipped with the package (``rollem/rules/*.md``);
they are written for people at the table and follow the project's rules of
play (RULES.md: R-C-*, R-SDR-*, R-RYO-*, R-521-*). ``rollem rules`` prints
them, the user guide in ``docs/rules/`` is generated from them, and the
web table's "How to play" panel reads :func:`decision_help`; the terminal's
``?`` key reads it through :mod:`rollem.rules.game_help`, which explains
any other game (standard games, game files) from the game's own data.

>>> list_games()
('sdr', 'rollyourown', 'rollem521')
>>> game_name("rollem521")
"5-2-1 Roll 'Em"
>>> rules_text("sdr").splitlines()[0]
'# Stop, Drop and Roll (`sdr`)'
>>> "lowest hand showing" in decision_help("rollyourown", "pick_wild")
True
>>> decision_help("sdr", "declare")
Traceback (most recent call last):
    ...
rollem.rules.RulesError: no 'declare' decision in sdr: expected one of bet, choose_game
"""

from __future__ import annotations

from importlib import resources

from rollem.rules.decisions import DECISION_HELP, DECISION_KINDS, GAME_DECISIONS

__all__ = [
    "DECISION_KINDS",
    "GAMES",
    "RulesError",
    "decision_help",
    "game_name",
    "list_games",
    "rules_text",
    "topic_text",
]

GAMES: dict[str, str] = {
    "sdr": "Stop, Drop and Roll",
    "rollyourown": "Five Card Roll Your Own",
    "rollem521": "5-2-1 Roll 'Em",
}
"""Game short id -> the game's name, in the order the games are presented."""

TOPICS: tuple[str, ...] = ("overview", "general", *GAMES)
"""Every packaged rules text, by file stem (``rollem/rules/<topic>.md``)."""


class RulesError(ValueError):
    """An unknown game id or decision kind; the message names what is allowed."""


def list_games() -> tuple[str, ...]:
    """The games' short ids (``sdr``, ``rollyourown``, ``rollem521``), in order."""
    return tuple(GAMES)


def game_name(game: str) -> str:
    """The name of the game with short id ``game``.

    Raises:
        RulesError: if ``game`` is not a game id.
    """
    return GAMES[_check_game(game)]


def topic_text(topic: str) -> str:
    """One packaged Markdown file, by stem: ``overview``, ``general`` (hand
    rankings, ace-to-five low, wild cards, betting basics, table options) or
    a game id.

    Raises:
        RulesError: if ``topic`` is not one of :data:`TOPICS`.
    """
    if topic not in TOPICS:
        raise RulesError(f"unknown rules topic {topic!r}: expected one of {', '.join(TOPICS)}")
    return resources.files(__name__).joinpath(f"{topic}.md").read_text(encoding="utf-8")


def rules_text(game: str | None = None) -> str:
    """The rules for players, as Markdown.

    With ``game`` None: the overview of the three games and how the dealer
    picks one, then the general section (hand rankings, ace-to-five low, wild
    cards, betting basics, table options). With a game id: that game's rules,
    step by step, with the seed's worked example, the house options and their
    defaults, and the points where rollem settles a gap in the original rules.

    Raises:
        RulesError: if ``game`` is not a game id.
    """
    if game is None:
        return topic_text("overview") + "\n" + topic_text("general")
    return topic_text(_check_game(game))


def decision_help(game: str | None, decision_kind: str) -> str:
    """A few plain sentences on one decision, for a player who asks mid-hand.

    ``decision_kind`` is one of :data:`DECISION_KINDS`: ``bet`` (bet, raise,
    call, check or fold), ``discard_to_pool``, ``expose``, ``draw``,
    ``pick_wild``, ``stack``, ``declare``, ``choose_game`` (the dealer's
    choice). ``game`` is a game id, or None (or ``"dealers-choice"``) before
    a game is named, where only ``bet`` and ``choose_game`` apply.

    Raises:
        RulesError: if ``game`` is unknown, ``decision_kind`` is unknown, or
            the game has no such decision; the message lists what is allowed.
    """
    if decision_kind not in DECISION_KINDS:
        raise RulesError(
            f"unknown decision {decision_kind!r}: expected one of {', '.join(DECISION_KINDS)}"
        )
    key = None if game in (None, "dealers-choice") else _check_game(str(game))
    allowed = GAME_DECISIONS[key]
    if decision_kind not in allowed:
        raise RulesError(
            f"no {decision_kind!r} decision in {key or 'dealers-choice'}: "
            f"expected one of {', '.join(allowed)}"
        )
    return DECISION_HELP[(key, decision_kind)]


def _check_game(game: str) -> str:
    if game not in GAMES:
        raise RulesError(f"unknown game {game!r}: expected one of {', '.join(GAMES)}")
    return game
