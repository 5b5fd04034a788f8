"""Roll Your Own at 5 players in the third card up round: the origin shares learnt run by run
(issue 33, branch s65-five; ryoseen.LEARN_THIRD_FROM).

There every batch of a play run draws from one pilot's proposal; with a 400-world pilot
how widely a run's batches spread was the run's (its pilot's), and the runs over ±1.5
points were those with a poor pilot. With the shares learnt as at 6 players (a pilot of
1,000 worlds in two stages, each batch's origin shares averaged into the next batch's
proposal, the seat's discards placed and their owners drawn) the runs' batches spread
about a third as much (docs/dev/odds-precision.md, branch s65-five).
"""

from __future__ import annotations

import statistics

from rollem.odds import ryoseen
from rollem.odds.play import play_odds
from ryo_views import ryo_seen as _seen
from ryo_views import ryo_view as _at


def test_the_shares_are_learnt_at_5_players_in_the_third_card_up_round_only() -> None:
    assert ryoseen.LEARN_THIRD_FROM == 4
    third = _seen(5, "third card up")
    assert ryoseen.learns_shares(third)
    assert ryoseen.pilot_worlds(third) == ryoseen.LEARN_PILOT
    assert ryoseen.steers_owners(third)
    # not before the third card up: as before (after the wild card at 5 players since
    # branch s65-wild5: tests/test_odds_learn_wild5.py; at 4 players since branch
    # s66-mix: tests/test_odds_wild4.py; 4 players third card up since branch s65-spread:
    # ryoseen.LEARN_FOUR, tests/test_odds_four_spread.py)
    for players, round_name in ((5, "second card up"),):
        seen = _seen(players, round_name)
        assert not ryoseen.learns_shares(seen), (players, round_name)
        assert ryoseen.pilot_worlds(seen) == ryoseen.PILOT, (players, round_name)
    # at 6 players as before (ryoseen.LEARN_FROM)
    assert ryoseen.learns_shares(_seen(6, "third card up"))
    assert ryoseen.learns_shares(_seen(6, "after the wild card"))


def test_learnt_runs_at_5_players_third_card_up_are_narrow() -> None:
    """Eight seeded runs of 12 half batches (play's own part there): with the shares
    learnt every interval within ±1.2 points and their median within ±0.7 (main's
    400-world pilot, the same seeds: see docs/dev/odds-precision.md, branch s65-five;
    in play a quarter of its runs were over ±1.5)."""
    view = _at(5, "third card up")
    widths = [100 * (play_odds(view, seed=s, max_batches=12, clock=lambda: 0.0).interval or 0.0)
              for s in range(1, 9)]
    assert max(widths) <= 1.2 and statistics.median(widths) <= 0.7, widths
