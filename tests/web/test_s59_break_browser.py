"""s59-break, in Debian's Chromium through Playwright (390x844 and 1440x900): the
page offered seats the server refuses.

- a watcher's "Take a seat" list offered the seat held for a player's seat
  change, first when it was the lowest free one: typing a name and pressing
  Enter was refused ("seat 3 (index 2) is not free; free seats: 4, ...");
- a tournament's entrant saw "Seat 3 — free: move here" on the free seats, and a
  seat change is refused in a tournament.

Screenshots: test-artifacts/web/s59-break-*.png.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from table_ui import (
    DESKTOP,
    PHONE,
    new_table,
    only_checking_bots,
    open_as_host,
    shot,
    sit,
    viewport_context,
)
from test_tournament_late_registration_browser import FAST_FIRST
from web_harness import ServerThread

pytestmark = pytest.mark.browser


def _until(page: Any, live: ServerThread, check: Any, what: str) -> None:
    end = time.monotonic() + 30
    while not live.call(check):
        assert time.monotonic() < end, what
        page.wait_for_timeout(50)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_watcher_is_not_offered_the_seat_held_for_a_seat_change(
        browser: Any, live: ServerThread, viewport: dict[str, int]) -> None:
    name = "phone" if viewport is PHONE else "desktop"
    ann_ctx, bob_ctx, cy_ctx = (viewport_context(browser, viewport) for _ in range(3))
    try:
        tid, host_token = new_table(live.url, game="holdem", seats=6, bots=2, stack=400)
        only_checking_bots(live, tid)
        table = live.manager.get(tid)
        ann = open_as_host(ann_ctx, live.url, tid, host_token)
        sit(ann, "Ann")
        bob = bob_ctx.new_page()
        bob.goto(f"{live.url}/t/{tid}")
        sit(bob, "Bob")
        ann.click("#start-btn")
        _until(ann, live, lambda: table.hand is not None, "hand 1 never dealt")
        free = live.call(lambda: [n for n in range(6) if n not in table.seats])
        held = free[0]  # (the lowest free seat: the list's first)
        bob.once("dialog", lambda d: d.accept())
        bob.locator(f"#seats button.seat.empty[data-seat='{held}']").click()
        bob.wait_for_selector("#notice .seat-change")
        cy = cy_ctx.new_page()
        cy.goto(f"{live.url}/t/{tid}")
        cy.wait_for_selector("#join:not(.hidden)")
        tile = cy.locator(f"#seats .seat.empty[data-seat='{held}']")
        assert tile.inner_text() == f"Seat {held + 1} — Bob's after this hand"
        options = cy.locator("#join-seat option").all_inner_texts()
        assert options == [f"Seat {n + 1}" for n in free[1:]]  # (main: the held one first)
        shot(cy, f"s59-break-held-seat-{name}")
        cy.fill("#join-name", "Cy")
        cy.press("#join-name", "Enter")
        cy.wait_for_selector(".me .name:has-text('Cy')")
        assert cy.locator("#join-error").inner_text() == ""
        assert live.call(lambda: next(n for n, s in table.seats.items()
                                      if s.row.name == "Cy")) == free[1]
    finally:
        for ctx in (ann_ctx, bob_ctx, cy_ctx):
            ctx.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_tournament_entrant_is_offered_no_seat_change(
        browser: Any, live: ServerThread, viewport: dict[str, int]) -> None:
    name = "phone" if viewport is PHONE else "desktop"
    ann_ctx, eve_ctx = (viewport_context(browser, viewport) for _ in range(2))
    try:
        tid, host_token = new_table(live.url, game="sdr", seats=4, bots=1, bot_level="basic",
                                    tournament="custom", tournament_schedule=FAST_FIRST,
                                    buy_in=10, rebuy_levels=1, between_hands=0.3)
        table = live.manager.get(tid)
        ann = open_as_host(ann_ctx, live.url, tid, host_token)
        sit(ann, "Ann")
        ann.click("#start-btn")
        _until(ann, live, lambda: table.session.get("started"), "never started")
        eve = eve_ctx.new_page()
        eve.goto(f"{live.url}/t/{tid}")
        sit(eve, "Eve")  # (a late entrant)
        free = live.call(lambda: [n for n in range(4) if n not in table.seats])
        assert len(free) == 1
        tile = eve.locator(f"#seats .seat.empty[data-seat='{free[0]}']")
        tile.wait_for()
        assert tile.inner_text() == f"Seat {free[0] + 1} — empty"  # (main: "free: move here")
        assert eve.locator("#seats button.seat.empty").count() == 0
        shot(eve, f"s59-break-tournament-free-seat-{name}")
    finally:
        for ctx in (ann_ctx, eve_ctx):
            ctx.close()
