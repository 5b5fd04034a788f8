"""Finishing places in a tournament (issue 28).

Players who bust in different hands are placed in the reverse order of
their bust-outs; players who bust in the same hand are placed by the chips
they started that hand with (more chips, better place), and players who
started it with the same chips share the place.  The last player with chips
finishes first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

__all__ = ["Bust", "finishing_places"]


class Bust(NamedTuple):
    """``player`` lost their last chip in hand ``hand`` (a hand number), which
    they started with ``chips`` chips."""

    hand: int
    player: int
    chips: int


def finishing_places(entrants: int, busts: Sequence[Bust],
                     survivors: Sequence[int] = ()) -> dict[int, int]:
    """Place (1 = best) of each player who busted, and of ``survivors`` (the
    players still holding chips, all sharing the next place up unless only
    one is left: the winner, place 1).

    Raises:
        ValueError: a player listed twice, or more players than ``entrants``.
    """
    seen = [b.player for b in busts] + list(survivors)
    if len(set(seen)) != len(seen) or len(seen) > entrants:
        raise ValueError("each player busts at most once, and no more than the entrants")
    places: dict[int, int] = {}
    worst = entrants
    for hand in sorted({b.hand for b in busts}):
        group = sorted((b for b in busts if b.hand == hand), key=lambda b: b.chips)
        # the hand's busts take the worst places still open, fewest chips worst
        i = 0
        while i < len(group):
            same = [b for b in group if b.chips == group[i].chips]
            place = worst - i - (len(same) - 1)  # (tied: the best place they cover)
            for b in same:
                places[b.player] = place
            i += len(same)
        worst -= len(group)
    for player in survivors:
        places[player] = 1 if len(survivors) == 1 else worst - len(survivors) + 1
    return places
