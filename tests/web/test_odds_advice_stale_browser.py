"""The practice odds' advice is for the card choice in front of the player now
(s63-fresh): a friend at a Roll Your Own table saw "Advice: best throw 4♣ 8♣ 10♠
(all 20 options)" under "Tap the card to turn face up", after her discard, holding
a 10♠ the advice said to throw: the page kept the last answer's advice until the
next answer came, and on a busy server that is seconds.  Here the answers that
follow the first 5-2-1 draw are held back in the page (as a slow server would):
once the draw is made and the next decision is shown, no advice shows."""

from __future__ import annotations

import time
from typing import Any

import pytest
from table_ui import (
    DESKTOP,
    PHONE,
    decision_kind,
    new_table,
    open_as_host,
    shot,
    sit_with_enter,
    take_decision,
    wait_until,
)
from web_harness import ServerThread

pytestmark = pytest.mark.browser

HOLD_ODDS = """(() => {
  const d = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage');
  Object.defineProperty(WebSocket.prototype, 'onmessage', {
    configurable: true,
    get() { return d.get.call(this); },
    set(fn) {
      d.set.call(this, fn && ((ev) => {
        let odds = false;
        try { odds = JSON.parse(ev.data).type === 'odds'; } catch (e) { /* not JSON */ }
        if (odds && window.__holdOdds) { window.__held = (window.__held || 0) + 1; return; }
        fn(ev);
      }));
    },
  });
})();"""

ADVICE_FOR = """kind => { const a = document.querySelector('#odds-advice');
  return a.dataset.decision === kind && !a.classList.contains('hidden'); }"""
ADVICE_SHOWN = "() => !document.querySelector('#odds-advice').classList.contains('hidden')"


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_advice_for_a_choice_made_goes_with_it(browser: Any, live: ServerThread,
                                               screen: str) -> None:
    view = {"viewport": PHONE, "is_mobile": True, "has_touch": True} if screen == "phone" \
        else {"viewport": DESKTOP}
    ctx = browser.new_context(**view)
    try:
        ctx.add_init_script(HOLD_ODDS)
        tid, host_token = new_table(live.url, game="rollem521", seats=2, bots=1,
                                    practice_odds=True)
        page = open_as_host(ctx, live.url, tid, host_token)
        sit_with_enter(page, "Ann")
        page.check("#odds-toggle")
        page.click("#start-btn")
        deadline = time.time() + 150
        while True:
            assert time.time() < deadline, "no first draw"
            kind = decision_kind(page)
            if kind == "draw":
                break
            if kind is None:
                page.wait_for_timeout(30)
            else:
                take_decision(page, kind)
                page.wait_for_timeout(200)
        # (the advice is CPU-bound in an odds worker: slow on a loaded machine)
        wait_until(page, ADVICE_FOR, "draw", timeout=120)
        shot(page, f"odds-advice-stale-{screen}-draw")
        page.evaluate("() => { window.__holdOdds = true; "
                      "document.querySelector('#controls #confirm').__old = true; }")
        take_decision(page, "draw")
        # the next decision of Ann's (a bet, or the second draw): a new confirm button
        wait_until(page, """() => {
          const c = document.querySelector('#controls');
          if (!c || !c.querySelector('button')) return false;
          const k = c.querySelector('#confirm');
          return !k || !k.__old;
        }""", timeout=60)
        page.wait_for_timeout(300)
        shot(page, f"odds-advice-stale-{screen}-next")
        assert not page.evaluate(ADVICE_SHOWN), (
            "the advice for the draw already made still shows: "
            + page.inner_text("#odds-advice-head"))
    finally:
        ctx.close()
