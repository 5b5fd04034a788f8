"""Stop 61 (s61-table) in Debian's Chromium through Playwright, on a phone
(390x844), a desktop (1440x900) and a smaller laptop (1366x768):

- a rebuy tournament with an add-on, at play and at its break: on a wide screen
  the invite bar and the tournament panel sit at the top of the side column, so
  the oval keeps clear of the dock, its bottom rim in view without scrolling (main:
  at 1440x900 at the break the rim was 93 px under the dock's top, 1366x768 225);
  the panel still says all it said (its level clock, the break's countdown, the
  add-on's offer, the prize pool, the levels).  A phone keeps them above the felt.

Screenshots: test-artifacts/web/s61-*.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from table_ui import (
    context,
    fits_width,
    level_clock_to,
    new_table,
    open_as_host,
    play_until,
    record_toasts,
    shot,
    sit,
)
from test_tournament_server import SCHEDULE
from web_harness import ServerThread

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}

FIT = """() => {
  const box = (s) => document.querySelector(s).getBoundingClientRect();
  const felt = box('#felt'), dock = box('#dock'), scroll = document.querySelector('#scroll');
  const panel = document.querySelector('#tourney');
  return {feltBottom: felt.bottom, feltTop: felt.top, dockTop: dock.top,
          scrolls: scroll.scrollHeight - scroll.clientHeight,
          panelIn: panel.parentElement.className, panelHeight: panel.offsetHeight,
          inviteIn: document.querySelector('#invite').parentElement.className};
}"""
"""Where the felt ends against the dock (px), how far the middle scrolls, and which
column holds the tournament panel and the invite bar."""

TILES = """() => {
  const tiles = [...document.querySelectorAll('#seats .seat')];
  return {n: tiles.length, dockTop: document.querySelector('#dock').getBoundingClientRect().top,
          lowest: Math.max(...tiles.map((t) => t.getBoundingClientRect().bottom))};
}"""
"""The other seats' tiles on the felt: how many, and where the lowest ends against
the dock's top (px, without scrolling)."""


def _the_felt_fits(page: Any, size: str, when: str) -> dict[str, Any]:
    m: dict[str, Any] = page.evaluate(FIT)
    if size == "phone":   # (a phone's one column scrolls: the panels above the felt)
        assert m["panelIn"] == "main-col" and m["inviteIn"] == "main-col", (when, m)
    else:
        assert m["feltBottom"] <= m["dockTop"] + 0.5, (size, when, m)
        assert m["scrolls"] <= 0, (size, when, m)
        assert m["panelIn"] == "side-col" and m["inviteIn"] == "side-col", (when, m)
    fits_width(page, "#tourney")
    assert page.locator("#tourney").is_visible()
    return m


def test_a_tournaments_panels_leave_the_felt_clear_of_the_dock(
        browser: Any, tmp_path: Path) -> None:
    server = ServerThread(tmp_path / "fit.db")
    contexts: list[Any] = []
    try:
        schedule = SCHEDULE.replace("stack = 60", "stack = 900").replace(
            "minutes = 1\n", "minutes = 0.1\nbreak = 0.5\n", 1)
        tid, host = new_table(server.url, game="sdr", seats=6, bots=5, buy_in=10,
                              tournament="custom", tournament_schedule=schedule,
                              rebuy_levels=1, addon_chips=500, addon_price=5,
                              between_hands=0.3)
        phone = context(browser, "phone")
        contexts.append(phone)
        ann = open_as_host(phone, server.url, tid, host)
        sit(ann, "Ann")
        pages = {"phone": ann}
        for size in ("desktop", "laptop"):   # (the same player: the host, seated)
            ctx = (context(browser, "desktop") if size == "desktop"
                   else browser.new_context(viewport=LAPTOP))
            contexts.append(ctx)
            ctx.add_cookies(phone.cookies())
            pages[size] = ctx.new_page()
            pages[size].goto(f"{server.url}/t/{tid}")
            pages[size].wait_for_selector(".me .name:has-text('Ann')")
        ann.click("#start-btn")
        table = server.manager.tables[tid]
        play_until(ann, lambda: server.call(lambda: table.hand is not None), "the deal")
        for size, page in pages.items():
            page.wait_for_selector("#tourney .level-clock")
            _the_felt_fits(page, size, "level 1")
            shot(page, f"s61-tourney-play-{size}")
        # level 1's 6 s moved on the level clock, not waited out (s62-suite; the break
        # still worked out from the clock: table_ui.level_clock_to)
        level_clock_to(server, table, 6.1)
        play_until(ann, lambda: table.tourney.break_left() is not None, "the break", 90)
        for size, page in pages.items():
            page.wait_for_selector("#dock .addon-offer", state="attached")
            m = _the_felt_fits(page, size, "the break")
            if size == "phone":
                # folded to its head during play (s61-table2; main: 343 px, the tiles
                # under the dock until scrolled): every tile in view above the dock
                tiles = page.evaluate(TILES)
                assert tiles["n"] >= 5 and tiles["lowest"] <= tiles["dockTop"] + 0.5, tiles
                assert m["panelHeight"] <= 160, m
                head = " ".join(page.inner_text("#tourney").split())
                assert head.startswith("On a break after level 1 of 3"), head
                # (the break's countdown is the felt's: s62-table2, said twice)
                assert "Break: " not in head and "More" in head, head
                assert page.locator("#felt .status .break-left").is_visible()
                assert page.locator("#dock .addon-offer:visible").count() == 1   # (the dock's)
                shot(page, "s61-tourney-break-phone-folded")
                page.click("#tourney .tourney-fold")
                assert page.get_attribute("#tourney .tourney-fold", "aria-expanded") == "true"
            text = " ".join(page.inner_text("#tourney").split())
            assert text.startswith("On a break after level 1 of 3"), text
            # (Take and No thanks are the seat's alone: s62-table2)
            for words in ("Break: ", "next level 2: ante 2", "Add-on open until play resumes.",
                          "Yours to answer at your seat.", "Prize pool ", "Levels"):
                assert words in text, (size, words, text)
            if size != "phone":   # (the panel whole, in the side column)
                assert m["panelHeight"] > 200, m
            shot(page, f"s61-tourney-break-{size}")
            if size == "phone":   # (folded again: Less)
                page.click("#tourney .tourney-fold")
                assert page.evaluate(FIT)["panelHeight"] <= 160
    finally:
        for ctx in contexts:
            ctx.close()
        server.stop()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_closing_the_table_is_said_in_the_notice_not_again_in_a_toast_over_it(
        browser: Any, tmp_path: Path, size: str) -> None:
    # main: "Ann closed the table: the night is over. The ledger is final." in a toast
    # over the notice line's "The night is over: Ann closed the table. ..." (a phone's
    # notice hidden under it for 4 s)
    server = ServerThread(tmp_path / "close.db")
    try:
        tid, host = new_table(server.url, game="holdem", seats=3, bots=1)
        ann = open_as_host(context(browser, size), server.url, tid, host)
        sit(ann, "Ann")
        record_toasts(ann)
        if not ann.is_visible("#host-controls"):
            ann.click("#host-box summary")
        ann.once("dialog", lambda d: d.accept())
        ann.click("#host-controls [data-host=close]")
        ann.locator("#ended:not(.hidden)").wait_for()
        ann.wait_for_selector("#notice :text('The night is over: Ann closed the table. "
                              "The ledger is final.')")
        ann.wait_for_timeout(300)
        toasts = ann.evaluate("window.__toasts")
        assert not any("closed the table" in t for t in toasts), toasts
        # (still said to a screen reader, and in the chat)
        assert "Ann closed the table: the night is over." in ann.inner_text("#chat-lines")
        # closed before its first deal: no Deal button left (main: "Deal · Start when
        # everyone has sat down" above the felt of a closed table)
        assert ann.locator("#host").is_hidden()
        shot(ann, f"s61-closed-notice-{size}")
    finally:
        server.stop()
