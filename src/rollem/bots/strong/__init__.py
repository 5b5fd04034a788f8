"""The ``strong`` level: reads opponents, bets by expected value against their
weighted ranges, plays card choices by simulation (issue 20).

See :mod:`rollem.bots.strong.bot` (the bot), :mod:`.worlds` (sampled worlds),
:mod:`.reads` (opponents' ranges and tendencies), :mod:`.choices` (the card
choices as plain functions, also for :mod:`rollem.odds`).
"""

from __future__ import annotations

from rollem.bots import register_level
from rollem.bots.strong.bot import StrongBot
from rollem.bots.strong.choices import card_action

__all__ = ["StrongBot", "card_action"]

register_level("strong", StrongBot)
