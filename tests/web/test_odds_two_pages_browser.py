"""Practice odds on two pages of one seat (s67-try): a player with the table open on a
phone and a laptop, or in two tabs.  The server computes one request a seat at a time
and refuses another meanwhile (``busy``); at the player's own decision, where the table
stands still, the refused page said "your odds are still being computed (asked from
this or another connection of your seat); ask again after" and never asked again.  Now
it asks again a moment later: both pages show the odds (390x844 and 1440x900)."""

from __future__ import annotations

from typing import Any

import pytest
from table_ui import (
    context,
    decision_kind,
    new_table,
    only_checking_bots,
    open_as_host,
    shot,
    sit_with_enter,
    wait_until,
)
from web_harness import ServerThread

pytestmark = pytest.mark.browser

ODDS = "() => /^Your odds: equity/.test(document.getElementById('odds-line').textContent)"


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_both_pages_of_a_seat_show_the_odds_at_its_decision(
        browser: Any, live: ServerThread, size: str) -> None:
    ctx = context(browser, size)
    try:
        tid, host = new_table(live.url, game="sdr", seats=3, bots=2, practice_odds=True)
        only_checking_bots(live, tid)
        first = open_as_host(ctx, live.url, tid, host)
        sit_with_enter(first, "Ann")
        first.check("#odds-toggle")  # (kept for the table: the second page has it on)
        second = open_as_host(ctx, live.url, tid, host)
        second.wait_for_selector(".me .name:has-text('Ann')")
        assert second.is_checked("#odds-toggle")
        first.click("#start-btn")
        wait_until(first, "() => !!document.querySelector('#controls [data-action=check], "
                          "#controls [data-action=call]')", timeout=60)
        assert decision_kind(first) == "bet"
        seq = first.evaluate("() => Number(document.body.dataset.seq)")
        for page in (first, second):  # (the table stands at Ann's decision)
            wait_until(page, ODDS, timeout=30)
            assert "still being computed" not in page.inner_text("#odds-line")
            assert page.evaluate("() => Number(document.body.dataset.seq)") == seq
        for name, page in (("first", first), ("second", second)):
            page.locator("#odds-box").scroll_into_view_if_needed()
            shot(page, f"s67-odds-two-pages-{size}-{name}")
    finally:
        ctx.close()
