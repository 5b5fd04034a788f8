"""The web table's leftovers of s63-table, at 390x844 and 1440x900 in a real
browser (Debian's Chromium through Playwright):

2. a host who has not dealt yet is not offered Pause (it meant nothing before the
   first hand, and held the start up unseen); it shows from the start;
3. a busted player's dock says "stack 0" without the hand's "all-in" tag;
4. the hand list names your own win "won by you", and a negative net has the
   ledger's minus sign (a hyphen-minus, "-2", not "−2");
5. the rebuy offer's two buttons stand side by side where they fit.

Screenshots test-artifacts/web/s63t-*.png."""

from __future__ import annotations

import contextlib
import random
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from table_ui import (
    SHORT_TOURNAMENT,
    CheckingBot,
    context,
    decision_kind,
    new_table,
    open_as_host,
    shot,
    shove,
    sit,
)
from web_harness import ServerThread

from rollem.engine.actions import Check, Fold

pytestmark = pytest.mark.browser


class FoldingBot(CheckingBot):
    """Folds to any bet, else checks: the person it plays wins every hand they bet."""

    def _bet(self, view: Any, legal: Any) -> object:
        return Fold() if "fold" in legal.actions and "check" not in legal.actions else Check()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_pause_waits_for_the_start_and_the_hand_list_says_you(
        browser: Any, tmp_path: Path, size: str) -> None:
    """2 and 4: before the first deal the host's page offers no Pause (above the
    folded tools nor inside them); from the start it does.  Ann bets, the computer
    player folds: her hand list says "won by you · you +N"."""
    server = ServerThread(tmp_path / "s63.db")
    try:
        tid, host = new_table(server.url, game="holdem", seats=2, bots=1, between_hands=600)
        server.manager.get(tid).bot_factory = lambda level: FoldingBot(random.Random(0))
        ctx = context(browser, size)
        ann = open_as_host(ctx, server.url, tid, host)
        sit(ann, "Ann")
        ann.wait_for_selector("#start-btn")
        ann.wait_for_timeout(300)  # (the state drawn)
        assert not ann.locator("[data-quick=pause]").is_visible()
        assert ann.locator("[data-host=pause]:visible").count() == 0
        assert ann.locator("[data-quick=close]").is_visible()  # (the quick row is there)
        shot(ann, f"s63t-{size}-before-start")
        ann.click("#start-btn")
        ann.wait_for_selector("[data-quick=pause]:visible")
        table = server.manager.tables[tid]
        end = time.monotonic() + 60
        while server.call(lambda: table.final_hand is None):
            assert time.monotonic() < end, "hand 1 never ended"
            kind = decision_kind(ann)
            if kind is not None:
                for action in ("raise", "bet", "check", "call"):
                    button = ann.locator(f"#controls [data-action={action}]")
                    if button.count():
                        with contextlib.suppress(PlaywrightError):
                            button.first.click()
                        break
            ann.wait_for_timeout(50)
        net = server.call(lambda: table.last_result["net"])[str(0)]
        assert net > 0
        ann.click("#history-box summary")
        line = ann.locator("#history [data-hand='1']")
        line.wait_for()
        assert line.inner_text() == f"Hand 1 · Texas Hold'em · won by you · you +{net}"
        line.scroll_into_view_if_needed()
        shot(ann, f"s63t-{size}-hand-list")
        ctx.close()
    finally:
        server.stop()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_busted_dock_says_stack_0_alone_and_offers_the_rebuy_side_by_side(
        browser: Any, tmp_path: Path, size: str) -> None:
    """3 and 5: heads-up, three chips each, rebuys open: the first bust's dock reads
    "stack 0" with no "all-in" tag, its two rebuy buttons on one line where they fit
    (at both sizes here: each fits half the dock), the loser's hand list line has
    the ledger's minus sign."""
    server = ServerThread(tmp_path / "s63b.db")
    try:
        tid, host = new_table(server.url, game="sdr", seats=2, bots=0, tournament="custom",
                              tournament_schedule=SHORT_TOURNAMENT, buy_in=10, rebuy_levels=1,
                              between_hands=600)
        ann = open_as_host(context(browser, size), server.url, tid, host)
        sit(ann, "Ann")
        bob = context(browser, size).new_page()
        bob.goto(f"{server.url}/t/{tid}")
        sit(bob, "Bob")
        ann.click("#start-btn")
        table = server.manager.tables[tid]
        end = time.monotonic() + 90
        while server.call(lambda: table.hand is not None or min(
                s.row.stack for s in table.seats.values()) > 0):
            assert time.monotonic() < end, "nobody busted"
            for page in (ann, bob):
                with contextlib.suppress(PlaywrightError):  # (redrawn under the click)
                    shove(page)
            ann.wait_for_timeout(50)
        busted = min(table.seats, key=lambda s: table.seats[s].row.stack)
        page = {0: ann, 1: bob}[busted]
        rebuy = page.locator(".me button[data-action=rebuy]")
        rebuy.wait_for()
        page.wait_for_timeout(300)  # (the last state drawn)
        assert page.inner_text(".me .chips") == "stack 0"
        assert page.locator(".me .tag.allin").count() == 0, page.inner_text(".me")
        no = page.locator(".me button[data-action=rebuy-decline]")
        a, b = rebuy.bounding_box(), no.bounding_box()
        assert a is not None and b is not None
        assert abs(a["y"] - b["y"]) < 1 and b["x"] >= a["x"] + a["width"], (a, b)
        dock = page.locator(".me").bounding_box()
        assert dock is not None and b["x"] + b["width"] <= dock["x"] + dock["width"] + 0.5
        shot(page, f"s63t-{size}-busted-dock")
        last = server.call(lambda: dict(table.last_result))
        net = last["net"][str(busted)]
        assert net < 0
        page.click("#history-box summary")
        line = page.locator(f"#history [data-hand='{last['hand']}']")
        line.wait_for()
        assert line.inner_text().endswith(f" · you -{-net}"), line.inner_text()
    finally:
        server.stop()
