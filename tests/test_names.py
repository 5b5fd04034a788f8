"""Player names with emoji ZWJ sequences (rollem.text, clean_name)."""

from __future__ import annotations

import pytest

from rollem.server.live_table import TableError, clean_name
from rollem.text import hidden_character, shown_length

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"  # 👨‍👩‍👧‍👦
RAINBOW_FLAG = "\U0001f3f3\ufe0f\u200d\U0001f308"  # 🏳️‍🌈
CODER = "\U0001f469\U0001f3fd\u200d\U0001f4bb"  # 👩🏽‍💻, a skin tone before the joiner
BLACK_CAT = "\U0001f408\u200d\u2b1b"  # 🐈‍⬛
FIRE = "\U0001f525"


@pytest.mark.parametrize("name", [FAMILY, f"Dad {FAMILY}", RAINBOW_FLAG, CODER, BLACK_CAT,
                                  f"{FAMILY}{FAMILY}"])
def test_emoji_joined_by_zwj_are_allowed(name: str) -> None:
    # Before: "a name may not hold invisible, control or text-direction characters (U+200D)"
    assert hidden_character(name) is None
    assert clean_name(name) == name


@pytest.mark.parametrize("name", ["\u200dAnn", "Ann\u200d", "An\u200dn", f"{FIRE}\u200d",
                                  f"\u200d{FIRE}", f"a\u200d{FIRE}", f"{FIRE}\u200da",
                                  f"{FIRE}\u200d\u200d{FIRE}", f"{FIRE} \u200d{FIRE}"])
def test_zwj_anywhere_else_is_refused(name: str) -> None:
    assert hidden_character(name) == "U+200D"
    with pytest.raises(TableError) as err:
        clean_name(name)
    assert err.value.message == ("a name may not hold invisible, control or text-direction "
                                 "characters (U+200D); use letters, digits, spaces, "
                                 "punctuation")


def test_an_emoji_sequence_counts_one_character() -> None:
    assert [shown_length(t) for t in (FAMILY, RAINBOW_FLAG, CODER, BLACK_CAT, "Ann",
                                      "e\u0301", f"Dad {FAMILY}")] == [1, 1, 1, 1, 3, 2, 5]
    assert clean_name(FAMILY + "x" * 23) == FAMILY + "x" * 23  # 24 shown
    with pytest.raises(TableError) as err:
        clean_name(FAMILY + "x" * 24)
    assert err.value.message == "a name has at most 24 characters, not 25"
    # Sequences still take room: 13 families (91 code points) pass, 14 (98) do not.
    assert clean_name(FAMILY * 13) == FAMILY * 13
    with pytest.raises(TableError) as err:
        clean_name(FAMILY * 14)
    assert err.value.message == ("a name has at most 96 Unicode code points (an emoji "
                                 "sequence has several), not 98")


def test_names_that_look_alike_have_one_key() -> None:
    from rollem.text import name_key

    assert name_key("Ann") == name_key("ANN\ufe0f") == name_key("a\U000e0100nn") == "ann"
    assert name_key(f"{FIRE}\u200d{FIRE}") == name_key(FIRE * 2)
    assert name_key(CODER) != name_key("\U0001f469\u200d\U0001f4bb")  # a skin tone shows
    assert name_key("Ann") != name_key("Anna")


BAD_NAME = ("a name may not hold invisible, control or text-direction characters ({}); "
            "use letters, digits, spaces, punctuation")


@pytest.mark.parametrize("name", ["Bot\ufe0f", "B\ufe0fot", "bot\U000e0100 2",
                                  " BOT\ufe0e 1 (strong)"])
def test_a_reserved_name_with_variation_selectors_is_still_reserved(name: str) -> None:
    # Before: accepted, though each reads as a computer player's name.
    with pytest.raises(TableError) as err:
        clean_name(name)
    shown = " ".join(name.split())
    assert err.value.message == f"{shown!r} is kept for computer players; choose another name"


@pytest.mark.parametrize("name", ["\ufe0f", "\ufe0f\ufe0f", " \ufe0e \U000e0100 "])
def test_a_name_of_only_variation_selectors_is_empty(name: str) -> None:
    # Before: "\ufe0f" sat down, shown blank.
    with pytest.raises(TableError) as err:
        clean_name(name)
    assert err.value.message == "a name is needed to sit down (1 to 24 characters)"


@pytest.mark.parametrize(("name", "stray"), [
    ("Ann\ufe0f", "U+FE0F"), ("A\ufe0enn", "U+FE0E"), ("Ann \ufe0f", "U+FE0F"),
    ("7\ufe0f", "U+FE0F"), (f"{FIRE}\ufe0f\ufe0f", "U+FE0F"), ("Ann\ufe00", "U+FE00"),
    ("Ann\U000e0100", "U+E0100"), (f"{FIRE}\u200d\ufe0f", "U+200D"),
])
def test_a_variation_selector_that_varies_nothing_is_refused(name: str, stray: str) -> None:
    # Before: each was accepted, reading as the name without it.
    assert hidden_character(name) == stray
    with pytest.raises(TableError) as err:
        clean_name(name)
    assert err.value.message == BAD_NAME.format(stray)


@pytest.mark.parametrize("name", [
    "\u2764\ufe0f", f"Ann {FIRE}\ufe0f", "\u2194\ufe0f", "\u00a9\ufe0f", "\u203c\ufe0f",
    "1\ufe0f\u20e3", "#\ufe0f\u20e3", "\u845b\U000e0100", "\u2229\ufe00", RAINBOW_FLAG,
])
def test_a_variation_selector_after_what_it_varies_is_allowed(name: str) -> None:
    # ❤️, 🔥️, ↔️, ©️, ‼️, the keycaps 1️⃣ and #️⃣, 葛 with an ideographic variant, ∩︀.
    assert hidden_character(name) is None
    assert clean_name(name) == name
