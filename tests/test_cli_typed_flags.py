"""Bad input on the command line, said in rollem's words (s61-term).

- Every number, word list and path option of every command is read by one of
  :mod:`rollem.cli.numbers`' types, so ``rollem play --players abc`` says
  "'abc' is not a whole number: expected 2 to 10" (exit 2, one line), as
  ``rollem serve --port abc`` did, where it said click's "'abc' is not a valid
  integer"; likewise choices ("'xx' is not a choice: expected phh or rollem"),
  decimal numbers and paths.
- A house option is named in an error as it was typed: ``rollem play sdr
  --failed-both-rule split`` was refused as "--house failed_both_rule: ...",
  a form the user did not type.
"""

from __future__ import annotations

import io
from pathlib import Path

import click
import pytest

from cli_helpers import run_cli as run
from rollem.cli.app import COMMANDS, app
from rollem.cli.numbers import NumberRange, OneOf, PathOf, Whole, WholeRange


def _options() -> list[tuple[str, click.Parameter]]:
    ctx = click.Context(app)
    out = []
    for name in COMMANDS:
        command = app.get_command(ctx, name)
        assert command is not None
        out.extend((name, p) for p in command.params)
    return out


def test_every_number_choice_and_path_is_read_by_rollems_own_types() -> None:
    """A new option with click's ``type=int`` (or ``Choice``, ``FloatRange``,
    ``Path``) would print click's words again: none is left."""
    raw = [(name, p.opts, type(p.type).__name__) for name, p in _options()
           if isinstance(p.type, (click.types.IntParamType, click.types.FloatParamType,
                                  click.Choice, click.Path))
           and not isinstance(p.type, (WholeRange, NumberRange, OneOf, PathOf))]
    assert raw == []
    ours = [p for _, p in _options() if isinstance(p.type, (Whole, WholeRange, NumberRange,
                                                             OneOf, PathOf))]
    assert len(ours) > 60


def _bad_value(p: click.Parameter) -> tuple[str, str]:
    """A bad value for ``p`` and the words its refusal must hold."""
    if isinstance(p.type, OneOf):
        return "nope", "'nope' is not a choice: expected "
    if isinstance(p.type, NumberRange):
        return "lots", "'lots' is not a number: expected "
    if isinstance(p.type, PathOf):
        return ("/", "'/' is a folder: expected a file") if not p.type.dir_okay else \
            (__file__, "is a file: expected a folder")
    return "abc", "'abc' is not a whole number: expected "


@pytest.mark.parametrize(("command", "param"), [
    (c, p) for c, p in _options()
    if isinstance(p.type, (Whole, WholeRange, NumberRange, OneOf, PathOf))],
    ids=lambda x: x if isinstance(x, str) else x.name)
def test_every_bad_value_is_one_line_saying_what_is_allowed(
        command: str, param: click.Parameter, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    value, said = _bad_value(param)
    flag = [param.opts[-1]] if isinstance(param, click.Option) else []
    code, out, err = run([command, *flag, value], capsys)
    assert (code, out) == (2, ""), err
    assert err.count("\n") == 1 and err.startswith("rollem: error: Invalid value for "), err
    assert said in err, err
    assert "a valid" not in err and "is not one of '" not in err and "range x" not in err


@pytest.mark.parametrize(("args", "said"), [
    (["play", "--players", "abc"], "'--players': 'abc' is not a whole number: expected 2 to 10"),
    (["simulate", "sdr", "--hands", "1e3"],
     "'--hands': '1e3' is not a whole number: expected 1 to 1,000,000"),
    (["odds", "sdr", "--samples", "1_000"],
     "'--samples': '1_000' is not a whole number: expected 1 to 10,000,000"),
    (["play", "--structure", "pot"],
     "'--structure': 'pot' is not a choice: expected fixed-limit, pot-limit or no-limit"),
    (["convert", "--to", "XX", "x.toml"], "'--to': 'XX' is not a choice: expected phh or rollem"),
    (["serve", "--http-timeout", "301"],
     "301 is out of range: expected more than 0, at most 300"),
    (["serve", "--hand-seconds", "nan"], "'nan' is not a number: expected 0 to 600"),
    (["serve", "--log-level", "loud"],
     "'loud' is not a choice: expected debug, info, warning or error"),
])
def test_bad_values_say_what_is_allowed(args: list[str], said: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(args, capsys)
    assert (code, out) == (2, "")
    assert err.endswith(said + "\n"), err


def test_a_whole_number_too_long_for_int_is_refused_in_words(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["simulate", "sdr", "--players", "3", "--hands", "9" * 5000], capsys)
    assert (code, err) == (2, "rollem: error: Invalid value for '--hands': a number of 5000 "
                              "digits is too large: expected 1 to 1,000,000\n")


@pytest.mark.parametrize("command", [["play", "sdr"],
                                     ["simulate", "sdr", "--players", "3", "--hands", "1"]])
def test_a_house_flag_is_named_as_typed_with_the_games_that_have_it(
        command: list[str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    for flags, typed in ((["--failed-both-rule", "split"], "--failed-both-rule split"),
                         # typed, the default too: it would do nothing in sdr (issue 33)
                         (["--failed-both-rule", "carry"], "--failed-both-rule carry"),
                         (["--house", "failed_both_rule=split"], "--house failed_both_rule")):
        code, out, err = run([*command, *flags], capsys)
        assert (code, out) == (2, "")
        assert err == (f"rollem: error: {typed}: not a house option of sdr (theirs: "
                       "burn_before_roll); only rollem521 has it\n")
    code, _, err = run([*command[:1], "holdem", *command[2:], "--burn-before-roll"], capsys)
    assert err == ("rollem: error: --burn-before-roll: not a house option of holdem (theirs: "
                   "none); only sdr has it\n")


def test_a_house_flags_help_names_every_shipped_game_that_has_the_option() -> None:
    """s71-new: ``--wild-duplicates`` and ``--natural-beats-wild`` were helped as
    "Roll Your Own: ..." while Deuces Wild takes them too (and the refusal in sdr
    says "only deuces-wild and rollyourown have it")."""
    from rollem.cli.table_options import HOUSE_FLAGS
    from rollem.games import all_games, is_shipped

    short = {"rollem521": "5-2-1", "rollyourown": "Roll Your Own"}
    named = {}
    for name, text in HOUSE_FLAGS.items():
        have = sorted(g.id for g in all_games() if is_shipped(g) and name in g.house)
        assert have, name
        named[name] = have
        for g in have:
            assert short.get(g, next(x.name for x in all_games() if x.id == g)) in text, \
                (name, g, text)
    assert named["wild_duplicates"] == ["deuces-wild", "rollyourown"]


def test_one_house_option_given_two_values_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``--failed-both-rule split --house failed_both_rule=carry`` played carry
    without a word (the flag lost to --house); the same value twice is taken."""
    code, out, err = run(["simulate", "rollem521", "--players", "3", "--hands", "1",
                          "--failed-both-rule", "split", "--house", "failed_both_rule=carry"],
                         capsys)
    assert (code, err) == (2, "rollem: error: --house failed_both_rule=carry and "
                              "--failed-both-rule split give the house option "
                              "failed_both_rule two values: give one\n")
    code, out, err = run(["simulate", "rollem521", "--players", "3", "--hands", "1", "--json",
                          "--failed-both-rule", "split", "--house", "failed_both_rule=split"],
                         capsys)
    assert code == 0, err
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    code, out, err = run(["play", "rollem521", "--failed-both-rule", "carry",
                          "--history-dir", str(tmp_path)], capsys)
    assert code == 0 and "Session ledger" in out, err


def test_a_folder_given_for_files_says_which_files_to_give(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """verify, replay and export given a folder said only "is a folder:
    expected a file": now they say what to give instead, as shell words."""
    (tmp_path / "empty").mkdir()
    code, _, err = run(["replay", str(tmp_path / "empty")], capsys)
    assert code == 2 and err.endswith("'FILE': '" + str(tmp_path / "empty")
                                      + "' is a folder: expected a file (give a file in it)\n")
    for name in ("hand-0001-holdem.toml", "hand-0002-omaha.toml", "session.phhs", "notes.txt"):
        (tmp_path / name).write_text("")
    d = str(tmp_path)
    code, _, err = run(["verify", d], capsys)
    assert code == 2 and err.endswith(f"is a folder: expected a file (to give the 2 .toml files "
                                      f"in it: {d}/*.toml)\n"), err
    code, _, err = run(["export", "--phh", d], capsys)
    assert code == 2 and f"(to give the 2 .toml files in it: {d}/*.toml)" in err
    code, _, err = run(["replay", d], capsys)  # one file: a session's .phhs first
    assert code == 2 and err.endswith(f"(give a file in it, such as {d}/session.phhs)\n"), err
    code, _, err = run(["export", "--phh", f"{d}/hand-0001-holdem.toml", "-o", d], capsys)
    assert code == 2 and err.endswith(f"(give a file name in it: {d}/NAME)\n"), err
