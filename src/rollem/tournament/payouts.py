"""The prize pool paid by finishing place (issue 28).

The shipped tables give each paid place's percentage of the prize pool by
the number of entrants; amounts are whole units (chips or money, as the
buy-in is counted), each place's amount rounded down, and the units left by
rounding go to first place (the odd chip rule stated here).  Players who
share a place (busted in the same hand with the same chips) share the
prizes of the places they cover equally; units that do not split go one
each to the tied players in the order given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["PAYOUT_TABLES", "pay_places", "payout_percentages"]

PAYOUT_TABLES: tuple[tuple[int, int, tuple[int, ...]], ...] = (
    (2, 3, (100,)),
    (4, 5, (65, 35)),
    (6, 8, (50, 30, 20)),
    (9, 10, (45, 27, 18, 10)),
)
"""``(fewest entrants, most entrants, percentages by place)``: the shipped tables."""


def payout_percentages(entrants: int) -> tuple[int, ...]:
    """The shipped percentages for ``entrants`` players (2 to 10).

    Raises:
        ValueError: outside 2 to 10.
    """
    for low, high, table in PAYOUT_TABLES:
        if low <= entrants <= high:
            return table
    raise ValueError(f"a sit-and-go takes 2 to 10 entrants, not {entrants}")


def place_amounts(pool: int, percentages: Sequence[int]) -> list[int]:
    """Each paid place's amount of ``pool`` (whole units; the remainder to first).

    Raises:
        ValueError: percentages that do not add up to 100, or a negative pool.
    """
    if sum(percentages) != 100 or any(p < 0 for p in percentages):
        raise ValueError(f"payout percentages must add up to 100, not {sum(percentages)}")
    if pool < 0:
        raise ValueError("the prize pool cannot be negative")
    amounts = [pool * p // 100 for p in percentages]
    amounts[0] += pool - sum(amounts)
    return amounts


def pay_places(pool: int, percentages: Sequence[int],
               places: Mapping[int, int]) -> dict[int, int]:
    """What each player wins: ``places`` maps a player to their finishing place
    (1 = the winner; tied players share a place number), in the order their
    ties are to get odd units.  Returns player -> amount (0 for the unpaid);
    the amounts add up to ``pool`` when every paid place is filled."""
    amounts = place_amounts(pool, percentages)
    out = {player: 0 for player in places}
    by_place: dict[int, list[int]] = {}
    for player, place in places.items():
        by_place.setdefault(place, []).append(player)
    for place, tied in sorted(by_place.items()):
        covered = amounts[place - 1:place - 1 + len(tied)]
        share, odd = divmod(sum(covered), len(tied))
        for i, player in enumerate(tied):
            out[player] = share + (1 if i < odd else 0)
    return out
