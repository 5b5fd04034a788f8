"""The player's "Top up" button (stop 58), in Debian's Chromium through
Playwright, on a phone (390x844) and a desktop (1440x900): between hands a
stack below the buy-in shows "Top up +N" (beside Sit out); a click brings the stack to
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
    hosted_table,
    shot,
    sit,
    take_decision,
    viewport_context,
)
from web_harness import ServerThread

from rollem.server import host_tools

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_player_tops_up_between_hands(browser: Any, live: ServerThread,
                                        viewport: dict[str, int]) -> None:
    ctx = viewport_context(browser, viewport)
    try:
        _tid, _host, table, page = hosted_table(live, ctx, game="holdem", seats=2, bots=1,
                                               stack=400, between_hands=600)
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
        # (after hand 1 Ann may already be offered a top-up of the blind she lost)
        button = page.locator(".me [data-action=top-up]:has-text('Top up +150')")
        button.wait_for(timeout=10_000)
        assert button.inner_text() == "Top up +150"
        assert button.get_attribute("title") == ("Bring your stack up to the buy-in, 400 (the "
                                                 "chips count as brought); between hands only")
        button.scroll_into_view_if_needed()
        box = button.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
        name = "phone" if viewport is PHONE else "desktop"
        shot(page, f"top-up-{name}")
        brought = live.call(lambda: table.seats[seat].row.brought)
        button.click()
        page.locator(".me [data-action=top-up]").wait_for(state="detached", timeout=10_000)
        assert live.call(lambda: (table.seats[seat].row.stack,
                                  table.seats[seat].row.brought)) == (400, brought + 150)
        page.wait_for_selector(".me .chips:has-text('stack 400')")
        shot(page, f"top-up-done-{name}")
    finally:
        ctx.close()


def _host_box(page: Any) -> None:
    if not page.is_visible("#host-tools"):
        page.click("#host-box summary")
    page.wait_for_selector("#host-tools [data-host=password]")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_top_up_waits_for_the_hosts_approval(browser: Any, live: ServerThread,
                                               viewport: dict[str, int]) -> None:
    name = "phone" if viewport is PHONE else "desktop"
    host_ctx, guest_ctx = viewport_context(browser, viewport), viewport_context(browser, viewport)
    try:
        tid, _host, table, page = hosted_table(live, host_ctx, game="holdem", seats=3, bots=1,
                                               stack=400, between_hands=600,
                                               rebuy_approval=True)
        guest = guest_ctx.new_page()
        guest.goto(f"{live.url}/t/{tid}")
        sit(guest, "Wat")
        wat = next(n for n, s in table.seats.items() if s.row.name == "Wat")
        page.click("#start-btn")
        end = time.monotonic() + 60
        while live.call(lambda: table.hand is None):
            assert time.monotonic() < end, "hand 1 never dealt"
            page.wait_for_timeout(50)
        while live.call(lambda: table.hand is not None):  # both play hand 1 out
            assert time.monotonic() < end, "hand 1 never ended"
            for p in (page, guest):
                kind = decision_kind(p)
                if kind is not None:
                    take_decision(p, kind)
            page.wait_for_timeout(100)
        live.call(lambda: host_tools.adjust_stack(table, wat, 250))
        button = guest.locator(".me [data-action=top-up]:has-text('Top up +150')")
        button.wait_for(timeout=10_000)
        button.click()
        guest.wait_for_selector("#notice :text(\"Your top-up waits for the host's approval.\")")
        guest.locator(".me [data-action=top-up]").wait_for(state="detached", timeout=10_000)
        assert live.call(lambda: table.seats[wat].row.stack) == 250
        _host_box(page)
        asked = page.locator(f"#host-tools li[data-rebuy='{wat}']")
        asked.wait_for()
        assert asked.locator("span").inner_text() == "Wat asks to top up to 400"
        asked.scroll_into_view_if_needed()
        shot(page, f"top-up-asks-{name}")
        asked.locator("[data-host=approve_rebuy]").click()
        asked.wait_for(state="detached", timeout=10_000)
        guest.wait_for_selector(".me .chips:has-text('stack 400')")
        assert live.call(lambda: table.seats[wat].row.stack) == 400
    finally:
        host_ctx.close()
        guest_ctx.close()
