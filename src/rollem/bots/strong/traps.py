"""Trap lines: how much an opponent slow-plays, and where that leaves its ranges
(issue 31, twelfth pass).

A player who checks its strong hands to check-raise (a *trapper*) has two kinds
of line, and their ranges differ in shape, not only in strength:

- after its **check** the range is *uncapped*: it still holds the strong hands
  it slow-played, so a thin bet into it is called by better and raised by the
  best more often than the bet rate says, and a free card is cheap to take;
- its **bets and raises without a check first** in the hand come from a range
  that has *lost* its strongest hands (they were slow-played), so they are
  thinner than the bet rate says: call them down and raise them lighter.

:func:`trap_index` turns what the bot has seen of one opponent (its
check-raises over the spots it faced a bet after checking,
:class:`rollem.bots.strong.reads.Tendencies`) into a number in 0..1: 0 for a
player check-raising no more than :data:`TRAP_BASE` (about the rate ``strong``
itself shows) or than the bot itself in the same session
(:attr:`rollem.bots.strong.reads.OpponentBook.own`), and for one not seen
enough (shrunk toward :data:`TRAP_BASE` by :data:`TRAP_PRIOR` spots' worth);
1 for one at :data:`TRAP_FULL` above that or more.
:class:`rollem.bots.strong.StrongBot` moves its thresholds by it heads-up
(``trap_call``, ``trap_raise``; ``trap_thin``, off by default), so against a
player with no check-raises seen it plays exactly as before.

Measured (``docs/dev/league.md``, twelfth pass): the lighter calls and raises
are level with the code before them against ``strongtrap`` and ``trapper``,
so ``trap_lines`` is off by default (kept for a later pass); the thin bets'
margin lost chips to ``trapper`` (which calls its weak hands like ``basic``:
thin bets into its checks are value bets) and leaned behind against
``strongtrap``, so it is off.

Everything here reads the events of a view (``{"kind", "seat", ...}`` dicts,
a ``"round"`` event opening each betting round); nothing touches a hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rollem.bots.strong.reads import Tendencies

__all__ = ["TRAP_BASE", "TRAP_FULL", "TRAP_PRIOR", "checked_in_hand", "checked_this_round",
           "ended_index", "shrunk_rate", "trap_index"]

TRAP_BASE = 0.03
"""The check-raise rate (raises over the spots facing a bet after checking in the
round) of a player read as no trapper: ``strong`` itself showed 0.022 over 1,000
Stop, Drop and Roll hands heads-up (2 of 92), ``basic``, ``tag`` and ``value``
none; ``strongtrap`` 0.107 (8 of 75), ``trapper`` 0.131 (18 of 137 in 300)."""

TRAP_FULL = 0.20
"""The check-raise rate read as a full trapper (index 1)."""

TRAP_PRIOR = 15.0
"""How many spots' worth :data:`TRAP_BASE` weighs in the shrunk rate: a match's
first few check-raises move the index little (``strongtrap`` shows about 19
spots in 250 hands)."""


def shrunk_rate(t: Tendencies) -> float:
    """``t``'s check-raise rate shrunk toward :data:`TRAP_BASE`: ``(check_raises +
    TRAP_PRIOR * TRAP_BASE) / (faced_after_check + TRAP_PRIOR)``."""
    return (t.check_raises + TRAP_PRIOR * TRAP_BASE) / (t.faced_after_check + TRAP_PRIOR)


def trap_index(t: Tendencies, own: Tendencies | None = None) -> float:
    """How much a player traps, 0..1 (see the module doc): its shrunk check-raise
    rate (:func:`shrunk_rate`) above the greater of :data:`TRAP_BASE` and
    ``own``'s (the bot's own counts in the same session, shrunk alike), over
    :data:`TRAP_FULL` less :data:`TRAP_BASE`, clipped. 0 for a player never seen
    to check-raise, and for one check-raising no more than the bot itself: its
    thresholds are tuned against play like its own, and against ``strong``'s
    own policy trapping more (``strongtrap``) only the player trapping more
    moves (with ``TRAP_BASE`` alone, ``strongtrap``'s inner ``strong`` read
    ``strong``'s own check-raises of a match as trapping, index up to 0.78
    in 250 hands, and moved too)."""
    base = TRAP_BASE if own is None else max(TRAP_BASE, shrunk_rate(own))
    return min(1.0, max(0.0, (shrunk_rate(t) - base) / (TRAP_FULL - TRAP_BASE)))


def ended_index(t: Tendencies, own: Tendencies) -> float:
    """:func:`trap_index` of the counts taken at the hands' ends
    (:attr:`rollem.bots.strong.reads.Tendencies.ended_after_check`,
    :attr:`rollem.bots.strong.reads.Tendencies.ended_check_raises`), the
    player's ``t`` against the bot's ``own``: both counted alike from every
    hand's whole events (``trap_reads``, issue 31, sixteenth pass)."""
    from rollem.bots.strong.reads import Tendencies

    return trap_index(
        Tendencies(faced_after_check=t.ended_after_check, check_raises=t.ended_check_raises),
        Tendencies(faced_after_check=own.ended_after_check, check_raises=own.ended_check_raises))


def checked_this_round(events: Sequence[Mapping[str, Any]], seat: int) -> bool:
    """Whether ``seat`` checked in the current betting round (the events after the
    last ``"round"`` event)."""
    for e in reversed(events):
        kind = e.get("kind")
        if kind == "round":
            return False
        if kind == "check" and e.get("seat") == seat:
            return True
    return False


def checked_in_hand(events: Sequence[Mapping[str, Any]], seat: int) -> bool:
    """Whether ``seat`` checked anywhere in the hand so far (any betting round)."""
    return any(e.get("kind") == "check" and e.get("seat") == seat for e in events)
