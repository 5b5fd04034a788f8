"""The Python API (docs/api.md) refuses a number given as text, or a bool, where
it takes an int, naming the argument and what it takes (s62-term: ``Table(...,
out=["1"])`` left seat 1 in silently, ``hand.legal_actions("1")`` answered
nothing when seat 1 was asked, ``hand.apply("1", ...)`` said "seat 1 cannot act
now: waiting for seat 1", ``Hand(..., button="1")`` failed with "'<=' not
supported between instances of 'int' and 'str'")."""

from __future__ import annotations

from random import Random
from typing import Any

import numpy as np
import pytest

from rollem.engine import Call, Check, EngineError, Hand, SeededSource
from rollem.table import Table, TableError


def _hand() -> Hand:
    hand = Hand("sdr", [100, 100], source=SeededSource(1))
    assert hand.pending is not None and hand.pending.seats == (1,)
    return hand


@pytest.mark.parametrize("seat", ["1", True, 1.0, None])
def test_a_seat_that_is_no_int_is_refused_by_legal_actions_and_apply(seat: Any) -> None:
    hand = _hand()
    said = (f"seat must be a seat number (an int) 0..1 of this 2-seat hand, got {seat!r} "
            f"(a {type(seat).__name__})")
    with pytest.raises(TypeError) as info:
        hand.legal_actions(seat)
    assert str(info.value) == said
    with pytest.raises(TypeError) as info:
        hand.apply(seat, Call())
    assert str(info.value) == said
    assert hand.actions == [] and hand.pending is not None and hand.pending.seats == (1,)


def test_numpy_seats_are_ints() -> None:
    hand = _hand()
    assert hand.legal_actions(np.int64(1)).actions == ("fold", "check", "bet")
    hand.apply(np.int64(1), Check())
    assert hand.actions[0][0] == 1 and type(hand.actions[0][0]) is int


@pytest.mark.parametrize(("kwargs", "said"), [
    ({"button": "1"}, "button must be a seat number (an int) 0..1 with chips, got '1' (a str)"),
    ({"button": True}, "button must be a seat number (an int) 0..1 with chips, got True "
                       "(a bool)"),
    ({"carry_in": "3"}, "carry_in must be a whole number of chips >= 0, got '3' (a str)"),
    ({"carry_in": -3}, "carry_in must be a whole number of chips >= 0, got -3"),
])
def test_hand_names_a_button_or_carry_in_that_is_no_whole_number(
        kwargs: dict[str, Any], said: str) -> None:
    with pytest.raises(EngineError) as info:
        Hand("sdr", [100, 100], source=SeededSource(1), **kwargs)
    assert str(info.value) == said


@pytest.mark.parametrize("game", [123, None, True, ["sdr"]])
def test_hand_names_a_game_that_is_neither_an_id_nor_a_game(game: Any) -> None:
    """s71-new: ``Hand(123, ...)`` (or ``None``) raised a bare AttributeError
    ("'int' object has no attribute 'house'"); an unknown id stays a KeyError
    naming the ids, as ``rollem.games.get``'s."""
    with pytest.raises(EngineError) as info:
        Hand(game, [100, 100])
    assert str(info.value) == (f"game must be a game's id (a str, e.g. 'sdr') or a Game, got "
                               f"{game!r}, of type {type(game).__name__}")
    with pytest.raises(KeyError, match="unknown game 'SDR': expected one of deuces-wild, "):
        Hand("SDR", [100, 100])


@pytest.mark.parametrize(("kwargs", "said"), [
    ({"out": ["1"]}, "out: each seat must be a seat number (an int) 0..2, got '1' (a str)"),
    ({"out": [True]}, "out: each seat must be a seat number (an int) 0..2, got True (a bool)"),
    ({"out": [7]}, "out: each seat must be a seat number (an int) 0..2, got 7"),
    ({"straddlers": ["2"]}, "straddlers: each seat must be a seat number (an int) 0..2, got "
                            "'2' (a str)"),
    ({"button": "1"}, "button must be a seat number (an int) >= 0, got '1' (a str)"),
    ({"rebuy": "100"}, "rebuy must be a whole number of chips >= 1, or None (no rebuys), got "
                       "'100' (a str)"),
    ({"carry": 2.5}, "carry must be a whole number of chips >= 0, got 2.5 (a float)"),
    ({"hands": "2"}, "hands must be a whole number of hands >= 0, got '2' (a str)"),
    ({"bomb_pot_every": "3"}, "bomb_pot_every must be a whole number of hands >= 0 (0: none), "
                              "got '3' (a str)"),
    ({"bomb_pot_ante": "2"}, "bomb_pot_ante must be a whole number of chips >= 0, or None "
                             "(the default), got '2' (a str)"),
    ({"brought": ["100", "100", "100"]}, "brought: each seat's chips must be a whole number "
                                         "of chips (an int; a host's adjustment may take it "
                                         "below 0), got '100' (a str)"),
])
def test_table_names_a_value_that_is_no_whole_number(kwargs: dict[str, Any],
                                                     said: str) -> None:
    with pytest.raises(TableError) as info:
        Table([100, 100, 100], game="sdr", rng=Random(1), **kwargs)
    assert (str(info.value), info.value.code) == (said, "bad_value")


def test_table_takes_ints_as_before() -> None:
    table = Table([100, 100, 100], game="sdr", rng=Random(1), out=[np.int64(1)], button=5,
                  rebuy=100, carry=0, hands=0, brought=[100, -20, 100])
    hand = table.new_hand()
    assert hand.dealt == [True, False, True] and table.button == 2 and table.out == {1}


def test_whole_number_is_a_value_error_naming_what_it_got() -> None:
    from rollem.engine.errors import whole_number

    assert whole_number(np.int32(4), "seats", "2 to 10", low=2, high=10) == 4
    with pytest.raises(ValueError, match=r"^seats must be 2 to 10, got '4' \(a str\)$"):
        whole_number("4", "seats", "2 to 10", low=2, high=10)
    with pytest.raises(ValueError, match=r"^seats must be 2 to 10, got 11$"):
        whole_number(11, "seats", "2 to 10", low=2, high=10)



class _Named(int):
    """A whole number that counts the times it is named (``repr``) in ``times``."""

    times = 0

    def __repr__(self) -> str:
        _Named.times += 1
        return int.__repr__(self)


def test_a_refusal_costs_little_and_names_a_huge_or_long_value_briefly() -> None:
    """s62-hostile2: the refusal wrote ``repr(value)`` out whole, twice, before
    cutting it to 40 characters: a list of 3 million as ``out`` or a seat took
    6 s to refuse, and a whole number past Python's 4300 digits raised Python's
    own ``ValueError`` ("Exceeds the limit (4300 digits) for integer string
    conversion") instead of the refusal (``Table(out=[10**5000])``: no
    ``TableError``)."""
    from rollem.engine.errors import whole_number

    with pytest.raises(EngineError) as info:
        whole_number(10**5000, "button", "a seat number 0..5", high=5)
    assert str(info.value) == "button must be a seat number 0..5, got an int of 16610 bits"
    with pytest.raises(TableError) as table_info:
        Table([100, 100, 100], game="sdr", rng=Random(1), out=[-10**5000])
    assert str(table_info.value) == ("out: each seat must be a seat number (an int) 0..2, "
                                     "got a negative int of 16610 bits")
    with pytest.raises(EngineError) as info:
        whole_number([10**5000], "carry_in", "a whole number of chips >= 0")
    assert str(info.value) == "carry_in must be a whole number of chips >= 0, got a list (a list)"
    # A long list is named by its first items only (before: repr of the whole list,
    # about 6 s for a list of 3 million; s74-flaky: counted, not timed at < 0.5 s).
    big = [_Named(n) for n in range(100_000)]
    _Named.times = 0
    with pytest.raises(EngineError) as info:
        whole_number(big, "button", "a seat number 0..5")
    with pytest.raises(TypeError) as type_info:
        _hand().legal_actions(big)  # type: ignore[arg-type]
    assert str(info.value) == "button must be a seat number 0..5, got [0, 1, 2, 3, ...] (a list)"
    assert str(type_info.value) == ("seat must be a seat number (an int) 0..1 of this 2-seat "
                                    "hand, got [0, 1, 2, 3, ...] (a list)")
    assert _Named.times == 2 * 4, _Named.times  # (four each; main: 100,000 each)
    with pytest.raises(EngineError) as info:
        whole_number("x" * 100, "button", "a seat number 0..5")
    assert str(info.value) == f"button must be a seat number 0..5, got '{'x' * 35} ... (a str)"

PHH = '''
variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ["d dh p1 AcAd", "d dh p2 ????", "d dh p3 KcKd", "p3 cbr 6", "p1 cc", "p2 f",
           "d db 2c7h9s", "p1 cbr 94", "p3 cc", "p1 sm AcAd", "p3 sm KcKd", "d db 3d", "d db 4s"]
'''


@pytest.mark.parametrize(("field", "said"), [
    ('seat_count = "4"', "seat_count must be a whole number (phh-std), got '4'"),
    ("level = 2.5", "level must be a whole number (phh-std), got 2.5"),
    ('seats = ["1", "2", "3"]', "seats must be 3 seat numbers (whole numbers), one a player, "
                                "got ['1', '2', '3']"),
])
def test_phh_whole_number_fields_are_refused_as_text(field: str, said: str) -> None:
    """A standard PHH hand's whole-number fields (kept and written out again)."""
    from rollem.phh import PHHError, read_phh, replay_phh
    from rollem.phh.convert import phh_to_history

    assert replay_phh(read_phh(PHH + "seat_count = 4\nlevel = 3\n")).finishing_stacks == [
        202, 98, 0]
    for read in (replay_phh, phh_to_history):
        with pytest.raises(PHHError) as info:
            read(read_phh(PHH + field + "\n"))
        assert str(info.value) == said
