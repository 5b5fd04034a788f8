"""Pots: side pots from each seat's chips in the hand, and odd-chip splits.

R-C-9 (side pots: an all-in player is eligible only for what they matched),
R-C-10 (odd chips one at a time to the tied winners from the dealer's left).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["build_pots", "split_high_low", "split_pot"]


def build_pots(
    committed: Sequence[int], live: Sequence[bool], carry_in: int = 0
) -> list[tuple[int, tuple[int, ...]]]:
    """Split the chips in the hand into a main pot and side pots (R-C-9).

    Args:
        committed: chips each seat put in this hand (antes and bets, after
            uncalled bets were returned).
        live: which seats are still in the hand (not folded).
        carry_in: chips carried in from the previous hand; they go to the main pot.

    Returns:
        ``[(amount, eligible seats), ...]``, main pot first. A level is cut
        at each live seat's total; chips of folded seats above the highest
        live level (not possible after uncalled bets are returned) join the
        last pot.
    """
    levels = sorted({committed[s] for s in range(len(committed)) if live[s]})
    pots: list[tuple[int, tuple[int, ...]]] = []
    prev = 0
    for level in levels:
        if level <= prev:
            continue
        amount = 0
        for c in committed:
            if c > prev:
                amount += (c if c < level else level) - prev
        eligible = tuple(s for s in range(len(committed)) if live[s] and committed[s] >= level)
        pots.append((amount, eligible))
        prev = level
    rest = sum(c - prev for c in committed if c > prev)
    if not pots:
        live_seats = tuple(s for s in range(len(committed)) if live[s])
        pots.append((0, live_seats))
    if rest:
        amount, eligible = pots[-1]
        pots[-1] = (amount + rest, eligible)
    if carry_in:
        amount, eligible = pots[0]
        pots[0] = (amount + carry_in, eligible)
    return pots


class _Key:
    """Sort key putting seats in order from the dealer's left (R-C-10, R-C-13)."""

    __slots__ = ("button", "n")

    def __init__(self, button: int, n: int) -> None:
        self.button = button
        self.n = n

    def __call__(self, seat: int) -> int:
        return (seat - self.button - 1) % self.n


def split_pot(amount: int, winners: Iterable[int], button: int, n_seats: int) -> dict[int, int]:
    """Split ``amount`` among ``winners`` (R-C-10).

    Each gets ``amount // k``; the odd chips go one at a time to the winners
    in seat order starting from the dealer's left.

    Returns:
        seat -> chips (every winner present, possibly with 0 when the pot is
        smaller than the number of winners).
    """
    order = sorted(winners, key=_Key(button, n_seats))
    if not order:
        return {}
    share, odd = divmod(amount, len(order))
    return {s: share + (1 if i < odd else 0) for i, s in enumerate(order)}


def split_high_low(amount: int) -> tuple[int, int]:
    """Halves of a high-low pot: ``(high, low)``; an odd chip goes to the high half (R-C-10)."""
    low = amount // 2
    return amount - low, low
