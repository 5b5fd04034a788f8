"""Numbers past Python's int-from-text limit (4300 digits) or past an exact
decimal's range, in files and texts from outside: every reader refuses them
in one line (try-out of stop 48), where they were internal errors in the CLI
and an HTTP 500 at the web table (a host's game file)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_helpers import run_cli
from rollem.phh import PHHError, read_phh, replay_phh
from rollem.server.config import ConfigError, parse_config

HERE = Path(__file__).parent
BIG = "1" + "0" * 5000  # 5001 digits: int("1000...") is a ValueError in Python 3.11

HAND = """variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [{stack}, 100]
actions = ["d dh p1 AcAd", "d dh p2 KcKd", "p2 cc", "p1 cc", "d db 3c4d7h", "p1 cc", "p2 cc",
           "d db 8s", "p1 cc", "p2 cc", "d db 9s", "p1 cc", "p2 cc"]
"""


def _history_with_button(tmp_path: Path) -> Path:
    text = (HERE / "histories" / "sdr_worked_example.toml").read_text()
    assert "_button = 1\n" in text
    path = tmp_path / "big.toml"
    path.write_text(text.replace("_button = 1\n", f"_button = {BIG}\n"))
    return path


@pytest.mark.parametrize("args", [["replay"], ["replay", "--json"], ["verify"],
                                  ["export", "--phh"], ["convert", "--to", "phh"]])
def test_a_5000_digit_number_in_a_history_is_one_line(
        args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _history_with_button(tmp_path)
    code, out, err = run_cli([*args, str(path)], capsys)
    assert code == 2, (out, err)
    assert "internal error" not in err and "a number with more than 4300 digits" in err
    assert err.count("\n") == 1


def test_odds_history_with_a_5000_digit_number(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _history_with_button(tmp_path)
    code, _out, err = run_cli(["odds", "--history", str(path), "--seat", "0"], capsys)
    assert code == 2 and "internal error" not in err
    assert "a number with more than 4300 digits" in err


def test_a_game_file_with_a_5000_digit_number(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.toml"
    path.write_text(f'id = "mine"\nname = "Mine"\nplayers = [2, {BIG}]\n')
    code, _, err = run_cli(["check-game", str(path)], capsys)
    assert code == 2 and "not valid TOML: a number with more than 4300 digits" in err


def test_a_host_game_file_with_a_5000_digit_number_is_a_config_error() -> None:
    """The web table answers a ConfigError with 400 bad_config (on main: a
    ValueError, an HTTP 500 with a traceback in the log)."""
    text = f'id = "mine"\nname = "Mine"\nplayers = [2, {BIG}]\n'
    with pytest.raises(ConfigError, match="game_file: game file: not valid TOML: a number "
                                          "with more than 4300 digits"):
        parse_config({"game": "mine", "game_file": text})


@pytest.mark.parametrize(("stack", "shown"), [
    ("1e999999999", "1E+999999999"),  # an exact decimal's normalize() overflows
    ("1e5000", "1E+5000"),  # 5001 digits of chips: printing the result fails
    (BIG[:4000], "10000000000000000..."),
    ("1000000000000000", "1000000000000000"),  # 10**15, the first amount refused
])
def test_phh_amounts_must_be_below_10_to_the_15(stack: str, shown: str) -> None:
    with pytest.raises(PHHError, match=r"starting_stacks\[0\] is " + shown.replace("+", r"\+")
                       .replace(".", r"\.") + ": every amount must be below 10\\*\\*15"):
        replay_phh(read_phh(HAND.format(stack=stack)))


def test_a_phh_amount_just_below_10_to_the_15_plays() -> None:
    result = replay_phh(read_phh(HAND.format(stack="999999999999999")))
    # both check it down; p1's aces win p2's kings: the big blind's 2
    assert result.finishing_stacks == [999999999999999 + 2, 98]


def test_a_phh_amount_far_below_a_millionth_is_too_many_places() -> None:
    text = HAND.format(stack="100").replace("[1, 2]", "[1e-99999999, 2]")
    with pytest.raises(PHHError, match=r"blinds_or_straddles\[0\] is 1E-99999999: at most 6 "
                                       "decimal places"):
        replay_phh(read_phh(text))


def test_a_phh_file_with_a_5000_digit_number(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "big.phh"
    path.write_text(HAND.format(stack=BIG))
    for args in (["replay", str(path)], ["convert", str(path), "--to", "rollem"]):
        code, _, err = run_cli(args, capsys)
        assert code == 2 and "internal error" not in err
        assert "a number with more than 4300 digits" in err


DEEP = "x = " + "[" * 5000 + "]" * 5000 + "\n"  # tomllib recurses once per [


@pytest.mark.parametrize(("name", "args"), [
    ("deep.toml", ["export", "--phh"]),
    ("deep.phhs", ["replay"]),
    ("deep.phhs", ["convert", "--to", "rollem"]),
    ("deep.phhs", ["verify"]),
])
def test_toml_nested_too_deeply_is_one_line(
        name: str, args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """On main, export --phh and replay of a .phhs were internal errors
    (RecursionError)."""
    path = tmp_path / name
    path.write_text(DEEP)
    code, _, err = run_cli([*args, str(path)], capsys)
    assert code == 2 and "internal error" not in err
    assert err == f"rollem: error: {path}: not a hand history: arrays or tables nested too deeply\n"


def test_a_custom_tournament_schedule_nested_too_deeply_is_a_config_error() -> None:
    """The web table's create form: on main a RecursionError, an HTTP 500."""
    with pytest.raises(ConfigError, match=r"^tournament_schedule: arrays or tables nested too "
                                          r"deeply$"):
        parse_config({"tournament": "custom", "tournament_schedule": DEEP})
    with pytest.raises(ConfigError, match=r"^tournament_schedule: not TOML: a number with more "
                                          r"than 4300 digits"):
        parse_config({"tournament": "custom", "tournament_schedule": f"stack = {BIG}\n"})


def test_convert_names_bad_toml_in_a_phhs_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.phhs"
    path.write_text("x = [\n")
    code, _, err = run_cli(["convert", str(path), "--to", "rollem"], capsys)
    assert code == 2
    assert err == (f"rollem: error: {path}: not a TOML hand history: Invalid value (at end of "
                   "document)\n")
