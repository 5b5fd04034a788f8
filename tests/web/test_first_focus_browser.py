"""The table page's first focus (stop 52), in Debian's Chromium through
Playwright at 1440x900 and 390x844: opened by someone not seated, the page
focuses the name field of "Take a seat" (a private table's: its form's), so a
keyboard's player types a name and presses Enter with no Tab (before: nothing
had the focus, six Tabs to reach the field); seated, the host before the start
gets the Deal button.  Only with a mouse: on a touch
screen (the phone, touch) nothing is focused, so no keyboard opens unasked."""

from __future__ import annotations

from typing import Any

import pytest
from table_ui import context, new_table, open_as_host, shot
from web_harness import ServerThread

pytestmark = pytest.mark.browser

FOCUSED = ("() => document.activeElement ? document.activeElement.id"
           " || document.activeElement.tagName : null")


def test_a_desktop_page_focuses_the_name_field_and_enter_sits_down(
        browser: Any, live: ServerThread) -> None:
    tid, host = new_table(live.url, game="holdem", seats=3, bots=1)
    ctx = context(browser, "desktop")
    try:
        page = open_as_host(ctx, live.url, tid, host)
        page.wait_for_selector("#join:not(.hidden)")
        page.wait_for_function("() => document.activeElement.id === 'join-name'")
        assert page.evaluate(FOCUSED) == "join-name"  # (main: BODY)
        shot(page, "first-focus-desktop")
        page.keyboard.type("Ann")  # no Tab, no click
        page.keyboard.press("Enter")
        page.wait_for_selector(".me .name:has-text('Ann')")
        # seated, the host before the start: the Deal button next (also on a reload)
        assert page.locator("#join").is_hidden()
        page.wait_for_function("() => document.activeElement.id === 'start-btn'")
        shot(page, "first-focus-desktop-deal")
        page.reload()
        page.wait_for_selector(".me .name:has-text('Ann')")
        page.wait_for_function("() => document.activeElement.id === 'start-btn'")
        page.keyboard.press("Enter")  # deals
        page.wait_for_selector("#host.hidden", state="attached")
        # once started, a reload focuses nothing (the dock's keys are its own)
        page.reload()
        page.wait_for_selector(".me .name:has-text('Ann')")
        page.wait_for_function("() => document.body.dataset.seq !== undefined")
        assert page.evaluate(FOCUSED) == "BODY"
    finally:
        ctx.close()


def test_a_private_tables_locked_form_gets_the_focus_on_a_desktop(
        browser: Any, live: ServerThread) -> None:
    tid, _ = new_table(live.url, game="holdem", seats=3, bots=1, private=True)
    ctx = context(browser, "desktop")
    try:
        page = ctx.new_page()
        page.goto(f"{live.url}/t/{tid}")
        page.wait_for_selector("#locked:not(.hidden)")
        page.wait_for_function("() => document.activeElement.id === 'locked-name'")
        shot(page, "first-focus-locked-desktop")
    finally:
        ctx.close()


def test_a_phone_page_focuses_nothing(browser: Any, live: ServerThread) -> None:
    tid, host = new_table(live.url, game="holdem", seats=3, bots=1)
    ctx = context(browser, "phone")  # 390x844, touch: the pointer is coarse
    try:
        page = open_as_host(ctx, live.url, tid, host)
        page.wait_for_selector("#join:not(.hidden)")
        page.wait_for_function("() => document.body.dataset.seq !== undefined")
        assert page.evaluate("() => matchMedia('(pointer: coarse)').matches")
        assert page.evaluate(FOCUSED) == "BODY"
        shot(page, "first-focus-phone")
    finally:
        ctx.close()
