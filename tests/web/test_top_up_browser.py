"""The player's "Top up" button (stop 58), in Debian's Chromium through
Playwright, on a phone (390x844) and a desktop (1440x900): between hands a
stack below the buy-in shows "Top up +N to 400"; a click brings the stack to
the buy-in, counted as brought, and the button goes.  Not during a hand the
player is in.  Screenshots: test-artifacts/web/top-up-*.png.
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

from rollem.server import host_tools

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_player_tops_up_between_hands(browser: Any, live: ServerThread,
                                        viewport: dict[str, int]) -> None:
    mobile = viewport is PHONE
    ctx = browser.new_context(viewport=viewport, is_mobile=mobile, has_touch=mobile)
    try:
        tid, host_token = new_table(live.url, game="holdem", seats=2, bots=1, stack=400,
                                    between_hands=600)
        only_checking_bots(live, tid)
        page = open_as_host(ctx, live.url, tid, host_token)
        sit(page, "Ann")
        table = live.manager.get(tid)
        assert table is not None
        seat = next(n for n, s in table.seats.items() if s.row.bot is None)
        page.click("#start-btn")
        page.wait_for_selector("#controls button")
        assert page.locator("[data-action=top-up]").count() == 0  # (in the hand)
        end = time.monotonic() + 60
        while live.call(lambda: table.hand is not None):  # Ann plays hand 1 out
            assert time.monotonic() < end, "hand 1 never ended"
            kind = decision_kind(page)
            if kind is not None:
                take_decision(page, kind)
            page.wait_for_timeout(100)
        live.call(lambda: host_tools.adjust_stack(table, seat, 250))
        button = page.locator(".me [data-action=top-up]")
        button.wait_for(timeout=10_000)
        assert button.inner_text() == "Top up +150 to 400"
        button.scroll_into_view_if_needed()
        box = button.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
        name = "phone" if mobile else "desktop"
        shot(page, f"top-up-{name}")
        brought = live.call(lambda: table.seats[seat].row.brought)
        button.click()
        button.wait_for(state="detached", timeout=10_000)
        assert live.call(lambda: (table.seats[seat].row.stack,
                                  table.seats[seat].row.brought)) == (400, brought + 150)
        page.wait_for_selector(".me .chips:has-text('stack 400')")
        shot(page, f"top-up-done-{name}")
    finally:
        ctx.close()
