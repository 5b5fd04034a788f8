"""Helpers for the bot tests and ``bench/bench_bots.py --legality``: play seeded
sessions where every action must be legal and every view the seat's own."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

from rollem.bots import Bot, make_bot
from rollem.bots.basic import BasicBot
from rollem.bots.strong import StrongBot
from rollem.engine import Hand, HandView, SeededSource
from rollem.engine.options import Options
from rollem.odds import Odds
from rollem.table import Table

GAMES = ("sdr", "rollyourown", "rollem521")
MAX_PLAYERS = {"sdr": 10, "rollyourown": 8, "rollem521": 10}
DECISIONS = {
    "sdr": {"bet"},
    "rollyourown": {"bet", "discard", "expose", "wild"},
    "rollem521": {"bet", "draw", "stack", "declare"},
}


def check_view(view: HandView, seat: int) -> None:
    """The view a bot gets hides what its seat may not know."""
    assert type(view) is HandView and view.seat == seat
    for s in view.seats:
        if s.seat != seat:
            assert all(c is None for c, up in zip(s.cards, s.up, strict=True) if not up)
    assert view.legal is not None and view.legal.actions


def _action_name(action: object) -> str:
    names = {"Fold": "fold", "Check": "check", "Call": "call", "Bet": "bet", "Raise": "raise",
             "Discard": "discard", "Expose": "expose", "Draw": "draw", "PickWild": "wild",
             "Stack": "stack", "Declare": "declare"}
    return names[type(action).__name__]


def play_checked(game: str, hands: int, bots: Sequence[Bot], seed: int,
                 stacks: Sequence[int] | None = None,
                 options: Options | None = None) -> Counter[tuple[int, str]]:
    """Play ``hands`` hands (stacks default 200, a broke seat buys back its stack);
    every bot acts from ``hand.view(seat)`` only and every action must be legal
    (the engine raises IllegalAction otherwise). Returns how often each seat made
    each kind of decision."""
    rng = random.Random(seed)
    stacks = list(stacks) if stacks is not None else [200] * len(bots)
    table = Table(stacks, game=game, rng=rng, rebuy=max(stacks), options=options)
    seen: Counter[tuple[int, str]] = Counter()
    for _ in range(hands):
        hand = table.new_hand()
        while not hand.is_over:
            pending = hand.pending
            assert pending is not None
            seat = pending.seats[0]
            view = hand.view(seat)
            check_view(view, seat)
            action = bots[seat].act(view)
            assert view.legal is not None
            assert _action_name(action) in view.legal.actions
            hand.apply(seat, action)
            seen[seat, view.legal.kind] += 1
        table.end_hand()
    assert table.chips == sum(table.brought)
    return seen


def fast_odds(rng: random.Random) -> Callable[[HandView], Odds]:
    """A stand-in for the odds calculator: a random strength and declaration, so that
    many hands stay quick and every branch of the basic bot (bet, raise, call,
    check, fold, every declaration) comes up. It receives the same view only."""
    def odds(view: HandView) -> Odds:
        check_view(view, view.seat if view.seat is not None else -1)
        e = rng.random()
        return Odds(win=e, tie=0.0, lose=1 - e, equity=e, method="stub", samples=0,
                    stderr=0.0, game=view.game, best_declare=rng.choice(("high", "low", "both")))
    return odds


LEVELS = ("random", "basic", "strong")


def level_bot(level: str, seed: int) -> Bot:
    """A bot of ``level`` for legality runs: ``basic`` with the quick stand-in
    strength (:func:`fast_odds`), ``strong`` with few samples (the same code
    paths as its full settings, quicker)."""
    rng = random.Random(seed)
    if level == "basic":
        return BasicBot(rng, odds=fast_odds(random.Random(seed + 1)))
    if level == "strong":
        return StrongBot(rng, samples=16, worlds=2)
    return make_bot(level, rng)


def basic_hand(game: str, players: int, seed: int, stack: int = 60) -> Hand:
    """A seeded hand of ``game`` played to its end by ``basic`` bots (seat k
    seeded ``seed * 10 + k``), the button at ``seed % players``."""
    hand = Hand(game, [stack] * players, button=seed % players, source=SeededSource(seed))
    bots = [level_bot("basic", seed * 10 + s) for s in range(players)]
    while not hand.is_over:
        assert hand.pending is not None
        s = hand.pending.seats[0]
        hand.apply(s, bots[s].act(hand.view(s)))
    return hand
