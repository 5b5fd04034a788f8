"""The others' cards in their seat tiles (stop 57): on a 1440x900 laptop a stud
or Roll Your Own up card was some 17 px wide, under a felt mostly empty (what
is up is what a stud player reads); now a third larger there, and a tile of
seven shown cards still holds them.  At 390x844 they stay as they were (the
tiles are a grid of three).  Seven-card stud, seven seats, every computer
player checking it down: seven hands of seven cards shown at the end.
One table for both sizes: Ann's phone plays, a desktop page of hers reads along.
Screenshots test-artifacts/web/felt-tile-cards-{phone,desktop}.png."""

from __future__ import annotations

from typing import Any

import pytest
from table_ui import (
    DESKTOP,
    PHONE,
    new_table,
    only_checking_bots,
    open_as_host,
    play_to_the_result,
    shot,
    sit_with_enter,
)
from web_harness import ServerThread

pytestmark = pytest.mark.browser

MEASURE = """() => [...document.querySelectorAll('#seats .seat')].filter(
    s => s.querySelector('.cards.mini')).map(s => {
  const t = s.getBoundingClientRect();
  const cards = [...s.querySelectorAll('.cards.mini .card')].map(c => c.getBoundingClientRect());
  return {seat: s.dataset.seat, left: t.left, right: t.right, top: t.top, bottom: t.bottom,
          n: cards.length, width: Math.min(...cards.map(c => c.width)),
          last: Math.max(...cards.map(c => c.right)), first: Math.min(...cards.map(c => c.left))};
})"""


def test_the_others_cards_are_readable_and_fit_their_tiles(
        browser: Any, live: ServerThread) -> None:
    """Ann's phone plays the hand; a desktop page of hers (the phone's cookies) reads
    the same result: one table for both sizes (stop 74)."""
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    desktop_ctx = browser.new_context(viewport=DESKTOP)
    try:
        tid, host = new_table(live.url, game="stud", seats=7, bots=6)
        only_checking_bots(live, tid)
        page = open_as_host(ctx, live.url, tid, host)
        sit_with_enter(page, "Ann")
        desktop_ctx.add_cookies(ctx.cookies())
        desktop = desktop_ctx.new_page()
        desktop.goto(page.url)
        desktop.locator(".me").first.wait_for()
        page.click("#start-btn")
        play_to_the_result(page, live, tid)
        for size, p in (("phone", page), ("desktop", desktop)):
            p.wait_for_selector("#result:not(.hidden)")
            p.wait_for_timeout(400)
            tiles = p.evaluate(MEASURE)
            assert len(tiles) == 6, (size, tiles)
            assert max(t["n"] for t in tiles) == 7, size  # (shown at the end: seven cards)
            for t in tiles:
                # every card inside its tile
                assert t["first"] >= t["left"] - 0.5 and t["last"] <= t["right"] + 0.5, (size, t)
                if size == "desktop":
                    assert t["width"] >= 21, t  # (main: 17.2 px)
                else:
                    assert 14 <= t["width"] <= 16, t  # (as before on a phone)
            for i, a in enumerate(tiles):  # no two tiles overlap
                for b in tiles[i + 1:]:
                    apart = (a["right"] <= b["left"] + 0.5 or b["right"] <= a["left"] + 0.5
                             or a["bottom"] <= b["top"] + 0.5 or b["bottom"] <= a["top"] + 0.5)
                    assert apart, (size, a, b)
            shot(p, f"felt-tile-cards-{size}")
    finally:
        ctx.close()
        desktop_ctx.close()
