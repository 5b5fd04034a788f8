"""s65-table, in a real browser (Debian's Chromium through Playwright) at 390x844
and 1440x900: the practice odds' "updating…" mark (s64-table) follows the odds
line's last word, also where a long line (5-2-1's, with its declaration shares)
wraps on a phone.  Before, the line and the mark were two items of the odds row:
a long line took the phone's whole row and "updating…" went to a row of its own.

Screenshots test-artifacts/web/s65t-*.png."""

from __future__ import annotations

from typing import Any

import pytest
from table_ui import (
    context,
    new_table,
    only_checking_bots,
    open_as_host,
    shot,
    sit_with_enter,
    wait_until,
)
from web_harness import ServerThread

pytestmark = pytest.mark.browser

LONG = ("Your odds: win 34% · tie 2% · equity 41% · best declaration: high (share if "
        "declared: high 41%, low 12%, both 8%) · most likely pair 38% (Monte Carlo, "
        "20,000 samples)")
"""A 5-2-1 line as odds.js words it (``oddsText``): the longest kind."""

MARK = """(text) => {
  const line = document.getElementById('odds-line');
  const mark = document.getElementById('odds-updating');
  line.textContent = text;                       // (as odds.js marks it: paintUpdating)
  line.classList.add('updating'); line.setAttribute('aria-busy', 'true');
  mark.classList.remove('hidden');
  const words = document.createRange(); words.selectNodeContents(line);
  const rows = words.getClientRects(), last = rows[rows.length - 1];  // (its text's rows)
  const m = mark.getBoundingClientRect();
  return { rows: rows.length, lastTop: last.top, lastBottom: last.bottom,
           lastRight: last.right, top: m.top, bottom: m.bottom, left: m.left,
           right: m.right, width: window.innerWidth };
}"""
"""Show ``text`` marked "updating…" and measure the line's rows and the mark."""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_updating_sits_on_the_odds_line(browser: Any, live: ServerThread, size: str) -> None:
    ctx = context(browser, size)
    try:
        tid, host = new_table(live.url, game="holdem", seats=2, bots=1, practice_odds=True)
        only_checking_bots(live, tid)
        page = open_as_host(ctx, live.url, tid, host)
        sit_with_enter(page, "Ann")
        page.check("#odds-toggle")
        page.click("#start-btn")
        wait_until(page, "() => /^Your odds: (win|equity)/.test("
                   "document.getElementById('odds-line').textContent)", timeout=120)
        for text in (LONG, "Your odds: win 52% · tie 3% · equity 54% (exact, 990 outcomes)"):
            got = page.evaluate(MARK, text)
            assert got["rows"] > 1 or text != LONG, got  # (the long line wraps, both sizes)
            # the mark is on the line's last row, after its last word, on the screen
            # (main, phone: a row of its own under the line)
            assert got["top"] < got["lastBottom"] and got["bottom"] > got["lastTop"], got
            assert got["left"] >= got["lastRight"] - 1, got
            assert got["right"] <= got["width"], got
            assert page.locator("#odds-updating").is_visible()
        page.evaluate(MARK, LONG)
        page.locator("#odds-box").scroll_into_view_if_needed()
        shot(page, f"s65t-{size}-odds-updating-long")
    finally:
        ctx.close()
