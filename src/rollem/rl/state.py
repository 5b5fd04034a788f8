"""The state of one hand as a sequence of integer moves (issue 30): the core
shared by the OpenSpiel game and the PettingZoo environment.

A :class:`Setup` fixes the game, players, stacks, button and betting
options; a :class:`MoveState` is a hand played from it, one integer at a
time: chance outcomes (cards, :mod:`rollem.rl.chance`) and decisions
(:mod:`rollem.rl.actions`). :attr:`MoveState.history` is that sequence;
replaying it from the setup gives the same state.

All-at-once decisions (R-RYO-2 discards, exposes, stacks, declares) are
asked one seat after the other, from the dealer's left, as the engine
already does: each seat's choice stays hidden from the others (it is in no
other seat's view) until every seat has chosen and the choices are revealed
together, so a seat asked later learns nothing from those asked earlier.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rollem.engine.errors import EngineError
from rollem.engine.game import Game, find_game
from rollem.engine.hand import Hand
from rollem.engine.options import Options
from rollem.rl.actions import legal_moves
from rollem.rl.chance import ChanceHand, NeedChance, Probe, Script, batch_outcomes

__all__ = ["CHANCE", "TERMINAL", "MoveState", "Setup", "load_setup"]

CHANCE = -1
TERMINAL = -4


@dataclass(frozen=True)
class Setup:
    """What every hand of an environment starts from.

    Attributes:
        game: the rollem :class:`Game`.
        stacks: chips of each seat at the start (every seat > 0).
        button: the dealer's seat.
        options: betting structure and sizes (``run_twice`` off).
    """

    game: Game
    stacks: tuple[int, ...]
    button: int = 0
    options: Options = field(default_factory=Options)
    params: tuple[Any, ...] = ()
    """The :func:`load_setup` arguments it came from (pickled instead of the game)."""
    first: list[Probe] = field(default_factory=list, compare=False, repr=False)
    """The first chance batch (the same for every hand), once probed."""

    def __reduce__(self) -> tuple[Any, ...]:
        if not self.params:
            raise TypeError("only a Setup made by load_setup can be pickled")
        return (load_setup, self.params)

    @property
    def players(self) -> int:
        """Seats dealt in."""
        return len(self.stacks)


def load_setup(game: str = "sdr", players: int = 2, stack: int = 200, button: int = 0,
               structure: str = "fixed-limit", ante: int = 1, small_bet: int = 2,
               big_bet: int = 4) -> Setup:
    """A :class:`Setup` from plain parameters (OpenSpiel's and PettingZoo's).

    ``game``: a shipped game id (``"sdr"``, ``"holdem"`` ...) or the path of
    a game file (``.toml``, see docs/game-files.md).

    Raises:
        ValueError: an unknown game or a bad parameter, naming what is allowed.
    """
    from rollem.engine.errors import EngineError

    try:
        if game.endswith(".toml"):
            from rollem.games.gamefile import load_game_file

            g = load_game_file(game)
        else:
            g = find_game(game)
        if not g.min_players <= players <= g.max_players:
            raise ValueError(f"{g.name} needs {g.min_players} to {g.max_players} players, "
                             f"got {players}")
        if type(stack) is not int or stack < 1:
            raise ValueError(f"stack must be a whole number of chips >= 1, got {stack!r}")
        if not 0 <= button < players:
            raise ValueError(f"button must be a seat 0..{players - 1}, got {button}")
        options = Options(structure=structure, ante=ante, small_bet=small_bet, big_bet=big_bet)
    except (KeyError, EngineError, OSError) as err:
        raise ValueError(str(err).strip('"')) from None
    return Setup(g, (stack,) * players, button, options,
                 (game, players, stack, button, structure, ante, small_bet, big_bet))


class MoveState:
    """A hand of ``setup`` after the moves in :attr:`history`.

    :attr:`player` is the seat to decide, :data:`CHANCE` or :data:`TERMINAL`.
    Between two decisions the chance events come as one batch, probed by the
    run that reached them (:mod:`rollem.rl.chance`); the hand is replayed
    once, when the batch's last outcome is known.
    """

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.history: list[int] = []
        self.chance: list[int] = []
        self.decisions: list[tuple[int, object]] = []
        self._hand: ChanceHand | None = None
        self._batch: list[Probe] = []
        self._batch_start = 0
        self._stale = True
        self._player = CHANCE  # valid when not stale
        self._need: tuple[int, NeedChance] | None = None
        self._legal: tuple[int, dict[int, object]] | None = None
        if setup.first:  # every hand starts with the same batch of chance events
            self._batch = setup.first
            self._stale = False

    # --------------------------------------------------------------- replay

    def _replay(self) -> None:
        s = self.setup
        script = Script(list(self.chance))
        hand = ChanceHand(s.game, s.stacks, button=s.button, options=s.options, script=script)
        n = len(self.decisions)
        for i, (seat, action) in enumerate(self.decisions):
            if script.probed:
                raise EngineError(f"replay of {self.setup.game.id}: chance outcomes ran out "
                                  f"before decision {i + 1} of {n}")
            hand.apply(seat, action)
        if script.pos != len(script.cards):
            raise EngineError(f"replay of {self.setup.game.id}: the hand used "
                              f"{script.pos} of {len(script.cards)} chance outcomes")
        self._stale = False
        self._took(hand)

    def _took(self, hand: ChanceHand) -> None:
        """After a run: a chance batch if it probed, else the live hand."""
        if hand.script.probed:
            self._batch = list(hand.script.probed)
            self._batch_start = len(self.chance)
            self._hand = None
            self._player = CHANCE
            if not self.history and not self.setup.first:
                self.setup.first.extend(self._batch)
        else:
            self._batch = []
            self._hand = hand
            if hand.result is not None:
                self._player = TERMINAL
            else:
                assert hand.pending is not None
                self._player = hand.pending.seats[0]

    @property
    def hand(self) -> Hand:
        """The engine's hand (only at a decision or at the end).

        Raises:
            ValueError: at a chance node.
        """
        if self._stale:
            self._replay()
        if self._hand is None:
            raise ValueError("the hand waits for a chance outcome")
        return self._hand

    @property
    def need(self) -> NeedChance | None:
        """The chance event waited for, or ``None``."""
        if self._stale:
            self._replay()
        if self._hand is not None:
            return None
        k = len(self.chance)
        if self._need is None or self._need[0] != k:
            self._need = (k, batch_outcomes(self._batch, self.chance[self._batch_start:]))
        return self._need[1]

    @property
    def player(self) -> int:
        """The seat to decide, :data:`CHANCE` or :data:`TERMINAL`."""
        if self._stale:
            self._replay()
        return self._player

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(card, probability)`` of the chance event waited for."""
        need = self.need
        if need is None:
            return []
        p = 1.0 / len(need.outcomes)
        return [(c, p) for c in need.outcomes]

    def legal(self) -> dict[int, object]:
        """Legal action ids of the seat to decide (with their engine actions; kept
        until the next move: read it, do not change it)."""
        seat = self.player
        if seat < 0:
            return {}
        k = len(self.history)
        if self._legal is None or self._legal[0] != k:
            self._legal = (k, legal_moves(self.hand, seat))
        return self._legal[1]

    def apply(self, move: int) -> None:
        """Apply a chance outcome or a decision id.

        Raises:
            ValueError: the move is not legal here (state unchanged).
        """
        seat = self.player
        if seat == TERMINAL:
            raise ValueError(f"move {move}: the hand is over")
        if seat == CHANCE:
            need = self.need
            assert need is not None
            if move not in need.outcomes:
                raise ValueError(f"chance outcome {move} cannot come now; allowed: "
                                 f"{list(need.outcomes)}")
            self.chance.append(move)
            self.history.append(move)
            if len(self.chance) - self._batch_start >= len(self._batch):
                self._stale = True  # the batch is complete: replay with the real cards
            return
        hand = self._hand
        assert hand is not None
        moves = self.legal()
        action = moves.get(move)
        if action is None:
            raise ValueError(f"action {move} is not legal for seat {seat}; allowed: "
                             f"{list(moves)}")
        self.decisions.append((seat, action))
        self.history.append(move)
        hand.apply(seat, action)
        self._took(hand)

    def returns(self) -> list[float]:
        """Each seat's net chips (0 for all before the end)."""
        if self.player != TERMINAL:
            return [0.0] * self.setup.players
        result = self.hand.result
        assert result is not None
        return [float(result.net.get(s, 0)) for s in range(self.setup.players)]

    def copy(self) -> MoveState:
        """An independent copy (at a decision, the hand is replayed when next needed)."""
        new = MoveState(self.setup)
        new.history = list(self.history)
        new.chance = list(self.chance)
        new.decisions = list(self.decisions)
        if not self._stale and self._hand is None:
            new._batch = self._batch  # probes are never changed
            new._batch_start = self._batch_start
            new._stale = False
        else:
            new._batch = []
            new._stale = True
        return new

    def __getstate__(self) -> dict[str, Any]:
        return {"setup": self.setup, "history": self.history, "chance": self.chance,
                "decisions": self.decisions}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__init__(data["setup"])  # type: ignore[misc]
        self.history = list(data["history"])
        self.chance = list(data["chance"])
        self.decisions = list(data["decisions"])
        self._batch = []
        self._stale = True
