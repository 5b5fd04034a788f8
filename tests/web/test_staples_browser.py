"""Home-game staples on the page (issue 27), in Debian's Chromium through
Playwright, on a phone (390x844) and a desktop (1440x900), one table for both (a
desktop page of the player's reads along): after a hand the
ledger says who pays whom (money at the host's chip value) with CSV links that
download the ledger; a person the clock acted for twice in a row is shown away
and told how to come back.  Screenshots: test-artifacts/web/staples-*.png."""

from __future__ import annotations

import csv
import io
import time
from typing import Any

import httpx
import pytest
from table_ui import (
    DESKTOP,
    PHONE,
    decision_kind,
    hosted_table,
    shot,
    take_decision,
    viewport_context,
)
from web_harness import ServerThread, decision_clock_on

pytestmark = pytest.mark.browser


def test_the_ledger_settles_up_and_away_is_shown(browser: Any, live: ServerThread) -> None:
    """Ann's phone plays; a desktop page of hers (the phone's cookies: the same player
    and host) reads the same table: one table for both sizes (stop 74)."""
    ctx, desktop_ctx = viewport_context(browser, PHONE), viewport_context(browser, DESKTOP)
    try:
        tid, _host, table, page = hosted_table(live, ctx, game="sdr", seats=2, bots=1,
                                               between_hands=600, chip_value="0.25",
                                               decision_seconds=5, time_bank_seconds=0)
        desktop_ctx.add_cookies(ctx.cookies())
        desktop = desktop_ctx.new_page()
        desktop.goto(page.url)
        desktop.locator(".me").first.wait_for()
        pages = {"phone": page, "desktop": desktop}
        page.click("#start-btn")
        end = time.monotonic() + 60
        while table.hand is not None:  # Ann plays hand 1 out (check, else call)
            assert time.monotonic() < end, "hand 1 never ended"
            kind = decision_kind(page)
            if kind is not None:
                take_decision(page, kind)
            page.wait_for_timeout(100)
        info = httpx.get(f"{live.url}/api/tables/{tid}").json()
        settle = info["settle"]
        assert settle is not None
        for name, p in pages.items():
            if not p.is_visible("#settle"):
                p.click("#ledger-box summary")
            p.wait_for_selector("#settle .settle-links a")
            text = p.inner_text("#settle")
            for x in settle["transfers"]:  # (none when hand 1 was a split pot)
                unit = "chip" if x["chips"] == 1 else "chips"
                assert f"{x['from']} pays {x['to']} {x['chips']} {unit} ({x['money']})" in text, \
                    name
            href = p.get_attribute("#settle a[href$='ledger.csv']", "href")
            rows = list(csv.DictReader(io.StringIO(httpx.get(live.url + href).text)))
            assert {r["name"]: int(r["net"]) for r in rows} == {
                line["name"]: line["net"] for line in info["ledger"]}, name
            shot(p, f"staples-settle-{name}")
        # Away: Ann stops acting; the clock acts for her twice in a row (its 5 s,
        # there for her page's decisions of hand 1, now 1 s: stop 60, two 5 s waits
        # a test before; each 1 s moved on her decision's clock, not waited out:
        # stop 61, what is checked is the away, not the clock's second).
        live.call(lambda: setattr(table.config, "decision_seconds", 1.0))
        end = time.monotonic() + 90
        while 0 not in table.session.get("idle_away", []):
            assert time.monotonic() < end, "Ann was never made away"
            decision_clock_on(live, tid, 0, 1.0)  # (none open: nothing)
            deal = page.locator("#host-controls [data-host=deal_now]")
            if deal.count():
                # (the host's box opened, never toggled: a "Deal now" taken off the
                # page by the hand it dealt, between two looks, read as not visible
                # and a tap on the summary closed the box for good)
                page.locator("#host-box").evaluate("d => { d.open = true; }")
                deal.click(timeout=90_000)   # (or, dealt meanwhile, at that hand's end)
            page.wait_for_timeout(250)
        for name, p in pages.items():
            p.wait_for_selector("text=sit out as away", timeout=10_000)
            assert "I'm back" in p.inner_text("#notice"), name
            shot(p, f"staples-away-{name}")
    finally:
        ctx.close()
        desktop_ctx.close()
