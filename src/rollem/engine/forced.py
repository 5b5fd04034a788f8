"""Forced bets: blinds (small, big, straddle), the stud bring-in, and the
first betting round that follows them.

- :class:`Blinds` (a step, before the deal): the first player to the
  dealer's left posts the small blind, the next the big blind, the next (or,
  Mississippi, the button) a straddle when there is one; heads-up the dealer
  posts the small blind and the other player the big blind. A short stack posts all it has and is
  all-in. Blinds are live bets of the first betting round.
- :class:`BringIn` (a marker step after the up cards): names the bring-in
  amount and whether the lowest up card (stud; ties by suit, clubs lowest,
  then diamonds, hearts, spades) or the highest up card with aces low (razz;
  ties: the higher suit) brings it in.
- :class:`ForcedRound` (a :class:`~rollem.engine.betting.BettingRound`):
  the first round, opened by the first player to the left of the big blind
  (or of the straddler, who acts last), the big blind (straddle) keeping the option to raise; or,
  after a bring-in, by the bring-in player, who must post the bring-in
  (``Call()``, legal action ``"call"`` with ``call_amount`` the bring-in: not
  a full bet; the others call it or complete) or complete (``Bet(amount)``,
  ``"bet"`` from ``min_to`` to ``max_to``: the round's bet, a full bet; no
  limit and pot limit: more). Neither check nor fold. In fixed
  limit the big blind or the completion counts as the round's bet toward the
  cap. The ``round`` event of a round after a bring-in is marked
  ``"to_complete": True``: its first full bet completes the bring-in (the
  narration says "completes to", the bring-in seat's own completion included).

:func:`best_low_showing` opens later razz rounds: the best ace-to-five low
showing. Chips are whole numbers.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rollem.engine.actions import Bet, Call
from rollem.engine.betting import BettingRound
from rollem.engine.decisions import Legal, Pending
from rollem.engine.events import Event
from rollem.engine.step import Step

if TYPE_CHECKING:
    from rollem.engine.hand import Hand

__all__ = ["Blinds", "BringIn", "ForcedRound", "best_low_showing", "bring_in_seat"]


def _up(hand: Hand, seat: int) -> list[int]:
    return [c for c, u in zip(hand.hole[seat], hand.up[seat], strict=True) if u]


def best_low_showing(hand: Hand) -> int:
    """The best ace-to-five low showing (razz rounds after the first): pairs
    count against, straights and flushes do not; ties go to the tied player
    nearest the dealer's left."""
    from rollem.hands.core import partial_low_value

    best_seat, best = -1, None
    for s in hand.live_from_left():
        ranks = [c >> 2 for c in _up(hand, s)]
        v = partial_low_value(ranks) if ranks else 0
        if best is None or v > best:
            best_seat, best = s, v
    return best_seat


class Blinds(Step):
    """Post the small blind, the big blind and a straddle when there is one.

    A straddle is a live blind of the first betting round: that round starts
    with the player to the straddler's left and the straddler acts last, with
    the option to raise; the least raise is to twice the straddle (pot-/no-limit);
    in fixed limit the straddle counts as the first raise toward the cap.
    Heads-up there is never a straddle. Straddles (issue 27; RULES.md has no rule):

    - ``straddle`` > 0 (a game file's ``straddle``): the player left of the big
      blind always posts it (a short stack posts all it has).
    - else ``straddle_rule`` (:data:`rollem.engine.options.STRADDLE_RULES`) with the
      seats in ``straddlers`` that chose to straddle: ``"optional"``: the player
      left of the big blind may straddle; ``"mississippi"``: the button may, and
      if the button does not, the player left of the big blind may (three-handed
      they are the same seat). The voluntary straddle is twice the big blind, and
      only a seat with at least that many chips may post it (it may be all-in);
      seats not allowed are passed over without a word.

    Args:
        small, big, straddle: chips (whole numbers; ``straddle`` 0 = none).
        straddle_rule: ``"off"``, ``"optional"`` or ``"mississippi"``.
        straddlers: seats that chose to straddle this hand.
    """

    name = "blinds"

    def __init__(self, small: int, big: int, straddle: int = 0, *,
                 straddle_rule: str = "off", straddlers: tuple[int, ...] = ()) -> None:
        self.small = small
        self.big = big
        self.straddle = straddle
        self.straddle_rule = straddle_rule
        self.straddlers = straddlers
        self.last = -1
        """The seat that posted the last forced bet (big blind or straddle)."""
        self.straddled = 0
        """The straddle's full amount once one is posted (chips; 0 = none)."""

    def straddler(self, hand: Hand) -> tuple[int, int] | None:
        """``(seat, chips)`` of the straddle this hand will have, or ``None``."""
        live = hand.live_from_left()
        if len(live) < 3:
            return None
        if self.straddle > 0:
            return live[2], self.straddle
        amount = 2 * self.big
        if self.straddle_rule == "off" or amount <= 0:
            return None
        seats = [live[2]]
        if self.straddle_rule == "mississippi":
            seats.insert(0, hand.button)
        for seat in seats:
            if seat in self.straddlers and hand.stacks[seat] >= amount:
                return seat, amount
        return None

    def start(self, hand: Hand) -> Pending | None:
        live = hand.live_from_left()
        if len(live) == 2:
            posts = [(hand.button, self.small, "small blind"),
                     (live[0] if live[0] != hand.button else live[1], self.big, "big blind")]
        else:
            posts = [(live[0], self.small, "small blind"), (live[1], self.big, "big blind")]
            straddle = self.straddler(hand)
            if straddle is not None:
                posts.append((straddle[0], straddle[1], "straddle"))
                self.straddled = straddle[1]
        for seat, amount, label in posts:
            chips = min(amount, hand.stacks[seat])
            hand.stacks[seat] -= chips
            hand.bets[seat] += chips
            hand.committed[seat] += chips
            hand.events.append(Event("blind", seat, {"amount": chips, "blind": label,
                                                     "all_in": hand.stacks[seat] == 0}))
            self.last = seat
        return None


def _aces_low(card: int) -> int:
    """A card's order with aces low, suits clubs < diamonds < hearts < spades."""
    return (((card >> 2) + 1) % 13) * 4 + (card & 3)


def bring_in_seat(hand: Hand, highest: bool) -> int:
    """The seat whose up card brings in: the lowest up card (ties by suit,
    clubs lowest), or with ``highest`` the highest with aces low (ties: the
    higher suit)."""
    best_seat, best = -1, -1
    for s in hand.live_from_left():
        up = _up(hand, s)
        if not up:
            continue
        key = max(_aces_low(c) for c in up) if highest else 51 - min(up)
        if key > best:
            best_seat, best = s, key
    return best_seat


class BringIn(Step):
    """Names the bring-in of the next betting round (nothing happens here).

    Args:
        amount: the bring-in in chips (below the round's bet).
        highest: the highest up card brings in, aces low (razz); else the lowest.
    """

    name = "bring-in"

    def __init__(self, amount: int, *, highest: bool = False) -> None:
        self.amount = amount
        self.highest = highest


class ForcedRound(BettingRound):
    """The first betting round after :class:`Blinds` or :class:`BringIn` (see the module doc).

    Args:
        name, size, cap, structure, cap_heads_up: as :class:`BettingRound`.
        forced: the :class:`Blinds` or :class:`BringIn` step of this hand.
    """

    def __init__(self, name: str, size: int, cap: int, structure: str,
                 forced: Blinds | BringIn, *, cap_heads_up: bool = True) -> None:
        super().__init__(name, size, cap, structure, cap_heads_up=cap_heads_up)
        self.forced = forced
        self.bringer = -1
        """The seat that must bring in (-1 once it has, or with blinds)."""

    def start(self, hand: Hand) -> Pending | None:
        n = hand.n
        hand.round += 1
        hand.round_name = self.name
        hand.acted = [-1] * n
        hand.aggressor = None
        hand.reopen = 0
        stacks, folded, bets = hand.stacks, hand.folded, hand.bets
        cur = max(bets)
        hand.current_bet = cur
        hand.full_level = cur
        hand.n_full = 1 if cur > 0 else 0
        forced = self.forced
        if isinstance(forced, Blinds):
            hand.last_raise = max(self.size, forced.big, forced.straddled)
            if forced.straddled and cur > forced.big:
                hand.n_full = 2  # the straddle is the first raise (fixed-limit cap)
            opener = forced.last
        else:
            hand.last_raise = self.size
            opener = bring_in_seat(hand, forced.highest)
        can = [s for s in range(n) if not folded[s] and stacks[s] > 0]
        owes = [s for s in can if bets[s] < cur]
        if not can or (len(can) == 1 and not owes):
            hand.events.append(Event("round_skipped", None, {"round": self.name}))
            hand.return_uncalled()
            return None
        first = opener if isinstance(forced, BringIn) else (opener + 1) % n
        seat = first
        for i in range(n):
            c = (first + i) % n
            if not folded[c] and stacks[c] > 0:
                seat = c
                break
        if isinstance(forced, BringIn):
            self.bringer = seat
        hand.openers.append(seat)
        data: dict[str, object] = {"round": self.name, "opener": opener}
        if isinstance(forced, BringIn) and forced.amount > 0:
            data["to_complete"] = True  # a bring-in: its first full bet completes it
        hand.events.append(Event("round", seat, data))
        return Pending("bet", (seat,))

    def _bring_in(self, hand: Hand, seat: int) -> int:
        assert isinstance(self.forced, BringIn)
        return min(self.forced.amount, hand.stacks[seat])

    def _raise_bounds(self, hand: Hand, seat: int) -> tuple[int, int] | str:
        """As :meth:`BettingRound._raise_bounds`; but facing a bring-in nobody has
        completed, in pot and no limit too, a raise completes it to the round's
        bet (``size``) as the bring-in seat's own completion does (and as in
        fixed limit, and PokerKit's completion), not to the bring-in plus a bet:
        no-limit razz with a bring-in of 1 and bets of 2 offered "Complete to 3"
        (s74-night)."""
        bounds = super()._raise_bounds(hand, seat)
        if (isinstance(bounds, tuple) and not self.fixed and isinstance(self.forced, BringIn)
                and hand.n_full == 0 and 0 < hand.current_bet < self.size < bounds[0]):
            return (self.size, bounds[1])
        return bounds

    def legal(self, hand: Hand, seat: int) -> Legal:
        if seat != self.bringer:
            legal = super().legal(hand, seat)
            if (isinstance(self.forced, BringIn) and hand.n_full == 0
                    and hand.current_bet > 0 and "raise" in legal.actions):
                # the bet is only the bring-in: a raise completes it (Legal.forced)
                return replace(legal, forced="complete")
            return legal
        bounds = self._raise_bounds(hand, seat)
        amount = self._bring_in(hand, seat)
        if isinstance(bounds, tuple) and bounds[0] > amount:
            return Legal(kind="bet", actions=("call", "bet"), call_amount=amount,
                         min_to=bounds[0], max_to=bounds[1], forced="bring-in")
        return Legal(kind="bet", actions=("call",), call_amount=amount, forced="bring-in")

    def act(self, hand: Hand, seat: int, action: object) -> Pending | None:
        if seat != self.bringer:
            return super().act(hand, seat, action)
        legal = self.legal(hand, seat)
        t = type(action)
        if t is Bet and "bet" in legal.actions:
            to = action.amount  # type: ignore[attr-defined]
            if type(to) is not int or not legal.min_to <= to <= legal.max_to:
                raise self._refuse(hand, seat, f"bet {to!r} is not {legal.min_to}"
                                   + ("" if legal.min_to == legal.max_to else f"..{legal.max_to}"))
            self.bringer = -1
            return super().act(hand, seat, action)
        if t is not Call:
            raise self._refuse(hand, seat, "the bring-in must post the bring-in (call "
                               f"{legal.call_amount}) or complete the bet")
        self.bringer = -1
        to = legal.call_amount
        stacks, bets, committed = hand.stacks, hand.bets, hand.committed
        stacks[seat] -= to
        bets[seat] = to
        committed[seat] += to
        hand.current_bet = to
        hand.aggressor = seat
        hand.acted[seat] = hand.reopen
        hand.events.append(Event("bet", seat, {"to": to, "amount": to,
                                               "all_in": stacks[seat] == 0, "full": False,
                                               "bring_in": True}))
        return self._next(hand, seat)

