"""The ``random`` bot: uniform over the legal actions, sizes included."""

from __future__ import annotations

import random

from rollem.bots import register_level
from rollem.engine.actions import (
    Bet,
    Call,
    Check,
    Declare,
    Discard,
    Draw,
    Expose,
    Fold,
    PickWild,
    Raise,
    RunTwice,
    Stack,
)
from rollem.engine.decisions import Legal
from rollem.engine.views import HandView

__all__ = ["RandomBot", "random_action"]


def random_action(legal: Legal, rng: random.Random) -> object:
    """A uniformly random action among ``legal`` (a bet/raise size uniform in range).

    Never folds when it could check (R-C-6: computer players never make that fold).
    """
    actions = legal.actions
    if "check" in actions and "fold" in actions:
        actions = tuple(a for a in actions if a != "fold")
    name = rng.choice(actions)
    if name == "fold":
        return Fold()
    if name == "check":
        return Check()
    if name == "call":
        return Call()
    if name == "bet":
        return Bet(rng.randint(legal.min_to, legal.max_to))
    if name == "raise":
        return Raise(rng.randint(legal.min_to, legal.max_to))
    cards = list(legal.cards)
    if name == "expose":
        return Expose(rng.choice(cards))
    if name == "discard":
        return Discard(tuple(rng.sample(cards, legal.max_count)))
    if name == "draw":
        k = rng.randint(legal.min_count, legal.max_count)
        return Draw(tuple(rng.sample(cards, k)))
    if name == "wild":
        return PickWild(rng.randrange(legal.positions))
    if name == "stack":
        rng.shuffle(cards)
        return Stack(tuple(cards))
    if name == "declare":
        return Declare(rng.choice(legal.sides))
    if name == "run_twice":
        return RunTwice(rng.random() < 0.5)
    raise ValueError(f"the random bot does not know the action {name!r}")


class RandomBot:
    """Chooses uniformly among ``view.legal`` (R-C-12: a computer player)."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random()

    def act(self, view: HandView) -> object:
        """A random legal action for ``view.seat``.

        Raises:
            ValueError: if the view offers no legal options.
        """
        if view.legal is None or not view.legal.actions:
            raise ValueError("the random bot was asked to act with no legal options")
        return random_action(view.legal, self.rng)


register_level("random", RandomBot)

