"""Odds from a player's own copy of a history (``rollem.history.redact``).

A copy hides the other players' face-down cards (``??``), so it cannot be
replayed as it is. For its own seat it is replayed with *stand-in* cards
where it shows ``??`` and checked (:func:`rollem.history_copy.own_copy_hand`,
the same check ``rollem replay`` makes). Its odds come from the seat's view
(``Hand.view``), which never holds another seat's face-down card, so the
stand-ins change nothing but what the seat could not see anyway.

Only the copy's own seat, and only before the end of the hand (at the end the
stand-ins would be shown); another seat's odds need the full history.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rollem.history import HistoryError, write_history
from rollem.history_copy import (
    action_points,
    is_own_copy,
    last_stand_in_point,
    own_copy_hand,
)
from rollem.odds.result import HistoryOddsError, OddsError
from rollem.text import ascii_digits

__all__ = ["fold_point", "is_own_copy", "stand_in_history"]


def fold_point(actions: Sequence[tuple[int, str]], seat: int) -> int | None:
    """How many players' actions come before ``seat`` folds (``f``): its last
    decision point with cards, the default ``--at`` for a seat that folded;
    ``None`` if it never folds. ``actions``: (seat, action text) in order."""
    return next((k for k, (s, text) in enumerate(actions)
                 if s == seat and text.split()[:1] == ["f"]), None)


def _seat_actions(lines: Sequence[str]) -> list[tuple[int, str]]:
    """A copy's players' actions as (seat, action text): ``p2 f`` -> ``(1, "f")``."""
    out = []
    for i in action_points(lines):
        who, _, text = lines[i].partition(" ")
        out.append((int(who[1:]) - 1 if ascii_digits(who[1:]) else -1, text))
    return out


def stand_in_history(data: Mapping[str, Any], seat: int, at: int | None) -> tuple[str, int]:
    """A full history (TOML text) that plays as ``data`` (a player's own copy)
    shows it to its seat, cut after ``at`` players' actions (default: before
    the last action of a finished hand, with or without ``_result``, else
    after every action; for a seat that folded, before its fold
    (:func:`fold_point`); in a hand that reshuffled, at most the last point
    before the reshuffle, :func:`rollem.history_copy.last_stand_in_point`);
    returns it and the point. The whole copy is checked first, as ``rollem
    replay`` checks it, whatever the point.

    Raises:
        OddsError: a seat the hand does not have, another seat than the
            copy's, a point out of its one range (0 to the last point before
            the end of the hand, or before a reshuffle; the message names that
            range whatever was asked),
            or (:class:`~rollem.odds.result.HistoryOddsError`) a copy that does not
            play (the message of
            :func:`rollem.history_copy.own_copy_hand`).
    """
    owner = data.get("_redacted_for")
    stacks = data.get("starting_stacks")
    if type(owner) is int and isinstance(stacks, list) and not 0 <= seat < len(stacks):
        # (as a full history says it: no such seat, not "another seat's copy")
        raise OddsError(f"seat {seat}: the hand has seats 0 to {len(stacks) - 1}; this is "
                        f"seat {owner}'s own copy, so --seat {owner}")
    if type(owner) is int and seat != owner:
        raise OddsError(
            f"this is seat {owner}'s own copy (_redacted_for = {owner}): it holds only what "
            f"seat {owner} saw, so it gives seat {owner}'s odds only (--seat {owner}); "
            f"seat {seat}'s odds need a full history of the hand (every seat's cards), which "
            "no player's copy holds")
    lines = data.get("actions", [])
    texts = [str(line) for line in lines] if isinstance(lines, list) else []
    n = len(action_points(texts))
    over = isinstance(data.get("_result"), Mapping)
    last = last_stand_in_point(texts)
    try:
        # the whole copy first, as rollem replay checks it: a point before a
        # line that cannot happen is no point of a real hand
        whole = own_copy_hand(data)
    except HistoryError as err:
        raise HistoryOddsError(str(err)) from None
    # The one range of points, said the same way whatever is asked: before the
    # end of the hand (a finished hand, with or without _result, ends at its
    # last action) and, in a hand that reshuffled, before the reshuffle.
    top = n - 1 if (over or whole.is_over) and n > 0 else n
    why = (f"the hand is over after action {n}: from a player's own copy, odds are for a "
           "point before its end" if top < n else "")
    if last is not None and last < top:
        top = last
        why = (f"this copy cannot be replayed with stand-in cards after action {last}: the "
               "hand then reshuffled (a # reshuffle line), whose order the copy hides")
    if at is None:  # the last decision point; a folded seat's, before its fold
        at = top
        folded_at = fold_point(_seat_actions(texts), seat)
        if folded_at is not None:
            at = min(at, folded_at)
    if not 0 <= at <= top:
        raise OddsError(f"--at {at}: the copy has {n} player actions (dealer lines are not "
                        f"counted){'; ' + why if why else ''}; choose a point from 0 to {top}")
    try:
        hand = own_copy_hand(data, actions=at)
    except HistoryError as err:
        raise HistoryOddsError(str(err)) from None
    return write_history(hand), at
