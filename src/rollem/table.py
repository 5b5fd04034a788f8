"""A table: a session of hands (R-C-12), the one model of it.

Stacks carry from hand to hand, the button moves to the next seat on the
left that is dealt in, a seat with no chips sits out (or rebuys when the
table allows it), chips a hand carries over (R-521-9 ``failed_both_rule``
``carry``) go into the next hand's main pot, and in dealer's-choice mode the
player on the button names the game among those that fit the number of
players dealt in (a computer player picks uniformly).

The terminal game (``rollem play``), ``rollem simulate`` and the web table
(:mod:`rollem.server.live_table`, which stores the session and presents it
as a :class:`Table` for every decision: :meth:`LiveTable.session_table`)
all follow these rules through this module.  A seat may be *out*: empty,
sitting out, leaving, or waiting for the host's approval; it is not dealt
in, whatever its chips.

A hand in three steps (what :meth:`Table.new_hand` does, and what the web
table does with a clock between the second and the third while a person on
the button names the game): :meth:`Table.rebuy_broke`, :meth:`Table.next_deal`
(seats dealt in, button, games that fit: what the button is offered),
:meth:`Table.deal` (the players of that deal still dealt in: a seat that
left or sat out meanwhile is not, one who sat down meanwhile waits for the
next hand, and the button moves on if its own seat left).  The web table
keeps only what is its own: the offer while it waits (stored with its
session, with who it was offered to: seats here are numbers, there people
come and go) and the button's clock (R-C-15, a web-table rule).

Straddles and bomb pots (issue 27) are decided here for every hand:
:attr:`Table.straddlers` (the seats that chose to straddle; the options'
``straddle_rule`` says which of them may, :class:`rollem.engine.forced.Blinds`),
and a bomb pot when the host called one (:attr:`Table.bomb_pot_next`) or every
``bomb_pot_every`` hands (hands 5, 10, ... for 5): :meth:`Table.hand_options`.
A bomb pot due in a hand whose game cannot have one
(:func:`rollem.games.build.bomb_pot_refusal`: stud, draw, 5-2-1, Roll Your Own)
is not played: one the host called waits for the next hand of a game that can;
an "every N" one is missed.

>>> from random import Random
>>> from rollem.engine import Call, Check
>>> table = Table([100, 100, 100], game="dealers-choice", rng=Random(2))
>>> hand = table.new_hand()
>>> hand.game.id, table.button
('sdr', 0)
>>> while not hand.is_over:
...     seat = hand.pending.seats[0]
...     legal = hand.legal_actions(seat)
...     events = hand.apply(seat, Call() if "call" in legal.actions else Check())
>>> table.end_hand()
>>> table.chips == sum(table.brought) == 300
True
>>> table.new_hand().game.id, table.button
('rollyourown', 1)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TypeVar

from rollem.engine.errors import EngineError, whole_number
from rollem.engine.hand import Hand
from rollem.engine.options import Options
from rollem.engine.randomness import RandomSource, SecureSource, SeededSource
from rollem.games import DEFAULT_CHOICE, Game, get, in_usual_order
from rollem.games.build import bomb_pot_default, bomb_pot_refusal

if TYPE_CHECKING:
    from rollem.tournament.session import Tournament

__all__ = [
    "DEALERS_CHOICE",
    "Deal",
    "Table",
    "TableError",
    "button_from",
    "games_that_fit",
    "pick_game",
    "seats_dealt_in",
]

DEALERS_CHOICE = "dealers-choice"

T = TypeVar("T")


class TableError(EngineError):
    """A session that cannot go on (fewer than two players with chips, bad game),
    or a refused rebuy.  ``code``: a short reason (``no_players``, ``bad_game``,
    ``no_fit``, ``bad_seat``, ``no_rebuys``, ``has_chips``, ``in_hand``, ``not_over``,
    ``no_hand``, ``bad_stacks``), the web table's error code."""

    def __init__(self, message: str, code: str = "table") -> None:
        super().__init__(message)
        self.code = code


def _whole(value: object, name: str, allowed: str, low: int | None = 0,
           high: int | None = None) -> int:
    """``value`` as an int from ``low`` to ``high``, else :class:`TableError`
    (``bad_value``) naming ``name`` and what is ``allowed``
    (:func:`rollem.engine.errors.whole_number`)."""
    try:
        return whole_number(value, name, allowed, low, high)
    except EngineError as err:
        raise TableError(str(err), "bad_value") from None


GameChooser = Callable[["Table", list[Game]], Game]
"""The button's pick among the games that fit (a human player's choice)."""


# -- the rules, as plain functions (R-C-12) ------------------------------------------


def seats_dealt_in(stacks: Sequence[int], out: Collection[int] = ()) -> list[int]:
    """The seats dealt into the next hand, in seat order: chips and not out
    (R-C-12: a seat with no chips sits out; ``out``: seats that are empty, sit
    out, leave or wait).

    >>> seats_dealt_in([100, 0, 50, 20], out={3})
    [0, 2]
    """
    return [s for s, chips in enumerate(stacks) if chips > 0 and s not in out]


def button_from(dealt_in: Sequence[int], seat: int) -> int:
    """The button: ``seat`` if it is dealt in, else the next seat dealt in on
    its left (higher numbers, wrapping round to the lowest) (R-C-12).

    The hand after one with the button on seat ``b`` has it at
    ``button_from(dealt_in, b + 1)``.

    Raises:
        TableError: ``no_players``: no seat is dealt in.

    >>> button_from([0, 2, 5], 3), button_from([0, 2, 5], 2), button_from([0, 2, 5], 6)
    (5, 2, 0)
    """
    if not dealt_in:
        raise TableError("no seat has chips", "no_players")
    ordered = sorted(dealt_in)
    return next((s for s in ordered if s >= seat), ordered[0])


def games_that_fit(games: Iterable[Game], players: int) -> list[Game]:
    """The games (in the order given) playable with ``players`` dealt in:
    ``min_players <= players <= max_players`` (R-C-12)."""
    return [g for g in games if g.min_players <= players <= g.max_players]


def pick_game(games: Sequence[T], rng: random.Random | None = None) -> T:
    """A computer player's (or the clock's) pick: uniform among ``games``
    (R-C-12); ``rng`` seeded for simulations, else a secure source."""
    return (rng if rng is not None else random.SystemRandom()).choice(list(games))


@dataclass(frozen=True, slots=True)
class Deal:
    """The next hand before its game is named (:meth:`Table.next_deal`).

    Attributes:
        button: the button's seat.
        players: the seats dealt in, in seat order (at least two).
        games: the games it may be: the table's one game if it fits, or the
            dealer's-choice games that fit ``len(players)`` (may be empty).
    """

    button: int
    players: tuple[int, ...]
    games: tuple[Game, ...]


class Table:
    """A session of hands.

    Args:
        stacks: chips of each seat (seat 0 first; an empty seat has 0).
        game: a short id (``"sdr"``), a :class:`Game` (e.g. from a game file) or
            ``"dealers-choice"``.
        games: the games a dealer's choice offers (ids or :class:`Game`
            objects; default :data:`rollem.games.DEFAULT_CHOICE`, our three;
            an empty list offers none, so no hand can be dealt).
        options: options for every game, or a mapping game id -> options.
        button: the first hand's button (moved to the next seat dealt in if
            that seat is not dealt in).
        rng: a seeded :class:`random.Random` for simulations (shuffles and the
            computer's game choice); ``None`` = secure shuffles (real play).
        rebuy: chips of a rebuy (``None`` = no rebuys: a broke seat sits out).
        auto_rebuy: which broke seats rebuy by themselves at the start of a
            hand (default every seat; the others may :meth:`rebuy_seat`).
        choose_game: how the button picks in dealer's choice (default: uniformly).
        out: seats not dealt in whatever their chips (empty, sitting out,
            leaving, waiting for approval); the attribute may change between hands.
        brought: chips each seat brought so far (default ``stacks``).
        carry: chips carried into the first hand's main pot (R-521-9).
        tournament: a sit-and-go (:class:`rollem.tournament.session.Tournament`):
            each hand's ante and bets come from its level, players who bust
            sit out for good unless they rebuy in the first levels the host
            allows (:meth:`rebuy_seat`; never automatic) (issue 28).
        by_id: list the dealer's-choice games that fit in the usual order (the
            terminal): our three, then the standard games, then others by id
            (:func:`rollem.games.in_usual_order`; s71: by id, rollem521 first,
            unlike every other list); ``False``: in the order of ``games``
            (the web host's list).
        sources: the shuffles of each hand, ``sources(hand_no)`` with ``hand_no``
            1, 2, ... (``rollem play``: a committed deck, issue 32); default:
            seeded by ``rng``, else secure.
        straddlers: seats that choose to straddle (the options' ``straddle_rule``
            says which one may; the attribute may change between hands).
        bomb_pot_every: a bomb pot every this many hands (0 = none; issue 27).
        bomb_pot_next: the host called a bomb pot for the next hand.
        bomb_pot_ante: a bomb pot's ante in chips (``None``: twice the big blind
            or the ante, :func:`rollem.games.build.bomb_pot_default`).
        hands: hands already played in this session (counts "every N").

    Raises:
        TableError: ``bad_game`` (an unknown game id), ``bad_stacks`` (fewer than 2
            seats, a stack that is not a whole number of chips >= 0, or ``brought``
            not one a seat),
            ``bad_value`` (``button``, ``rebuy``, ``carry``, ``hands``,
            ``bomb_pot_every``, ``bomb_pot_ante`` or ``brought`` that is not a
            whole number in range, a seat in ``out`` or ``straddlers`` that is
            not an int of ``0..len(stacks) - 1``: ``"1"``, ``True``, ``7`` at
            three seats; s62-term: ``out=["1"]`` left seat 1 in silently).

    Attributes:
        stacks, button (of the current/last hand), carry (chips carried into
        the next hand), brought (chips each seat brought, rebuys included),
        hands (hands started), hand (the current/last :class:`Hand`), out,
        straddlers, bomb_pot_every, bomb_pot_next, bomb_pot_ante.
    """

    def __init__(
        self,
        stacks: Sequence[int],
        *,
        game: str | Game = "sdr",
        options: Options | Mapping[str, Options] | None = None,
        button: int = 0,
        rng: random.Random | None = None,
        rebuy: int | None = None,
        choose_game: GameChooser | None = None,
        games: Sequence[str | Game] | None = None,
        auto_rebuy: Callable[[int], bool] | None = None,
        out: Collection[int] = (),
        brought: Sequence[int] | None = None,
        carry: int = 0,
        by_id: bool = True,
        tournament: Tournament | None = None,
        sources: Callable[[int], RandomSource] | None = None,
        straddlers: Collection[int] = (),
        bomb_pot_every: int = 0,
        bomb_pot_next: bool = False,
        bomb_pot_ante: int | None = None,
        hands: int = 0,
    ) -> None:
        try:
            self.choices: list[Game] = [g if isinstance(g, Game) else get(g)
                                        for g in (DEFAULT_CHOICE if games is None else games)]
            self.fixed: Game | None = None
            if isinstance(game, Game):
                self.fixed = game
            elif game != DEALERS_CHOICE:
                self.fixed = self._find(game)
        except KeyError as err:
            raise TableError(str(err.args[0]), "bad_game") from None
        if any(type(c) is not int or c < 0 for c in stacks):  # (a seat at -1 chips sat
            # out and was counted in the ledger: issue 33's try-out)
            raise TableError("stacks must be whole numbers of chips >= 0, got "
                             f"{list(stacks)[:12]}", "bad_stacks")
        n = len(stacks)
        if n < 2:  # (was taken, and the first hand failed: issue 33's newcomer, s71-new)
            raise TableError(f"a table has at least 2 seats (one stack a seat, 0 for an empty "
                             f"one), got {n}: {list(stacks)}", "bad_stacks")
        button, carry, hands, bomb_pot_every = (
            _whole(button, "button", "a seat number (an int) >= 0"),
            _whole(carry, "carry", "a whole number of chips >= 0"),
            _whole(hands, "hands", "a whole number of hands >= 0"),
            _whole(bomb_pot_every, "bomb_pot_every", "a whole number of hands >= 0 (0: none)"))
        if rebuy is not None:
            rebuy = _whole(rebuy, "rebuy", "a whole number of chips >= 1, or None (no rebuys)",
                           low=1)
        if bomb_pot_ante is not None:
            bomb_pot_ante = _whole(bomb_pot_ante, "bomb_pot_ante",
                                   "a whole number of chips >= 0, or None (the default)")
        seat = f"a seat number (an int) 0..{n - 1}"
        out = [_whole(s, "out: each seat", seat, high=n - 1) for s in out]
        straddlers = [_whole(s, "straddlers: each seat", seat, high=n - 1) for s in straddlers]
        if brought is not None:
            if len(brought) != n:
                raise TableError(f"brought must hold one number of chips a seat ({n}), got "
                                 f"{len(brought)}", "bad_stacks")
            brought = [_whole(c, "brought: each seat's chips", "a whole number of chips "
                              "(an int; a host's adjustment may take it below 0)", low=None)
                       for c in brought]
        self.game = game.id if isinstance(game, Game) else game
        self.options = options
        self.stacks = list(stacks)
        self.brought = list(brought) if brought is not None else list(stacks)
        self.n = len(stacks)
        self.rng = rng
        self.rebuy = rebuy
        self.auto_rebuy = auto_rebuy
        self.choose_game = choose_game
        self.out: set[int] = set(out)
        self.by_id = by_id
        self.sources = sources
        self.carry = carry
        self.tournament = tournament
        if tournament is not None:  # a sit-and-go: the busted sit out; a rebuy (when
            # the host allows them in the first levels) is asked for, never automatic
            self.rebuy = tournament.schedule.stack if tournament.rebuy_levels else None
        self.hands = 0
        self.hands = hands
        self.straddlers: set[int] = set(straddlers)
        self.bomb_pot_every = bomb_pot_every
        self.bomb_pot_next = bomb_pot_next
        self.bomb_pot_ante = bomb_pot_ante
        self.hand: Hand | None = None
        self.button = (button - 1) % self.n if self.n else 0  # moved on at the first hand
        self._start: int | None = button % self.n if self.n else 0  # None after the first

    def _find(self, game_id: str) -> Game:
        for g in self.choices:
            if g.id == game_id:
                return g
        return get(game_id)

    def _options_for(self, game: Game) -> Options:
        o = self.options
        if o is None:
            base = Options()
        elif isinstance(o, Options):
            base = o
        else:
            base = o.get(game.id, Options())
        # a tournament's level sets the ante and bets of each hand (issue 28)
        return base if self.tournament is None else self.tournament.options(base)

    def bomb_pot_due(self) -> bool:
        """Is the next hand a bomb pot (if its game can have one)? The host
        called one, or it is hand ``k * bomb_pot_every`` of the session."""
        every = self.bomb_pot_every
        return self.bomb_pot_next or (every > 0 and (self.hands + 1) % every == 0)

    def hand_options(self, game: Game, seats: Collection[int]) -> Options:
        """The options of the next hand of ``game`` dealt to ``seats``: the
        table's, with this hand's straddlers (those of :attr:`straddlers` dealt
        in, when the options allow straddles) and bomb pot (when due and the
        game can have one)."""
        options = self._options_for(game)
        straddlers: tuple[int, ...] = ()
        if options.straddle_rule != "off":
            straddlers = tuple(sorted(s for s in self.straddlers if s in seats))
        bomb = 0
        if self.bomb_pot_due() and bomb_pot_refusal(game, options) is None:
            bomb = (self.bomb_pot_ante if self.bomb_pot_ante is not None
                    else bomb_pot_default(game, options))
        if straddlers == options.straddlers and bomb == options.bomb_pot:
            return options
        return replace(options, straddlers=straddlers, bomb_pot=bomb)

    def _source(self) -> RandomSource:
        if self.sources is not None:
            return self.sources(self.hands + 1)
        return SeededSource(self.rng) if self.rng is not None else SecureSource()

    # -- who is dealt in, the button, the games -----------------------------------

    def dealt_in(self) -> list[int]:
        """The seats the next hand deals in, in seat order: chips, not out (R-C-12)."""
        return seats_dealt_in(self.stacks, self.out)

    def next_button(self) -> int:
        """The seat that gets the button next: the next seat on the left dealt in
        (R-C-12); the first hand: the table's ``button`` if dealt in.

        Raises:
            TableError: ``no_players``: no seat is dealt in.
        """
        start = self._start if self._start is not None else self.button + 1
        return button_from(self.dealt_in(), start)

    def games_that_fit(self, players: int) -> list[Game]:
        """The dealer's-choice games playable with ``players`` dealt in (R-C-12),
        in the usual order (``by_id``: :func:`rollem.games.in_usual_order`) or
        in the table's order."""
        fits = games_that_fit(self.choices, players)
        return in_usual_order(fits) if self.by_id else fits

    def playable(self, players: int, button: int | None = None) -> list[Game]:
        """What a hand with ``players`` dealt in (``button``: the seat that gets
        the button, when known) may be: the table's one game if it fits (else
        nothing), or the dealer's-choice games that fit (R-C-12), or in a
        tournament that rotates them the rotation's game."""
        if self.fixed is not None:
            return games_that_fit([self.fixed], players)
        t = self.tournament
        if t is not None and t.rotate and self.choices:
            # games by level or orbit (issue 28): the rotation's game, else the
            # next that fits
            n = len(self.choices)
            step = t.rotation_step(button)
            for k in range(n):
                game = self.choices[(step + k) % n]
                if games_that_fit([game], players):
                    return [game]
            return []
        return self.games_that_fit(players)

    # -- rebuys ---------------------------------------------------------------------

    def rebuy_broke(self) -> list[int]:
        """The start of a hand: every broke seat that rebuys by itself
        (``auto_rebuy``) gets ``rebuy`` chips, counted as brought (R-C-12: the
        host may allow rebuys).  Returns those seats (none without rebuys)."""
        if self.rebuy is None or self.tournament is not None:
            return []
        seats = [s for s in range(self.n) if self.stacks[s] <= 0
                 and (self.auto_rebuy is None or self.auto_rebuy(s))]
        for s in seats:
            self.stacks[s] = self.rebuy
            self.brought[s] += self.rebuy
        return seats

    def rebuy_seat(self, seat: int) -> int:
        """A broke player buys ``rebuy`` chips again, counted as brought (R-C-12);
        returns the chips.

        Raises:
            TableError: ``bad_seat`` (no such seat), ``no_rebuys`` (the table
                allows none), ``in_hand`` (dealt into the hand in play: after
                it, whatever its chips), ``has_chips`` (the seat still has chips).  Nothing
                changes.
        """
        if not 0 <= seat < self.n:
            raise TableError(f"no such seat {seat}: seats are 0..{self.n - 1}", "bad_seat")
        if self.rebuy is None:
            raise TableError("the host does not allow rebuys at this table", "no_rebuys")
        hand = self.hand
        if hand is not None and not hand.is_over and hand.dealt[seat]:
            # (its stack here is the one it was dealt in with: all-in or not, the
            # chips it put in the pot are its own until the hand is settled)
            raise TableError("you are in the hand in play: your chips in the pot count "
                             "until it ends; rebuy after the hand if you have none left",
                             "in_hand")
        stack = self.stacks[seat]
        if stack > 0:
            raise TableError(f"you still have {stack} chips; rebuy at 0", "has_chips")
        if self.tournament is not None:  # (issue 28: the first levels only)
            try:
                self.tournament.rebuy(seat)
            except ValueError as err:
                raise TableError(str(err), "no_rebuys") from None
            self.out.discard(seat)
        self.stacks[seat] += self.rebuy
        self.brought[seat] += self.rebuy
        return self.rebuy

    def addon_seat(self, seat: int) -> int:
        """A tournament entrant still holding chips takes the add-on (stop 60): its
        ``addon_chips`` go onto its stack, counted as brought, and its price
        into the prize pool (:meth:`rollem.tournament.session.Tournament.take_addon`).
        Returns the chips added.

        Raises:
            TableError: ``bad_seat`` (no such seat), ``not_tournament`` (a cash
                game), ``in_hand`` (dealt into the hand in play: after it), or the
                refusal's code (:class:`rollem.tournament.session.AddonRefused`:
                ``no_addon``, ``addon_closed``, ``not_entrant``, ``busted``,
                ``taken``, ``declined``).  Nothing changes.
        """
        from rollem.tournament.session import AddonRefused

        if not 0 <= seat < self.n:
            raise TableError(f"no such seat {seat}: seats are 0..{self.n - 1}", "bad_seat")
        if self.tournament is None:
            raise TableError("an add-on is a tournament's: this is a cash game",
                             "not_tournament")
        try:
            self.tournament.check_addon(seat, self.stacks)
        except AddonRefused as err:
            raise TableError(str(err), err.code) from None
        hand = self.hand
        if hand is not None and not hand.is_over and hand.dealt[seat]:
            raise TableError("you are in the hand in play: take the add-on after it",
                             "in_hand")
        chips = self.tournament.take_addon(seat, self.stacks)
        self.stacks[seat] += chips
        self.brought[seat] += chips
        return chips

    def top_up_seat(self, seat: int, least: int = 1) -> int:
        """A player with chips, but fewer than ``rebuy`` (the buy-in), tops up to
        ``rebuy`` between hands; the chips added count as brought (R-C-12), so the
        settle-up stays right.  Returns the chips added (a whole number, at least
        ``least``: a top-up smaller than that is refused, so a lost blind is not
        topped up at the cost of a capped rebuy; the web table passes its big bet).

        Raises:
            TableError: ``bad_seat`` (no such seat), ``no_rebuys`` (the table
                allows no rebuys, so no top-ups), ``tournament`` (a tournament's
                chips are its entries: rebuys at 0 in its rebuy levels only),
                ``in_hand`` (dealt into the hand in play), ``no_chips`` (a stack
                of 0: that is a rebuy), ``at_buy_in`` (the stack is the buy-in or
                more), ``small_top_up`` (the stack is fewer than ``least`` chips
                below the buy-in).  Nothing changes.
        """
        if not 0 <= seat < self.n:
            raise TableError(f"no such seat {seat}: seats are 0..{self.n - 1}", "bad_seat")
        if self.tournament is not None:
            raise TableError("no top-ups in a tournament: its chips are the entries "
                             "(a rebuy at 0 chips, in its rebuy levels)", "tournament")
        if self.rebuy is None:
            raise TableError("the host does not allow rebuys at this table, so no "
                             "top-ups either", "no_rebuys")
        hand = self.hand
        if hand is not None and not hand.is_over and hand.dealt[seat]:
            raise TableError("a top-up is made between hands: seat "
                             f"{seat + 1} is in the hand in play; top up after it",
                             "in_hand")
        stack = self.stacks[seat]
        if stack <= 0:
            raise TableError("you have no chips: that is a rebuy, not a top-up", "no_chips")
        if stack >= self.rebuy:
            raise TableError(f"you have {stack} chips: a top-up brings a stack below the "
                             f"buy-in up to it ({self.rebuy})", "at_buy_in")
        added = self.rebuy - stack
        if added < least:
            raise TableError(f"you have {stack} chips, {added} below the buy-in "
                             f"({self.rebuy}): a top-up is made once you are {least} or "
                             "more below it (a big bet)", "small_top_up")
        self.stacks[seat] += added
        self.brought[seat] += added
        return added

    # -- a seat change ---------------------------------------------------------------

    def move_seat(self, seat: int, to: int, free: Collection[int]) -> None:
        """The player in ``seat`` moves to the empty seat ``to`` (a seat change,
        R-C-12): their chips, the chips they brought, sitting out and straddling
        go with them; the button stays where it is and moves on as ever, and they
        are dealt the next hand from ``to`` like any seat dealt in (this table
        owes no missed blinds: a player who sits down is dealt in at once, so a
        player who moves is too).  A move past the button can thus skip the
        blinds; the web table leaves such a mover out (``out``) until the big
        blind reaches the new seat (:mod:`rollem.server.seat_moves`).

        Args:
            seat: the mover's seat (0-based).
            to: the seat moved to (0-based), one of ``free``.
            free: the seats nobody holds (the caller knows who sits where: a seat
                here with no chips may be a broke player's).

        Raises:
            TableError: ``bad_seat`` (no such seat, or ``to`` is ``seat``),
                ``seat_taken`` (``to`` is not free), ``tournament`` (a
                tournament's seats are its entrants' for good), ``in_hand``
                (dealt into the hand in play: after it).  Nothing changes.
        """
        for number in (seat, to):
            if not 0 <= number < self.n:
                raise TableError(f"no such seat {number}: seats are 0..{self.n - 1}",
                                 "bad_seat")
        if to == seat:
            raise TableError(f"you already sit in seat {seat + 1}", "bad_seat")
        if to not in free:
            raise TableError(f"seat {to + 1} is taken", "seat_taken")
        if self.tournament is not None:
            raise TableError("no seat changes in a tournament: its seats were drawn "
                             "for its entrants", "tournament")
        hand = self.hand
        if hand is not None and not hand.is_over and hand.dealt[seat]:
            raise TableError(f"seat {seat + 1} is in the hand in play: the move is made "
                             "after it", "in_hand")
        for chips in (self.stacks, self.brought):
            chips[to], chips[seat] = chips[seat], 0
        for listed in (self.out, self.straddlers):
            was = seat in listed
            listed.discard(seat)
            listed.discard(to)
            if was:
                listed.add(to)
        self.out.add(seat)  # (empty now)

    # -- a hand ---------------------------------------------------------------------

    def why_no_deal(self) -> TableError | None:
        """Why no hand can be dealt now (R-C-12), or ``None``: ``no_players``
        (fewer than two seats dealt in) or ``no_fit`` (no game of the table deals
        that many).  Changes nothing."""
        players = len(self.dealt_in())
        if players < 2:
            return TableError(f"{players} seat(s) with chips: a hand needs at least 2",
                              "no_players")
        if not self.playable(players):
            return TableError(f"no game of this table deals {players} players", "no_fit")
        return None

    def next_deal(self) -> Deal:
        """The next hand's seats dealt in, button and games that may be dealt
        (changes nothing; see :meth:`deal`).

        Raises:
            TableError: ``no_players``: fewer than two seats are dealt in.
        """
        players = self.dealt_in()
        refusal = self.why_no_deal()
        if refusal is not None and refusal.code == "no_players":
            raise refusal
        start = self._start if self._start is not None else self.button + 1
        button = button_from(players, start)
        return Deal(button, tuple(players), tuple(self.playable(len(players), button)))

    def still_dealt_in(self, deal: Deal) -> list[int]:
        """The players of ``deal`` (from :meth:`next_deal`) dealt in now, in seat
        order: those that left, sat out (:attr:`out`) or lost their chips since
        are not, and no seat that was not among them is (R-C-12)."""
        now = set(self.dealt_in())
        return [s for s in deal.players if s in now]

    def deal(self, deal: Deal, game: Game | str, *, source: RandomSource | None = None,
             fits: Sequence[Game] | None = None) -> Hand:
        """Deal ``deal`` as ``game``: the button moves, the carried chips go into
        the main pot, the seats dealt in play with their stacks (the others with
        none), ``hand`` is the new hand.

        The seats dealt in are :meth:`still_dealt_in`: the players ``deal`` was
        made for (in dealer's choice the games the button was offered fit that
        many), less any that left or sat out while the button named the game;
        whoever sat down meanwhile waits for the next hand.  If the button's own
        seat is no longer dealt in, the button moves to the next of them on its
        left (R-C-12).

        Args:
            deal: from :meth:`next_deal`.
            game: the game (the button's pick): one of ``deal.games`` (or of
                ``fits``) that fits the players still dealt in.
            source: the shuffles (default: seeded by ``rng``, else secure).
            fits: the games allowed instead of ``deal.games``.

        Raises:
            TableError: ``no_players`` (fewer than two of them still dealt in),
                ``bad_game`` (no such game), ``no_fit`` (the game does not fit
                the players dealt in); nothing changes.
        """
        try:
            chosen = self._find(game) if isinstance(game, str) else game
        except KeyError as err:
            raise TableError(str(err.args[0]), "bad_game") from None
        seats = self.still_dealt_in(deal)
        players = len(seats)
        if players < 2:
            raise TableError(f"{players} of the {len(deal.players)} players of this deal "
                             "still dealt in: a hand needs at least 2", "no_players")
        allowed = games_that_fit(deal.games if fits is None else fits, players)
        if chosen not in allowed:
            if not allowed:
                raise TableError(f"{chosen.name} does not fit {players} players: it needs "
                                 f"{chosen.min_players} to {chosen.max_players}", "no_fit")
            raise TableError(f"{chosen.name} does not fit {players} players: choose one of "
                             + ", ".join(g.id for g in allowed), "no_fit")
        button = button_from(seats, deal.button)
        stacks = [self.stacks[s] if s in seats else 0 for s in range(self.n)]
        options = self.hand_options(chosen, seats)
        hand = Hand(chosen, stacks, button=button, options=options,
                    source=source if source is not None else self._source(),
                    carry_in=self.carry)
        if options.bomb_pot:
            self.bomb_pot_next = False
        if self.tournament is not None:
            self.tournament.hand_dealt()  # (closes the add-on window, stop 60)
        self.carry = 0
        self.button = button
        self._start = None
        self.hand = hand
        self.hands += 1
        return hand

    def new_hand(self, game: str | None = None) -> Hand:
        """Start the next hand (rebuys, button, game choice) and return it.

        Args:
            game: the game for this hand (dealer's choice: the button's pick);
                default: the table's game, or a uniform pick in dealer's choice.

        Raises:
            TableError: fewer than two seats dealt in, or a game that does not fit.
        """
        if self.hand is not None and not self.hand.is_over:
            raise TableError("the current hand is not over", "not_over")
        self.rebuy_broke()
        deal = self.next_deal()
        self.button = deal.button  # the button names the game (choose_game sees it)
        self._start = None
        fits = list(deal.games)
        if game is not None:
            try:
                chosen = self._find(game)
            except KeyError as err:
                raise TableError(str(err.args[0]), "bad_game") from None
            fits = self.games_that_fit(len(deal.players))
        elif self.fixed is not None:
            chosen = self.fixed
        elif self.choose_game is not None:
            chosen = self.choose_game(self, fits)
        else:
            chosen = pick_game(fits, self.rng)
        return self.deal(deal, chosen, fits=fits)

    def settle(self, hand: Hand) -> None:
        """Take a finished ``hand``'s stacks of the seats it dealt in (the others
        keep theirs), and the chips it carries over (R-521-9), into the session.

        Raises:
            TableError: ``no_hand``: the hand is not finished.
        """
        if hand.result is None:
            raise TableError("no finished hand to end", "no_hand")
        for s, dealt in enumerate(hand.dealt):
            if dealt:
                self.stacks[s] = hand.stacks[s]
        self.carry = hand.result.carried
        if self.tournament is not None:
            self.out.update(self.tournament.record(hand.start_stacks, self.stacks,
                                                        hand.button))
            if self.tournament.over(self.stacks) and self.carry:
                # chips carried to a hand that will not be played: the winner's
                winner = self.tournament.left(self.stacks)[0]
                self.stacks[winner] += self.carry
                self.carry = 0

    def end_hand(self) -> None:
        """Take the finished hand's stacks and carried chips into the session."""
        hand = self.hand
        if hand is None or hand.result is None:
            raise TableError("no finished hand to end", "no_hand")
        self.settle(hand)

    @property
    def chips(self) -> int:
        """All chips at the table: stacks plus chips carried to the next hand."""
        return sum(self.stacks) + self.carry
