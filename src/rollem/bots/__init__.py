"""Computer players: a :class:`Bot` turns a view into an action.

Bots see only :class:`rollem.engine.HandView` (never the hand itself).
Levels by name: :func:`make_bot` (``"random"``: uniform over the legal
actions; ``"basic"``: plays by its chances, see :mod:`rollem.bots.basic`;
``"strong"``: reads opponents and simulates its card choices, see
:mod:`rollem.bots.strong`; more levels register with :func:`register_level`).

Whoever plays bots tells each one the end of every hand it was dealt into
(:func:`rollem.hand_ends.tell_hand_end`: the finished hand's view for that seat, so only
what that seat may see, the cards shown down among it; never a mucked hand
or another player's unshown hole cards). A bot that learns from showdowns
implements ``observe_hand_end(view)``; for the others it does nothing.

>>> from random import Random
>>> from rollem.engine import Hand, SeededSource
>>> hand = Hand("sdr", [200, 200], button=1, source=SeededSource(7))
>>> bots = [make_bot("basic", Random(seat)) for seat in range(2)]
>>> while not hand.is_over:
...     seat = hand.pending.seats[0]
...     events = hand.apply(seat, bots[seat].act(hand.view(seat)))
>>> sum(hand.result.net.values())
0
>>> make_bot("expert")
Traceback (most recent call last):
    ...
KeyError: "unknown bot level 'expert': expected one of basic, random, strong"
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from rollem.engine.views import HandView

__all__ = ["LEVELS", "Bot", "make_bot", "observe_hand_end", "register_level"]


class Bot(Protocol):
    """A computer player: ``act(view)`` returns an action legal in ``view.legal``;
    ``policy(view)`` the probability of each action ``act`` may take there
    (issue 31: only legal actions, summing to 1; see :mod:`rollem.bots.mixing`)."""

    def act(self, view: HandView) -> object:
        """Choose an action for ``view.seat``."""
        ...

    def policy(self, view: HandView) -> dict[object, float]:
        """The probability of each action for ``view.seat`` (the actions :meth:`act`
        may return, as the same frozen action objects)."""
        ...


def observe_hand_end(bot: object, view: HandView) -> None:
    """Give ``bot`` the finished hand's ``view`` for its seat: its
    ``observe_hand_end(view)`` if it has one, else nothing (the default: a bot
    that learns nothing from hands' ends need not implement it)."""
    hook = getattr(bot, "observe_hand_end", None)
    if callable(hook):
        hook(view)


LEVELS: dict[str, Callable[[random.Random], Bot]] = {}
"""Bot levels by name: a factory taking the bot's own seeded ``Random``."""


def register_level(name: str, factory: Callable[[random.Random], Bot]) -> None:
    """Make a bot level available to :func:`make_bot` and ``--bots``."""
    LEVELS[name] = factory


def make_bot(level: str, rng: random.Random | None = None) -> Bot:
    """A bot of ``level``.

    Raises:
        KeyError: naming the levels allowed.
    """
    from rollem.bots import basic, random_bot, strong  # noqa: F401  (register their levels)

    factory = LEVELS.get(level)
    if factory is None:
        raise KeyError(f"unknown bot level {level!r}: expected one of {', '.join(sorted(LEVELS))}")
    return factory(rng if rng is not None else random.Random())
