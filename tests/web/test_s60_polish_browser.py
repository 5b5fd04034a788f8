"""Stop 60 leftovers (s60-polish) in Debian's Chromium through Playwright, on a
phone (390x844) and a desktop (1440x900):

- a tournament's break: the panel's head ("On a break after level 1 of 3",
  s60-table: "· the games rotate by level" after it wrapped a phone's) on one
  line; the countdown ("Break: 0:21 left · next level 2: ante 2
  · fixed limit 4/8"), in the panel and on the felt's status line, wraps after
  the countdown, the next level whole on the next line (a phone's felt read
  "… · fixed limit / 4/8"), and on the desktop's oval the status line keeps
  clear of the rim below it;
- the settle-up with computer players: what they won, which the host collects
  (or lost, which the host pays), then the host's own net and the two together
  ("Ann's own play lost 25 chips (Ann's Net above); collecting the computer
  players' 47 chips, Ann ends 22 chips up, paid to Ann below": s62-table's words),
  so that "Cat pays Ann 22" beside "Ann -25" reads plainly.

Screenshots: test-artifacts/web/s60p-*.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from table_ui import (
    Pages,
    context,
    goto_as_host,
    level_clock_to,
    new_table,
    open_as_host,
    play_until,
    shot,
    sit,
    wait_until,
)
from test_tournament_server import SCHEDULE
from web_harness import ServerThread, create_table, join

pytestmark = pytest.mark.browser

TEXT_LINES = """sel => {
  const e = document.querySelector(sel);
  const walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
  const lines = new Map();
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    for (let i = 0; i < n.data.length; i++) {
      const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
      const box = [...r.getClientRects()].find(x => x.width > 0);
      if (!box) continue;
      const top = Math.round(box.top);
      lines.set(top, (lines.get(top) || "") + n.data[i]);
    }
  }
  return [...lines.entries()].sort((a, b) => a[0] - b[0]).map(x => x[1]);
}"""
"""An element's text, line by line as drawn (each character's box top)."""

RIM_GAP = """() => {
  const felt = document.querySelector('#felt'), cs = getComputedStyle(felt);
  const f = felt.getBoundingClientRect(), bw = parseFloat(cs.borderBottomWidth);
  const [rxs, rys] = cs.borderBottomLeftRadius.split(' ');
  const size = (v, whole) => v.endsWith('%') ? parseFloat(v) / 100 * whole : parseFloat(v);
  const rx = size(rxs, f.width) - bw, ry = size(rys || rxs, f.height) - bw;
  const left = f.left + bw, right = f.right - bw, bottom = f.bottom - bw;
  const r = document.createRange(); r.selectNodeContents(document.querySelector('#felt .status'));
  let gap = Infinity;
  for (const box of [...r.getClientRects()].filter(x => x.width > 0)) {
    for (const x of [box.left, box.right]) {
      let rim = bottom;   // (the flat stretch of the oval's bottom)
      const cx = x < left + rx ? left + rx : x > right - rx ? right - rx : null;
      if (cx !== null) rim = bottom - ry + ry * Math.sqrt(Math.max(0, 1 - ((x - cx) / rx) ** 2));
      gap = Math.min(gap, rim - box.bottom);
    }
  }
  return gap;
}"""
"""How far (px) the felt's status line's text stays above the oval's inner rim,
at the nearest of its lines' bottom corners (negative: past it)."""


def _lines(page: Any, where: str) -> list[str]:
    """The element's text as drawn, a line each (its spaces made one, ends trimmed)."""
    return [" ".join(line.split()) for line in page.evaluate(TEXT_LINES, where)]


def test_the_break_reads_on_a_line_and_its_countdown_wraps_between_phrases(
        browser: Any, tmp_path: Path) -> None:
    # Ann plays to the break once, on the phone; during the break (30 s) her page at
    # a desktop's size loads the table and is checked the same way (stop 60: a
    # server and a level played out a size before).
    server = ServerThread(tmp_path / "break.db")
    try:
        schedule = SCHEDULE.replace("stack = 60", "stack = 900").replace(
            "minutes = 1\n", "minutes = 0.1\nbreak = 0.5\n", 1)
        tid, host = new_table(server.url, game="dealers-choice", seats=2, bots=1, buy_in=10,
                              choices=["rollyourown", "sdr", "rollem521"], rotate="level",
                              tournament="custom", tournament_schedule=schedule,
                              between_hands=0.3)
        phone = context(browser, "phone")
        ann = open_as_host(phone, server.url, tid, host)
        sit(ann, "Ann")
        ann.click("#start-btn")
        table = server.manager.tables[tid]
        moved: list[bool] = []

        def at_the_break() -> bool:
            if table.hand is not None and not moved:  # (level 1's 6 s not waited out:
                level_clock_to(server, table, 6.1)    # stop 61, as the break's test)
                moved.append(True)
            return table.tourney.break_left() is not None

        play_until(ann, at_the_break, "the break", 90)
        desktop = context(browser, "desktop")
        desktop.clock.install()   # (moved on by _the_countdown; the time runs on as before)
        desktop.add_cookies(phone.cookies())  # (the same player, the host)
        for size, page in (("phone", ann), ("desktop", desktop.new_page())):
            if size == "desktop":
                page.goto(f"{server.url}/t/{tid}")
            _the_countdown(page, size)
            head = page.inner_text(".tourney-head")
            assert head.startswith("On a break after level 1 of 3"), head
            assert len(_lines(page, ".tourney-head")) == 1, head
            assert table.tourney.break_left() is not None   # (still the break)
    finally:
        server.stop()


def _the_countdown(page: Any, size: str) -> None:
    """The break's countdown in its panel and on the felt, at ``size``."""
    status = "#felt .status .break-left"
    page.locator(status).wait_for(timeout=10_000)
    # (a tick of the countdown redraws it: on the desktop page, which only reads, 1.2 s
    # of the page's clock, every timer due fired, then the clock stands still while
    # the countdown is read twice: the real clock ticked between the two reads now and
    # then, "0:28" then "0:27", at load 19; s73-suite.  The phone's page, which played
    # the hand, keeps the real time)
    if size == "desktop":
        page.clock.pause_at((page.evaluate("Date.now()") + 300) / 1000)
        page.clock.run_for(1200)
    else:
        page.wait_for_timeout(1200)
    # (a phone's folded panel leaves the countdown to the felt: s62-table2)
    for where in (".tourney-break .break-left", status) if size == "desktop" else (status,):
        text = page.inner_text(where)
        clock, next_level = text.split(" · ", 1)
        assert clock.startswith("Break: 0:") and clock.endswith(" left"), text
        assert next_level == "next level 2: ante 2 · fixed limit 4/8", text
        # a phone: the countdown, then the next level whole on a line of its own
        # (main, the felt's: "Break: 0:29 left · next level 2: ante 2 · fixed
        # limit", "4/8"); a desktop: one line
        # (on a desktop the panel is in the side column, s61-table: it wraps as a phone's)
        want = ([clock + " ·", next_level] if size == "phone" or where != status
                else [text])
        assert _lines(page, where) == want
    if size == "desktop":
        gap = page.evaluate(RIM_GAP)
        assert gap >= 6, gap   # (main: -5 px, the words on the rim)
        page.clock.resume()
    page.locator("#felt .status").scroll_into_view_if_needed()
    shot(page, f"s60p-break-{size}")


SETTLE = "() => document.getElementById('settle').innerText"


@pytest.mark.parametrize("name", ["phone", "desktop"])
def test_the_settle_up_says_the_hosts_own_net_and_the_computer_players_apart(
        pages: Pages, live: ServerThread, name: str) -> None:
    """Ann (host) lost 25, Cat 22, the computer players won 47: Ann collects their 47,
    so she is paid though down herself; the panel says why."""
    tid, host = create_table(live.url, game="sdr", seats=4, bots=2, bot_delay=0.02,
                             decision_seconds=300, between_hands=600, chip_value="0.25",
                             bot_level="random")
    table = live.manager.get(tid)
    with pages.open(name) as page:
        goto_as_host(page, live.url, tid, host)
        sit(page, "Ann")
        join(live.url, tid, "Cat")

        def night() -> None:
            by_name = {s.row.name: s for s in table.seats.values()}
            by_name["Ann"].row.stack -= 25
            by_name["Cat"].row.stack -= 22
            by_name["Bot 1 (random)"].row.stack += 40
            by_name["Bot 2 (random)"].row.stack += 7
            table.views.broadcast()

        live.call(night)
        page.locator("#ledger-box").evaluate("(d) => { d.open = true; }")
        wait_until(page, f"() => ({SETTLE})().includes('Cat pays Ann')")
        # (main: "Ann (host) covers the computer players: +47 chips (11.75)" alone)
        assert page.locator("#settle .settle-house").inner_text() == (
            "Ann (host) collects what the computer players won: 47 chips (11.75).")
        # (s62-table: each number says what it is; main: "Ann's own net is -25; with
        # the computer players' +47, Ann settles at +22." beside the ledger's -25)
        assert page.locator("#settle .settle-house-own").inner_text() == (
            "Ann's own play lost 25 chips (Ann's Net above); collecting the computer "
            "players' 47 chips, Ann ends 22 chips up, paid to Ann below.")
        assert page.locator("#settle li").all_inner_texts() == ["Cat pays Ann 22 chips (5.50)"]
        width = page.viewport_size["width"]
        for line in ("#settle .settle-house", "#settle .settle-house-own"):
            box = page.locator(line).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        page.locator("#settle").scroll_into_view_if_needed()
        shot(page, f"s60p-house-own-{name}")
