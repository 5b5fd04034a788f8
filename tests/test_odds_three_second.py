"""Roll Your Own odds in play at 3 players in the second card up round (issue 33,
branch s68-second; rules R-RYO-5).

Main pooled the batches there by their stated errors, drew the batches whose worlds
collapsed again and stopped at ±1.5: on hands 0 to 5 of 3 ``basic`` players (seed
60000) its runs came up to 1.3 points from the truth (every plain batch kept, ratio
of sums; hand 2: 24.71 ± 0.05). Taken as in the third card up round at 3 players
(every batch kept, 4,000-world batches weighed by worlds with their spread:
``ryoseen.THREE_SECOND``), the shares not learnt (docs/dev/odds-precision.md).
"""

from __future__ import annotations

from rollem.odds import ryoseen
from rollem.odds.play import HALF_WIDTH, play_odds
from rollem.odds.view import read_view
from ryo_views import bot_view

TRUTH_HAND_2 = 0.24708
"""Hand 2's equity for seat 0 in the second card up round: 1,502 plain batches of
4,000 worlds, every one kept, by ratio of sums (24.71 ± 0.05 points)."""


def _no_time() -> float:
    return 0.0


def test_three_players_second_card_up_covers_the_truth() -> None:
    view = bot_view(3, 2, "second card up", "basic")
    for seed in (1, 2, 3):
        odds = play_odds(view, seed=seed, clock=_no_time, max_batches=16)
        assert odds.interval is not None and odds.interval <= HALF_WIDTH
        assert abs(odds.equity - TRUTH_HAND_2) <= odds.interval, (seed, odds.equity,
                                                                  odds.interval)


def test_the_second_card_up_rule_is_three_players_only() -> None:
    second = read_view(bot_view(3, 2, "second card up", "basic"))
    first = read_view(bot_view(3, 2, "first card up", "basic"))
    four = read_view(bot_view(4, 2, "second card up", "basic"))
    seen = ryoseen.seen_of(second)
    assert seen is not None
    assert ryoseen.spread_view(second) and ryoseen.play_part(second) == 4.0
    assert not ryoseen.learns_shares(seen)  # learnt from the third card up only
    assert not ryoseen.spread_view(first) and ryoseen.play_part(first) == 1.0
    assert not ryoseen.spread_view(four) and ryoseen.play_part(four) == 1.0
