"""A player the host removes is told so (issue 26: "a removed player is told
nothing"), in Debian's Chromium through Playwright, a real server and real
cookies: Ann hosts on a 1440x900 desktop; Bob (a phone) sits and closes his page
(away), Cy (a phone) sits out with his page open; the host removes both (only an
away or sitting-out player may be removed).

- Cy's page says so and keeps saying it after the toast has gone (on main: a
  toast for 4 s, then only "You are watching").
- Bob, opening the table again from the same browser, is told he was removed (on
  main: nothing, the table as any newcomer sees it); sitting down again, the
  notice goes and is not said again.

Screenshots: test-artifacts/web/removed-*.png.
"""

from __future__ import annotations

from typing import Any

import pytest
from table_ui import (
    DESKTOP,
    PHONE,
    new_table,
    open_as_host,
    record_toasts,
    shot,
    sit,
    sit_with_enter,
    wait_toast_shown,
    wait_until,
)
from web_harness import ServerThread

from rollem.server.host import REMOVED_NOW

pytestmark = pytest.mark.browser

NOTICE_SAYS = "text => document.getElementById('notice').innerText.includes(text)"
NOTICE_SAYS_NOT = "text => !document.getElementById('notice').innerText.includes(text)"
REMOVABLE = """who => [...document.querySelectorAll('#host-box li')].some(li =>
  li.textContent.includes(who) && li.querySelector('[data-host=remove]:not([disabled])'))"""


def test_a_player_removed_is_told_now_and_when_they_come_back(browser: Any,
                                                             live: ServerThread) -> None:
    host_ctx = browser.new_context(viewport=DESKTOP)
    bob_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    cy_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        tid, host_token = new_table(live.url, game="holdem", seats=4, bots=1)
        ann = open_as_host(host_ctx, live.url, tid, host_token)
        sit_with_enter(ann, "Ann")
        bob = bob_ctx.new_page()
        bob.goto(f"{live.url}/t/{tid}")
        sit(bob, "Bob")
        cy = cy_ctx.new_page()
        cy.goto(f"{live.url}/t/{tid}")
        sit(cy, "Cy")
        bob.close()                                   # Bob is away
        cy.click("#me [data-action=sit-out]")   # Cy sits out, his page open
        ann.click("#host-box summary")
        record_toasts(cy)
        for who in ("Bob", "Cy"):
            wait_until(ann, REMOVABLE, who)   # (away, or sitting out)
            ann.locator(f"#host-box li:has-text('{who}') [data-host=remove]").click()
            ann.wait_for_selector(f"#host-box li:has-text('{who}')", state="detached")
        # Cy: told at once (the toast), and still told once the toast has gone (below:
        # Bob comes back while Cy's toast shows its 4 s, stop 61).
        wait_toast_shown(cy, REMOVED_NOW)
        # Bob comes back from the same browser: told.
        bob = bob_ctx.new_page()
        bob.goto(f"{live.url}/t/{tid}")
        bob.wait_for_selector("#join:not(.hidden)")
        wait_until(bob, NOTICE_SAYS, REMOVED_NOW)
        shot(bob, "removed-phone-back")
        # He sits down again: no longer told, nor when he opens the table again.
        sit(bob, "Bob")
        wait_until(bob, NOTICE_SAYS_NOT, REMOVED_NOW)
        bob.reload()
        bob.wait_for_selector(".me .name:has-text('Bob')")
        bob.wait_for_timeout(500)
        assert REMOVED_NOW not in bob.inner_text("#notice")
        # Cy, the toast gone: still told.
        cy.wait_for_selector("#toast.hidden", state="attached", timeout=10_000)
        wait_until(cy, NOTICE_SAYS, REMOVED_NOW)
        assert cy.is_visible("#join")
        shot(cy, "removed-phone-page-open")
    finally:
        host_ctx.close()
        bob_ctx.close()
        cy_ctx.close()
