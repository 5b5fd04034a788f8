"""One fixed integer action space for every rollem game (issue 30).

The same ids mean the same thing in every game; a decision offers the subset
that its :class:`~rollem.engine.decisions.Legal` allows (an action mask).

========  =====================================================================
id        action
========  =====================================================================
0         fold (R-C-6: allowed even when a check is free)
1         check, or call (a short stack calls all-in for less; at a stud
          bring-in, posting the bring-in)
2         bet or raise the least allowed (fixed limit: the one size allowed;
          at a bring-in: complete)
3         bet or raise half the pot: to ``own bet + call + (pot + call) / 2``
4         bet or raise the pot: to ``own bet + call + (pot + call)``
5         bet or raise all in (the most allowed: in pot limit, the pot)
6..261    a subset of the seat's offered cards (``Legal.cards``, in that
          order): id ``6 + mask``, bit ``i`` of ``mask`` = card ``i``; used by
          discard to the pool (the cards put in), expose (one bit), draw (the
          cards thrown, 0 = stand pat); at most 8 cards
262..381  a stack order (R-521-6): id ``262 + k``, ``k`` the index of the
          permutation of the offered cards' positions in lexicographic order
          (``itertools.permutations(range(5))``; 0 = as held)
382..433  wild pick (R-RYO-7): id ``382 + position`` in the pool (0 = top)
434..436  declare high, low, both (R-521-8)
========  =====================================================================

Bet sizes 3 and 4 are clamped into ``Legal.min_to .. max_to`` (chips are whole
numbers, fractions rounded down); when two ids give the same amount only the
lowest is offered, so distinct legal ids are distinct actions. Run it twice
(issue 27) and showing by choice after the hand (R-C-11) are not offered:
games are played with ``run_twice`` off and end at the result.
"""

from __future__ import annotations

import operator
from itertools import permutations

import numpy as np

from rollem.cards import CARDS, format_cards
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
    Stack,
)
from rollem.engine.errors import EngineError
from rollem.engine.hand import Hand

__all__ = [
    "BET_ALL_IN",
    "BET_HALF_POT",
    "BET_MIN",
    "BET_POT",
    "CALL",
    "DECLARE",
    "FOLD",
    "NUM_ACTIONS",
    "SIDES",
    "STACK",
    "STACK_ORDERS",
    "SUBSET",
    "SUBSET_CARDS",
    "WILD",
    "WILD_POSITIONS",
    "action_id",
    "action_name",
    "agent_action",
    "legal_moves",
]

FOLD = 0
CALL = 1
BET_MIN = 2
BET_HALF_POT = 3
BET_POT = 4
BET_ALL_IN = 5
SUBSET = 6
SUBSET_CARDS = 8
STACK = SUBSET + (1 << SUBSET_CARDS)
STACK_ORDERS = 120
WILD = STACK + STACK_ORDERS
WILD_POSITIONS = 52
DECLARE = WILD + WILD_POSITIONS
SIDES = ("high", "low", "both")
NUM_ACTIONS = DECLARE + len(SIDES)

_ORDERS = {n: list(permutations(range(n))) for n in range(1, 6)}
_BET_NAMES = {BET_MIN: "min", BET_HALF_POT: "half pot", BET_POT: "pot", BET_ALL_IN: "all in"}


def legal_moves(hand: Hand, seat: int) -> dict[int, object]:
    """The legal action ids of ``seat`` now, each with the engine action it
    stands for, in increasing id order (empty when ``seat`` is not asked).

    Raises:
        EngineError: a decision this action space cannot express (more than
            8 cards to choose among, a stack of more than 5 cards, another
            decision kind).
    """
    legal = hand.legal_actions(seat)
    names = legal.actions
    if not names or hand.result is not None:
        return {}
    out: dict[int, object] = {}
    if "fold" in names:
        out[FOLD] = Fold()
    if "check" in names:
        out[CALL] = Check()
    elif "call" in names:
        out[CALL] = Call()
    if "bet" in names or "raise" in names:
        make = Bet if "bet" in names else Raise
        lo, hi = legal.min_to, legal.max_to
        base = hand.bets[seat] + legal.call_amount
        pot = sum(hand.committed) + hand.carry_in + legal.call_amount
        seen: set[int] = set()
        for i, to in ((BET_MIN, lo), (BET_HALF_POT, base + pot // 2), (BET_POT, base + pot),
                      (BET_ALL_IN, hi)):
            to = min(max(to, lo), hi)
            if to not in seen:
                seen.add(to)
                out[i] = make(to)
    cards = legal.cards
    if names[0] in ("discard", "expose", "draw"):
        if len(cards) > SUBSET_CARDS:
            raise EngineError(f"a {names[0]} among {len(cards)} cards: the action space "
                              f"covers at most {SUBSET_CARDS}")
        for mask in range(1 << len(cards)):
            chosen = tuple(CARDS[c] for i, c in enumerate(cards) if mask >> i & 1)
            if legal.min_count <= len(chosen) <= legal.max_count:
                kind = names[0]
                out[SUBSET + mask] = (Discard(chosen) if kind == "discard" else
                                      Expose(chosen[0]) if kind == "expose" else Draw(chosen))
    elif names[0] == "stack":
        orders = _ORDERS.get(len(cards))
        if orders is None:
            raise EngineError(f"a stack of {len(cards)} cards: the action space covers 1 to 5")
        for k, order in enumerate(orders):
            out[STACK + k] = Stack(tuple(CARDS[cards[i]] for i in order))
    elif names[0] == "wild":
        for p in range(min(legal.positions, WILD_POSITIONS)):
            out[WILD + p] = PickWild(p)
    elif names[0] == "declare":
        for side in legal.sides:
            out[DECLARE + SIDES.index(side)] = Declare(side)
    elif not out:
        raise EngineError(f"decision {legal.kind!r} ({', '.join(names)}) has no action ids")
    return dict(sorted(out.items()))


def action_name(action: int, engine_action: object | None = None) -> str:
    """Text of action id ``action`` (with the engine action's amount or cards
    when given), e.g. ``"raise pot (to 12)"``, ``"draw 5c Kd"``."""
    a = engine_action
    if action == FOLD:
        return "fold"
    if action == CALL:
        return "check" if isinstance(a, Check) else "call"
    if BET_MIN <= action <= BET_ALL_IN:
        word = "bet" if isinstance(a, Bet) else "raise" if isinstance(a, Raise) else "bet/raise"
        to = a.amount if isinstance(a, Bet) else a.to if isinstance(a, Raise) else None
        return f"{word} {_BET_NAMES[action]}" + (f" (to {to})" if to is not None else "")
    if SUBSET <= action < STACK:
        if isinstance(a, Discard):
            return f"discard {format_cards(a.cards)}"
        if isinstance(a, Expose):
            return f"expose {CARDS[a.card]}"
        if isinstance(a, Draw):
            return f"draw {format_cards(a.cards)}" if a.cards else "stand pat"
        return f"cards {action - SUBSET:08b}"
    if STACK <= action < WILD:
        return f"stack {format_cards(a.order)}" if isinstance(a, Stack) else \
            f"stack order {action - STACK}"
    if WILD <= action < DECLARE:
        return f"wild position {action - WILD}"
    if DECLARE <= action < NUM_ACTIONS:
        return f"declare {SIDES[action - DECLARE]}"
    raise ValueError(f"action id {action} out of range: 0..{NUM_ACTIONS - 1}")


def action_id(legal: dict[int, object], action: object) -> int:
    """The id in ``legal`` (:func:`legal_moves`) standing for engine ``action``.

    A bet or raise to an amount the action space has no id for (pot and no
    limit) maps to the legal bet size nearest in chips (the lower on a tie).

    Raises:
        ValueError: ``action`` is none of the legal actions.
    """
    for i, a in legal.items():
        if a == action:
            return i
    if isinstance(action, Check | Call) and CALL in legal:
        return CALL
    if isinstance(action, Bet | Raise):
        amount = action.amount if isinstance(action, Bet) else action.to
        sizes = [(abs((a.amount if isinstance(a, Bet) else a.to) - amount), i)
                 for i, a in legal.items() if type(a) is type(action)
                 and isinstance(a, Bet | Raise)]
        if sizes:
            return min(sizes)[1]
    if isinstance(action, Stack | Discard | Draw):
        # the same cards in another order: a discard or draw is a set
        cards = action.order if isinstance(action, Stack) else action.cards
        for i, a in legal.items():
            if type(a) is type(action) and not isinstance(a, Stack) \
                    and sorted(a.cards) == sorted(cards):
                return i
    raise ValueError(f"{action!r} is not among the legal actions {list(legal.values())}")


def agent_action(action: object) -> int:
    """An action id as an agent gives it to an environment's ``step``: a whole
    number from 0 to ``NUM_ACTIONS - 1`` (an ``int``, a NumPy integer, a 0-d
    integer array), never rounded or parsed.

    Raises:
        ValueError: a float, text, a bool or any other type, or a number outside
            the action space, naming it and the ids allowed.
    """
    try:
        if isinstance(action, bool | np.bool_):
            raise TypeError
        move = operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"an action id is a whole number 0..{NUM_ACTIONS - 1} (int), got "
                         f"{action!r} ({type(action).__name__})") from None
    if not 0 <= move < NUM_ACTIONS:
        raise ValueError(f"action id {move} is outside the action space 0..{NUM_ACTIONS - 1}")
    return move
