"""A shared finishing place says so (stop 59, branch s59-night; Debian's Chromium
through Playwright, 390x844 and 1440x900).  Two who bust in one hand with the
same chips share the place: the panel read "6th: Hal  6th: Amy" and no 7th,
leaving friends to guess.  Now "=6th" (as results tables write a tie), in the
panel and on the tiles."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from table_ui import context, new_table, open_as_host, shot, sit
from test_tournament_places_known_browser import SEED, SHORT, _call
from web_harness import ServerThread, only_betting_bots, seeded_deals

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_two_busted_together_read_a_tie(browser: Any, tmp_path: Path, size: str,
                                        monkeypatch: Any) -> None:
    """Ann and Bot 1 bust in hand 1 with 3 chips each; Ann takes no rebuy: they
    share 2nd (2nd and 3rd's prizes, 10 and 0, split: 5 each)."""
    seeded_deals(monkeypatch, SEED)
    server = ServerThread(tmp_path / "tie.db")
    try:
        tid, host = new_table(server.url, game="sdr", seats=3, bots=2, bot_level="basic",
                              tournament="custom", tournament_schedule=SHORT, buy_in=10,
                              rebuy_levels=1, between_hands=0.3, payouts=[65, 35])
        only_betting_bots(server, tid)
        ann = open_as_host(context(browser, size), server.url, tid, host)
        sit(ann, "Ann")
        ann.click("#start-btn")
        table = server.manager.tables[tid]
        end = time.monotonic() + 90
        while "tournament" not in table.session or not table.session["tournament"]["busts"]:
            assert time.monotonic() < end, "nobody busted"
            _call(ann)
            ann.wait_for_timeout(50)
        ann.locator("button[data-action=rebuy-decline]").click()
        ann.wait_for_selector("#tourney .tourney-over")
        places = {int(s): p for s, p in server.call(table.tourney.public)["places"].items()}
        assert places == {0: 2, 1: 2, 2: 1}
        # main: "2nd: Ann wins 5", "2nd: Bot 1 (basic) wins 5"
        assert sorted(ann.locator("#tourney .tourney-places li").all_inner_texts()) == [
            "1st: Bot 2 (basic) wins 20", "=2nd: Ann wins 5",
            "=2nd: Bot 1 (basic) wins 5"]
        assert ann.locator(".seat[data-seat='1'] .tag.out").inner_text() == "=2nd · prize 5"
        shot(ann, f"tourney-tied-places-{size}")
    finally:
        server.stop()
