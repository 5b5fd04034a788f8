"""Roll Your Own at 4 players after the wild card: in play's batches a batch whose
worlds collapse is kept, not drawn again (issue 33, branch s68-four;
ryoseen.KEEP_WILD, KEEP_COLLAPSED at 3 opponents, as at 3 and 6 players).

Play's quarter batches there collapse (under ryoseen.MIN_EFFECTIVE effective worlds)
rarely, but the few that do found the worlds of large weight: at hand 31015, in 760
batches drawn as play draws them with every batch kept, 6 collapsed, held 1.2% of the
evidence at a ratio of sums of 51.6 against 70.6 for the rest; drawing them again put
the other batches' ratio of sums 0.2 points high (docs/dev/odds-precision.md, branch
s68-four).
"""

from __future__ import annotations

import pytest

from rollem.odds import ryoseen
from ryo_views import assert_collapsed_batches_kept
from ryo_views import ryo_view as _at


def test_where_4_players_after_the_wild_card_keeps_its_batches() -> None:
    assert 3 in ryoseen.KEEP_WILD and 3 in ryoseen.KEEP_COLLAPSED
    assert 4 in ryoseen.KEEP_WILD  # (5 players too since branch s68-five2)


def test_collapsed_batches_not_drawn_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every batch taken as collapsed (``MIN_EFFECTIVE`` above any batch's worlds):
    hand 31015, one seeded run of 6 batches draws none again and keeps all 6 as
    drawn (main drew each again with four times the candidates)."""
    assert_collapsed_batches_kept(monkeypatch, _at(4, "after the wild card", 31015))
