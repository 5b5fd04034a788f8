"""Straddles, bomb pots, run it twice and statistics on the table page (issue
27), in Debian's Chromium through Playwright, one server for the file and seeded deals:
one table played from the player's phone (390x844) while a desktop page (1440x900) of
the same player follows along, every check on both pages (stop 72). The host turns
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
    after_frames,
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


def _follower(browser: Any, page: Any, url: str) -> Any:
    """A second page of ``page``'s player (its cookies: the same player and host) at
    1440x900 on the same table: one hand read at both sizes (stop 72)."""
    ctx = viewport_context(browser, DESKTOP)
    ctx.add_cookies(page.context.cookies())
    other = ctx.new_page()
    other.goto(url)
    other.locator(".me").first.wait_for()
    return other


def test_straddle_bomb_pot_run_twice_and_stats_on_the_page(
        browser: Any, live: ServerThread, monkeypatch: pytest.MonkeyPatch) -> None:
    """One seeded table played from Ann's phone (390x844) while a desktop page of
    hers (1440x900) follows along: every check on both pages."""
    seeded_deals(monkeypatch, 7)
    ctx = viewport_context(browser, PHONE)
    contexts = [ctx]
    try:
        tid, _host, table, page = hosted_table(live, ctx, game="holdem", seats=3, bots=2,
                                               stack=200, structure="no-limit", small_bet=2,
                                               big_bet=4)
        desk = _follower(browser, page, f"{live.url}/t/{tid}")
        contexts.append(desk.context)
        pages = {"phone": page, "desktop": desk}
        me = table.names().index("Ann")
        # The host's settings: Mississippi straddles, run it twice, a bomb pot of 10.
        for p in pages.values():
            assert not p.is_visible("[data-action=straddle]")  # (no straddles yet)
        _host_box(page)
        form = page.locator("#host-controls form")
        form.locator("select[name=straddle]").select_option("mississippi")
        form.locator("select[name=run_twice]").select_option("true")
        form.locator("input[name=bomb_pot_ante]").fill("10")
        form.locator("[data-host=config]").click()
        for p in pages.values():
            wait_until(p, "() => !!document.querySelector('[data-action=straddle]')")
        assert (table.config.straddle, table.config.run_twice, table.config.bomb_pot_ante) \
            == ("mississippi", True, 10)
        page.click("#host-controls [data-host=bomb_pot]")
        for p in pages.values():
            wait_until(p, "() => document.querySelector('#host-controls [data-host=bomb_pot]')"
                          ".getAttribute('aria-pressed') === 'true'")
            wait_until(p, "() => /bomb pot next hand/.test("
                          "document.querySelector('#status').textContent)")
        # The player chooses to straddle (before the deal; kept for every hand).
        page.click("[data-action=straddle]")
        for p in pages.values():
            wait_until(p, "() => document.querySelector('[data-action=straddle]')"
                          ".getAttribute('aria-pressed') === 'true'")
        assert table.session["straddlers"] == [me]
        page.click("#start-btn")
        # Hand 1: the bomb pot.
        for p in pages.values():
            wait_until(p, "() => /bomb pot: everyone antes 10/.test("
                          "document.querySelector('#status').textContent)")
        assert table.hand is not None and table.hand.hand.committed == [10, 10, 10]
        kinds = [e.kind for e in _events(table) if e.kind in ("bomb_pot", "board", "round")]
        assert kinds[:3] == ["bomb_pot", "board", "round"]  # (no preflop round)
        for name, p in pages.items():
            p.locator("#log-box summary").click()
            p.wait_for_selector("#log li:has-text('Bomb pot: everyone antes 10')")
            assert "Bomb pot: no preflop betting" in p.inner_text("#log")
            shot(p, f"staples-bomb-{name}")
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
        # Ann acts last before the flop: both others call the straddle first.
        for p in pages.values():
            p.wait_for_selector("#log li:has-text('You post a straddle of 4')")
            p.wait_for_selector("#controls [data-action=raise]")
        calls = [(e.seat, e.kind) for e in _events(table) if e.kind in ("call", "check", "raise")]
        assert sorted(s for s, _ in calls) == sorted(s for s in table.hand.seats if s != me)
        for name, p in pages.items():
            shot(p, f"staples-straddle-{name}")
        # All-in; both call; everyone is asked to run it twice.
        page.click("#controls [data-size=allin]")
        page.click("#controls [data-action=raise]")
        for p in pages.values():
            p.wait_for_selector("#controls [data-action=run-twice-yes]")
            assert "run the rest of the board twice" in p.inner_text("#controls")
        page.click("#controls [data-action=run-twice-yes]")
        for p in pages.values():
            wait_until(p, "() => document.querySelectorAll('#center .slot.run').length === 2")
        hand = table.final_hand
        assert hand is not None and hand.hand_no == no and hand.hand.result is not None
        runs = hand.hand.result.runs
        assert len(runs) == 2
        for name, p in pages.items():
            for k, run in enumerate(runs):
                slot = p.locator(f"#center .slot.run[data-run='{k + 1}']")
                assert [c for c in slot.locator(".card").evaluate_all(
                    "cs => cs.map(c => c.dataset.card)")] == run["board"], name
                won: dict[str, int] = {}
                for pot in run["pots"]:
                    for s, c in pot["winners"].items():
                        won[s] = won.get(s, 0) + c
                said = slot.locator(".run-winners").inner_text()
                for s, c in won.items():
                    # (Ann's own share as "you", as the rest of her page: stop 73)
                    who = "you" if int(s) == me else table.names()[int(s)]
                    assert f"{who} +{c}" in said, (name, said, won)
            result = p.inner_text("#result")
            assert "Run it twice, first run:" in result and "Second run:" in result, name
            for s, words in runs[1]["shown"].items():  # each shown hand in both runs' words
                both = f"run 1: {runs[0]['shown'][s]}; run 2: {words}"
                line = p.inner_text(f"#result .shown-line[data-seat='{s}'] .desc")
                assert line == both, name
                # ... on its seat's tile, and in your own hand's words (stop 55: run 1's only)
                where = ("#me .hand-name" if int(s) == me
                         else f"#seats .seat[data-seat='{s}'] .described")
                assert p.inner_text(where) == both, (name, where)
        for p in pages.values():
            p.evaluate("document.getElementById('scroll').scrollTo(0, 0)")
        for name, p in pages.items():
            after_frames(p)   # (the chips flying to the winners set off: the shot lands them)
            shot(p, f"staples-twice-{name}")
        # The replay of that hand ends with both runs too: the step that dealt them
        # names each board by its run (stop 73: two flops, two turns, two rivers,
        # the second unnamed) and the result's step says who won each run.
        names = table.names()
        for name, p in pages.items():
            p.click("#result [data-action=replay-last]")
            p.wait_for_selector("#replay:not(.hidden)")
            while not p.is_disabled("#replay-next"):
                p.click("#replay-next")
            assert p.locator("#replay-center .slot.run").count() == 2
            assert "Second run:" in p.inner_text("#replay-result")
            _replay_runs(p, runs, [("you" if s == me else n) for s, n in enumerate(names)],
                         name)
            p.click("#replay-close")
        # Statistics in the ledger panel, as the server counts them.
        stats = httpx.get(f"{live.url}/api/tables/{tid}/stats").json()
        assert stats["hands"] == no
        assert stats["players"]["Ann"]["hands"] == no
        for name, p in pages.items():
            if not p.is_visible("#stats"):
                p.click("#ledger-box summary")
            # (asked for only once on the screen)
            p.locator("#stats").evaluate("(e) => e.scrollIntoView({block: 'center'})")
            wait_until(p, "n => !!document.querySelector('#stats caption') && document."
                          "querySelector('#stats caption').textContent.includes(n + ' hands')",
                       no)
            for player, st in stats["players"].items():
                row = p.locator(f"#stats tr[data-player='{player}'] td").all_inner_texts()
                vpip = "–" if st["vpip"] is None else f"{round(st['vpip'])}%"
                assert row[:3] == [player, str(st["hands"]), vpip], (name, row, st)
            p.locator("#stats").scroll_into_view_if_needed()
            shot(p, f"staples-stats-{name}")
    finally:
        for c in contexts:
            c.close()


def _replay_runs(page: Any, runs: list[Any], called: list[str], size: str) -> None:
    """At the replay's result step of a hand run twice (``runs``: the result's):
    who won each run said in the step's line; one step back, the step that dealt
    both runs names each board by its run and the felt shows both boards, no
    winners yet (stop 73)."""
    won = []
    for k, run in enumerate(runs):
        chips: dict[int, int] = {}
        for pot in run["pots"]:
            for s, c in pot["winners"].items():
                chips[int(s)] = chips.get(int(s), 0) + c
        won.append(f"run {k + 1}: " + ", ".join(f"{called[s]} +{c}" for s, c in chips.items()))
    assert page.inner_text("#replay-what") == "The result · " + " · ".join(won), size
    for k, words in enumerate(won):  # (each run's board says the same under it)
        said = page.inner_text(f"#replay-center .slot.run[data-run='{k + 1}'] .run-winners")
        assert f"run {k + 1}: {said}" == words, (size, said, words)
    shot(page, f"staples-twice-replay-result-{size}")
    page.click("#replay-prev")
    what = page.inner_text("#replay-what")
    cards = page.locator("#replay-what .inline-card").evaluate_all(
        "cs => cs.map(c => c.dataset.card)")
    assert cards == runs[0]["board"] + runs[1]["board"], (size, cards)
    assert "; everyone agrees to run it twice; run 1, the flop: " in what, (size, what)
    assert what.count("run 1, the ") == 3 and what.count("run 2, the ") == 3, (size, what)
    assert what.index("run 2, the flop") > what.index("run 1, the river"), (size, what)
    for k, run in enumerate(runs):
        slot = page.locator(f"#replay-center .slot.run[data-run='{k + 1}']")
        assert slot.locator(".label").inner_text().lower() == f"run {k + 1}", size
        assert slot.locator(".card").evaluate_all(
            "cs => cs.map(c => c.dataset.card)") == run["board"], size
        assert slot.locator(".run-winners").count() == 0, size  # (paid at the next step)
    shot(page, f"staples-twice-replay-runs-{size}")
    page.click("#replay-next")
