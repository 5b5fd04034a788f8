"""A friend who arrives after the tournament started (stop 56, branch s56-night;
Debian's Chromium through Playwright, 390x844 and 1440x900).  The page told
them "You are watching — type your name and press Enter, or tap a free seat."
beside "Seat 2 — free: tap to sit", and every try was refused
(``tournament_started``).  Now the page says the tournament takes no new
players, offers no seat (nor "take a seat to write" under the chat), and its
free seats read "empty" to everyone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from table_ui import context, new_table, open_as_host, shot, sit
from test_tournament_server import SCHEDULE
from web_harness import ServerThread

pytestmark = pytest.mark.browser


def _free_tile(page: Any) -> tuple[str, str]:
    """The tag and text of the one free seat's tile."""
    tile = page.locator(".seat.empty")
    tile.wait_for()
    return (str(tile.evaluate("n => n.tagName")), " ".join(tile.inner_text().split()))


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_late_arrival_is_told_the_tournament_takes_no_new_players(
        browser: Any, tmp_path: Path, size: str) -> None:
    server = ServerThread(tmp_path / "late.db")
    try:
        tid, host = new_table(server.url, game="sdr", seats=4, bots=2, buy_in=10,
                              tournament="custom",
                              tournament_schedule=SCHEDULE.replace("stack = 60", "stack = 900"))
        ann = open_as_host(context(browser, "desktop"), server.url, tid, host)
        sit(ann, "Ann")
        eve = context(browser, size).new_page()
        eve.goto(f"{server.url}/t/{tid}")
        # before the first deal a free seat may still be taken
        eve.wait_for_selector("#watching:not(.hidden)")
        assert eve.inner_text("#watching") == (
            "You are watching — type your name and press Enter, or tap a free seat. A player "
            "who closes the tab or loses the connection keeps the seat for 2 minutes (the "
            "reconnect grace) and comes back to it from the same browser; a tournament "
            "entrant keeps theirs to the end.")  # (the grace: s64-table2)
        assert _free_tile(eve) == ("BUTTON", "Seat 2 — free: tap to sit")
        assert eve.inner_text("#chat-watch") == "Watchers read the chat; take a seat to write."
        ann.click("#start-btn")
        words = "You are watching — this tournament has started and takes no new players."
        eve.wait_for_selector(f"#watching:text-is('{words}')")
        assert eve.locator("#join").is_hidden()
        eve.wait_for_selector(".seat.empty:not(button)")
        assert _free_tile(eve) == ("DIV", "Seat 2 — empty")
        assert eve.locator("[data-action=take-seat]").count() == 0
        assert eve.inner_text("#chat-watch") == "Watchers read the chat."  # (no seat to take)
        ann.wait_for_selector(".seat.empty:text-is('Seat 2 — empty')")
        box = eve.locator("#watching").bounding_box()
        assert box is not None and box["x"] >= 0
        assert box["x"] + box["width"] <= eve.viewport_size["width"]
        shot(eve, f"late-arrival-{size}")
        shot(ann, f"late-arrival-{size}-host")
    finally:
        server.stop()
