"""What a table refuses: :class:`TableError` (a code and plain words;
nothing changes), and the words players are told while a table cannot save."""

from __future__ import annotations

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

