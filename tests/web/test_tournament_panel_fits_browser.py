"""The tournament panel at a final table (stop 56, branch s56-night; Debian's
Chromium through Playwright, 390x844 and 1440x900).  The finishing places were
listed one a line (and a deal's shares too): with five or more busted, a
laptop's felt ran under the dock, its bottom seats hidden until the column
was scrolled.  Now the places run on in a line and wrap: five or more take at
most three lines on a phone; on a laptop the panel sits in the side column
(s61-table), the oval clear of the dock whatever the panel's length."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from table_ui import (
    SHORT_TOURNAMENT,
    context,
    decision_kind,
    new_table,
    open_as_host,
    open_tournament_panel,
    shot,
    sit,
)
from web_harness import ServerThread

pytestmark = pytest.mark.browser



@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_places_of_a_final_table_take_two_lines(browser: Any, tmp_path: Path,
                                                     size: str) -> None:
    server = ServerThread(tmp_path / "places.db")
    try:
        tid, host = new_table(server.url, game="sdr", seats=8, bots=7, bot_level="random",
                              buy_in=10, tournament="custom",
                              tournament_schedule=SHORT_TOURNAMENT, between_hands=0.2,
                              bot_delay=0.0)
        ann = open_as_host(context(browser, size), server.url, tid, host)
        sit(ann, "Ann")
        ann.click("#start-btn")
        table = server.manager.tables[tid]
        end = time.monotonic() + 120
        while len(ann.locator(".tourney-places li").all()) < 5:
            assert time.monotonic() < end, "the computer players did not bust"
            assert not table.session.get("tournament", {}).get("over"), "over too soon"
            open_tournament_panel(ann)   # (a phone's is folded during play: s61-table2)
            if decision_kind(ann) is not None:  # (Ann folds or checks: she stays out)
                ann.evaluate("""() => { const c = document.querySelector('#controls');
                  const b = c && (c.querySelector('[data-action=check]')
                    || c.querySelector('[data-action=fold]')
                    || c.querySelector('[data-action=fold-confirm]')
                    || c.querySelector('button'));
                  if (b) b.click(); }""")
            ann.wait_for_timeout(50)
        # (measured in one go: the panel is drawn again at each state)
        m = ann.evaluate("""() => {
          const r = (n) => { const b = n.getBoundingClientRect();
            return {x: b.x, y: b.y, w: b.width, h: b.height}; };
          const list = document.querySelector('.tourney-places');
          const items = [...list.querySelectorAll('li')].map(r);
          return {list: r(list), items: items, texts: [...list.querySelectorAll('li')]
            .map((li) => li.textContent), width: innerWidth,
            felt: r(document.querySelector('#felt')), dock: r(document.querySelector('#dock')),
            panel: r(document.querySelector('#tourney'))};
        }""")
        tops = {round(i["y"]) for i in m["items"]}
        assert len(m["items"]) >= 5 and m["list"]["x"] + m["list"]["w"] <= m["width"]
        if size == "phone":   # five or more places: at most three lines on a phone
            assert len(tops) <= 3, (tops, m["texts"])
            assert m["list"]["h"] <= m["items"][0]["h"] * len(tops) + 4
        else:   # a laptop's panel is in the side column (s61-table): the oval clear of the dock
            assert m["felt"]["y"] + m["felt"]["h"] <= m["dock"]["y"] + 0.5, m
            assert m["list"]["x"] + m["list"]["w"] <= m["panel"]["x"] + m["panel"]["w"], m
        shot(ann, f"tourney-places-{size}")
    finally:
        server.stop()
