"""The ``basic`` bot's short-stack play (issue 28): at most ten hands' forced
bets left, it goes all-in when its equity pays for the risk against one
caller, else checks or folds; never a call or part of a short stack."""

from __future__ import annotations

import random

from rollem.bots.basic import BasicBot
from rollem.engine import Bet, Check, Fold, Raise
from rollem.engine.options import Options
from rollem.table import Table
from test_bots import _fixed_odds

NO_LIMIT = Options(structure="no-limit", ante=1, small_bet=2, big_bet=4)


def _first_view(stack: int):  # type: ignore[no-untyped-def]
    table = Table([stack] * 3, game="sdr", rng=random.Random(2), options=NO_LIMIT)
    hand = table.new_hand()
    assert hand.pending is not None
    return hand, hand.pending.seats[0]


def test_a_short_stack_pushes_or_folds_by_the_price_of_being_called() -> None:
    # 30 chips, forced bets 1 x 3 + 2 = 5: short (at most 50).  After the antes
    # (pot 3) the first to act has 29: all-in risks 29 to win 3 + 29 + 29 if
    # called: it needs 29/61 = 0.475.
    hand, seat = _first_view(30)
    view = hand.view(seat)
    assert BasicBot(random.Random(1), odds=_fixed_odds(0.48), bluff=0).act(view) == Bet(29)
    assert BasicBot(random.Random(1), odds=_fixed_odds(0.47), bluff=0).act(view) == Check()
    hand.apply(seat, Bet(2))
    assert hand.pending is not None
    seat = hand.pending.seats[0]
    view = hand.view(seat)
    # facing 2 (pot 5): all-in to 29 risks 29, a caller adds 27: 29/61 again.
    # The old play called here with 0.3 (2 to win 7: 0.29); now it folds.
    assert BasicBot(random.Random(1), odds=_fixed_odds(0.30)).act(view) == Fold()
    assert BasicBot(random.Random(1), odds=_fixed_odds(0.50)).act(view) == Raise(29)


def test_a_deep_stack_plays_as_before() -> None:
    hand, seat = _first_view(200)  # 199 > 50: not short
    view = hand.view(seat)
    assert BasicBot(random.Random(1), odds=_fixed_odds(0.9), bluff=0).act(view) == Bet(2)
    assert BasicBot(random.Random(1), odds=_fixed_odds(0.05), bluff=0).act(view) == Check()
