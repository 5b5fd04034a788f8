"""A tournament's progress over the hands of one table (issue 28): the level
of each hand, the bust-outs, and at the end the finishing places and the
prize pool paid by place.  :class:`rollem.table.Table` keeps one when it
plays a tournament (``Table(..., tournament=...)``): the terminal, ``simulate``
and the web table share it.

Levels rise by hands here (the web's clock can also move them by minutes:
:meth:`Tournament.at_minute`).  Players who bust are not dealt in again,
unless the host allows rebuys for the first levels (``rebuy_levels``: a busted
entrant may buy in again, once per bust, while the level is below it; each
rebuy adds a buy-in to the prize pool; one may instead decline,
:meth:`Tournament.decline_rebuy`).  While rebuys are open the tournament is
not over while a busted entrant may still rebuy, even with one player left
holding chips (:meth:`Tournament.over`).  The final players may agree a deal
(:meth:`Tournament.agree_deal`): the prizes still to be paid are then split
as agreed and the tournament is over.  Chips are whole numbers, the buy-in
and prizes whole units.

An add-on (stop 60, ``addon_chips`` and ``addon_price``; off by default) is
offered once, when the rebuys close: every entrant still holding chips may buy
``addon_chips`` chips once, whatever their stack, for ``addon_price`` units
into the prize pool (:meth:`Tournament.take_addon`, or
:meth:`Tournament.decline_addon`).  The window opens when the level reaches
the first one after the rebuy levels and closes when the first hand of that
level is dealt (:meth:`Tournament.hand_dealt`): in the terminal, between those
two hands; at the web table, the break after the last rebuy level (one is taken
there when the schedule has none).  A busted entrant cannot add on.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from rollem.engine.options import Options
from rollem.tournament.icm import chip_chop, icm_whole_units
from rollem.tournament.payouts import pay_places, payout_percentages, place_amounts
from rollem.tournament.places import Bust, finishing_places
from rollem.tournament.schedule import Level, Schedule


def deal_from(percentages: Sequence[int]) -> int:
    """How many players left, at the most, may agree a deal, for payout
    ``percentages`` (by place, best first): the places paid plus one (the
    bubble: a deal can pay the one who would go out unpaid), and never fewer
    than 3 (three players left may always chop).  A home game talks of a deal
    at its final few, not with the whole field in (stop 56: the web table
    offered one from the first hand of eight)."""
    return max(3, sum(1 for p in percentages if p > 0) + 1)


def first_levels(n: int) -> str:
    """The first ``n`` levels in words: ``"the first level"``, ``"the first 2
    levels"`` (stop 54: "the first 1 level(s)")."""
    return "the first level" if n == 1 else f"the first {n} levels"

__all__ = ["DEAL_METHODS", "ROTATIONS", "AddonRefused", "Tournament", "bot_takes_addon"]


class AddonRefused(ValueError):
    """An add-on that cannot be taken or declined now (nothing changed).  ``code``:
    ``no_addon`` (the host offers none), ``addon_closed`` (the window is not open:
    the rebuys still run, or play resumed after it, or the tournament is over),
    ``not_entrant``, ``busted`` (no chips: a busted entrant cannot add on),
    ``taken`` (one add-on a player), ``declined`` (answered already)."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def bot_takes_addon(stack: int, addon_chips: int) -> bool:
    """A computer player's add-on: it takes it unless its ``stack`` (chips) is
    already three times the add-on's chips or more (the add-on then adds under a
    quarter to its stack, and the price is better kept).  Whole chips."""
    return stack < 3 * addon_chips

DEAL_METHODS = ("icm", "chip_chop")
"""How a deal may share the prizes left (:meth:`Tournament.deal_offer`)."""

ROTATIONS = ("level", "orbit")
"""How a dealer's-choice tournament's games may rotate (``Tournament(rotate=...)``):
a game a level, or a game an orbit (the button once round the table)."""


class Tournament:
    """A sit-and-go at one table.

    Args:
        schedule: the levels and the starting stack.
        entrants: the players who bought in (2 to 10), seats ``0..entrants-1``.
        buy_in: each entrant's buy-in, in whole units (money or points); the
            prize pool is ``buy_in * entrants``.
        percentages: the payout percentages by place (default: the shipped
            table for the field, :func:`payout_percentages`).
        seats: the entrants' seat numbers (default ``0..entrants-1``; the web
            table's entrants may sit in any seats).
        rebuy_levels: rebuys are open while the level (1-based) is at most
            this (0: no rebuys).
        addon_chips: an add-on's chips (0: no add-on, the default); it is
            offered once, when the rebuys close (:attr:`addon_open`), so it
            needs ``rebuy_levels`` of 1 or more.
        addon_price: what an add-on costs, in the buy-in's units, into the
            prize pool (default: the buy-in).
        rotate: at a dealer's-choice table, the games rotate instead of the
            button choosing (like H.O.R.S.E.): ``"level"`` (or ``True``): level
            ``k`` (0-based) plays the table's ``k``-th game in its order, wrapping
            round; ``"orbit"``: orbit ``k`` does (an orbit ends when the button
            has gone once round the entrants: it reaches or passes the seat
            that had it at the orbit's first hand, busted or not); either way
            the next game that deals the players left when that one does not
            (:meth:`rotation_step`, :meth:`rollem.table.Table.playable`).
            ``""`` or ``False``: no rotation.

    Raises:
        ValueError: entrants outside 2 to 10, a negative buy-in, percentages
            that do not add up to 100, ``seats`` not ``entrants`` different seats,
            ``rotate`` not one of :data:`ROTATIONS` (or a bool), a negative
            ``addon_chips`` or ``addon_price``, an add-on without rebuys.
    """

    def __init__(self, schedule: Schedule, entrants: int, *, buy_in: int = 1,
                 percentages: Sequence[int] | None = None,
                 seats: Sequence[int] | None = None, rebuy_levels: int = 0,
                 rotate: bool | str = False, addon_chips: int = 0,
                 addon_price: int | None = None) -> None:
        if not 2 <= entrants <= 10:
            raise ValueError(f"a sit-and-go takes 2 to 10 entrants, not {entrants}")
        if buy_in < 0:
            raise ValueError("the buy-in cannot be negative")
        self.schedule = schedule
        self.entrants = entrants
        self.seats = list(seats) if seats is not None else list(range(entrants))
        if len(set(self.seats)) != entrants:
            raise ValueError(f"{entrants} entrants need {entrants} different seats")
        self.rebuy_levels = rebuy_levels
        if rotate is True:
            rotate = "level"
        if rotate not in (False, "", *ROTATIONS):
            raise ValueError(f"rotation {rotate!r}: allowed {', '.join(ROTATIONS)}")
        self.rotate: str = rotate or ""
        # the orbits: how many ended, the button at the current one's first hand,
        # the last hand's button (None before the first hand)
        self.orbits = 0
        self.orbit_from: int | None = None
        self.last_button: int | None = None
        self.rebuys: dict[int, int] = {}  # seat -> rebuys taken
        self.declined: set[int] = set()  # busted seats that declined to rebuy
        self.deal: dict[int, int] | None = None  # seat -> units, once a deal is agreed
        self.settled = False  # the players left placed by chips (settle_by_chips)
        self.buy_in = buy_in
        if addon_chips < 0 or (addon_price is not None and addon_price < 0):
            raise ValueError("an add-on's chips and price are whole numbers >= 0")
        if addon_chips and not rebuy_levels:
            raise ValueError("an add-on is offered when the rebuys close: it needs rebuys "
                             "in the first levels (rebuy_levels 1 or more)")
        self.addon_chips = addon_chips
        self.addon_price = buy_in if addon_price is None else addon_price
        self.addons: set[int] = set()  # seats that took the add-on
        self.addon_declined: set[int] = set()  # seats that said no thanks
        self.addon_closed = False  # the first hand after the window was dealt
        self.percentages = tuple(percentages) if percentages is not None \
            else payout_percentages(entrants)
        if sum(self.percentages) != 100:
            raise ValueError("payout percentages must add up to 100")
        self.hands_played = 0
        self.minutes: float | None = None  # the web's level clock, when it drives
        self.busts: list[Bust] = []

    @property
    def prize_pool(self) -> int:
        """The buy-ins, rebuys and add-ons, in the buy-in's units."""
        return (self.buy_in * (self.entrants + sum(self.rebuys.values()))
                + self.addon_price * len(self.addons))

    @property
    def addon_open(self) -> bool:
        """Whether the add-on window is open: the host offers one, the rebuys have
        closed by level (the level is past ``rebuy_levels``), the first hand of
        that level has not been dealt (:meth:`hand_dealt`) and no deal was
        agreed."""
        return (self.addon_chips > 0 and not self.addon_closed and self.deal is None
                and self.level >= self.rebuy_levels)

    def hand_dealt(self) -> None:
        """A hand is being dealt (:meth:`rollem.table.Table.deal`): one dealt once the
        rebuys have closed closes the add-on window for good."""
        if self.addon_chips and self.level >= self.rebuy_levels:
            self.addon_closed = True

    def check_addon(self, seat: int, stacks: Sequence[int]) -> None:
        """Raise :class:`AddonRefused` unless ``seat`` may answer the add-on now."""
        if not self.addon_chips:
            raise AddonRefused("this tournament has no add-on: the host did not set one",
                               "no_addon")
        if self.over(stacks):
            raise AddonRefused("the tournament is over: no add-on", "addon_closed")
        if not self.addon_open:
            when = ("once the rebuys close, at the end of level "
                    f"{self.rebuy_levels}" if self.level < self.rebuy_levels and
                    self.deal is None else "when the rebuys closed; play has resumed")
            raise AddonRefused(f"the add-on is not open: it is offered {when}",
                               "addon_closed")
        if seat not in self.seats:
            raise AddonRefused(f"seat {seat} is not an entrant: only an entrant adds on",
                               "not_entrant")
        if seat in self.addons:
            raise AddonRefused("you took the add-on already: one a player", "taken")
        if seat in self.addon_declined:
            raise AddonRefused("you said no thanks to the add-on: one answer a player",
                               "declined")
        if stacks[seat] <= 0:
            raise AddonRefused("you are out of chips: a busted player cannot add on",
                               "busted")

    def may_addon(self, seat: int, stacks: Sequence[int]) -> bool:
        """Whether ``seat`` may take (or decline) the add-on now."""
        try:
            self.check_addon(seat, stacks)
        except AddonRefused:
            return False
        return True

    def addon_waiting(self, stacks: Sequence[int]) -> list[int]:
        """The entrants who may still answer the add-on, in seat order (none while
        the window is closed)."""
        return [s for s in self.seats if self.may_addon(s, stacks)]

    def take_addon(self, seat: int, stacks: Sequence[int]) -> int:
        """``seat`` takes the add-on: ``addon_price`` more in the prize pool, and
        returns the chips (``addon_chips``) the caller adds to its stack
        (:meth:`rollem.table.Table.addon_seat` does both).

        Raises:
            AddonRefused: (nothing changes) no add-on, window not open, not an
                entrant, busted, taken or declined already.
        """
        self.check_addon(seat, stacks)
        self.addons.add(seat)
        return self.addon_chips

    def decline_addon(self, seat: int, stacks: Sequence[int]) -> None:
        """``seat`` says no thanks to the add-on (final: it cannot take it after).

        Raises:
            AddonRefused: as :meth:`take_addon`.
        """
        self.check_addon(seat, stacks)
        self.addon_declined.add(seat)

    @property
    def rebuy_open(self) -> bool:
        """Whether a busted entrant may buy in again now (the first ``rebuy_levels``)."""
        return self.level < self.rebuy_levels and self.deal is None and not self.settled

    def rebuy(self, seat: int) -> None:
        """``seat``, busted, buys in again: back in play, its bust forgotten, a
        buy-in more in the prize pool.

        Raises:
            ValueError: rebuys closed, ``seat`` not a busted entrant, or one that
                declined its rebuy (:meth:`decline_rebuy`).
        """
        if not self.rebuy_open:
            raise ValueError("rebuys are closed: the host allows them in "
                             f"{first_levels(self.rebuy_levels)} only")
        if not any(b.player == seat for b in self.busts):
            raise ValueError(f"seat {seat} has not busted: only a busted entrant rebuys")
        if seat in self.declined:
            raise ValueError(f"seat {seat} declined its rebuy: it is out of the tournament")
        self.busts = [b for b in self.busts if b.player != seat]
        self.rebuys[seat] = self.rebuys.get(seat, 0) + 1

    def decline_rebuy(self, seat: int) -> None:
        """``seat``, busted, does not buy in again: it is out for good, placed by
        its bust, and no longer waited for (:meth:`over`).  Declining again
        changes nothing.

        Raises:
            ValueError: ``seat`` not a busted entrant.
        """
        if not any(b.player == seat for b in self.busts):
            raise ValueError(f"seat {seat} has not busted: only a busted entrant "
                             "declines a rebuy")
        self.declined.add(seat)

    def may_rebuy(self, seat: int) -> bool:
        """Whether busted ``seat`` may still buy in again: rebuys open and it has
        not declined."""
        return (self.rebuy_open and seat not in self.declined
                and any(b.player == seat for b in self.busts))

    def rebuy_waiting(self) -> list[int]:
        """The busted entrants who may still rebuy (:meth:`may_rebuy`), in seat
        order."""
        if not self.rebuy_open:
            return []
        return sorted({b.player for b in self.busts} - self.declined)

    @property
    def level(self) -> int:
        """The level (0-based) of the next hand."""
        by_hands = self.schedule.level_at_hand(self.hands_played)
        if self.minutes is None:
            return by_hands
        return self.schedule.level_at_minute(self.minutes)

    def at_minute(self, minutes: float) -> None:
        """Drive the levels by the clock instead: ``minutes`` of play so far."""
        self.minutes = minutes

    @property
    def stakes(self) -> Level:
        return self.schedule.levels[self.level]

    def options(self, base: Options) -> Options:
        """``base`` (the table's structure, caps and house options) at this
        level's ante and bets."""
        lv = self.stakes
        return dataclasses.replace(base, ante=lv.ante, small_bet=lv.small_bet,
                                   big_bet=lv.big_bet)

    def _orbit_ends(self, button: int) -> bool:
        """Whether the button moving from the last hand's seat to ``button`` ends
        the orbit: it reaches or passes (going left, over the entrants' seats,
        busted or not) the seat that had it at the orbit's first hand."""
        last, start = self.last_button, self.orbit_from
        if last is None or start is None:
            return False
        ring = sorted({*self.seats, last, button, start})
        i = ring.index(last)
        for k in range(1, len(ring) + 1):
            seat = ring[(i + k) % len(ring)]
            if seat == start:
                return True
            if seat == button:
                return False
        return False  # (not reached: the ring holds the button)

    def rotation_step(self, button: int | None = None) -> int:
        """Which game of the rotation (0-based, before wrapping round) the next
        hand plays: its level (``rotate="level"``), or its orbit
        (``"orbit"``), given the seat that gets the button (``None``: as if
        the button stayed in the orbit).  0 without rotation."""
        if self.rotate == "level":
            return self.level
        if self.rotate == "orbit":
            return self.orbits + (button is not None and self._orbit_ends(button))
        return 0

    def record(self, start_stacks: Sequence[int], stacks: Sequence[int],
               button: int | None = None) -> list[int]:
        """A hand ended: count it and note who busted in it (a seat that started
        it with chips and has none left), and (``button``: the hand's button)
        the orbits gone round.  Returns the busted seats."""
        if button is not None:
            if self.orbit_from is None:
                self.orbit_from = button
            elif self._orbit_ends(button):
                self.orbits += 1
                self.orbit_from = button
            self.last_button = button
        self.hands_played += 1
        busted = [s for s, (before, after) in enumerate(zip(start_stacks, stacks, strict=True))
                  if before > 0 and after == 0]
        self.busts += [Bust(self.hands_played, s, start_stacks[s]) for s in busted]
        return busted

    def left(self, stacks: Sequence[int]) -> list[int]:
        """The entrants still holding chips."""
        return [s for s in self.seats if stacks[s] > 0]

    def over(self, stacks: Sequence[int]) -> bool:
        """The final players agreed a deal, the players left were placed by chips
        (:meth:`settle_by_chips`), or one player (or none) holds
        every chip and no busted entrant may still rebuy (:meth:`rebuy_waiting`:
        while rebuys are open, a bust heads-up does not end it until that
        player declines, or the rebuys close)."""
        if self.deal is not None or self.settled:
            return True
        return len(self.left(stacks)) <= 1 and not self.rebuy_waiting()

    @property
    def deal_from(self) -> int:
        """How many players left, at the most, may agree a deal
        (:func:`deal_from`)."""
        return deal_from(self.percentages)

    def deal_open(self, stacks: Sequence[int]) -> bool:
        """Whether the players left may propose a deal now: 2 or more of them, at
        most :attr:`deal_from`, nobody busted who may still rebuy
        (:meth:`rebuy_waiting`: the field and the prize pool may still grow; a
        deal among the others ended the tournament before their answer), nobody
        who may still answer the add-on (:meth:`addon_waiting`: the pool and the
        stacks may still grow; shares worked out before an add-on no longer added
        up to the pool, and the deal could never be agreed: s60-safe2), and the
        tournament not over."""
        return (2 <= len(self.left(stacks)) <= self.deal_from and not self.rebuy_waiting()
                and not self.addon_waiting(stacks) and not self.over(stacks))

    def prizes_left(self, stacks: Sequence[int]) -> list[int]:
        """The prizes still to be paid to the players left, best place first
        (0 for the places not paid), one per player left."""
        amounts = place_amounts(self.prize_pool, self.percentages)
        n = len(self.left(stacks))
        return [amounts[k] if k < len(amounts) else 0 for k in range(n)]

    def deal_offer(self, stacks: Sequence[int], method: str) -> dict[int, int]:
        """What each player left would take in a deal (seat -> whole units):
        ``"icm"`` (Malmuth-Harville) or ``"chip_chop"`` over :meth:`prizes_left`,
        each share rounded down and the units left over one each to the
        biggest stacks (ties: the lower seat), so the shares add up to the
        prizes left.

        Raises:
            ValueError: an unknown method, or fewer than 2 players left.
        """
        left = self.left(stacks)
        if len(left) < 2:
            raise ValueError("a deal takes 2 or more players left")
        if method not in DEAL_METHODS:
            raise ValueError(f"deal method {method!r}: allowed {', '.join(DEAL_METHODS)}")
        chips = [stacks[s] for s in left]
        prizes = self.prizes_left(stacks)
        # (ICM in fixed point: its exact fractions took seconds at 10 players, stop 57)
        whole = (icm_whole_units(chips, prizes) if method == "icm"
                 else [int(x) for x in chip_chop(chips, prizes)])  # (not negative: floor)
        order = sorted(range(len(left)), key=lambda i: (-chips[i], left[i]))
        for i in order[:sum(prizes) - sum(whole)]:
            whole[i] += 1
        return dict(zip(left, whole, strict=True))

    def agree_deal(self, stacks: Sequence[int], shares: dict[int, int]) -> None:
        """Every player left agreed ``shares`` (from :meth:`deal_offer`): the
        tournament is over, those players paid their shares and placed by chips."""
        if sorted(shares) != self.left(stacks) or sum(shares.values()) != sum(
                self.prizes_left(stacks)):
            raise ValueError("a deal must share the prizes left among the players left")
        self.deal = dict(shares)

    def settle_by_chips(self, stacks: Sequence[int]) -> None:
        """End the tournament now with the players left placed by their chips in
        ``stacks`` (most chips best, ties sharing a place and its prizes) and paid
        by place as if they had busted in that order (:meth:`payouts`): the web
        table's end when every person is out and only computer players are left
        (whose prizes all go to the host, so their order moves no money between
        people; docs/tournaments.md).  The chips are not moved: the caller gives
        chips carried to a hand never dealt to a player left first.

        Raises:
            ValueError: fewer than 2 players left, a busted entrant who may still
                rebuy (:meth:`rebuy_waiting`), or the tournament over.
        """
        if self.over(stacks):
            raise ValueError("the tournament is over: nothing to settle")
        if len(self.left(stacks)) < 2:
            raise ValueError("settling by chips takes 2 or more players left")
        if self.rebuy_waiting():
            raise ValueError("a busted entrant may still rebuy: the places are not settled")
        self.settled = True

    def places(self, stacks: Sequence[int]) -> dict[int, int]:
        """Finishing places so far (1 = best): the busted, and the survivors
        (one survivor: the winner; after a deal or :meth:`settle_by_chips`, the
        survivors by chips, ties sharing)."""
        left = self.left(stacks)
        places = finishing_places(self.entrants, self.busts, left)
        if self.deal is not None or self.settled:
            for s in left:
                places[s] = 1 + sum(1 for o in left if stacks[o] > stacks[s])
        return places

    def places_known(self, stacks: Sequence[int], entries_open: bool = False) -> dict[int, int]:
        """The finishing places that can no longer change (seat -> place, 1 =
        best): every place once the tournament is over (:meth:`over`); before,
        those of the busted who are out for good, but not of one busted in the
        same hand as, or after, a busted entrant who may still rebuy
        (:meth:`rebuy_waiting`): that rebuy takes its bust back and moves their
        place (stop 59: a computer player busted with three friends showed as
        "3rd", a paid place, and became "4th" when two of them declined and one
        rebought).  Neither those who may still rebuy nor the players left
        have a place yet; nor anyone while ``entries_open`` (the web table's late
        registration: a late entrant adds a place below every bust)."""
        places = self.places(stacks)
        if self.over(stacks):
            return places
        if entries_open:
            return {}
        waiting = set(self.rebuy_waiting())
        first = min((b.hand for b in self.busts if b.player in waiting), default=None)
        out = {b.player for b in self.busts
               if b.player not in waiting and (first is None or b.hand < first)}
        return {s: p for s, p in places.items() if s in out}

    def payouts(self, stacks: Sequence[int]) -> dict[int, int]:
        """What each entrant wins once the tournament is over (seat -> units)."""
        if self.deal is None:
            return pay_places(self.prize_pool, self.percentages, self.places(stacks))
        busted = {s: p for s, p in self.places(stacks).items() if s not in self.deal}
        return {**pay_places(self.prize_pool, self.percentages, busted), **self.deal}

    def paid(self, seat: int) -> int:
        """What ``seat`` paid into the prize pool, in the buy-in's units: its buy-in,
        each rebuy and its add-on."""
        return (self.buy_in * (1 + self.rebuys.get(seat, 0))
                + (self.addon_price if seat in self.addons else 0))

    def ledger(self, stacks: Sequence[int], entries_open: bool = False) -> list[dict[str, Any]]:
        """What each entrant paid and won, in the buy-in's units, in seat order
        (the tournament's ledger: chips are only its score): ``seat``,
        ``rebuys``, ``addon`` (bool: took the add-on), ``paid`` (the buy-in,
        each rebuy and the add-on), ``place`` (``None``
        while still playing, busted and still free to rebuy, or busted with or
        after one still free to rebuy: :meth:`places_known`), ``payout`` and
        ``net`` (``payout - paid``; both ``None`` until it is over)."""
        over = self.over(stacks)
        places = self.places_known(stacks, entries_open)  # (none yet for the players left, those
        payouts = self.payouts(stacks) if over else {}  # who may rebuy and those they may move)
        rows = []
        for seat in self.seats:
            rebuys = self.rebuys.get(seat, 0)
            paid = self.paid(seat)
            won = payouts.get(seat, 0) if over else None
            rows.append({"seat": seat, "rebuys": rebuys, "addon": seat in self.addons,
                         "paid": paid,
                         "place": places.get(seat),
                         "payout": won, "net": None if won is None else won - paid})
        return rows

    def state(self) -> dict[str, Any]:
        """What changes as it is played, as JSON (for the web table's store):
        hands played, bust-outs, rebuys, declined rebuys, the add-ons taken and
        declined and whether their window closed, an agreed deal, whether the players
        left were settled by chips (:meth:`settle_by_chips`), the orbits (how many
        ended, the button at the current one's first hand, the last button)."""
        return {"hands": self.hands_played, "busts": [list(b) for b in self.busts],
                "orbit": [self.orbits, self.orbit_from, self.last_button],
                "rebuys": {str(s): n for s, n in self.rebuys.items()},
                "declined": sorted(self.declined),
                "addons": sorted(self.addons), "addon_declined": sorted(self.addon_declined),
                "addon_closed": self.addon_closed, "settled": self.settled,
                "deal": ({str(s): v for s, v in self.deal.items()}
                         if self.deal is not None else None)}

    def load_state(self, state: dict[str, Any]) -> None:
        """Take back what :meth:`state` gave."""
        self.hands_played = int(state.get("hands", 0))
        orbits, start, last = state.get("orbit") or (0, None, None)
        self.orbits = int(orbits)
        self.orbit_from = None if start is None else int(start)
        self.last_button = None if last is None else int(last)
        self.busts = [Bust(int(h), int(p), int(c)) for h, p, c in state.get("busts", [])]
        self.rebuys = {int(s): int(n) for s, n in (state.get("rebuys") or {}).items()}
        self.declined = {int(s) for s in state.get("declined") or ()}
        self.addons = {int(s) for s in state.get("addons") or ()}
        self.addon_declined = {int(s) for s in state.get("addon_declined") or ()}
        self.addon_closed = bool(state.get("addon_closed", False))
        self.settled = bool(state.get("settled", False))
        deal = state.get("deal")
        self.deal = {int(s): int(v) for s, v in deal.items()} if deal else None

    def hand_record(self) -> dict[str, Any]:
        """What a hand's history keeps of the tournament (its ``[_tournament]``
        table): the schedule, the level (1-based) and its stakes; with an add-on,
        ``addon_chips``, ``addon_price`` and ``addons`` (the seats that took it
        by this hand, ascending: their stacks hold its chips)."""
        out: dict[str, Any] = {"schedule": self.schedule.name, "level": self.level + 1,
                               **self.stakes.to_dict()}
        if self.addon_chips:
            out.update(addon_chips=self.addon_chips, addon_price=self.addon_price,
                       addons=sorted(self.addons))
        return out

    def to_dict(self, stacks: Sequence[int]) -> dict[str, Any]:
        """JSON form: the schedule, the level and its stakes, hands to the next
        level, the places and (when over) the payouts."""
        return {
            "schedule": self.schedule.name, "level": self.level + 1,
            "stakes": self.stakes.to_dict(),
            "hands_to_next": self.schedule.hands_to_next(self.hands_played),
            "prize_pool": self.prize_pool, "percentages": list(self.percentages),
            "places": {str(s): p for s, p in self.places(stacks).items()},
            "rebuy_open": self.rebuy_open, "deal": self.deal is not None,
            "settled": self.settled,
            "addon": ({"chips": self.addon_chips, "price": self.addon_price,
                       "open": self.addon_open, "taken": sorted(self.addons)}
                      if self.addon_chips else None),
            "payouts": ({str(s): v for s, v in self.payouts(stacks).items()}
                        if self.over(stacks) else None),
        }  # fmt: skip
