"""Short-deck hold'em hands (rollem.hands.short_deck, PHH's NS, issue 29):
hand-worked cases, the 36-card deck, and the same order as PokerKit's
``ShortDeckHoldemHand`` on seeded random hands."""

from __future__ import annotations

import random

import pokerkit as pk
import pytest

from rollem.cards import CARDS, parse_cards
from rollem.engine import Hand, Options, SeededSource
from rollem.hands.short_deck import SHORT_DECK, describe_short_deck, short_deck_value
from rollem.phh.variants import variant_game


def _v(text: str) -> int:
    return short_deck_value([int(c) for c in parse_cards(text)])


def test_the_deck_is_sixes_to_aces() -> None:
    assert len(SHORT_DECK) == 36
    assert {str(CARDS[c])[0] for c in SHORT_DECK} == set("6789TJQKA")
    hand = Hand(variant_game("shortdeck"), [100] * 10, options=Options(
        structure="no-limit", ante=0, small_bet=2, big_bet=2), source=SeededSource(7))
    assert sorted(hand.deck) == list(SHORT_DECK)


def test_hand_worked_order() -> None:
    # PokerKit's own order (ShortDeckHoldemHand's doc): 6-7-8-9-J < trips <
    # A-6-7-8-9 < aces full < a flush; then a flush beats any full house, the
    # ace-low straight is the lowest, and trips still lose to a straight
    ordered = ["6c7d8h9sJc", "7c7d7hTsQc", "As6c7h8h9h", "6s7c8h9dTs", "AsAhKcKhKd",
               "6s7s8sTsQs", "AhKhQhJh9h", "6c6d6h6sAc", "As6s7s8s9s", "6s7s8s9sTs",
               "AsKsQsJsTs"]
    values = [_v(h) for h in ordered]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert _v("As6c7h8h9hKd") == _v("As6c7h8h9h")  # the best five of six


@pytest.mark.parametrize(("cards", "words"), [
    ("As6c7h8h9h", "nine-high straight"),
    ("As6s7s8s9s", "nine-high straight flush"),
    ("6s7s8sTsQsQd", "queen-high flush, ten-eight-seven-six"),
    ("AsAhKcKhKd", "kings full of aces"),
])
def test_hand_worked_words(cards: str, words: str) -> None:
    assert describe_short_deck([int(c) for c in parse_cards(cards)]) == words


def test_same_order_as_pokerkit_on_random_hands() -> None:
    rng = random.Random(29)
    for _ in range(400):
        a, b = (rng.sample(SHORT_DECK, 7) for _ in range(2))
        ours = (short_deck_value(a) > short_deck_value(b)) - (short_deck_value(a)
                                                              < short_deck_value(b))
        pa, pb = (pk.ShortDeckHoldemHand.from_game("".join(str(CARDS[c]) for c in h))
                  for h in (a, b))
        theirs = (pa > pb) - (pa < pb)
        assert ours == theirs, ([str(CARDS[c]) for c in a], [str(CARDS[c]) for c in b])


def test_a_short_deck_game_file_is_for_phh_only() -> None:
    from pathlib import Path

    from rollem.games.gamefile import GameFileError, load_game

    text = (Path(__file__).parents[1] / "src/rollem/phh/games/shortdeck.toml").read_text()
    assert load_game(text, phh=True).deck == SHORT_DECK
    with pytest.raises(GameFileError, match=r"^deck: 'short' is for games read from PHH files"):
        load_game(text)  # a new file for a table (52-card bots, odds and committed deals)
    with pytest.raises(GameFileError, match=r"high: \"short-deck\" ranks a pot = \"high\" "
                                            r"showdown of a deck = \"short\" game"):
        load_game(text.replace('deck = "short"\n', ""), phh=True)
    with pytest.raises(GameFileError, match=r"^players: 10 players need 38 cards but the deck "
                                            r"has 36; allow at most 9 players"):
        load_game(text.replace("cards = 2", "cards = 3", 1), phh=True)
