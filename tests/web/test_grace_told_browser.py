"""A friend whose phone slept past the reconnect grace period comes back to a cash
table (try-out of stop 55), in Chromium through Playwright at 390x844 and 1440x900:
the seat was given up (R-C-15), and the page said only "You are watching": no word
of why, nor of the chips, and offered the first free seat. Now it says why and that
the chips wait on the ledger, and offers the seat they had; sitting down again from
the same browser plays on with them."""

from __future__ import annotations

import time
from typing import Any

import pytest
from table_ui import context, shot, sit, wait_until
from web_harness import ServerThread, create_table

from rollem.server.live_table import Client
from rollem.server.protocol import ClientMessage

pytestmark = pytest.mark.browser

GONE = ("Your page was closed for longer than the reconnect grace period (1 s), so your "
        "seat was given up: you are watching now. Your chips stay on the ledger; sit down "
        "again from this browser to play on with them.")
NOTICE = "() => document.getElementById('notice').textContent"


def test_a_friend_back_after_the_grace_reads_that_the_seat_was_given_up(
        browser: Any, live: ServerThread) -> None:
    """Bob on a phone (390x844, seat 3) and Cy on a desktop (1440x900, seat 2), at
    one table, both pages closed past the grace period and opened again: each reads
    why, is offered the seat they had, and sits down again with their chips.  (One
    table for both sizes, the toasts' 4 s before each notice at the same time, stop
    61: each size had a table of its own before.)"""
    tid, _host = create_table(live.url, game="sdr", seats=3, bots=0, grace_seconds=1.0)
    table = live.manager.get(tid)
    url = f"{live.url}/t/{tid}"
    people = {"phone": ("Bob", 2, 150), "desktop": ("Cy", 1, 120)}  # (name, seat, chips)
    contexts = {size: context(browser, size) for size in people}
    try:
        pages = {size: ctx.new_page() for size, ctx in contexts.items()}
        host = Client(None, True)  # (the host's chips count: each has chips to come back to)
        live.call(table.connect, host)
        for size, page in pages.items():
            name, seat, chips = people[size]
            page.goto(url)
            page.wait_for_selector("#join:not(.hidden)")
            page.select_option("#join-seat", str(seat))  # Seat 3, Seat 2
            sit(page, name)
            assert live.call(lambda n=name: [k for k, s in table.seats.items()
                                             if s.row.name == n]) == [seat]
            live.call(lambda seat=seat, chips=chips: table.handle(host, ClientMessage(
                "host", None, table.seq, {"op": "adjust_stack", "seat": seat,
                                          "stack": chips})))
        for page in pages.values():
            page.goto("about:blank")  # the phone sleeps, the laptop shuts: no page open
        end = time.monotonic() + 20
        while live.call(lambda: bool(table.seats)):
            assert time.monotonic() < end, "the seats were never given up"
            time.sleep(0.1)
        for page in pages.values():
            page.goto(url)
        for size, page in pages.items():
            name, seat, chips = people[size]
            wait_until(page, f"() => ({NOTICE})() === {GONE!r}")
            assert page.locator("#join").is_visible()
            assert page.locator("#join-name").input_value() == name
            assert page.locator("#join-seat").input_value() == str(seat)  # (main: the first)
            shot(page, f"grace-gone-{size}")
        for size, page in pages.items():
            name, seat, chips = people[size]
            page.click("#join-btn")
            page.wait_for_selector(f".me .name:has-text('{name}')")
            assert live.call(lambda: {n: s.row.stack for n, s in table.seats.items()
                                      }).get(seat) == chips
            wait_until(page, f"() => !({NOTICE})().includes('grace')")
        assert live.call(lambda: {n: s.row.stack for n, s in table.seats.items()}) == {
            2: 150, 1: 120}
        assert live.call(lambda: table.session.get("gone_players")) == []
    finally:
        for ctx in contexts.values():
            ctx.close()
