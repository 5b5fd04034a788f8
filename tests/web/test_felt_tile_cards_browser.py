"""The others' cards in their seat tiles (stop 57): on a 1440x900 laptop a stud
or Roll Your Own up card was some 17 px wide, under a felt mostly empty (what
is up is what a stud player reads); now a third larger there, and a tile of
seven shown cards still holds them.  At 390x844 they stay as they were (the
tiles are a grid of three).  Seven-card stud, seven seats, every computer
player checking it down: seven hands of seven cards shown at the end.
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


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_others_cards_are_readable_and_fit_their_tiles(
        browser: Any, live: ServerThread, size: str) -> None:
    ctx = (browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
           if size == "phone" else browser.new_context(viewport=DESKTOP))
    try:
        tid, host = new_table(live.url, game="stud", seats=7, bots=6)
        only_checking_bots(live, tid)
        page = open_as_host(ctx, live.url, tid, host)
        sit_with_enter(page, "Ann")
        page.click("#start-btn")
        play_to_the_result(page, live, tid)
        page.wait_for_timeout(400)
        tiles = page.evaluate(MEASURE)
        assert len(tiles) == 6, tiles
        assert max(t["n"] for t in tiles) == 7  # (shown at the end: seven cards)
        for t in tiles:
            # every card inside its tile
            assert t["first"] >= t["left"] - 0.5 and t["last"] <= t["right"] + 0.5, t
            if size == "desktop":
                assert t["width"] >= 21, t  # (main: 17.2 px)
            else:
                assert 14 <= t["width"] <= 16, t  # (as before on a phone)
        for i, a in enumerate(tiles):  # no two tiles overlap
            for b in tiles[i + 1:]:
                apart = (a["right"] <= b["left"] + 0.5 or b["right"] <= a["left"] + 0.5
                         or a["bottom"] <= b["top"] + 0.5 or b["bottom"] <= a["top"] + 0.5)
                assert apart, (a, b)
        shot(page, f"felt-tile-cards-{size}")
    finally:
        ctx.close()
