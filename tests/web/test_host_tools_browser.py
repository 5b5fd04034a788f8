"""The host's tools on the page (issue 27), in Debian's Chromium through
Playwright, on a phone (390x844) and a desktop (1440x900): the host sets a
table password; a stranger sees only the private table's name, asks to watch
with the password and sees the table once the host lets them, and with the
watcher delay nothing of hand 1 until it ended; they sit down,
the host lets them in, sets their stack to 0 and approves their rebuy; the
ledger lists each adjustment; a seated player has their whole session's
download; axe-core finds no serious violation on the locked page and the host's
tools (where it is installed).  Screenshots: test-artifacts/web/hosttools-*.png."""

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
    take_decision,
    viewport_context,
    wait_until,
)
from test_a11y_browser import AXE, axe_problems
from web_harness import ServerThread

pytestmark = pytest.mark.browser


def _host_box(page: Any) -> None:
    if not page.is_visible("#host-tools"):
        page.click("#host-box summary")
    page.wait_for_selector("#host-tools [data-host=password]")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_private_table_password_watchers_stacks_and_rebuys(
        browser: Any, live: ServerThread, viewport: dict[str, int]) -> None:
    name = "phone" if viewport is PHONE else "desktop"
    # (bypass_csp: axe-core's script is added to the page, test_a11y_browser.py)
    opts = {"bypass_csp": True}
    axe = AXE.exists()
    problems: list[str] = []
    host_ctx, guest_ctx = (viewport_context(browser, viewport, **opts),
                          viewport_context(browser, viewport, **opts))
    try:
        tid, _host_token, table, page = hosted_table(live, host_ctx, game="holdem", seats=3,
                                                    bots=1, private=True, rebuy_approval=True)
        _host_box(page)
        page.fill("#host-password", "hunter22")
        page.click("#host-tools [data-host=password]")
        page.wait_for_selector("#host-tools [data-host=password]:has-text('Remove password')")
        assert live.call(lambda: bool(table.session.get("password")))
        # A stranger: the table's name only, and how to ask.
        guest = guest_ctx.new_page()
        guest.goto(f"{live.url}/t/{tid}")
        guest.wait_for_selector("#locked:not(.hidden) #locked-password-row:not(.hidden)")
        assert not guest.is_visible("#felt") and guest.locator("#seats .seat").count() == 0
        assert "Ann" not in guest.inner_text("body")
        guest.fill("#locked-name", "Wat")
        guest.fill("#locked-password", "wrong-one")
        guest.press("#locked-password", "Enter")  # Enter asks for a seat, as the docs say
        guest.wait_for_selector("#locked-error:has-text('wrong table password')")
        guest.fill("#locked-password", "hunter22")
        guest.click("#locked-watch")
        guest.wait_for_selector("#locked-text:has-text('once the host lets you watch')")
        shot(guest, f"hosttools-locked-{name}")
        if axe:
            problems += axe_problems(guest, f"{name} locked page")
        # The host lets them watch.
        page.click("#host-tools li[data-watcher='1'] [data-host=approve_watcher]")
        guest.wait_for_selector("#felt:visible")
        guest.wait_for_selector("#seats :text('Ann')")
        # Watchers one hand behind: during hand 1 the watcher sees none of it.
        page.click("#host-tools [data-host=watcher_delay]")
        wait_until(page, "() => document.querySelector('[data-host=watcher_delay]').checked")
        guest.wait_for_selector("#notice :text('watchers see each hand once it has ended')",
                                state="detached")
        page.click("#start-btn")
        guest.wait_for_selector("#notice :text('watchers see each hand once it has ended')")
        assert guest.locator("#center .card, #seats .card").count() == 0
        assert live.call(lambda: table.hand is not None and table.hand.hand_no == 1)
        end = time.monotonic() + 60
        while live.call(lambda: table.hand is not None):  # Ann plays it out (check, call)
            assert time.monotonic() < end, "hand 1 never ended"
            kind = decision_kind(page)
            if kind is not None:
                take_decision(page, kind)
            page.wait_for_timeout(100)
        guest.wait_for_selector("#result:not(.hidden)")  # hand 1, now that it ended
        guest.wait_for_selector("#notice :text('watchers see each hand')", state="detached")
        # They sit down (with the password); a private table's host lets them in.
        guest.fill("#join-name", "Wat")
        guest.fill("#join-password", "hunter22")
        guest.click("#join-btn")
        page.wait_for_selector("#host-controls li [data-host=approve]")
        page.click("#host-controls li [data-host=approve]")
        guest.wait_for_selector(".me .name:has-text('Wat')")
        # The host sets Wat's stack to 0; Wat's rebuy waits for the host.
        _host_box(page)
        wait_until(page, "() => document.querySelectorAll('#adjust-seat option').length === 3")
        page.select_option("#adjust-seat", "1")
        page.fill("#adjust-stack", "0")
        page.click("#host-tools [data-host=adjust_stack]")
        page.wait_for_selector("#adjustments :text('Wat -200 to 0 (after hand 1')")
        guest.click("[data-action=rebuy]")
        guest.wait_for_selector("#notice :text(\"Your rebuy waits for the host's approval.\")")
        page.click("#host-tools li[data-rebuy='1'] [data-host=approve_rebuy]")
        wait_until(page, "() => [...document.querySelectorAll('#ledger td')].some("
                   "(td) => td.textContent === 'Wat') && !document.querySelector("
                   "\"#host-tools li[data-rebuy]\")")
        rows = page.eval_on_selector_all("#ledger tr", "rs => rs.map(r => r.innerText)")
        assert any(r.split("\t")[:3] == ["Wat", "200", "200"] for r in rows), rows
        assert page.get_attribute("#settle a[href$='history.phhs']", "href") == \
            f"/api/tables/{tid}/history.phhs"
        shot(page, f"hosttools-host-{name}")
        if axe:
            problems += axe_problems(page, f"{name} host tools")
        assert not problems, "\n".join(problems)
    finally:
        host_ctx.close()
        guest_ctx.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_set_stack_follows_the_hand_while_the_host_is_in_the_player_list(
        browser: Any, live: ServerThread, viewport: dict[str, int]) -> None:
    """A hand starting while the host's focus is in the Set stack player list
    (a select): the panel was left as it was (not patched while the host is in
    one of its fields), so Set stack stayed enabled and a tap was refused
    ``in_hand``.  The button now follows the hand, the focus and the host's
    choice stay where they were."""
    name = "phone" if viewport is PHONE else "desktop"
    ctx = viewport_context(browser, viewport)
    try:
        _tid, _host, table, page = hosted_table(live, ctx, game="holdem", seats=3, bots=1)
        _host_box(page)
        wait_until(page, "() => document.querySelectorAll('#adjust-seat option').length === 2")
        values = page.eval_on_selector_all("#adjust-seat option", "os => os.map(o => o.value)")
        page.select_option("#adjust-seat", values[-1])  # (not the first: a reset would show)
        page.focus("#adjust-seat")
        adj = "#host-tools [data-host=adjust_stack]"
        assert page.is_enabled(adj) and live.call(lambda: table.hand is None)
        # the host deals (a click from the page's script: the focus stays in the list)
        page.evaluate("() => document.getElementById('start-btn').click()")
        wait_until(page, "(s) => document.querySelector(s).disabled", adj)
        assert live.call(lambda: table.hand is not None)
        assert page.evaluate("() => document.activeElement.id") == "adjust-seat"
        assert page.input_value("#adjust-seat") == values[-1]
        assert page.get_attribute(adj, "title") == "Between hands only"
        shot(page, f"hosttools-in-hand-{name}")
    finally:
        ctx.close()
