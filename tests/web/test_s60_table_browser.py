"""Stop 60 (s60-table) in Debian's Chromium through Playwright, on a phone
(390x844) and a desktop (1440x900):

- a player sitting out the host's last hand leaves (Leave, confirmed): watching,
  and their chips in the final nets (one table: the player's phone and a desktop
  page of theirs);
- a closed private table: a friend's page says so and offers only to ask to
  watch; the host lets them in from the settle-up panel, and they see it.

Screenshots: test-artifacts/web/s60-*.png. (The break panel's head on one line is
checked in test_s60_polish_browser.py, during the same break as its countdown.)
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from table_ui import (
    DESKTOP,
    PHONE,
    new_table,
    only_checking_bots,
    open_as_host,
    play_until,
    shot,
    sit,
    viewport_context,
)
from web_harness import ServerThread

pytestmark = pytest.mark.browser


def _close(ann: Any) -> None:
    """The host closes the table (Host controls, "Close the table…", confirmed)."""
    if not ann.is_visible("#host-controls"):
        ann.click("#host-box summary")
    ann.once("dialog", lambda d: d.accept())
    ann.click("#host-controls [data-host=close]")


def test_a_player_leaves_while_the_host_closes_the_table(
        browser: Any, live: ServerThread) -> None:
    """Bob on a phone and on a desktop page of his (the phone's cookies: the same
    player), one table read at both sizes (stop 74): the phone sits out, the desktop
    leaves."""
    ann_ctx, bob_ctx, bob_desktop_ctx = (viewport_context(browser, size)
                                         for size in (PHONE, PHONE, DESKTOP))
    try:
        tid, host_token = new_table(live.url, game="holdem", seats=4, bots=1, stack=400)
        only_checking_bots(live, tid)
        table = live.manager.get(tid)
        ann = open_as_host(ann_ctx, live.url, tid, host_token)
        sit(ann, "Ann")
        bob = bob_ctx.new_page()
        bob.goto(f"{live.url}/t/{tid}")
        sit(bob, "Bob")
        bob_desktop_ctx.add_cookies(bob_ctx.cookies())
        desktop = bob_desktop_ctx.new_page()
        desktop.goto(bob.url)
        bobs = {"phone": bob, "desktop": desktop}
        bob.click(".me [data-action=sit-out]")  # (Bob sits this hand out)
        for page in bobs.values():
            page.wait_for_selector(".me [data-action=sit-in]")
        ann.click("#start-btn")
        _close(ann)
        for page in bobs.values():
            page.wait_for_selector("#notice :text('Ann is closing the table: this hand is "
                                   "the last, then everyone settles up.')")
            page.locator(".me [data-action=leave]").wait_for()  # (main: no Leave once closing)
        desktop.locator(".me [data-action=leave]").click()
        assert desktop.locator(".me .confirm-leave").inner_text() == "Leave the table?"
        desktop.locator(".me .confirm-leave").click()
        for name, page in bobs.items():
            page.wait_for_selector("#watching:not(.hidden)")
            assert page.inner_text("#watching") == (
                "You are watching — the host is closing the table: this hand is the last."), name
        assert live.call(lambda: 1 not in table.seats and table.hand is not None)
        for name, page in bobs.items():
            shot(page, f"s60-left-closing-{name}")
        play_until(ann, lambda: live.call(lambda: table.hand is None), "the hand's end")
        for name, page in bobs.items():
            ended = page.locator("#ended:not(.hidden)")
            ended.wait_for()
            nets = ended.locator(".ended-nets li").all_inner_texts()
            assert "Bob 0" in nets and len(nets) == 2, (name, nets)  # (his chips: on the ledger)
            shot(page, f"s60-left-closed-{name}")
    finally:
        for ctx in (ann_ctx, bob_ctx, bob_desktop_ctx):
            ctx.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_friend_asks_to_see_a_closed_private_tables_settle_up(
        browser: Any, live: ServerThread, viewport: dict[str, int]) -> None:
    name = "phone" if viewport is PHONE else "desktop"
    ann_ctx, fay_ctx = (viewport_context(browser, viewport) for _ in range(2))
    try:
        tid, host_token = new_table(live.url, game="holdem", seats=3, bots=1, stack=400,
                                    private=True)
        only_checking_bots(live, tid)
        table = live.manager.get(tid)
        ann = open_as_host(ann_ctx, live.url, tid, host_token)
        sit(ann, "Ann")
        ann.click("#start-btn")
        end = time.monotonic() + 30
        while live.call(lambda: table.hand is None):
            assert time.monotonic() < end, "hand 1 never dealt"
            ann.wait_for_timeout(50)
        _close(ann)
        play_until(ann, lambda: live.call(lambda: table.hand is None), "the hand's end")
        ann.locator("#ended:not(.hidden)").wait_for()
        fay = fay_ctx.new_page()
        fay.goto(f"{live.url}/t/{tid}")
        fay.wait_for_selector("#locked:not(.hidden)")
        assert fay.inner_text("#locked-text") == (
            "The host closed this table: the night is over. Ask to watch to see the "
            "settle-up; the host lets you in.")
        assert fay.locator("#locked-join").is_hidden()   # (nobody sits down now)
        fay.fill("#locked-name", "Fay")
        fay.click("#locked-watch")
        fay.wait_for_selector("#locked-text:has-text('Asked: you see the table once the "
                              "host lets you watch.')")
        shot(fay, f"s60-closed-ask-{name}")
        ask = ann.locator("#ended .ended-asks li[data-watcher]")
        ask.wait_for()   # (main: the host's tools are gone, and refused "closed")
        ann.wait_for_selector("#notice :text('Fay asks to watch: answer under the "
                              "settle-up.')")
        # (the felt's waiting words are not said again: the notice's line says it)
        assert ann.locator("#notice .notice-line").count() == 2
        assert "The host closed the table" not in ann.inner_text("#notice")
        assert ask.locator("span").inner_text() == "Fay asks to watch"
        ask.scroll_into_view_if_needed()
        shot(ann, f"s60-closed-asks-{name}")
        ask.locator("[data-host=approve_watcher]").click()
        fay.wait_for_selector("#ended:not(.hidden)")
        assert fay.locator("#ended h2").inner_text() == "The night is over"
        ann.wait_for_selector("#ended .ended-asks", state="detached")
        assert live.call(lambda: table.session["watchers"][0]["name"]) == "Fay"
        shot(fay, f"s60-closed-watching-{name}")
    finally:
        ann_ctx.close()
        fay_ctx.close()
