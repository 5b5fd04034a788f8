"""s64-table2, in a real browser (Debian's Chromium through Playwright) at 390x844
and 1440x900: a friend opening the invite link reads, in the join line, how long
a closed tab keeps its seat -- the front page's words (s64-table, "How it
works"), with the table's own reconnect grace (``grace_seconds``, set when the
table was made), not the default 2 minutes.  Before, the join line said only
"You are watching — type your name and press Enter, or tap a free seat."

Screenshots test-artifacts/web/s64t2-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from table_ui import context, new_table, shot, sit
from web_harness import ServerThread

pytestmark = pytest.mark.browser

JOIN = "You are watching — type your name and press Enter, or tap a free seat. "


def _join_line(browser: Any, server: ServerThread, size: str, tid: str) -> tuple[Any, str]:
    """A newcomer's page at table ``tid`` (the invite link) and its join line, which
    must fit the viewport."""
    page = context(browser, size).new_page()
    page.goto(f"{server.url}/t/{tid}")
    page.wait_for_selector("#watching:not(.hidden)")
    box = page.locator("#watching").bounding_box()
    assert box is not None and box["x"] >= 0
    assert box["x"] + box["width"] <= page.viewport_size["width"]
    return page, page.inner_text("#watching")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_join_line_tells_the_tables_own_reconnect_grace(
        browser: Any, tmp_path: Path, size: str) -> None:
    server = ServerThread(tmp_path / "s64t2.db")
    try:
        tid, _ = new_table(server.url, game="holdem", seats=4, bots=1, grace_seconds=300)
        eve, words = _join_line(browser, server, size, tid)
        # (main: the first sentence only)
        assert words == JOIN + (
            "A player who closes the tab or loses the connection keeps the seat for 5 minutes "
            "(the reconnect grace) and comes back to it from the same browser.")
        shot(eve, f"s64t2-join-grace-{size}")
        sit(eve, "Eve")  # (seated: the line is gone)
        assert eve.locator("#watching").is_hidden()
        # a grace that is no whole number of minutes is told in seconds
        tid, _ = new_table(server.url, game="holdem", seats=4, bots=1, grace_seconds=45)
        _, words = _join_line(browser, server, size, tid)
        assert "keeps the seat for 45 seconds (the reconnect grace)" in words
        # a tournament's entrants keep theirs to the end (once it starts)
        tid, _ = new_table(server.url, game="sdr", seats=4, bots=2, buy_in=10,
                           tournament="turbo", grace_seconds=90)
        page, words = _join_line(browser, server, size, tid)
        assert words == JOIN + (
            "A player who closes the tab or loses the connection keeps the seat for 90 seconds "
            "(the reconnect grace) and comes back to it from the same browser; a tournament "
            "entrant keeps theirs to the end.")
        shot(page, f"s64t2-join-grace-tournament-{size}")
    finally:
        server.stop()
