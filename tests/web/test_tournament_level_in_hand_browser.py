"""A level that rises during a hand (stop 56, branch s56-night; Debian's Chromium
through Playwright, 390x844 and 1440x900).  The hand in play keeps the stakes
it was dealt at and the new level's start with the next hand (as the docs
say), but the panel above the felt jumped to "Level 2 of 3 · ante 2 · bets
4/8" while the hand went on at 2/4: a friend facing "Raise to 4" read the
wrong stakes.  Now the hand's view says its level (``hand.level``), the panel
says so while such a hand is played, and the header line says the hand's
stakes (``tournament.hand_stakes``) until the next hand."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from table_ui import (
    context,
    decision_kind,
    level_clock_to,
    new_table,
    only_checking_bots,
    open_as_host,
    shot,
    sit,
    take_decision,
)
from test_tournament_server import SCHEDULE
from web_harness import ServerThread

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_panel_says_the_hand_in_play_keeps_its_levels_stakes(browser: Any, tmp_path: Path,
                                                                  size: str) -> None:
    server = ServerThread(tmp_path / "level.db")
    try:
        # level 1 lasts 6 seconds: it ends while Ann thinks over her first decision
        schedule = SCHEDULE.replace("stack = 60", "stack = 900").replace(
            "minutes = 1", "minutes = 0.1", 1)
        tid, host = new_table(server.url, game="sdr", seats=2, bots=1, buy_in=10,
                              tournament="custom", tournament_schedule=schedule,
                              between_hands=0.3)
        # a computer player that never folds: the random one could fold to Ann's
        # check and end the hand before the panel is read (stop 69)
        only_checking_bots(server, tid)
        ann = open_as_host(context(browser, size), server.url, tid, host)
        sit(ann, "Ann")
        ann.click("#start-btn")
        end = time.monotonic() + 30
        while decision_kind(ann) is None:
            assert time.monotonic() < end, "Ann's first decision never came"
            ann.wait_for_timeout(50)
        table = server.manager.tables[tid]
        assert table.hand is not None and table.hand.setup["tournament"]["level"] == 1
        # level 1's clock runs out while she thinks; her check or call (the hand goes
        # on) brings the next state, at level 2
        level_clock_to(server, table, 6.1)  # (its 6 s not waited out: stop 60)
        while table.tourney.public()["level"] < 2:  # type: ignore[index]
            assert time.monotonic() < end, "level 2 never came"
            ann.wait_for_timeout(100)
        take_decision(ann, decision_kind(ann) or "bet")
        ann.wait_for_selector(".tourney-head:has-text('Level 2 of 3')", timeout=10_000)
        line = ann.locator(".tourney-now")
        line.wait_for(timeout=5_000)
        assert line.inner_text() == ("This hand is still played at level 1's stakes; "
                                     "level 2's start with the next hand.")
        assert table.hand is not None and table.hand.hand_no == 1
        # the header says the stakes the hand is played at, not the new level's
        header = ann.inner_text("#table-name").replace("\u00a0", " ")
        assert header.endswith("ante 1, fixed limit 2/4"), header
        box = line.bounding_box()
        assert box is not None and box["x"] + box["width"] <= ann.viewport_size["width"]
        shot(ann, f"level-in-hand-{size}")
        # the hand ends; hand 2 is dealt at level 2: the line goes
        while int(table.session["hand_no"]) < 2 or table.hand is None:
            assert time.monotonic() < end + 60, "hand 2 was never dealt"
            kind = decision_kind(ann)
            if kind is not None:
                take_decision(ann, kind)
            ann.wait_for_timeout(50)
        assert table.hand.setup["tournament"]["level"] == 2
        ann.wait_for_function("() => document.querySelector('#status') && "
                              "/hand 2/.test(document.querySelector('#status').textContent)")
        assert ann.locator(".tourney-now").count() == 0
        ann.wait_for_selector("#table-name:has-text('ante 2, fixed limit 4/8')")
        assert re.search(r"Level 2 of 3", ann.inner_text(".tourney-head"))
    finally:
        server.stop()
