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
from table_ui import shot, wait_until
from test_tournament_places_known_browser import _call, play_to_first_bust

pytestmark = pytest.mark.browser

TAG = ("(n) => [...document.querySelectorAll(`.seat[data-seat='${n}'] .tag`)]"
       ".map((t) => t.textContent)")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_tiles_say_who_is_out_and_where(browser: Any, tmp_path: Path, size: str,
                                           monkeypatch: Any) -> None:
    server, table, ann, end = play_to_first_bust(browser, tmp_path, size, monkeypatch, "tags")
    try:
        ann.locator("button[data-action=rebuy]").wait_for()
        # Bot 1 busted in Ann's hand: out, its place waits on her rebuy (main: no
        # tag but "all-in", as on a player still in the hand)
        ann.wait_for_selector(".seat[data-seat='1'] .tag.out")
        assert ann.evaluate(TAG, 1) == ["out"]
        assert ann.evaluate(TAG, 2) == []
        assert ann.locator("#me .tag.out").count() == 0  # (the dock's line says it)
        shot(ann, f"tourney-out-tags-{size}")
        busted_in = ann.evaluate("() => window.rollemState.state.hand.hand_no")
        ann.click("button[data-action=rebuy]")
        ann.wait_for_selector(".seat[data-seat='1'] .tag.out:text-is('out · 3rd')",
                              state="attached")
        # The next hand dealt without Bot 1: a phone's felt leaves its tile out, as
        # Poker Now empties the seat (s62-table2: it kept a third of a row); a wide
        # screen's oval keeps it in its place
        wait_until(ann, "(n) => { const h = window.rollemState.state.hand;"
                   " return !!h && h.hand_no > n && !h.result; }", busted_in)
        tile = ann.locator(".seat[data-seat='1']")
        assert tile.is_visible() == (size == "desktop")
        assert ann.locator(".seat[data-seat='2']").is_visible()
        assert ann.evaluate(TAG, 1) == ["out · 3rd"]
        shot(ann, f"tourney-out-tags-{size}-next-hand")
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
        if first != 0:  # (Ann's own standing is in her dock, not as a tag)
            ann.wait_for_selector(f".seat[data-seat='{first}'] .tag.out:text-is('1st · prize 26')")
        if places[2] == 2:
            ann.wait_for_selector(".seat[data-seat='2'] .tag.out:text-is('2nd · prize 14')")
        assert ann.evaluate(TAG, 1) == ["3rd"]
        shot(ann, f"tourney-out-tags-{size}-over")
    finally:
        server.stop()
