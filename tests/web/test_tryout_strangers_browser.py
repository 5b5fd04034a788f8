"""A player gone from a private table finds their own hands on its locked page
(try-out of stop 42), in Chromium through Playwright at 390x844 and 1440x900."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from table_ui import context, shot
from test_seat_lifecycle import _ann_and_bob, _bob_plays_hand_1_and_leaves
from web_harness import Player, ServerThread, seat_cookie

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("name", ["phone", "desktop"])
def test_a_former_player_of_a_private_table_downloads_their_hands(
        browser: Any, live: ServerThread, name: str) -> None:
    """Bob played hand 1 and left; the table became private.  His page is the locked
    page (he may not see the table now), and it offers the download of his own
    hands, which holds hand 1 as he saw it; a stranger's locked page offers none."""
    tid, host, t0, s1, t1 = _ann_and_bob(live, seats=3)

    async def run() -> None:
        async with Player(live.ws_url, tid, t0, host) as a:
            await _bob_plays_hand_1_and_leaves(live, a, tid, s1, t1)
            await a.send({"type": "host", "op": "config", "config": {"private": True}})
            await a.until(lambda st: st["table"]["config"]["private"])

    with ThreadPoolExecutor(1) as pool:  # (Playwright's own loop runs in this thread)
        pool.submit(asyncio.run, run()).result(60)
    ctx = context(browser, name)
    stranger = context(browser, name)
    try:
        ctx.add_cookies([{"name": seat_cookie(tid), "value": t1, "url": live.url}])
        page = ctx.new_page()
        page.goto(f"{live.url}/t/{tid}")
        link = page.locator("#locked-own a")
        link.wait_for()
        assert link.inner_text() == "download your hand (.phhs)"
        assert page.is_visible("#locked-form")  # (he may still ask to come back)
        shot(page, f"locked-own-{name}")
        got = page.request.get(live.url + (link.get_attribute("href") or ""))
        assert got.status == 200 and "[1]" in got.text()
        other = stranger.new_page()
        with other.expect_response(lambda r: r.url.endswith(f"/{tid}/hands")) as asked:
            other.goto(f"{live.url}/t/{tid}")
        assert asked.value.status == 403
        other.wait_for_selector("#locked:not(.hidden)")
        assert other.locator("#locked-own").is_hidden()
    finally:
        ctx.close()
        stranger.close()
