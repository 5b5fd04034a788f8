"""A friend whose phone slept past the reconnect grace period comes back to a cash
table (try-out of stop 55), in Chromium through Playwright at 390x844 and 1440x900:
the seat was given up (R-C-15), and the page said only "You are watching": no word
of why, nor of the chips, and offered the first free seat. Now it says why and that
the chips wait on the ledger, and offers the seat they had; sitting down again from
the same browser plays on with them."""

from __future__ import annotations

import time

import pytest
from table_ui import Pages, shot, sit, wait_until
from web_harness import ServerThread, create_table

from rollem.server.live_table import Client
from rollem.server.protocol import ClientMessage

pytestmark = pytest.mark.browser

GONE = ("Your page was closed for longer than the reconnect grace period (1 s), so your "
        "seat was given up: you are watching now. Your chips stay on the ledger; sit down "
        "again from this browser to play on with them.")
NOTICE = "() => document.getElementById('notice').textContent"


@pytest.mark.parametrize("name", ["phone", "desktop"])
def test_a_friend_back_after_the_grace_reads_that_the_seat_was_given_up(
        pages: Pages, live: ServerThread, name: str) -> None:
    tid, _host = create_table(live.url, game="sdr", seats=3, bots=0, grace_seconds=1.0)
    table = live.manager.get(tid)
    url = f"{live.url}/t/{tid}"
    with pages.open(name) as page:
        page.goto(url)
        page.wait_for_selector("#join:not(.hidden)")
        page.select_option("#join-seat", "2")  # Seat 3
        sit(page, "Bob")
        [seat] = live.call(lambda: [n for n, s in table.seats.items() if s.row.name == "Bob"])
        assert seat == 2
        host = Client(None, True)  # (the host's chips count: Bob now has 150 to come back to)
        live.call(table.connect, host)
        live.call(lambda: table.handle(host, ClientMessage(
            "host", None, table.seq, {"op": "adjust_stack", "seat": seat, "stack": 150})))
        page.goto("about:blank")  # the phone sleeps: no page of Bob's open
        end = time.monotonic() + 20
        while live.call(lambda: seat in table.seats):
            assert time.monotonic() < end, "the seat was never given up"
            time.sleep(0.1)
        page.goto(url)
        wait_until(page, f"() => ({NOTICE})() === {GONE!r}")
        assert page.locator("#join").is_visible()
        assert page.locator("#join-name").input_value() == "Bob"
        assert page.locator("#join-seat").input_value() == "2"  # his seat (main: the first)
        shot(page, f"grace-gone-{name}")
        page.click("#join-btn")
        page.wait_for_selector(".me .name:has-text('Bob')")
        assert live.call(lambda: {n: s.row.stack for n, s in table.seats.items()}) == {2: 150}
        wait_until(page, f"() => !({NOTICE})().includes('grace')")
        assert live.call(lambda: table.session.get("gone_players")) == []
