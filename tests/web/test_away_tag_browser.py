"""One "away" on a tile (stop 56, branch s56-night; Debian's Chromium through
Playwright, 390x844 and 1440x900, one table for both).  A friend whose phone died at a tournament
night read on every page as two tags, "away" (the page is closed) above "away
(timed out)" (the clock acts for them); now the one tag "away (timed out)"."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from table_ui import context, new_table, open_as_host, shot, sit
from web_harness import ServerThread

pytestmark = pytest.mark.browser


def test_a_dead_phone_reads_one_away_tag(browser: Any, tmp_path: Path) -> None:
    """Ann's phone and a desktop page of hers (the phone's cookies) read Bob's tile:
    one table for both sizes (stop 74)."""
    server = ServerThread(tmp_path / "away.db")
    try:
        tid, host = new_table(server.url, game="sdr", seats=3, bots=1, bot_level="random",
                              tournament="turbo", grace_seconds=1.0, between_hands=0.3)
        ann = open_as_host(context(browser, "phone"), server.url, tid, host)
        sit(ann, "Ann")
        desktop_ctx = context(browser, "desktop")
        desktop_ctx.add_cookies(ann.context.cookies())
        desktop = desktop_ctx.new_page()
        desktop.goto(ann.url)
        desktop.locator(".me").first.wait_for()
        anns = {"phone": ann, "desktop": desktop}
        bob_ctx = context(browser, "phone")
        bob = bob_ctx.new_page()
        bob.goto(f"{server.url}/t/{tid}")
        sit(bob, "Bob")
        ann.click("#start-btn")
        table = server.manager.tables[tid]
        bob.close()  # the phone dies
        end = time.monotonic() + 60
        while 1 not in table.session.get("idle_away", []):
            assert time.monotonic() < end, "Bob was never marked away"
            ann.wait_for_timeout(100)
        for size, page in anns.items():
            tags = page.locator(".seat[data-seat='1'] .tag.away")
            page.wait_for_selector(".seat[data-seat='1'] .tag.away:text-is('away (timed out)')")
            assert tags.all_inner_texts() == ["away (timed out)"], size
            shot(page, f"away-tag-{size}")
        # back: I'm back clears it; his page open, no tag at all
        bob = bob_ctx.new_page()
        bob.goto(f"{server.url}/t/{tid}")
        bob.wait_for_selector(".me button.sit:has-text(\"I'm back\")")
        bob.click(".me button.sit")
        for page in anns.values():
            page.wait_for_function(
                "() => !document.querySelector(\".seat[data-seat='1'] .tag.away\")")
    finally:
        server.stop()
