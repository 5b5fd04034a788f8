"""Roll Your Own at 5 players after the wild card: in play's half batches a batch whose
worlds collapse is kept, not drawn again (issue 33, branch s68-five2;
ryoseen.KEEP_WILD, KEEP_COLLAPSED at 4 opponents, as at 3, 4 and 6 players).

Play's half batches there collapse (under ryoseen.MIN_EFFECTIVE effective worlds)
rarely, but those few found the worlds of large weight and low equity: at hand 31021,
2,280 half batches drawn as play draws them with every batch kept came to a ratio of
sums of 69.87 ± 0.09, the 9 collapsed ones left out 69.94 (+0.070 ± 0.026, paired;
quarter batches +0.51 ± 0.11; the truth 69.83 ± 0.08; docs/dev/odds-precision.md,
branch s68-five2). The other part of play's offset there, its mean by worlds 0.16 to
0.18 above the batches' ratio of sums, is left (ryoseen.LEAN_WILD has no entry for 4
opponents: leaning there raised the runs' scatter more than it took off).
"""

from __future__ import annotations

import pytest

from rollem.odds import ryoseen
from ryo_views import assert_collapsed_batches_kept
from ryo_views import ryo_view as _at


def test_where_5_players_after_the_wild_card_keeps_its_batches() -> None:
    assert 4 in ryoseen.KEEP_WILD and 4 in ryoseen.KEEP_COLLAPSED


def test_collapsed_batches_not_drawn_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every batch taken as collapsed (``MIN_EFFECTIVE`` above any batch's worlds):
    hand 31021, one seeded run of 6 batches draws none again and keeps all 6 as
    drawn (main drew each again with four times the candidates)."""
    assert_collapsed_batches_kept(monkeypatch, _at(5, "after the wild card", 31021))

