"""Names that look alike: Unicode TS #39 confusables (skeletons) and mixed scripts.

Two players' names must differ as they *look*, not only as their code points
differ: ``Аnn`` with a Cyrillic ``А`` (U+0410) reads as ``Ann``.  The data is
Unicode's ``confusables.txt`` and script properties as shipped by the
``confusable-homoglyphs`` package (pinned in pyproject.toml).

- :func:`look_alike_key`: TS #39's *skeleton* (each character replaced by the
  prototype it is confusable with, under NFD), taken before and after case
  folding, so ``Аnn``, ``ANN`` and ``Ann`` have one key, and ``Воt`` (Cyrillic
  ``В``, ``о``) has the key of ``Bot``.
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

__all__ = ["look_alike_key", "mixed_script_word", "skeleton"]

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


def look_alike_key(name: str) -> str:
    """What two names are compared by to tell whether they look alike: the
    skeleton of its NFKC form, case folded (:func:`rollem.text.name_key`), then the
    skeleton again (``"Аnn"``, ``"ANN"`` → ``"ann"``; ``"Воt"``, ``"B0t"`` →
    ``"bot"``; ``"Ian"`` → ``"lan"``: a capital I is confusable with a small L)."""
    first = skeleton(unicodedata.normalize("NFKC", name))  # before case folding: В, not в
    return skeleton(name_key(first))


def mixed_script_word(name: str) -> tuple[str, list[str]] | None:
    """The first word (split at spaces) of ``name`` whose letters mix scripts
    that may not be mixed (module docstring), with those scripts (sorted, in
    Unicode's upper-case names); ``None`` when every word keeps to one."""
    for word in name.split():
        scripts = set(categories.unique_aliases(word)) - _NO_SCRIPT
        if len(scripts) > 1 and not any(scripts <= mix for mix in _ALLOWED_MIXES):
            return word, sorted(scripts)
    return None
