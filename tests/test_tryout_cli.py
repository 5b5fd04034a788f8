"""Words a new user met in the terminal (try-out of stop 39)."""

from __future__ import annotations

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
