"""The hand list and the statistics are asked of the server only where the
player can see them (issue 26's try-out: every page fetched /hands and /stats
after each hand, so a household's pages behind one address went over the
server's limit on those requests, 429 in the console).  Debian's Chromium
through Playwright at 390x844 and 1440x900: with the hand-history box closed
and the ledger box closed, three hands ask for neither; opening each asks once
and shows the three hands."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from table_ui import DESKTOP, PHONE, decision_kind, shot, take_decision, wait_until
from test_felt_leftovers_browser import start
from web_harness import ServerThread

pytestmark = pytest.mark.browser

LIST = re.compile(r"/api/tables/[^/]+/hands$")
STATS = re.compile(r"/api/tables/[^/]+/stats$")


def hands_ended(page: Any) -> int:
    """The last hand the page's ledger counts ("after hand 3"), 0 before any."""
    text = page.evaluate("() => document.querySelector('#ledger caption').textContent")
    m = re.search(r"after hand (\d+)", text)
    return int(m.group(1)) if m else 0


def play_hands(page: Any, hands: int, seconds: float = 90) -> None:
    """Take the page's decisions until the ledger counts ``hands`` hands ended."""
    end = time.monotonic() + seconds
    while hands_ended(page) < hands:
        assert time.monotonic() < end, f"{hands} hands were not played"
        kind = decision_kind(page)
        if kind is not None:
            take_decision(page, kind)
        page.wait_for_timeout(50)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_hand_list_and_statistics_are_asked_for_only_when_shown(
        browser: Any, live: ServerThread, size: str) -> None:
    ctx = (browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
           if size == "phone" else browser.new_context(viewport=DESKTOP))
    page = ctx.new_page()
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url.split("?")[0]))
    start(page, live, "holdem", 3, between_hands=0.3)
    page.locator("#ledger-box").evaluate("(d) => { d.open = false; }")
    asked.clear()  # what the page asked before the boxes were closed does not count
    play_hands(page, 3)
    assert [u for u in asked if LIST.search(u) or STATS.search(u)] == []

    page.click("#history-box summary")
    wait_until(page, "() => document.querySelectorAll('#history [data-hand]').length >= 3")
    assert len([u for u in asked if LIST.search(u)]) == 1
    page.locator("#ledger-box").evaluate("(d) => { d.open = true; }")
    page.locator("#stats").evaluate("(e) => e.scrollIntoView({block: 'center'})")
    wait_until(page, "() => !!document.querySelector('#stats caption')")
    assert re.search(r"Statistics over [3-9] hands", page.inner_text("#stats caption"))
    assert len([u for u in asked if STATS.search(u)]) == 1
    shot(page, f"hand-lists-{size}")
    ctx.close()
