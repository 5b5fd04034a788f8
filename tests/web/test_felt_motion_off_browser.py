"""The animation and sound layer switched off (issue 26's benchmark,
``bench/bench_felt_motion.py``, draws the same states with it on and off): with
``?motion=none`` in the table's address, or ``data-motion="none"`` on the page's
root, a state's drawing calls nothing of motion.js: nothing waits hidden, nothing
deals in, no animation runs and no sound plays; the attribute taken away, the same
drawing moves and sounds again.  Debian's Chromium through Playwright at 390x844
(the benchmark's phone; the switch has nothing to draw of its own at 1440x900).
"""

from __future__ import annotations

from typing import Any

import pytest
from table_ui import (
    context,
    new_table,
    only_checking_bots,
    open_as_host,
    sit_with_enter,
    wait_first_bet,
)
from test_felt_browser import FAKE_AUDIO
from web_harness import ServerThread

pytestmark = pytest.mark.browser

OFF_THEN_ON = r"""async () => {
  // The state in play drawn over a state of another hand (every row dealt in again),
  // motion off, then the same again with motion on; each followed by ten frames.
  const { hooks, S } = await import('/static/table/state.js');
  const now = S.state;
  const other = structuredClone(now);
  other.hand.hand_no = now.hand.hand_no - 1;
  const root = document.documentElement;
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const starts = () => performance.getEntriesByName('rollem-animate')
    .filter((e) => e.detail === 'start' || e.detail === 'sounds').length;
  const draw = async () => {
    const heard = window.__sounds.length, started = starts();
    hooks.render(structuredClone(now), other);
    const waiting = document.querySelectorAll('.move-wait').length;
    for (let i = 0; i < 10; i++) await frame();
    return {waiting, started: starts() - started,
            dealing: document.querySelectorAll('#seats .deal-in, #me .deal-in').length,
            animations: document.getAnimations().length,
            sounds: window.__sounds.slice(heard)};
  };
  const off = root.dataset.motion === 'none' ? await draw() : null;
  delete root.dataset.motion;
  const on = await draw();
  return {off, on};
}"""


def test_motion_none_draws_a_state_with_no_motion_and_no_sound(
        browser: Any, live: ServerThread) -> None:
    """Hold'em, Ann and two checking computer players, sound on, the page opened at
    ``?motion=none``, at Ann's first decision.  The state drawn over another hand's:
    no element waits hidden, none deals in, no start runs, no animation, no sound.
    The root's attribute taken away, the same drawing hides the rows for their
    start, starts them in one or more pieces, deals Ann's and both opponents' rows
    in (3) and plays the deal's sound (noise)."""
    ctx = context(browser, "phone", reduced_motion="no-preference")
    ctx.add_init_script("localStorage.setItem('rollem_alerts', '1');")
    ctx.add_init_script(FAKE_AUDIO)
    try:
        tid, host_token = new_table(live.url, game="holdem", seats=3, bots=2)
        only_checking_bots(live, tid)
        page = open_as_host(ctx, live.url, tid, host_token, "?motion=none")
        sit_with_enter(page, "Ann")
        page.click("#start-btn")
        wait_first_bet(page)
        page.wait_for_timeout(300)
        got = page.evaluate(OFF_THEN_ON)
        assert got["off"] == {"waiting": 0, "started": 0, "dealing": 0, "animations": 0,
                              "sounds": []}, got
        on = got["on"]
        # the start runs in pieces (at most 4 elements a frame: motion.js MOVES_A_FRAME)
        assert on["waiting"] >= 3 and 1 <= on["started"] <= on["waiting"], got
        assert on["dealing"] == 3, got
        assert "noise" in on["sounds"], got   # (the deal's sound)
    finally:
        ctx.close()
