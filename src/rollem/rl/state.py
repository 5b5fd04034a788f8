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

Reduced games (for solving, issue 30): a deck of a few ranks and suits
(``ranks``, ``suits``), raise caps (``caps``), no burns (``burns=False``:
nobody ever sees a burned card, so leaving them out changes the odds of no
card seen, as long as the deck does not run out), and ``chance="hand"``: the
cards of one deal to one seat (or to the board) as one chance outcome, the
set of cards, instead of one node per card (:func:`rollem.rl.chance.deal_groups`).
An outcome is then the colex rank of the set's card numbers
(:func:`cards_id`; one card's id is its number, as with ``chance="card"``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from math import comb
from typing import Any

from rollem.engine.errors import EngineError
from rollem.engine.game import Game, find_game
from rollem.engine.hand import Hand
from rollem.engine.options import Options
from rollem.engine.step import Step
from rollem.engine.steps import Burn, DealBoard, DealHole
from rollem.rl.actions import CALL, STACK, SUBSET, legal_moves
from rollem.rl.chance import (
    GROUPED_KINDS,
    ChanceHand,
    NeedChance,
    Probe,
    Script,
    batch_outcomes,
    deal_groups,
)

__all__ = ["CHANCE", "CHANCE_MODES", "MAX_GROUP_OUTCOMES", "RANKS", "SUITS", "TERMINAL",
           "MoveState", "Setup", "cards_from_id", "cards_id", "load_setup"]

CHANCE_MODES = ("card", "hand")
"""``chance=``: one node per card, or one per deal to one seat or the board."""
MAX_GROUP_OUTCOMES = 300_000
"""The most outcomes one chance node may have with ``chance="hand"`` (the
cards of a deal to one seat, from the cards left): above, a smaller deck is asked for."""
RANKS = "23456789TJQKA"
"""Rank letters, deuce to ace (R-C-1)."""
SUITS = "cdhs"
"""Suit letters (R-C-1)."""

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
    deck: tuple[int, ...] | None = None
    """The card numbers of a reduced deck, or ``None`` for all 52."""
    grouped: bool = False
    """``chance="hand"``: a deal's cards to one seat or the board are one outcome."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Setup:
        # a copied state shares its setup (else deepcopy goes through
        # __reduce__ and loads the game again, a few ms each clone)
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        if not self.params:
            raise TypeError("only a Setup made by load_setup can be pickled")
        return (_setup_from, self.params)

    @property
    def players(self) -> int:
        """Seats dealt in."""
        return len(self.stacks)

    def max_group(self) -> int:
        """The most cards one chance outcome holds (1 unless ``grouped``)."""
        if not self.grouped:
            return 1
        steps = self.game.build(self.options)
        return max([1] + [st.count for st in steps if isinstance(st, DealHole | DealBoard)])


def cards_id(cards: Sequence[int]) -> int:
    """The colex rank of a set of card numbers: ``sum(comb(c_i, i + 1))`` over
    the cards in increasing order (0 .. ``comb(52, k) - 1`` for ``k`` cards;
    one card's id is its number)."""
    return sum(comb(c, i + 1) for i, c in enumerate(sorted(cards)))


def cards_from_id(outcome: int, k: int) -> tuple[int, ...]:
    """The ``k`` card numbers (increasing) whose :func:`cards_id` is ``outcome``."""
    out: list[int] = []
    for i in range(k, 0, -1):
        c = i - 1
        while comb(c + 1, i) <= outcome:
            c += 1
        out.append(c)
        outcome -= comb(c, i)
    return tuple(reversed(out))


def _parse_deck(ranks: str, suits: str) -> tuple[int, ...] | None:
    if not ranks and not suits:
        return None
    ranks = ranks or RANKS
    suits = suits or SUITS
    for name, text, allowed in (("ranks", ranks, RANKS), ("suits", suits, SUITS)):
        if any(ch not in allowed for ch in text) or len(set(text)) != len(text):
            raise ValueError(f"{name} must be distinct letters of {allowed!r}, got {text!r}")
    return tuple(sorted(RANKS.index(r) * 4 + SUITS.index(x) for r in ranks for x in suits))


def _parse_caps(caps: str | Sequence[int]) -> tuple[int, ...] | None:
    if not caps:
        return None
    if isinstance(caps, str):
        if not caps.strip():
            return None
        try:
            return tuple(int(c) for c in caps.split(","))
        except ValueError:
            raise ValueError("caps must be whole numbers of raises separated by commas "
                             f"(e.g. \"1,1,1,1\"), got {caps!r}") from None
    return tuple(caps)


def _without_burns(build: Callable[[Options], list[Step]]) -> Callable[[Options], list[Step]]:
    def steps(options: Options) -> list[Step]:
        return [st for st in build(options) if not isinstance(st, Burn)]
    return steps

def _setup_from(*params: Any) -> Setup:
    """:func:`load_setup` from :attr:`Setup.params` (unpickling)."""
    if params and isinstance(params[-1], dict):
        return load_setup(*params[:-1], **params[-1])
    return load_setup(*params)


def load_setup(game: str = "sdr", players: int = 2, stack: int = 200, button: int = 0,
               structure: str = "fixed-limit", ante: int = 1, small_bet: int = 2,
               big_bet: int = 4, *, ranks: str = "", suits: str = "",
               caps: str | Sequence[int] = "", burns: bool = True,
               chance: str = "card") -> Setup:
    """A :class:`Setup` from plain parameters (OpenSpiel's and PettingZoo's).

    ``game``: a shipped game id (``"sdr"``, ``"holdem"`` ...) or the path of
    a game file (``.toml``, see docs/game-files.md). Reduced games (module
    doc): ``ranks`` (e.g. ``"TJQKA"``) and ``suits`` (e.g. ``"hs"``) of the
    deck (empty: all), ``caps`` (fixed-limit raises per betting round after
    the bet, ``"1,1,1,1"``; a shorter list repeats its last cap; empty: the
    game's), ``burns`` (``False``: no card burned), ``chance`` (``"card"`` or
    ``"hand"``). A game with the house option ``failed_both_rule`` (5-2-1,
    R-521-9) plays it as ``"split"``: one hand is one zero-sum episode.

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
        if chance not in CHANCE_MODES:
            raise ValueError(f"chance must be one of {', '.join(CHANCE_MODES)}, got {chance!r}")
        if big_bet < small_bet:  # (as rollem simulate and play refuse it)
            raise ValueError(f"big_bet {big_bet} is smaller than small_bet {small_bet}: the "
                             "big bet is at least the small bet")
        deck = _parse_deck(ranks, suits)
        # One hand is one episode, zero-sum: a 5-2-1 pot that every contender
        # failed to win both ways is split among them (R-521-9's house option
        # failed_both_rule = "split"), not carried to a next hand the episode
        # does not have (its chips would leave the returns: [-3, -3] heads-up).
        house = {"failed_both_rule": "split"} if "failed_both_rule" in g.house else {}
        options = Options(structure=structure, ante=ante, small_bet=small_bet, big_bet=big_bet,
                          caps=_parse_caps(caps), house=house)
        if not burns:
            g = replace(g, build=_without_burns(g.build))
    except (KeyError, EngineError, OSError) as err:
        raise ValueError(str(err).strip('"')) from None
    reduced = (ranks, suits, caps if isinstance(caps, str) else tuple(caps) or "", burns, chance)
    params: tuple[Any, ...] = (game, players, stack, button, structure, ante, small_bet, big_bet)
    if reduced != ("", "", "", True, "card"):
        params = (*params, dict(zip(("ranks", "suits", "caps", "burns", "chance"), reduced,
                                    strict=True)))
    setup = Setup(g, (stack,) * players, button, options, params, deck=deck,
                  grouped=chance == "hand")
    if setup.grouped:
        cards, k = len(deck) if deck is not None else 52, setup.max_group()
        if comb(cards, k) > MAX_GROUP_OUTCOMES:
            raise ValueError(f"chance='hand' would give a chance node {comb(cards, k):,} "
                             f"outcomes ({k} cards from {cards}); at most "
                             f"{MAX_GROUP_OUTCOMES:,}: give a smaller deck")
    if deck is not None:
        _check_deck_deals(setup, len(deck))
    return setup


def _check_deck_deals(setup: Setup, size: int) -> None:
    """A reduced deck must deal a whole hand: one played with every seat in to
    the showdown (check or call; in a draw, the most cards thrown), the first
    card of each chance node.

    Raises:
        ValueError: the stub runs out, naming the deck's size, the game and
            the players (was an ``EngineError`` "the stub is empty" later, in
            the middle of a tree walk).
    """
    state = MoveState(setup)
    try:
        while (seat := state.player) != TERMINAL:
            if seat == CHANCE:
                state.apply(state.chance_outcomes()[0][0])
                continue
            legal = state.legal()
            throws = [m for m in legal if SUBSET <= m < STACK]
            state.apply(CALL if CALL in legal else max(throws) if throws else min(legal))
    except EngineError as err:
        if "stub" not in str(err):
            raise
        raise ValueError(f"a deck of {size} cards is too few for {setup.game.name} with "
                         f"{setup.players} players: the stub runs out before the "
                         "showdown") from None


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
        # chance="hand": the batch's nodes (deal_groups), the card given to each
        # event so far (-1: not yet) and how many nodes are done
        self._groups: list[list[int]] = []
        self._assign: list[int] = []
        self._done = 0
        if setup.first:  # every hand starts with the same batch of chance events
            self._set_batch(setup.first)
            self._stale = False

    def _set_batch(self, batch: list[Probe]) -> None:
        self._batch = batch
        self._batch_start = len(self.chance)
        if self.setup.grouped:
            self._groups = deal_groups(batch)
            self._assign = [-1] * len(batch)
            self._done = 0

    # --------------------------------------------------------------- replay

    def _replay(self) -> None:
        s = self.setup
        script = Script(list(self.chance))
        hand = ChanceHand(s.game, s.stacks, button=s.button, options=s.options, script=script,
                          deck=s.deck)
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
            self._set_batch(list(hand.script.probed))
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
        k = len(self.history)
        if self._need is None or self._need[0] != k:
            if self.setup.grouped:
                self._need = (k, self._group_outcomes())
            else:
                self._need = (k, batch_outcomes(self._batch, self.chance[self._batch_start:]))
        return self._need[1]

    def _group_outcomes(self) -> NeedChance:
        """The next node of a grouped batch: the sets of its cards (``cards_id``)."""
        batch, group = self._batch, self._groups[self._done]
        first = batch[group[0]]
        if first.group == "deal":
            # the cards not dealt when the batch began, less those given out since
            start = next(p for p in batch if p.group == "deal")
            given = {self._assign[i] for i, p in enumerate(batch)
                     if p.group == "deal" and self._assign[i] >= 0}
            left = [c for c in start.allowed if c not in given]
            if first.kind in GROUPED_KINDS:
                ids = sorted(cards_id(cs) for cs in combinations(left, len(group)))
                return NeedChance(first.kind, tuple(ids))
            return NeedChance(first.label, tuple(left))
        return batch_outcomes(batch, self._assign[:group[0]])

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
            if self.setup.grouped:
                self._apply_group(move)
                return
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

    def _apply_group(self, move: int) -> None:
        group = self._groups[self._done]
        cards = cards_from_id(move, len(group)) if len(group) > 1 else (move,)
        for i, card in zip(group, cards, strict=True):
            self._assign[i] = card
        self._done += 1
        self.history.append(move)
        if self._done == len(self._groups):
            self.chance.extend(self._assign)
            self._done = 0
            self._stale = True  # the batch is complete: replay with the real cards

    def chance_event(self) -> tuple[str, int | None, int]:
        """The chance node now as ``(kind, seat, cards)``: the kind of card off
        the stub (``"hole"``, ``"board"``, ``"dead"``, ``"burn"``; a pool
        shuffle's label otherwise), the seat dealt to (``None`` but for hole
        cards) and the cards its outcome holds (:meth:`group_size`).

        Raises:
            ValueError: not at a chance node.
        """
        if self.need is None:
            raise ValueError("not at a chance node")
        if self.setup.grouped:
            probe = self._batch[self._groups[self._done][0]]
        else:
            probe = self._batch[len(self.chance) - self._batch_start]
        return (probe.kind or probe.label, probe.seat, self.group_size())

    def group_size(self) -> int:
        """Cards in the outcome of the chance node now (1 unless ``chance="hand"``)."""
        if self.need is None or not self.setup.grouped:
            return 1
        return len(self._groups[self._done])

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
            new._groups = self._groups
            new._assign = list(self._assign)
            new._done = self._done
            new._stale = False
        else:
            new._batch = []
            new._stale = True
        return new

    def __getstate__(self) -> dict[str, Any]:
        # chance="hand": the nodes done of a batch not complete are applied again
        partial = self.history[len(self.history) - self._done:] if self._done else []
        return {"setup": self.setup, "history": self.history[:len(self.history) - len(partial)],
                "chance": self.chance, "decisions": self.decisions, "partial": partial}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__init__(data["setup"])  # type: ignore[misc]
        self.history = list(data["history"])
        self.chance = list(data["chance"])
        self.decisions = list(data["decisions"])
        self._batch = []
        self._stale = True
        for move in data.get("partial", ()):
            self.apply(move)
