"""Roll Your Own at 5 players after the wild card: the origin shares learnt run by run
(issue 33, branch s65-wild5; ryoseen.LEARN_WILD_FROM).

There, as in the third card up round (branch s65-five), every batch of a play run drew
from one 400-world pilot's proposal; on hand 30004 that pilot rests on two worlds, and a
run's batches spread from 7 to 76 points (play showed 33.6% ± 22.1). With the shares
learnt as at 6 players (a pilot of 1,000 worlds in two stages, each batch's origin shares
averaged into the next batch's proposal, the seat's discards placed and their owners
drawn) the batches spread about a tenth as much (docs/dev/odds-precision.md, branch
s65-wild5).
"""

from __future__ import annotations

import statistics

from rollem.odds import ryoseen
from rollem.odds.play import play_odds
from ryo_views import ryo_seen as _seen
from ryo_views import ryo_view as _at


def test_the_shares_are_learnt_at_5_players_after_the_wild_card() -> None:
    # 3 since branch s65-wild4 (4 players after the wild card learns too)
    assert ryoseen.LEARN_WILD_FROM == 3
    wild = _seen(5, "after the wild card")
    assert ryoseen.learns_shares(wild)
    assert ryoseen.pilot_worlds(wild) == ryoseen.LEARN_PILOT
    assert ryoseen.steers_owners(wild)
    # third card up at 5 players as since branch s65-five, at 4 players since
    # s65-spread (ryoseen.LEARN_FOUR); 6 players as before (ryoseen.LEARN_FROM,
    # LEARN_WILD); 4 players after the wild card since s65-wild4
    # (tests/test_odds_wild4.py); before the third card not
    assert ryoseen.learns_shares(_seen(5, "third card up"))
    assert ryoseen.learns_shares(_seen(4, "third card up"))
    assert ryoseen.learns_shares(_seen(6, "after the wild card"))
    assert ryoseen.learns_shares(_seen(4, "after the wild card"))
    for players, round_name in ((5, "second card up"),):
        seen = _seen(players, round_name)
        assert not ryoseen.learns_shares(seen), (players, round_name)
        assert ryoseen.pilot_worlds(seen) == ryoseen.PILOT, (players, round_name)


def test_learnt_runs_at_5_players_after_the_wild_card_agree() -> None:
    """Hand 30004 (the seat about 40%): six seeded runs of 12 half batches (play's own
    part there). With the shares learnt their equities lay from 36.1 to 41.7 and their
    intervals within ±2.8 to ±4.3 points; main's 400-world pilot, the same seeds, gave
    equities from 12.6 to 50.5 and intervals of ±12.5 to ±19.0 (in play at 1 s its runs
    stated ±20 to ±23; docs/dev/odds-precision.md, branch s65-wild5)."""
    view = _at(5, "after the wild card", 30004)
    runs = [play_odds(view, seed=s, max_batches=12, clock=lambda: 0.0) for s in range(1, 7)]
    equities = [100 * o.equity for o in runs]
    widths = [100 * (o.interval or 0.0) for o in runs]
    assert max(equities) - min(equities) <= 9.0, equities
    assert max(widths) <= 5.5 and statistics.median(widths) <= 4.5, widths
