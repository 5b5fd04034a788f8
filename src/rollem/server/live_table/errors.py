"""What a table refuses: :class:`TableError` (a code and plain words;
nothing changes), and the words players are told while a table cannot save."""

from __future__ import annotations

import re
import traceback

PAUSED_NOTICE = (
    "Saving to the server's disk has failed, so play is paused. The table carries on "
    "by itself from the last saved moment as soon as saving works again; a move that "
    "was not shown to everybody yet has to be made again."
)
"""What the players of a table whose writes fail are told (``table.paused``)."""


RECOVERING_REFUSAL = "the table is catching up with what is saved; try again in a moment"


class TableError(ValueError):
    """A request the table refuses (``code``, ``message``); nothing changes."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


_CARDS = re.compile(  # a card, or a run of them (Qh7c), as text or with suit symbols
    r"(?<![0-9A-Za-z])(?:(?:10|[2-9TJQKA])[cdhs\u2663\u2666\u2665\u2660])+(?![0-9A-Za-z])")


def without_cards(text: object) -> str:
    """``text`` (an action, a refusal) for the server's log, every card named in it
    as ``??``: a refused computer player's or clock's action names the seat's hidden
    cards (``discard ... of 6h 5s Ac``), and a log is no place for them (logs are
    kept and shipped elsewhere; the players' own views stay the only place)."""
    return _CARDS.sub("??", str(text))


def fault_without_cards(err: BaseException) -> str:
    """An engine fault's traceback for the server's log, every card in it as ``??``
    (the exception's message may quote a hand's hidden cards)."""
    return without_cards("".join(traceback.format_exception(err)))
