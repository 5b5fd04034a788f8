"""``--show-odds``' lines draw their cards as the rest of the screen does
(issue 33 newcomer pass): the advice said "throw 9c Ts 7h" in plain card text
next to a table drawn with suit symbols."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from cli_helpers import scripted

ADVICE = ("Your odds: equity 41% · exact (every outcome counted)\n"
          "Advice, cards to throw (all 2 options, each played out in 1,000 random deals):\n"
          "  throw 9c Ts 7h  equity 44.0% (exact)\n"
          "  throw Kd        equity 38.0% (exact)   <- rule of thumb")


@pytest.fixture
def fixed_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    def show_odds_text(view: object, **kwargs: Any) -> tuple[str, bool]:
        return ADVICE, True

    monkeypatch.setattr("rollem.odds.display.show_odds_text", show_odds_text)


@pytest.mark.usefixtures("fixed_odds")
def test_a_terminal_draws_the_advices_cards_with_suit_symbols(tmp_path: Path) -> None:
    game, _ = scripted(iter([]), rich=True, history_dir=tmp_path)
    line = game.odds_line(None)
    assert "throw 9♣ T♠ 7♥  equity 44.0%" in line.plain
    assert "throw K♦" in line.plain and "9c" not in line.plain
    assert line.style == "cyan"
    red = [line.plain[s.start:s.end] for s in line.spans if "red" in str(s.style)]
    assert red == ["7♥", "K♦"]  # (the table's colours: hearts and diamonds red)
    console = Console(file=io.StringIO(), no_color=True, force_terminal=True, width=80)
    console.print(line)
    printed = console.file.getvalue()  # type: ignore[attr-defined]
    assert "\x1b[3" not in printed  # NO_COLOR: no colour codes (bold stays, as on the table)
    assert "9♣ T♠ 7♥" in re.sub(r"\x1b\[[0-9;]*m", "", printed)


@pytest.mark.usefixtures("fixed_odds")
def test_plain_text_keeps_the_short_card_text(tmp_path: Path) -> None:
    game, _ = scripted(iter([]), rich=False, history_dir=tmp_path)
    assert game.odds_line(None).plain == ADVICE
