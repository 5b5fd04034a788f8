"""A winner's tag names its pot where the hand had side pots, in Debian's Chromium
through Playwright at 390x844 and 1440x900 (stop 54's newcomer).

A 5-2-1 hand with a side pot drew two tags on one seat, "wins 22 (high)" and "wins
7 (high)": which half, not which pot, where the result said "main pot" and "side
pot 1". Each tag now says both, in the result's words: "wins 22 (main pot, high)",
"wins 7 (side pot 1, high)"; a hand of one pot keeps "wins 9 (high)".

The hand's result is drawn over the page's own after hand 1 (as
test_little_things_browser.py does): the pots of the newcomer's hand, the result
told from them (no narration: panels.js's words), so every part is known.
Screenshots: test-artifacts/web/felt-won-pots-*.png.
"""

from __future__ import annotations

from typing import Any

import pytest
from table_ui import (
    context,
    new_table,
    only_checking_bots,
    open_as_host,
    play_to_the_result,
    shot,
    sit_with_enter,
)
from web_harness import ServerThread

pytestmark = pytest.mark.browser

# Draw ``pots`` as hand 1's result (no narration), return each seat's tags and the
# result's lines.
DRAW_POTS = r"""async (pots) => {
  const { hooks, S } = await import('/static/table/state.js');
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const next = structuredClone(S.state);
  next.hand.result.pots = pots;
  next.hand.result.shown = {};
  next.hand.narration = null;
  next.seq = (next.seq || 0) + 1;
  hooks.render(next, S.state); S.state = next;
  for (let k = 0; k < 4; k++) await frame();
  const tags = {};
  for (const w of document.querySelectorAll('.won-part')) {
    const at = w.closest('[data-seat]');
    const where = at ? at.dataset.seat : (w.closest('.me') ? 'me' : '?');
    (tags[where] = tags[where] || []).push([w.textContent, w.dataset.pot || null]);
  }
  const outside = [...document.querySelectorAll('#seats .won-part')].filter((w) => {
    const t = w.closest('.seat').getBoundingClientRect(), b = w.getBoundingClientRect();
    return b.left < t.left - 0.5 || b.right > t.right + 0.5; }).map((w) => w.textContent);
  const lines = [...document.querySelectorAll('#result .narration li')].map((l) => l.textContent);
  return { tags, outside, lines };
}"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_winners_tags_name_the_pot_when_there_are_side_pots(
        browser: Any, live: ServerThread, size: str) -> None:
    ctx = context(browser, size)
    try:
        tid, host_token = new_table(live.url, game="holdem", seats=3, bots=2)
        only_checking_bots(live, tid)
        page = open_as_host(ctx, live.url, tid, host_token)
        sit_with_enter(page, "Ann")
        table = live.manager.get(tid)
        me = next(n for n, s in table.seats.items() if s.row.name == "Ann")
        b1, b2 = sorted(n for n in table.seats if n != me)
        page.click("#start-btn")
        play_to_the_result(page, live, tid)
        # the newcomer's hand: b1 high in both pots, Ann low in the main pot, b2 low
        # in the side pot (Ann not in it)
        pots = [{"amount": 44, "eligible": [me, b1, b2], "winners": {b1: 22, me: 22},
                 "high": {b1: 22}, "low": {me: 22}},
                {"amount": 14, "eligible": [b1, b2], "winners": {b1: 7, b2: 7},
                 "high": {b1: 7}, "low": {b2: 7}}]
        got = page.evaluate(DRAW_POTS, pots)
        shot(page, f"felt-won-pots-{size}")
        assert got["tags"][str(b1)] == [["wins 22 (main pot, high)", "main pot"],
                                        ["wins 7 (side pot 1, high)", "side pot 1"]], got
        assert got["tags"][str(b2)] == [["wins 7 (side pot 1, low)", "side pot 1"]], got
        assert got["tags"]["me"] == [["wins 22 (main pot, low)", "main pot"]], got
        assert got["outside"] == [], got
        # the result's words for the same parts
        assert any("wins 22 of main pot (44), high half" in t for t in got["lines"]), got
        assert any("wins 7 of side pot 1 (14), high half" in t for t in got["lines"]), got
        # one pot (a whole one to a seat, a split one by halves): no pot named
        got = page.evaluate(DRAW_POTS, [{"amount": 18, "eligible": [me, b1, b2],
                                         "winners": {b1: 9, b2: 9}, "high": {b1: 9},
                                         "low": {b2: 9}}])
        assert got["tags"] == {str(b1): [["wins 9 (high)", None]],
                               str(b2): [["wins 9 (low)", None]]}, got
        got = page.evaluate(DRAW_POTS, [{"amount": 30, "eligible": [me, b1, b2],
                                         "winners": {b1: 20}}, {"amount": 10,
                                         "eligible": [b1, b2], "winners": {b1: 10}}])
        # (one seat's whole of both pots: one tag, s61-night's test_s61_night_browser.py)
        assert got["tags"] == {str(b1): [["wins 30 (both pots)", "both pots"]]}, got
        shot(page, f"felt-won-pots-{size}-whole")
    finally:
        ctx.close()
