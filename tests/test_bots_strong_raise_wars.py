"""The ``strong`` bot's re-raises before Roll Your Own no limit's last round
(issue 31, twenty-fifth pass; ``StrongBot.reraise_gate_cells``, off by default:
level in play): with the cell in the set, facing a raise it re-raises only
with a hand whose share against the top half of the raiser's weighted range
clears ``reraise_share`` (``_reraise_ok``, the last round's gate), on every
betting round. A spot from a league hand against ``strongtrap`` (deal replayed
from its seed, the recorded card choices and bets)."""

from __future__ import annotations

import random

from rollem.bots.strong import StrongBot
from rollem.cards import parse_card
from rollem.engine import Bet, Call, Check, Hand, HandView, Raise, SeededSource
from rollem.engine.actions import Discard, Expose
from rollem.engine.options import Options

C = parse_card

RAISED = [
    (0, Discard(cards=(C("9d"), C("Ah"), C("4c")))),
    (1, Discard(cards=(C("2d"), C("Ad"), C("8d")))),
    (0, Expose(card=C("Jc"))), (1, Expose(card=C("9c"))),
    (0, Check()), (1, Check()), (0, Expose(card=C("9d"))), (1, Expose(card=C("8d"))),
    (0, Check()), (1, Check()), (0, Expose(card=C("2d"))), (1, Expose(card=C("Jd"))),
    (1, Bet(4)), (0, Raise(10)),
]
"""Roll Your Own no limit heads-up, deal seed 70301318299274, button 1 (league
seed 590000, deal 37): checked through two rounds; on the third (third card
up) seat 1 bets 4 and seat 0 raises to 10."""


def _raised_view(structure: str = "no-limit") -> HandView:
    """Seat 1's view facing seat 0's raise to 10 on the third card up."""
    hand = Hand("rollyourown", [200, 200], button=1, options=Options(structure=structure),
                source=SeededSource(70301318299274))
    for seat, action in RAISED:
        hand.apply(seat, action)
    assert hand.pending is not None and hand.pending.seats == (1,)
    view = hand.view(1)
    assert view.round == "third card up"
    return view


def test_no_reraise_before_the_last_round_without_the_share() -> None:
    """Facing the raise on the third card up (a round before the wild card),
    seat 1 calls with every seed (read equity 0.59, price 6 of 22) with the
    gate on for Roll Your Own no limit; with the gate on the last round only
    (``reraise_gate_cells`` empty, the default and main before this pass) it
    re-raises with
    every seed (to 24 in the league hand, then called off a raise to 57 and
    lost 135 chips)."""
    view = _raised_view()
    gated, ungated = [], []
    for seed in range(6):
        bot = StrongBot(random.Random(seed))
        bot.reraise_gate_cells = frozenset({("rollyourown", "no-limit")})
        gated.append(bot.act(view))
        assert not bot._reraise_ok(view, 1)
        ungated.append(StrongBot(random.Random(seed)).act(view))
    assert all(isinstance(a, Call) for a in gated), gated
    assert all(isinstance(a, Raise) for a in ungated), ungated


def test_the_gate_is_off_by_default() -> None:
    """By default no cell has the gate before the last round (level with the bot
    without it against ``strongtrap``, ``docs/dev/league.md``): the last round's
    gate alone, as before."""
    assert StrongBot.reraise_gate_cells == frozenset()
