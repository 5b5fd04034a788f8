"""s63-table2, in a real browser (Debian's Chromium through Playwright) at 390x844
and 1440x900: the last person declines their rebuy during a break inside the rebuy
levels, and the computer players left are placed by chips at once.  Before, the
break ran on in the state: the felt counted it down beside "The tournament is
over" (and the server still took the host's "Resume now").

Screenshots test-artifacts/web/s63t2-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from table_ui import BREAK_IN_REBUYS, ann_against_two_computers, shot, shove_until, to_the_break
from web_harness import ServerThread, seeded_deals

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_decline_in_the_break_ends_it_with_the_tournament(
        browser: Any, tmp_path: Path, size: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ann, the one person, with a chip against two computer players of 100 each,
    rebuys open for both levels: she busts, the computer players play on to the
    break, she presses "No rebuy: I'm out" in it.  The tournament is over at once,
    and no break is counted down any more (on the felt nor in the panel)."""
    seeded_deals(monkeypatch, 0)  # (Ann's shoves bust her in a hand or two: s66-table)
    server = ServerThread(tmp_path / "s63t2.db")
    try:
        ann, table = ann_against_two_computers(browser, server, size, BREAK_IN_REBUYS,
                                               rebuy_levels=2)
        ann_seat = next(n for n, s in table.seats.items() if s.row.bot is None)
        shove_until(server, ann, lambda: table.seats[ann_seat].row.stack == 0, "Ann's bust")
        ann.locator(".me button[data-action=rebuy-decline]").wait_for()
        to_the_break(server, table, ann)  # (level 1's time is up; counted down)
        assert not server.call(lambda: bool(table.session["tournament"]["over"]))
        ann.click(".me button[data-action=rebuy-decline]")
        ann.wait_for_selector("#tourney .tourney-over")
        ann.wait_for_timeout(500)  # (the last state drawn)
        assert ann.inner_text("#tourney .tourney-over") == (
            "Over: every person was out, so the computer players left were placed by "
            "their chips.")
        assert ann.locator(".break-left").count() == 0, ann.inner_text("#felt")
        assert ann.locator(".tourney-break").count() == 0
        assert ann.locator("[data-host=end_break]").count() == 0
        assert ann.inner_text(".me .rebuy-closed").startswith("You finished 3rd"), \
            ann.inner_text(".me")
        shot(ann, f"s63t2-{size}-declined-in-break")
    finally:
        server.stop()
