"""A name in the table's own words is refused in the sit form (stop 57, s57-names),
in Debian's Chromium through Playwright at 390x844 and 1440x900: a stranger who
types "Ann (host)" (or "seat 3") and presses "Sit down" stays a watcher, and the
form says what is wrong and what is allowed, under the button, inside the
screen; the same person then sits as "Ann"."""

from __future__ import annotations

from typing import Any

import pytest
from table_ui import context, new_table, record_toasts, shot, wait_toast_shown, wait_until
from web_harness import ServerThread

pytestmark = pytest.mark.browser

SAYS = {
    "Ann (host)": "'Ann (host)' holds '(host)', which the page itself writes after players' "
                  "names (such as '(you)', '(host)', '(left)' or '· away'); choose your own "
                  "name without it",
    "seat 3": "'seat 3' reads as the table's name for a seat ('seat' and its number, as in "
              "'seat 3'); choose your own name",
}


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_sit_form_says_why_a_name_in_the_tables_words_is_refused(
        browser: Any, live: ServerThread, size: str) -> None:
    tid, _host = new_table(live.url, game="holdem", seats=4, bots=1)
    table = live.manager.get(tid)
    ctx = context(browser, size)
    try:
        page = ctx.new_page()
        page.goto(f"{live.url}/t/{tid}")
        page.wait_for_selector("#join:not(.hidden)")
        record_toasts(page)
        [bot] = [s.row.name for s in table.seats.values()]   # the computer player
        for name, says in SAYS.items():
            page.fill("#join-name", name)
            page.click("#join-btn")
            wait_until(page, "says => document.getElementById('join-error').textContent === says",
                       says)
            wait_toast_shown(page, says)
            # still a watcher: the form stays, nobody of that name sits (main: seated)
            assert page.locator("#join").is_visible()
            assert [s.row.name for s in table.seats.values()] == [bot]
            box = page.locator("#join-error").bounding_box()
            width = page.viewport_size["width"]
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
            page.locator("#join-error").scroll_into_view_if_needed()
            shot(page, f"table-words-name-{size}-{name.split()[-1].strip('()')}")
        page.fill("#join-name", "Ann")
        page.click("#join-btn")
        page.wait_for_selector(".me .name:has-text('Ann (you)')")
        assert page.locator("#join-error").text_content() == ""
    finally:
        ctx.close()
