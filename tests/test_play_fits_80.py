"""Piped ``rollem play`` fits 80 columns after ``q`` and in a 10-player 5-2-1
table's rows (s59-tidy; issue 33's checklist, "seen and left": only the odds
lines were fitted).

A line over 78 characters is wrapped between words, its later parts indented
four spaces more than it: the session's closing lines ("To settle up: ...",
"Your play: ...", "N hand histories saved in FOLDER (...)") and a seat row
with its up cards and draws ("D You  stack 157  As 8h Js Kh 6s  (up: As 8h Js
Kh)  stood pat twice <- choosing")."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

from cli_helpers import scripted


def _session(tmp_path: Path, seed: int) -> list[str]:
    """Ten players of 5-2-1 (basic bots, 200 chips), answering call/stand pat/
    the next hand until 60 answers, then quit; the printed lines."""
    answers = itertools.chain(
        itertools.islice(itertools.cycle(["c", "p", "h", "", "c", "1 2 3 4 5"]), 120),
        itertools.repeat("q"))
    game, out = scripted(answers, game="rollem521", players=10, level="basic", stack=200,
                         seed=seed, history_dir=tmp_path)
    game.run()
    return "".join(out).splitlines()


def test_closing_lines_and_ten_seat_rows_fit_80_columns(tmp_path: Path) -> None:
    """main: the closing lines ran to 125, 161 and 195 columns, and a seat row
    with its up cards and "stood pat twice" to 86 (seeds 5 to 7)."""
    rows = closing = settled = 0
    for seed in (5, 6, 7):
        lines = _session(tmp_path / str(seed), seed)
        prompts = [x for x in lines if x.rstrip().endswith(">") or "> " in x]
        # (a word longer than the width stays whole: here the pytest folder)
        long = [x for x in lines if len(x) > 80 and x not in prompts and " " in x.strip()]
        assert not long, long
        text = " ".join(" ".join(lines).split())
        assert "Your play: " in text
        settled += "To settle up: " in text
        assert re.search(rf"\d+ hand histor(y|ies) saved in {re.escape(str(tmp_path / str(seed)))}",
                         text)
        closing += sum(1 for x in lines if x.startswith("      ") and ";" in x)  # wrapped
        rows += sum(1 for x in lines if "(up: " in x)
    assert closing and rows and settled
