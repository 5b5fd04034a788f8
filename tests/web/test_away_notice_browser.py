"""One notice line for a player sat out as away (s59-tidy; the night try-out of
stop 58, "seen and left": on a phone, heads-up, the away notice stacked under
"Waiting for players: ..." and "The clock checked for you (hand 1). OK", three
lines at once for one fact). Debian's Chromium through Playwright, 390x844
and 1440x900.

Heads-up against one computer player, Ann lets her clock run out once
(``away_after = 1``): she sits out as away, so the table waits for players
(her) and the clock checked or folded for her. The notice now says the away
line alone (it names the clock's acts and the way back); the wait and the
clock's line come back for anyone not sat out.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from table_ui import context, new_table, open_as_host, shot, sit
from web_harness import ServerThread, decision_clock_on

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_an_away_player_reads_one_notice_line(browser: Any, tmp_path: Path, size: str) -> None:
    """main: three lines ("Waiting for players: ...", the away line, "The clock
    checked for you (hand 1). OK")."""
    server = ServerThread(tmp_path / "away.db")
    try:
        tid, host = new_table(server.url, game="holdem", seats=2, bots=1, bot_level="random",
                              decision_seconds=1.0, time_bank_seconds=0, away_after=1,
                              between_hands=0.3)
        ctx = context(browser, size)
        ann = open_as_host(ctx, server.url, tid, host)
        sit(ann, "Ann")
        ann.click("#start-btn")
        table = server.manager.tables[tid]
        end = time.monotonic() + 60
        while not table.session.get("idle_away"):
            assert time.monotonic() < end, "Ann was never sat out"
            # Her 1 s moved on her decision's clock, not waited out (stop 61: what is
            # checked is the notice, not the clock's second; none open: nothing).
            decision_clock_on(server, tid, 0, 1.0)
            ann.wait_for_timeout(100)
        ann.wait_for_selector("#notice .notice-line:has-text('sit out as away')")
        ann.wait_for_timeout(500)  # (the next states: the hand's end, the wait)
        lines = ann.locator("#notice .notice-line").all_inner_texts()
        assert len(lines) == 1, lines
        assert lines[0] == ("The clock acted for you once, so you sit out as away: press "
                            "“I'm back” to be dealt in again."), lines
        box = ann.locator("#notice").bounding_box()
        width = ann.viewport_size["width"]
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5
        shot(ann, f"away-notice-{size}")
        # back: the away line goes
        ann.click(".me button.sit:has-text(\"I'm back\")")
        ann.wait_for_selector("#notice .notice-line:has-text('sit out as away')",
                              state="detached")
    finally:
        server.stop()
