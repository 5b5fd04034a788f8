"""The three built-in games as they were written in Python before game files
(copied from rollem.games.sdr / rollyourown / rollem521 at the switch): the
reference the game files must match byte for byte (tests/test_gamefile_builtin.py)."""

from __future__ import annotations

from rollem.cards import Card
from rollem.engine.betting import (
    BettingRound,
    Opener,
    first_left_of_button,
    highest_showing,
    lowest_showing,
    next_left_of_previous_opener,
)
from rollem.engine.declare import FAILED_BOTH_RULES, DeclareShowdown, DeclareSides
from rollem.engine.draw import DrawFromStub
from rollem.engine.errors import EngineError
from rollem.engine.game import Game
from rollem.engine.hand import Hand
from rollem.engine.options import Options
from rollem.engine.pool import DiscardToPool, DrawFromPool, PickWildFromPool
from rollem.engine.showdown import Showdown
from rollem.engine.simultaneous import ExposeOne
from rollem.engine.stacking import RollUp, StackOrder
from rollem.engine.step import Step
from rollem.engine.steps import Ante, Burn, DealBoard, DealHole, TurnDead

# ---- sdr

SDR_CAPS = (1, 1, 1, 3)
"""Raises after the bet in rounds 1-4 (the inventor's practice, R-SDR-7)."""


def build_sdr(options: Options) -> list[Step]:
    """The steps of one hand of Stop, Drop and Roll under ``options``."""
    caps = options.round_caps(SDR_CAPS, 4)
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


SDR = (
    Game(
        id="sdr",
        name="Stop, Drop and Roll",
        min_players=2,
        max_players=10,
        build=build_sdr,
        house={"burn_before_roll": False},
        caps=SDR_CAPS,
    )
)

# ---- rollyourown

RYO_CAPS = (3, 3, 3, 3)
"""Raises after the bet in rounds 1-4 (R-RYO-10)."""


def own_cards(hand: Hand, seat: int) -> list[Card]:
    """A seat's five cards, up and down (R-RYO-8): no community cards."""
    return list(hand.hole[seat])


def build_rollyourown(options: Options) -> list[Step]:
    """The steps of one hand of Five Card Roll Your Own under ``options``."""
    caps = options.round_caps(RYO_CAPS, 4)
    sizes = (options.small_bet, options.small_bet, options.big_bet, options.big_bet)

    def rnd(i: int) -> BettingRound:
        return BettingRound(f"round {i + 1}", sizes[i], caps[i], options.structure,
                            opener=highest_showing, cap_heads_up=options.cap_heads_up)

    return [
        Ante(options.ante),
        DealHole(6),                          # R-RYO-1
        DiscardToPool(3),                     # R-RYO-2
        ExposeOne(),                          # R-RYO-3: 1 up, 2 down
        rnd(0),                               # R-RYO-4: highest up card
        DrawFromPool(highest_showing),        # R-RYO-5
        ExposeOne(),                          # 2 up, 2 down
        rnd(1),                               # highest two cards showing
        DrawFromPool(highest_showing),        # R-RYO-6
        ExposeOne(),                          # 3 up, 2 down
        rnd(2),                               # best hand showing
        PickWildFromPool(lowest_showing),     # R-RYO-7
        rnd(3),                               # R-RYO-8: wild cards counted
        Showdown(cards_of=own_cards, wild=True),
    ]


ROLL_YOUR_OWN = (
    Game(
        id="rollyourown",
        name="Five Card Roll Your Own",
        min_players=2,
        max_players=8,
        build=build_rollyourown,
        house={"wild_duplicates": False, "natural_beats_wild": False},
        caps=RYO_CAPS,
    )
)

# ---- rollem521

R521_CAPS = (3, 3, 3, 3, 3, 3, 3)
"""Raises after the bet in rounds 1-6 and the round after the declare (R-521-10)."""


def build_rollem521(options: Options) -> list[Step]:
    """The steps of one hand of 5-2-1 Roll 'Em under ``options``.

    Raises:
        EngineError: an unknown ``failed_both_rule``.
    """
    rule = options.get("failed_both_rule", "carry")
    if rule not in FAILED_BOTH_RULES:
        raise EngineError(f"unknown failed_both_rule {rule!r}: expected one of "
                          + ", ".join(FAILED_BOTH_RULES))
    caps = options.round_caps(R521_CAPS, 7)
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


ROLLEM521 = (
    Game(
        id="rollem521",
        name="5-2-1 Roll 'Em",
        min_players=2,
        max_players=10,
        build=build_rollem521,
        house={"bet_after_declare": False, "failed_both_rule": "carry"},
        caps=R521_CAPS,
    )
)
