"""Badugi hands (rollem.hands.badugi, PHH's FB, issue 29): hand-worked
cases, and the same order as PokerKit's ``BadugiHand`` on seeded random hands."""

from __future__ import annotations

import random

import pokerkit as pk
import pytest

from rollem.cards import CARDS, parse_cards
from rollem.hands.badugi import badugi_cards, badugi_value, describe_badugi


def _v(text: str) -> int:
    return badugi_value([int(c) for c in parse_cards(text)])


@pytest.mark.parametrize(("cards", "words"), [
    ("Ac2d3h4s", "badugi, four-three-deuce-ace"),  # the best hand
    ("3s5d7c8h", "badugi, eight-seven-five-three"),
    ("2s4c6d9h", "badugi, nine-six-four-deuce"),
    ("KsQhJdTc", "badugi, king-queen-jack-ten"),
    ("2s3s4d7h", "three-card hand, seven-four-deuce"),  # two spades: the 3s is dead
    ("2s3d3c4d", "three-card hand, four-three-deuce"),  # 2s 3c 4d
    ("AcAdAhAs", "one-card hand, ace"),  # four aces: one card plays
    ("Ac2c3c4c", "one-card hand, ace"),  # four clubs: the ace plays
    ("KcKdQcQd", "two-card hand, king-queen"),  # Kc Qd or Kd Qc
])
def test_hand_worked_hands(cards: str, words: str) -> None:
    assert describe_badugi([int(c) for c in parse_cards(cards)]) == words


def test_hand_worked_order() -> None:
    # any badugi beats any three-card hand; lower beats higher from the top card
    # down; aces are low; suits never break a tie
    ordered = ["Kc", "Ac", "KhQc", "4c8dKh", "2s4d7h", "KsQhJdTc", "9h6d4c2s", "8h7c5d3s",
               "5s3h2dAc", "4s3h2dAc"]
    values = [_v(c) for c in ordered]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert _v("Ac2d3h4s") == _v("As2h3c4d")
    assert _v("2s3s4d7h") == _v("2s4d7h")  # the dead card counts for nothing
    assert [str(c) for c in badugi_cards([int(c) for c in parse_cards("2s3d3c4d")])] == \
        ["4d", "3c", "2s"]


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one card"):
        badugi_value([])
    with pytest.raises(ValueError, match="each card once"):
        badugi_value([0, 0, 1, 2])


def test_same_order_as_pokerkit_on_random_hands() -> None:
    rng = random.Random(29)
    for _ in range(800):
        a, b = (rng.sample(range(52), 4) for _ in range(2))
        ours = (badugi_value(a) > badugi_value(b)) - (badugi_value(a) < badugi_value(b))
        pa, pb = (pk.BadugiHand.from_game("".join(str(CARDS[c]) for c in h)) for h in (a, b))
        theirs = (pa > pb) - (pa < pb)
        assert ours == theirs, ([str(CARDS[c]) for c in a], [str(CARDS[c]) for c in b])


def test_a_game_file_badugi_showdown_needs_four_cards_and_a_low_pot() -> None:
    from pathlib import Path

    from rollem.games.gamefile import GameFileError, load_game

    text = (Path(__file__).parents[1] / "src/rollem/phh/games/badugi.toml").read_text()
    assert load_game(text, phh=True).id == "badugi"
    with pytest.raises(GameFileError, match=r"low: badugi is a pot = \"low\" hand of the four "
                                            r"cards a player holds, no board; got pot = 'low', "
                                            r"5 cards"):
        load_game(text.replace("cards = 4", "cards = 5"), phh=True)
    with pytest.raises(GameFileError, match=r"got pot = 'high-low'"):
        load_game(text.replace('pot = "low"', 'pot = "high-low"'), phh=True)
    # not a game for a table (its bots, odds and committed deals): a new file is refused
    with pytest.raises(GameFileError, match=r"^steps\[9\]\.low: 'badugi' is for games read "
                                            r"from PHH files only"):
        load_game(text)
    assert load_game(text, strict=False).id == "badugi"  # (a history's _game_file)
