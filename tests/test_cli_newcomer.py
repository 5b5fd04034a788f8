"""What a newcomer met at 80 columns (s61-term): each reply or line that read
wrong, with the words it says now."""

from __future__ import annotations

import re
from pathlib import Path

import pytest


def test_an_order_too_short_says_how_to_give_one() -> None:
    """s61-term: ``1`` at the 5-2-1 roll-up order was answered "give the order of
    all 5 cards (4s 8s Jd Qh 8d), top first", however often; it did not say
    that positions or k (keep) are taken."""
    from rollem.cards import parse_cards
    from rollem.cli.answers import AnswerError, parse_answer
    from rollem.engine import Legal

    five = tuple(parse_cards("4s 8s Jd Qh 8d"))
    legal = Legal(kind="stack", actions=("stack",), cards=five, min_count=5, max_count=5)
    with pytest.raises(AnswerError) as info:
        parse_answer("1", legal)
    assert str(info.value) == ("give the order of all 5 cards, top first: by position "
                               "(5 4 3 2 1) or as cards (4s 8s Jd Qh 8d); k keeps them as dealt; "
                               "you gave 1")


def test_a_choice_and_its_meaning_stay_on_one_line() -> None:
    """The prompt of a call at 80 columns ended a line with "f =" and began the
    next with "fold"."""
    from rollem.cli.play_cmd import _wrap

    assert _wrap("Choices (after the first draw: betting): c = call 2, r 4 = raise to 4, "
                 "f = fold", "  ") == [
        "Choices (after the first draw: betting): c = call 2, r 4 = raise to 4,",
        "  f = fold"]
    assert _wrap("Choices (everyone orders their cards to roll up): order all 5 cards, top "
                 "first (k = keep this order), from 1:8s 2:Jd", "  ") == [
        "Choices (everyone orders their cards to roll up): order all 5 cards, top first",
        "  (k = keep this order), from 1:8s 2:Jd"]


def test_on_a_terminal_long_lines_wrap_between_words_indented(tmp_path: Path) -> None:
    """On a terminal the session's closing lines were left to the terminal, which
    cut them at its last column without an indent, "To settle up" anywhere in a
    payment ("Bob pays Dan" / "6"); the ledger's nets were not aligned."""
    from cli_helpers import scripted

    game, out = scripted(iter(["q"]), rich=True, colour=False, players=7,
                         history_dir=tmp_path)
    game.table.stacks[:] = [180, 180, 194, 180, 215, 255, 196]
    game.table.brought[:] = [200] * 7
    game.ledger()
    lines = "".join(out).splitlines()
    at = lines.index("  To settle up: You pay Eve 20; Ann pays Dan 5; Ann pays Eve 15;")
    assert lines[at + 1] == "      Bob pays Dan 6; Cat pays Eve 20; Fay pays Dan 4"
    assert "  Bob   -6  (stack 194, brought 200)" in lines
    assert "  Eve  +55  (stack 255, brought 200)" in lines
    assert all(len(line) <= 78 for line in lines), lines


def test_odds_lines_fit_80_columns(capsys: pytest.CaptureFixture[str]) -> None:
    """``rollem odds --history`` printed its equity line at 90 columns and its
    model line at 300: each is broken between its phrases now, later parts
    indented four spaces."""
    from cli_helpers import run_cli

    history = Path(__file__).parent / "histories" / "rollyourown_seed_example.toml"
    code, out, err = run_cli(["odds", "--history", str(history), "--seat", "0",
                              "--samples", "500", "--seed", "1"], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert all(len(line) <= 80 for line in lines), lines
    at = next(i for i, line in enumerate(lines) if line.startswith("equity "))
    assert lines[at].endswith("a share 0.00% ·") and lines[at + 1].startswith("    nothing ")
    model = next(i for i, line in enumerate(lines) if line.startswith("model: "))
    assert lines[model + 1].startswith("    ")


@pytest.mark.parametrize(("args", "said"), [
    (["replay"], "missing FILE; usage: rollem replay [OPTIONS] FILE"),
    (["verify"], "missing FILES...; usage: rollem verify [OPTIONS] FILES..."),
    (["convert", "x.toml"], "missing --to: expected --to phh or --to rollem"),
    (["export", "x.toml"], "missing --phh: give it (write standard PHH (phh-std 0.0.2), as "
                           "PokerKit's HandHistory reads it)"),
])
def test_a_missing_argument_or_option_says_what_to_give(
        args: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Click's "Missing argument 'FILE'." and "Missing option '--phh'." said only
    what was missing."""
    from cli_helpers import run_cli

    assert run_cli(args, capsys) == (2, "", f"rollem: error: {said}\n")


@pytest.mark.parametrize("command", [["play"], ["rules"], ["simulate", "--players", "2",
                                                           "--hands", "1"]])
def test_every_command_lists_the_games_in_one_order(
        command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """play, rules and simulate listed the game ids each in an order of its own."""
    from cli_helpers import run_cli

    code, _, err = run_cli([command[0], "poker", *command[1:]], capsys)
    assert (code, err) == (2, "rollem: error: unknown game 'poker': expected one of sdr, "
                              "rollyourown, rollem521, holdem, omaha, omaha8, stud, stud8, "
                              "razz, draw5, deuces-wild or dealers-choice (or --game-file "
                              "FILE)\n")


def test_help_keeps_a_flag_whole_and_names_its_value() -> None:
    """``rollem simulate --help`` at 80 columns broke the flag "--game-" / "file
    FILE" over two lines; ``--bomb-pot-every INTEGER`` was told as "every N
    hands"."""
    from click.testing import CliRunner

    from rollem.cli.app import app

    for width in (60, 70, 80, 90, 100):
        out = CliRunner().invoke(app, ["simulate", "--help"], terminal_width=width).output
        assert not any(line.rstrip().endswith("--game-") for line in out.splitlines())
    out = CliRunner().invoke(app, ["play", "--help"], terminal_width=80).output
    assert "--bomb-pot-every N " in out and "--bomb-pot-ante CHIPS " in out


def test_every_option_names_what_its_value_is() -> None:
    """Every option that takes a value shows what the value is (N, SEED, CHIPS,
    DIR, SECONDS...) or its choices, never click's type name: ``--hands
    INTEGER``, ``--seed INTEGER``, ``--ante INTEGER``, ``--port INTEGER
    RANGE``, ``--db TEXT`` were left among the N and CHIPS of the others (s71)."""
    import click
    from click.testing import CliRunner

    from rollem.cli.app import app

    def commands(group: click.Group, path: list[str]) -> list[list[str]]:
        found = []
        ctx = click.Context(group)
        for name in group.list_commands(ctx):
            command = group.get_command(ctx, name)
            found.append([*path, name])
            if isinstance(command, click.Group):
                found += commands(command, [*path, name])
        return found

    named = commands(app, [])
    assert ["simulate"] in named and ["serve"] in named and len(named) > 10
    type_names = re.compile(r"^  (?:-\w, )?--[\w-]+(?: / --[\w-]+)? (INTEGER|FLOAT|TEXT|DIRECTORY|"
                            r"PATH|FILENAME|RANGE|BOOLEAN)\b", re.MULTILINE)
    shown = {}
    for path in named:
        out = CliRunner().invoke(app, [*path, "--help"], terminal_width=200).output
        shown[" ".join(path)] = out
        assert type_names.findall(out) == [], (path, type_names.findall(out))
    # the ones that were click's
    for command, option in (("simulate", "--hands N "), ("simulate", "--workers N "),
                            ("simulate", "--seed SEED "), ("simulate", "--ante CHIPS "),
                            ("play", "--seed SEED "), ("play", "--big-bet CHIPS "),
                            ("play", "--history-dir DIR "), ("odds", "--samples N "),
                            ("odds", "--workers N "), ("serve", "--port PORT "),
                            ("serve", "--retention DAYS "), ("serve", "--max-body BYTES "),
                            ("backup", "--db FILE ")):
        assert f"  {option}" in shown[command], (command, option)
