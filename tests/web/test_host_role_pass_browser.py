"""The host role passes when the host is gone (stop 43), in Chromium through
Playwright at 390x844 and 1440x900: Ann, who made the private table, closes her
tab; a late friend knocks; once she has been gone ``HOST_AWAY_SECONDS`` Bob's
page says "Ann is away: Bob hosts now", shows him the host controls and he lets
the friend in; when Ann comes back the role is hers again, and Bob's page says so.
Bob on a phone and a desktop page of his at once: one table for both sizes."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from table_ui import context, record_toasts, shot, wait_toast_shown
from web_harness import Player, ServerThread, create_table, join, seat_cookie

from rollem.server.live_table import LiveTable

pytestmark = pytest.mark.browser


def test_the_next_player_hosts_once_the_host_is_gone_and_lets_a_late_friend_in(
        browser: Any, live: ServerThread, monkeypatch: Any) -> None:
    """Bob on a phone and on a desktop page (his seat's cookie in both): one table
    read at both sizes (stop 74); the desktop lets Dan in."""
    monkeypatch.setattr(LiveTable, "HOST_AWAY_SECONDS", 2.0, raising=False)
    tid, host = create_table(live.url, game="holdem", seats=4, bots=1, between_hands=600,
                             decision_seconds=300)
    (_s0, t0), (s1, t1) = join(live.url, tid, "Ann", 0), join(live.url, tid, "Bob", 1)
    leave = threading.Event()

    async def ann_until_her_phone_dies() -> None:
        async with Player(live.ws_url, tid, t0, host) as a:
            await a.until(lambda st: st["you"]["host"])
            await a.send({"type": "host", "op": "config", "config": {"private": True}})
            await a.until(lambda st: st["table"]["config"]["private"])
            while not leave.is_set():
                await asyncio.sleep(0.05)

    contexts = {name: context(browser, name) for name in ("phone", "desktop")}
    table = live.manager.get(tid)
    try:
        with ThreadPoolExecutor(1) as pool:  # (Playwright's own loop runs in this thread)
            ann = pool.submit(asyncio.run, ann_until_her_phone_dies())
            pages = {}
            for name, ctx in contexts.items():
                ctx.add_cookies([{"name": seat_cookie(tid), "value": t1, "url": live.url}])
                page = pages[name] = ctx.new_page()
                page.goto(f"{live.url}/t/{tid}")
                page.wait_for_selector(".me .name:has-text('Bob')")
                record_toasts(page)
                assert page.locator("#host-panel").is_hidden(), name
            leave.set()
            ann.result(30)
        dan, _ = join(live.url, tid, "Dan")  # a late friend knocks: he waits for the host
        assert dan in live.call(lambda: table.session.get("waiting"))
        approve = f"#host-controls li[data-seat='{dan}'] [data-host=approve]"
        for name, page in pages.items():
            wait_toast_shown(page, "Ann is away: Bob hosts now")
            assert live.call(lambda: table.table_public()["host_seat"]) == s1
            page.wait_for_selector("#host-panel:not(.hidden)")
            notice = page.locator("#chat-lines .chat-line.notice")
            # (the table's lines: Ann's change to a private table, then the role passing)
            assert notice.all_text_contents() == [
                "Ann changed the table from open to private.",
                "Ann is away: Bob hosts now"], name
            if not page.is_visible("#host-controls"):
                page.click("#host-box summary")
            page.wait_for_selector(approve)
            # A stand-in keeps the table going, not the host's settings, password or
            # seat (stop 44): a note says so in their place, and Ann's seat has no Remove.
            note = page.locator("#host-controls .stand-in-note")
            assert note.text_content() == (
                "You stand in for Ann: the table's settings and password stay theirs, and "
                "your own stack and rebuy wait for them."), name
            assert page.locator("#host-password").count() == 0, name
            assert page.locator("#host-controls form.host-config").count() == 0, name
            assert page.locator("#host-controls li[data-seat='0'] [data-host=remove]"
                                ).count() == 0, name
            assert page.locator(f"#adjust-seat option[value='{s1}']").count() == 0, name
            shot(page, f"host-role-passed-{name}")
        pages["desktop"].click(approve)
        for page in pages.values():
            page.wait_for_selector(approve, state="detached")
        assert live.call(lambda: table.session.get("waiting")) == []

        async def ann_is_back() -> None:
            async with Player(live.ws_url, tid, t0, host) as a:
                await a.until(lambda st: st["you"]["host"])
                await asyncio.sleep(0.5)

        for page in pages.values():
            record_toasts(page)
        with ThreadPoolExecutor(1) as pool:
            back = pool.submit(asyncio.run, ann_is_back())
            for page in pages.values():
                wait_toast_shown(page, "Ann is back and hosts again")
                page.wait_for_selector("#host-panel.hidden", state="attached")
            back.result(30)
        for name, page in pages.items():
            assert page.locator("#host-controls .stand-in-note").is_hidden(), name
        assert live.call(lambda: table.table_public()["host_seat"]) is None
    finally:
        for ctx in contexts.values():
            ctx.close()
