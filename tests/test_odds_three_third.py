"""Roll Your Own odds in play at 3 players in the third card up round, before the
wild card (issue 33, branch s67-three).

Main pooled the batches there by their stated errors and drew the batches whose
worlds collapsed again: on hands 0 to 5 of 3 ``basic`` players (seed 60000) its runs
covered the truth (every plain batch kept, ratio of sums) 83 of 120 times, at hand 2
4 of 20 (the runs' mean 8.59 against 10.66 ± 0.06). Taken as after the wild card at
3 players (every batch kept, the shares learnt, 4,000-world batches weighed by
worlds with their spread: ``ryoseen.THREE_THIRD``) they covered 114 of 120
(docs/dev/odds-precision.md).
"""

from __future__ import annotations

from rollem.odds import ryoseen
from rollem.odds.play import HALF_WIDTH, play_odds
from rollem.odds.view import read_view
from ryo_views import bot_view, seeded_compiled_draws

TRUTH_HAND_2 = 0.1066
"""Hand 2's equity for seat 0: 1,225 plain batches of 4,000 worlds, every one kept,
by ratio of sums (10.66 ± 0.06 points)."""


def _no_time() -> float:
    return 0.0


@seeded_compiled_draws
def test_three_players_third_card_up_covers_the_truth() -> None:
    # On main the pooled batches stop at ±1.5 around 8.6 (20 runs at 1 s of CPU:
    # 4 covered 10.66); every batch kept, weighed by worlds, they cover it.
    view = bot_view(3, 2, "third card up", "basic")
    for seed in (1, 2, 3):
        odds = play_odds(view, seed=seed, clock=_no_time, max_batches=12)
        assert odds.interval is not None and odds.interval <= HALF_WIDTH
        assert abs(odds.equity - TRUTH_HAND_2) <= odds.interval, (seed, odds.equity,
                                                                  odds.interval)


def test_the_rule_is_the_third_card_up_round_at_three_players_only() -> None:
    third = ryoseen.seen_of(read_view(bot_view(3, 2, "third card up", "basic")))
    second = ryoseen.seen_of(read_view(bot_view(3, 2, "second card up", "basic")))
    four = ryoseen.seen_of(read_view(bot_view(4, 2, "third card up", "basic")))
    assert third is not None and second is not None and four is not None
    assert ryoseen.learns_shares(third) and not ryoseen.learns_shares(second)
    assert ryoseen.play_part(read_view(bot_view(3, 2, "third card up", "basic"))) == 4.0
    assert ryoseen.spread_view(read_view(bot_view(3, 2, "third card up", "basic")))
    # (the second card up round is weighed by worlds too since branch s68-second,
    # its shares not learnt: tests/test_odds_three_second.py)
    assert ryoseen.play_part(read_view(bot_view(4, 2, "third card up", "basic"))) == 1.0
