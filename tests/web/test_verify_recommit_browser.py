"""A deal committed again under the same hand number takes the page's seed again
(s73-verify), in Debian's Chromium through Playwright, on a phone (390x844) and a
desktop (1440x900).

A deal lapses when fewer than two players are left at its deal (one left in the
seed wait): the table commits a new deck for the same hand number when it can deal
again.  The page kept the seeds it sent by hand number alone, so it sent none to
the new commitment: that hand was dealt with the empty seed for this seat (the
panel said the seed "came too late"), a permutation the dealer could know when it
committed.  Now the page sends one seed a commitment.
"""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from table_ui import context, hosted_table, shot
from web_harness import Player, ServerThread, join

from rollem.server.live_table import LiveTable

pytestmark = pytest.mark.browser


def _wait(what: Any, timeout: float = 20.0) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = what()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError("timed out")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_deal_committed_again_takes_the_pages_seed_again(
        browser: Any, live: ServerThread, monkeypatch: pytest.MonkeyPatch, size: str) -> None:
    monkeypatch.setattr(LiveTable, "CLIENT_SEED_WAIT", 3.0)
    ctx = context(browser, size)
    try:
        tid, _host, table, ann = hosted_table(live, ctx, game="holdem", seats=3, bots=0,
                                              between_hands=0.2)
        mine = live.call(lambda: next(s for s, seat in table.seats.items()
                                      if seat.row.name == "Ann"))
        bob_seat, bob = join(live.url, tid, "Bob")

        async def bob_leaves_in_the_wait() -> list[str]:
            """Bob stays silent (no seed) until Ann's seed is in, then leaves: the
            deal lapses with one player left.  Returns the commitments he saw."""
            async with Player(live.ws_url, tid, bob) as b:
                b.client_seeds = False  # (silent: the deal waits for him)
                state = await b.until(lambda st: st["table"].get("deal") is not None
                                      and mine in st["table"]["deal"]["seeded"])
                await b.send({"type": "leave"})
                await asyncio.sleep(0.5)
                return [state["table"]["deal"]["commitment"]]

        with ThreadPoolExecutor(1) as pool:  # (Playwright's own loop runs in this thread)
            bobs = pool.submit(asyncio.run, bob_leaves_in_the_wait())
            ann.click("#start-btn")
            first = bobs.result(30)
        # the deal lapsed: no hand dealt, no deal waiting
        _wait(lambda: live.call(lambda: table.session.get("seeding") is None
                                and table.hand is None))
        assert live.call(lambda: int(table.session["hand_no"])) == 0
        cat_seat, _cat = join(live.url, tid, "Cat")  # (not connected: not waited for)
        assert cat_seat != mine and bob_seat != mine
        # hand 1 committed again, a new deck, and dealt: Ann's page sent a seed to it
        _wait(lambda: live.call(lambda: table.hand is not None), timeout=15)
        deal = live.call(lambda: (table.hand.hand_no, table.hand.public_deal()))
        assert deal[0] == 1 and deal[1]["commitment"] != first[0]
        seeds = live.call(lambda: table.hand.public_deal()["client_seeds"])
        assert seeds[str(mine)] != "", seeds  # (main: "" -- the page sent none)
        assert seeds[str(cat_seat)] == ""
        shown = ann.locator("#verify")
        shown.wait_for(state="attached")
        ann.wait_for_function(
            "s => (document.getElementById('verify').textContent || '').includes(s)",
            arg=seeds[str(mine)], timeout=10_000)
        assert "too late" not in (shown.text_content() or "")
        shot(ann, f"verify-recommit-{size}")
    finally:
        ctx.close()
