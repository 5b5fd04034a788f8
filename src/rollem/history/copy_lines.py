"""Comparing a copy's lines with its stand-in hand's, redacted again for
the seat (:func:`_difference`), and the points a copy can be replayed
to (:func:`action_points`, :func:`last_stand_in_point`)."""

from __future__ import annotations

from collections.abc import Sequence

from rollem.cards import CardError
from rollem.history.copy_stand_ins import _card, _is_action, _split


def _canon(parts: Sequence[str]) -> tuple[str, ...]:
    """A line's tokens in the engine's spelling: each card as the engine writes it
    (``qs`` -> ``Qs``), ``draw`` (format version 1) as ``sd``."""
    out = []
    for t in parts:
        try:
            out.append(str(_card(t)))
        except CardError:
            out.append(t)
    if len(out) >= 2 and out[0] != "d" and out[1] == "draw":
        out[1] = "sd"
    return tuple(out)


def _normal(lines: Sequence[str]) -> list[tuple[int, tuple[str, ...], tuple[str, ...]]]:
    """The lines compared (index, cards, comment), in the engine's spelling
    (:func:`_canon`): all but shows, blank lines and a reader's own notes. The
    comments that say what happened are kept (a dealer line's label, ``# stop``,
    ``# flop``, its first word only; the ``# roll`` and ``# reshuffle`` lines);
    any other comment is a note, which a copy may gain or lose."""
    out = []
    for i, line in enumerate(lines):
        parts, comment = _split(line)
        if len(parts) >= 2 and parts[1] == "sm":
            continue
        if parts and parts[0] != "d":
            comment = []  # on a player's line: a note
        elif parts:
            comment = comment[:1]  # a dealer line's label
        elif comment[:1] not in (["roll"], ["reshuffle"]):
            continue  # a comment line: a note
        out.append((i, _canon(parts), tuple(comment)))
    return out


def _omissible(parts: Sequence[str]) -> bool:
    """Whether a line the hand gives may be left out of a copy, as out of a
    hand-written full history (:func:`rollem.history.replay`): a dealer line,
    or a ``# roll`` / ``# reshuffle`` line (the engine's comments)."""
    return not parts or parts[0] == "d"


def _same(mine: tuple[str, ...], line: tuple[str, ...], theirs: tuple[str, ...],
          other: tuple[str, ...]) -> bool:
    """Whether the copy's line (cards ``mine``, comment ``line``) is the hand's
    (``theirs``, ``other``): a dealer line without a label matches any label."""
    if mine != theirs:
        return False
    return line == other or (bool(mine) and mine[0] == "d" and not line)


def _difference(copy: Sequence[str], again: Sequence[str]) -> str | None:
    """The first line of the copy that the hand (``again``, the hand's lines
    redacted for the seat) does not give, in order, or ``None``; the copy may
    leave out the hand's dealer and ``# roll`` / ``# reshuffle`` lines."""
    mine, theirs = _normal(copy), _normal(again)
    j = 0
    for i, parts, comment in mine:
        start = j
        while j < len(theirs) and not _same(parts, comment, *theirs[j][1:]) \
                and _omissible(theirs[j][1]):
            j += 1
        if j == len(theirs):
            if start == len(theirs):
                return f"line {i + 1} of actions ({copy[i]}) comes after the end of the hand"
            return (f"line {i + 1} of actions ({copy[i]}) is not what the hand gives there "
                    f"({again[theirs[start][0]]})")
        if not _same(parts, comment, *theirs[j][1:]):
            # name the hand's line of the same kind there, if any, else the next one
            near = theirs[start:j + 1]
            k = next((k for k, other, _ in near if other[:2] == parts[:2]), near[0][0])
            return (f"line {i + 1} of actions ({copy[i]}) is not what the hand gives there "
                    f"({again[k]})")
        j += 1
    rest = next((k for k, parts, _ in theirs[j:] if not _omissible(parts)), None)
    if rest is not None:
        return f"the lines stop before the hand gives {again[rest]}"
    return None


def action_points(lines: Sequence[str]) -> list[int]:
    """For each player's action of a copy's ``actions`` lines, the index of its line."""
    return [i for i, line in enumerate(lines) if _is_action(_split(line)[0])]


def last_stand_in_point(lines: Sequence[str]) -> int | None:
    """For a copy's ``actions`` lines that record a reshuffle (a ``# reshuffle``
    line, R-521-5), the most players' actions its stand-in hand can replay:
    those before the action that needed the reshuffle; ``None`` with no
    reshuffle (any point)."""
    first = next((i for i, line in enumerate(lines)
                  if _split(line)[1][:1] == ["reshuffle"] and not _split(line)[0]), None)
    if first is None:
        return None
    return max(0, sum(1 for i in action_points(lines) if i < first) - 1)

