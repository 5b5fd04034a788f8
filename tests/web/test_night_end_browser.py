"""A friends' night's two seams (stop 58), in Chromium through Playwright at
390x844 and 1440x900: the host ends the night with "Pause after this hand" (the
last hand played out, then the table paused between hands, where the ledger
settles up), and a friend who closed the page when their turn came finds,
back, that they sit out as away and why (the clock waited for them once)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from table_ui import (
    Pages,
    decision_kind,
    goto_as_host,
    only_checking_bots,
    shot,
    sit,
    take_decision,
    wait_until,
)
from web_harness import ServerThread, create_table

pytestmark = pytest.mark.browser

NOTICE = "() => document.getElementById('notice').textContent"
AFTER = "The host pauses the table when this hand ends."
PAUSED = "The host has paused the table: play stops until it resumes."
UNSEEN = ("Your turn came while your page was closed, so the clock acted for you and you "
          "sit out as away: press “I'm back” to be dealt in again.")


def _deal_due_now(table: Any) -> object:
    """On the server's loop: the table's next deal, if one is coming, tried now as its
    timer would when the pause between hands ends (what it does is worked out as
    then); the timer it replaced, or ``None`` (none was coming)."""
    timer = table.dealer.next_hand_timer
    if timer is not None:
        timer.cancel()
        table.dealer._maybe_start_hand()
    return timer


@pytest.mark.parametrize("name", ["phone", "desktop"])
def test_the_host_pauses_after_the_last_hand(pages: Pages, live: ServerThread,
                                             name: str) -> None:
    tid, host = create_table(live.url, game="sdr", seats=3, bots=1, bot_delay=0.02,
                             decision_seconds=300, between_hands=1.0)
    only_checking_bots(live, tid)
    table = live.manager.get(tid)
    with pages.open(name) as page:
        goto_as_host(page, live.url, tid, host)
        sit(page, "Ann")
        page.click("#start-btn")
        end = time.monotonic() + 30
        while decision_kind(page) is None:
            assert time.monotonic() < end, "Ann's first decision never came"
            page.wait_for_timeout(50)
        page.click("#host-box summary")
        button = page.locator("[data-host=pause_after_hand]")
        assert button.inner_text() == "Pause after this hand"
        button.click()
        wait_until(page, f"() => ({NOTICE})().includes({AFTER!r})")
        assert button.inner_text() == "Play on after this hand"
        assert button.get_attribute("aria-pressed") == "true"
        box = button.bounding_box()
        width = page.viewport_size["width"]
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        shot(page, f"night-end-asked-{name}")
        end = time.monotonic() + 60
        while not page.locator("#result:not(.hidden)").count():  # hand 1 played out
            assert time.monotonic() < end, "hand 1 did not end"
            kind = decision_kind(page)
            if kind:
                take_decision(page, kind)
            page.wait_for_timeout(50)
        wait_until(page, f"() => ({NOTICE})().includes({PAUSED!r})")
        assert AFTER not in page.evaluate(NOTICE)
        assert not button.is_visible()
        # (a pause between hands of 1 s: hand 2 would be dealt) The deal coming tried
        # now, as if its time had passed (stop 61: 2.5 s waited before; already
        # tried, none coming: nothing).
        live.call(lambda: _deal_due_now(table))
        page.wait_for_timeout(300)
        assert live.call(lambda: (table.hand, int(table.session["hand_no"]))) == (None, 1)
        assert page.locator("[data-host=resume]").is_visible()
        # the ledger counts hand 1 and settles up (not "shown between hands")
        settle = page.locator("#settle").inner_text()
        assert "Settling up is shown between hands" not in settle
        assert "after hand 1" in page.locator("#ledger").inner_text()
        shot(page, f"night-end-paused-{name}")


@pytest.mark.parametrize("name", ["phone", "desktop"])
def test_a_page_closed_at_its_turn_comes_back_away(pages: Pages, live: ServerThread,
                                                   name: str) -> None:
    tid, host = create_table(live.url, game="sdr", seats=3, bots=1, bot_delay=0.02,
                             decision_seconds=1.0, time_bank_seconds=30,
                             grace_seconds=60, between_hands=1.0)
    only_checking_bots(live, tid)
    table = live.manager.get(tid)
    url = f"{live.url}/t/{tid}"
    with pages.open(name) as page:
        goto_as_host(page, live.url, tid, host)
        sit(page, "Bob")
        [seat] = live.call(lambda: [n for n, s in table.seats.items() if s.row.bot is None])
        page.click("#start-btn")
        end = time.monotonic() + 30
        while decision_kind(page) is None:
            assert time.monotonic() < end, "Bob's first decision never came"
            page.wait_for_timeout(50)
        page.goto("about:blank")  # Bob's laptop shut at his turn
        end = time.monotonic() + 20
        while not live.call(lambda: seat in table.session.get("idle_away", [])):
            assert time.monotonic() < end, "Bob was never sat out"
            time.sleep(0.1)
        assert live.call(lambda: table.seats[seat].row.bank) >= 29.9  # (kept)
        page.goto(url)
        wait_until(page, f"() => ({NOTICE})().includes({UNSEEN!r})")
        back = page.locator("#me button.sit")
        assert back.inner_text() == "I'm back"
        shot(page, f"away-unseen-{name}")
        back.click()
        wait_until(page, f"() => !({NOTICE})().includes('page was closed')")
        assert live.call(lambda: table.session.get("idle_away")) == []
