"""What a history records that its replay contradicts (issue 34):
:func:`differences`, :func:`same_words`."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from rollem.engine.hand import Hand
from rollem.history.format import (
    History,
    _brief,
    _cap,
)

_RESULT_FIELDS = ("game", "pots", "net", "shown", "shown_cards", "carried", "runs")
"""The ``_result`` fields a replay gives (``HandOutcome.to_dict(cards=True)``);
any other is not compared."""


def _differ(where: str, recorded: object, got: object) -> str:
    return f"recorded {where} {_brief(recorded)} differs from the replay's {_brief(got)}"


def same_words(recorded: str, now: str | None) -> bool:
    """Whether a recorded description of a shown hand is the engine's ``now``, or
    its words before issue 26 (a both-ways declarer's ``"<high> and <low>"``, now
    ``"high: <high>; low: <low>"``), or before stop 58 (a paired hand with no ace,
    ``"high: <hand>; low: <hand>"``, now ``"high and low: <hand>"``; a high-low
    pot's ``"<hand> for high and <hand> for low"``, now ``"<hand> for high and
    low"``; a wild-duplicates flush of three aces, ``"double-ace flush,
    ace-king-six"``, now ``"triple-ace flush, king-six"``): a history written
    before stays accepted.

    >>> same_words("double-ace flush, ace-jack-three", "triple-ace flush, jack-three")
    True
    """
    if now is None or recorded == now:
        return recorded == now
    triple = re.fullmatch(r"triple-(\w+) flush, (.*)", now)
    if triple:  # a wild-duplicates flush of three aces, before stop 58
        return recorded == f"double-{triple[1]} flush, {triple[1]}-{triple[2]}"
    if now.endswith(" for high and low"):  # a high-low pot's: before, each half named
        same = now.removesuffix(" for high and low")
        return recorded == f"{same} for high and {same} for low"
    if now.startswith("high and low: "):
        high = low = now.removeprefix("high and low: ")
        if recorded == f"high: {high}; low: {low}":
            return True
    elif now.startswith("high: ") and "; low: " in now:
        high, low = now.removeprefix("high: ").split("; low: ", 1)
    else:
        return False
    return recorded == f"{high} and {low}"


def _table_difference(where: str, recorded: object, got: Mapping[str, Any]) -> str | None:
    """The first seat (key) of a recorded ``seat -> value`` table that differs
    from the replay's ``got``: one missing on either side, or another value
    (descriptions of shown hands: also their words before issue 26)."""
    if not isinstance(recorded, Mapping):
        return _differ(where, recorded, dict(got))
    for key in sorted({*map(str, recorded), *got}, key=lambda k: (len(k), k)):
        mine, theirs = recorded.get(key), got.get(key)
        if mine == theirs or (where == "_result.shown" and isinstance(mine, str)
                              and isinstance(theirs, str) and same_words(mine, theirs)):
            continue
        if key not in recorded:
            return f"recorded {where} leaves out seat {key}, which the replay gives " \
                   f"{_brief(theirs)}"
        if key not in got:
            return f"recorded {where} names seat {_brief(key)} ({_brief(mine)}), which the " \
                   "replay does not"
        return _differ(f"{where}.{key}", mine, theirs)
    return None


def _pots_difference(recorded: object, got: Sequence[Mapping[str, Any]]) -> str | None:
    if not isinstance(recorded, list):
        return _differ("_result.pots", recorded, list(got))
    if len(recorded) != len(got):
        return f"recorded _result.pots has {len(recorded)} pots, the replay {len(got)}: " \
               f"{_brief([p.get('amount') for p in got])} chips"
    for i, (mine, theirs) in enumerate(zip(recorded, got, strict=True)):
        if not isinstance(mine, Mapping):
            return _differ(f"_result.pots[{i}]", mine, dict(theirs))
        for key in sorted({*mine, *theirs}, key=lambda k: ("amount", "eligible", "winners",
                                                           "high", "low").index(k)
                          if k in ("amount", "eligible", "winners", "high", "low") else 9):
            if mine.get(key) != theirs.get(key):
                return _differ(f"_result.pots[{i}].{key}", mine.get(key), theirs.get(key))
    return None


def differences(history: History, hand: Hand) -> list[str]:
    """What ``history`` records that its replay ``hand`` contradicts, one line each
    (at most :data:`MAX_MESSAGE` characters, long values elided), in the order
    checked; empty when nothing does (issue 34).

    Checked, each where the history has it (a hand-written one may leave any
    out): ``players`` and ``seats`` hold one entry per starting stack;
    ``finishing_stacks`` are the replay's stacks at the end; ``_result`` is a
    table whose fields ``game``, ``pots`` (each pot's ``amount``, ``eligible``,
    ``winners``, ``high``, ``low``), ``net``, ``shown`` (descriptions),
    ``shown_cards`` (the cards, in the order the engine shows them) and
    ``carried`` are the replay's exactly; a history that records either ends
    the hand. Other ``_result`` fields are not compared.
    """
    raw = history.raw
    n = len(hand.start_stacks)
    found: list[str] = []
    for key, what in (("players", "name"), ("seats", "seat number")):
        listed = raw.get(key)
        if listed is None:
            continue
        if not isinstance(listed, list):
            found.append(f"{key} must be a list of {what}s, one per starting stack, got "
                         f"{_brief(listed)}")
        elif len(listed) != n:
            found.append(f"{key} has {len(listed)} {what}{'s' if len(listed) != 1 else ''} "
                         f"for {n} starting stacks (one a seat)")
        elif key == "players" and not all(isinstance(p, str) for p in listed):
            found.append(f"players must be names (text), got {_brief(listed)}")
    result = history.result
    finishing = raw.get("finishing_stacks")
    if hand.result is None:
        if result is not None:
            found.append("the history records a result but its actions do not finish the hand")
        if finishing is not None:
            found.append("the history records finishing_stacks but its actions do not finish "
                         "the hand")
        return found
    if result is not None:
        got = hand.result.to_dict(cards=True)
        for key in _RESULT_FIELDS:
            if key not in result or result[key] == got.get(key):
                continue
            if key == "pots":
                differs = _pots_difference(result[key], got[key])
            elif key in ("net", "shown", "shown_cards"):
                differs = _table_difference(f"_result.{key}", result[key], got[key])
            else:
                differs = _differ(f"_result.{key}", result[key], got.get(key))
            if differs is not None:
                found.append(differs)
    if finishing is not None and finishing != list(hand.stacks):
        found.append(_differ("finishing_stacks", finishing, list(hand.stacks)))
    return [_cap(line) for line in found]
