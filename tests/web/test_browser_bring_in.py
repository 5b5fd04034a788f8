"""The web table's buttons at a stud bring-in (the tester's report, as in the
terminal): the seat that must bring it in sees "Bring in for 1" and "Complete
to 2", not "Call" and "Bet"; the next seat, facing the bring-in, sees
"Complete to 2", not "Raise to 2"."""

from __future__ import annotations

import time
from typing import Any

import pytest
from table_ui import DESKTOP, PHONE, create_via_form, shot, sit
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


def _prompt(page: Any) -> str:
    """The decision's prompt line (``Your turn · ...``), less the pot a phone's says
    at its end (s62-night: " · pot 3", checked here against the felt's)."""
    text = str(page.inner_text("#controls .prompt-line"))
    if page.viewport_size["width"] < 900:
        total = page.get_attribute("#pots .pot-total", "data-total")
        assert text.endswith(f" · pot {total}"), (text, total)
        text = text.removesuffix(f" · pot {total}")
    return text


def test_stud_bring_in_buttons(browser: Any, live: ServerThread) -> None:
    """Stop 53: the seat bringing it in reads "your up card brings it in", not
    "to call 1" (nobody has bet; main: "Your turn · to call 1"); the next seat,
    facing it, "to call 1".  One page a desktop, the other a phone."""
    ctx = [browser.new_context(viewport=DESKTOP),
           browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)]
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
        assert _prompt(bringer) == "Your turn · your up card brings it in"
        shot(bringer, "bring-in-" + ("desktop" if bringer is host else "phone"))
        bringer.locator("#controls [data-action=call]").click(timeout=1500)
        other = friend if bringer is host else host
        _, buttons = _wait_for([other], "raise")
        assert buttons["call"] == "Call 1" and buttons["raise"] == "Complete to 2", buttons
        assert _prompt(other) == "Your turn · to call 1"
        shot(other, "bring-in-faced-" + ("desktop" if other is host else "phone"))
    finally:
        for c in ctx:
            c.close()
