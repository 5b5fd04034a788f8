"""``--game-file`` and ``--games`` on the command line (issue 18)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner

from rollem import games
from rollem.cli.app import app

HOLDEM = str(resources.files("rollem.games").joinpath("files", "holdem.toml"))


@pytest.fixture(autouse=True)
def _registry_as_it_was() -> Iterator[None]:
    """``--game-file`` registers the file's game in this process: forget it afterwards."""
    games.all_games()  # the shipped games are loaded on first use
    before = dict(games._GAMES)
    yield
    games._GAMES.clear()
    games._GAMES.update(before)


def _my_game(tmp_path: Path) -> str:
    text = Path(HOLDEM).read_text().replace('id = "holdem"', 'id = "my-holdem"')
    path = tmp_path / "mine.toml"
    path.write_text(text)
    return str(path)


def test_simulate_a_game_file(tmp_path: Path) -> None:
    out = CliRunner().invoke(app, ["simulate", "--game-file", _my_game(tmp_path), "--players",
                                   "3", "--hands", "20", "--bots", "basic", "--seed", "2",
                                   "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["game"] == "my-holdem" and data["hands"] == 20
    assert data["chips_end"] == data["chips_start"]


def test_simulate_every_standard_game_with_basic_bots() -> None:
    for game in ("holdem", "omaha", "omaha8", "stud", "stud8", "razz", "draw5", "deuces-wild"):
        out = CliRunner().invoke(app, ["simulate", game, "--players", "3", "--hands", "6",
                                       "--bots", "basic,random,random", "--seed", "1", "--json"])
        assert out.exit_code == 0, (game, out.output)
        assert json.loads(out.stdout)["chips_end"] == json.loads(out.stdout)["chips_start"]


def test_bad_game_file_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('id = "x"\n')
    out = CliRunner().invoke(app, ["simulate", "--game-file", str(bad), "--players", "3",
                                   "--hands", "2"])
    assert out.exit_code == 2
    assert out.stderr == (f"rollem: error: --game-file {bad}: name: must be a one-line text "
                          "of 1..60 characters, not all spaces, but it is missing\n")
    # (it said "got None", a Python word for the missing key: issue 33's try-out)


def test_play_dealers_choice_games_list(tmp_path: Path) -> None:
    out = CliRunner().invoke(app, ["play", "dealers-choice", "--games", "holdem,nosuch",
                                   "--history-dir", str(tmp_path)], input="q\n")
    assert out.exit_code == 2
    assert "--games: unknown game 'nosuch'" in out.stderr
    out = CliRunner().invoke(app, ["play", "--game-file", _my_game(tmp_path), "--players", "3",
                                   "--seed", "1", "--history-dir", str(tmp_path)], input="q\n")
    assert out.exit_code == 0, out.output
    assert "Texas Hold'em" in out.stdout


def test_a_game_file_left_out_of_games_is_refused_not_ignored(tmp_path: Path) -> None:
    """Try-out of issue 33 (branch s50-tryout): ``play --game-file F --games sdr``
    dealt Stop, Drop and Roll and never the file's game, without a word."""
    mine = _my_game(tmp_path)
    out = CliRunner().invoke(app, ["play", "--game-file", mine, "--games", "sdr",
                                   "--history-dir", str(tmp_path)], input="q\n")
    assert out.exit_code == 2
    assert out.stderr == ("rollem: error: --game-file: its game 'my-holdem' is not among "
                          "--games sdr; add it (--games sdr,my-holdem) or leave out --games\n")
    out = CliRunner().invoke(app, ["play", "--game-file", mine, "--games", "sdr,my-holdem",
                                   "--players", "3", "--seed", "1", "--history-dir",
                                   str(tmp_path)], input="q\n")
    assert out.exit_code == 0, out.output


def test_rules_of_a_standard_game_come_from_its_file() -> None:
    out = CliRunner().invoke(app, ["rules", "razz"])
    assert out.exit_code == 0
    assert out.stdout.startswith("# Razz\n\nRazz: seven-card stud played for low.")


def test_play_every_standard_game_with_odds_and_its_rules(tmp_path: Path) -> None:
    from rollem import games

    for gid in games.STANDARD:
        game = games.get(gid)
        odds = ["--show-odds"] if gid in ("holdem", "razz") else []  # (each: test_gamefile_odds)
        out = CliRunner().invoke(app, ["play", gid, "--players", "3", "--bots", "random",
                                       "--seed", "2", *odds, "--history-dir",
                                       str(tmp_path / gid)], input="c\n" * 3 + "q\n")
        assert out.exit_code == 0, (gid, out.output)
        assert f"=== Hand 1: {game.name}" in out.stdout, gid
        assert "You are dealt " in out.stdout, gid
        if odds:
            assert "Your odds: equity " in out.stdout, gid  # Monte Carlo from the view
        rules = CliRunner().invoke(app, ["rules", gid])
        assert rules.exit_code == 0
        assert rules.stdout == f"# {game.name}\n\n{game.rules.strip()}\n"


def test_simulate_a_game_file_on_two_workers_plays_that_game(tmp_path: Path) -> None:
    """Each worker process learns the file's game (it was 'unknown game' there)."""
    args = ["simulate", "--game-file", _my_game(tmp_path), "--players", "3", "--hands", "20",
            "--seed", "2", "--json"]
    one = CliRunner().invoke(app, [*args, "--workers", "1"])
    two = CliRunner().invoke(app, [*args, "--workers", "2"])
    assert one.exit_code == 0 and two.exit_code == 0, two.output
    data = json.loads(two.stdout)
    assert data["game"] == "my-holdem" and data["hands"] == 20
    assert data["chips_end"] == data["chips_start"]


def test_a_game_file_reusing_a_shipped_id_is_refused(tmp_path: Path) -> None:
    """Its histories would name the shipped game (the web table refuses it too); the
    shipped file unchanged is the shipped game (tests/test_cli_input_checks.py)."""
    clash = tmp_path / "clash.toml"
    clash.write_text(Path(_my_game(tmp_path)).read_text()
                     .replace('id = "my-holdem"', 'id = "holdem"')
                     .replace('name = "Texas Hold\'em"', 'name = "My Hold\'em"'))
    assert 'name = "My Hold\'em"' in clash.read_text()
    for command in (["simulate", "--hands", "5"], ["play"]):
        out = CliRunner().invoke(app, [*command, "--game-file", str(clash), "--players", "3"],
                                 input="q\n")
        assert out.exit_code == 2
        assert "id 'holdem' is the shipped holdem's, and this file's name differs from it" \
            in out.stderr, out.output


def test_rules_of_a_game_file_and_play_refuses_two_games(tmp_path: Path) -> None:
    mine = _my_game(tmp_path)
    out = CliRunner().invoke(app, ["rules", "--game-file", mine])
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    assert lines[0] == "# Texas Hold'em"
    assert "## Step by step" in lines
    assert "Texas Hold'em (my-holdem): 2 to 10 players." in lines
    assert any(line.startswith("1. ") for line in lines)
    # GAME and a game file name two games: refused, not one silently ignored
    for argv in (["rules", "sdr", "--game-file", mine],
                 ["play", "holdem", "--game-file", mine, "--history-dir", str(tmp_path)]):
        out = CliRunner().invoke(app, argv, input="q\n")
        assert out.exit_code == 2, argv
        assert "give GAME or --game-file, not both" in out.stderr


def test_a_bug_reaches_the_user_as_one_line(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """CLI.md: no traceback ever reaches a user, even for a bug (exit 70,
    EX_SOFTWARE); ROLLEM_DEBUG=1 lets the traceback through for whoever fixes it."""
    from rollem.cli import app as app_module

    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("the engine\nbroke")

    monkeypatch.setattr(app_module.app, "main", broken)
    monkeypatch.delenv("ROLLEM_DEBUG", raising=False)
    with pytest.raises(SystemExit) as code:
        app_module.main(["simulate"])
    assert code.value.code == 70
    err = capsys.readouterr().err
    assert err.startswith("rollem: internal error: RuntimeError: the engine broke (a bug in ")
    assert err.count("\n") == 1
    monkeypatch.setenv("ROLLEM_DEBUG", "1")
    with pytest.raises(RuntimeError, match="broke"):
        app_module.main(["simulate"])


def test_check_game_refuses_a_file_it_cannot_deal(tmp_path: Path) -> None:
    """A pick-wild with no pool and no card face up passed check-game, then froze a
    web table and crashed rollem play: now check-game, play and simulate refuse it."""
    path = tmp_path / "wild.toml"
    path.write_text('id = "wildnopool"\nname = "W"\nplayers = [2, 8]\nrules = "x"\n'
                    '[[steps]]\nstep = "ante"\n[[steps]]\nstep = "deal"\ncards = 5\n'
                    '[[steps]]\nstep = "pick-wild"\n[[steps]]\nstep = "bet"\nsize = "small"\n'
                    'cap = 3\n[[steps]]\nstep = "showdown"\n')
    for argv in (["check-game", str(path)],
                 ["simulate", "--game-file", str(path), "--players", "3", "--hands", "2"],
                 ["play", "--game-file", str(path), "--history-dir", str(tmp_path)]):
        out = CliRunner().invoke(app, argv, input="q\n")
        assert out.exit_code == 2, (argv, out.output)
        assert "steps[2].chooser: 'lowest-showing' reads the hands showing, but no card is " \
               "face up" in out.stderr, argv


def test_check_game_errors_name_the_file_as_game_file_does(tmp_path: Path) -> None:
    """s71: ``rollem check-game FILE``'s errors about the file's text did not name
    the file ("name: must be a one-line text ..."), where --game-file's did
    ("--game-file FILE: name: ..."); both name it now, check-game without the
    option."""
    bad = tmp_path / "bad.toml"
    bad.write_text('id = "mine"\n', encoding="utf-8")
    not_toml = tmp_path / "not-toml.toml"
    not_toml.write_text("id = \n", encoding="utf-8")
    for path, said in ((bad, "name: must be a one-line text of 1..60 characters, not all "
                             "spaces, but it is missing"),
                       (not_toml, "game file: not valid TOML: Invalid value (at line 1, "
                                  "column 6)"),
                       (tmp_path / "none.toml", "cannot read: No such file or directory")):
        check = CliRunner().invoke(app, ["check-game", str(path)])
        assert (check.exit_code, check.stdout) == (2, ""), check.output
        assert check.stderr == f"rollem: error: {path}: {said}\n"
        simulate = CliRunner().invoke(app, ["simulate", "--game-file", str(path), "--hands",
                                            "1"])
        assert simulate.exit_code == 2
        assert simulate.stderr == f"rollem: error: --game-file {path}: {said}\n"
