"""The hands a player sat out, for their own copies (docs/verify.md).

Each hand the web table deals records, under its commitment, who the deal was
for (``_seated``, :class:`~rollem.engine.commit_reveal.DealProof`); those
dealt in are the ones with a client seed.  A player's own copy of a hand then
carries ``_sat_out``: the records of the hands dealt since that player's
previous hand (:meth:`DealProof.sat_out_header` each), so that ``rollem
verify`` on the player's copies alone can tell a hand they sat out from one
left out of their copies: the records chain from their previous hand's hash
to this hand's ``_prev_hash``, and none names them dealt in.

What a record shows was public at the table when that hand was dealt (who
played, the commitment, the client seeds); it goes only into the copy of a
finished hand, to a player dealt into it, and only of hands before it, so it
tells a delayed watcher nothing (it is in no view or feed).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from rollem.engine.commit_reveal import SAT_OUT_MAX, DealProof

if TYPE_CHECKING:
    from rollem.server.app_context import FinishedHand

__all__ = ["sat_out_hands", "sat_out_records", "sat_out_setups"]


def sat_out_hands(hands: Sequence[FinishedHand], hand_no: int, name: str) -> range | None:
    """The hands player ``name`` sat out between their previous hand and hand
    ``hand_no`` (``hands``: the table's finished hands, in order): a range, empty
    when they played the hand before too; ``None`` when it cannot be recorded
    (no earlier hand of theirs, a hand stored without its players' names, or
    more than :data:`~rollem.engine.commit_reveal.SAT_OUT_MAX` hands between).
    The hands before ``hand_no`` are found by bisection (s60-safe: walked from
    the last hand, the whole-session download of a player's 500 early hands at a
    table of 20,000 took 0.85 s of the event loop)."""
    start = bisect_left(hands, hand_no, key=lambda hand: hand.hand_no)
    for k in range(start - 1, -1, -1):
        hand = hands[k]
        if hand_no - hand.hand_no - 1 > SAT_OUT_MAX or hand.names is None:
            return None
        if any(s < len(hand.names) and hand.names[s] == name for s in hand.seats):
            return range(hand.hand_no + 1, hand_no)
    return None


def sat_out_records(numbers: range | None, setup_of: Callable[[int], dict[str, Any] | None]
                    ) -> list[dict[str, Any]] | None:
    """The ``_sat_out`` records of the hands ``numbers`` (:func:`sat_out_hands`),
    each from its stored setup (``setup_of(hand_no)``; its ``proof``, the key
    never leaves it): ``None`` when a hand has no stored proof recording who it
    was dealt to (dealt before the record was kept), or ``numbers`` is ``None``."""
    if numbers is None:
        return None
    out = []
    for n in numbers:
        setup = setup_of(n)
        if setup is None or "proof" not in setup:
            return None
        proof = DealProof.from_json(setup["proof"])
        if not proof.seated or proof.hand_no != n:
            return None
        out.append(proof.sat_out_header())
    return out


def sat_out_setups(hands: Sequence[FinishedHand], hand_no: int, name: str,
                   load_setup: Callable[[int], dict[str, Any] | None]
                   ) -> tuple[range | None, dict[int, dict[str, Any]]]:
    """What :func:`sat_out_records` needs for ``name``'s copy of hand ``hand_no``:
    the hands they sat out before it (:func:`sat_out_hands`) and those hands'
    stored setups (``load_setup``: a store read, done where the store may be
    read; the records are built from them elsewhere, off the event loop)."""
    numbers = sat_out_hands(hands, hand_no, name)
    setups: dict[int, dict[str, Any]] = {}
    for n in numbers or ():
        setup = load_setup(n)
        if setup is None:
            return None, {}
        setups[n] = setup
    return numbers, setups
