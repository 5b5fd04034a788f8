"""Helpers for the command-line tests: run ``rollem`` in this process, and a
``rollem play`` session driven by scripted answers."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from rollem.cli.app import main
from rollem.cli.play_cmd import TerminalGame


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``rollem ARGS``: its exit status, standard output and standard error."""
    with pytest.raises(SystemExit) as info:
        main(args)
    out, err = capsys.readouterr()
    return int(info.value.code or 0), out, err


class ListWriter:
    """A file-like ``out`` for :class:`TerminalGame`: each text written is
    appended to ``parts``."""

    def __init__(self, parts: list[str]) -> None:
        self.parts = parts

    def write(self, text: str) -> None:
        self.parts.append(text)

    def flush(self) -> None:
        pass


def scripted(answers: Iterator[str], **kwargs: object) -> tuple[TerminalGame, list[str]]:
    """A plain-text ``rollem play`` session answering each prompt with the next
    of ``answers`` (heads-up SDR, random bots, 50 chips, seed 5 unless
    ``kwargs`` say otherwise); returns the game and its output so far, prompts
    included."""
    out: list[str] = []

    def read_line(prompt: str) -> str:
        out.append(prompt)
        return next(answers)

    args: dict[str, object] = {"game": "sdr", "players": 2, "level": "random", "stack": 50,
                               "seed": 5, "show_odds": False, "rich": False}
    args.update(kwargs)
    game = TerminalGame(read_line=read_line, out=ListWriter(out), **args)  # type: ignore[arg-type]
    return game, out


def first_card_to_turn_up(choices: str) -> str:
    """The number of the first card a Roll Your Own turn-up offers in
    ``choices`` ("turn up 1 card, from 2:Qd 3:2s 4:3h" gives "2": the row is
    numbered with its up cards, so "1" may be a card already face up)."""
    found = re.search(r"turn up 1 card, from (\d+):", " ".join(choices.split()))
    if found is None:
        raise AssertionError(f"no turn-up offered in {choices!r}")
    return found[1]


def unwrapped(text: str, width: int = 80) -> str:
    """``text`` as printed before its long lines were wrapped to ``width``
    columns (:func:`rollem.text.fit_lines`): a line indented more than the line
    it goes on from, whose first word did not fit on that line, is joined to it
    with a space (s62-term: ``rollem replay`` and ``rollem verify`` wrap)."""
    out: list[str] = []
    last = ""  # the physical line before
    for line in text.split("\n"):
        words = line.lstrip(" ")
        lead = len(line) - len(words)
        head = len(out[-1]) - len(out[-1].lstrip(" ")) if out else 0
        if (out and words and last.strip() and lead > head
                and len(last) + 1 + len(words.split(" ")[0]) > width):
            out[-1] += " " + words
        else:
            out.append(line)
        last = line
    return "\n".join(out)
