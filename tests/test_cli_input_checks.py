"""The command line's input checks found by a fresh tester (one rule per
option across commands, bounded file reads, clear answers)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rollem.cli.app import main
from rollem.odds import OddsError, sdr_odds
from rollem.odds.history import history_odds

HISTORIES = Path(__file__).parent / "histories"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(args)
    out, err = capsys.readouterr()
    return int(info.value.code or 0), out, err


SEED_ERROR = "rollem: error: --seed -1: expected a whole number, 0 or more\n"


@pytest.mark.parametrize("args", [
    ["odds", "sdr", "--hand", "AsKs", "--seed", "-1"],
    ["odds", "sdr", "--hand", "AsKs", "--seed", "-1", "--workers", "2"],
    ["odds", "--history", str(HISTORIES / "sdr_worked_example.toml"), "--seat", "0",
     "--at", "2", "--seed", "-1"],
    ["simulate", "sdr", "--players", "2", "--hands", "3", "--seed", "-1"],
    ["play", "--seed", "-1"],
])
def test_negative_seed_is_one_usage_error_everywhere(
        args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    # Before: odds crashed (numpy: "expected non-negative integer", exit 1)
    # while simulate and play took -1 (as 1).
    code, out, err = run(args, capsys)
    assert (code, out, err) == (2, "", SEED_ERROR)


def test_seed_zero_is_allowed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["odds", "sdr", "--hand", "AsKs", "--seed", "0", "--samples", "200",
                          "--json"], capsys)
    assert code == 0, err
    again = run(["odds", "sdr", "--hand", "AsKs", "--seed", "0", "--samples", "200",
                 "--json"], capsys)[1]
    assert out == again  # seeded: the same answer


def test_odds_library_refuses_a_negative_seed() -> None:
    text = (HISTORIES / "sdr_worked_example.toml").read_text(encoding="utf-8")
    for call in (lambda: sdr_odds("As Ks", seed=-1, exact_limit=0, samples=10),
                 lambda: sdr_odds("As Ks", seed=-1, exact_limit=0, samples=10, workers=2),
                 lambda: history_odds(text, 0, at=2, seed=-1)):
        with pytest.raises(OddsError, match=r"^seed -1: expected a whole number, 0 or more$"):
            call()


SHIPPED = Path(__file__).parent.parent / "src" / "rollem" / "games" / "files"


def test_check_game_refuses_a_shipped_id_as_play_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Before: check-game said "OK: the game file is valid." (exit 0) for it.
    clash = tmp_path / "clash.toml"
    clash.write_text((SHIPPED / "holdem.toml").read_text(encoding="utf-8")
                     .replace('id = "holdem"', 'id = "sdr"'), encoding="utf-8")
    said = ("id 'sdr' is a shipped game's id; give your game an id of its own "
            "(or play the shipped game: GAME sdr)\n")
    assert run(["check-game", str(clash)], capsys) == (
        2, "", f"rollem: error: {clash}: {said}")
    assert run(["check-game", "--json", str(clash)], capsys)[0] == 2
    for command in (["simulate", "--players", "2", "--hands", "1"], ["rules"]):
        assert run([*command, "--game-file", str(clash)], capsys) == (
            2, "", f"rollem: error: --game-file {clash}: {said}")


def test_a_shipped_file_unchanged_is_the_shipped_game(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = str(SHIPPED / "holdem.toml")
    code, out, err = run(["check-game", path], capsys)
    assert code == 0 and out.splitlines()[-1] == "OK: the game file is valid.", err
    code, out, err = run(["simulate", "--game-file", path, "--players", "2", "--hands", "2",
                          "--seed", "1", "--json"], capsys)
    assert code == 0, err
    assert '"game": "holdem", "hands": 2' in out
