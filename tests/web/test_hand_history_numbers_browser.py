"""The hand history's list, in Debian's Chromium through Playwright at 390x844 and
1440x900 (stop 52, a friend group's look at the table).

The list shows the newest hand first, in a numbered list: "1. Hand 5 · Stop, Drop
and Roll" ... "5. Hand 1 · ...", the list's number contradicting the hand's.  Each
entry names its hand; the list now shows no number of its own.

Screenshots: test-artifacts/web/history-numbers-*.png.
"""

from __future__ import annotations

import re

import pytest
from table_ui import Pages, shot, wait_until
from test_felt_leftovers_browser import start
from test_hand_lists_browser import play_hands
from web_harness import ServerThread

pytestmark = pytest.mark.browser

SHOWN_NUMBERS = """() => {
  // the number the page shows before each entry of the hand list, or null for none
  const ol = document.querySelector('#history');
  const items = [...ol.querySelectorAll(':scope > li')];
  return items.map((li, i) => {
    const kind = getComputedStyle(li).listStyleType;
    const marker = getComputedStyle(li, '::marker').content;
    if (kind === 'none' || marker === 'none' || marker === '""') return [li.textContent, null];
    const n = ol.reversed ? (ol.start > 0 && ol.hasAttribute('start') ? ol.start : items.length) - i
      : (ol.hasAttribute('start') ? ol.start : 1) + i;
    return [li.textContent, li.value > 0 && li.hasAttribute('value') ? li.value : n];
  });
}"""


def test_the_hand_list_shows_no_number_but_each_hands_own(
        pages: Pages, live: ServerThread) -> None:
    """Hold'em, two seats, three hands played on Ann's phone (390x844), the list read
    there and on a second page of hers at 1440x900 (her cookies: the same player; one
    table at both sizes, stop 72): the history lists hands 3, 2, 1 (the newest first)
    and no entry has a number before it other than its hand's."""
    with pages.open("phone") as page:
        tid = start(page, live, "holdem", 2, between_hands=0.3)
        play_hands(page, 3)
        with pages.open("desktop", keep=page) as desk:
            desk.context.add_cookies(page.context.cookies())
            desk.goto(f"{live.url}/t/{tid}")
            desk.locator(".me").first.wait_for()
            for size, p in (("phone", page), ("desktop", desk)):
                p.click("#history-box summary")
                wait_until(p, "() => document.querySelectorAll('#history [data-hand]')"
                              ".length >= 3")
                p.locator("#history-box").evaluate("(e) => e.scrollIntoView({block: 'center'})")
                shown = p.evaluate(SHOWN_NUMBERS)
                shot(p, f"history-numbers-{size}")
                hands = [int(re.match(r"Hand (\d+)", text).group(1))  # type: ignore[union-attr]
                         for text, _ in shown]
                assert hands[:3] == sorted(hands[:3], reverse=True) and hands[-1] == 1, \
                    (size, shown)
                wrong = [(text, n) for text, n in shown
                         if n is not None and f"Hand {n} " not in text + " "]
                assert wrong == [], (size, wrong)
