"""The chips a bet gains over a check, heads-up, over the sampled worlds.

The ``strong`` level bets by expected value against the opponent's weighted
range (issue 20). Everything here is a pure function of arrays with one entry
per sampled world, so the arithmetic can be checked by hand in tests.

Chips are whole numbers in the game; the expected values are floats.
"""

from __future__ import annotations

import numpy as np

Floats = np.ndarray


def bet_gain(pot: int, bet: int, share: Floats, calls: Floats, weights: Floats,
             raises: Floats | None = None, raise_to: int = 0) -> float:
    """Free to check: the chips a bet of ``bet`` gains over a check.

    Per world the opponent folds (the seat wins ``pot``), calls (the seat plays
    for ``pot + 2 * bet`` at its ``share``) or raises, making the seat's total
    in this round ``raise_to``. The seat cannot tell the raising worlds apart,
    so it answers every raise one way: it folds (losing ``bet``) or calls
    (playing for ``pot + 2 * raise_to``), whichever is worth more over them.
    A check plays the pot at the seat's share (a bet after it is ignored).

    Args:
        pot: chips in the middle before the bet, every earlier round's bets in.
        bet: the seat's bet, in chips (at least 1).
        share: the seat's share of the pot at showdown, per world (0 to 1).
        calls: the chance the opponent does not fold, per world (0 to 1); the
            raises are a part of it.
        weights: the worlds' weights (summing to 1).
        raises: the chance the opponent raises, per world (at most ``calls``);
            ``None`` when it never raises (fixed limit, where a raise costs
            one more bet and the calls cover it).
        raise_to: the seat's round total after the raise it would call (chips,
            above ``bet``); used only with ``raises``.

    Returns:
        The expected chips of betting minus those of checking.

    Raises:
        ValueError: ``bet`` below 1, or ``raises`` given with ``raise_to`` not
            above ``bet``.
    """
    if bet < 1:
        raise ValueError(f"bet must be at least 1 chip, got {bet}")
    flat = calls if raises is None else calls - raises
    gain = (1 - calls) * pot + flat * (share * (pot + 2 * bet) - bet) - share * pot
    total = float((gain * weights).sum())
    if raises is None:
        return total
    if raise_to <= bet:
        raise ValueError(f"raise_to must be above the bet ({bet} chips), got {raise_to}")
    raised = raises * weights
    fold = float((-bet * raised).sum())
    call = float(((share * (pot + 2 * raise_to) - raise_to) * raised).sum())
    return total + max(fold, call)


def pot_raise_to(pot: int, bet: int, behind: int) -> int:
    """A pot or no-limit raise as the opponent models make it: about two thirds
    of the pot after the bet and the call, over the bet (so at least one more
    ``bet``), capped at ``behind``, the chips the smaller stack had before the
    bet. Chips, the seat's round total to call."""
    return min(behind, bet + (2 * (pot + 2 * bet)) // 3)


def check_gain(pot: int, bet: int, share: Floats, bets: Floats, weights: Floats,
               continues: Floats, *, check_raise: bool = True) -> float:
    """Fixed limit, free to check first to act: the chips a check gains over the
    check :func:`bet_gain` prices (the pot played at the seat's ``share``, a bet
    after it ignored), from the opponent's bets into it.

    Per world the opponent bets ``bet`` into the check with chance ``bets``
    (else checks behind: the pot at ``share``, as priced). The seat cannot tell
    the betting worlds apart, so it answers every bet one way, whichever is
    worth most over them: a fold (it gives up ``share * pot``), a call (it
    plays for ``pot + 2 * bet``) or a check-raise to two bets, which the
    opponent calls with chance ``continues`` (the seat plays for ``pot + 4 *
    bet``; re-raises ignored) or folds (the seat wins ``pot + bet``). Every
    answer's value is counted less ``share * pot``, so :func:`bet_gain` less this
    is the bet's gain over the check with the bets into it priced (issue 31,
    twenty-first pass).

    Args:
        pot: chips in the middle before the round's bets, every earlier round's in.
        bet: the round's bet, in chips (at least 1).
        share: the seat's share of the pot at showdown, per world (0 to 1).
        bets: the chance the opponent bets into the check, per world (0 to 1).
        weights: the worlds' weights (summing to 1).
        continues: the chance the opponent calls the check-raise, per world (0 to 1).
        check_raise: whether the seat would raise the bet (its own raise rule);
            False: it answers by a fold or a call only.

    Returns:
        Chips: the best answer's worth over the betting worlds, weighted (it may
        be below 0: a fold to bets from better hands gives up the share of the
        pot a check behind would have won).

    Raises:
        ValueError: ``bet`` below 1.
    """
    if bet < 1:
        raise ValueError(f"bet must be at least 1 chip, got {bet}")
    faced = bets * weights
    fold = float((-share * pot * faced).sum())
    call = float(((2 * share - 1) * bet * faced).sum())
    raise_ = float(((continues * (4 * share - 2) * bet
                     + (1 - continues) * (pot + bet - share * pot)) * faced).sum())
    return max(fold, call, raise_) if check_raise else max(fold, call)


def multi_bet_gain(pot: int, bet: int, share: Floats, callers_share: Floats,
                   calls: Floats, weights: Floats) -> float:
    """Free to check with two or more opponents in, fixed limit: the chips a bet
    of ``bet`` gains over a check, each opponent folding on its own (issue 31,
    twenty-second pass: ``strong`` checked every multiway hand below its value
    threshold, and bets there gained chips in forks).

    Per world every opponent ``i`` continues with chance ``calls[:, i]``, on its
    own, so all fold with chance ``prod(1 - calls)`` (the seat wins ``pot``) and
    ``sum(calls)`` of them call on average; when any calls the seat plays for
    ``pot + bet`` plus ``bet`` a caller at ``callers_share`` (its share against
    the callers). Raises are ignored (fixed limit: one more bet, as
    :func:`bet_gain`). A check plays the pot at ``share`` (a bet after it
    ignored). With one opponent this is :func:`bet_gain` without raises.

    Args:
        pot: chips in the middle before the bet, every earlier round's bets in.
        bet: the seat's bet, in chips (at least 1).
        share: the seat's share of the pot at showdown against every opponent
            in, per world, shape ``(S,)`` (0 to 1).
        callers_share: its share against the opponents who call, per world,
            shape ``(S,)`` (0 to 1).
        calls: the chance each opponent does not fold, shape ``(S, k)`` (0 to 1).
        weights: the worlds' weights, shape ``(S,)`` (summing to 1).

    Returns:
        The expected chips of betting minus those of checking.

    Raises:
        ValueError: ``bet`` below 1.
    """
    if bet < 1:
        raise ValueError(f"bet must be at least 1 chip, got {bet}")
    all_fold = np.prod(1 - calls, axis=1)
    callers = calls.sum(axis=1)
    gain = (all_fold * pot + (1 - all_fold) * (callers_share * (pot + bet) - bet)
            + callers_share * bet * callers - share * pot)
    return float((gain * weights).sum())
