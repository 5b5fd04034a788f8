"""Names that look alike: Unicode TS #39 confusables (skeletons) and mixed scripts.

Two players' names must differ as they *look*, not only as their code points
differ: ``Аnn`` with a Cyrillic ``А`` (U+0410) reads as ``Ann``.  The data is
Unicode's ``confusables.txt`` and script properties as shipped by the
``confusable-homoglyphs`` package (pinned in pyproject.toml).

- :func:`look_alike_key`: TS #39's *skeleton* (each character replaced by the
  prototype it is confusable with, under NFD), taken before and after case
  folding, without combining marks that go on any letter (accents, strokes,
  dots: ``Anń``, ``A̶nn`` and ``Zoë`` are ``ann``, ``ann`` and ``zoe``, so
  ``Zoë`` and ``Zoe`` cannot sit at one table), and with the lower-case
  letters of other scripts that pass for Latin ones in common fonts but that
  ``confusables.txt`` leaves out (:data:`EXTRA_LOOK_ALIKES`), so ``Аnn``,
  ``ANN``, ``Ann`` and ``Апп`` (all Cyrillic) have one key, and ``Воt``
  (Cyrillic ``В``, ``о``) has the key of ``Bot``.  Issue 34.
- :func:`whole_script`: the one script a name's letters are written in, to
  tell a *whole-script* look-alike (TS #39 section 4: ``Апп`` in Cyrillic
  against ``Ann`` in Latin) in a refusal.
- :func:`stacked_marks`: a name made mostly of combining marks ("Zalgo"
  text, ``Z̷̢̛a̴l̸g̵o̶``), whose marks spill over the names around it.
- :func:`mixed_script_word`: a word whose letters come from more than one
  script, outside the combinations TS #39's "highly restrictive" level allows
  (Latin with Han and Japanese kana, or Han with Bopomofo, or Han with
  Hangul).  Digits, punctuation, emoji and combining marks belong to no script
  here.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs import categories, confusables  # type: ignore[import-untyped]

from rollem.text import name_key

__all__ = ["EXTRA_LOOK_ALIKES", "MAX_MARKS_ON_ONE", "look_alike_key", "mixed_script_word",
           "skeleton", "stacked_marks", "whole_script"]

_NO_SCRIPT = {"COMMON", "INHERITED"}
_ALLOWED_MIXES = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
"""Scripts one word may mix (TS #39 section 5.2, "Highly Restrictive")."""


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """Each confusable character → its prototype (one or more characters).

    The package lists, for a character that is a source in confusables.txt, its
    one prototype, and for a prototype every source confusable with it (both
    directions, some wrapped in U+200E marks, removed here).  A pair whose
    direction cannot be told apart (each lists only the other) maps to the
    smaller code point: both then share one key, which is all a comparison needs.
    """
    data = {k.replace("\u200e", ""): [h["c"].replace("\u200e", "") for h in v]
            for k, v in confusables.confusables_data.items()}
    out: dict[str, str] = {}
    for char, others in data.items():
        if len(char) != 1 or len(others) != 1:
            continue
        target = others[0]
        if len(target) != 1 or len(data.get(target, ())) > 1 or target < char:
            out[char] = target
    return out


def skeleton(text: str) -> str:
    """TS #39's skeleton of ``text``: NFD, each character replaced by its
    confusable prototype, NFD again (``"Аnn"`` → ``"Ann"``, ``"I"`` → ``"l"``)."""
    table = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(c, c) for c in decomposed))


EXTRA_LOOK_ALIKES = {
    **dict.fromkeys("нћңҥӈӊԋ", "h"), **dict.fromkeys("κкқҝҟҡӄԟ", "k"),
    **dict.fromkeys("пԥ", "n"), **dict.fromkeys("тҭԏ", "t"), **dict.fromkeys("ьҍв", "b"),
    **dict.fromkeys("ωшщ", "w"), **dict.fromkeys("мӎ", "m"), **dict.fromkeys("єҽҿ", "e"),
    "ґ": "r", "г": "r", **dict.fromkeys("ғӻ", "f"), "ҫ": "c", "ұ": "y",
    **dict.fromkeys("χҳӽӿ", "x"), "ԃ": "d", "ԍ": "g",
}
"""Lower-case Cyrillic and Greek letters that pass for Latin letters in common
fonts (``п`` for ``n``, ``т`` for ``t``, ``к`` for ``k``) but are not mapped so
by ``confusables.txt`` (which maps ``п`` to Greek ``π``): the supplement web
browsers apply to it for the same purpose (Chromium's IDN spoof checker).
Applied before the skeleton, so that ``Апп`` (all Cyrillic) has the key of
``Ann``."""

MAX_MARKS_ON_ONE = 3
"""Most combining marks one character may carry in a name (:func:`stacked_marks`):
Vietnamese puts two on a vowel (``ễ``), polytonic Greek three (``ᾄ``)."""


def _is_mark(char: str) -> bool:
    return unicodedata.category(char) in ("Mn", "Me")


@lru_cache(maxsize=4096)
def _script(char: str) -> str:
    # (kept: the package's look-up takes about 60 us a character, and a name's
    # checks ask it for every character, s59-safe)
    return str(categories.aliases_categories(char)[0])


def _generic_mark(char: str) -> bool:
    """A combining mark that may sit on a letter of any script (script Inherited
    or Common: accents, strokes, dots, U+0300..U+036F ...) or an enclosing one."""
    return _is_mark(char) and (unicodedata.category(char) == "Me"
                               or _script(char) in _NO_SCRIPT)


def _strip_marks(text: str) -> str:
    """``text`` in NFD without its generic combining marks (:func:`_generic_mark`):
    the accents, strokes, dots and enclosing circles that sit on a letter, also
    Greek breathings and Arabic vowel marks. A script's own vowel signs and
    subjoined letters (Devanagari ``े``, Hebrew points, Tibetan ``ྒ``) are kept:
    they are letters of that writing."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if not _generic_mark(c))


def _extras(text: str) -> str:
    return "".join(EXTRA_LOOK_ALIKES.get(c, c) for c in text)


def look_alike_key(name: str) -> str:
    """What two names are compared by to tell whether they look alike: its NFKC
    form without generic combining marks (:func:`_strip_marks`), with
    :data:`EXTRA_LOOK_ALIKES`, its skeleton, case folded
    (:func:`rollem.text.name_key`), then once more without marks, with the
    extras, the skeleton and without marks (``"Аnn"``, ``"ANN"``,
    ``"Апп"``, ``"Anń"``, ``"A̶nn"`` → ``"ann"``; ``"Воt"``, ``"B0t"``,
    ``"Bót"`` → ``"bot"``; ``"Ian"`` → ``"lan"``: a capital I is confusable
    with a small L; ``"Zoë"`` → ``"zoe"``, as ``"Zoe"``)."""
    # the first skeleton before case folding: В (B), not в (ʙ)
    first = skeleton(_extras(_strip_marks(unicodedata.normalize("NFKC", name))))
    return _strip_marks(skeleton(_extras(_strip_marks(name_key(first)))))


def whole_script(name: str) -> str | None:
    """The one script (Unicode's upper-case name, ``"CYRILLIC"``) all the letters
    of ``name`` are written in, or ``None`` for a name with none or several."""
    scripts = set(categories.unique_aliases(name)) - _NO_SCRIPT
    return next(iter(scripts)) if len(scripts) == 1 else None


def stacked_marks(name: str) -> bool:
    """Whether ``name`` is made mostly of combining marks ("Zalgo" text): a
    character carries more than :data:`MAX_MARKS_ON_ONE` marks, or the name has
    more marks than other characters (spaces aside). Counted are the marks
    (Mn, Me, under NFD) that go on any letter (script Inherited or Common, such
    as U+0300..U+036F) or that belong to another script than their letter's,
    and every enclosing mark; not a script's own vowel signs and subjoined
    letters (Thai, Tibetan, Devanagari write names with them), nor variation
    selectors (:func:`rollem.text.hidden_character` judges those)."""
    from rollem.text import default_ignorable

    marks = bases = on_one = 0
    base_script: str | None = None
    for char in unicodedata.normalize("NFD", name):
        if char.isspace() or default_ignorable(char):
            continue
        if not _is_mark(char):
            bases += 1
            on_one = 0
            base_script = _script(char)
            continue
        if _generic_mark(char) or _script(char) != base_script:
            marks += 1
            on_one += 1
            if on_one > MAX_MARKS_ON_ONE:
                return True
    return marks > bases


def mixed_script_word(name: str) -> tuple[str, list[str]] | None:
    """The first word (split at spaces) of ``name`` whose letters mix scripts
    that may not be mixed (module docstring), with those scripts (sorted, in
    Unicode's upper-case names); ``None`` when every word keeps to one."""
    for word in name.split():
        scripts = set(categories.unique_aliases(word)) - _NO_SCRIPT
        if len(scripts) > 1 and not any(scripts <= mix for mix in _ALLOWED_MIXES):
            return word, sorted(scripts)
    return None
