"""Properties of the evaluators (hypothesis): suits never rank, more cards
never hurt, a wild card is never worse than the card itself (R-C-2, R-RYO-9)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rollem.hands import high_value, low_value, showing_value, wild_value

hands = st.lists(st.integers(0, 51), min_size=5, max_size=7, unique=True)
suit_maps = st.permutations(range(4))
ranks = st.sets(st.integers(0, 12), min_size=1, max_size=2)


def resuit(cards: list[int], perm: list[int]) -> list[int]:
    return [(c >> 2) * 4 + perm[c & 3] for c in cards]


@settings(max_examples=300, deadline=None)
@given(hands, suit_maps, ranks)
def test_suits_never_rank(cards: list[int], perm: list[int], wild: set[int]) -> None:
    other = resuit(cards, perm)
    assert high_value(other) == high_value(cards)
    assert low_value(other) == low_value(cards)
    assert wild_value(other, wild) == wild_value(cards, wild)
    assert showing_value(other[:3], wild) == showing_value(cards[:3], wild)


@settings(max_examples=300, deadline=None)
@given(hands, st.integers(0, 51))
def test_another_card_never_hurts(cards: list[int], extra: int) -> None:
    if extra in cards:
        return
    assert high_value([*cards, extra]) >= high_value(cards)
    assert low_value([*cards, extra]) >= low_value(cards)


@settings(max_examples=300, deadline=None)
@given(hands, ranks, st.booleans())
def test_a_wild_card_is_never_worse_than_itself(
    cards: list[int], wild: set[int], duplicates: bool
) -> None:
    value = wild_value(cards, wild, wild_duplicates=duplicates)
    assert value >= high_value(cards)
    assert wild_value(cards, wild, wild_duplicates=True) >= wild_value(cards, wild)
    assert wild_value(cards, set()) == high_value(cards)
