"""Decimal amounts in PHH (issue 29, rollem.phh.units): a hand in dollars and
cents is played in whole chips of the smallest unit it uses, exactly, and
told in the file's unit; PokerKit agrees on every hand of the HandHQ sample
(tests/phh/handhq-abs-2009.phhs)."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from cli_helpers import run_cli
from rollem.phh import PHHError, read_phh, read_phhs, replay_phh
from rollem.phh.units import chip_scale, in_units, to_chips

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")
HERE = Path(__file__).parent / "phh"

CENTS = """variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [0.25, 0.50, 0]
min_bet = 0.50
starting_stacks = [50.00, 100.30, 25.5]
actions = ["d dh p1 AcAd", "d dh p2 KcKd", "d dh p3 7h2s", "p3 f", "p1 cbr 1.75", "p2 cc",
           "d db 2c3c4d", "p1 cbr 2", "p2 f"]
finishing_stacks = [51.75, 98.55, 25.5]
"""


def test_the_scale_is_ten_to_the_most_places() -> None:
    data = read_phh(CENTS)
    assert chip_scale(data) == 100  # 0.25, 1.75
    chips = to_chips(data, 100)
    assert chips["starting_stacks"] == [5000, 10030, 2550]
    assert chips["blinds_or_straddles"] == [25, 50, 0]
    assert chips["actions"][4] == "p1 cbr 175"
    assert chip_scale({"starting_stacks": [Decimal("100.30"), 25], "min_bet": 1,
                       "actions": ["p1 cbr 2.5"]}) == 10
    assert chip_scale({"starting_stacks": [Decimal("300"), 25], "min_bet": 1.0}) == 1
    assert in_units(20030, 100) == Decimal("200.3") and in_units(5000, 100) == 50
    assert in_units(7, 1) == 7


def test_a_hand_in_cents_replays_exactly_in_its_units(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    h = replay_phh(read_phh(CENTS))
    assert h.scale == 100
    assert h.finishing_stacks == [5175, 9855, 2550]  # chips of 0.01
    assert [h.units(c) for c in h.finishing_stacks] == [Decimal("51.75"), Decimal("98.55"),
                                                        Decimal("25.5")]
    f = tmp_path / "cents.phh"
    f.write_text(CENTS)
    code, out, err = run_cli(["replay", str(f), "--json"], capsys)
    assert code == 0, err
    got = json.loads(out)
    assert got["finishing_stacks"] == [51.75, 98.55, 25.5]
    assert got["starting_stacks"] == [50, 100.3, 25.5]
    assert got["chip_unit"] == 0.01 and got["net"] == {"0": 1.75, "1": -1.75, "2": 0}
    code, out, err = run_cli(["replay", str(f)], capsys)
    assert "Net: p1 +1.75, p2 -1.75, p3 +0" in out
    assert "Finishing stacks: p1 51.75, p2 98.55, p3 25.5" in out


def test_a_wrong_decimal_result_is_told_in_the_files_units() -> None:
    with pytest.raises(PHHError, match=r"finishing_stacks \[52.25, 98.55, 25.5\] differ from "
                                       r"the replay's \[51.75, 98.55, 25.5\]"):
        replay_phh(read_phh(CENTS.replace("[51.75,", "[52.25,")))


@pytest.mark.parametrize(("old", "new", "message"), [
    ("cbr 1.75", "cbr 1.7500001",
     "line 5 of actions (p1 cbr 1.7500001) is 1.7500001: at most 6 decimal"),
    ("0.25, 0.50", "0.2500005, 0.50", "blinds_or_straddles[0] is 0.2500005: at most 6"),
])
def test_too_many_places_are_refused_naming_the_field(old: str, new: str, message: str) -> None:
    with pytest.raises(PHHError) as err:
        replay_phh(read_phh(CENTS.replace(old, new)))
    assert message in str(err.value)


def test_the_handhq_sample_replays_to_pokerkits_stacks() -> None:
    # PokerKit 0.7.7's HandHistory.load_all of the same file, checked once by hand:
    # [201.30, 80.60, 197], [249.10, 13.60, 199, 96.50, 55.50],
    # [52.25, 180.60, 202.55, 205.15], [45.60, 138.54, 190.32, 225.80]
    want = [["201.3", "80.6", "197"], ["249.1", "13.6", "199", "96.5", "55.5"],
            ["52.25", "180.6", "202.55", "205.15"], ["45.6", "138.54", "190.32", "225.8"]]
    text = (HERE / "handhq-abs-2009.phhs").read_text()
    got = []
    for _, table in read_phhs(text):
        h = replay_phh(table)
        assert h.finishing_stacks is not None
        got.append([str(h.units(c)) for c in h.finishing_stacks])
        assert h.fields["currency_symbol"] == "$"  # unknown fields kept
    assert got == want


DWAN = (HERE / "dwan-ivey-2009.phh").read_text()

SMALL = """variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 cbr 4", "p1 f", "p2 f"]
"""


@pytest.mark.parametrize(("old", "new", "field", "tenths"), [
    ("blinds_or_straddles = [1, 2, 0]", "blinds_or_straddles = [1, 2.5, 0]",
     "blinds_or_straddles[1] is 2.5", "raise to 40 is not 50..1000"),
    ("min_bet = 2", "min_bet = 2.5", "min_bet is 2.5", "raise to 40 is not 45..1000"),
    ("starting_stacks = [100, 100, 100]", "starting_stacks = [100, 100, 3.5]",
     "starting_stacks[2] is 3.5", "raise to 40 is not"),
])
def test_a_fraction_in_any_amount_field_is_named_when_an_action_fails(
        old: str, new: str, field: str, tenths: str) -> None:
    """The blinds, the minimum bet and the stacks as the ante below: one
    amount with a fraction makes the hand's unit, and an action that then
    fails says which field did it and that its amounts are in that unit."""
    assert replay_phh(read_phh(SMALL)).finishing_stacks == [99, 98, 103]
    with pytest.raises(PHHError) as err:
        replay_phh(read_phh(SMALL.replace(old, new)))
    text = str(err.value)
    assert text.startswith("line 4 of actions (p3 cbr 4): p3 cannot do that: "), text
    assert tenths in text
    assert text.endswith(f"({field}: amounts here are in chips of 1/10 of the unit, "
                         "whole numbers)")



@pytest.mark.parametrize(("old", "new", "field"), [
    ("antes = [500, 500, 500]", "antes = [500.5, 500, 500]", "antes[0] is 500.5"),
])
def test_a_stray_fraction_names_its_field_when_an_action_fails(
        old: str, new: str, field: str) -> None:
    """s59-tidy: ``antes = [500.5, ...]`` in a hand of whole amounts made the
    whole hand tenths (issue 29: a hand with a fraction is played in chips of
    its smallest unit), and the all-in of line 14 then failed with "p1 cbr
    10671000" and amounts in tenths that the file never wrote. The error now
    names the line as the file writes it and the field whose fraction made the
    unit (main: neither; fractions stay allowed, as issue 29 wants)."""
    assert old in DWAN
    with pytest.raises(PHHError) as err:
        replay_phh(read_phh(DWAN.replace(old, new)))
    text = str(err.value)
    assert text.startswith("line ") and " of actions (p" in text
    assert "cbr 10671000)" not in text and "cbr 100000)" not in text  # the file's own words
    assert field in text
    assert "amounts here are in chips of 1/10 of the unit, whole numbers" in text


def test_a_stray_fraction_is_named_by_the_cli_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("hand.phh").write_text(DWAN.replace("antes = [500, 500, 500]",
                                             "antes = [500.5, 500, 500]"))
    code, out, err = run_cli(["replay", "hand.phh"], capsys)
    assert code == 2, (out, err)
    assert err.count("\n") == 1
    assert err.startswith("rollem: error: hand.phh: line 14 of actions (p1 cbr 1067100): p1 "
                          "cannot do that: raise to 10671000 is not")
    assert err.endswith(" (antes[0] is 500.5: amounts here are in chips of 1/10 of the unit, "
                        "whole numbers)\n")
