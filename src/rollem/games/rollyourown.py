"""Five Card Roll Your Own (R-RYO-1..R-RYO-12), 2 to 8 players.

Antes; six cards face down (R-RYO-1); all at once, each player discards
three face down into the common pool, which is shuffled (R-RYO-2); all at
once, each turns one of its three cards up (R-RYO-3); round 1, opened by the
highest up card (R-RYO-4, R-C-8); first draw from the top of the pool in
seat order starting with the highest up card, then all at once one more
card up (R-RYO-5); round 2, opened by the highest two cards showing; second
draw and expose the same way (R-RYO-6); round 3, opened by the best hand
showing; the player with the lowest hand showing picks a pool card by
position, it is turned up and its rank is wild (R-RYO-7); round 4, opened by
the best hand showing with wild cards counted; showdown with the wild
evaluation (R-RYO-8, R-RYO-9: house options ``wild_duplicates`` and
``natural_beats_wild``, both off by default).

All-in players still discard, expose, draw and pick the wild card
(R-C-14). A hand where one player is left before the wild card is turned
ends there without turning it (R-RYO-11; the engine ends every hand as soon
as one player is left).

Fixed limit by default: small bet in rounds 1 and 2, big bet in rounds 3
and 4, a bet and up to three raises per round (R-RYO-10). In pot-/no-limit
the round's fixed-limit bet is the minimum bet.
"""

from __future__ import annotations

from rollem.cards import Card
from rollem.engine.betting import BettingRound, highest_showing, lowest_showing
from rollem.engine.hand import Hand
from rollem.engine.options import Options
from rollem.engine.pool import DiscardToPool, DrawFromPool, PickWildFromPool
from rollem.engine.showdown import Showdown
from rollem.engine.simultaneous import ExposeOne
from rollem.engine.step import Step
from rollem.engine.steps import Ante, DealHole
from rollem.games import Game, register

__all__ = ["CAPS", "ROLL_YOUR_OWN", "build"]

CAPS = (3, 3, 3, 3)
"""Raises after the bet in rounds 1-4 (R-RYO-10)."""


def own_cards(hand: Hand, seat: int) -> list[Card]:
    """A seat's five cards, up and down (R-RYO-8): no community cards."""
    return list(hand.hole[seat])


def build(options: Options) -> list[Step]:
    """The steps of one hand of Five Card Roll Your Own under ``options``."""
    caps = options.round_caps(CAPS, 4)
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


ROLL_YOUR_OWN = register(
    Game(
        id="rollyourown",
        name="Five Card Roll Your Own",
        min_players=2,
        max_players=8,
        build=build,
        house={"wild_duplicates": False, "natural_beats_wild": False},
        caps=CAPS,
    )
)
