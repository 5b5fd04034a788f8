"""The lobby and the table page load in Chromium with nothing wrong in the console:
no failed request (a missing favicon logged a 404 on every load), no script error,
nothing refused by the Content-Security-Policy; the icon is served as SVG."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from table_ui import PHONE, new_table, open_as_host, sit_with_enter
from web_harness import ServerThread

pytestmark = pytest.mark.browser


def _listen(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error"
            else None)
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    return errors


def test_the_icon_is_served_as_svg(live: ServerThread) -> None:
    for path in ("/static/favicon.svg", "/favicon.ico"):
        r = httpx.get(live.url + path)
        assert r.status_code == 200, path
        assert r.headers["content-type"].startswith("image/svg+xml"), path
        assert r.text.lstrip().startswith("<svg"), path


def test_the_pages_load_with_no_console_error(browser: Any, live: ServerThread) -> None:
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        lobby = ctx.new_page()
        errors = _listen(lobby)
        lobby.goto(live.url + "/")
        lobby.wait_for_load_state("networkidle")
        icon = lobby.evaluate("document.querySelector('link[rel=icon]').href")
        assert icon == live.url + "/static/favicon.svg"
        assert errors == [], errors
        tid, host_token = new_table(live.url, game="sdr", seats=2, bots=1)
        page = open_as_host(ctx, live.url, tid, host_token)
        errors = _listen(page)
        page.reload()  # listened to from the first request on
        sit_with_enter(page, "Ann")
        page.click("#start-btn")
        page.wait_for_selector("#controls [data-action]")
        page.wait_for_load_state("networkidle")
        assert errors == [], errors
    finally:
        ctx.close()
