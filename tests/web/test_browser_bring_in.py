"""The web table's buttons at a stud bring-in (the tester's report, as in the
terminal): the seat that must bring it in sees "Bring in for 1" and "Complete
to 2", not "Call" and "Bet"; the next seat, facing the bring-in, sees
"Complete to 2", not "Raise to 2"."""

from __future__ import annotations

import time
from typing import Any

import pytest
from table_ui import create_via_form, sit
from web_harness import ServerThread

pytestmark = pytest.mark.browser


def _buttons(page: Any) -> dict[str, str]:
    """``data-action`` -> text of the decision buttons now on the page."""
    found = page.evaluate("""() => [...document.querySelectorAll('#controls button.act')]
      .map(b => [b.dataset.action, b.textContent])""")
    return {str(a): str(t) for a, t in found}


def _wait_for(pages: list[Any], action: str) -> tuple[Any, dict[str, str]]:
    deadline = time.time() + 30
    while time.time() < deadline:
        for page in pages:
            buttons = _buttons(page)
            if action in buttons:
                return page, buttons
        pages[0].wait_for_timeout(80)
    raise AssertionError(f"no page offered {action!r}")


def test_stud_bring_in_buttons(browser: Any, live: ServerThread) -> None:
    ctx = [browser.new_context(viewport={"width": 1100, "height": 900}) for _ in range(2)]
    try:
        host, friend = (c.new_page() for c in ctx)
        url = create_via_form(host, live.url, "stud", seats=2, bots=0)
        sit(host, "Ann")
        friend.goto(url)
        sit(friend, "Bob")
        host.wait_for_selector("#start-btn")
        host.click("#start-btn")
        # heads-up stud: one of the two must bring it in (antes 1, bring-in 1, bets 2)
        bringer, buttons = _wait_for([host, friend], "call")
        assert buttons == {"call": "Bring in for 1", "bet": "Complete to 2"}, buttons
        bringer.locator("#controls [data-action=call]").click(timeout=1500)
        other = friend if bringer is host else host
        _, buttons = _wait_for([other], "raise")
        assert buttons["call"] == "Call 1" and buttons["raise"] == "Complete to 2", buttons
    finally:
        for c in ctx:
            c.close()
