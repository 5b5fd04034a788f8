"""The hand engine: one interpreter that runs any game given as a list of steps.

See ``docs/dev/engine.md``. Main names:

- :class:`Hand` (``pending``, ``legal_actions``, ``apply``, ``is_over``,
  ``result``, ``view``), :class:`Options`;
- actions: :class:`Fold`, :class:`Check`, :class:`Call`, :class:`Bet`,
  :class:`Raise`, :class:`Discard`, :class:`Expose`, :class:`Draw`,
  :class:`PickWild`, :class:`Stack`, :class:`Declare`, :class:`RunTwice`,
  :class:`Show` (after the hand, R-C-11);
- :class:`IllegalAction`, :class:`EngineError`;
- random sources: :class:`SecureSource`, :class:`SeededSource`, :class:`ReplaySource`;
- steps: :class:`Step`, :class:`AllAtOnceStep`, :class:`BettingRound`,
  :class:`Ante`, :class:`DealHole`, :class:`Burn`, :class:`TurnDead`,
  :class:`DealBoard`, :class:`Showdown`, :class:`ExposeOne`; Roll Your
  Own's :class:`DiscardToPool`, :class:`DrawFromPool`,
  :class:`PickWildFromPool`; 5-2-1's
  :class:`DrawFromStub`, :class:`StackOrder`, :class:`RollUp`,
  :class:`DeclareSides`, :class:`DeclareShowdown` (:func:`settle_pot`).

A hand of Stop, Drop and Roll, two seats with 200 chips each, seeded deal
(amounts are the seat's total bet in the round; an illegal action raises
:class:`IllegalAction` and changes nothing):

>>> from rollem.engine import Hand, SeededSource, Bet, Call, Check, IllegalAction
>>> hand = Hand("sdr", [200, 200], button=1, source=SeededSource(7))
>>> hand.pending
Pending(kind='bet', seats=(0,), simultaneous=False)
>>> hand.legal_actions(0).actions  # fold is allowed even when a check is free (R-C-6)
('fold', 'check', 'bet')
>>> [e.kind for e in hand.apply(0, Bet(2))]
['bet']
>>> try:
...     hand.apply(1, Check())
... except IllegalAction as err:
...     print(err)
seat 1 cannot do that: cannot check, there is 2 to call; allowed: fold, call 2, raise to 4
>>> while not hand.is_over:
...     seat = hand.pending.seats[0]
...     legal = hand.legal_actions(seat)
...     events = hand.apply(seat, Call() if "call" in legal.actions else Check())
>>> hand.result.net, hand.view(1).board
({0: 3, 1: -3}, ['5h', 'Ah', '6c'])
"""

from __future__ import annotations

from rollem.engine.actions import (
    Action,
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
    Show,
    Stack,
    action_from_text,
    action_to_text,
    register_action,
)
from rollem.engine.betting import (
    BettingRound,
    first_left_of_button,
    highest_showing,
    lowest_showing,
    next_left_of_previous_opener,
)
from rollem.engine.decisions import Legal, Pending
from rollem.engine.declare import DeclareShowdown, DeclareSides, PotSettlement, settle_pot
from rollem.engine.draw import DrawFromStub
from rollem.engine.errors import EngineError, IllegalAction
from rollem.engine.events import Event, event_to_dict, visible_form
from rollem.engine.hand import Hand
from rollem.engine.options import FIXED_LIMIT, NO_LIMIT, POT_LIMIT, STRUCTURES, Options
from rollem.engine.pool import DiscardToPool, DrawFromPool, PickWildFromPool
from rollem.engine.pots import build_pots, split_high_low, split_pot
from rollem.engine.randomness import RandomSource, ReplaySource, SecureSource, SeededSource
from rollem.engine.result import HandOutcome, PotResult
from rollem.engine.showdown import Showdown, decide_shows, hole_and_board, showdown_order
from rollem.engine.simultaneous import AllAtOnceStep, ExposeOne
from rollem.engine.stacking import RollUp, StackOrder
from rollem.engine.step import Step
from rollem.engine.steps import Ante, Burn, DealBoard, DealHole, TurnDead
from rollem.engine.views import HandView, SeatView, build_view

__all__ = [
    "FIXED_LIMIT",
    "NO_LIMIT",
    "POT_LIMIT",
    "STRUCTURES",
    "Action",
    "AllAtOnceStep",
    "Ante",
    "Bet",
    "BettingRound",
    "Burn",
    "Call",
    "Check",
    "DealBoard",
    "DealHole",
    "Declare",
    "DeclareShowdown",
    "DeclareSides",
    "Discard",
    "DiscardToPool",
    "Draw",
    "DrawFromPool",
    "DrawFromStub",
    "EngineError",
    "Event",
    "Expose",
    "ExposeOne",
    "Fold",
    "Hand",
    "HandOutcome",
    "HandView",
    "IllegalAction",
    "Legal",
    "Options",
    "Pending",
    "PickWild",
    "PickWildFromPool",
    "PotResult",
    "PotSettlement",
    "Raise",
    "RandomSource",
    "ReplaySource",
    "RollUp",
    "RunTwice",
    "SeatView",
    "SecureSource",
    "SeededSource",
    "Show",
    "Showdown",
    "Stack",
    "StackOrder",
    "Step",
    "TurnDead",
    "action_from_text",
    "action_to_text",
    "build_pots",
    "build_view",
    "decide_shows",
    "event_to_dict",
    "first_left_of_button",
    "highest_showing",
    "hole_and_board",
    "lowest_showing",
    "next_left_of_previous_opener",
    "register_action",
    "settle_pot",
    "showdown_order",
    "split_high_low",
    "split_pot",
    "visible_form",
]
