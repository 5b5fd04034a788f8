"""A player's own copy of a history (:func:`rollem.history.redact`), checked.

A copy hides the other players' face-down cards (``??``), so it cannot be
replayed as it is. It can be replayed with *stand-in* cards: every ``??``
gets a card nobody named, chosen so that the hand plays out as the copy says
(the others keep the cards they later turn up; the cards the seat drew from
the Roll Your Own pool, and the wild card, are in the pool; a 5-2-1 stacking
rolls up the cards the copy shows rolled). The stand-in hand is checked:
redacted again for the seat, it must give the copy's lines exactly (shows
aside), so the seat saw the same in both hands, and a finished copy's
recorded pots must be the stand-in hand's, its nets what those pots give.
Its showdown is the engine's on the real cards the copy shows
(:func:`_check_showdown`): descriptions, who shows, each pot's winners and
halves, and a mucked own hand that would have won is refused.
A hand that ran out of cards and reshuffled is replayed up to the
reshuffle, and its whole betting (turn order, bets, pots, nets) on an
onlooker's lines with every draw a stand pat. A copy that passes describes a
hand that can happen; one that fails (cards named twice, an action out of
turn or over a stack, a bad field) is refused with the engine's reason.

:func:`own_copy_hand` is the one check: ``rollem replay`` (and
:func:`rollem.narration.narrate_history`) run it before telling a copy, and
``rollem odds --history`` replays a copy's stand-in hand for the copy's seat.

Modules, one job each (in :mod:`rollem.history`): ``copy_stand_ins``
(the stand-in cards), ``copy_lines`` (a copy's lines against the stand-in
hand's), ``copy_checks`` (its fields: own cards, shows, pots, nets),
``copy_showdown`` (its showdown), ``own_copy`` (:func:`own_copy_hand`).
"""

from __future__ import annotations

from rollem.history.copy_lines import action_points, last_stand_in_point
from rollem.history.copy_stand_ins import IMPOSSIBLE, is_own_copy
from rollem.history.own_copy import _draw_after_an_up_card as _draw_after_an_up_card
from rollem.history.own_copy import _without_draws as _without_draws
from rollem.history.own_copy import own_copy_hand

__all__ = ["IMPOSSIBLE", "action_points", "is_own_copy", "last_stand_in_point",
           "own_copy_hand"]
