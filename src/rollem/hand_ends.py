"""Telling bots a hand's end: each bot dealt into a finished hand gets its own
seat's view of it (:func:`rollem.bots.observe_hand_end`), wherever bots play
(the league, ``rollem simulate``, tournaments, the terminal game, the web
table). Outside :mod:`rollem.bots`, which sees views only, never a hand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rollem.bots import observe_hand_end
from rollem.engine.hand import Hand

__all__ = ["tell_hand_end"]


def tell_hand_end(hand: Hand, bots: Mapping[int, object] | Sequence[object | None]) -> None:
    """Tell every bot dealt into the finished ``hand`` its end
    (:func:`observe_hand_end` with ``hand.view(seat)``: the seat's own view, R-C-11's
    shown hands and the result, never a card the seat may not see).

    ``bots``: by engine seat (a mapping, or a sequence indexed by seat; ``None`` and
    seats absent are skipped, as are seats not dealt in).

    Raises:
        ValueError: if ``hand`` is not over (a hand's end is told once it has one).
    """
    if not hand.is_over:
        raise ValueError("tell_hand_end needs a finished hand: this one is still being played")
    items = bots.items() if isinstance(bots, Mapping) else enumerate(bots)
    for seat, bot in items:
        if bot is None or not 0 <= seat < hand.n or not hand.dealt[seat]:
            continue
        observe_hand_end(bot, hand.view(seat))
