"""Run it twice (issue 27; RULES.md has no rule).

When the table allows it (``Options.run_twice``) and, between two steps of a
hand, nobody can bet any more (at most one player still in has chips behind,
and that one owes nothing) while shared cards are still to come, the players still in choose all at
once whether to run it twice (:class:`RunTwiceChoice`, decision kind
``"run_twice"``, action :class:`~rollem.engine.actions.RunTwice`; a timeout
or a computer player that does not care says no). Only if every one of them
says yes, the rest of the board is dealt twice: the first run as usual, then
the board (and dead cards) go back to where they stood and the same steps
deal a second run from the rest of the stub (a public ``run`` event
``{"run": 2}`` before it). Each pot is split between the two runs (the odd
chip to the first run) and each half goes to that run's winners
(:class:`~rollem.engine.showdown.PotShowdown`); ``win`` events carry
``"run": 1`` or ``2``. The hand's ``board`` is the first run's;
``hand.extra["run_twice"]["runs"]`` holds both boards and each run's pots.

It is offered only where what remains is burns, board and dead cards, betting
rounds (skipped: nobody can bet) and a cards-speak showdown: hold'em, Omaha,
Stop, Drop and Roll's Drop or Roll, game files alike; never in a declare or
draw game. It is asked at most once per hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rollem.engine.actions import RunTwice, action_words
from rollem.engine.betting import BettingRound
from rollem.engine.decisions import Legal
from rollem.engine.errors import IllegalAction
from rollem.engine.events import Event
from rollem.engine.simultaneous import AllAtOnceStep
from rollem.engine.steps import Burn, DealBoard, TurnDead

if TYPE_CHECKING:
    from rollem.cards import Card
    from rollem.engine.game import Game
    from rollem.engine.hand import Hand
    from rollem.engine.options import Options
    from rollem.engine.step import Step

__all__ = ["RunTwiceChoice", "maybe_offer", "run_twice_refusal", "second_run"]

_DEALS = (Burn, DealBoard, TurnDead)


def _showdown_index(hand: Hand) -> int | None:
    """The index of the cards-speak showdown that the remaining steps lead to when
    they are only deals, burns and betting rounds (with a card still to come)."""
    return _showdown_after(hand.steps, hand.step_index)


def _showdown_after(steps: Sequence[Step], start: int) -> int | None:
    """:func:`_showdown_index` of ``steps`` from index ``start`` on."""
    from rollem.engine.showdown import PotShowdown

    cards = False
    for i in range(start, len(steps)):
        step = steps[i]
        if isinstance(step, PotShowdown):
            return i if cards else None
        if isinstance(step, DealBoard | TurnDead):
            cards = True
        elif not isinstance(step, (*_DEALS, BettingRound)):
            return None
    return None


def run_twice_refusal(game: Game, options: Options) -> str | None:
    """Why no hand of ``game`` (as built under ``options``) can ever be offered the
    choice to run it twice (one line), or ``None`` when one can: the choice needs
    a point from which only burns, shared cards (board or dead) and betting rounds
    lead to a cards-speak showdown (see the module doc): stud, razz, draw, deuces
    wild, 5-2-1 and Roll Your Own have none."""
    steps = game.build(replace(options, run_twice=False, bomb_pot=0))
    if any(_showdown_after(steps, i) is not None for i in range(len(steps))):
        return None
    return (f"{game.name} never runs it twice: it has no shared cards still to come "
            "before a cards-speak showdown once nobody can bet (run it twice is for "
            "board games such as hold'em, Omaha and Stop, Drop and Roll)")


def maybe_offer(hand: Hand) -> None:
    """Between steps: insert the choice when the hand has come to run it twice
    (see the module doc). Called by :class:`~rollem.engine.hand.Hand` only when
    ``options.run_twice`` is on."""
    if "run_twice" in hand.extra or hand.n_live < 2:
        return
    live = [s for s in range(hand.n) if not hand.folded[s]]
    behind = [s for s in live if hand.stacks[s] > 0]
    top = max(hand.bets)
    if len(behind) > 1 or any(hand.bets[s] < top for s in behind):
        return  # someone may still bet, or must still call or fold
    if _showdown_index(hand) is None:
        return
    hand.extra["run_twice"] = {"agreed": False, "from": hand.step_index + 1,
                               "board": len(hand.board), "dead": len(hand.dead)}
    hand.steps.insert(hand.step_index, RunTwiceChoice())


class RunTwiceChoice(AllAtOnceStep):
    """All at once, each player still in says whether to run it twice."""

    name = "run it twice"
    kind = "run_twice"

    def legal_for(self, hand: Hand, seat: int) -> Legal:
        return Legal(kind="run_twice", actions=("run_twice",))

    def check(self, hand: Hand, seat: int, action: object) -> None:
        if type(action) is not RunTwice or type(action.agree) is not bool:
            raise IllegalAction(f"seat {seat} must say whether to run it twice: "
                                f"RunTwice(True) or RunTwice(False); got {action_words(action)}")

    def resolve(self, hand: Hand, choices: dict[int, object]) -> None:
        yes = sorted(s for s, a in choices.items() if isinstance(a, RunTwice) and a.agree)
        agreed = len(yes) == len(choices)
        hand.extra["run_twice"]["agreed"] = agreed
        hand.events.append(Event("run_twice", None, {"agreed": agreed, "yes": yes}))


def second_run(hand: Hand) -> list[tuple[list[Card], list[Card]]] | None:
    """At the showdown of a hand that runs it twice: deal the second run (the
    board and dead cards back to where they stood at the choice, then the same
    steps again) and return ``[(board, dead) of run 1, of run 2]``, leaving the
    second run's on the hand; ``None`` when the hand runs once. Called again on
    a hand whose runs are dealt (a showdown checked again, as a player's own
    copy is: :mod:`rollem.history_copy`), it returns the runs dealt."""
    info: dict[str, Any] | None = hand.extra.get("run_twice")
    if not info or not info["agreed"]:
        return None
    if "runs" in info:
        return [(list(r["board"]), list(r["dead"])) for r in info["runs"]]
    first = (list(hand.board), list(hand.dead))
    hand.board = first[0][: info["board"]]
    hand.dead = first[1][: info["dead"]]
    hand.events.append(Event("run", None, {"run": 2}))
    for step in hand.steps[info["from"]: hand.step_index]:
        if isinstance(step, _DEALS):
            step.start(hand)
    info["runs"] = []
    return [first, (list(hand.board), list(hand.dead))]
