"""No finishing place that a waiting rebuy may still move (stop 59, branch
s59-night; Debian's Chromium through Playwright, 390x844 and 1440x900).  At a
tournament night four busted in one hand while rebuys were open: the computer
player among them was listed "3rd" (a paid place) while the friends decided,
then "4th" once one rebought.  Now the panel lists it as out, "placed once Ann
has rebought or said no", and places it when she has."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from table_ui import (
    SHORT_TOURNAMENT,
    context,
    decision_kind,
    new_table,
    open_as_host,
    open_tournament_panel,
    shot,
    sit,
    take_decision,
)
from web_harness import ServerThread, only_betting_bots, seeded_deals

pytestmark = pytest.mark.browser

SEED = 3
"""A deal (Stop, Drop and Roll, every hand the same deck) in which Ann and Bot 1 both
bust in hand 1, Bot 2 taking the 9 chips."""


def _call(page: Any) -> None:
    """Call (all-in here) where the page offers it, else check or fold; any other
    decision as the tests' passive player makes it.  Clicked in the page, in one go:
    the bots act within milliseconds, and a button found is often redrawn before
    Playwright's click lands."""
    kind = decision_kind(page)
    if kind in ("bet", "fold-confirm"):
        page.evaluate("""() => { const c = document.querySelector('#controls');
          const b = c && (c.querySelector('[data-action=call]')
            || c.querySelector('[data-action=check]') || c.querySelector('[data-action=fold]'));
          if (b) b.click(); }""")
    elif kind is not None:
        take_decision(page, kind, "sdr")


def play_to_first_bust(browser: Any, tmp_path: Path, size: str, monkeypatch: Any,
                       name: str) -> tuple[ServerThread, Any, Any, float]:
    """A three-seat Stop, Drop and Roll tournament of :data:`SHORT_TOURNAMENT` (Ann hosting,
    two betting computer players, deals of :data:`SEED`), started and played by
    Ann (:func:`_call`) until somebody busts: the server, its table, Ann's page
    and the deadline (``time.monotonic()``) left for the rest of the test.  The
    caller stops the server (``server.stop()``)."""
    seeded_deals(monkeypatch, SEED)
    server = ServerThread(tmp_path / f"{name}.db")
    try:
        tid, host = new_table(server.url, game="sdr", seats=3, bots=2, bot_level="basic",
                              tournament="custom", tournament_schedule=SHORT_TOURNAMENT, buy_in=10,
                              rebuy_levels=1, between_hands=0.3, payouts=[65, 35])
        only_betting_bots(server, tid)
        ann = open_as_host(context(browser, size), server.url, tid, host)
        sit(ann, "Ann")
        ann.click("#start-btn")
        table = server.manager.tables[tid]
        end = time.monotonic() + 90
        while "tournament" not in table.session or not table.session["tournament"]["busts"]:
            assert time.monotonic() < end, "nobody busted"
            _call(ann)
            ann.wait_for_timeout(50)
    except BaseException:
        server.stop()
        raise
    return server, table, ann, end


def test_a_computer_player_busted_with_ann_waits_for_her_rebuy_to_be_placed(
        browser: Any, tmp_path: Path, monkeypatch: Any) -> None:
    """Both sizes at one tournament: Ann plays on her phone page; her desktop page
    (the same host and player) is checked the same way (s62-suite2: a tournament a
    size before)."""
    server, table, ann, _end = play_to_first_bust(browser, tmp_path, "phone", monkeypatch,
                                                  "known")
    desk_ctx = context(browser, "desktop")
    try:
        state = table.session["tournament"]
        assert sorted(b[1] for b in state["busts"]) == [0, 1], state["busts"]
        desk_ctx.add_cookies(ann.context.cookies())   # (the same host and player)
        desk = desk_ctx.new_page()
        desk.goto(ann.url)
        pages = ((ann, "phone"), (desk, "desktop"))
        for page, size in pages:
            page.locator("button[data-action=rebuy]").wait_for()
            panel = page.locator("#tourney")
            open_tournament_panel(page)   # (a phone's is folded during play: s61-table2)
            unplaced = page.locator("#tourney .tourney-unplaced")
            unplaced.wait_for()
            assert unplaced.inner_text() == (
                "Out: Bot 1 (basic) (placed once Ann has rebought or said no)."), size
            # main: "2nd: Bot 1 (basic)", a paid place, which Ann's rebuy makes 3rd
            assert page.locator("#tourney .tourney-places").count() == 0, size
            assert "2nd: Bot 1" not in panel.inner_text(), size
            cell = page.locator("#ledger tr[data-seat='1'] td").nth(2)
            assert cell.text_content() == "out, placed after the rebuys", size
            assert page.locator("#ledger tr[data-seat='0'] td").nth(2).text_content() == \
                "may rebuy", size
            shot(page, f"tourney-places-known-{size}")
        public = server.call(table.tourney.public)
        assert public["places"] == {} and public["may_rebuy"] == [0]
        bot_line = public["ledger"][1]
        assert bot_line["seat"] == 1 and bot_line["place"] is None
        ann.click("button[data-action=rebuy]")
        for page, size in pages:
            page.locator("#tourney .tourney-places li").first.wait_for()
            assert page.locator("#tourney .tourney-places li").all_inner_texts() == [
                "3rd: Bot 1 (basic)"], size
            assert page.locator("#tourney .tourney-unplaced").count() == 0, size
            assert page.locator("#ledger tr[data-seat='1'] td").nth(2).text_content() == "3", \
                size
            shot(page, f"tourney-places-known-{size}-rebought")
    finally:
        desk_ctx.close()
        server.stop()
