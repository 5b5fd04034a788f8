"""The :class:`Hand`: one hand of any game, run from the game's list of steps.

Style of python-chess/PokerKit: ``hand.pending`` (the decision waited
for), ``hand.legal_actions(seat)``, ``hand.apply(seat, action)`` (returns the
new events), ``hand.is_over``, ``hand.result``, ``hand.view(seat)``.

Once the hand is over, any seat dealt in may still :class:`Show` its cards
by choice (R-C-11): ``hand.legal_actions(seat)`` then offers ``"show"``
(``kind="show"``, ``cards`` = the cards it may show, ``min_count`` 1); the
``show`` event is public and the result does not change.

State is plain public attributes that steps read and mutate (see
``docs/dev/engine.md``); consumers (bots, terminal, web, odds) must use
:meth:`Hand.view` only.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rollem.cards import Card
from rollem.engine.actions import Show
from rollem.engine.decisions import Legal, Pending
from rollem.engine.errors import EngineError, IllegalAction, brief_repr, whole_number
from rollem.engine.events import Event
from rollem.engine.options import Options
from rollem.engine.pots import build_pots, split_pot
from rollem.engine.public_order import show_event
from rollem.engine.randomness import RandomSource, SecureSource
from rollem.engine.result import HandOutcome, PotResult
from rollem.engine.step import Step

if TYPE_CHECKING:
    from rollem.engine.game import Game
    from rollem.engine.views import HandView

__all__ = ["Hand"]


class Hand:
    """One hand of poker.

    Args:
        game: a :class:`rollem.engine.game.Game` or its short id (``"sdr"``,
            looked up in the installed catalogue, :func:`rollem.engine.game.find_game`).
        stacks: chips of each seat, seat 0 first; a seat with 0 chips sits
            out (is not dealt in).
        button: the seat with the dealer button (must be dealt in).
        options: table options (default: the table defaults of R-C-6).
        source: where random outcomes come from (default: :class:`SecureSource`).
        carry_in: chips carried in from the previous hand (main pot).
        preset: cards chosen in advance (``rollem.history.DealPreset``: its
            ``take(hand, kind, seat)`` supplies each card dealt); for
            hand-written histories and tests only.

    Raises:
        EngineError: bad stacks, button, carry_in, player count, or options; a
            stack, the button or carry_in that is not an int (``"100"``, ``"1"``,
            ``True``) names the argument and what it takes; a ``game`` that is
            neither an id nor a :class:`~rollem.engine.game.Game`.
        KeyError: ``game`` is an id no game has (the message names the ids).

    Attributes (read by steps; consumers use :meth:`view`):
        n: number of seats. button. stacks, committed (chips in this hand per
        seat), bets (this betting round). dealt (dealt in), folded.
        hole: each seat's cards in the order received; up: parallel flags,
        True for a face-up card. board (community cards), dead (dead cards,
        e.g. the Stop and Drop), burned, muck, pool, pool_by_seat,
        wild_ranks. deck (the stub's order) and deck_pos (next card).
        events: the log. actions: ``(seat, action)`` applied, in order;
        action_marks: for each action, the index of its first event.
        extra: a dict for a game's own state.
    """

    def __init__(
        self,
        game: Game | str,
        stacks: Sequence[int],
        *,
        button: int = 0,
        options: Options | None = None,
        source: RandomSource | None = None,
        carry_in: int = 0,
        preset: Any = None,
    ) -> None:
        from rollem.engine.game import Game, find_game

        if isinstance(game, str):
            game = find_game(game)
        elif not isinstance(game, Game):
            raise EngineError(f"game must be a game's id (a str, e.g. 'sdr') or a Game, got "
                              f"{brief_repr(game)}, of type {type(game).__name__}")
        self.game = game
        options = options if options is not None else Options()
        if any(k not in options.house for k in game.house):
            options = replace(options, house={**game.house, **options.house})
        self.options = options
        n = len(stacks)
        if any(type(s) is not int or s < 0 for s in stacks):
            raise EngineError(f"stacks must be whole numbers of chips >= 0, got {list(stacks)}")
        self.n = n
        button = whole_number(button, "button", f"a seat number (an int) 0..{n - 1} with chips")
        carry_in = whole_number(carry_in, "carry_in", "a whole number of chips >= 0")
        self.dealt = [s > 0 for s in stacks]
        players = sum(self.dealt)
        if not game.min_players <= players <= game.max_players:
            raise EngineError(
                f"{game.name} needs {game.min_players} to {game.max_players} players "
                f"with chips; got {players}"
            )
        if not 0 <= button < n or not self.dealt[button]:
            raise EngineError(f"button {button} must be a seat dealt in (0..{n - 1} with chips)")
        self.button = button
        self.start_stacks = tuple(stacks)
        self.stacks = list(stacks)
        self.committed = [0] * n
        self.bets = [0] * n
        self.folded = [not d for d in self.dealt]
        self.n_live = players
        self.hole: list[list[Card]] = [[] for _ in range(n)]
        self.up: list[list[bool]] = [[] for _ in range(n)]
        self.board: list[Card] = []
        self.dead: list[Card] = []
        self.burned: list[Card] = []
        self.muck: list[Card] = []
        self.forfeit: set[int] = set()
        """Seats still in at the showdown whose hands cannot win (a PHH file's
        muck, ``pN sm``, or a hand it hides, ``????``): eligible for the pots
        they paid into, mucked there, awarded nothing (R-C-11)."""
        self.pool: list[Card] = []
        self.pool_by_seat: dict[int, list[Card]] = {}
        self.wild_ranks: tuple[int, ...] = ()
        self.carry_in = carry_in
        self.events: list[Event] = []
        self.actions: list[tuple[int, object]] = []
        self.extra: dict[str, Any] = {}
        # betting round state (see betting.py)
        self.round = -1
        self.round_name = ""
        self.current_bet = 0
        self.last_raise = 0
        self.full_level = 0
        self.reopen = 0
        self.n_full = 0
        self.acted = [-1] * n
        self.aggressor: int | None = None
        self.openers: list[int] = []
        self.result: HandOutcome | None = None
        self.pending: Pending | None = None
        self.source = source if source is not None else SecureSource()
        self._preset: Any = preset
        self.action_marks: list[int] = []
        self.shown_by_choice: dict[int, list[Card]] = {}
        self.deck: list[Card] = self.source.shuffle("deck", game.deck)
        self.deck_pos = 0
        self.steps: list[Step] = game.build(self.options)
        self.step_index = 0
        self._advance()

    # ------------------------------------------------------------------ API

    @property
    def is_over(self) -> bool:
        """True once the hand has a :attr:`result`."""
        return self.result is not None

    def legal_actions(self, seat: int) -> Legal:
        """What ``seat`` may do now (``actions`` empty when it is not asked).

        After the hand is over: ``Legal(kind="show", actions=("show",),
        cards=..., min_count=1, max_count=len(cards))`` for a seat dealt in
        with cards not yet shown (R-C-11, showing by choice), else nothing.

        Raises:
            TypeError: ``seat`` is not an int (``"1"``, ``True``): s62-term, it
                answered "nothing" for ``"1"`` when seat 1 was asked.
        """
        if type(seat) is not int:
            seat = self._seat_number(seat)
        p = self.pending
        if p is None and self.result is not None:
            cards = self.showable(seat)
            if not cards:
                return Legal(kind="show")
            return Legal(kind="show", actions=("show",), cards=cards, min_count=1,
                         max_count=len(cards))
        if p is None or seat not in p.seats:
            return Legal(kind=p.kind if p else "none")
        return self.steps[self.step_index].legal(self, seat)

    def showable(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` may still show by choice once the hand is over
        (R-C-11): its own cards (folded or mucked ones too) not yet shown to
        everyone; ``()`` before the end, for a seat not dealt in or a bad seat."""
        if self.result is None or not 0 <= seat < self.n or not self.dealt[seat]:
            return ()
        seen = set(self.shown_by_choice.get(seat, ()))
        seen.update(self.result.shown_cards.get(seat, ()))
        return tuple(c for c, u in zip(self.hole[seat], self.up[seat], strict=True)
                     if not u and c not in seen)

    def apply(self, seat: int, action: object) -> list[Event]:
        """Apply ``action`` by ``seat``; return the events it caused.

        Raises:
            IllegalAction: saying why and what is allowed; the hand is unchanged.
            TypeError: ``seat`` is not an int (``"1"``, ``True``); the hand is
                unchanged (s62-term: ``apply("1", ...)`` said "seat 1 cannot act
                now: waiting for seat 1").
        """
        if type(seat) is not int:
            seat = self._seat_number(seat)
        p = self.pending
        if p is None and self.result is not None and type(action) is Show:
            return self._show(seat, action)
        if p is None:
            raise IllegalAction(f"seat {seat} cannot act: the hand is over; "
                                "allowed: show your own cards")
        if type(action) is Show:
            raise IllegalAction(f"seat {seat} cannot show yet: cards are shown by choice only "
                                "once the hand is over")
        if seat not in p.seats:
            who = ", ".join(str(s) for s in p.seats)
            raise IllegalAction(
                f"seat {seat} cannot act now: waiting for seat {who} ({p.kind})"
            )
        first = len(self.events)
        nxt = self.steps[self.step_index].act(self, seat, action)
        self.actions.append((seat, action))
        self.action_marks.append(first)
        self.pending = nxt
        if nxt is None:
            self.step_index += 1
        else:
            nxt.hand = self
        if self.n_live == 1:
            self._end_uncontested()
        elif nxt is None:
            self._advance()
        return self.events[first:]

    def _seat_number(self, seat: object) -> int:
        """``seat`` as an ``int`` (numpy's integers too), else ``TypeError`` naming
        the seats this hand has (a ``bool`` or a numeral as text is no seat)."""
        if isinstance(seat, bool) or not hasattr(seat, "__index__"):
            raise TypeError(f"seat must be a seat number (an int) 0..{self.n - 1} of this "
                            f"{self.n}-seat hand, got {brief_repr(seat)} (a {type(seat).__name__})")
        return operator.index(seat)

    def view(self, seat: int | None, *, events: bool = True) -> HandView:
        """What ``seat`` may know (``None`` = a spectator); see :mod:`rollem.engine.views`
        (``events=False``: without the event log).

        Raises:
            EngineError: ``seat`` is an int that is no seat of this hand (not
                ``0 <= seat < n``; a spectator is ``None``).
            TypeError: ``seat`` is neither an int nor ``None`` (a bool too).
        """
        from rollem.engine.views import build_view

        return build_view(self, seat, events=events)

    # ------------------------------------------------- helpers for steps

    def order_from(self, start: int) -> list[int]:
        """All seats clockwise starting at ``start``."""
        n = self.n
        return [(start + i) % n for i in range(n)]

    def live_from_left(self) -> list[int]:
        """Seats still in the hand, clockwise from the dealer's left (R-C-7, R-C-13)."""
        n, b, folded = self.n, self.button, self.folded
        return [s for s in ((b + i) % n for i in range(1, n + 1)) if not folded[s]]

    def deal_card(self, kind: str, seat: int | None = None) -> Card:
        """Take the next card off the stub; ``kind`` (``"hole"``, ``"board"``,
        ``"burn"``, ``"dead"``, ``"draw"``) and ``seat`` say where it goes.

        Raises:
            EngineError: the stub is empty (a step that can run out reshuffles first).
        """
        if self._preset is not None:
            card: Card = self._preset.take(self, kind, seat)
            return card
        pos = self.deck_pos
        if pos >= len(self.deck):
            raise EngineError("the stub is empty")
        self.deck_pos = pos + 1
        return self.deck[pos]

    @property
    def stub_left(self) -> int:
        """Cards left in the stub."""
        return len(self.deck) - self.deck_pos

    def fold(self, seat: int) -> None:
        """Fold ``seat``: its cards go to the muck (R-C-11)."""
        self.folded[seat] = True
        self.n_live -= 1
        self.muck.extend(self.hole[seat])

    def return_uncalled(self) -> None:
        """Return the uncalled part of the round's highest bet to its bettor (R-C-9)."""
        bets = self.bets
        top = 0
        top_seat = -1
        second = 0
        for s, b in enumerate(bets):
            if b > top:
                second = top
                top = b
                top_seat = s
            elif b > second:
                second = b
        if top > second:
            diff = top - second
            self.stacks[top_seat] += diff
            bets[top_seat] = second
            self.committed[top_seat] -= diff
            if self.current_bet > second:
                self.current_bet = second
            self.events.append(Event("return", top_seat, {"amount": diff}))

    def finish(
        self,
        pots: list[PotResult],
        *,
        shown: dict[int, str] | None = None,
        shown_cards: dict[int, tuple[Card, ...]] | None = None,
        carried: int = 0,
        showdown: bool = True,
        runs: list[dict[str, Any]] | None = None,
    ) -> None:
        """Pay the pots' winners and set :attr:`result` (called by a showdown step;
        ``runs``: each run of a hand run twice, :attr:`HandOutcome.runs`)."""
        for pot in pots:
            for s, chips in pot.winners.items():
                self.stacks[s] += chips
        net = {s: self.stacks[s] - self.start_stacks[s] for s in range(self.n) if self.dealt[s]}
        self.result = HandOutcome(
            game=self.game.id,
            pots=pots,
            net=net,
            shown=shown or {},
            shown_cards=shown_cards or {},
            carried=carried,
            showdown=showdown,
            runs=list(runs or []),
        )
        self.pending = None
        self.events.append(Event("end", None, {"net": {str(s): v for s, v in net.items()}}))

    # ------------------------------------------------------------ internals

    def _show(self, seat: int, action: Show) -> list[Event]:
        """Show cards by choice after the hand (R-C-11): public, changes no result."""
        allowed = self.showable(seat)
        cards = action.cards
        if not 0 <= seat < self.n or not self.dealt[seat]:
            raise IllegalAction(f"seat {seat} cannot show: it was not dealt into this hand")
        if not allowed:
            raise IllegalAction(f"seat {seat} has no cards left to show: every card it holds "
                                "is already face up or shown")
        bad = [c for c in cards if c not in allowed]
        if not cards or bad or len(set(cards)) != len(cards):
            from rollem.cards import format_cards

            what = "no cards" if not cards else format_cards(cards)
            raise IllegalAction(f"seat {seat} cannot show {what}: allowed: show 1 to "
                                f"{len(allowed)} of {format_cards(allowed)}")
        first = len(self.events)
        self.shown_by_choice.setdefault(seat, []).extend(cards)
        self.actions.append((seat, action))
        self.action_marks.append(first)
        data: dict[str, Any] = {"cards": list(cards), "by_choice": True}
        if not self.showable(seat):
            # the whole hand is public now: it, and its name as a showdown says it
            # (stop 53: "Ann shows 9h 6d by choice" named no hand)
            from rollem.engine.showdown import shown_hand_words

            data["hand"] = list(self.hole[seat])
            words = shown_hand_words(self, seat)
            if words is not None:
                data["description"] = words
        self.events.append(show_event(self, seat, data))
        return self.events[first:]

    def _advance(self) -> None:
        steps = self.steps
        while self.pending is None and self.result is None:
            if self.step_index >= len(steps):
                raise EngineError(f"{self.game.name} ran out of steps without a showdown")
            if self.options.run_twice:  # may insert the choice to run it twice (issue 27)
                from rollem.engine.runtwice import maybe_offer

                maybe_offer(self)
            p = steps[self.step_index].start(self)
            if p is None:
                self.step_index += 1
            else:
                p.hand = self
                self.pending = p

    def _end_uncontested(self) -> None:
        """All but one folded: the last player wins every pot without showing (R-C-11)."""
        self.return_uncalled()
        winner = next(s for s in range(self.n) if not self.folded[s])
        pots = []
        for amount, _eligible in build_pots(self.committed, [not f for f in self.folded],
                                            self.carry_in):
            pots.append(PotResult(amount, (winner,), split_pot(amount, (winner,), self.button,
                                                                  self.n)))
        self.events.append(Event("win", winner, {"amount": sum(p.amount for p in pots),
                                                 "uncontested": True}))
        self.finish(pots, showdown=False)
