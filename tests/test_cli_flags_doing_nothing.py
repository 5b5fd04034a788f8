"""Flags that would do nothing are refused in one line (what was wrong, what is
allowed), exit 2, as the CLI refuses others (issue 33; the new user's try-out
of stop 52): ``--no-cap-heads-up`` in pot- or no-limit (the raise cap is fixed
limit's) and a game given twice in ``--games``."""

from __future__ import annotations

import pytest

from cli_helpers import run_cli as run

NO_CAP = ("rollem: error: --no-cap-heads-up: the raise cap is fixed limit's, and --structure "
          "{} has no cap; use it with --structure fixed-limit (the default)\n")


@pytest.mark.parametrize("command", [["play", "holdem"],
                                     ["simulate", "holdem", "--players", "2", "--hands", "1"]])
@pytest.mark.parametrize("structure", ["pot-limit", "no-limit"])
def test_no_cap_heads_up_outside_fixed_limit_is_refused(
        command: list[str], structure: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run([*command, "--structure", structure, "--no-cap-heads-up"], capsys) == (
        2, "", NO_CAP.format(structure))


def test_no_cap_heads_up_in_fixed_limit_is_taken(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["simulate", "holdem", "--players", "2", "--hands", "1", "--seed", "1",
                          "--no-cap-heads-up"], capsys)
    assert (code, err) == (0, "") and "hands" in out


@pytest.mark.parametrize("games", ["holdem,holdem", "sdr,holdem,SDR"])
def test_a_game_given_twice_in_games_is_refused(games: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    twice = "holdem" if games == "holdem,holdem" else "sdr"
    listed = games.lower()
    assert run(["play", "dealers-choice", "--games", games], capsys) == (
        2, "", f"rollem: error: --games {listed}: {twice} is given twice; name each game once "
               "(e.g. sdr,holdem,stud)\n")
