"""Checks on short texts people type or upload: player names, game names.

A name is shown to other people, so it must be what it looks like: no
invisible, control or text-direction characters (a right-to-left override
can make one name read as another).
"""

from __future__ import annotations

import unicodedata

__all__ = ["HIDDEN_CATEGORIES", "hidden_character"]

HIDDEN_CATEGORIES = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")
"""Unicode categories a shown name may not hold: control, format (zero-width,
bidi overrides and isolates), surrogate, private use, unassigned, line and
paragraph separators."""


def hidden_character(text: str) -> str | None:
    """The first character of ``text`` in :data:`HIDDEN_CATEGORIES`, as ``U+XXXX``;
    ``None`` when every character is visible text or a space."""
    for char in text:
        if unicodedata.category(char) in HIDDEN_CATEGORIES:
            return f"U+{ord(char):04X}"
    return None
