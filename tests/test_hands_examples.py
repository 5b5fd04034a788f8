"""Seed examples and hand-computed cases for the evaluator (R-C-2, R-C-3, R-SDR-8)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rollem.cards import CardError, parse_cards
from rollem.hands import Category, describe_value, evaluate, high_value, low_value


def cards(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def test_rsdr8_pair_of_queens_loses_to_pair_of_kings() -> None:
    """R-SDR-8: Stop Qh and Drop 7c are dead; the Roll is Kc 7d 2s."""
    roll = cards("Kc 7d 2s")
    queens = evaluate(cards("Qs Qd") + roll)
    kings = evaluate(cards("As Kd") + roll)
    assert queens.category is kings.category is Category.ONE_PAIR
    assert queens.description.startswith("pair of queens")
    assert kings.description.startswith("pair of kings")
    assert kings.value > queens.value
    assert high_value(cards("As Kd") + roll) > high_value(cards("Qs Qd") + roll)


@pytest.mark.parametrize(
    ("text", "category", "description"),
    [
        ("As Ks Qs Js Ts", Category.STRAIGHT_FLUSH, "royal flush"),
        ("9h 8h 7h 6h 5h", Category.STRAIGHT_FLUSH, "nine-high straight flush"),
        ("5d 4d 3d 2d Ad", Category.STRAIGHT_FLUSH, "five-high straight flush"),
        ("7c 7d 7h 7s Kd", Category.FOUR_OF_A_KIND, "four sevens, king kicker"),
        ("Ac Ad Ah Kc Kd", Category.FULL_HOUSE, "aces full of kings"),
        ("Kh 9h 7h 4h 2h", Category.FLUSH, "king-high flush, nine-seven-four-deuce"),
        ("Ac Kd Qh Js Tc", Category.STRAIGHT, "ace-high straight"),
        ("5c 4d 3h 2s Ac", Category.STRAIGHT, "five-high straight (wheel)"),
        ("8c 8d 8h Ks 2c", Category.THREE_OF_A_KIND, "three eights, king-deuce"),
        ("Kc Kd 7h 7s Ac", Category.TWO_PAIR, "two pair, kings and sevens, ace kicker"),
        ("Qc Qd 9h 7s 2c", Category.ONE_PAIR, "pair of queens, nine-seven-deuce"),
        ("Ac Jd 9h 7s 2c", Category.HIGH_CARD, "ace high, jack-nine-seven-deuce"),
    ],
)
def test_descriptions(text: str, category: Category, description: str) -> None:
    result = evaluate(cards(text))
    assert result.category is category
    assert result.description == description
    assert result.value == high_value(cards(text))
    assert describe_value(result.value) == description
    assert sorted(result.cards) == sorted(cards(text))


def test_categories_rank_in_order() -> None:
    ladder = [
        "Ac Jd 9h 7s 2c",
        "2c 2d 9h 7s 3c",
        "2c 2d 3h 3s 4c",
        "2c 2d 2h 3s 4c",
        "5c 4d 3h 2s Ac",
        "7h 5h 4h 3h 2h",
        "2c 2d 2h 3s 3c",
        "2c 2d 2h 2s 3c",
        "5d 4d 3d 2d Ad",
    ]
    values = [high_value(cards(t)) for t in ladder]
    assert values == sorted(values)
    assert len(set(values)) == len(values)


def test_kickers_and_ties() -> None:
    assert high_value(cards("Kc Kd 7h 7s Ac")) > high_value(cards("Kh Ks 7c 7d Qc"))
    assert high_value(cards("Kc Kd 7h 7s Ac")) == high_value(cards("Kh Ks 7c 7d Ad"))  # split
    assert high_value(cards("6c 5d 4h 3s 2c")) > high_value(cards("5c 4d 3h 2s Ac"))  # wheel lowest
    assert high_value(cards("Ah Kh Qh Jh 9h")) > high_value(cards("Ac Kd Qh Js Tc"))
    # no wrap-around (R-C-2): Q-K-A-2-3 is ace high
    assert evaluate(cards("Qc Kd Ah 2s 3c")).category is Category.HIGH_CARD


def test_best_five_of_seven() -> None:
    result = evaluate(cards("Ah Kd 7c 7s Kh As 2c"))
    assert result.description == "two pair, aces and kings, seven kicker"
    assert len(result.cards) == 5
    flush = evaluate(cards("2h 9h Jh Qh 4h Kh Ac"))
    assert flush.description == "king-high flush, queen-jack-nine-four"
    assert [str(c) for c in flush.cards] == ["Kh", "Qh", "Jh", "9h", "4h"]


def test_ace_to_five_low() -> None:
    """R-C-3: 7-5-4-3-2 beats 7-6-3-2-A; no pair beats a pair; one pair beats
    two pair; aces are the best pair; straights and flushes don't count."""
    ladder = [
        "Kc Kd Kh 2s 2c",  # full house
        "Kc Kd 3h 3s 4c",  # two pair
        "Qc Qd 2h 3s 4c",  # pair of queens
        "Ac Ad 2h 3s 4c",  # pair of aces, the best pair
        "Kc Qd Jh Ts 9c",  # king low (a straight that doesn't count)
        "7c 6d 3h 2s Ac",
        "7c 5d 4h 3s 2c",
        "6h 4h 3h 2h Ah",  # a flush that doesn't count
        "5c 4d 3h 2s Ac",  # the wheel, best
    ]
    values = [low_value(cards(t)) for t in ladder]
    assert values == sorted(values)
    assert len(set(values)) == len(values)
    seven = evaluate(cards("7c 5d 4h 3s 2c"), low=True)
    assert seven.description == "seven-five low, four-three-deuce"
    wheel = evaluate(cards("5c 4d 3h 2s Ac"), low=True)
    assert wheel.category is Category.HIGH_CARD
    assert wheel.description == "five-four low, three-deuce-ace (the wheel)"
    assert [str(c) for c in wheel.cards] == ["5c", "4d", "3h", "2s", "Ac"]
    best = evaluate(cards("Kc 8d 5h 4s 3c 2d Ah"), low=True)
    assert best.description == "five-four low, three-deuce-ace (the wheel)"
    assert best.value == low_value(cards("Kc 8d 5h 4s 3c 2d Ah"))
    assert evaluate(cards("Ac Ad 2h 3s 4c"), low=True).category is Category.ONE_PAIR


def test_evaluate_rejects_bad_input() -> None:
    with pytest.raises(CardError):
        evaluate([])
    with pytest.raises(CardError):
        evaluate([1, 1, 2, 3, 4])
    with pytest.raises(CardError):
        evaluate([52, 1, 2, 3, 4])
    with pytest.raises(ValueError, match="wild rank"):
        evaluate(cards("As Kd"), wild_ranks={13})
    with pytest.raises(ValueError):
        high_value(cards("As Kd Qh Jc"))
    with pytest.raises(ValueError):
        low_value(cards("As Kd Qh Jc"))


def test_evaluate_value_matches_the_fast_functions() -> None:
    import random

    from rollem.hands import showing_value, wild_value

    rng = random.Random(12)
    for _ in range(1500):
        size = rng.randint(1, 7)
        hand = rng.sample(range(52), size)
        wild = {rng.randrange(13)}
        dup, nbw = rng.random() < 0.5, rng.random() < 0.5
        if size >= 5:
            assert evaluate(hand).value == high_value(hand)
            assert evaluate(hand, low=True).value == low_value(hand)
            assert evaluate(
                hand, wild_ranks=wild, wild_duplicates=dup, natural_beats_wild=nbw
            ).value == wild_value(hand, wild, wild_duplicates=dup, natural_beats_wild=nbw)
        if size <= 5:
            assert evaluate(hand).value == showing_value(hand)
            assert evaluate(hand, wild_ranks=wild).value == showing_value(hand, wild)
        result = evaluate(hand, wild_ranks=wild)
        assert len(result.cards) == min(size, 5)
        assert describe_value(result.value, size=min(size, 5)) == result.description


def test_wild_table_disk_cache_round_trip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import numpy as np

    from rollem.hands import batch

    monkeypatch.setenv("ROLLEM_CACHE", str(tmp_path))
    batch._wild_table.cache_clear()
    try:
        built = batch._wild_table(False)
        files = list(tmp_path.glob("wild5_*.npy"))
        assert len(files) == 1
        batch._wild_table.cache_clear()
        assert np.array_equal(batch._wild_table(False), built)
    finally:
        batch._wild_table.cache_clear()
