"""A tournament's end said once (stop 57), at 390x844 and 1440x900: "The
tournament is over" was said three times on the busted player's page (the
notice above the felt, the tournament panel, the dock's line with the place) and
twice on the winner's.  Now the panel says it (with the places and prizes); the
notice leaves it out and the busted player's dock says only the place, "You
finished 2nd.", and the winner's "You finished 1st and win 20." (s61-table: it
said nothing).  Heads-up, three chips each, no rebuys: the first bust ends it.  One tournament
for both sizes: Ann on a phone, Bob on a desktop, a page of each at the other size.
Screenshots test-artifacts/web/tourney-over-once-{phone,desktop}-{winner,busted}.png."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from table_ui import (
    SHORT_TOURNAMENT,
    context,
    new_table,
    open_as_host,
    shot,
    shove,
    sit,
    wait_until,
)
from web_harness import ServerThread

pytestmark = pytest.mark.browser


def _second_page(browser: Any, size: str, page: Any) -> Any:
    """A page at ``size`` of the person of ``page`` (its cookies: the same seat)."""
    ctx = context(browser, size)
    ctx.add_cookies(page.context.cookies())
    other = ctx.new_page()
    other.goto(page.url)
    other.locator(".me").first.wait_for()
    return other


def test_the_end_of_a_tournament_is_said_once(browser: Any, tmp_path: Path) -> None:
    """One tournament read at both sizes (stop 74): Ann plays from a phone and Bob from
    a desktop, a page of each at the other size reading along."""
    server = ServerThread(tmp_path / "over.db")
    try:
        tid, host = new_table(server.url, game="sdr", seats=2, bots=0, tournament="custom",
                              tournament_schedule=SHORT_TOURNAMENT, buy_in=10, rebuy_levels=0,
                              between_hands=0.3)
        ann = open_as_host(context(browser, "phone"), server.url, tid, host)
        sit(ann, "Ann")
        bob = context(browser, "desktop").new_page()
        bob.goto(f"{server.url}/t/{tid}")
        sit(bob, "Bob")
        pages = {(0, "phone"): ann, (0, "desktop"): _second_page(browser, "desktop", ann),
                 (1, "desktop"): bob, (1, "phone"): _second_page(browser, "phone", bob)}
        ann.click("#start-btn")
        table = server.manager.tables[tid]
        end = time.monotonic() + 90
        while not (table.session.get("tournament") or {}).get("over"):
            assert time.monotonic() < end, "the tournament did not end"
            for page in (ann, bob):
                with contextlib.suppress(PlaywrightError):  # (redrawn under the click)
                    shove(page)
            ann.wait_for_timeout(50)
        stacks = {s: table.seats[s].row.stack for s in table.seats}
        busted = min(stacks, key=lambda s: stacks[s])
        for (seat, size), page in pages.items():
            page.wait_for_selector("#tourney .tourney-over")
            # (the last state drawn: s74-flaky, 300 ms waited before)
            wait_until(page, "seq => Number(document.body.dataset.seq) >= seq", table.seq)
            text = page.inner_text("body")
            assert text.count("ournament is over") == 1, (seat, size, text)
            assert page.inner_text("#tourney .tourney-over") == "The tournament is over."
            # (s61-table2: the head named the last level's stakes as if still played)
            head = page.inner_text("#tourney .tourney-head")
            assert head == "Tournament · played to level 1 of 1", (size, head)
            assert "tournament is over" not in page.inner_text("#notice"), size
            if seat == busted:
                assert page.inner_text(".me .rebuy-closed") == "You finished 2nd.", size
            else:   # (s61-table: the winner's dock said nothing of it)
                prize = server.call(lambda: table.tourney.public()["payouts"])[str(seat)]
                assert page.inner_text(".me .tourney-finish") == (
                    f"You finished 1st and win {prize}."), size
            places = page.inner_text("#tourney .tourney-places")
            assert "1st: " in places and "2nd: " in places, (size, places)
            shot(page, f"tourney-over-once-{size}-{'busted' if seat == busted else 'winner'}")
    finally:
        server.stop()
