"""A tournament's scheduled break in a real browser (s59-breaks; Debian's
Chromium through Playwright, 390x844 and 1440x900): once level 1 (6 seconds)
ends, the hand in play finishes and no hand is dealt; the felt's status line
and the tournament panel say "Break: 9:58 left · next level 2: ..." and count
it down, the levels table shows the break, nothing runs past the page's
width, and the host's "Resume now" ends the break: hand 2 is dealt at level 2.

(s74-flaky: the break was 30 s, read at 20 to 30 s left and again after a fixed
2.1 s: a loaded machine that took 10 s between the two tables' breaks, or a
renderer starved of ticks, failed it; now 10 minutes, and the countdown waited
for.)"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from table_ui import (
    context,
    decision_kind,
    fits_width,
    level_clock_to,
    new_table,
    open_as_host,
    shot,
    sit,
    take_decision,
)
from test_tournament_server import SCHEDULE
from web_harness import ServerThread

pytestmark = pytest.mark.browser

BREAK = re.compile(r"^Break: (\d+:\d\d) left · next level 2: .*4/8$")


def _seconds(clock: str) -> int:
    """The seconds of a break's ``m:ss``."""
    m, s = clock.split(":")
    return int(m) * 60 + int(s)


def test_a_break_counts_down_on_the_felt_and_the_host_resumes_it(
        browser: Any, tmp_path: Path) -> None:
    """Both sizes at once, a table each on one server (stop 61: the page's 2.1 s of
    counting down waited once for both, one server started)."""
    server = ServerThread(tmp_path / "break.db")
    try:
        schedule = SCHEDULE.replace("stack = 60", "stack = 900").replace(
            "minutes = 1\n", "minutes = 0.1\nbreak = 10\n", 1)
        boards: list[tuple[str, Any, Any]] = []  # (size, Ann's page, table)
        for size in ("phone", "desktop"):
            tid, host = new_table(server.url, game="sdr", seats=2, bots=1, buy_in=10,
                                  tournament="custom", tournament_schedule=schedule,
                                  between_hands=0.3)
            ann = open_as_host(context(browser, size), server.url, tid, host)
            sit(ann, "Ann")
            ann.click("#start-btn")
            boards.append((size, ann, server.manager.tables[tid]))
        end = time.monotonic() + 60
        moved: set[str] = set()
        while any(table.tourney.break_left() is None for _s, _a, table in boards):
            assert time.monotonic() < end, "the break never began"
            for size, ann, table in boards:  # Ann plays until the break begins
                if table.tourney.break_left() is not None:
                    continue
                if table.hand is not None and size not in moved:
                    level_clock_to(server, table, 6.1)  # (level 1's 6 s not waited out: stop 60)
                    moved.add(size)
                kind = decision_kind(ann)
                if kind is not None:
                    take_decision(ann, kind)
            boards[0][1].wait_for_timeout(50)
        dealt: dict[str, int] = {}
        first: dict[str, int] = {}
        for size, ann, table in boards:
            dealt[size] = int(table.session["hand_no"])
            felt = ann.locator("#status .break-left")
            felt.wait_for(timeout=10_000)
            panel = ann.locator(".tourney-break .break-left")
            got = BREAK.match(felt.inner_text())
            assert got is not None, felt.inner_text()
            if size == "phone":   # said once, on the felt (s62-table2: twice)
                assert not panel.is_visible()
                assert ann.locator(".tourney-break button[data-host='end_break']").is_visible()
            else:   # (a wide screen's side column: the panel whole)
                assert BREAK.match(panel.inner_text()) is not None, panel.inner_text()
            first[size] = _seconds(got.group(1))
            assert 9 * 60 <= first[size] <= 10 * 60, got.group(1)
            assert ann.inner_text(".tourney-head").startswith("On a break after level 1 of ")
        for size, ann, table in boards:   # it counts down on the page, no message needed
            seq = table.seq
            ann.wait_for_function("""([first]) => {
              const m = /^Break: (\\d+):(\\d\\d) left/.exec(document
                .querySelector('#status .break-left').textContent);
              return m && Number(m[1]) * 60 + Number(m[2]) < first; }""", arg=[first[size]],
                                  timeout=30_000)
            felt = ann.locator("#status .break-left")
            later = BREAK.match(felt.inner_text())
            assert later is not None and _seconds(later.group(1)) < first[size]
            assert table.seq == seq  # (no state sent for it)
            assert ann.locator(".tourney-levels .break-row").count() == 1
            assert int(table.session["hand_no"]) == dealt[size]  # nothing dealt in the break
            fits_width(ann, "#status .break-left")
            fits_width(ann, ".tourney-break")
            shot(ann, f"tournament-break-{size}")
            felt.scroll_into_view_if_needed()
            shot(ann, f"tournament-break-felt-{size}")
        for size, ann, table in boards:
            ann.locator(".tourney-break button[data-host='end_break']").click()  # Resume now
            ann.wait_for_selector(".tourney-break", state="detached", timeout=10_000)
            while int(table.session["hand_no"]) == dealt[size]:
                assert time.monotonic() < end + 30, "no hand after Resume now"
                ann.wait_for_timeout(50)
            assert table.tourney.break_left() is None
            assert table.hand is not None and table.hand.setup["tournament"]["level"] == 2
            assert ann.locator("#status .break-left").count() == 0
    finally:
        server.stop()
