"""Betting rounds (R-C-5..R-C-7, R-C-14) and their openers (R-C-7, R-C-8).

:class:`BettingRound` is a step. Its state lives on the hand (so views can
show it): ``current_bet`` (highest round total), ``last_raise`` (size of the
last full bet/raise, pot-/no-limit), ``full_level`` (round total after the
last full bet/raise), ``reopen`` (count of full bets/raises), ``n_full``
(bets and raises toward the fixed-limit cap), ``acted[seat]`` (``reopen`` at
the seat's last action, -1 = not yet), ``aggressor`` (last bettor/raiser).

Rules implemented (R-C-6, the card-room all-in rule in all structures):

- The **threshold** is a full raise in pot-/no-limit (``last_raise``: the
  last full bet or raise of the round, at least the round's bet size) and
  half a bet in fixed limit.
- A bet or raise is *full* when it adds at least the threshold on its own,
  or (an all-in) when what all-ins added since the last full bet or raise
  (``to - full_level``) reaches the threshold: short all-ins add up. A full
  one reopens the betting, counts toward the fixed-limit cap and sets
  ``full_level``; in pot-/no-limit only a raise that is full on its own sets
  a new ``last_raise`` (one reached by adding up keeps it).
- A seat that has already bet, raised or called in the round may raise
  again only if what it faces (``current_bet - bets[seat]``) is at least
  the threshold; otherwise it may call or fold (:func:`may_raise_again`).
  A seat that only checked faces a new wager and may raise it.
- Fixed limit: bet/raise by exactly the round's bet size, to
  ``full_level + size`` (a short all-in is raised as if it had not been
  made); a bet and ``cap`` raises (no cap heads-up when ``cap_heads_up`` is
  off). An all-in for less is always allowed.
- Pot-/no-limit: minimum bet is the round's fixed-limit size; a raise is at
  least ``current_bet + last_raise`` (never reduced); pot limit caps a raise
  at the pot after calling.
- Folding is allowed whenever it is the seat's turn, even when it could
  check (R-C-6); ``"check" in legal.actions`` then marks a fold that gives
  up a free check (interfaces confirm it, bots never make it).
- No bet or raise when no other player still in the hand has chips beyond
  the current bet (all-in, or able only to call all-in: nobody could call
  it; as PokerKit): facing a bet, such a player may only call or fold
  (R-C-14).
- A round is skipped when at most one seat can still bet (R-C-14); the
  opener, if all-in, passes to the next seat clockwise who can bet.
- At the end of the round the uncalled part of a bet is returned (R-C-9).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rollem.engine.actions import Bet, Call, Check, Fold, Raise, action_words
from rollem.engine.decisions import Legal, Pending
from rollem.engine.errors import IllegalAction
from rollem.engine.events import Event
from rollem.engine.options import FIXED_LIMIT, POT_LIMIT
from rollem.engine.step import Step

if TYPE_CHECKING:
    from rollem.engine.hand import Hand

__all__ = [
    "BettingRound",
    "Opener",
    "first_left_of_button",
    "highest_showing",
    "lowest_showing",
    "may_raise_again",
    "next_left_of_previous_opener",
]

Opener = Callable[["Hand"], int]
"""Picks the seat that opens a betting round (it may be all-in; the round
then starts with the next seat clockwise who can bet)."""


def first_left_of_button(hand: Hand) -> int:
    """The first active player to the dealer's left (R-C-7)."""
    return hand.live_from_left()[0]


def next_left_of_previous_opener(hand: Hand) -> int:
    """The next active player to the left of the player who opened the previous
    round (R-521-3): folded seats are passed over; an all-in one passes the
    opening on to the next seat that can bet (R-C-14)."""
    if not hand.openers:
        return first_left_of_button(hand)
    prev = hand.openers[-1]
    n = hand.n
    for i in range(1, n + 1):
        s = (prev + i) % n
        if not hand.folded[s]:
            return s
    return prev


def may_raise_again(facing: int, threshold: int) -> bool:
    """May a seat that already acted in this round raise when the action
    returns to it? Only if what it faces above its own bet (``facing``
    chips) is at least the ``threshold`` (R-C-6: a full raise in pot-/no-limit,
    half a bet in fixed limit, see :meth:`BettingRound.threshold`)."""
    return facing >= threshold


def _showing(hand: Hand, seat: int) -> list[int]:
    return [c for c, u in zip(hand.hole[seat], hand.up[seat], strict=True) if u]


def _showing_key(hand: Hand, seat: int) -> tuple[int, Any]:
    """How good ``seat``'s exposed cards are, for the showing openers: a seat
    with no card face up (a game file's draw may have replaced its only up
    card) ranks below every seat showing one."""
    from rollem.hands import showing_value

    cards = _showing(hand, seat)
    return (1, showing_value(cards, hand.wild_ranks)) if cards else (0, 0)


def highest_showing(hand: Hand) -> int:
    """The best exposed (partial) hand, wild cards counted (R-C-8, R-RYO-8);
    ties go to the tied player nearest the dealer's left.  A seat showing no
    card ranks below any that shows one."""
    best_seat, best = -1, None
    for s in hand.live_from_left():
        v = _showing_key(hand, s)
        if best is None or v > best:
            best_seat, best = s, v
    return best_seat


def lowest_showing(hand: Hand) -> int:
    """The worst exposed (partial) hand (R-C-8, R-RYO-7); ties nearest the dealer's
    left.  A seat showing no card is the worst."""
    best_seat, best = -1, None
    for s in hand.live_from_left():
        v = _showing_key(hand, s)
        if best is None or v < best:
            best_seat, best = s, v
    return best_seat


class BettingRound(Step):
    """One betting round.

    Args:
        name: label (``"round 1"``).
        size: the bet size (fixed limit) or minimum bet (pot-/no-limit).
        cap: raises allowed after the bet (fixed limit), e.g. 1 or 3.
        structure: ``fixed-limit``, ``pot-limit`` or ``no-limit``.
        opener: picks the opener (default: first active left of the button).
        cap_heads_up: the cap holds when only two players remain.
    """

    def __init__(
        self,
        name: str,
        size: int,
        cap: int,
        structure: str = FIXED_LIMIT,
        opener: Opener = first_left_of_button,
        cap_heads_up: bool = True,
    ) -> None:
        self.name = name
        self.size = size
        self.max_bets = cap + 1
        self.fixed = structure == FIXED_LIMIT
        self.pot_limit = structure == POT_LIMIT
        self.opener = opener
        self.cap_heads_up = cap_heads_up

    # ------------------------------------------------------------ start

    def start(self, hand: Hand) -> Pending | None:
        n = hand.n
        hand.round += 1
        hand.round_name = self.name
        hand.bets = [0] * n
        hand.current_bet = 0
        hand.last_raise = self.size
        hand.full_level = 0
        hand.reopen = 0
        hand.n_full = 0
        hand.acted = [-1] * n
        hand.aggressor = None
        stacks, folded = hand.stacks, hand.folded
        can = 0
        for s in range(n):
            if not folded[s] and stacks[s] > 0:
                can += 1
        if can <= 1:
            hand.events.append(Event("round_skipped", None, {"round": self.name}))
            return None
        opener = self.opener(hand)
        seat = opener
        if stacks[seat] == 0 or folded[seat]:
            for i in range(1, n):
                c = (opener + i) % n
                if not folded[c] and stacks[c] > 0:
                    seat = c
                    break
        # the seat that actually opens (an all-in opener passes it on, R-C-14):
        # "the player who began the round" for R-521-3
        hand.openers.append(seat)
        hand.events.append(Event("round", seat, {"round": self.name, "opener": opener}))
        return Pending("bet", (seat,))

    # ------------------------------------------------------------ legal

    def _raise_bounds(self, hand: Hand, seat: int) -> tuple[int, int] | str:
        """``(min_to, max_to)`` for a bet/raise, or the reason none is allowed."""
        bets = hand.bets
        stack = hand.stacks[seat]
        cur = hand.current_bet
        to_call = cur - bets[seat]
        if stack <= to_call:
            return "not enough chips to raise"
        # a seat that has only checked this round faces a new wager, so it may raise
        # even a short all-in bet (as PokerKit; TDA: reopening concerns raises)
        if (hand.acted[seat] >= 0 and bets[seat] > 0
                and not may_raise_again(to_call, self.threshold(hand))):
            return (f"the betting was not reopened: this seat already acted and faces "
                    f"{to_call} more, less than {self._threshold_text(hand)}")
        folded, stacks = hand.folded, hand.stacks
        for s in range(hand.n):
            if s != seat and not folded[s] and stacks[s] + bets[s] > cur:
                break
        else:  # nobody else could put in more than the current bet (R-C-14)
            return ("no other player still in has chips beyond the current bet, so nobody "
                    "could call a raise")
        all_in_to = bets[seat] + stack
        size = self.size
        if self.fixed:
            if hand.n_full >= self.max_bets and (self.cap_heads_up or hand.n_live > 2):
                return f"the betting is capped ({self.max_bets - 1} raises after the bet)"
            # as if any short all-in since the last full bet/raise had not been made
            target = hand.full_level + size
            if all_in_to <= target:
                return (all_in_to, all_in_to)
            return (target, target)
        min_to = size if cur == 0 else cur + hand.last_raise
        max_to = all_in_to
        if self.pot_limit:
            pot = sum(hand.committed) + hand.carry_in
            pot_max = cur + pot + to_call
            if pot_max < min_to:
                pot_max = min_to
            if pot_max < max_to:
                max_to = pot_max
        if all_in_to <= min_to:
            return (all_in_to, all_in_to)
        return (min_to, max_to)

    def legal(self, hand: Hand, seat: int) -> Legal:
        to_call = hand.current_bet - hand.bets[seat]
        stack = hand.stacks[seat]
        # folding is allowed even when the seat could check (R-C-6)
        names: tuple[str, ...] = ("fold", "call") if to_call > 0 else ("fold", "check")
        bounds = self._raise_bounds(hand, seat)
        if isinstance(bounds, tuple):
            names = (*names, "bet" if hand.current_bet == 0 else "raise")
            lo, hi = bounds
        else:
            lo = hi = 0
        return Legal(
            kind="bet",
            actions=names,
            call_amount=to_call if to_call < stack else stack,
            min_to=lo,
            max_to=hi,
        )

    # -------------------------------------------------------------- act

    def _refuse(self, hand: Hand, seat: int, why: str) -> IllegalAction:
        return IllegalAction(
            f"seat {seat} cannot do that: {why}; allowed: {self.legal(hand, seat).describe()}"
        )

    def act(self, hand: Hand, seat: int, action: object) -> Pending | None:
        t = type(action)
        bets, stacks, committed = hand.bets, hand.stacks, hand.committed
        cur = hand.current_bet
        to_call = cur - bets[seat]
        events = hand.events
        if t is Check:
            if to_call > 0:
                raise self._refuse(hand, seat, f"cannot check, there is {to_call} to call")
            hand.acted[seat] = hand.reopen
            events.append(Event("check", seat, {}))
        elif t is Call:
            if to_call <= 0:
                raise self._refuse(hand, seat, "nothing to call")
            stack = stacks[seat]
            amount = to_call if to_call < stack else stack
            stacks[seat] = stack - amount
            bets[seat] += amount
            committed[seat] += amount
            hand.acted[seat] = hand.reopen
            events.append(Event("call", seat, {"amount": amount, "to": bets[seat],
                                               "all_in": stack == amount}))
        elif t is Fold:
            # allowed even when the seat could check (R-C-6); the event says so
            hand.fold(seat)
            events.append(Event("fold", seat, {"could_check": True} if to_call <= 0 else {}))
            if hand.n_live == 1:
                return None
        elif t is Bet or t is Raise:
            to = action.amount if t is Bet else action.to  # type: ignore[attr-defined]
            if t is Bet and cur > 0:
                raise self._refuse(hand, seat, f"there is already a bet of {cur}; raise instead")
            if t is Raise and cur == 0:
                raise self._refuse(hand, seat, "there is no bet to raise; bet instead")
            bounds = self._raise_bounds(hand, seat)
            if isinstance(bounds, str):
                raise self._refuse(hand, seat, bounds)
            lo, hi = bounds
            if type(to) is not int or not lo <= to <= hi:
                word = "bet" if t is Bet else "raise to"
                rng = str(lo) if lo == hi else f"{lo}..{hi}"
                raise self._refuse(hand, seat, f"{word} {to!r} is not {rng}")
            chips = to - bets[seat]
            stacks[seat] -= chips
            bets[seat] = to
            committed[seat] += chips
            increment = to - cur
            # short all-ins add up (R-C-6): what all-ins added since the last
            # full bet/raise counts toward the threshold
            added = to - hand.full_level
            if self.fixed:
                full = 2 * added >= self.size
            else:
                threshold = hand.last_raise
                full = added >= threshold
                if increment >= threshold:  # full on its own: the new raise size
                    hand.last_raise = increment
            if full:
                hand.full_level = to
                hand.reopen += 1
                hand.n_full += 1
            hand.current_bet = to
            hand.aggressor = seat
            hand.acted[seat] = hand.reopen
            events.append(Event("bet" if cur == 0 else "raise", seat,
                                {"to": to, "amount": chips, "all_in": stacks[seat] == 0,
                                 "full": full}))
        else:
            raise self._refuse(hand, seat, f"{action_words(action)} is not a betting action")
        return self._next(hand, seat)

    def threshold(self, hand: Hand) -> int:
        """What a full raise must add now (R-C-6): half a bet in fixed limit
        (rounded up), the last full bet or raise in pot-/no-limit."""
        if self.fixed:
            return (self.size + 1) // 2
        return hand.last_raise

    def _threshold_text(self, hand: Hand) -> str:
        if self.fixed:
            return f"half a bet ({self.size}/2)"
        return f"a full raise ({hand.last_raise})"

    def _next(self, hand: Hand, seat: int) -> Pending | None:
        n = hand.n
        folded, stacks, bets, acted = hand.folded, hand.stacks, hand.bets, hand.acted
        cur = hand.current_bet
        can = 0
        for s in range(n):
            if not folded[s] and stacks[s] > 0:
                can += 1
        for i in range(1, n):
            c = (seat + i) % n
            if folded[c] or stacks[c] == 0:
                continue
            if bets[c] < cur or (acted[c] < 0 and can > 1):
                return Pending("bet", (c,))
        hand.return_uncalled()
        return None
