"""Who is out, and in what place, on the felt itself (stop 59, branch s59-night;
Debian's Chromium through Playwright, 390x844 and 1440x900).  At a tournament
night a busted friend's tile read "0" (after the hand "all-in" too), like a
player all-in in the hand; the places were only in the panel above the felt,
a scroll away on a phone.  Now an entrant out of the tournament has a tag on
its tile: "out" while a rebuy may still move its place, "out · 3rd" once
placed, and at the end every entrant's place and prize ("1st · prize 26").
From the next hand dealt without them a phone's felt leaves an entrant out for good
out (s62-table2), the wide screen's oval keeps its tile."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from table_ui import context, shot, wait_until
from test_tournament_places_known_browser import _call, play_to_first_bust

pytestmark = pytest.mark.browser

TAG = ("(n) => [...document.querySelectorAll(`.seat[data-seat='${n}'] .tag`)]"
       ".map((t) => t.textContent)")


def test_the_tiles_say_who_is_out_and_where(browser: Any, tmp_path: Path,
                                           monkeypatch: Any) -> None:
    """Both sizes at one tournament: Ann plays on her phone page; her desktop page
    (the same host and player) is checked the same way at each step (s62-suite2: a
    tournament a size before)."""
    server, table, ann, end = play_to_first_bust(browser, tmp_path, "phone", monkeypatch,
                                                 "tags")
    desk_ctx = context(browser, "desktop")
    try:
        desk_ctx.add_cookies(ann.context.cookies())   # (the same host and player)
        desk = desk_ctx.new_page()
        desk.goto(ann.url)
        pages = ((ann, "phone"), (desk, "desktop"))
        ann.locator("button[data-action=rebuy]").wait_for()
        for page, size in pages:
            page.locator("button[data-action=rebuy]").wait_for()
            # Bot 1 busted in Ann's hand: out, its place waits on her rebuy (main: no
            # tag but "all-in", as on a player still in the hand)
            page.wait_for_selector(".seat[data-seat='1'] .tag.out")
            assert page.evaluate(TAG, 1) == ["out"], size
            assert page.evaluate(TAG, 2) == [], size
            assert page.locator("#me .tag.out").count() == 0, size  # (the dock's line says it)
            shot(page, f"tourney-out-tags-{size}")
        busted_in = ann.evaluate("() => window.rollemState.state.hand.hand_no")
        ann.click("button[data-action=rebuy]")
        for page, size in pages:
            page.wait_for_selector(".seat[data-seat='1'] .tag.out:text-is('out · 3rd')",
                                   state="attached")
            # The next hand dealt without Bot 1: a phone's felt leaves its tile out, as
            # Poker Now empties the seat (s62-table2: it kept a third of a row); a wide
            # screen's oval keeps it in its place
            wait_until(page, "(n) => { const h = window.rollemState.state.hand;"
                       " return !!h && h.hand_no > n && !h.result; }", busted_in)
            tile = page.locator(".seat[data-seat='1']")
            assert tile.is_visible() == (size == "desktop")
            assert page.locator(".seat[data-seat='2']").is_visible(), size
            assert page.evaluate(TAG, 1) == ["out · 3rd"], size
            shot(page, f"tourney-out-tags-{size}-next-hand")
        state = table.session["tournament"]
        while not state["over"]:
            assert time.monotonic() < end, "the tournament did not end"
            _call(ann)
            ann.evaluate("""() => { const b = document.querySelector(
              'button[data-action=rebuy-decline]'); if (b) b.click(); }""")
            ann.wait_for_timeout(50)
        places = {int(s): p for s, p in server.call(table.tourney.public)["places"].items()}
        assert places[1] == 3 and sorted(places.values()) == [1, 2, 3]
        first = next(s for s, p in places.items() if p == 1)
        for page, size in pages:
            if first != 0:  # (Ann's own standing is in her dock, not as a tag)
                page.wait_for_selector(
                    f".seat[data-seat='{first}'] .tag.out:text-is('1st · prize 26')")
            if places[2] == 2:
                page.wait_for_selector(".seat[data-seat='2'] .tag.out:text-is('2nd · prize 14')")
            assert page.evaluate(TAG, 1) == ["3rd"], size
            shot(page, f"tourney-out-tags-{size}-over")
    finally:
        desk_ctx.close()
        server.stop()
