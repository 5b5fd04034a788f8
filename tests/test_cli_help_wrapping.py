"""Every command's ``--help`` reads as prose: a kept-as-is paragraph (click's
``\\b``) is wrapped evenly, so no line stops short in mid-sentence with the
sentence going on below it (issue 33: ``rollem odds --help`` printed "line says
so. Nobody" / "folds and no" / "betting is simulated, ..." on three lines)."""

from __future__ import annotations

import itertools

import pytest
from click.testing import CliRunner

from rollem.cli.app import COMMANDS, app


def _ragged_lines(text: str) -> list[tuple[str, str]]:
    """Pairs (line, next line) where a prose line of the help (indented, not an
    option row) ends under 45 columns, not at a full stop, colon or semicolon,
    and the sentence goes on in lower case on the next line."""
    lines = text.splitlines()
    found = []
    for line, after in itertools.pairwise(lines):
        words = line.strip()
        if (
            words
            and line.startswith("  ")
            and not words.startswith("-")
            and len(line) < 45
            and not words.endswith((".", ":", ";"))
            and after.strip()[:1].islower()
        ):
            found.append((line, after))
    return found


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_help_paragraphs_are_wrapped_evenly(name: str) -> None:
    result = CliRunner().invoke(app, [name, "--help"], terminal_width=80)
    assert result.exit_code == 0, result.output
    assert _ragged_lines(result.output) == []


def test_odds_help_says_nobody_folds_on_one_line() -> None:
    out = CliRunner().invoke(app, ["odds", "--help"], terminal_width=80).output
    assert "line says so. Nobody folds and no betting is simulated, so the card you" in out
    assert "Plain model (Stop, Drop and Roll; Roll Your Own where the weighting is too" in out
