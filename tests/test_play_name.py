"""``rollem play --name`` (stop 56): the player's name in their copies of the hand
histories, checked as the web table checks a name to sit down with."""

from __future__ import annotations

import io
import tomllib
from pathlib import Path

import pytest

from cli_helpers import run_cli as run


def test_a_named_players_copies_name_them_and_the_terminal_still_says_you(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``--name Ann`` at three seats: the greeting says it, the terminal's lines
    still say "You" (Ann's own screen), the computer players skip the name Ann
    (Bob, Cat), and the saved copy names Ann, so its replay says whose it is."""
    monkeypatch.setattr("sys.stdin", io.StringIO("c\n" * 6 + "\nq\n"))
    code, out, err = run(["play", "holdem", "--players", "3", "--seed", "5", "--name", " Ann ",
                          "--history-dir", str(tmp_path)], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("rollem: you are in seat 0 as Ann with 2 computer player(s)")
    assert "=== Hand 1: Texas Hold'em, You have the button ===" in lines
    assert "Bob posts the small blind 1 (pot 1)." in lines
    assert "You are dealt Jh 3s." in lines
    assert "  To settle up: Bob pays you 2; Cat pays you 8" in lines
    [copy] = sorted(tmp_path.glob("*/hand-0001-holdem.toml"))
    assert tomllib.loads(copy.read_text(encoding="utf-8"))["players"] == ["Ann", "Bob", "Cat"]
    code, out, err = run(["replay", str(copy)], capsys)
    assert code == 0, err
    told = out.splitlines()
    assert told[0] == "Texas Hold'em: Ann (200), Bob (200) and Cat (200); Ann has the button."
    assert told[2].startswith("As Ann saw it (a redacted copy")
    assert "You are dealt Jh 3s." in told
    code, out, err = run(["verify", str(copy)], capsys)
    assert code == 0, err


@pytest.mark.parametrize(("name", "says"), [
    ("Bot 3", "'Bot 3' is kept for computer players; choose another name"),
    ("you", "'you' is how the table speaks to each player reading it; choose another name"),
    ("Ann (host)", "'Ann (host)' holds '(host)', which the page itself writes after players' "
                   "names (such as '(you)', '(host)', '(left)' or '· away'); choose your own "
                   "name without it"),
    (" ", "give a name of 1 to 24 characters, or leave out --name (your copies then call "
           "you You)"),
    ("A" * 25, "a name has at most 24 characters, not 25"),
    ("Ann\u200b", "a name may not hold invisible, control or text-direction characters "
                  "(U+200B); use letters, digits, spaces, punctuation"),
])
def test_a_name_the_web_table_refuses_is_refused_with_its_words(
        name: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One line on stderr naming the name and what is allowed, exit 2, and no game
    (no history folder made)."""
    code, out, err = run(["play", "holdem", "--name", name,
                          "--history-dir", str(tmp_path / "h")], capsys)
    assert code == 2 and out == ""
    assert err == f"rollem: error: --name {name!r}: {says}\n"
    assert not (tmp_path / "h").exists()
