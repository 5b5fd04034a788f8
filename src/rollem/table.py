"""A table: a session of hands (R-C-12).

Stacks carry from hand to hand, the button moves to the next seat on the
left that is dealt in, a seat with no chips sits out (or rebuys when the
table allows it), chips a hand carries over (R-521-9 ``failed_both_rule``
``carry``) go into the next hand's main pot, and in dealer's-choice mode the
player on the button names the game among those that fit the number of
players dealt in (a computer player picks uniformly).

>>> from random import Random
>>> from rollem.engine import Call, Check
>>> table = Table([100, 100, 100], game="dealers-choice", rng=Random(5))
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
from collections.abc import Callable, Mapping, Sequence

from rollem.engine.errors import EngineError
from rollem.engine.hand import Hand
from rollem.engine.options import Options
from rollem.engine.randomness import RandomSource, SecureSource, SeededSource
from rollem.games import DEFAULT_CHOICE, Game, get

__all__ = ["DEALERS_CHOICE", "Table", "TableError"]

DEALERS_CHOICE = "dealers-choice"


class TableError(EngineError):
    """A session that cannot go on (fewer than two players with chips, bad game)."""


GameChooser = Callable[["Table", list[Game]], Game]
"""The button's pick among the games that fit (a human player's choice)."""


class Table:
    """A session of hands.

    Args:
        stacks: chips of each seat (seat 0 first).
        game: a short id (``"sdr"``), a :class:`Game` (e.g. from a game file) or
            ``"dealers-choice"``.
        games: the games a dealer's choice offers (ids or :class:`Game`
            objects; default :data:`rollem.games.DEFAULT_CHOICE`, our three).
        options: options for every game, or a mapping game id -> options.
        button: the first hand's button (moved to the next seat dealt in if
            that seat has no chips).
        rng: a seeded :class:`random.Random` for simulations (shuffles and the
            computer's game choice); ``None`` = secure shuffles (real play).
        rebuy: chips a broke seat rebuys at the start of a hand (``None`` =
            no rebuys: a broke seat sits out).
        choose_game: how the button picks in dealer's choice (default: uniformly).

    Attributes:
        stacks, button (of the current/last hand), carry (chips carried into
        the next hand), brought (chips each seat brought, rebuys included),
        hands (hands started), hand (the current/last :class:`Hand`).
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
    ) -> None:
        try:
            self.choices: list[Game] = [g if isinstance(g, Game) else get(g)
                                        for g in (games or DEFAULT_CHOICE)]
            self.fixed: Game | None = None
            if isinstance(game, Game):
                self.fixed = game
            elif game != DEALERS_CHOICE:
                self.fixed = self._find(game)
        except KeyError as err:
            raise TableError(str(err.args[0])) from None
        self.game = game.id if isinstance(game, Game) else game
        self.options = options
        self.stacks = list(stacks)
        self.brought = list(stacks)
        self.n = len(stacks)
        self.rng = rng
        self.rebuy = rebuy
        self.choose_game = choose_game
        self.carry = 0
        self.hands = 0
        self.hand: Hand | None = None
        self.button = (button - 1) % self.n if self.n else 0  # moved on at the first hand
        self._first = True
        self._button0 = button

    def _find(self, game_id: str) -> Game:
        for g in self.choices:
            if g.id == game_id:
                return g
        return get(game_id)

    def _options_for(self, game: Game) -> Options:
        o = self.options
        if o is None:
            return Options()
        if isinstance(o, Options):
            return o
        return o.get(game.id, Options())

    def _source(self) -> RandomSource:
        return SeededSource(self.rng) if self.rng is not None else SecureSource()

    def next_button(self) -> int:
        """The seat that gets the button next: the next seat on the left dealt in (R-C-12)."""
        start = self._button0 - 1 if self._first else self.button
        for i in range(1, self.n + 1):
            s = (start + i) % self.n
            if self.stacks[s] > 0:
                return s
        raise TableError("no seat has chips")

    def games_that_fit(self, players: int) -> list[Game]:
        """The dealer's-choice games playable with ``players`` dealt in (R-C-12), by id."""
        return sorted((g for g in self.choices if g.min_players <= players <= g.max_players),
                      key=lambda g: g.id)

    def new_hand(self, game: str | None = None) -> Hand:
        """Start the next hand (rebuys, button, game choice) and return it.

        Args:
            game: the game for this hand (dealer's choice: the button's pick);
                default: the table's game, or a uniform pick in dealer's choice.

        Raises:
            TableError: fewer than two seats with chips, or a game that does not fit.
        """
        if self.hand is not None and not self.hand.is_over:
            raise TableError("the current hand is not over")
        if self.rebuy is not None:
            for s in range(self.n):
                if self.stacks[s] == 0:
                    self.stacks[s] = self.rebuy
                    self.brought[s] += self.rebuy
        players = sum(1 for s in self.stacks if s > 0)
        if players < 2:
            raise TableError(f"{players} seat(s) with chips: a hand needs at least 2")
        self.button = self.next_button()
        self._first = False
        fits = self.games_that_fit(players)
        if game is not None:
            try:
                chosen = self._find(game)
            except KeyError as err:
                raise TableError(str(err.args[0])) from None
        elif self.fixed is not None:
            chosen = self.fixed
            fits = [chosen] if chosen.min_players <= players <= chosen.max_players else []
        elif self.choose_game is not None:
            chosen = self.choose_game(self, fits)
        else:
            rng = self.rng if self.rng is not None else random.SystemRandom()
            chosen = rng.choice(fits)
        if chosen not in fits:
            if not fits:
                raise TableError(f"{chosen.name} does not fit {players} players: it needs "
                                 f"{chosen.min_players} to {chosen.max_players}")
            raise TableError(f"{chosen.name} does not fit {players} players: choose one of "
                             + ", ".join(g.id for g in fits))
        carry, self.carry = self.carry, 0
        self.hand = Hand(chosen, self.stacks, button=self.button,
                         options=self._options_for(chosen), source=self._source(),
                         carry_in=carry)
        self.hands += 1
        return self.hand

    def end_hand(self) -> None:
        """Take the finished hand's stacks and carried chips into the session."""
        hand = self.hand
        if hand is None or hand.result is None:
            raise TableError("no finished hand to end")
        self.stacks = list(hand.stacks)
        self.carry = hand.result.carried

    @property
    def chips(self) -> int:
        """All chips at the table: stacks plus chips carried to the next hand."""
        return sum(self.stacks) + self.carry
