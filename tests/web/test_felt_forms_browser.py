"""The felt's form controls and the browser's own work (issue 26), in Debian's
Chromium through Playwright at 390x844 and 1440x900: what the page does so that
Chromium's autofill and focus handling add no long task at a tap or a hand's end
(their times are bench/bench_web_felt.py's, not a test's; docs/dev/felt-frames.md).

- The host's controls (their row of buttons, the seats' list, the stakes form) are
  not drawn anew at a hand's start and end: the stakes form's number fields are the
  same elements from before the deal to after the hand; "Deal now" is added and
  removed alone.
- The bet amount's fields (slider, number) are made once and kept in the controls
  from one of your turns to the next, hidden between (no sizing preset's button
  left in them while hidden).
- A tap (a mouse click) on a button of the dock does not focus it.
- The decision clock's text is set only when it changes (not four times a second).

Screenshots: test-artifacts/web/forms-*.png.
"""

from __future__ import annotations

from typing import Any

import pytest
from table_ui import (
    after_frames,
    context,
    decision_kind,
    new_table,
    only_checking_bots,
    open_as_host,
    shot,
    sit_with_enter,
    wait_until,
)
from web_harness import ServerThread

pytestmark = pytest.mark.browser

CLOCK_WRITES = r"""
window.__clockWrites = 0; window.__tapFocus = [];
// At each click on a button of the controls: whether that button has the focus.
document.addEventListener('click', (ev) => {
  const b = ev.target.closest && ev.target.closest('#controls button');
  if (b) window.__tapFocus.push(document.activeElement === b);
}, true);
// Every change made inside a decision clock (its text replaced, its class set).
document.addEventListener('DOMContentLoaded', () => new MutationObserver((rs) => {
  for (const r of rs) {
    const e = r.target.nodeType === 1 ? r.target : r.target.parentElement;
    if (e && e.closest && e.closest('.clock')) window.__clockWrites++;
  }
}).observe(document.body, {subtree: true, childList: true, characterData: true,
                           attributes: true, attributeFilter: ['class']}));
"""



TAP = "#controls [data-action=check], #controls [data-action=call]"


def my_turn(page: Any) -> None:
    wait_until(page, "sel => !!document.querySelector(sel)", TAP)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_host_form_and_bet_fields_kept_a_tap_leaves_no_focus(browser: Any, live: ServerThread,
                                                             size: str) -> None:
    """Ann hosts a no-limit hold'em table of four (three computer players that only
    check or call) and plays a hand out, checking or calling at each turn with a click.

    - The host's stakes form and its five number fields are the same elements before
      the deal and after the hand's end; "Deal now" is there after the hand.
    - At each of her turns the bet amount's fields are the same two elements (made
      at her first turn), shown; between her turns they are hidden and hold no
      sizing preset's button.
    - At each click on Check or Call the button has not taken the focus.
    - While her clock runs 1.5 s, its element changes at most twice (the second
      shown, not four writes a second).
    On main every one of these fails: the form drawn anew at the deal and the end,
    new fields at each turn, the tapped button focused, the clock's text written at
    every tick."""
    ctx = context(browser, size)
    ctx.add_init_script(CLOCK_WRITES)
    ctx.clock.install()   # (the time runs on as before, but for the clock's 1.5 s below)
    try:
        tid, host_token = new_table(live.url, game="holdem", seats=4, bots=3,
                                    structure="no-limit")
        only_checking_bots(live, tid)
        page = open_as_host(ctx, live.url, tid, host_token)
        sit_with_enter(page, "Ann")
        page.locator("#host-box").evaluate("d => { d.open = true; }")   # (host controls)
        wait_until(page, "() => document.querySelectorAll('#host-controls form input"
                         "[type=number]').length === 5")   # (and the games' checkboxes)
        page.evaluate("""() => { const f = document.querySelector('#host-controls form');
            f.__kept = true; for (const i of f.querySelectorAll('input')) i.__kept = true; }""")
        page.click("#start-btn")
        table = live.manager.get(tid)
        turns = 0
        first = True
        while table.last_result is None:
            if decision_kind(page) != "bet":
                page.wait_for_timeout(30)
                continue
            my_turn(page)
            fields = page.evaluate("""() => [...document.querySelectorAll(
                '#controls [data-slider], #controls [data-amount]')].map(e => ({
                  kept: !!e.__kept, shown: e.offsetParent !== null}))""")
            assert len(fields) == 2 and all(f["shown"] for f in fields), fields
            if first:
                page.evaluate("""() => { for (const e of document.querySelectorAll(
                    '#controls [data-slider], #controls [data-amount]')) e.__kept = true; }""")
                shot(page, f"forms-{size}-bet-fields")
                # (her clock's 1.5 s on the page's clock, every timer due fired: the
                # clock's six ticks, where a real 1.5 s was waited; s73-suite)
                page.clock.pause_at((page.evaluate("Date.now()") + 100) / 1000)
                page.evaluate("() => { window.__clockWrites = 0; }")
                page.clock.run_for(1500)
                writes = page.evaluate("window.__clockWrites")
                page.clock.resume()
                assert page.locator("#me .clock").count() == 1
                assert writes <= 2, writes
                first = False
            else:
                assert all(f["kept"] for f in fields), fields
            seq = table.seq
            page.locator(TAP).first.click()
            assert page.evaluate("window.__tapFocus") == [False] * (turns + 1)
            turns += 1
            wait_until(page, "seq => Number(document.body.dataset.seq) > seq", seq)
            between = page.evaluate("""sel => {
                const w = document.querySelector('#controls .bet-control');
                return document.querySelector(sel) ? null : !w ? 'no fields'
                  : [w.classList.contains('hidden'), w.querySelectorAll('button').length];
              }""", TAP)
            if between is not None:
                assert between == [True, 0], between
        assert turns >= 2, turns
        wait_until(page, "() => !!document.querySelector('#host-controls [data-host=deal_now]')")
        kept = page.evaluate("""() => { const f = document.querySelector('#host-controls form');
            return [!!f.__kept, [...f.querySelectorAll('input')].map(i => !!i.__kept)]; }""")
        assert kept == [True, [True] * (5 + 11 + 1)], kept   # (numbers, games, chip value)
        hidden = page.evaluate("document.querySelector('#controls .bet-control').classList"
                               ".contains('hidden')")
        assert hidden
        after_frames(page)   # (the pot's chips set off: a still shot lands them)
        shot(page, f"forms-{size}-hand-over")
    finally:
        ctx.close()
