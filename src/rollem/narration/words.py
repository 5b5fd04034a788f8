"""Small wording helpers: names with verbs, lists, ordinals."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["Names", "and_list", "ordinal", "possessive"]

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
             "ninth", "tenth")


def ordinal(k: int) -> str:
    """``1 -> "first"`` ... ``10 -> "tenth"``, then ``"11th"``, ``"21st"``,
    ``"22nd"``, ``"23rd"``, ``"111th"``."""
    if 1 <= k <= len(_ORDINALS):
        return _ORDINALS[k - 1]
    suffix = "th" if k % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


def and_list(items: Iterable[str]) -> str:
    """``["Ann", "Bob", "Cat"] -> "Ann, Bob and Cat"``."""
    xs = list(items)
    if len(xs) <= 1:
        return "".join(xs)
    return ", ".join(xs[:-1]) + " and " + xs[-1]


def possessive(name: str) -> str:
    """``"Ann" -> "Ann's"``; a name ending in a note in brackets is told without it,
    the note being said where the name stands alone (``"Bot 2 (basic)" -> "Bot 2's"``,
    not ``"Bot 2 (basic)'s"``: stop 54). A name that is all note keeps it."""
    name = name.rstrip()
    if name.endswith(")") and " (" in name:
        bare = name[:name.rindex(" (")].rstrip()
        if bare:
            name = bare
    return name + "'s"


class Names:
    """Players' names by seat, with ``You`` for the viewer.

    Args:
        names: one name per seat (missing ones read ``seat N``, counted from 1 as
            people count: index 0 is ``seat 1``).
        viewer: the seat reading the narration (``None``: nobody in particular,
            unless one seat is named ``You``, as ``rollem play`` names its player).
    """

    def __init__(self, names: Sequence[str], viewer: int | None) -> None:
        self.names = list(names)
        # `rollem play` names its player "You": told to anyone, that seat is
        # still second person ("You are dealt", not "You is dealt").
        if viewer is None and self.names.count("You") == 1:
            viewer = self.names.index("You")
        self.viewer = viewer

    def name(self, seat: int | None) -> str:
        """The seat's own name (never ``You``)."""
        if seat is None:
            return "The dealer"
        if 0 <= seat < len(self.names) and self.names[seat]:
            return self.names[seat]
        return f"seat {seat + 1}"

    def who(self, seat: int | None, *, start: bool = True) -> str:
        """``You`` (``you`` inside a sentence) for the viewer, else the name."""
        if seat is not None and seat == self.viewer:
            return "You" if start else "you"
        return self.name(seat)

    def whose(self, seat: int | None, *, start: bool = True) -> str:
        """``Your`` / ``Ann's``; a name ending in a note in brackets drops the note
        (:func:`possessive`: ``Bot 2 (basic)`` -> ``Bot 2's``)."""
        if seat is not None and seat == self.viewer:
            return "Your" if start else "your"
        return possessive(self.name(seat))

    def verb(self, seat: int | None, you: str, other: str) -> str:
        """``you`` form for the viewer, ``other`` (third person) else."""
        return you if seat is not None and seat == self.viewer else other

    def says(self, seat: int | None, you: str, other: str, *, start: bool = True) -> str:
        """``"You check"`` / ``"Ann checks"``."""
        return f"{self.who(seat, start=start)} {self.verb(seat, you, other)}"
