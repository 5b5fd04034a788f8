"""Five Card Roll Your Own odds (in progress)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from rollem.odds.result import Odds, OddsError

if TYPE_CHECKING:
    from rollem.odds.view import ViewInfo

__all__ = ["ryo_view_odds"]


def ryo_view_odds(info: ViewInfo, *, samples: int, rng: random.Random | None,
                  seed: int | None, exact_limit: int) -> Odds:
    """Not yet available."""
    raise OddsError("odds for rollyourown are not available yet")
