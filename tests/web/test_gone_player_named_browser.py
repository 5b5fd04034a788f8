"""A finished hand's seats keep their players' names after they have gone (try-out
of stop 47: a seat freed since read "seat 1" on the felt while the result named
Bob), in Chromium through Playwright at 390x844 and 1440x900."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from table_ui import context, open_as_host, shot
from test_seat_lifecycle import _ann_and_bob, _bob_plays_hand_1_and_leaves
from web_harness import Player, ServerThread, join

pytestmark = pytest.mark.browser

TILE_NAME = "s => { const t = document.querySelector(`#seats .seat[data-seat='${s}'] .name`);" \
            " return t && t.textContent; }"


@pytest.mark.parametrize("name", ["phone", "desktop"])
def test_a_gone_players_seat_keeps_their_name_on_the_finished_hand(
        browser: Any, live: ServerThread, name: str) -> None:
    """Bob played hand 1 and left, freeing his seat; the finished hand stays on the
    felt, and his tile there is still "Bob", not "seat 1" (the state says who was
    dealt in: ``hand.names``); when Eve sits in that seat before the next deal, the
    tile names her (the host sees who sat down; test_table_ui's replayer test)."""
    tid, host, t0, s1, t1 = _ann_and_bob(live, seats=3)

    async def run() -> None:
        async with Player(live.ws_url, tid, t0, host) as a:
            await _bob_plays_hand_1_and_leaves(live, a, tid, s1, t1)
            assert a.state["hand"]["names"][s1] == "Bob"
            assert a.state["table"]["seats"][s1]["free"]

    with ThreadPoolExecutor(1) as pool:  # (Playwright's own loop runs in this thread)
        pool.submit(asyncio.run, run()).result(60)
    ctx = context(browser, name)
    try:
        page = open_as_host(ctx, live.url, tid, host)
        page.wait_for_function(f"() => ({TILE_NAME})({s1}) === 'Bob'", timeout=20_000)
        shot(page, f"gone-player-named-{name}")
        seat, _token = join(live.url, tid, "Eve", seat=s1)
        assert seat == s1
        page.wait_for_function(f"() => ({TILE_NAME})({s1}) === 'Eve'", timeout=20_000)
        # (still the finished hand 1 on the felt: no new deal)
        assert page.evaluate("() => window.rollemState.state.hand.hand_no") == 1
    finally:
        ctx.close()
