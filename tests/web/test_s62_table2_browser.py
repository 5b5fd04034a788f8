"""s62-table2's table leftovers (the tournament night's and the table pass's), in
Debian's Chromium through Playwright at 390x844 and 1440x900; screenshots under
test-artifacts/web/s62t2-*.png.

1. A tournament over deals no more hands: the host is offered no **Pause** (main:
   still offered, above the folded host controls and in them), nor Deal now or a
   bomb pot.
2. A seed that came too late for the deal is said calmly and truly in the verify
   panel: left out of that deal, the empty seed used as for a computer player,
   the deck still the committed one, the hand verified (main: "Your seed came after
   the wait: this hand was dealt with the empty seed for you.").
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Error as PlaywrightError
from table_ui import (
    SHORT_TOURNAMENT,
    context,
    decision_kind,
    hosted_table,
    new_table,
    open_as_host,
    play_to_the_result,
    shot,
    shove_until,
    sit,
    take_decision,
    wait_until,
)
from web_harness import ServerThread

from rollem.server.live_table import LiveTable

pytestmark = pytest.mark.browser





SEEN = """(where) => Array.from(document.querySelectorAll(where))
  .filter((b) => !b.hidden && b.isConnected && getComputedStyle(b).display !== 'none')
  .map((b) => b.textContent)"""
QUICK, ROW = "#host-quick button", "#host-controls .host-row button"


def test_no_pause_once_the_tournament_is_over(browser: Any, tmp_path: Path) -> None:
    """Heads-up, three chips each, no rebuys: the first bust ends it.  Before it, the
    host's quick row offers Pause; after it, Close only (main: Pause too), and the
    opened host controls neither Pause, Deal now nor a bomb pot, nor the form of a
    next deal's settings (a note says why).  Both sizes at one tournament: the
    host's phone page plays, her desktop page (the same host and player) is
    checked the same way (s62-suite2: a tournament a size before)."""
    server = ServerThread(tmp_path / "over.db")
    contexts = [context(browser, "phone"), context(browser, "desktop")]
    try:
        tid, host = new_table(server.url, game="sdr", seats=2, bots=0, tournament="custom",
                              tournament_schedule=SHORT_TOURNAMENT, buy_in=10, rebuy_levels=0,
                              between_hands=0.3)
        ann = open_as_host(contexts[0], server.url, tid, host)
        sit(ann, "Ann")
        contexts[1].add_cookies(contexts[0].cookies())   # (the same host and player)
        ann_desk = contexts[1].new_page()
        ann_desk.goto(f"{server.url}/t/{tid}")
        ann_desk.wait_for_selector(".me .name:has-text('Ann')")
        contexts.append(context(browser, "phone"))
        bob = contexts[2].new_page()
        bob.goto(f"{server.url}/t/{tid}")
        sit(bob, "Bob")
        ann.click("#start-btn")
        for page in (ann, ann_desk):
            wait_until(page, f"() => ({SEEN})('{QUICK}').includes('Pause')")
            assert "Pause" in page.evaluate(SEEN, ROW)
            assert page.locator("#host-controls form.host-config").count() == 1  # (in play)
        table = server.manager.tables[tid]
        shove_until(server, [ann, bob],
                    lambda: bool((table.session.get("tournament") or {}).get("over")),
                    "the tournament's end")
        for page, size in ((ann, "phone"), (ann_desk, "desktop")):
            page.wait_for_selector("#tourney .tourney-over")
            page.wait_for_timeout(300)   # (the last state drawn)
            assert page.evaluate(SEEN, QUICK) == ["Close the table…"], size  # (main: Pause)
            page.click("#host-box > summary")
            page.wait_for_timeout(100)
            seen = page.evaluate(SEEN, ROW)
            assert not {"Pause", "Deal now", "Bomb pot next hand", "Pause after this hand"} \
                & set(seen), (size, seen)
            assert "Close the table…" in seen, size
            # nor the settings of a next deal (s62-look: main still offered the game,
            # betting, straddles, run it twice, bomb pots and Change)
            assert page.locator("#host-controls form.host-config").count() == 0, size
            note = page.locator("#host-controls .over-note")
            assert note.is_visible(), size
            assert note.inner_text() == "The tournament is over: no more hands to set up."
            page.locator("#host-box").scroll_into_view_if_needed()
            shot(page, f"s62t2-over-no-pause-{size}")
    finally:
        for c in contexts:
            c.close()
        server.stop()


NO_SEEDS = """(() => {   // a page whose seed never reaches the server (too late)
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (d) {
    if (typeof d === 'string' && d.includes('"client_seed"')) return;
    return send.call(this, d);
  };
})();"""


def test_a_seed_too_late_is_said_calmly(browser: Any, live: ServerThread,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Both sizes from one hand: Ann's phone page plays it, her desktop page (the
    same player, whose seed is held back too) is checked the same way (s62-suite2:
    a hand a size before)."""
    monkeypatch.setattr(LiveTable, "CLIENT_SEED_WAIT", 0.3)
    contexts = [context(browser, "phone"), context(browser, "desktop")]
    for ctx in contexts:
        ctx.add_init_script(NO_SEEDS)
    try:
        tid, _host, table, ann = hosted_table(live, contexts[0], game="holdem", seats=2,
                                              bots=1)
        contexts[1].add_cookies(contexts[0].cookies())   # (the same player)
        desk = contexts[1].new_page()
        desk.goto(f"{live.url}/t/{tid}")
        desk.wait_for_selector(".me .name:has-text('Ann')")
        ann.click("#start-btn")
        play_to_the_result(ann, live, tid)
        seeds = live.call(lambda: table.final_hand.public_deal()["client_seeds"])
        assert seeds == {"0": "", "1": ""}, seeds   # (hers too late: the empty seed)
        for page, size in ((ann, "phone"), (desk, "desktop")):
            verdict = page.locator("#verify-result")
            verdict.wait_for(state="attached", timeout=20_000)
            assert verdict.get_attribute("data-status") == "ok", size
            text = page.text_content("#verify") or ""
            assert "came after the wait" not in text   # (main's words)
            assert ("Your seed came too late for this deal, so it was left out (the empty "
                    "seed, as for a computer player); the deck is still the one committed "
                    "before the deal, and the hand checks the same.") in text, (size, text)
            box = page.locator("#verify-box > summary")
            if page.evaluate("() => !document.getElementById('verify-box').open"):
                box.click()
            page.locator("#verify").scroll_into_view_if_needed()
            shot(page, f"s62t2-seed-late-{size}")
    finally:
        for ctx in contexts:
            ctx.close()


LEDGER = """() => ({
  head: [...document.querySelectorAll('#ledger th')].map((c) => c.textContent),
  ann: [...document.querySelectorAll('#ledger tr')].map((r) => [...r.children].map(
    (c) => c.textContent)).find((r) => r[0] === 'Ann'),
  dock: document.querySelector('#me .me-head .chips').textContent})"""

LEDGER_IN_HAND = ("() => [...document.querySelectorAll('#ledger th')].some("
                  "(c) => c.textContent.includes('before hand 1'))")


HEAD_LINES = """() => {
  const [brought, stack] = [...document.querySelectorAll('#ledger th')].slice(1, 3);
  const when = stack.querySelector('.ledger-stack-when');
  const tall = (cell) => { const r = document.createRange(); r.selectNodeContents(cell);
    return r.getBoundingClientRect().height; };   // (the words', not the row's)
  return {brought: tall(brought), stack: tall(stack),
          when_lines: when ? when.getClientRects().length : 0}; }"""


HAND_DRAWN = ("(n) => { const h = (window.rollemState || {}).state; return !!(h"
              " && h.hand && h.hand.hand_no === n && !h.hand.result); }")


def test_the_ledger_and_the_dock_say_which_stack_and_which_win(
        browser: Any, live: ServerThread) -> None:
    """3. A hand Ann wins: her dock says "wins N" (the pot) and "net +M" (the
    result's "This hand: you won M"), each named (main: "wins N" alone beside the
    result's other number).  4. During hand 1 the ledger's Stack column says
    "Stack before hand 1" (200) while the dock says her stack now (less her blind;
    main: "Stack" 200 beside the dock's 199).  Both sizes from the same hands: Ann
    plays on her phone page, her desktop page (the same player) is checked the same
    way (s62-suite2: the hands played a size before)."""
    contexts = [context(browser, "phone"), context(browser, "desktop")]
    try:
        tid, _host, table, ann = hosted_table(live, contexts[0], game="holdem", seats=2,
                                              bots=1)
        contexts[1].add_cookies(contexts[0].cookies())   # (the same player)
        desk = contexts[1].new_page()
        desk.goto(f"{live.url}/t/{tid}")
        desk.wait_for_selector(".me .name:has-text('Ann')")
        pages = ((ann, "phone"), (desk, "desktop"))
        ann.click("#start-btn")
        for hand_no in range(1, 12):
            if hand_no > 1:
                live.call(lambda: table.dealer.schedule_next_hand(0))
            wait_until(ann, HAND_DRAWN, hand_no)
            while decision_kind(ann) is None and not ann.locator(
                    "#result:not(.hidden)").count():
                ann.wait_for_timeout(30)
            if hand_no == 1:
                for page, size in pages:
                    wait_until(page, HAND_DRAWN, 1)
                    # the ledger may be drawn a moment after the dock (it failed first
                    # try once under load 5-7, stop 70: "Stack" read before its redraw);
                    # a ledger that never says it fails below as before
                    with contextlib.suppress(PlaywrightError):
                        page.wait_for_function(LEDGER_IN_HAND, timeout=10_000)
                    got = page.evaluate(LEDGER)
                    assert got["head"] == ["Player", "Brought", "Stack before hand 1",
                                           "Net"], (size, got)
                    assert got["ann"][2] == "200" and got["dock"] != "stack 200", (size, got)
                    # "Stack" over "before hand 1", two lines at most (s62-look: main's
                    # head wrapped to three, "Stack / before / hand 1", at both sizes)
                    tall = page.evaluate(HEAD_LINES)
                    assert tall["stack"] <= 2 * tall["brought"], (size, tall)
                    assert tall["when_lines"] == 1, (size, tall)
                    shot(page, f"s62t2-ledger-in-hand-{size}")
            play_to_the_result_of(ann, hand_no)
            net = int(ann.evaluate("() => { const s = window.rollemState.state;"
                                   " return s.hand.result.net[String(s.you.seat)]; }"))
            if net > 0:
                break
        else:
            pytest.fail("Ann won none of 11 hands")
        for page, size in pages:
            wait_until(page, "() => !!document.querySelector('#me .won-net')")
            assert page.text_content("#me .won-net") == f"net +{net}", size
            won = int(page.get_attribute("#me .won-part", "data-amount") or 0)
            assert won > net and page.text_content("#me .won-sum") == f"wins {won}", size
            wait_until(page, "() => !document.querySelector('#result').classList"
                       ".contains('hidden')")
            assert f"This hand: you won {net}." in page.inner_text("#result"), size
            # the ledger once the hand is over: "Stack" again
            assert page.evaluate(LEDGER)["head"][2] == "Stack", size
            shot(page, f"s62t2-dock-net-{size}")
    finally:
        for ctx in contexts:
            ctx.close()


def play_to_the_result_of(page: Any, hand_no: int) -> None:
    """Ann's decisions of hand ``hand_no`` (check, else call) until its result shows."""
    end = time.monotonic() + 60
    while not page.evaluate("(n) => { const h = window.rollemState.state.hand;"
                            " return !!(h && h.hand_no === n && h.result); }", hand_no):
        assert time.monotonic() < end, f"hand {hand_no} did not finish"
        kind = decision_kind(page)
        if kind is not None:
            with contextlib.suppress(PlaywrightError):
                take_decision(page, kind)
        page.wait_for_timeout(40)


def test_the_hand_list_says_who_won_each_hand(browser: Any, live: ServerThread) -> None:
    """8. Each line of the hand list names who won the hand (the players who came out
    of it ahead) and your own net as yours: "Hand 1 · Texas Hold'em · won by Bot 1
    (random) · you -2" (main: "Hand 1 · Texas Hold'em · -2"), on one or two lines
    inside the panel at both sizes: the hand played on Ann's phone page, then her
    desktop page (the same player) opened (s62-suite2: a hand a size before)."""
    contexts = [context(browser, "phone"), context(browser, "desktop")]
    try:
        tid, _host, _table, ann = hosted_table(live, contexts[0], game="holdem", seats=3,
                                               bots=2)
        ann.click("#start-btn")
        play_to_the_result(ann, live, tid)
        got = ann.evaluate("""() => { const s = window.rollemState.state;
          return {net: s.hand.result.net, names: s.table.seats.map((x) => x.name),
                  me: s.you.seat}; }""")
        ahead = sorted((int(s) for s, n in got["net"].items() if n > 0))
        won = [got["names"][s] for s in ahead]
        mine = int(got["net"][str(got["me"])])
        # (s63-table: your own win is "you", and the ledger's minus sign)
        you = ("+" if mine > 0 else "") + str(mine)
        body = httpx.get(f"{live.url}/api/tables/{tid}/hands").json()
        assert body["hands"][0]["winners"] == won and won, body
        won = ["you" if s == got["me"] else got["names"][s] for s in ahead]
        contexts[1].add_cookies(contexts[0].cookies())   # (the same player)
        desk = contexts[1].new_page()
        desk.goto(f"{live.url}/t/{tid}")
        desk.wait_for_selector(".me .name:has-text('Ann')")
        for page, size in ((ann, "phone"), (desk, "desktop")):
            page.click("#history-box summary")
            line = page.locator("#history [data-hand='1']")
            line.wait_for()
            assert line.inner_text() == (f"Hand 1 · Texas Hold'em · won by {', '.join(won)}"
                                         f" · you {you}"), size
            line.scroll_into_view_if_needed()
            box = line.bounding_box()
            panel = page.locator("#history-box").bounding_box()
            assert box is not None and panel is not None
            assert box["x"] >= panel["x"] and \
                box["x"] + box["width"] <= panel["x"] + panel["width"], size
            assert page.evaluate("() => document.documentElement.scrollWidth") <= \
                page.viewport_size["width"], size
            shot(page, f"s62t2-hand-list-{size}")
    finally:
        for ctx in contexts:
            ctx.close()
