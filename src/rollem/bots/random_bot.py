"""The ``random`` bot: uniform over the legal actions, sizes included."""

from __future__ import annotations

import random
from itertools import permutations

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

__all__ = ["RandomBot", "random_action", "random_policy"]


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


def random_policy(legal: Legal) -> dict[object, float]:
    """The exact distribution :func:`random_action` samples from (issue 31): each
    action name equally likely (no fold when a check is free), then each size
    in range, card, ordered choice of cards (as ``rng.sample`` and
    ``rng.shuffle`` return them) or pool position equally likely."""
    actions = legal.actions
    if "check" in actions and "fold" in actions:
        actions = tuple(a for a in actions if a != "fold")
    share = 1.0 / len(actions)
    out: dict[object, float] = {}

    def spread(options: list[object]) -> None:
        for a in options:
            out[a] = out.get(a, 0.0) + share / len(options)

    cards = list(legal.cards)
    for name in actions:
        if name == "fold":
            spread([Fold()])
        elif name == "check":
            spread([Check()])
        elif name == "call":
            spread([Call()])
        elif name in ("bet", "raise"):
            kind = Bet if name == "bet" else Raise
            spread([kind(x) for x in range(legal.min_to, legal.max_to + 1)])
        elif name == "expose":
            spread([Expose(c) for c in cards])
        elif name == "discard":
            spread([Discard(t) for t in permutations(cards, legal.max_count)])
        elif name == "draw":
            ks = range(legal.min_count, legal.max_count + 1)
            for k in ks:
                options: list[object] = [Draw(t) for t in permutations(cards, k)]
                for a in options:
                    out[a] = out.get(a, 0.0) + share / len(ks) / len(options)
        elif name == "wild":
            spread([PickWild(i) for i in range(legal.positions)])
        elif name == "stack":
            spread([Stack(t) for t in permutations(cards)])
        elif name == "declare":
            spread([Declare(side) for side in legal.sides])
        elif name == "run_twice":
            spread([RunTwice(True), RunTwice(False)])
        else:
            raise ValueError(f"the random bot does not know the action {name!r}")
    return out


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

    def policy(self, view: HandView) -> dict[object, float]:
        """The probability of each legal action (:func:`random_policy`), the
        distribution :meth:`act` samples from (``act`` keeps its own draws, so
        seeded games play as before).

        Raises:
            ValueError: if the view offers no legal options.
        """
        if view.legal is None or not view.legal.actions:
            raise ValueError("the random bot was asked for a policy with no legal options")
        return random_policy(view.legal)


register_level("random", RandomBot)

