"""Every rollem game as an OpenSpiel game, ``python_rollem`` (issue 30; needs ``rollem[rl]``).

>>> import pyspiel, rollem.rl.openspiel  # registers python_rollem
>>> game = pyspiel.load_game("python_rollem", {"game": "sdr", "players": 2})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 52)

Parameters (all optional): ``game`` (a shipped id such as ``"sdr"``,
``"rollyourown"``, ``"rollem521"``, ``"holdem"``, or the path of a game
file), ``players`` (2), ``stack`` (200 chips each), ``button`` (0),
``structure`` (``"fixed-limit"``, ``"pot-limit"``, ``"no-limit"``),
``ante`` (1), ``small_bet`` (2), ``big_bet`` (4); for a reduced game
(:func:`rollem.rl.state.load_setup`): ``deck``, its ranks then its suits
(``"TJQKAhs"``: ten cards; ``""``: all 52; one string, so a game string never
reads it as a number), ``raise_cap`` (fixed-limit raises after the bet in every
betting round; -1: the game's caps, e.g. R-SDR-7's 1, 1, 1, 3), ``burns``
(``True``), ``chance`` (``"card"``, or ``"hand"``: one outcome per deal to
one seat or to the board, the :func:`~rollem.rl.state.cards_id` of its cards);
``history_slots`` (48): betting actions the information-state tensor holds (those
after are left out of it; the string keeps them).

- Chance: one chance node per card dealt off the stub and per position of
  a pool shuffle or reshuffle, outcomes the card numbers, uniform
  (:mod:`rollem.rl.chance`).
- Decisions: the fixed action space of :mod:`rollem.rl.actions`
  (``num_distinct_actions`` = 437). All-at-once decisions are asked seat by
  seat with the others' choices hidden (:mod:`rollem.rl.state`).
- Strings and tensors: :mod:`rollem.rl.tensors` (information state = the
  seat's own event log, perfect recall).
- Returns: each seat's net chips at the end (zero-sum).
"""

from __future__ import annotations

import copy
from math import comb
from typing import Any

import numpy as np
import pyspiel

from rollem.cards import CARDS
from rollem.rl.actions import NUM_ACTIONS, action_name
from rollem.rl.state import (
    CHANCE,
    SUITS,
    TERMINAL,
    MoveState,
    Setup,
    cards_from_id,
    load_setup,
)
from rollem.rl.tensors import (
    HISTORY_SLOTS,
    information_state_size,
    information_state_string,
    observation_size,
    observation_string,
    write_information_state,
    write_observation,
)

__all__ = ["DEFAULT_PARAMS", "RollemGame", "RollemState"]

DEFAULT_PARAMS: dict[str, Any] = {
    "game": "sdr",
    "players": 2,
    "stack": 200,
    "button": 0,
    "structure": "fixed-limit",
    "ante": 1,
    "small_bet": 2,
    "big_bet": 4,
    "deck": "",
    "raise_cap": -1,
    "burns": True,
    "chance": "card",
    "history_slots": HISTORY_SLOTS,
}
MAX_GAME_LENGTH = 2000
"""A bound on moves in a hand (chance outcomes and decisions) given to OpenSpiel."""

_GAME_TYPE = pyspiel.GameType(
    short_name="python_rollem",
    long_name="rollem dealer's-choice poker",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=10,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
)


def _deck_suits(deck: str) -> str:
    """The suits of a ``deck`` parameter (the letters after its ranks).

    Raises:
        ValueError: a deck without suits.
    """
    ranks = deck.rstrip(SUITS)
    if deck and ranks == deck:
        raise ValueError(f"deck must give ranks then suits (e.g. \"TJQKAhs\"), got {deck!r}")
    return deck[len(ranks):]


class RollemGame(pyspiel.Game):  # type: ignore[misc]
    """A rollem game under OpenSpiel (see the module doc for the parameters)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.params = {**DEFAULT_PARAMS, **(params or {})}
        p = self.params
        if int(p["history_slots"]) < 1:
            raise ValueError(f"history_slots must be a number of betting actions >= 1, "
                             f"got {p['history_slots']}")
        if int(p["raise_cap"]) < -1:
            raise ValueError(f"raise_cap must be -1 (the game's caps) or a number of raises "
                             f">= 0, got {p['raise_cap']}")
        self.setup: Setup = load_setup(
            str(p["game"]), int(p["players"]), int(p["stack"]), int(p["button"]),
            str(p["structure"]), int(p["ante"]), int(p["small_bet"]), int(p["big_bet"]),
            ranks=str(p["deck"]).rstrip(SUITS), suits=_deck_suits(str(p["deck"])),
            caps=() if int(p["raise_cap"]) < 0 else (int(p["raise_cap"]),),
            burns=bool(p["burns"]), chance=str(p["chance"]))
        n = self.setup.players
        stack = float(self.setup.stacks[0])
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=comb(len(CARDS), self.setup.max_group()),
            num_players=n,
            min_utility=-stack,
            max_utility=stack * (n - 1),
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_GAME_TYPE, info, self.params)

    def new_initial_state(self) -> RollemState:
        """A new hand: the first chance node (the first card dealt)."""
        return RollemState(self)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as the game loaded again from its parameters: pyspiel's own
        pickling rebuilt the C++ game only, without :attr:`setup`, so an
        unpickled game (a worker process's, a pickled policy's) could not
        start a hand."""
        return (RollemGame, (dict(self.params),))

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> RollemObserver:
        """The observer of tensors and strings (information state when
        ``iig_obs_type.perfect_recall``, else observation).

        The view is one seat's: the public information and that seat's own
        cards (OpenSpiel's default types).

        Raises:
            ValueError: ``params``, or a type asking for another view
                (``public_info=False``, or ``private_info`` ``NONE`` or
                ``ALL_PLAYERS``): served as one seat's view, it would show a
                public observer the seat's own cards.
        """
        if params:
            raise ValueError(f"observer parameters are not supported; got {params}")
        if iig_obs_type is not None and (
                not iig_obs_type.public_info
                or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise ValueError(
                f"python_rollem observes one seat's view only (public_info=True, "
                f"private_info=SINGLE_PLAYER); got public_info={iig_obs_type.public_info}, "
                f"private_info={iig_obs_type.private_info.name}")
        perfect = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return RollemObserver(self.setup.players, perfect, int(self.params["history_slots"]))


class RollemState(pyspiel.State):  # type: ignore[misc]
    """One hand (see :class:`rollem.rl.state.MoveState`)."""

    def __init__(self, game: RollemGame) -> None:
        super().__init__(game)
        self.moves = MoveState(game.setup)

    def current_player(self) -> int:
        """The seat to act, or ``pyspiel.PlayerId.CHANCE`` / ``TERMINAL``."""
        p = self.moves.player
        if p == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if p == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return p

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.moves.player:
            return []
        return list(self.moves.legal())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(card, probability)`` of the next card (uniform over the cards left)."""
        return self.moves.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.moves.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            k = self.moves.group_size() if self.moves.player == CHANCE else 1
            if k > 1:
                return "cards " + " ".join(str(CARDS[c]) for c in cards_from_id(action, k))
            return f"card {CARDS[action]}"
        engine_action = None
        if player == self.moves.player:
            engine_action = self.moves.legal().get(action)
        return action_name(action, engine_action)

    def is_terminal(self) -> bool:
        """Whether the hand is over."""
        return self.moves.player == TERMINAL

    def returns(self) -> list[float]:
        """Net chips per seat (0 before the end)."""
        return self.moves.returns()

    def __str__(self) -> str:
        if self.moves.player == CHANCE:
            need = self.moves.need
            assert need is not None
            return (f"chance ({need.label}): {len(need.outcomes)} outcomes; "
                    f"moves {self.moves.history}")
        return observation_string(self.moves.hand, None)

    def __deepcopy__(self, memo: dict[int, Any]) -> RollemState:
        new: RollemState = copy.copy(self)
        new.moves = self.moves.copy()
        return new


class RollemObserver:
    """OpenSpiel's observer: ``tensor``, ``dict``, ``set_from``, ``string_from``."""

    def __init__(self, n: int, perfect_recall: bool, slots: int = HISTORY_SLOTS) -> None:
        self.perfect_recall = perfect_recall
        self.slots = slots
        size = information_state_size(n, slots) if perfect_recall else observation_size(n)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: RollemState, player: int) -> None:
        """Fill :attr:`tensor` from ``player``'s point of view (zeros at a chance node)."""
        self.tensor.fill(0.0)
        if state.moves.player == CHANCE:
            return
        hand = state.moves.hand
        if self.perfect_recall:
            write_information_state(hand, player, self.tensor, self.slots)
        else:
            write_observation(hand, player, self.tensor)

    def string_from(self, state: RollemState, player: int) -> str:
        """``player``'s information-state or observation string."""
        moves = state.moves
        if moves.player == CHANCE:
            # nobody decides at a chance node: the string says only where it is
            return f"seat {player}: chance after {len(moves.history)} moves"
        if self.perfect_recall:
            return information_state_string(moves.hand, player)
        return observation_string(moves.hand, player)


pyspiel.register_game(_GAME_TYPE, RollemGame)
