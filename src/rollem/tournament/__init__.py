"""Tournaments (issue 28): a sit-and-go where the stakes rise by level, players
bust out and the prize pool is paid by finishing place.

- :mod:`~rollem.tournament.schedule`: the level schedule (shipped turbo,
  regular and slow; or a custom one from TOML);
- :mod:`~rollem.tournament.places`: finishing places from the bust-outs;
- :mod:`~rollem.tournament.payouts`: the prize pool paid by place;
- :mod:`~rollem.tournament.icm`: a deal for the final players (chip-chop and
  ICM, Malmuth-Harville).
"""

from rollem.tournament.icm import chip_chop, icm_equities
from rollem.tournament.payouts import PAYOUT_TABLES, pay_places, payout_percentages
from rollem.tournament.places import Bust, finishing_places
from rollem.tournament.schedule import SCHEDULES, Level, Schedule, load_schedule

__all__ = [
    "PAYOUT_TABLES",
    "SCHEDULES",
    "Bust",
    "Level",
    "Schedule",
    "chip_chop",
    "finishing_places",
    "icm_equities",
    "load_schedule",
    "pay_places",
    "payout_percentages",
]
