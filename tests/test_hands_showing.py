"""Partial hands showing (R-C-8): hand-computed orderings, with and without wilds."""

from __future__ import annotations

import pytest

from rollem.cards import parse_cards, parse_rank
from rollem.hands import Category, evaluate, high_value, showing_value, wild_value


def show(text: str, wild: str = "") -> int:
    return showing_value(parse_cards(text), {parse_rank(r) for r in wild})


def assert_ascending(hands: list[str], wild: str = "") -> None:
    values = [show(h, wild) for h in hands]
    assert values == sorted(values), list(zip(hands, values, strict=True))
    assert len(set(values)) == len(values)


def test_one_card() -> None:
    assert_ascending(["2c", "9d", "Th", "Ks", "Ac"])
    assert show("Ah") == show("As")  # suits never break ties (position does)


def test_two_cards() -> None:
    assert_ascending(["3c 2d", "7c 2d", "7c 6d", "Kd Qh", "Ac 2d", "Ac Kd", "2c 2d", "Ac Ad"])


def test_three_cards() -> None:
    assert_ascending(
        ["Kc Qd Jh", "Ac Kd Qh", "2c 2d 3h", "2c 2d Ah", "Kc Kd Ah", "Ac Ad 3h", "Ac Ad Kh",
         "2c 2d 2h", "Ac Ad Ah"]
    )  # fmt: skip


def test_four_cards_no_straights_or_flushes() -> None:
    assert_ascending(
        ["8s 7s 6s 5s",  # four to a straight flush counts for nothing: eight high
         "Ac Kd Qh Js",
         "2c 2d 3h 4s",
         "Ac Ad Kh Qs",
         "Ac Ad 2h 2s",
         "Ac Ad Kh Ks",
         "2c 2d 2h 3s",
         "Kc Kd Kh As",
         "Ac Ad Ah Ks",
         "2c 2d 2h 2s",
         "Ac Ad Ah As"]
    )  # fmt: skip
    assert evaluate(parse_cards("8s 7s 6s 5s")).category is Category.HIGH_CARD
    assert evaluate(parse_cards("Ac Ad 2h 2s")).description == "two pair, aces and twos"
    assert evaluate(parse_cards("Kc Kd Kh As")).description == "three kings, ace kicker"
    assert evaluate(parse_cards("Kc Kd Qh")).description == "pair of kings, queen kicker"
    assert evaluate(parse_cards("Kc")).description == "king high"


def test_five_cards_showing_is_the_high_hand() -> None:
    hand = parse_cards("8s 7s 6s 5s 4s")
    assert show("8s 7s 6s 5s 4s") == high_value(hand)
    assert show("8s 7s 6s 5s 4s", "Q") == wild_value(hand, {parse_rank("Q")})


def test_lowest_showing_is_the_smallest_value() -> None:
    hands = ["Kc Kd", "2c 3d", "2h 4c", "Ac 2s"]
    assert min(hands, key=show) == "2c 3d"


def test_wild_cards_count_when_showing() -> None:
    """RYO round 4 is opened with the wild rank known (R-RYO-7, R-C-8)."""
    assert show("Qh", "Q") == show("Ac")  # a lone wild is an ace
    assert show("Qh Qc", "Q") == show("Ac Ad")  # two wilds: a pair of aces
    assert show("Qh 3c", "Q") == show("3d 3c")  # a pair beats ace high
    assert show("Kc Qh 5d", "Q") == show("Kc Kh 5d")
    assert show("9c 9d Qh", "Q") == show("9c 9d 9h")
    assert show("Qc Qh Qs 4d", "Q") == show("4c 4h 4s 4d")
    assert_ascending(
        ["Ac Kd 5h 3s", "7c 7d 2h 3s", "7c Qd 4h 3s", "2c 2d Qh 3s", "Qc Qd 2h 3s"], "Q"
    )
    result = evaluate(parse_cards("Kc Qh 5d"), wild_ranks={parse_rank("Q")})
    assert result.description == "pair of kings, five kicker"
    assert len(result.wilds) == 1
    assert result.wilds[parse_cards("Qh")[0]] >> 2 == parse_rank("K")
    assert result.value == show("Kc Qh 5d", "Q")


def test_showing_needs_a_card() -> None:
    with pytest.raises(ValueError):
        showing_value([])
