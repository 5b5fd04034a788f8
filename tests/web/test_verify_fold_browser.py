"""The deck commitment folds on a phone (s57-tidy), in Debian's Chromium through
Playwright at 390x844 and 1440x900: on a phone the block between the felt and
the chat (a 64-digit hash and "Your seed") showed in full every hand; it is now
one line, ``Hand N · deck committed before the deal``, opened with a tap (the
hash, the seed and the copy to check are all still there), and kept open for
the later hands once opened.  On a wider screen it is open as before.
Screenshots: test-artifacts/web/verify-fold-*.png.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from table_ui import (
    DESKTOP,
    PHONE,
    decision_kind,
    hosted_table,
    shot,
    take_decision,
    viewport_context,
)
from web_harness import ServerThread

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_commitment_is_one_line_on_a_phone_and_opens_with_a_tap(
        browser: Any, live: ServerThread, viewport: dict[str, int]) -> None:
    mobile = viewport is PHONE
    ctx = viewport_context(browser, viewport, reduced_motion="reduce")
    try:
        tid, _host, table, page = hosted_table(live, ctx, game="sdr", seats=2, bots=1,
                                               between_hands=600)
        page.click("#start-btn")
        page.wait_for_selector("#verify-commitment", state="attached", timeout=20_000)
        table = live.manager.get(tid)
        assert table is not None
        end = time.monotonic() + 20   # (the commitment is shown while the seeds come)
        while table.hand is None:
            assert time.monotonic() < end, "hand 1 was never dealt"
            page.wait_for_timeout(50)
        deal = table.hand.public_deal()
        assert deal is not None
        box = page.locator("#verify-box")
        head = page.locator("#verify-box > summary")
        assert head.inner_text() == "Hand 1 · deck committed before the deal"
        # the hash is in the page whatever the screen (verify reads it there)
        assert page.text_content("#verify-commitment") == deal["commitment"]
        height = page.locator("#verify").bounding_box()
        assert height is not None
        if mobile:
            assert box.get_attribute("open") is None
            assert not page.locator("#verify-commitment").is_visible()
            assert height["height"] < 60, height   # one line (was ~150 with the hash)
            shot(page, "verify-fold-phone-closed")
            head.click()
            assert box.get_attribute("open") is not None
        else:
            assert box.get_attribute("open") is not None
        assert page.locator("#verify-commitment").is_visible()
        shot(page, f"verify-fold-{'phone' if mobile else 'desktop'}-open")
        # play the hand out: the verdict shows, the box keeps the player's choice
        end = time.monotonic() + 90
        while page.locator("#verify-result").count() == 0:
            assert time.monotonic() < end, "hand 1 never ended"
            kind = decision_kind(page)
            if kind is not None:
                take_decision(page, kind)
            page.wait_for_timeout(100)
        page.wait_for_selector("#verify-result[data-status=ok]", timeout=20_000)
        assert page.locator("#verify-result").is_visible()
        assert page.locator("#verify-box").get_attribute("open") is not None
        assert page.locator("#verify-copy").is_visible()
        if mobile:   # closed again by the player: it stays closed after a redraw
            page.click("#verify-box > summary")
            assert page.locator("#verify-box").get_attribute("open") is None
            assert page.locator("#verify-result").is_visible()
            assert page.get_attribute("#verify-copy", "href") == \
                f"/api/tables/{tid}/hands/1/history.toml"
        page.locator("#verify").scroll_into_view_if_needed()
        shot(page, f"verify-fold-{'phone' if mobile else 'desktop'}-after")
    finally:
        ctx.close()
