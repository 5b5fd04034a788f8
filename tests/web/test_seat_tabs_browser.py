"""One seat open in more tabs than the server keeps (issue 34, item 3), in
Chromium at 390x844 and 1440x900: the newest tab plays the seat; the tab it
replaced says so, turns its buttons off and does not reconnect by itself (two
tabs would otherwise take the seat from each other for ever); a tap on its
badge takes the seat back, and then the other tab is the one replaced."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from table_ui import DESKTOP, PHONE, new_table, open_as_host, sit, wait_until
from web_harness import ServerThread

from rollem.server.config import ServerSettings

pytestmark = pytest.mark.browser

REPLACED = """() => document.querySelector('#conn').innerText === 'play here'
  && document.querySelector('#notice').innerText.includes('another tab or device')"""
CONNECTED = "() => document.querySelector('#conn').innerText === 'connected'"


@pytest.fixture(scope="module")
def one_per_seat(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """A live server keeping one connection per seat."""
    srv = ServerThread(tmp_path_factory.mktemp("web") / "tabs.db",
                       ServerSettings(connections_per_seat=1))
    yield srv
    srv.stop()


def test_a_replaced_tab_stops_and_a_tap_takes_the_seat_back(
        browser: Any, one_per_seat: ServerThread, tmp_path: Path) -> None:
    """At each size (a context of its own, a table of its own) the second tab
    replaces the first; both sizes' first tabs then see 3 s pass on their pages' clock
    (Playwright's, moved by the test: every timer due fires, as in 3 s of real time;
    s73-suite: stop 61 had both sizes wait out one real 3 s), and each tap takes its
    seat back."""
    live = one_per_seat
    contexts = [browser.new_context(viewport=viewport) for viewport in (PHONE, DESKTOP)]
    for ctx in contexts:
        ctx.clock.install()   # (the time runs on as before, until moved on below)
    try:
        tabs: list[tuple[str, Any, Any, int]] = []
        for ctx in contexts:
            tid, host_token = new_table(live.url, game="sdr", seats=2, bots=1)
            first = open_as_host(ctx, live.url, tid, host_token)
            sit(first, "Ann")
            wait_until(first, CONNECTED)
            second = ctx.new_page()
            second.goto(f"{live.url}/t/{tid}")
            wait_until(second, CONNECTED)
            wait_until(first, REPLACED, timeout=10)
            tabs.append((tid, first, second, first.viewport_size["width"]))
        # No reconnecting on its own: 3 s later (the phone's tab: more) it still
        # waits, the other still plays.
        for ctx in contexts:
            ctx.clock.run_for(3000)
        for tid, first, second, width in tabs:
            wait_until(first, REPLACED, timeout=1)
            wait_until(second, CONNECTED, timeout=1)
            seat = live.manager.tables[tid].seats[0]
            assert len(seat.clients) == 1
            first.screenshot(path=str(tmp_path / f"replaced-{width}.png"))
        for tid, first, second, _width in tabs:
            # The tap takes it back: the second tab is the one replaced now.
            first.click("#conn")
            wait_until(first, CONNECTED, timeout=10)
            wait_until(second, REPLACED, timeout=10)
            assert len(live.manager.tables[tid].seats[0].clients) == 1
    finally:
        for ctx in contexts:
            ctx.close()
