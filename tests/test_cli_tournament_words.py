"""Words of the tournament in the terminal and in the CLI's help (branch s60-fresh):
the ledger after you are out counts the hands played out, and ``--rotate``'s help
says what ``simulate`` turns (it has no ``--games``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cli_helpers import run_cli as run


def test_the_ledger_counts_the_hands_played_out_after_you_are_out(tmp_path: Path) -> None:
    """s60-fresh: out in place 3 after 18 hands, the computer players played 3 more,
    and the ledger said "Tournament ledger after 18 hand(s)" for a tournament of 21."""
    out = subprocess.run([sys.executable, "-m", "rollem", "play", "sdr", "--players", "3",
                          "--tournament", "turbo", "--seed", "1", "--history-dir",
                          str(tmp_path)], input="r\nc\n\n" * 400, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert "You are out of the tournament in place 3. The computer players play it out." in text
    assert ("Tournament ledger after 21 hands, 18 with you (buy-in 10, prize pool 30; in "
            "the buy-in's units):") in text
    assert "Your play: 18 hands;" in text


def test_rotate_help_names_simulates_games_not_a_games_flag_it_lacks(
        capsys: pytest.CaptureFixture[str]) -> None:
    """s60-fresh: ``rollem simulate --help`` said --rotate turns "the games ... in the
    order of --games", and simulate has no --games (it deals the three home games):
    the help (shared by play and simulate) says what each turns."""
    for command in ("simulate", "play"):
        code, out, _ = run([command, "--help"], capsys)
        assert code == 0 and ("--rotate [level|orbit] With --tournament and dealers-choice: "
                              "the games rotate in turn (like H.O.R.S.E.; rollem play: in the "
                              "order of --games; simulate: sdr, rollyourown then rollem521) "
                              "instead of the button choosing") in " ".join(out.split())
    code, _, err = run(["simulate", "dealers-choice", "--games", "sdr"], capsys)
    assert code == 2 and "No such option '--games'" in err  # (its three home games)
