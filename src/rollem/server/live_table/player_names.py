"""Players' names: :func:`clean_name` checks and tidies the name a player
sits down with (length, invisible characters, names kept for computer
players).  No rule of its own."""

from __future__ import annotations

import re
import unicodedata

from rollem.server.live_table.errors import TableError
from rollem.text import hidden_character, name_key, shown_length

MAX_NAME = 24
"""Longest player name (characters as shown, after trimming: an emoji sequence
such as 👨‍👩‍👧‍👦 counts one, :func:`rollem.text.shown_length`)."""


MAX_NAME_CODE_POINTS = 4 * MAX_NAME
"""Longest player name in code points (bounds what emoji sequences may add)."""


_BOT_NAME = re.compile(r"^bot(\s*\d+)?(\s*\(.*\))?$", re.IGNORECASE)
"""Names reserved for computer players ("Bot 1 (random)", "bot", "BOT 2")."""


def clean_name(name: object) -> str:
    """A player's name: NFC, trimmed, inner runs of spaces made one, 1 to
    :data:`MAX_NAME` visible characters (an emoji sequence counts one; at most
    :data:`MAX_NAME_CODE_POINTS` code points), no control, format, bidi,
    default-ignorable or blank filler characters (a zero width joiner only
    between two emoji, a variation selector only after what it varies:
    :func:`rollem.text.hidden_character`), not a computer player's name. A
    name is judged as it reads (:func:`rollem.text.name_key`): one of only
    invisible characters (U+FE0F, U+034F, U+3164 ...) is empty, and
    ``Bot`` + U+034F, ``Ｂｏｔ`` and ``𝐁𝐨𝐭`` are ``Bot``.  Raises
    :class:`TableError` (``bad_name``)."""
    if not isinstance(name, str):
        raise TableError("bad_name", f"name must be text of 1 to {MAX_NAME} characters")
    name = unicodedata.normalize("NFC", name)
    reads = " ".join(name_key(name).split())
    if not reads:
        raise TableError("bad_name", f"a name is needed to sit down (1 to {MAX_NAME} characters)")
    if _BOT_NAME.match(reads):
        raise TableError("bad_name", f"{' '.join(name.split())!r} is kept for computer "
                         "players; choose another name")
    hidden = hidden_character(name)
    if hidden is not None:
        raise TableError(
            "bad_name", f"a name may not hold invisible, control or text-direction "
            f"characters ({hidden}); use letters, digits, spaces, punctuation")
    name = " ".join(name.split())
    shown = shown_length(name)
    if shown > MAX_NAME:
        raise TableError("bad_name", f"a name has at most {MAX_NAME} characters, not {shown}")
    if len(name) > MAX_NAME_CODE_POINTS:
        raise TableError("bad_name", f"a name has at most {MAX_NAME_CODE_POINTS} Unicode code "
                         f"points (an emoji sequence has several), not {len(name)}")
    return name

