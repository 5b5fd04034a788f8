"""A hand history from someone else cannot drive the terminal it is replayed in:
control characters in its names, notes or actions are shown as ``^[`` and the
like (rollem replay, its errors, the .phh path).

Before: ``rollem replay`` printed a player name such as ESC ] 52 ; c ; ... BEL
(OSC 52, a clipboard write in many terminals) or ESC ] 8 (a hyperlink) as is.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_helpers import run_cli
from rollem.text import terminal_safe

HISTORIES = Path(__file__).parent / "histories"
CLIPBOARD = "\x1b]52;c;cm0gLXJmIH4=\x07"  # OSC 52: put "rm -rf ~" on the clipboard
RED = "\x1b[31m"


def test_control_characters_are_shown_not_sent() -> None:
    assert terminal_safe(f"A{CLIPBOARD}B{RED}\x7f\x9b") == "A^[]52;c;cm0gLXJmIH4=^GB^[[31m^?\\x9b"
    assert terminal_safe("Ann\tand Bob\nÅsa 🂡 بن") == "Ann\tand Bob\nÅsa 🂡 بن"
    # a text-direction override is shown, not sent (it reorders the rest of the line)
    assert terminal_safe("Ann \u202e") == "Ann \\u202e"


def _with_names(tmp_path: Path, first: str) -> Path:
    text = (HISTORIES / "sdr_worked_example.toml").read_text()
    assert 'players = ["A", "B"]' in text
    out = tmp_path / "hand.toml"
    # (TOML basic strings carry control characters only as escapes)
    escaped = first.replace("\x1b", "\\u001b").replace("\x07", "\\u0007")
    out.write_text(text.replace('players = ["A", "B"]', f'players = ["{escaped}", "B"]'))
    return out


@pytest.mark.parametrize("flags", [[], ["--result"]])
def test_replay_shows_a_hostile_name_harmlessly(tmp_path: Path, flags: list[str],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    file = _with_names(tmp_path, f"Eve{CLIPBOARD}{RED}")
    code, out, err = run_cli(["replay", str(file), *flags], capsys)
    assert code == 0, err
    assert "\x1b" not in out and "\x07" not in out
    assert "Eve^[]52;c;cm0gLXJmIH4=^G^[[31m" in out


def test_an_error_quoting_the_file_shows_control_characters_harmlessly(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (HISTORIES / "sdr_worked_example.toml").read_text()
    file = tmp_path / "bad.toml"
    file.write_text(text.replace('"d dh p1 Qs Qd"', '"d dh p1 Qs\\u001b]0;pwned\\u0007"'))
    code, out, err = run_cli(["replay", str(file)], capsys)
    assert code == 2 and out == ""
    assert "\x1b" not in err and "\x07" not in err and "^[]0;pwned^G" in err


def test_a_phh_read_from_a_toml_file_is_named_as_given(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Before: a standard PHH hand in a .toml file was refused as "hand.phh: ...",
    # a file that does not exist.
    file = tmp_path / "hand.toml"
    file.write_text('variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\n'
                    'starting_stacks = [200, 200]\nactions = []\n')
    code, _out, err = run_cli(["replay", str(file)], capsys)
    assert code == 2
    assert err.startswith(f"rollem: error: {file}: ")
