"""Tournament night in a real browser (branch s49-tryout; Debian's Chromium
through Playwright, 390x844 and 1440x900): an entrant whose phone died comes
back to the table (test_tryout_night.py has the server's side)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from table_ui import context, decision_kind, new_table, open_as_host, shot, sit, take_decision
from web_harness import ServerThread

pytestmark = pytest.mark.browser


def test_an_entrant_back_after_the_grace_reads_why_and_plays_on(browser: Any,
                                                                tmp_path: Path) -> None:
    """Bob's page (a phone, 390x844) and Cy's (a desktop, 1440x900) close for longer
    than the grace period during a tournament: the table marks them away (their
    decisions made at once). Opening the table again, each reads why and presses I'm
    back; then their decisions wait for them again.  (One tournament for both sizes,
    stop 61: each size played its own before, the same steps.)"""
    server = ServerThread(tmp_path / "night.db")
    try:
        tid, host = new_table(server.url, game="sdr", seats=4, bots=1, bot_level="random",
                              tournament="turbo", grace_seconds=1.0, between_hands=0.3)
        host_ctx = context(browser, "desktop")
        ann = open_as_host(host_ctx, server.url, tid, host)
        sit(ann, "Ann")
        away: dict[str, tuple[str, Any, Any]] = {}
        for size, name in (("phone", "Bob"), ("desktop", "Cy")):
            ctx = context(browser, size)
            page = ctx.new_page()
            page.goto(f"{server.url}/t/{tid}")
            sit(page, name)
            away[size] = (name, ctx, page)
        ann.click("#start-btn")
        table = server.manager.tables[tid]
        seat = {s.row.name: n for n, s in table.seats.items()}
        assert (seat["Bob"], seat["Cy"]) == (1, 2)
        for _name, _ctx, page in away.values():
            page.close()  # the phone dies; so does the desktop's page
        end = time.monotonic() + 60
        while not {1, 2} <= set(table.session.get("away_closed", [])):
            assert time.monotonic() < end, "Bob and Cy were never marked away"
            ann.wait_for_timeout(100)
        hands = int(table.session["hand_no"])
        while int(table.session["hand_no"]) < hands + 2:  # hands go on without waiting
            assert time.monotonic() < end, "the table waited for Bob or Cy"
            kind = decision_kind(ann)
            if kind is not None:
                take_decision(ann, kind)
            ann.wait_for_timeout(60)
        for size, (name, ctx, _page) in away.items():
            page = ctx.new_page()
            page.goto(f"{server.url}/t/{tid}")
            page.wait_for_selector("#notice:has-text('Your page was closed')")
            assert "I'm back" in page.inner_text(".me button.sit")
            shot(page, f"night-{size}-away-closed")
            page.click(".me button.sit")
            page.wait_for_selector("#notice:not(:has-text('Your page was closed'))",
                                   state="attached")
            page.wait_for_selector(".me button.sit:has-text('Sit out')")
            assert seat[name] not in table.session.get("idle_away", [])
            shot(page, f"night-{size}-back")
    finally:
        server.stop()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_holdem_tournaments_header_names_its_blinds(browser: Any, tmp_path: Path,
                                                      size: str) -> None:
    """A hold'em tournament's header said "ante 1, bets 2/4" (the level's ante, which
    hold'em does not take) above a panel saying "blinds 1 and 2"; now both say
    the blinds, and no limit's bet sizes as the least a bet may be ("min bet
    2/4").  The host's Deal button said "players can also join later",
    which a tournament refuses (``tournament_started``), and Host controls offered
    Remove for an entrant, which the server refuses (``in_tournament``)."""
    server = ServerThread(tmp_path / "header.db")
    try:
        tid, host = new_table(server.url, game="holdem", structure="no-limit", seats=3,
                              bots=1, tournament="turbo")
        page = open_as_host(context(browser, size), server.url, tid, host)
        sit(page, "Ann")
        page.wait_for_selector("#tourney:not(.hidden)")
        header = page.inner_text("#table-name").replace("\u00a0", " ")
        # (no limit's two sizes are the least a bet may be, R-C-6: "bets 2/4" beside
        # the blinds read to no-limit players as the stakes)
        assert header.endswith("Texas Hold'em · blinds 1/2, no limit, min bet 2/4"), header
        tourney = page.inner_text("#tourney").replace("\u00a0", " ")
        assert "ante" not in header and "blinds 1/2 · no limit, min bet 2/4" in tourney, tourney
        assert "bets 2/4" not in header + tourney
        assert page.locator(".tourney-levels th").nth(2).text_content() == "Min bet"
        assert "min\u00a0bet" in page.inner_text("#table-name")  # never split over two lines
        # (and the Deal button's hint no longer says players can join later)
        assert page.inner_text("#start-hint") == ("Deal when every entrant has sat down: "
                                                  "nobody joins a tournament once it starts.")
        shot(page, f"night-{size}-holdem-header")
        # Once dealt, Host controls offered Remove for the computer player, an
        # entrant the server refuses to remove (in_tournament): now it is off.
        page.click("#start-btn")
        page.wait_for_selector("#level-clock")
        page.locator("summary:has-text('Host controls')").click()
        remove = page.locator("li:has-text('Bot 1') [data-host=remove]")
        remove.wait_for()
        assert remove.is_disabled()
        assert "In the tournament" in (remove.get_attribute("title") or "")
    finally:
        server.stop()
