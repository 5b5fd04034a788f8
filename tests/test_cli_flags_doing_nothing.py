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


STUD_TWICE = ("rollem: error: --run-twice: Seven-Card Stud never runs it twice: it has no shared "
              "cards still to come before a cards-speak showdown once nobody can bet (run it "
              "twice is for board games such as hold'em, Omaha and Stop, Drop and Roll); leave "
              "it out\n")


def test_run_twice_at_stud_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """Stop 53: ``simulate stud --run-twice`` played on as if it were not given."""
    assert run(["simulate", "stud", "--players", "3", "--hands", "1", "--run-twice"],
               capsys) == (2, "", STUD_TWICE)


@pytest.mark.parametrize("command", [["play", "razz"],
                                     ["simulate", "razz", "--players", "3", "--hands", "1"]])
def test_bomb_pots_where_no_game_has_one_are_refused(
        command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert run([*command, "--bomb-pot-every", "3"], capsys) == (
        2, "", "rollem: error: --bomb-pot-every 3: Razz has no bomb pots: its first betting "
               "round is not followed by shared cards (bomb pots are for board games such as "
               "hold'em, Omaha and Stop, Drop and Roll); leave it out\n")


def test_bomb_pots_where_no_game_offered_has_one_are_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["play", "dealers-choice", "--games", "stud,razz", "--bomb-pot-every", "3"],
               capsys) == (
        2, "", "rollem: error: --bomb-pot-every 3: none of stud, razz has bomb pots (those are "
               "for board games such as holdem, omaha and sdr); leave it out\n")


def test_run_twice_and_bomb_pots_where_a_game_can_are_taken(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Dealer's choice offers Stop, Drop and Roll, which can have both."""
    code, out, err = run(["simulate", "dealers-choice", "--players", "3", "--hands", "2",
                          "--seed", "1", "--run-twice", "--bomb-pot-every", "2"], capsys)
    assert (code, err) == (0, "") and "2 hands" in out
