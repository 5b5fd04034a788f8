"""The ledger's list of stacks the host set says how many earlier ones it no
longer lists (stop 58: the server keeps the newest 64), in Debian's Chromium
through Playwright at 390x844 and 1440x900.  Screenshots:
test-artifacts/web/adjustments-earlier-*.png."""

from __future__ import annotations

from typing import Any

import pytest
from table_ui import (
    DESKTOP,
    PHONE,
    hosted_table,
    shot,
    viewport_context,
    wait_until,
)
from web_harness import ServerThread

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_ledger_says_how_many_earlier_adjustments_it_leaves_out(
        browser: Any, live: ServerThread, viewport: dict[str, int]) -> None:
    name = "phone" if viewport is PHONE else "desktop"
    ctx = viewport_context(browser, viewport)
    try:
        _tid, _host, table, page = hosted_table(live, ctx, checking_bots=False, game="holdem",
                                               seats=3, bots=1)

        def seventy() -> None:  # (as 70 adjustments between hands leave it)
            table.session["adjustments"] = [
                {"seat": 0, "name": "Ann", "at": 1_796_000_000.0 + i, "after_hand": 0,
                 "by": 1 if i % 2 else -1, "stack": 1000 + i % 2} for i in range(6, 70)]
            table.session["adjustments_earlier"] = 6
            table.seq += 1
            table.session["seq"] = table.seq
            table.broadcast()

        live.call(seventy)
        head = "#adjustments .settle-head"
        wait_until(page, "(s) => !!document.querySelector(s)", head)
        assert page.text_content(head) == (
            "Stacks the host adjusted (the last 64; 6 earlier not listed):")
        assert page.locator("#adjustments li").count() == 64
        page.locator(head).scroll_into_view_if_needed()
        box = page.locator(head).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
        shot(page, f"adjustments-earlier-{name}")
    finally:
        ctx.close()
