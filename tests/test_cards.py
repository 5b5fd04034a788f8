"""Card text (R-C-1)."""

from random import Random

import pytest

from rollem.cards import CARDS, CardError, format_cards, parse_card, parse_cards, shuffled_deck


def test_every_card_round_trips() -> None:
    assert [str(parse_card(str(c))) for c in CARDS] == [str(c) for c in CARDS]
    assert len({str(c) for c in CARDS}) == 52


@pytest.mark.parametrize(
    ("text", "expected"),
    [("Qh", "Qh"), ("10c", "Tc"), ("tc", "Tc"), ("a♠", "As"), ("K♦", "Kd"), ("2S", "2s")],
)
def test_input_forms(text: str, expected: str) -> None:
    assert str(parse_card(text)) == expected


def test_list_forms() -> None:
    assert format_cards(parse_cards("Qs, Qd Kc")) == "Qs Qd Kc"
    assert format_cards(parse_cards(["Qs", "10d"])) == "Qs Td"
    assert format_cards(parse_cards("QsQd10c")) == "Qs Qd Tc"


@pytest.mark.parametrize("bad", ["Qx", "1c", "Q", "", "Qhh", "11s"])
def test_bad_token_named(bad: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(bad)
    assert repr(bad) in str(info.value)


@pytest.mark.parametrize("bad", ["zzz", "QsQx", "Qs9"])
def test_bad_run_quoted_whole(bad: str) -> None:
    with pytest.raises(CardError) as info:
        parse_cards(bad)
    assert repr(bad) in str(info.value)


def test_duplicate_is_error() -> None:
    with pytest.raises(CardError, match="Qs given twice"):
        parse_cards("Qs Kd qs")


def test_rank_and_suit() -> None:
    ace_spades = parse_card("As")
    assert (ace_spades.rank, ace_spades.suit, int(ace_spades)) == (12, 3, 51)
    assert int(parse_card("2c")) == 0


def test_shuffles() -> None:
    assert sorted(shuffled_deck()) == list(range(52))
    assert shuffled_deck(Random(7)) == shuffled_deck(Random(7))


def test_suit_symbols_with_a_phone_keyboards_variation_selector_parse() -> None:
    """Issue 33: ``T♥️`` (♥ then U+FE0F, as phone keyboards send it) was refused."""
    assert parse_card("T\u2665\ufe0f") == parse_card("Th")
    assert parse_cards("A\u2660\ufe0fK\u2666\ufe0e, 10\u2663\ufe0f") == parse_cards("As Kd Tc")
    with pytest.raises(CardError):
        parse_card("\ufe0f")
