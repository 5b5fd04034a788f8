"""A deal for the final players of a tournament (issue 28): each player's
equity in the prize money left, by ICM or by chip-chop.

ICM (the Malmuth-Harville method): a player's chance to finish first is
their share of the chips; given who finished above, a player's chance to
finish next is their share of the chips those players did not hold.  The
equity is each place's prize weighted by those chances.  Exact, over the
players left (subsets of the players: up to 2^n states, n at most 12;
:func:`icm_equities` works out only the places paid, :func:`icm_whole_units`
every place in fixed point).

Chip-chop: every player is sure of the smallest prize still to be paid to
the players left; the rest is split in proportion to chips.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations

__all__ = ["chip_chop", "icm_equities", "icm_whole_units", "place_probabilities"]

MAX_PLAYERS = 12


def place_probabilities(stacks: Sequence[int]) -> list[list[Fraction]]:
    """``p[i][k]``: the chance (exact) that player ``i`` finishes in place ``k + 1``
    under the Malmuth-Harville model.

    Raises:
        ValueError: a stack below 1 chip, or more than 12 players.
    """
    n = len(stacks)
    if not 1 <= n <= MAX_PLAYERS or any(type(s) is not int or s < 1 for s in stacks):
        raise ValueError(f"ICM takes 1 to {MAX_PLAYERS} players with 1 chip or more each")
    total = sum(stacks)
    chance = _top_places_chance(tuple(stacks))
    probs = [[Fraction(0)] * n for _ in range(n)]
    for taken in range(1 << n):
        above = chance(taken)
        if above == 0:
            continue
        left = total - sum(stacks[j] for j in range(n) if taken >> j & 1)
        place = bin(taken).count("1")
        for i in range(n):
            if not taken >> i & 1:
                probs[i][place] += above * Fraction(stacks[i], left)
    return probs


def icm_equities(stacks: Sequence[int], prizes: Sequence[int | Fraction]) -> list[Fraction]:
    """Each player's ICM equity (exact, in the prizes' unit) from their ``stacks``
    (chips) and the ``prizes`` still to be paid, best place first (a field
    with fewer prizes than players pays nothing below them).

    Cost: only the places whose prize is above the smallest one every player is
    sure of (the last place's, when every place is paid) are worked out, over the
    sets of players who could finish above each: 3 paid places of 12 players is
    79 sets, milliseconds (s58-tidy: every set of players before, 4,096 at 12, and
    seconds).  Every place paid, a prize each, still takes about every set, with
    fractions whose denominators grow with each: about 1 s for 10 players, 10 to
    30 s for 12.  For whole units, use :func:`icm_whole_units` (the same numbers
    rounded down, in milliseconds), as the web table does.

    Raises:
        ValueError: a stack below 1 chip, or more than 12 players.
    """
    n = len(stacks)
    if not 1 <= n <= MAX_PLAYERS or any(type(s) is not int or s < 1 for s in stacks):
        raise ValueError(f"ICM takes 1 to {MAX_PLAYERS} players with 1 chip or more each")
    paid = [Fraction(p) for p in list(prizes)[:n]]
    # every place paid: each player is sure of the last place's prize (their chances
    # of the n places add to 1); what is left to work out is the rest above it
    floor = paid[-1] if len(paid) == n else Fraction(0)
    above_floor = [p - floor for p in paid]
    places = max((k + 1 for k, p in enumerate(above_floor) if p), default=0)
    total = sum(stacks)
    chance = _top_places_chance(tuple(stacks))
    equity = [floor] * n
    for place in range(places):
        if not above_floor[place]:
            continue
        for above in combinations(range(n), place):
            taken = sum(1 << j for j in above)
            # each player not among them finishes next with their share of the chips left
            each = chance(taken) * above_floor[place] / (total - sum(stacks[j] for j in above))
            for i in range(n):
                if not taken >> i & 1:
                    equity[i] += each * stacks[i]
    return equity


def _top_places_chance(stacks: tuple[int, ...]) -> Callable[[int], Fraction]:
    """``chance(taken)``: the chance (exact) that the players in ``taken`` (a bit set)
    took the top places, in some order, each set worked out once."""
    n, total = len(stacks), sum(stacks)

    @cache
    def chance(taken: int) -> Fraction:
        if taken == 0:
            return Fraction(1)
        out = Fraction(0)
        left_before = total - sum(stacks[j] for j in range(n) if taken >> j & 1)
        for j in range(n):
            if taken >> j & 1:
                # j finished last among them, with the chips of those not above it
                out += chance(taken ^ (1 << j)) * Fraction(stacks[j], left_before + stacks[j])
        return out

    return chance


FIXED_BITS = 320
"""The fraction bits of :func:`icm_whole_units`' fixed-point arithmetic."""
NEAR_WHOLE_BITS = 128
""":func:`icm_whole_units` counts an equity less than ``2**-128`` of a unit below a
whole number as that whole number (its rounding error is below ``2**-200``)."""


def icm_whole_units(stacks: Sequence[int], prizes: Sequence[int]) -> list[int]:
    """Each player's ICM equity (:func:`icm_equities`) rounded down to a whole unit,
    in fixed-point integers of :data:`FIXED_BITS` fraction bits instead of
    fractions: a few milliseconds for 10 players where the exact fractions take
    0.4 to 2 s (their denominators grow with every subset of the players), 30 s
    for 12 (stop 57: a tournament deal was worked out on the web table's event
    loop).  The same as ``[int(x) for x in icm_equities(stacks, prizes)]`` except
    for an equity less than ``2**-128`` of a unit below a whole number and not
    that number (the error here is below ``2**-200``: a whole-number equity, as
    equal stacks give, is counted whole).

    ``stacks``: chips, each 1 or more (1 to 12 players); ``prizes``: whole units,
    best place first.

    Raises:
        ValueError: a stack below 1 chip, more than 12 players, or a prize that
            is not a whole number of 0 or more.
    """
    n = len(stacks)
    if not 1 <= n <= MAX_PLAYERS or any(type(s) is not int or s < 1 for s in stacks):
        raise ValueError(f"ICM takes 1 to {MAX_PLAYERS} players with 1 chip or more each")
    paid = list(prizes)[:n]
    if any(type(p) is not int or p < 0 for p in paid):
        raise ValueError("ICM's prizes are whole units, 0 or more")
    one = 1 << FIXED_BITS
    total = sum(stacks)
    sums = [0] * (1 << n)  # chips of each set of players (a bit set)
    chance = [0] * (1 << n)  # the chance (x one) that a set took the top places
    chance[0] = one
    equity = [0] * n  # (x one)
    for taken in range(1, 1 << n):
        low = taken & -taken
        sums[taken] = sums[taken ^ low] + stacks[low.bit_length() - 1]
        left_before = total - sums[taken]
        out = 0
        for j in range(n):
            if taken >> j & 1:
                # j finished last among them, with the chips of those not above it
                out += chance[taken ^ (1 << j)] * stacks[j] // (left_before + stacks[j])
        chance[taken] = out
    for taken in range(1 << n):
        place = taken.bit_count()
        if place >= len(paid) or not paid[place] or not chance[taken]:
            continue
        left = total - sums[taken]
        for i in range(n):
            if not taken >> i & 1:
                equity[i] += chance[taken] * stacks[i] // left * paid[place]
    near = 1 << (FIXED_BITS - NEAR_WHOLE_BITS)
    return [(e + near) >> FIXED_BITS for e in equity]


def chip_chop(stacks: Sequence[int], prizes: Sequence[int | Fraction]) -> list[Fraction]:
    """Each player's chip-chop share: the smallest prize left to the players
    (``prizes[len(stacks) - 1]``, or 0 when fewer prizes than players) for
    everyone, and the rest of ``prizes`` in proportion to chips."""
    n = len(stacks)
    if n < 1 or any(type(s) is not int or s < 1 for s in stacks):
        raise ValueError("chip-chop takes 1 or more players with 1 chip or more each")
    paid = [Fraction(p) for p in list(prizes)[:n]]
    floor = paid[n - 1] if len(paid) == n else Fraction(0)
    rest = sum(paid, Fraction(0)) - floor * n
    total = sum(stacks)
    return [floor + rest * Fraction(s, total) for s in stacks]
