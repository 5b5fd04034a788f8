"""A shared finishing place says so (stop 59, branch s59-night; Debian's Chromium
through Playwright, 390x844 and 1440x900).  Two who bust in one hand with the
same chips share the place: the panel read "6th: Hal  6th: Amy" and no 7th,
leaving friends to guess.  Now "=6th" (as results tables write a tie), in the
panel and on the tiles, and the dock's "You finished 6th, tied with Amy" (s73-night)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from table_ui import shot
from test_tournament_places_known_browser import play_to_first_bust

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_two_busted_together_read_a_tie(browser: Any, tmp_path: Path, size: str,
                                        monkeypatch: Any) -> None:
    """Ann and Bot 1 bust in hand 1 with 3 chips each; Ann takes no rebuy: they
    share 2nd (2nd and 3rd's prizes, 10 and 0, split: 5 each)."""
    server, table, ann, _end = play_to_first_bust(browser, tmp_path, size, monkeypatch, "tie")
    try:
        ann.locator("button[data-action=rebuy-decline]").click()
        ann.wait_for_selector("#tourney .tourney-over")
        places = {int(s): p for s, p in server.call(table.tourney.public)["places"].items()}
        assert places == {0: 2, 1: 2, 2: 1}
        # main: "2nd: Ann wins 5", "2nd: Bot 1 (basic) wins 5"
        assert sorted(ann.locator("#tourney .tourney-places li").all_inner_texts()) == [
            "1st: Bot 2 (basic) wins 20", "=2nd: Ann wins 5",
            "=2nd: Bot 1 (basic) wins 5"]
        assert ann.locator(".seat[data-seat='1'] .tag.out").inner_text() == "=2nd · prize 5"
        # her dock says the place is shared, and with whom (s73-night: it said "You
        # finished 2nd and win 5." beside the panel's "=2nd")
        assert ann.inner_text(".me .rebuy-closed") == \
            "You finished 2nd, tied with Bot 1 (basic), and win 5."
        shot(ann, f"tourney-tied-places-{size}")
    finally:
        server.stop()
