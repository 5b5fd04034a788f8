"""The player's "Top up" button (stop 58), in Debian's Chromium through
Playwright, on a phone (390x844) and a desktop (1440x900), one table for both (a
second page of each person at the other size reads along): between hands a
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


def _second_page(ctx: Any, page: Any) -> Any:
    """A page of ``ctx`` (another size) for the player of ``page`` (its cookies: the
    same player), the table drawn: one table read at both sizes (stop 74)."""
    ctx.add_cookies(page.context.cookies())
    other = ctx.new_page()
    other.goto(page.url)
    other.locator(".me").first.wait_for()
    return other


def test_a_player_tops_up_between_hands(browser: Any, live: ServerThread) -> None:
    """Ann's phone plays; a desktop page of hers reads the same table."""
    ctx, desktop_ctx = viewport_context(browser, PHONE), viewport_context(browser, DESKTOP)
    try:
        _tid, _host, table, page = hosted_table(live, ctx, game="holdem", seats=2, bots=1,
                                               stack=400, between_hands=600)
        desktop = _second_page(desktop_ctx, page)
        pages = {"phone": (page, PHONE), "desktop": (desktop, DESKTOP)}
        seat = next(n for n, s in table.seats.items() if s.row.bot is None)
        page.click("#start-btn")
        for p, _ in pages.values():
            p.wait_for_selector("#controls button")
            assert p.locator("[data-action=top-up]").count() == 0  # (in the hand)
        end = time.monotonic() + 60
        while live.call(lambda: table.hand is not None):  # Ann plays hand 1 out
            assert time.monotonic() < end, "hand 1 never ended"
            kind = decision_kind(page)
            if kind is not None:
                take_decision(page, kind)
            page.wait_for_timeout(100)
        live.call(lambda: host_tools.adjust_stack(table, seat, 250))
        brought = live.call(lambda: table.seats[seat].row.brought)
        for name, (p, viewport) in pages.items():
            # (after hand 1 Ann may already be offered a top-up of the blind she lost)
            button = p.locator(".me [data-action=top-up]:has-text('Top up +150')")
            button.wait_for(timeout=10_000)
            assert button.inner_text() == "Top up +150", name
            assert button.get_attribute("title") == (
                "Bring your stack up to the buy-in, 400 (the chips count as brought); "
                "between hands only"), name
            button.scroll_into_view_if_needed()
            box = button.bounding_box()
            assert box is not None and box["x"] >= 0 \
                and box["x"] + box["width"] <= viewport["width"], name
            shot(p, f"top-up-{name}")
        page.locator(".me [data-action=top-up]").click()
        for name, (p, _) in pages.items():
            p.locator(".me [data-action=top-up]").wait_for(state="detached", timeout=10_000)
            p.wait_for_selector(".me .chips:has-text('stack 400')")
            shot(p, f"top-up-done-{name}")
        assert live.call(lambda: (table.seats[seat].row.stack,
                                  table.seats[seat].row.brought)) == (400, brought + 150)
    finally:
        ctx.close()
        desktop_ctx.close()


def _host_box(page: Any) -> None:
    if not page.is_visible("#host-tools"):
        page.click("#host-box summary")
    page.wait_for_selector("#host-tools [data-host=password]")


def test_a_top_up_waits_for_the_hosts_approval(browser: Any, live: ServerThread) -> None:
    """The host Ann on a phone (a desktop page of hers reading along), her guest Wat on
    a desktop (a phone page of his reading along): one table read at both sizes."""
    contexts = [viewport_context(browser, size) for size in (PHONE, DESKTOP, DESKTOP, PHONE)]
    try:
        tid, _host, table, page = hosted_table(live, contexts[0], game="holdem", seats=3,
                                               bots=1, stack=400, between_hands=600,
                                               rebuy_approval=True)
        guest = contexts[2].new_page()
        guest.goto(f"{live.url}/t/{tid}")
        sit(guest, "Wat")
        hosts = {"phone": page, "desktop": _second_page(contexts[1], page)}
        guests = {"desktop": guest, "phone": _second_page(contexts[3], guest)}
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
        for g in guests.values():
            g.locator(".me [data-action=top-up]:has-text('Top up +150')").wait_for(
                timeout=10_000)
        guest.locator(".me [data-action=top-up]").click()
        guest.wait_for_selector("#notice :text(\"Your top-up waits for the host's approval.\")")
        for g in guests.values():
            g.locator(".me [data-action=top-up]").wait_for(state="detached", timeout=10_000)
        assert live.call(lambda: table.seats[wat].row.stack) == 250
        for name, p in hosts.items():
            _host_box(p)
            asked = p.locator(f"#host-tools li[data-rebuy='{wat}']")
            asked.wait_for()
            assert asked.locator("span").inner_text() == "Wat asks to top up to 400", name
            asked.scroll_into_view_if_needed()
            shot(p, f"top-up-asks-{name}")
        page.locator(f"#host-tools li[data-rebuy='{wat}'] [data-host=approve_rebuy]").click()
        for p in hosts.values():
            p.locator(f"#host-tools li[data-rebuy='{wat}']").wait_for(state="detached",
                                                                     timeout=10_000)
        for g in guests.values():
            g.wait_for_selector(".me .chips:has-text('stack 400')")
        assert live.call(lambda: table.seats[wat].row.stack) == 400
    finally:
        for ctx in contexts:
            ctx.close()
