"""Stop, Drop and Roll (R-SDR-1..R-SDR-8), 2 to 10 players.

Antes, two hole cards; round 1; burn + the Stop (dead); round 2; burn +
the Drop (dead); round 3; the Roll (three community cards; a burn first
only with house option ``burn_before_roll``); round 4; showdown with the two
hole cards plus the Roll (the Stop and Drop are part of no hand).

Fixed limit by default: small bet rounds 1-3, big bet round 4; the
inventor's cap: a bet and 1 raise in rounds 1-3, a bet and 3 raises in
round 4 (R-SDR-7). In pot-/no-limit the round's fixed-limit bet is the
minimum bet.
"""

from __future__ import annotations

from rollem.engine.betting import BettingRound
from rollem.engine.options import Options
from rollem.engine.showdown import Showdown
from rollem.engine.step import Step
from rollem.engine.steps import Ante, Burn, DealBoard, DealHole, TurnDead
from rollem.games import Game, register

__all__ = ["SDR", "build"]

CAPS = (1, 1, 1, 3)
"""Raises after the bet in rounds 1-4 (the inventor's practice, R-SDR-7)."""


def build(options: Options) -> list[Step]:
    """The steps of one hand of Stop, Drop and Roll under ``options``."""
    caps = options.round_caps(CAPS, 4)
    sizes = (options.small_bet, options.small_bet, options.small_bet, options.big_bet)

    def rnd(i: int) -> BettingRound:
        return BettingRound(f"round {i + 1}", sizes[i], caps[i], options.structure,
                            cap_heads_up=options.cap_heads_up)

    steps: list[Step] = [
        Ante(options.ante),
        DealHole(2),
        rnd(0),
        Burn(),
        TurnDead("stop"),
        rnd(1),
        Burn(),
        TurnDead("drop"),
        rnd(2),
    ]
    if options.get("burn_before_roll", False):
        steps.append(Burn())
    steps += [DealBoard(3, "roll"), rnd(3), Showdown()]
    return steps


SDR = register(
    Game(
        id="sdr",
        name="Stop, Drop and Roll",
        min_players=2,
        max_players=10,
        build=build,
        house={"burn_before_roll": False},
        caps=CAPS,
    )
)
