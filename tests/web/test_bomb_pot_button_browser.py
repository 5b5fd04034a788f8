"""The host's **Bomb pot next hand** at a table none of whose games can have one
(try-out of stop 52: it was offered at a stud table, and pressing it only gave
a toast), in Debian's Chromium through Playwright, on a phone (390x844) and a
desktop (1440x900): at a stud table the button is disabled with the reason
beside it (the state's ``table.bomb_pot_refusal``), nothing sent; once the
host changes to hold'em it is enabled, the reason gone, and calls one.  The
settings form (stop 53) offers neither run it twice nor bomb pots while stud is
picked, saying why (the host's ``you.option_refusals``), and both once hold'em is.
axe-core finds no serious violation in the host's row (where it is installed).
Screenshots: test-artifacts/web/bomb-button-{stud,holdem}-*.png,
host-form-stud-*.png."""

from __future__ import annotations

from typing import Any

import pytest
from table_ui import (
    DESKTOP,
    PHONE,
    hosted_table,
    shot,
    viewport_context,
    wait_until,
)
from test_a11y_browser import AXE, axe_problems
from web_harness import ServerThread

pytestmark = pytest.mark.browser

BOMB = "#host-controls [data-host=bomb_pot]"


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_bomb_pot_button_says_why_at_a_stud_table(
        browser: Any, live: ServerThread, viewport: dict[str, int]) -> None:
    name = "phone" if viewport is PHONE else "desktop"
    ctx = viewport_context(browser, viewport, bypass_csp=True)
    try:
        _tid, _host, table, page = hosted_table(live, ctx, checking_bots=False, game="stud",
                                               seats=3, bots=2)
        if not page.is_visible(BOMB):
            page.click("#host-box summary")
        page.wait_for_selector(BOMB)
        assert page.is_disabled(BOMB)
        why = page.locator("#bomb-pot-why")
        assert why.is_visible()
        assert why.inner_text().startswith("Seven-Card Stud has no bomb pots: its first "
                                           "betting round is not followed by shared cards")
        assert page.get_attribute(BOMB, "aria-describedby") == "bomb-pot-why"
        # the reason wraps inside the page (no sideways scrolling on a phone)
        assert page.evaluate("() => document.documentElement.scrollWidth"
                             " <= document.documentElement.clientWidth")
        page.locator("#host-controls .host-row").scroll_into_view_if_needed()
        shot(page, f"bomb-button-stud-{name}")
        problems = axe_problems(page, f"{name} stud host row") if AXE.exists() else []
        assert problems == [], "\n".join(problems)
        page.click(BOMB, force=True)  # (disabled: nothing is sent)
        page.wait_for_timeout(300)
        assert not live.call(lambda: bool(table.session.get("bomb_pot_next")))
        # The settings form offers neither run it twice nor bomb pots at stud, and
        # says why (stop 53: both were offered, the change refused by the server).
        form = page.locator("#host-controls form")
        twice, every = form.locator("select[name=run_twice]"), form.locator(
            "input[name=bomb_pot_every]")
        assert twice.is_disabled() and twice.input_value() == "false"
        assert every.is_disabled() and every.input_value() == "0"
        assert form.locator("input[name=bomb_pot_ante]").is_disabled()
        twice_why, bomb_why = page.locator("#option-why-run_twice"), page.locator(
            "#option-why-bomb_pot")
        assert twice_why.is_visible() and bomb_why.is_visible()
        assert twice_why.inner_text().startswith(
            "Seven-Card Stud never runs it twice: it has no shared cards still to come")
        assert bomb_why.inner_text().startswith("Seven-Card Stud has no bomb pots")
        assert twice.get_attribute("aria-describedby") == "option-why-run_twice"
        assert page.evaluate("() => document.documentElement.scrollWidth"
                             " <= document.documentElement.clientWidth")
        form.scroll_into_view_if_needed()
        shot(page, f"host-form-stud-{name}")
        # Hold'em picked in the form: both offered again, the reasons hidden.
        form.locator("select[name=game]").select_option("holdem")
        assert twice.is_enabled() and every.is_enabled()
        assert not twice_why.is_visible() and not bomb_why.is_visible()
        assert twice.get_attribute("aria-describedby") is None
        # The host changes to hold'em: the button is offered, the reason gone.
        form.locator("[data-host=config]").click()
        wait_until(page, "() => !document.querySelector("
                         "'#host-controls [data-host=bomb_pot]').disabled")
        assert page.locator("#bomb-pot-why").count() == 0
        assert page.get_attribute(BOMB, "aria-describedby") is None
        page.click(BOMB)
        wait_until(page, "() => document.querySelector('#host-controls [data-host=bomb_pot]')"
                         ".getAttribute('aria-pressed') === 'true'")
        assert live.call(lambda: bool(table.session.get("bomb_pot_next")))
        page.locator("#host-controls .host-row").scroll_into_view_if_needed()
        shot(page, f"bomb-button-holdem-{name}")
        # the form drawn again for hold'em: both offered, run it twice taken
        form = page.locator("#host-controls form")
        form.locator("select[name=run_twice]").select_option("true")
        form.locator("[data-host=config]").click()
        wait_until(page, "() => document.querySelector('#host-controls form "
                         "select[name=run_twice]').value === 'true'")
        assert live.call(lambda: table.config.run_twice)
    finally:
        ctx.close()
