"""s64-table, in a real browser (Debian's Chromium through Playwright) at 390x844
and 1440x900: the front page's How it works says how long a closed tab keeps its
seat (the reconnect grace), and the words follow the host's More timing.
Screenshots test-artifacts/web/s64t-front-grace-WxH.png."""

from __future__ import annotations

from typing import Any

import pytest
from web_harness import ARTIFACTS, ServerThread

pytestmark = pytest.mark.browser



@pytest.mark.parametrize("size", [(390, 844), (1440, 900)])
def test_how_it_works_says_the_reconnect_grace(browser: Any, live: ServerThread,
                                               size: tuple[int, int]) -> None:
    width, height = size
    page = browser.new_page(viewport={"width": width, "height": height})
    try:
        page.goto(live.url + "/")
        step = page.locator(".help li").nth(2)
        assert step.inner_text() == (
            "Press Deal. A player who closes the tab or loses the connection keeps the seat "
            "for 2 minutes (the reconnect grace, under More timing) and comes back to it "
            "from the same browser; a tournament entrant keeps theirs to the end.")
        page.click("details summary:has-text('More timing')")
        page.fill("input[name=grace_seconds]", "300")
        assert page.inner_text("#grace-told") == "5 minutes"
        page.fill("input[name=grace_seconds]", "45")
        assert page.inner_text("#grace-told") == "45 seconds"
        page.fill("input[name=grace_seconds]", "60")
        assert page.inner_text("#grace-told") == "1 minute"
        step.scroll_into_view_if_needed()
        box = step.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        ARTIFACTS.joinpath("web").mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "web" / f"s64t-front-grace-{width}x{height}.png"))
    finally:
        page.close()
