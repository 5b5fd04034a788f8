"""The host's "Deal now" button (issue 34 item 6), in Debian's Chromium through
Playwright, on a phone (390x844) and a desktop (1440x900): between hands (10
minutes' pause) only the host sees it; a click deals the next hand at once.
Meanwhile the status counts the pause down, "Next hand in 599 s" (stop 53), and
while the host pauses says the host deals it at resume.
Screenshots: test-artifacts/web/deal-now-*.png, next-hand-in-*.png.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from table_ui import (
    DESKTOP,
    PHONE,
    decision_kind,
    hosted_table,
    shot,
    take_decision,
    viewport_context,
)
from web_harness import ServerThread

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_host_deals_now_between_hands(browser: Any, live: ServerThread,
                                          viewport: dict[str, int]) -> None:
    mobile = viewport is PHONE
    ctx = viewport_context(browser, viewport)
    try:
        _tid, _host, table, page = hosted_table(live, ctx, game="sdr", seats=2, bots=1,
                                               between_hands=600)
        page.wait_for_selector("#host-panel:not(.hidden)")
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
        # The status says when the next hand comes, counting down (stop 53: "Hand 1 is
        # over." alone for the whole pause); paused, that the host deals it at resume.
        status = page.locator("#status")
        assert status.locator("span").first.inner_text() == "Hand 1 is over."
        said = status.locator(".next-deal").inner_text()
        assert re.fullmatch(r"Next hand in \d+ s", said), said
        left = int(said.split()[3])
        due = table.dealer.next_deal_at
        assert due is not None and 590 <= left <= 600 and left >= due - time.time() - 1
        page.wait_for_function(f"() => document.querySelector('#status .next-deal')"
                               f".textContent === 'Next hand in {left - 1} s'")
        page.locator("#felt").scroll_into_view_if_needed()
        shot(page, f"next-hand-in-{'phone' if mobile else 'desktop'}")
        page.click("#host-controls [data-host=pause]")
        page.wait_for_function("() => document.querySelector('#status .next-deal')"
                               ".textContent === 'The next hand is dealt when the host "
                               "resumes.'")
        page.click("#host-controls [data-host=resume]")
        page.wait_for_function("() => /^Next hand in \\d+ s$/.test(document.querySelector("
                               "'#status .next-deal').textContent)")
        button.click()
        page.wait_for_selector("#host-controls [data-host=deal_now]", state="detached",
                               timeout=10_000)
        assert int(table.session["hand_no"]) == 2  # dealt at once, not after 600 s
    finally:
        ctx.close()
