"""Observation and information-state tensors and strings (issue 30).

Everything here is what seat ``p`` may see (R-C-13: never another seat's
face-down card, the stub, the pool's order, another seat's hidden choice).
Cards are planes of 52 numbers indexed by card (``rank * 4 + suit``,
:data:`rollem.cards.CARDS`: ``0`` = ``2c``, ``51`` = ``As``); chips are
plain numbers of chips (not scaled). ``N`` = the number of seats.

Observation tensor (:func:`observation_size`), in order:

==============  ========  =================================================
part            size      content
==============  ========  =================================================
seat            N         one-hot of ``p``
own down        52        ``p``'s face-down cards
up (per seat)   N x 52    every seat's face-up cards, seat 0 first
board           52        community cards
dead            52        dead cards (the Stop, the Drop, a picked wild card)
own gone        52        cards ``p`` put in the pool or threw in a draw
wild            13        wild rank (one-hot, deuce first)
stacks          N         chips behind, per seat
committed       N         chips put in this hand, per seat
bets            N         this betting round's bets, per seat
folded          N         1 for a seat that folded
to act          N         1 for the seat to decide
decision        8         one-hot: bet, discard, expose, draw, wild, stack,
                          declare, other (all 0 at the end)
counts          2         cards left in the stub, cards in the pool
==============  ========  =================================================

Information-state tensor: the observation tensor, then the public betting
history, :data:`HISTORY_SLOTS` slots of ``N + 13`` numbers, one per
betting action in order (later ones beyond the last slot are left out):
seat one-hot (N), fold/check/call/bet-or-raise one-hot (4), the amount
(the round total a bet or raise goes to, else 0), the betting round's
index one-hot (8). With the own-gone plane, the seat's own choices are in
its cards; so this tensor recalls what the seat did and saw, except the
order of its own earlier stack (the string below recalls everything).

The information-state string is the seat's whole event log (its view's
events, :mod:`rollem.engine.views`): perfect recall. The observation string
is the seat's view of the table now.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from rollem.cards import CARDS, format_cards
from rollem.engine.actions import Bet, Call, Check, Fold, Raise
from rollem.engine.draw import draw_state
from rollem.engine.events import event_to_dict
from rollem.engine.hand import Hand

__all__ = [
    "DECISIONS",
    "HISTORY_SLOTS",
    "information_state_size",
    "information_state_string",
    "observation_size",
    "observation_string",
    "write_information_state",
    "write_observation",
]

DECISIONS = ("bet", "discard", "expose", "draw", "wild", "stack", "declare")
HISTORY_SLOTS = 48
_ROUNDS = 8


def observation_size(n: int) -> int:
    """Length of the observation tensor with ``n`` seats."""
    return n + 52 * (4 + n) + 13 + 5 * n + len(DECISIONS) + 1 + 2


def information_state_size(n: int, slots: int = HISTORY_SLOTS) -> int:
    """Length of the information-state tensor with ``n`` seats and ``slots``
    betting-history slots."""
    return observation_size(n) + slots * (n + 4 + 1 + _ROUNDS)


def write_observation(hand: Hand, p: int, out: npt.NDArray[np.float32]) -> None:
    """Fill ``out`` (zeros, length :func:`observation_size`) with ``p``'s observation."""
    n = hand.n
    ones = [p]  # indices set to 1, written at once
    i = n
    ones.extend(i + c for c, u in zip(hand.hole[p], hand.up[p], strict=True) if not u)
    i += 52
    for s in range(n):  # a folded seat's too: everyone saw them (the state recalls them)
        ones.extend(i + c for c, u in zip(hand.hole[s], hand.up[s], strict=True) if u)
        i += 52
    for cards in (hand.board, hand.dead):
        ones.extend(i + c for c in cards)
        i += 52
    ones.extend(i + c for c in hand.pool_by_seat.get(p, ()))
    if "discards" in hand.extra:
        ones.extend(i + c for c in draw_state(hand)["discards"].get(p, ()))
    i += 52
    ones.extend(i + r for r in hand.wild_ranks)
    i += 13
    chips = i
    i += 3 * n
    ones.extend(i + s for s, f in enumerate(hand.folded) if f and hand.dealt[s])
    i += n
    pending = hand.pending
    if pending is not None:
        ones.append(i + pending.seats[0])
    i += n
    if pending is not None:
        kind = pending.kind
        ones.append(i + (DECISIONS.index(kind) if kind in DECISIONS else len(DECISIONS)))
    i += len(DECISIONS) + 1
    out[ones] = 1.0
    out[chips:chips + 3 * n] = hand.stacks + hand.committed + hand.bets
    out[i] = hand.stub_left
    out[i + 1] = len(hand.pool)


def write_information_state(hand: Hand, p: int, out: npt.NDArray[np.float32],
                            slots: int = HISTORY_SLOTS) -> None:
    """Fill ``out`` (zeros, length ``information_state_size(n, slots)``) with ``p``'s
    information state: the betting actions after the first ``slots`` are left out."""
    n = hand.n
    write_observation(hand, p, out)
    i = observation_size(n)
    width = n + 4 + 1 + _ROUNDS
    slot = 0
    rounds = [k for k, e in enumerate(hand.events) if e.kind == "round"]
    marks = hand.action_marks
    for k, (seat, action) in enumerate(hand.actions):
        kind = (0 if isinstance(action, Fold) else 1 if isinstance(action, Check) else
                2 if isinstance(action, Call) else 3 if isinstance(action, Bet | Raise) else -1)
        if kind < 0 or slot >= slots:
            continue
        round_index = sum(1 for r in rounds if r < marks[k]) - 1
        base = i + slot * width
        out[base + seat] = 1.0
        out[base + n + kind] = 1.0
        if isinstance(action, Bet):
            out[base + n + 4] = action.amount
        elif isinstance(action, Raise):
            out[base + n + 4] = action.to
        out[base + n + 5 + min(max(round_index, 0), _ROUNDS - 1)] = 1.0
        slot += 1


def information_state_string(hand: Hand, p: int) -> str:
    """``p``'s whole event log as it saw it, one event a line (perfect recall)."""
    lines = [f"seat {p}"]
    for e in hand.events:
        d = event_to_dict(e, p)
        if d is not None:
            lines.append(" ".join(f"{k}={v}" for k, v in d.items() if v is not None))
    return "\n".join(lines)


def observation_string(hand: Hand, p: int | None) -> str:
    """``p``'s view of the table now (no history; ``None``: a spectator's)."""
    view = hand.view(p, events=False)
    parts = ["spectator" if p is None else f"seat {p}"]
    for s in view.seats:
        cards = " ".join(c if c is not None else "??" for c in s.cards)
        flags = (" folded" if s.folded else "") + (" all-in" if s.all_in else "")
        parts.append(f"s{s.seat}[{cards}] stack {s.stack} bet {s.bet}{flags}")
    parts.append(f"board [{' '.join(view.board)}] dead [{' '.join(view.dead)}]")
    if view.wild_ranks:
        parts.append("wild " + " ".join(view.wild_ranks))
    if view.my_pool:
        parts.append("my pool [" + " ".join(view.my_pool) + "]")
    parts.append(f"pot {view.pot}")
    if view.pending is not None:
        parts.append(f"{view.pending} to {','.join(str(s) for s in view.to_act)}")
    elif view.result is not None:
        parts.append("over " + " ".join(f"{s}:{v:+d}" for s, v in
                                        sorted(view.result["net"].items())))
    if "discards" in hand.extra and p is not None:
        mine = draw_state(hand)["discards"].get(p, ())
        if mine:
            parts.append(f"threw [{format_cards(CARDS[c] for c in mine)}]")
    return " | ".join(parts)
