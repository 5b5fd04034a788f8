"""``rollem play`` when no game offered fits the players (R-C-12): refused up
front with one line (exit 2), or, when players drop out during the session,
said plainly instead of asking to choose from an empty list."""

from __future__ import annotations

import io
from importlib import resources
from pathlib import Path

import pytest

from cli_helpers import run_cli, scripted
from rollem.engine.game import Game
from rollem.games.gamefile import load_game


def _three_to_six() -> Game:
    """Hold'em from its file, as a game of 3 to 6 players."""
    text = resources.files("rollem.games").joinpath("files", "holdem.toml").read_text("utf-8")
    return load_game(text.replace('id = "holdem"', 'id = "holdem3"')
                     .replace("players = [2, 10]", "players = [3, 6]"))


@pytest.mark.parametrize(("games", "why"), [
    ("rollyourown", "rollyourown takes 2 to 8"),
    ("stud,razz", "stud takes 2 to 7, razz takes 2 to 7"),
])
def test_no_game_offered_fits_the_players_is_refused_up_front(
        games: str, why: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    code, out, err = run_cli(["play", "--players", "9", "--games", games,
                              "--history-dir", str(tmp_path)], capsys)
    assert (code, out) == (2, "")
    assert err == f"rollem: error: --players 9: none of the games offered fits 9 players: {why}\n"
    # one game that fits is enough
    code, out, err = run_cli(["play", "--players", "9", "--games", games + ",sdr", "--seed", "1",
                              "--history-dir", str(tmp_path)], capsys)
    assert code == 0 and err == "" and "Session ledger after 0 hands" in out


@pytest.mark.parametrize("dealers_choice", [True, False])
def test_players_dropping_out_so_that_no_game_fits_ends_the_session_plainly(
        dealers_choice: bool, tmp_path: Path) -> None:
    three = _three_to_six()
    kwargs: dict[str, object] = (
        {"game": "dealers-choice", "games": [three]} if dealers_choice else {"game": three})
    game, out = scripted(iter(["1", "holdem3", "q"]), players=3, history_dir=tmp_path,
                         **kwargs)
    game.table.stacks[2] = 0  # a computer player went broke (they do not rebuy)
    assert game.run() == 0
    text = "".join(out)
    assert ("No hand can be dealt: 2 players are still dealt in, and no game of this table "
            "fits 2 players (holdem3 takes 3 to 6). The session ends here.") \
        in " ".join(text.split())  # (wrapped at 80 columns: s69-newcomer)
    assert "choose the game" not in text and "Game (1-" not in text
    assert "won every chip" not in text  # Ann still has chips: that was not why
    assert "Session ledger after 0 hands" in text


def test_naming_a_game_that_does_not_fit_says_why(tmp_path: Path) -> None:
    """With 9 players dealer's choice offers 5-2-1 and SDR; a player who types
    "rollyourown" (or "rolly") on the button was told only "'rolly' is not one
    of the games"; now why (R-C-12: at most 8), then the games to choose."""
    game, out = scripted(iter(["rolly", "rollyourown", "1", "q", "q"]), game="dealers-choice",
                         players=9, seed=1, history_dir=tmp_path)
    game.run()
    lines = "".join(out).splitlines()
    # (the games in the usual order, sdr first: s71; they were by id)
    why = "rollyourown does not fit 9 players (it takes 2 to 8): 1 = sdr, 2 = rollem521"
    assert lines.count(why) == 2
    assert any(ln.startswith("=== Hand 1: Stop, Drop and Roll") for ln in lines)
