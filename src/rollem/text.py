"""Checks on short texts people type or upload: player names, game names.

A name is shown to other people, so it must be what it looks like: no
invisible, control or text-direction characters (a right-to-left override
can make one name read as another).
"""

from __future__ import annotations

import unicodedata

__all__ = ["HIDDEN_CATEGORIES", "hidden_character", "name_key", "shown_length"]

HIDDEN_CATEGORIES = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")
"""Unicode categories a shown name may not hold: control, format (zero-width,
bidi overrides and isolates), surrogate, private use, unassigned, line and
paragraph separators. One exception: the zero width joiner inside an emoji
sequence (:func:`hidden_character`). A variation selector (not in these
categories) is refused too where it varies nothing."""

ZWJ = "\u200d"
"""ZERO WIDTH JOINER: joins emoji into one (the family 👨‍👩‍👧‍👦 is four)."""

VS16 = "\ufe0f"
"""VARIATION SELECTOR-16: shows the character before it as an emoji."""


def _pictograph(char: str) -> bool:
    # Every emoji an emoji ZWJ sequence joins (people, hearts, ♀ ♂, 🔥, ➡, ⬛,
    # ❄, 🌈, 💻 ...) is an "other symbol" (So); no letter, digit or mark is.
    return unicodedata.category(char) == "So"


def _skin_tone(char: str) -> bool:
    return "\U0001f3fb" <= char <= "\U0001f3ff"


def _after_pictograph(text: str, i: int) -> bool:
    """Whether ``text[:i]`` ends in a pictograph, maybe followed by a skin tone
    and a VS16 (``👩🏽``, ``🏳️``)."""
    j = i - 1
    if j >= 0 and text[j] == VS16:
        j -= 1
    if j >= 0 and _skin_tone(text[j]):
        j -= 1
    return j >= 0 and _pictograph(text[j])


def _joins_emoji(text: str, i: int) -> bool:
    """Whether ``text[i]`` is a ZWJ between two emoji (not first, last, doubled or
    next to a letter: there it only hides, making ``An‍n`` look like ``Ann``)."""
    return (text[i] == ZWJ and i + 1 < len(text) and _pictograph(text[i + 1])
            and _after_pictograph(text, i))


KEYCAP = "\u20e3"
"""COMBINING ENCLOSING KEYCAP: ``1`` + VS16 + keycap is the emoji 1️⃣."""

_EMOJI_PUNCTUATION = "\u203c\u2049\u3030\u303d"
"""The punctuation that has an emoji form: ‼ ⁉ 〰 〽 (every other emoji is a symbol)."""


def _variation_selector(char: str) -> bool:
    return "\ufe00" <= char <= "\ufe0f" or "\U000e0100" <= char <= "\U000e01ef"


def _stray_selector(text: str, i: int) -> bool:
    """Whether the variation selector ``text[i]`` varies nothing, so only hides
    (``Bot`` + U+FE0F reads ``Bot``). VS15/VS16 (U+FE0E, U+FE0F) vary an emoji: a
    symbol (🔥, ❤, ↔, ©, a skin tone), ‼ ⁉ 〰 〽, or a keycap's ``0-9 # *`` when
    U+20E3 follows; the others (U+FE00-U+FE0D, U+E0100-U+E01EF) a symbol or an
    ideograph (a CJK character, category Lo)."""
    if i == 0:
        return True
    before = text[i - 1]
    category = unicodedata.category(before)
    if category.startswith("S"):
        return False
    if text[i] in "\ufe0e\ufe0f":
        return not (before in _EMOJI_PUNCTUATION
                    or (before in "0123456789#*" and text[i + 1: i + 2] == KEYCAP))
    return category != "Lo"


def hidden_character(text: str) -> str | None:
    """The first character of ``text`` in :data:`HIDDEN_CATEGORIES`, or a
    variation selector that varies nothing (:func:`_stray_selector`), as
    ``U+XXXX``; ``None`` when every character is visible text or a space. A
    zero width joiner (U+200D) between two emoji (an emoji ZWJ sequence such as
    👨‍👩‍👧‍👦 or 🏳️‍🌈) is not hidden; anywhere else it is."""
    for i, char in enumerate(text):
        if ((unicodedata.category(char) in HIDDEN_CATEGORIES and not _joins_emoji(text, i))
                or (_variation_selector(char) and _stray_selector(text, i))):
            return f"U+{ord(char):04X}"
    return None


def shown_length(text: str) -> int:
    """``len(text)`` as a reader counts it: an emoji ZWJ sequence, with its skin
    tones and VS16 selectors, counts one (👨‍👩‍👧‍👦 is 7 code points, 1 shown);
    every other code point counts one, combining marks too (so a length limit
    still bounds them)."""
    n = 0
    for i, char in enumerate(text):
        if _joins_emoji(text, i):
            n -= 1  # the ZWJ and the pictograph it joins count nothing
        elif not ((char == VS16 or _skin_tone(char)) and _after_pictograph(text, i)):
            n += 1
    return n


def _unseen(char: str) -> bool:
    # A ZWJ or a variation selector (U+FE00-U+FE0F, U+E0100-U+E01EF) changes how
    # a name looks little or not at all ("Ann" + U+FE0F reads "Ann"; 🔥‍🔥 may
    # show as 🔥🔥).
    return char == ZWJ or _variation_selector(char)


def name_key(name: str) -> str:
    """What two names are compared by when they must differ (one per table):
    ``casefold`` without joiners and variation selectors, so ``Ann`` and
    ``ANN`` + U+FE0F are the same name."""
    return "".join(c for c in name if not _unseen(c)).casefold()
