"""A player back after their seat was given up is told why once at a time
(s57-tidy), in Chromium through Playwright at 390x844 and 1440x900: the toast
and the notice said the same long sentence on top of each other.  Now the toast
says it, and the notice (which keeps saying it until they sit down, issue 26)
takes it up once the toast has gone.  Screenshots:
test-artifacts/web/gone-said-once-*.png.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from table_ui import context, shot, sit, wait_until
from web_harness import ServerThread, create_table

pytestmark = pytest.mark.browser

GONE = ("Your page was closed for longer than the reconnect grace period (1 s), so your "
        "seat was given up: you are watching now. Your chips stay on the ledger; sit down "
        "again from this browser to play on with them.")
SEEN = """() => {
  const t = document.getElementById('toast'), n = document.getElementById('notice');
  return {toast: t.classList.contains('hidden') ? null : t.textContent,
          notice: n.classList.contains('hidden') ? '' : n.textContent};
}"""


OBSERVE = """() => { window.__seen = [];
  const look = () => {
    const t = document.getElementById('toast'), n = document.getElementById('notice');
    window.__seen.push([t.classList.contains('hidden') ? null : t.textContent,
                        n.classList.contains('hidden') ? '' : n.textContent]);
  };
  for (const id of ['toast', 'notice']) new MutationObserver(look).observe(
    document.getElementById(id), {attributes: true, childList: true,
                                  subtree: true, characterData: true});
  look(); }"""
"""Record the toast and the notice at every change of either (``window.__seen``)."""


def test_the_seat_given_up_is_said_by_the_toast_then_by_the_notice_never_both(
        browser: Any, live: ServerThread) -> None:
    """Bob on a phone (390x844) and Cy on a desktop (1440x900), at one table, both
    pages closed past the grace period and opened again: each page's toast says it,
    then its notice, never both.  (One table for both sizes, their toasts' 4 s at the
    same time, stop 61: each size had a table and a toast of its own before.)"""
    tid, _host = create_table(live.url, game="sdr", seats=3, bots=0, grace_seconds=1.0)
    table = live.manager.get(tid)
    url = f"{live.url}/t/{tid}"
    people = {"phone": "Bob", "desktop": "Cy"}
    contexts = {size: context(browser, size) for size in people}
    try:
        pages = {size: ctx.new_page() for size, ctx in contexts.items()}
        for size, page in pages.items():
            page.goto(url)
            page.wait_for_selector("#join:not(.hidden)")
            sit(page, people[size])
        for page in pages.values():
            page.goto("about:blank")  # the phone sleeps, the laptop shuts
        end = time.monotonic() + 20
        while live.call(lambda: any(s.row.name in ("Bob", "Cy") for s in table.seats.values())):
            assert time.monotonic() < end, "the seats were never given up"
            time.sleep(0.1)
        for page in pages.values():
            page.goto(url)
            page.evaluate(OBSERVE)
        for size, page in pages.items():
            wait_until(page, "g => (window.__seen || []).some(([t]) => t === g)", GONE)
            seen: dict[str, Any] = page.evaluate(SEEN)
            if seen["toast"] == GONE:   # (a loaded machine may be past the 4 s already)
                assert GONE not in seen["notice"], seen
                shot(page, f"gone-said-once-{size}-toast")
        for size, page in pages.items():
            # the toast gone, the notice says it, once
            wait_until(page, f"() => ({SEEN})().toast === null")
            wait_until(page, f"() => ({SEEN})().notice.includes({GONE!r})")
            assert page.evaluate(SEEN)["notice"].count("seat was given up") == 1
            # never both at once, at any change of either
            both = page.evaluate(
                "g => window.__seen.filter(([t, n]) => t === g && n.includes(g))", GONE)
            assert both == [], both
            shot(page, f"gone-said-once-{size}-notice")
    finally:
        for ctx in contexts.values():
            ctx.close()
