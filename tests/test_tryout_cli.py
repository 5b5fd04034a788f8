"""Words a new user met in the terminal (try-out of stop 39)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from rollem.cli.app import app


def test_odds_for_another_game_says_what_to_do() -> None:
    """``rollem odds rollem521 --hand ...`` (the README's form with another of our
    games) said "expected GAME sdr (with --hand) or --history FILE --seat N, got
    rollem521": it now says that cards you give are for Stop, Drop and Roll only,
    names the game asked for and the way to its odds."""
    proc = CliRunner().invoke(app, ["odds", "rollem521", "--hand", "As Ks Qs Js Ts"])
    assert proc.exit_code == 2
    assert proc.output.startswith("rollem: error: odds from cards you give (--hand) are for "
                                  "Stop, Drop and Roll (sdr) only, not 5-2-1 Roll 'Em "
                                  "(rollem521)")
    assert "rollem odds --history FILE --seat N" in proc.output
    proc = CliRunner().invoke(app, ["odds", "poker", "--hand", "As Ks"])
    assert proc.exit_code == 2 and "only, not 'poker';" in proc.output
    proc = CliRunner().invoke(app, ["odds"])
    assert proc.exit_code == 2
    assert proc.output == ('rollem: error: name the game and your cards (rollem odds sdr '
                           '--hand "As Kd"), or give a hand history of any game: rollem odds '
                           "--history FILE --seat N\n")


def test_replay_shows_text_direction_characters_in_a_name(tmp_path: Path) -> None:
    """A hand history a friend sends may name a player ``Ann`` + U+202E (RIGHT-TO-LEFT
    OVERRIDE) + ``niw I``: a terminal that lays out right-to-left text showed the
    rest of the line reversed ("Ann" then "I win" read backwards, and the words after
    it); control characters were already shown in caret form, these passed as they
    were.  They are now shown as ``\\u202e``."""
    source = (Path(__file__).parent / "histories" / "sdr_worked_example.toml").read_text()
    text = source.replace('players = ["A", "B"]', 'players = ["Ann\\u202eniw I", "B\\u2066ob"]')
    assert text != source
    path = tmp_path / "hand.toml"
    path.write_text(text, encoding="utf-8")
    proc = CliRunner().invoke(app, ["replay", str(path)])
    assert proc.exit_code == 0, proc.output
    assert "\u202e" not in proc.output and "\u2066" not in proc.output
    assert "Ann\\u202eniw I is dealt Qs Qd." in proc.output
    assert "B\\u2066ob is dealt As Kd." in proc.output
