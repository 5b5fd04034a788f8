"""The host's "Deal now" button (issue 34 item 6), in Debian's Chromium through
Playwright, on a phone (390x844) and a desktop (1440x900), one table for both (a
desktop page of the host's reads along): between hands (10
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


def test_the_host_deals_now_between_hands(browser: Any, live: ServerThread) -> None:
    """Ann's phone plays; a desktop page of hers (the phone's cookies: the same player
    and host) reads the same table, and deals the next hand (stop 74: one table for
    both sizes)."""
    ctx, desktop_ctx = viewport_context(browser, PHONE), viewport_context(browser, DESKTOP)
    try:
        _tid, _host, table, page = hosted_table(live, ctx, game="sdr", seats=2, bots=1,
                                               between_hands=600)
        desktop_ctx.add_cookies(ctx.cookies())
        desktop = desktop_ctx.new_page()
        desktop.goto(page.url)
        pages = {"phone": (page, PHONE), "desktop": (desktop, DESKTOP)}
        for p, _ in pages.values():
            p.wait_for_selector("#host-panel:not(.hidden)")
            # Not before the game starts, nor while a hand is in play.
            assert p.locator("#host-controls [data-host=deal_now]").count() == 0
        page.click("#start-btn")
        for p, _ in pages.values():
            p.wait_for_selector("#controls button")
            assert p.locator("#host-controls [data-host=deal_now]").count() == 0
        end = time.monotonic() + 60
        while table.hand is not None:  # Ann plays hand 1 out (check, else call)
            assert time.monotonic() < end, "hand 1 never ended"
            kind = decision_kind(page)
            if kind is not None:
                take_decision(page, kind)
            page.wait_for_timeout(100)
        for name, (p, viewport) in pages.items():
            p.wait_for_selector("#host-controls [data-host=deal_now]", state="attached",
                                timeout=30_000)
            assert table.hand is None and int(table.session["hand_no"]) == 1
            if not p.is_visible("#host-controls [data-host=deal_now]"):
                p.click("#host-box summary")  # (the host's box, folded away)
            box = p.locator("#host-controls [data-host=deal_now]").bounding_box()
            assert box is not None and box["x"] >= 0 \
                and box["x"] + box["width"] <= viewport["width"], name
            shot(p, f"deal-now-{name}")
            # The status says when the next hand comes, counting down (stop 53: "Hand 1
            # is over." alone for the whole pause); paused, that the host deals it at
            # resume.
            status = p.locator("#status")
            assert status.locator("span").first.inner_text() == "Hand 1 is over.", name
            said = status.locator(".next-deal").inner_text()
            assert re.fullmatch(r"Next hand in \d+ s", said), (name, said)
            left = int(said.split()[3])
            due = table.dealer.next_deal_at
            assert due is not None and 590 <= left <= 600 and left >= due - time.time() - 1
            p.wait_for_function(f"() => document.querySelector('#status .next-deal')"
                                f".textContent === 'Next hand in {left - 1} s'")
            p.locator("#felt").scroll_into_view_if_needed()
            shot(p, f"next-hand-in-{name}")
        page.click("#host-controls [data-host=pause]")
        for p, _ in pages.values():
            p.wait_for_function("() => document.querySelector('#status .next-deal')"
                                ".textContent === 'The next hand is dealt when the host "
                                "resumes.'")
        page.click("#host-controls [data-host=resume]")
        for p, _ in pages.values():
            p.wait_for_function("() => /^Next hand in \\d+ s$/.test(document.querySelector("
                                "'#status .next-deal').textContent)")
        desktop.click("#host-controls [data-host=deal_now]")
        for p, _ in pages.values():
            p.wait_for_selector("#host-controls [data-host=deal_now]", state="detached",
                                timeout=10_000)
        assert int(table.session["hand_no"]) == 2  # dealt at once, not after 600 s
    finally:
        ctx.close()
        desktop_ctx.close()
