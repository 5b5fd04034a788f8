"""Player names: emoji ZWJ sequences, invisible characters, lookalikes (rollem.text,
clean_name)."""

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


# Default ignorables outside the control/format categories (marks, Hangul letters)
# and blank fillers: each shows as nothing, so "Ann" + one reads "Ann".
INVISIBLE = ["\u034f", "\u115f", "\u1160", "\u3164", "\uffa0", "\u17b4", "\u17b5", "\u180b",
             "\u180c", "\u180d", "\u180f", "\u2800", "\U0001d159", "\U00016fe4", "\u00ad",
             "\U000e0041", "\U000e0fff"]


@pytest.mark.parametrize("char", INVISIBLE)
def test_invisible_characters_are_refused(char: str) -> None:
    # Before: U+034F ... U+2800 were accepted (not of a refused category).
    code = f"U+{ord(char):04X}"
    for name in (f"Ann{char}", f"A{char}nn", f"Ann {char}Lee"):
        assert hidden_character(name) == code
        with pytest.raises(TableError) as err:
            clean_name(name)
        assert err.value.message == BAD_NAME.format(code)


@pytest.mark.parametrize("name", ["\u034f", "\u3164", "\u2800", " \uffa0 \u115f\u1160 ",
                                  "\u180b\u17b4"])
def test_a_name_of_only_invisible_characters_is_empty(name: str) -> None:
    # Before: "\u034f" and "\u3164" sat down, shown blank.
    with pytest.raises(TableError) as err:
        clean_name(name)
    assert err.value.message == "a name is needed to sit down (1 to 24 characters)"


@pytest.mark.parametrize("name", [
    "Bot\u034f 2 (random)", "B\u3164ot", "\u2800Bot 1", "\uff22\uff4f\uff54",
    "\U0001d401\U0001d428\U0001d42d", "\uff22\uff2f\uff34\u3000\uff12", "\u24b7ot",
])
def test_a_reserved_name_in_disguise_is_still_reserved(name: str) -> None:
    # "Bot" with an invisible mark, filler or blank braille cell; full width Ｂｏｔ,
    # mathematical bold 𝐁𝐨𝐭, full width with an ideographic space, circled Ⓑ.
    # Before: each sat down, reading as a computer player's name.
    with pytest.raises(TableError) as err:
        clean_name(name)
    shown = " ".join(name.split())
    assert err.value.message == f"{shown!r} is kept for computer players; choose another name"


def test_lookalike_names_have_one_key() -> None:
    from rollem.text import name_key

    for name in ("Ann", "\uff21\uff4e\uff4e", "\U0001d400\U0001d427\U0001d427", "A\u034fnn",
                 "An\u3164n", "A\uffa0nn", "\u2800ANN", "a\u180bnn\u00ad"):
        assert name_key(name) == "ann", name
    assert name_key("Stra\u00dfe") == name_key("STRASSE") == "strasse"  # casefold
    assert name_key("\ufb01n") == "fin"  # the ligature ﬁ is f + i
    assert name_key("Zo\u00eb") == name_key("Zoe\u0308") != name_key("Zoe")
    assert name_key("Ann") != name_key("Anne")


def test_the_default_ignorable_table() -> None:
    import itertools
    import sys
    import unicodedata

    from rollem.text import DEFAULT_IGNORABLE, default_ignorable

    # Sorted, each range non-empty, merged (no two touch): 4174 code points, as
    # DerivedCoreProperties.txt 14.0 counts (perl's Unicode::UCD agrees).
    assert all(a <= b for a, b in DEFAULT_IGNORABLE)
    assert all(b + 1 < c for (_, b), (c, _) in itertools.pairwise(DEFAULT_IGNORABLE))
    assert sum(b - a + 1 for a, b in DEFAULT_IGNORABLE) == 4174
    for first, last in DEFAULT_IGNORABLE:
        assert default_ignorable(chr(first)) and default_ignorable(chr(last))
        assert not default_ignorable(chr(first - 1)) and not default_ignorable(chr(last + 1))
    # The property is every format character (Cf) but the few that show (prepended
    # concatenation marks such as ARABIC NUMBER SIGN U+0600, interlinear annotation
    # U+FFF9-U+FFFB, Egyptian hieroglyph format controls U+13430-U+13438), plus the
    # variation selectors and some others, less white space.
    shown = {*range(0x600, 0x606), 0x6DD, 0x70F, 0x890, 0x891, 0x8E2, 0xFFF9, 0xFFFA,
             0xFFFB, 0x110BD, 0x110CD, *range(0x13430, 0x13439)}
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        if unicodedata.category(char) == "Cf":
            assert default_ignorable(char) == (code not in shown), hex(code)
        if default_ignorable(char):  # never a space; a mark or a Hangul filler at most
            assert not char.isspace(), hex(code)
            assert unicodedata.category(char) in ("Cf", "Cn", "Mn", "Lo"), hex(code)


# ------------------------------------------------ look-alikes (issue 34)


@pytest.mark.parametrize("name", [
    "Ann", "ANN", "\u0410\u043f\u043f", "An\u0144", "A\u0336nn", "An\u0301n", "\u00c0nn",
    "A\u0336n\u0336n\u0336", "\u0430\u043f\u043f",
])
def test_names_that_look_like_ann_have_its_key(name: str) -> None:
    # Апп (all Cyrillic: п is in no confusables.txt line as n), Anń, A̶nn (a stroke
    # overlay), Ann with an acute on the second n, Ànn, A̶n̶n̶; before, each had a key
    # of its own ("aππ", "anń", "a̵nn" ...) and sat down beside Ann.
    from rollem.lookalike import look_alike_key

    assert look_alike_key(name) == "ann", name


def test_accents_and_marks_compare_alike() -> None:
    from rollem.lookalike import look_alike_key

    # Decided (issue 34): a name is compared without the marks that sit on any
    # letter, so Zoë and Zoe cannot share a table; Bót is the computer players' Bot.
    assert look_alike_key("Zo\u00eb") == look_alike_key("Zoe") == "zoe"
    assert look_alike_key("B\u00f3t") == look_alike_key("\u0432\u043e\u0442") == "bot"  # вот
    assert look_alike_key("Nguy\u1ec5n") == "nguyen"
    # A script's own marks are letters of it: kept (Devanagari vowel sign, Tibetan
    # subjoined letter), so these stay apart.
    assert look_alike_key("\u092e\u094b\u0939\u0928") != look_alike_key("\u092e\u0939\u0928")
    assert look_alike_key("\u0f66\u0f92\u0fb2\u0f74\u0f56") != look_alike_key("\u0f66\u0f56")
    # Names of their own in other scripts keep keys of their own.
    keys = {look_alike_key(n) for n in ("Ann", "\u0418\u0432\u0430\u043d", "Ivan",
                                        "\u1f08\u03b8\u03b7\u03bd\u1fb6", "Athena",
                                        "\u5c71\u7530\u305f\u308d\u3046", "Bots", "Bot")}
    assert len(keys) == 8


def test_the_whole_script_of_a_name() -> None:
    from rollem.lookalike import whole_script

    assert whole_script("\u0410\u043f\u043f") == "CYRILLIC"
    assert whole_script("Ann-2 \U0001f600") == "LATIN"
    assert whole_script("\u1f08\u03b8\u03b7\u03bd\u1fb6") == "GREEK"
    assert whole_script("Ann \u0418\u0432\u0430\u043d\u043e\u0432\u0430") is None
    assert whole_script("\U0001f600 7") is None


ZALGO = "Z\u0337\u0322\u031ba\u0334l\u0338g\u0335o\u0336"  # Z̷̢̛a̴l̸g̵o̶


@pytest.mark.parametrize("name", [
    ZALGO, "\u0301", "A\u0301\u0300\u0302\u0303nn", "Ann" + "\u0336" * 4,
    "A\u20dd\u20dd\u20ddn", "Ann \u0489\u0489\u0489\u0489",
])
def test_a_name_made_mostly_of_combining_marks_is_refused(name: str) -> None:
    # Before: each sat down, its marks stacked over the names shown around it.
    with pytest.raises(TableError) as err:
        clean_name(name)
    assert err.value.message == (
        "a name may not be made mostly of accents or other combining marks (at most 3 on "
        "a letter, fewer than its letters): they spill over the names around it")


@pytest.mark.parametrize("name", [
    "Zo\u00eb", "Nguy\u1ec5n Th\u1ecb \u00c1nh", "\u1f04\u03b4\u03c9", "A\u0336n\u0336n\u0336",
    "\u092e\u094b\u0939\u0928", "\u0f66\u0f92\u0fb2\u0f74\u0f56", "1\ufe0f\u20e3",
    "\u0645\u064f\u062d\u064e\u0645\u0651\u064e\u062f",
    "\u0418\u0432\u0430\u043d", "Ann \u0418\u0432\u0430\u043d\u043e\u0432\u0430",
    "\u5c71\u7530\u305f\u308d\u3046", "\u1f08\u03b8\u03b7\u03bd\u1fb6", "Bots",
])
def test_names_with_marks_of_their_writing_sit_down(name: str) -> None:
    # Vietnamese (two marks on ễ), polytonic Greek (three on ᾄ), Hindi, Tibetan,
    # a keycap, Arabic with its vowel marks, and the accepted names kept.
    import unicodedata

    assert clean_name(name) == unicodedata.normalize("NFC", name)


@pytest.mark.parametrize("name", ["You", "you", "YOU", " You ", "\uff39\uff4f\uff55", "Y0u"])
def test_you_is_kept_for_the_reader(name: str) -> None:
    # The narration calls its reader "You" and takes a lone seat named "You" for
    # rollem play's player. Before: a web player named "You" sat down, and a
    # watcher read "Ann, Bot 1 (random) and you are dealt 2 cards each" (the watcher
    # holds none), Ann "Bot 1 (random) and You are dealt 2 cards each".
    with pytest.raises(TableError) as err:
        clean_name(name)
    shown = " ".join(name.split())
    assert err.value.code == "bad_name"
    assert err.value.message == (f"{shown!r} is how the table speaks to each player reading "
                                 "it; choose another name")


@pytest.mark.parametrize("name", ["Youth", "Yours", "You 2", "Yolanda"])
def test_names_that_only_start_like_you_sit_down(name: str) -> None:
    assert clean_name(name) == name


def test_names_that_read_alike_but_for_punctuation_spaces_or_repeats() -> None:
    """s58-tidy: :func:`near_key` and :func:`reads_as` (refused at one table:
    tests/web/test_server_limits.py::test_a_name_that_reads_as_a_seated_players_is_refused);
    a stranger's such name is numbered by :func:`distinct_name`, as an equal one."""
    from rollem.server.live_table.player_names import distinct_name, near_key, reads_as

    for name in ("Ann", "Ann.", "Annn", "ann", "A nn", "A.n.n", "ANN!", "Ánn", "Аnn"):
        assert near_key(name) == "ann", name
        assert reads_as(name, "Ann"), name
    for name in ("An", "Anna", "Ann 2", "Ann2x", "Joann"):
        assert not reads_as(name, "Ann"), name
    assert reads_as("Jo-Ann", "Joann") and not reads_as("Mat", "Matt")
    assert not reads_as("?!", "!?")  # nothing left to compare: judged as read and as looks
    assert distinct_name("Ann.", ["Ann", "Bob"]) == "Ann. 2"
    assert distinct_name("Ann.", ["Ann", "Ann 2"]) == "Ann. 3"
