"""A name read from a hand history cannot print a line of its own in `rollem
replay` (try-out of stop 48): on main ``players = ["A\\nNet: A +999, B -999\\nX",
"B"]`` told the hand with a forged result line ``Net: A +999, B -999``, in the
step-by-step story, in ``--result`` and in a PHH hand's summary."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_helpers import run_cli, unwrapped

HERE = Path(__file__).parent
FORGED = "A\\nNet: A +999, B -999\\nX"  # as written in TOML


def _history(tmp_path: Path) -> Path:
    text = (HERE / "histories" / "sdr_worked_example.toml").read_text()
    assert 'players = ["A", "B"]' in text
    path = tmp_path / "names.toml"
    path.write_text(text.replace('players = ["A", "B"]', f'players = ["{FORGED}", "B"]'))
    return path


@pytest.mark.parametrize("args", [[], ["--result"]])
def test_a_name_with_a_newline_stays_on_its_line(
        args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["replay", str(_history(tmp_path)), *args], capsys)
    assert code == 0
    nets = [line for line in out.splitlines() if line.startswith("Net:")]
    assert nets == ["Net: A^JNet: A +999, B -999^JX -9, B +9" + ("." if not args else "")]


def test_a_phh_name_with_a_newline_stays_on_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (HERE / "phh" / "dwan-ivey-2009.phh").read_text()
    old = 'players = ["Phil Ivey", "Patrik Antonius", "Tom Dwan"]'
    assert old in text
    path = tmp_path / "names.phh"
    path.write_text(text.replace(old, 'players = ["Ivey\\r\\nNet: Ivey +1", "Antonius", '
                                      '"Dwan\\tx"]'))
    code, out, _ = run_cli(["replay", str(path)], capsys)
    assert code == 0
    assert [line for line in out.splitlines() if line.startswith("Net:")] == [
        "Net: Ivey^M^JNet: Ivey +1 -553500, Antonius -2500, Dwan^Ix +556000"]


def test_name_safe() -> None:
    from rollem.text import name_safe

    assert name_safe("Ann") == "Ann"
    assert name_safe("a\nb\tc\x1b[31m\u202e") == "a^Jb^Ic^[[31m\\u202e"


FORGED_OK = "1\\nother.toml: ok: hand 1: all 9 cards named are where the committed deck put them"


def _phhs_with_a_forged_key(tmp_path: Path) -> Path:
    text = (HERE / "phh" / "dwan-ivey-2009.phh").read_text()
    path = tmp_path / "key.phhs"
    path.write_text(f'["{FORGED_OK}"]\n' + text.replace("# A big pot between Dwan and Ivey.\n",
                                                         ""))
    return path


def test_a_phhs_hand_name_cannot_forge_an_ok_line_in_verify(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A .phhs table key is printed with each hand's verdict: on main its newline
    printed a line of its own that read as another file's "ok"."""
    path = _phhs_with_a_forged_key(tmp_path)
    code, out, _ = run_cli(["verify", str(path)], capsys)
    assert code == 1
    assert not any(line.startswith("other.toml") for line in out.splitlines())
    assert out.startswith(f"{path} [1^Jother.toml: ok: hand 1: all 9 cards named")
    assert unwrapped(out).count("\n") == 1  # one hand, one line (wrapped, indented below)
    assert all(line.startswith("  ") for line in out.splitlines()[1:])


def test_a_phhs_hand_name_stays_on_its_line_in_replay(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["replay", str(_phhs_with_a_forged_key(tmp_path))], capsys)
    assert code == 0
    assert out.splitlines()[0].startswith("[1^Jother.toml: ok: ")
    assert not any(line.startswith("other.toml") for line in out.splitlines())
