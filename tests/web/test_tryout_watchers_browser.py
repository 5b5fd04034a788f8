"""The host's list of watch requests under a flood (try-out of stop 41), in
Chromium through Playwright at 390x844 and 1440x900: the host sees how many
requests were refused and turns every waiting one away with one button."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from table_ui import context, new_table, open_as_host, shot, sit
from web_harness import ServerThread

from rollem.server import host_tools

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("name", ["phone", "desktop"])
def test_the_host_sees_refused_watch_requests_and_turns_all_away(
        browser: Any, live: ServerThread, name: str, monkeypatch: Any) -> None:
    monkeypatch.setattr(host_tools, "REFUSED_SHOWN_EVERY", 0.2, raising=False)
    ctx = context(browser, name)
    try:
        tid, host_token = new_table(live.url, game="sdr", seats=3, bots=1, private=True)
        page = open_as_host(ctx, live.url, tid, host_token)
        sit(page, "Ann")
        for i in range(5):  # one network: 3 wait, 2 are refused
            httpx.post(f"{live.url}/api/tables/{tid}/watch", json={"name": f"Spam {i}"},
                       headers={"X-Forwarded-For": f"203.0.113.{i + 1}"})
        if not page.is_visible("#host-tools"):
            page.click("#host-box summary")
        page.wait_for_selector("#host-tools :text('2 more asked to watch and were refused')")
        assert page.locator("#host-tools li[data-watcher]").count() == 3
        shot(page, f"hosttools-refused-{name}")
        page.click("#host-tools [data-host=reject_watcher]:has-text('Turn all away')")
        page.wait_for_selector("#host-tools li[data-watcher]", state="detached")
        assert not page.is_visible("#host-tools :text('were refused')")
        table = live.manager.get(tid)
        assert live.call(lambda: table.session.get("watch_requests")) == []
    finally:
        ctx.close()
