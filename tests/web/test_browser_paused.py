"""In a real browser (Debian's Chromium through Playwright): when saving fails
the felt says, in plain words, that play is paused, and the notice goes away
by itself once saving works again (issue 19)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from web_harness import ARTIFACTS, ServerThread, create_table, join

from rollem.server.app import host_cookie, seat_cookie
from rollem.server.live_table import PAUSED_NOTICE, LiveTable

pytestmark = pytest.mark.browser


def test_the_felt_says_play_is_paused_while_saving_fails(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(LiveTable, "RETRY_FIRST", 0.1)
    monkeypatch.setattr(LiveTable, "RETRY_MAX", 0.5)
    server = ServerThread(tmp_path / "paused.db")
    try:
        tid, host = create_table(server.url, game="sdr", seats=2, bots=1, bot_delay=0.05,
                                 decision_seconds=300, between_hands=60)
        _seat, token = join(server.url, tid, "Ann")
        context = browser.new_context()
        context.add_cookies([
            {"name": seat_cookie(tid), "value": token, "url": server.url},
            {"name": host_cookie(tid), "value": host, "url": server.url},
        ])
        page = context.new_page()
        page.goto(f"{server.url}/t/{tid}")
        page.wait_for_selector("#start-btn", state="visible")
        store = server.manager.store
        failing = {"on": True}
        real_apply = store._apply

        def apply(cur: Any, statements: Any) -> None:
            if failing["on"]:
                raise sqlite3.OperationalError("database or disk is full")
            real_apply(cur, statements)

        store._apply = apply
        page.click("#start-btn")  # the write that starts the game fails
        page.wait_for_selector("#status .paused")
        assert page.inner_text("#status") == PAUSED_NOTICE
        assert page.locator("#controls button").count() == 0
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / "web").mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "web" / "paused.png"), full_page=True)
        failing["on"] = False
        # Back by itself: the notice goes, and the game was never started (the
        # host's Deal was not saved), so the host can deal again.
        page.wait_for_selector("#status .paused", state="detached", timeout=10_000)
        page.wait_for_selector("#start-btn", state="visible")
        page.click("#start-btn")
        page.wait_for_selector("#controls button", timeout=10_000)
        context.close()
    finally:
        server.stop()
