"""The host's pause as a break at a tournament night (stop 56, branch s56-night;
Debian's Chromium through Playwright, 390x844 and 1440x900).  A friend whose
turn it was not read "Waiting for Ann…" in the dock all through the break
(under the notice that the host paused the table), as though Ann were slow.
Now "Paused by the host: Ann acts when the table resumes.", and "Waiting for
Ann…" again once the host resumes."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from table_ui import context, decision_kind, new_table, open_as_host, shot, sit
from web_harness import ServerThread

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_break_says_who_acts_when_play_resumes(browser: Any, tmp_path: Path,
                                                  size: str) -> None:
    server = ServerThread(tmp_path / "break.db")
    try:
        tid, host = new_table(server.url, game="sdr", seats=3, bots=1, buy_in=10,
                              tournament="turbo", between_hands=0.3)
        ann = open_as_host(context(browser, "desktop"), server.url, tid, host)
        sit(ann, "Ann")
        bob = context(browser, size).new_page()
        bob.goto(f"{server.url}/t/{tid}")
        sit(bob, "Bob")
        ann.click("#start-btn")
        end = time.monotonic() + 60
        # (Bob checks or calls until the turn is Ann's: then he waits for her)
        while decision_kind(ann) is None:
            assert time.monotonic() < end, "Ann's turn never came"
            if decision_kind(bob) is not None:
                bob.evaluate("""() => { const c = document.querySelector('#controls');
                  const b = c.querySelector('[data-action=check], [data-action=call]');
                  if (b) b.click(); }""")
            ann.wait_for_timeout(50)
        prompt = bob.locator("#controls .prompt-line")
        bob.wait_for_selector("#controls .prompt-line:text-is('Waiting for Ann…')")
        ann.locator("summary:has-text('Host controls')").first.click()
        ann.click("[data-host=pause]")
        words = "Paused by the host: Ann acts when the table resumes."
        bob.wait_for_selector(f"#controls .prompt-line:text-is('{words}')")
        assert prompt.inner_text() == words
        assert "paused" in bob.inner_text("#notice")
        box = prompt.bounding_box()
        assert box is not None and box["x"] + box["width"] <= bob.viewport_size["width"]
        shot(bob, f"break-waiting-{size}")
        ann.click("[data-host=resume]")
        bob.wait_for_selector("#controls .prompt-line:text-is('Waiting for Ann…')")
    finally:
        server.stop()
