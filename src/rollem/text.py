"""Checks on short texts people type or upload: player names, game names;
and :func:`clip`, a message cut to one line at a word; :func:`fit_lines`,
a command's printed lines wrapped to fit 80 columns.

A name is shown to other people, so it must be what it looks like: no
invisible, control or text-direction characters (a right-to-left override
can make one name read as another).
"""

from __future__ import annotations

import bisect
import unicodedata

__all__ = [
    "BLANK_FILLERS",
    "DEFAULT_IGNORABLE",
    "HIDDEN_CATEGORIES",
    "LINE_WIDTH",
    "ascii_digits",
    "clip",
    "counted",
    "default_ignorable",
    "fit_lines",
    "hidden_character",
    "name_key",
    "name_safe",
    "replace_hidden",
    "same_name",
    "same_name_refusal",
    "shown_length",
    "terminal_safe",
    "times",
]

HIDDEN_CATEGORIES = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")
"""Unicode categories a shown name may not hold: control, format (zero-width,
bidi overrides and isolates), surrogate, private use, unassigned, line and
paragraph separators. One exception: the zero width joiner inside an emoji
sequence (:func:`hidden_character`). A variation selector (not in these
categories) is refused too where it varies nothing, and so is every other
:data:`DEFAULT_IGNORABLE` or :data:`BLANK_FILLERS` character."""

DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
"""Unicode's Default_Ignorable_Code_Point property, as inclusive code point
ranges (first, last), adjacent ranges merged: DerivedCoreProperties.txt of
Unicode 14.0, the version of Python 3.11's ``unicodedata`` (which lacks the
property). A renderer shows these as nothing: soft hyphen, combining grapheme
joiner U+034F, the Hangul fillers U+115F, U+1160, U+3164, U+FFA0, Khmer
inherent vowels U+17B4-U+17B5, Mongolian free variation selectors
U+180B-U+180F, zero-width and bidi controls, variation selectors, tags. Not all
are of a category in :data:`HIDDEN_CATEGORIES` (U+3164 is a letter, Lo;
U+034F a mark, Mn), so they are checked by code point."""

_IGNORABLE_FIRSTS = [first for first, _last in DEFAULT_IGNORABLE]

BLANK_FILLERS = "\u2800\U0001d159\U00016fe4"
"""Characters outside :data:`DEFAULT_IGNORABLE` that show as a blank yet are
not spaces (``str.split`` does not split at them): BRAILLE PATTERN BLANK
U+2800, MUSICAL SYMBOL NULL NOTEHEAD U+1D159, KHITAN SMALL SCRIPT FILLER
U+16FE4. (The Hangul fillers are default ignorable.)"""


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun`` in its number: ``counted(1, "hand")`` is "1 hand",
    ``counted(3, "hand")`` "3 hands" (``plural`` where it is not ``noun + "s"``)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def times(n: int) -> str:
    """How many times, in words: "once", "twice", "3 times" (``n`` ≥ 0)."""
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def ascii_digits(text: str) -> bool:
    """Whether ``text`` is one or more of the ASCII digits ``0`` to ``9``: a number
    :func:`int` reads.  Not :meth:`str.isdigit` alone, which takes ``²`` and ``¹``
    (``int`` refuses them: an internal error where a history's ``p²`` or a URL's
    hand number ``%C2%B2`` was read, s73-verify) and ``٣`` (Arabic-Indic three:
    a second way to write a number)."""
    return text.isascii() and text.isdigit()


def default_ignorable(char: str) -> bool:
    """Whether the one character ``char`` is in :data:`DEFAULT_IGNORABLE`."""
    code = ord(char)
    i = bisect.bisect_right(_IGNORABLE_FIRSTS, code) - 1
    return i >= 0 and code <= DEFAULT_IGNORABLE[i][1]

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


def _hidden_at(text: str, i: int) -> bool:
    char = text[i]
    if char == ZWJ:
        return not _joins_emoji(text, i)
    if _variation_selector(char):
        return _stray_selector(text, i)
    return (unicodedata.category(char) in HIDDEN_CATEGORIES or default_ignorable(char)
            or char in BLANK_FILLERS)


def hidden_character(text: str) -> str | None:
    """The first character of ``text`` in :data:`HIDDEN_CATEGORIES`,
    :data:`DEFAULT_IGNORABLE` or :data:`BLANK_FILLERS`, as ``U+XXXX``; ``None``
    when every character is visible text or a space. Two default ignorables
    are allowed where they do something seen: a zero width joiner (U+200D)
    between two emoji (an emoji ZWJ sequence such as 👨‍👩‍👧‍👦 or 🏳️‍🌈), and a
    variation selector after what it varies (:func:`_stray_selector`)."""
    for i, char in enumerate(text):
        if _hidden_at(text, i):
            return f"U+{ord(char):04X}"
    return None


def replace_hidden(text: str, mark: str = "\ufffd") -> str:
    """``text`` with each character :func:`hidden_character` would name replaced
    by ``mark`` (default U+FFFD, the replacement character)."""
    return "".join(mark if _hidden_at(text, i) else char for i, char in enumerate(text))


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


def _drop_unseen(text: str) -> str:
    # Default ignorables (a ZWJ, a variation selector ...) and blank fillers change
    # how a name looks little or not at all ("Ann" + U+FE0F reads "Ann"; 🔥‍🔥 may
    # show as 🔥🔥).
    return "".join(c for c in text if not (default_ignorable(c) or c in BLANK_FILLERS))


def name_key(name: str) -> str:
    """What two names are compared by when they must differ (one per table, or
    not a computer player's): NFKC, ``casefold``, NFKC again (Unicode's
    ``toNFKC_Casefold`` steps), without :data:`DEFAULT_IGNORABLE` or
    :data:`BLANK_FILLERS` characters, so ``Ann``, ``ANN`` + U+FE0F, ``Ａｎｎ``
    (full width) and ``𝐀𝐧𝐧`` (mathematical bold) are one name, ``ann``."""
    folded = unicodedata.normalize("NFKC", _drop_unseen(name))
    return _drop_unseen(unicodedata.normalize("NFKC", folded.casefold()))


def same_name(names: list[str]) -> tuple[int, int] | None:
    """The first pair ``(i, j)``, ``i < j``, of ``names`` that read as one name
    (:func:`name_key`, runs of spaces as one), blank names aside (a history's
    seat dealt no cards); ``None`` when every name is its own. A hand history
    told with two such names could not say who did what (PHH since s58-tidy,
    rollem's own histories since s59-tidy)."""
    seen: dict[str, int] = {}
    for j, name in enumerate(names):
        if not name.strip():
            continue
        i = seen.setdefault(" ".join(name_key(name).split()), j)
        if i != j:
            return i, j
    return None


def same_name_refusal(names: list[str], first: int, i: int) -> str:
    """The words refusing ``players[i]`` of a hand history, which reads as
    ``players[first]`` (:func:`same_name`)."""
    name = names[i]
    same = f"is players[{first}]'s name too" if names[first] == name \
        else f"reads as players[{first}] {names[first][:40]!r}"
    return f"players[{i}] {name[:40]!r} {same}: each player needs a name of their own"


def clip(text: str, limit: int = 300) -> str:
    """``text`` on one line (whitespace runs collapsed to a space), at most
    ``limit`` characters (at least 20): a longer one is cut at the last word
    that fits, with ``" ..."`` after it (a word longer than half the limit is
    cut where the limit falls), so a message reads whole up to the cut."""
    text = " ".join(text.split())
    limit = max(limit, 20)
    if len(text) <= limit:
        return text
    head = text[:limit - 4]
    space = head.rfind(" ")
    if space >= limit // 2:
        head = head[:space]
    return head.rstrip(" ,;:") + " ..."


LINE_WIDTH = 80
"""The columns a command's printed lines fit (an 80-column terminal)."""

_KEEP = "\ue000"  # (a private-use character: a space a line may not break at)


def fit_lines(text: str, width: int = LINE_WIDTH, indent: str = "  ", *,
              keep: int = 0) -> str:
    """``text`` with each line longer than ``width`` columns (characters)
    wrapped between words, its later parts indented ``indent`` more than the
    line itself (s62-term: ``rollem replay`` told a 5-2-1 showdown in lines of
    up to 280 columns, ``rollem verify`` a chain in 180); a word longer than
    the width (a folder's path) stays whole, and so do a line's first ``keep``
    characters (``rollem verify``'s ``FILE: ok:``, so that a file's line always
    begins with its name and verdict). A line that fits is left as it is."""
    import textwrap

    out: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        lead = line[:len(line) - len(line.lstrip(" "))]
        head = len(lead) + keep
        kept = line[:head].replace(" ", _KEEP)[len(lead):] + line[head:] \
            if keep and _KEEP not in line else line
        parts = textwrap.wrap(kept.strip(" "), width, initial_indent=lead,
                              subsequent_indent=lead + indent, break_long_words=False,
                              break_on_hyphens=False)
        out += [part.replace(_KEEP, " ") if kept is not line else part
                for part in parts] or [line]
    return "\n".join(out)


BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")
"""The invisible characters that change the direction of the text around them
(Unicode's bidirectional formatting characters)."""


def name_safe(name: str) -> str:
    """A name read from a file, for one line of a terminal: as
    :func:`terminal_safe`, and a newline or a tab in caret form too (``^J``,
    ``^I``), so a name cannot start a line of its own (``"A\\nNet: A +999"``
    would print a result line the hand never had)."""
    return terminal_safe(name).replace("\n", "^J").replace("\t", "^I")


def terminal_safe(text: str) -> str:
    """``text`` for a terminal: every control character (Unicode category ``Cc``)
    but newline and tab shown in caret form (``^[`` for ESC, ``^G`` for BEL,
    ``^?`` for DEL) or, for the C1 controls, as ``\\x9b``; a bidirectional
    formatting character (:data:`BIDI_CONTROLS`) as ``\\u202e``; everything else
    as it is.  A name, note or action read from a file (a hand history a friend
    sent) then cannot drive the terminal it is printed to: no colours, window
    titles, hyperlinks, or clipboard writes (OSC 52), nor text reordered to read
    as something else on a terminal that lays out right-to-left text."""
    if text.isprintable():
        return text
    out = []
    for c in text:
        code = ord(c)
        if c in BIDI_CONTROLS:
            out.append(f"\\u{code:04x}")
        elif c in "\n\t" or unicodedata.category(c) != "Cc":
            out.append(c)
        elif code < 0x20:
            out.append("^" + chr(code + 64))
        elif code == 0x7F:
            out.append("^?")
        else:
            out.append(f"\\x{code:02x}")
    return "".join(out)
