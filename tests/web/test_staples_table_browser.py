"""Straddles, bomb pots, run it twice and statistics on the table page (issue
27), in Debian's Chromium through Playwright, on a phone (390x844) and a
desktop (1440x900), one server for the file and seeded deals. The host turns
on Mississippi straddles and run it twice and sets a bomb pot's ante in the
host controls and calls a bomb pot; the player chooses to straddle; hand 1 is
the bomb pot (everyone antes, no preflop betting, the flop at once); in the
first hand where the player may straddle they post it, move all-in when it
comes back to them and agree to run it twice: the felt, the result and the
replay show both runs with each run's winners; the ledger panel shows each
player's statistics as /api/tables/<id>/stats counts them.
Screenshots: test-artifacts/web/staples-{bomb,straddle,twice,stats}-*.png."""

from __future__ import annotations

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
    wait_until,
)
from web_harness import ServerThread, seeded_deals

pytestmark = pytest.mark.browser


def _host_box(page: Any) -> None:
    if not page.is_visible("#host-controls form"):
        page.click("#host-box summary")


def _events(table: Any) -> list[Any]:
    assert table.hand is not None
    return list(table.hand.hand.events)


def _play_passively(page: Any, table: Any, hand_no: int) -> None:
    """The person checks, else calls, until hand ``hand_no`` is over."""
    end = time.monotonic() + 60
    while table.hand is not None and table.hand.hand_no == hand_no and not table.hand.over:
        assert time.monotonic() < end, f"hand {hand_no} never ended"
        kind = decision_kind(page)
        if kind is not None:
            take_decision(page, kind)
        page.wait_for_timeout(80)


def _deal_next(page: Any, table: Any, hand_no: int) -> None:
    _host_box(page)
    page.click("#host-controls [data-host=deal_now]")
    end = time.monotonic() + 20
    while table.hand is None or table.hand.hand_no != hand_no:
        assert time.monotonic() < end, f"hand {hand_no} was never dealt"
        time.sleep(0.05)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_straddle_bomb_pot_run_twice_and_stats_on_the_page(
        browser: Any, live: ServerThread, viewport: dict[str, int],
        monkeypatch: pytest.MonkeyPatch) -> None:
    seeded_deals(monkeypatch, 7)
    name = "phone" if viewport is PHONE else "desktop"
    ctx = viewport_context(browser, viewport)
    try:
        tid, _host, table, page = hosted_table(live, ctx, game="holdem", seats=3, bots=2,
                                               stack=200, structure="no-limit", small_bet=2,
                                               big_bet=4)
        me = table.names().index("Ann")
        # The host's settings: Mississippi straddles, run it twice, a bomb pot of 10.
        assert not page.is_visible("[data-action=straddle]")  # (no straddles yet)
        _host_box(page)
        form = page.locator("#host-controls form")
        form.locator("select[name=straddle]").select_option("mississippi")
        form.locator("select[name=run_twice]").select_option("true")
        form.locator("input[name=bomb_pot_ante]").fill("10")
        form.locator("[data-host=config]").click()
        wait_until(page, "() => !!document.querySelector('[data-action=straddle]')")
        assert (table.config.straddle, table.config.run_twice, table.config.bomb_pot_ante) \
            == ("mississippi", True, 10)
        page.click("#host-controls [data-host=bomb_pot]")
        wait_until(page, "() => document.querySelector('#host-controls [data-host=bomb_pot]')"
                         ".getAttribute('aria-pressed') === 'true'")
        assert "bomb pot next hand" in page.inner_text("#status")
        # The player chooses to straddle (before the deal; kept for every hand).
        page.click("[data-action=straddle]")
        wait_until(page, "() => document.querySelector('[data-action=straddle]')"
                         ".getAttribute('aria-pressed') === 'true'")
        assert table.session["straddlers"] == [me]
        page.click("#start-btn")
        # Hand 1: the bomb pot.
        wait_until(page, "() => /bomb pot: everyone antes 10/.test("
                         "document.querySelector('#status').textContent)")
        assert table.hand is not None and table.hand.hand.committed == [10, 10, 10]
        kinds = [e.kind for e in _events(table) if e.kind in ("bomb_pot", "board", "round")]
        assert kinds[:3] == ["bomb_pot", "board", "round"]  # (no preflop round)
        page.locator("#log-box summary").click()
        page.wait_for_selector("#log li:has-text('Bomb pot: everyone antes 10')")
        assert "Bomb pot: no preflop betting" in page.inner_text("#log")
        shot(page, f"staples-bomb-{name}")
        _play_passively(page, table, 1)
        # Hands 2..: the first where Ann may straddle (Mississippi: the button).
        no = 1
        while True:
            no += 1
            assert no <= 4, "Ann never straddled"
            _deal_next(page, table, no)
            posted = [e for e in _events(table) if e.kind == "blind"
                      and e.data.get("blind") == "straddle"]
            if posted:
                break
            _play_passively(page, table, no)
        assert posted[0].seat == me and posted[0].data["amount"] == 4
        page.wait_for_selector("#log li:has-text('You post a straddle of 4')")
        # Ann acts last before the flop: both others call the straddle first.
        page.wait_for_selector("#controls [data-action=raise]")
        calls = [(e.seat, e.kind) for e in _events(table) if e.kind in ("call", "check", "raise")]
        assert sorted(s for s, _ in calls) == sorted(s for s in table.hand.seats if s != me)
        shot(page, f"staples-straddle-{name}")
        # All-in; both call; everyone is asked to run it twice.
        page.click("#controls [data-size=allin]")
        page.click("#controls [data-action=raise]")
        page.wait_for_selector("#controls [data-action=run-twice-yes]")
        assert "run the rest of the board twice" in page.inner_text("#controls")
        page.click("#controls [data-action=run-twice-yes]")
        wait_until(page, "() => document.querySelectorAll('#center .slot.run').length === 2")
        hand = table.final_hand
        assert hand is not None and hand.hand_no == no and hand.hand.result is not None
        runs = hand.hand.result.runs
        assert len(runs) == 2
        for k, run in enumerate(runs):
            slot = page.locator(f"#center .slot.run[data-run='{k + 1}']")
            assert [c for c in slot.locator(".card").evaluate_all(
                "cs => cs.map(c => c.dataset.card)")] == run["board"]
            won: dict[str, int] = {}
            for pot in run["pots"]:
                for s, c in pot["winners"].items():
                    won[s] = won.get(s, 0) + c
            said = slot.locator(".run-winners").inner_text()
            for s, c in won.items():
                who = table.names()[int(s)]
                assert f"{who} +{c}" in said, (said, won)
        result = page.inner_text("#result")
        assert "Run it twice, first run:" in result and "Second run:" in result
        for s, words in runs[1]["shown"].items():  # each shown hand in both runs' words
            both = f"run 1: {runs[0]['shown'][s]}; run 2: {words}"
            line = page.inner_text(f"#result .shown-line[data-seat='{s}'] .desc")
            assert line == both
            # ... on its seat's tile, and in your own hand's words (stop 55: run 1's only)
            where = ("#me .hand-name" if int(s) == me
                     else f"#seats .seat[data-seat='{s}'] .described")
            assert page.inner_text(where) == both, where
        page.evaluate("document.getElementById('scroll').scrollTo(0, 0)")
        page.wait_for_timeout(800)  # (the chips flying to the winners land)
        shot(page, f"staples-twice-{name}")
        # The replay of that hand ends with both runs too.
        page.click("#result [data-action=replay-last]")
        page.wait_for_selector("#replay:not(.hidden)")
        while not page.is_disabled("#replay-next"):
            page.click("#replay-next")
        assert page.locator("#replay-center .slot.run").count() == 2
        assert "Second run:" in page.inner_text("#replay-result")
        page.click("#replay-close")
        # Statistics in the ledger panel, as the server counts them.
        stats = httpx.get(f"{live.url}/api/tables/{tid}/stats").json()
        assert stats["hands"] == no
        if not page.is_visible("#stats"):
            page.click("#ledger-box summary")
        # (asked for only once on the screen)
        page.locator("#stats").evaluate("(e) => e.scrollIntoView({block: 'center'})")
        wait_until(page, "n => !!document.querySelector('#stats caption') && document."
                         "querySelector('#stats caption').textContent.includes(n + ' hands')", no)
        for player, p in stats["players"].items():
            row = page.locator(f"#stats tr[data-player='{player}'] td").all_inner_texts()
            vpip = "–" if p["vpip"] is None else f"{round(p['vpip'])}%"
            assert row[:3] == [player, str(p["hands"]), vpip], (row, p)
        assert stats["players"]["Ann"]["hands"] == no
        page.locator("#stats").scroll_into_view_if_needed()
        shot(page, f"staples-stats-{name}")
    finally:
        ctx.close()
