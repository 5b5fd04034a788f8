"""The host's "Deal now" button (issue 34 item 6), in Debian's Chromium through
Playwright, on a phone (390x844) and a desktop (1440x900): between hands (10
minutes' pause) only the host sees it; a click deals the next hand at once.
Screenshots: test-artifacts/web/deal-now-*.png.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from table_ui import (
    DESKTOP,
    PHONE,
    decision_kind,
    new_table,
    only_checking_bots,
    open_as_host,
    shot,
    sit,
    take_decision,
)
from web_harness import ServerThread

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_host_deals_now_between_hands(browser: Any, live: ServerThread,
                                          viewport: dict[str, int]) -> None:
    mobile = viewport is PHONE
    ctx = browser.new_context(viewport=viewport, is_mobile=mobile, has_touch=mobile)
    try:
        tid, host_token = new_table(live.url, game="sdr", seats=2, bots=1,
                                    between_hands=600)
        only_checking_bots(live, tid)
        page = open_as_host(ctx, live.url, tid, host_token)
        sit(page, "Ann")
        page.wait_for_selector("#host-panel:not(.hidden)")
        table = live.manager.get(tid)
        assert table is not None
        # Not before the game starts, nor while a hand is in play.
        assert page.locator("#host-controls [data-host=deal_now]").count() == 0
        page.click("#start-btn")
        page.wait_for_selector("#controls button")
        assert page.locator("#host-controls [data-host=deal_now]").count() == 0
        end = time.monotonic() + 60
        while table.hand is not None:  # Ann plays hand 1 out (check, else call)
            assert time.monotonic() < end, "hand 1 never ended"
            kind = decision_kind(page)
            if kind is not None:
                take_decision(page, kind)
            page.wait_for_timeout(100)
        page.wait_for_selector("#host-controls [data-host=deal_now]", state="attached",
                               timeout=30_000)
        assert table.hand is None and int(table.session["hand_no"]) == 1
        if not page.is_visible("#host-controls [data-host=deal_now]"):
            page.click("#host-box summary")  # (the host's box, folded away)
        button = page.locator("#host-controls [data-host=deal_now]")
        box = button.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
        shot(page, f"deal-now-{'phone' if mobile else 'desktop'}")
        button.click()
        page.wait_for_selector("#host-controls [data-host=deal_now]", state="detached",
                               timeout=10_000)
        assert int(table.session["hand_no"]) == 2  # dealt at once, not after 600 s
    finally:
        ctx.close()
