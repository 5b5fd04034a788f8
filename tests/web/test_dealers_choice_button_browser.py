"""The dealer button while the next hand's game is named (dealer's choice,
R-C-12; s66-table), at 390x844 and 1440x900 in a real browser (Debian's
Chromium through Playwright): the "D" is drawn at the seat naming the game --
on the felt and in that player's own dock -- not at the last hand's button (nor
nowhere before the first hand), as it was.

Screenshots test-artifacts/web/s66-choice-button-*.png."""

from __future__ import annotations

import time
from typing import Any

import pytest
from table_ui import context, decision_kind, new_table, open_as_host, shot, sit
from web_harness import ServerThread

pytestmark = pytest.mark.browser


def _d_on(page: Any, name: str) -> bool:
    """Whether ``page``'s felt draws the dealer button on ``name``'s tile."""
    return bool(page.locator(f".seat:has(.name:text-is('{name}')) .button-chip").count())


def _fold_or_check(page: Any) -> None:
    """``page``'s betting decision, if any: fold to a bet, else check."""
    if decision_kind(page) != "bet":
        return
    action = page.evaluate("""() => {
      const c = document.querySelector('#controls');
      if (c && c.querySelector('[data-action=call]')) return 'fold';
      return c && c.querySelector('[data-action=check]') ? 'check' : null;
    }""")
    if action is not None:
        page.locator(f"#controls [data-action={action}]").first.click()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_button_is_drawn_at_the_seat_naming_the_game(
        browser: Any, live: ServerThread, size: str) -> None:
    tid, host = new_table(live.url, game="dealers-choice", seats=2, bots=0,
                          choices=["sdr", "holdem"], between_hands=0.5)
    contexts = [context(browser, size), context(browser, size)]
    try:
        ann = open_as_host(contexts[0], live.url, tid, host)
        sit(ann, "Ann")  # (seat 0: the button of hand 1)
        bob = contexts[1].new_page()
        bob.goto(f"{live.url}/t/{tid}")
        sit(bob, "Bob")
        ann.click("#start-btn")
        # Hand 1's game: Ann names it; the D is hers (none was drawn before)
        ann.wait_for_selector("#controls [data-game=holdem]")
        ann.locator(".me .button-chip").wait_for()
        bob.wait_for_function("() => !!document.querySelector('.seat .button-chip')")
        assert _d_on(bob, "Ann") and bob.locator(".me .button-chip").count() == 0
        shot(ann, f"s66-choice-button-{size}-first-ann")
        ann.click("#controls [data-game=holdem]")
        # Hand 1 played out (a fold ends it); hand 2's game: Bob names it
        end = time.monotonic() + 60
        while not bob.locator("#controls [data-game=holdem]").count():
            assert time.monotonic() < end, "Bob was never asked to name hand 2's game"
            for page in (ann, bob):
                _fold_or_check(page)
            bob.wait_for_timeout(100)
        bob.locator(".me .button-chip").wait_for()
        ann.wait_for_function(
            "() => !document.querySelector('.me .button-chip')"
            " && !!document.querySelector('.seat .button-chip')")
        assert _d_on(ann, "Bob") and not _d_on(bob, "Ann")
        assert "names the game" in ann.inner_text("#felt")
        shot(ann, f"s66-choice-button-{size}-second-ann")
        shot(bob, f"s66-choice-button-{size}-second-bob")
    finally:
        for ctx in contexts:
            ctx.close()
