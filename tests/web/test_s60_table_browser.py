"""Stop 60 (s60-table) in Debian's Chromium through Playwright, on a phone
(390x844) and a desktop (1440x900):

- a tournament's break: the panel's head ("On a break after level 1 of 3 · the
  games rotate by level") stays on one line on a phone;

Screenshots: test-artifacts/web/s60-*.png.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from table_ui import context, decision_kind, new_table, open_as_host, shot, sit, take_decision
from test_tournament_server import SCHEDULE
from web_harness import ServerThread

pytestmark = pytest.mark.browser

LINES = """sel => {
  const e = document.querySelector(sel);
  const r = document.createRange(); r.selectNodeContents(e);
  return new Set([...r.getClientRects()].filter(x => x.width > 0)
                 .map(x => Math.round(x.top))).size;
}"""
"""How many lines an element's text takes (its text boxes' distinct tops)."""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_break_panels_head_is_one_line(browser: Any, tmp_path: Path, size: str) -> None:
    server = ServerThread(tmp_path / "break.db")
    try:
        schedule = SCHEDULE.replace("stack = 60", "stack = 900").replace(
            "minutes = 1\n", "minutes = 0.1\nbreak = 0.5\n", 1)
        tid, host = new_table(server.url, game="dealers-choice", seats=2, bots=1, buy_in=10,
                              choices=["rollyourown", "sdr", "rollem521"], rotate="level",
                              tournament="custom", tournament_schedule=schedule,
                              between_hands=0.3)
        ann = open_as_host(context(browser, size), server.url, tid, host)
        sit(ann, "Ann")
        ann.click("#start-btn")
        table = server.manager.tables[tid]
        end = time.monotonic() + 90
        while table.tourney.break_left() is None:  # Ann plays until the break begins
            assert time.monotonic() < end, "the break never began"
            kind = decision_kind(ann)
            if kind is not None:
                take_decision(ann, kind)
            ann.wait_for_timeout(50)
        ann.locator(".tourney-break .break-left").wait_for(timeout=10_000)
        head = ann.inner_text(".tourney-head")
        assert head.startswith("On a break after level 1 of 3"), head
        shot(ann, f"s60-break-{size}")
        assert ann.evaluate(LINES, ".tourney-head") == 1, head
    finally:
        server.stop()
