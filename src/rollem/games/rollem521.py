"""5-2-1 Roll 'Em, high-low declare (R-521-1..R-521-10), 2 to 10 players.

Antes; five cards face down; round 1, opened by the player to the dealer's
left (R-521-1); first draw, in turn from the dealer's left, discarding 0, 1
or 2 (R-521-2); round 2, opened by the next active player to the left of
the player who opened round 1 (R-521-3); second draw, 0 or 1, no betting
after it (R-521-4); deck exhaustion by reshuffling the muck and the
discards except the served player's own (R-521-5, in
:mod:`rollem.engine.draw`); stacking all at once, hidden (R-521-6); four
roll-ups, each followed by a betting round opened by the highest card or
hand showing, high ranking only (R-521-7, R-C-8); the fifth card stays down;
declare high, low or both all at once (R-521-8); an optional betting round
after the declare (house ``bet_after_declare``, default off; opened as
R-C-7: the first active player to the dealer's left); settlement of each pot
separately (R-521-9, in :mod:`rollem.engine.declare`; house
``failed_both_rule``: ``carry`` by default, or ``split``).

Fixed limit by default: small bet in rounds 1-2, big bet in rounds 3-6 and
in the optional round after the declare; a bet and up to three raises per
round (R-521-10). In pot-/no-limit the round's fixed-limit bet is the
minimum bet. ``options.caps`` (7 entries: rounds 1-6 and the round after the
declare) overrides the caps.
"""

from __future__ import annotations

from rollem.engine.betting import (
    BettingRound,
    Opener,
    first_left_of_button,
    highest_showing,
    next_left_of_previous_opener,
)
from rollem.engine.declare import FAILED_BOTH_RULES, DeclareShowdown, DeclareSides
from rollem.engine.draw import DrawFromStub
from rollem.engine.errors import EngineError
from rollem.engine.options import Options
from rollem.engine.stacking import RollUp, StackOrder
from rollem.engine.step import Step
from rollem.engine.steps import Ante, DealHole
from rollem.games import Game, register

__all__ = ["CAPS", "ROLLEM521", "build"]

CAPS = (3, 3, 3, 3, 3, 3, 3)
"""Raises after the bet in rounds 1-6 and the round after the declare (R-521-10)."""


def build(options: Options) -> list[Step]:
    """The steps of one hand of 5-2-1 Roll 'Em under ``options``.

    Raises:
        EngineError: an unknown ``failed_both_rule``.
    """
    rule = options.get("failed_both_rule", "carry")
    if rule not in FAILED_BOTH_RULES:
        raise EngineError(f"unknown failed_both_rule {rule!r}: expected one of "
                          + ", ".join(FAILED_BOTH_RULES))
    caps = options.round_caps(CAPS, 7)
    small, big = options.small_bet, options.big_bet

    def rnd(i: int, name: str, size: int, opener: Opener) -> BettingRound:
        return BettingRound(name, size, caps[i], options.structure, opener=opener,
                            cap_heads_up=options.cap_heads_up)

    steps: list[Step] = [
        Ante(options.ante),
        DealHole(5),                                                # R-521-1
        rnd(0, "round 1", small, first_left_of_button),
        DrawFromStub("first draw", 2),                              # R-521-2, R-521-5
        rnd(1, "round 2", small, next_left_of_previous_opener),     # R-521-3
        DrawFromStub("second draw", 1),                             # R-521-4: no round after
        StackOrder(),                                               # R-521-6
    ]
    for k in range(4):                                              # R-521-7
        steps += [RollUp(f"roll {k + 1}"), rnd(2 + k, f"round {3 + k}", big, highest_showing)]
    steps.append(DeclareSides())                                    # R-521-8
    if options.get("bet_after_declare", False):
        steps.append(rnd(6, "after declare", big, first_left_of_button))
    steps.append(DeclareShowdown())                                 # R-521-9
    return steps


ROLLEM521 = register(
    Game(
        id="rollem521",
        name="5-2-1 Roll 'Em",
        min_players=2,
        max_players=10,
        build=build,
        house={"bet_after_declare": False, "failed_both_rule": "carry"},
        caps=CAPS,
    )
)
