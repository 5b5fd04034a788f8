"""An empty answer at ``rollem play``'s game prompt says what to give (s62-term:
it read "'' is not one of the games: ..."), on lines that fit 80 columns with
each choice and its game kept together."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rollem.cli.answers import AnswerError, parse_game_choice
from rollem.cli.app import app


def test_an_empty_game_answer_says_to_give_a_number_or_a_name(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["play", "--players", "3", "--seed", "5",
                                      "--history-dir", str(tmp_path)], input="\n  \nsdr\nq\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "is not one of the games" not in out
    assert out.count("please answer with a game's number or name: 1 = sdr, "
                     "2 = rollyourown,\n  3 = rollem521\n") == 2
    assert "=== Hand 1: Stop, Drop and Roll" in out
    assert all(len(line) <= 80 for line in out.splitlines())


def test_parse_game_choice_refuses_an_empty_answer_naming_the_games() -> None:
    with pytest.raises(AnswerError) as info:
        parse_game_choice(" ", ["sdr", "holdem"])
    assert str(info.value) == "please answer with a game's number or name: 1 = sdr, 2 = holdem"
    with pytest.raises(AnswerError, match=r"^'poker' is not one of the games: 1 = sdr$"):
        parse_game_choice("poker", ["sdr"])
