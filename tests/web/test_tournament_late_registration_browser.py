"""Late registration at a web tournament (stop 59, branch s59-night; Debian's
Chromium through Playwright, 390x844 and 1440x900, one tournament for both).  A
friend who arrived after the first deal could only watch ("this tournament has
started and takes no new players"), where a home game (and Poker Now's
tournaments) lets a late friend buy in during the first levels.  Now, while
rebuys are open, at a table with a free seat that lets players in without the
host's yes, the newcomer sits down as before the start: one entrant more, a
buy-in more in the pool, dealt in from the next hand.  Once the rebuys close the
table takes nobody new."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from table_ui import (
    context,
    decision_kind,
    level_clock_to,
    new_table,
    open_as_host,
    shot,
    sit,
    take_decision,
    wait_until,
)
from web_harness import ServerThread

pytestmark = pytest.mark.browser

FAST_FIRST = """
stack = 50
[[levels]]
ante = 1
small_bet = 2
big_bet = 4
minutes = 0.4
[[levels]]
ante = 2
small_bet = 4
big_bet = 8
minutes = 30
"""
"""A first level of 24 s (rebuys, and late registration, open in it), then 30 minutes."""


def _play(page: Any) -> None:
    kind = decision_kind(page)
    if kind is not None:
        with contextlib.suppress(Exception):  # (the turn passed meanwhile: looked at again)
            take_decision(page, kind, "sdr")


SIZES = ("phone", "desktop")


def test_a_late_friend_buys_in_while_rebuys_are_open(browser: Any, tmp_path: Path) -> None:
    """One tournament read at both sizes (stop 74): Ann's phone plays and a desktop page
    of hers reads along; Eve arrives on a phone and a desktop page, buys in from the
    phone (the desktop then holds her seat's cookie too); Fay too late, at both."""
    server = ServerThread(tmp_path / "late.db")
    try:
        tid, host = new_table(server.url, game="sdr", seats=4, bots=1, bot_level="basic",
                              tournament="custom", tournament_schedule=FAST_FIRST, buy_in=10,
                              rebuy_levels=1, between_hands=0.3)
        ann = open_as_host(context(browser, "phone"), server.url, tid, host)
        sit(ann, "Ann")
        ann_desktop = context(browser, "desktop")
        ann_desktop.add_cookies(ann.context.cookies())
        anns = {"phone": ann, "desktop": ann_desktop.new_page()}
        anns["desktop"].goto(ann.url)
        anns["desktop"].locator(".me").first.wait_for()
        for size, page in anns.items():
            # the Deal button's hint tells the host a late friend may still buy in
            # (s72-web; main: "Deal when every entrant has sat down: nobody joins a
            # tournament once it starts.", here where late registration is open)
            assert page.inner_text("#start-hint") == (
                "Deal when you are ready: late registration is open while rebuys are "
                "(until level 2), so a friend who comes later may still buy in at a free "
                "seat."), size
            assert page.locator("#start-hint").is_visible(), size
            shot(page, f"tourney-late-registration-{size}-deal-hint")
        # (a table approving joins takes nobody after the deal: the hint says so)
        ann.locator("summary:has-text('Host controls')").click()
        ann.check("[data-host=approve_joins]")
        for page in anns.values():
            wait_until(page, "() => document.getElementById('start-hint').textContent"
                       ".startsWith('Deal when every entrant has sat down')")
        ann.uncheck("[data-host=approve_joins]")
        for page in anns.values():
            wait_until(page, "() => document.getElementById('start-hint').textContent"
                       ".startsWith('Deal when you are ready')")
        ann.click("#start-btn")
        table = server.manager.tables[tid]
        end = time.monotonic() + 60
        while not table.session.get("started"):
            assert time.monotonic() < end, "the tournament never started"
            ann.wait_for_timeout(20)
        eves = {size: context(browser, size).new_page() for size in SIZES}
        for size, eve in eves.items():
            eve.goto(f"{server.url}/t/{tid}")
            watching = eve.locator("#watching")
            watching.wait_for()
            # main: "You are watching — this tournament has started and takes no new
            # players."
            assert watching.inner_text() == (
                "You are watching — late registration is open while rebuys are: type your "
                "name and press Enter to buy in (10) for 50 chips, dealt from the next hand. "
                "An entrant who closes the tab or loses the connection keeps the seat to the "
                "end and comes back to it from the same browser."), size  # (s64-table2)
            assert "rebuys and late registration open until level 2" in eve.locator(
                "#tourney .tourney-pool").inner_text(), size
            shot(eve, f"tourney-late-registration-{size}")
        eve = eves["phone"]
        sit(eve, "Eve")
        eves["desktop"].context.add_cookies(eve.context.cookies())  # (the same person)
        eves["desktop"].reload()
        public = server.call(table.tourney.public)
        seat = next(n for n, s in table.seats.items() if s.row.name == "Eve")
        assert len(public["entrants"]) == 3 and seat in public["entrants"]
        assert public["prize_pool"] == 30
        assert sorted(line["name"] for line in public["ledger"]) == ["Ann", "Bot 1 (basic)", "Eve"]
        for size, page in eves.items():
            page.locator("#me .name").wait_for()
            assert page.locator("#me .name").inner_text().startswith("Eve"), size
            page.wait_for_function("() => document.querySelector('#tourney .tourney-pool')"
                                   ".textContent.includes('of 3 left')")
            assert page.locator("#tourney .tourney-pool").inner_text().startswith(
                "Prize pool 30 (1st 100%)"), size
        # dealt in from the next hand
        first = int(table.session["hand_no"])
        while not (table.hand is not None and table.hand.hand_no > first
                   and seat in table.hand.seats):
            assert time.monotonic() < end + 60, "Eve was not dealt in"
            _play(ann)
            _play(eve)
            eve.wait_for_timeout(50)
        for size, page in eves.items():
            shot(page, f"tourney-late-registration-{size}-dealt")
        # the rebuys close with level 1: nobody new after it
        level_clock_to(server, table, 24.1)  # (level 1's 24 s not waited out: stop 60)
        while server.call(table.tourney.public)["level"] < 2:
            assert time.monotonic() < end + 120, "level 2 never came"
            _play(ann)
            _play(eve)
            eve.wait_for_timeout(50)
        r = httpx.post(f"{server.url}/api/tables/{tid}/join", json={"name": "Fay"})
        assert r.status_code != 200 and r.json()["error"] == "tournament_started", r.text
        for size in SIZES:
            fay = context(browser, size).new_page()
            fay.goto(f"{server.url}/t/{tid}")
            fay.locator("#watching").wait_for()
            assert fay.locator("#watching").inner_text() == (
                "You are watching — this tournament has started and takes no new players."), size
            assert fay.locator("#join").is_hidden(), size
    finally:
        server.stop()
