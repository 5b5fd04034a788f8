"""Terminal conventions (issue 14): ``rollem rules`` pages on a terminal
(``--no-pager`` does not), ``NO_COLOR`` / ``--no-color`` turn colour off."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pexpect

ROLLEM = str(Path(sys.executable).with_name("rollem"))
COLOUR = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-79]|9[0-7]|4[0-79]|10[0-7]|38;|48;)[0-9;]*m")
"""An SGR escape that sets a foreground or background colour (bold etc. are allowed)."""


def run_in_terminal(args: list[str], env: dict[str, str]) -> str:
    child = pexpect.spawn(ROLLEM, args, encoding="utf-8", timeout=60, dimensions=(40, 100),
                          env={"TERM": "xterm", "PATH": "/usr/bin:/bin", **env})
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    return str(child.before)


def test_rules_go_through_a_pager_on_a_terminal(tmp_path: Path) -> None:
    pager = tmp_path / "pager"
    pager.write_text("#!/bin/sh\necho PAGER-WAS-HERE\ncat\n")
    pager.chmod(0o755)
    paged = run_in_terminal(["rules", "sdr"], {"PAGER": str(pager)})
    assert "PAGER-WAS-HERE" in paged and "Stop, Drop and Roll" in paged
    assert COLOUR.search(paged)  # formatted, in colour
    straight = run_in_terminal(["rules", "sdr", "--no-pager"], {"PAGER": str(pager)})
    assert "PAGER-WAS-HERE" not in straight and "Stop, Drop and Roll" in straight


def test_no_color_turns_colour_off(tmp_path: Path) -> None:
    for args, env in ((["rules", "sdr", "--no-pager"], {"NO_COLOR": "1"}),
                      (["rules", "sdr", "--no-pager", "--no-color"], {})):
        text = run_in_terminal(args, env)
        assert "Stop, Drop and Roll" in text
        assert not COLOUR.search(text), COLOUR.search(text)


def test_play_no_color_flag(tmp_path: Path) -> None:
    child = pexpect.spawn(ROLLEM, ["play", "sdr", "--players", "2", "--seed", "1", "--no-color",
                                   "--history-dir", str(tmp_path)],
                          encoding="utf-8", timeout=60, dimensions=(40, 80),
                          env={"TERM": "xterm", "PATH": ""})
    child.expect("Your move > ")
    seen = str(child.before)
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert "Hand 1 -- Stop, Drop and Roll -- before the stop: betting" in seen
    assert re.search(r"[2-9TJQKA][♣♦♥♠]", seen)  # suit symbols stay
    assert not COLOUR.search(seen)
    # no bold, dim or underline either, as `rollem rules` with no colour
    assert not re.search(r"\x1b\[[0-9;]*m", seen), re.search(r"\x1b\[[0-9;]*m", seen)
