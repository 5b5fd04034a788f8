"""``rollem eval`` (CLI.md): JSON fields, human output, bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from rollem.cards import parse_cards
from rollem.cli.app import app
from rollem.hands import high_value, low_value, wild_value


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["eval", *args])
    return result.exit_code, result.stdout, result.stderr


def run_json(*args: str) -> dict[str, object]:
    code, out, err = run(*args, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def test_json_fields_for_a_high_hand() -> None:
    data = run_json("Qs Qd Kc 7d 2s")
    assert data == {
        "category": "one pair",
        "description": "pair of queens, king-seven-deuce",
        "cards": ["Qs", "Qd", "Kc", "7d", "2s"],
        "wilds": {},
        "value": high_value(parse_cards("Qs Qd Kc 7d 2s")),
    }


def test_several_arguments_best_five_of_seven() -> None:
    data = run_json("As", "Kd", "Kc", "7d", "2s", "Ah", "Kh")
    assert data["category"] == "full house"
    assert data["description"] == "kings full of aces"
    assert data["cards"] == ["Kd", "Kc", "Kh", "As", "Ah"]


def test_royal_flush_is_a_straight_flush() -> None:
    data = run_json("As Ks Qs Js Ts")
    assert data["category"] == "straight flush"
    assert data["description"] == "royal flush"


def test_wild_cards_rryo12() -> None:
    sevens = run_json("7s 7h Kc Qs 7d", "--wild", "Q")
    aces = run_json("Ah Ad 5c Qh Qc", "--wild", "q")
    assert sevens["category"] == aces["category"] == "four of a kind"
    assert sevens["description"] == "four sevens, king kicker"
    assert sevens["wilds"] == {"Qs": "7c"}
    assert aces["description"] == "four aces, five kicker"
    assert set(aces["wilds"]) == {"Qh", "Qc"}
    assert isinstance(aces["value"], int) and isinstance(sevens["value"], int)
    assert aces["value"] > sevens["value"]
    assert aces["value"] == wild_value(parse_cards("Ah Ad 5c Qh Qc"), {10})


def test_wild_options() -> None:
    plain = run_json("As Ks 9s 3s 2h", "--wild", "2")
    doubled = run_json("As Ks 9s 3s 2h", "--wild", "2", "--wild-duplicates")
    assert plain["wilds"] == {"2h": "Qs"}
    assert doubled["wilds"] == {"2h": "As"}
    assert doubled["description"] == "double-ace flush, king-nine-three"
    natural = run_json("Ah Kh Qh Jh Th", "--wild", "2", "--natural-beats-wild")
    made = run_json("As Ks Qs Js 2c", "--wild", "2", "--natural-beats-wild")
    assert natural["value"] > made["value"]  # type: ignore[operator]
    assert run_json("7c 7d 7h 2s 2c", "--wild", "2", "--wild", "7")["category"] == "five of a kind"


def test_low() -> None:
    data = run_json("7c 5d 4h 3s 2c", "--low")
    assert data["category"] == "high card"
    assert data["description"] == "seven-five low, four-three-deuce"
    assert data["value"] == low_value(parse_cards("7c 5d 4h 3s 2c"))


def test_a_low_keeps_the_high_category_names() -> None:
    """CLI.md pins ``--low``'s category to the same names as high: an unpaired
    low is ``high card`` (its description names the low), a paired low keeps
    its pair (every unpaired low beats it, R-C-3)."""
    wheel = run_json("As 2s 3s 4s 5s", "--low")
    assert (wheel["category"], wheel["description"]) == (
        "high card", "five-four low, three-deuce-ace (the wheel)")
    assert run_json("Ks Qs Js 9s 8d", "--low")["category"] == "high card"
    assert run_json("As 2d", "--low")["category"] == "high card"
    assert run_json("As Ad 2c 3c 4c", "--low")["category"] == "one pair"
    assert run_json("As 2s 3s 4s 5s")["category"] == "straight flush"
    assert run_json("As 7d 3s 9c Qh")["category"] == "high card"


def test_partial_hand() -> None:
    data = run_json("Kc", "Kd", "2s")
    assert data["category"] == "one pair"
    assert data["cards"] == ["Kc", "Kd", "2s"]
    assert run_json("Qh", "--wild", "Q")["wilds"] == {"Qh": "Ah"}


def test_a_partial_hand_is_told_in_words_not_a_rule_id() -> None:
    """s57-tidy: ``rollem eval Kc Kd 2s`` said "(a partial hand of 3 cards, R-C-8)";
    players get words, the rule ids stay in the docstrings and dev docs."""
    code, out, _ = run("Kc", "Kd", "2s")
    assert code == 0
    assert out.splitlines() == [
        "pair of kings, deuce kicker",
        "cards: Kc Kd 2s (a partial hand of 3 cards: pairs, trips and quads count)"]
    code, out, _ = run("Ah")
    assert out.splitlines()[1] == \
        "cards: Ah (a partial hand of 1 card: pairs, trips and quads count)"


def test_no_rule_id_in_what_players_read() -> None:
    """s57-tidy: eval's and play's help and the errors of odds and the engine
    named rule ids (R-C-6, R-SDR-1, R-C-11 ...); they are said in words."""
    import re

    from rollem.odds.sdr import OddsError, sdr_odds
    rule_id = re.compile(r"R-[A-Z0-9]+-\d")
    for command in (["eval", "--help"], ["play", "--help"], ["simulate", "--help"]):
        result = CliRunner().invoke(app, command)
        assert result.exit_code == 0
        assert not rule_id.search(result.stdout), (command, rule_id.findall(result.stdout))
    with pytest.raises(OddsError) as err:
        sdr_odds("As Kd", vs=["2c 3c"] * 10)
    assert "at most ten players in Stop, Drop and Roll" in str(err.value)
    assert not rule_id.search(str(err.value))


def test_human_output() -> None:
    code, out, _ = run("Qs Qd Kc 7d 2s")
    assert code == 0
    assert out.splitlines() == ["pair of queens, king-seven-deuce", "cards: Qs Qd Kc 7d 2s"]


def test_human_output_issue_14() -> None:
    # two different hands, two descriptions (the kickers decide)
    assert run("Tc Kh 6d 6h 2d")[1].splitlines()[0] == "pair of sixes, king-ten-deuce"
    assert run("7s Kc 6d 6h 2d")[1].splitlines()[0] == "pair of sixes, king-seven-deuce"
    # the description, no internal value, no doubled labels
    code, out, _ = run("5c 4d 3h 2s Ac", "--low")
    assert code == 0
    assert out.splitlines() == ["five-four low, three-deuce-ace (the wheel)",
                                "cards: 5c 4d 3h 2s Ac (ace-to-five low)"]
    assert "value" not in out and ")(" not in out.replace(" ", "")
    # each wild card with what it plays as (R-RYO-9)
    assert run("5d 8s 8h 2h Ad", "--wild", "5")[1].splitlines() == [
        "three eights, ace-deuce", "cards: 8s 8h 5d Ad 2h", "wild: 5d plays as 8d"]
    # natural aces are used before wild queens where the hand is the same
    out = run("Qs Qh Qd As Ah Kd 3c", "--wild", "Q")[1].splitlines()
    assert out[:2] == ["five aces", "cards: As Ah Qs Qh Qd"]
    data = run_json("Qs", "Qh", "Qd", "Qc", "As", "Ah", "--wild", "Q")
    assert data["cards"] == ["As", "Ah", "Qs", "Qh", "Qd"]  # 2 naturals, not 4 wilds + 1


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["Qs Qd Zz"], "Zz"),
        (["Qs Qd Qs"], "twice"),
        (["Qs Qd", "--wild", "X"], "rank"),
        (["Qs Qd", "--wild", "Q", "--low"], "--low"),
        ([], "no cards"),
    ],
)
def test_bad_input_exits_2_with_one_line(args: list[str], needle: str) -> None:
    code, out, err = run(*args)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert needle in err


def test_bad_input_through_the_real_command() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "rollem", "eval", "As", "As", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("twice", [("Q", "Q"), ("Q", "q"), ("10", "T")])
def test_a_wild_rank_given_twice_is_refused(twice: tuple[str, str]) -> None:
    # (main: taken silently, the second flag doing nothing)
    code, out, err = run("Qs Qd Kc 7d 2s", "--wild", twice[0], "--wild", twice[1])
    assert code == 2 and out == ""
    assert err == (f"rollem: error: --wild {twice[0]} --wild {twice[1]}: the rank is given "
                   "twice; name each wild rank once (e.g. --wild Q --wild 7)\n")
    assert run_json("Qs Qd Kc 7d 2s", "--wild", "7", "--wild", "T")["wilds"] == {"7d": "Qc"}
