"""The lobby's creation refusals in its form's words (s55, stop 54's leftover):
Five Card Roll Your Own at ten seats, and a house box no game of the table has,
said with the form's labels under the form, no table made.  At a phone's and a
desktop's size; screenshots test-artifacts/web/lobby-refusal-WxH.png."""

from __future__ import annotations

from typing import Any

import pytest
from web_harness import ARTIFACTS, ServerThread

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", [(390, 844), (1440, 900)])
def test_the_lobby_says_its_refusals_with_its_labels(browser: Any, live: ServerThread,
                                                     size: tuple[int, int]) -> None:
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        page = ctx.new_page()
        page.goto(live.url + "/")
        page.wait_for_selector("input[name='choice.deuces-wild']")
        before = live.manager.store_count()
        page.select_option("select[name=game]", "rollyourown")
        page.fill("input[name=seats]", "10")
        page.click("#create-btn")
        page.wait_for_selector("#create-error:has-text('Seats')")
        assert page.text_content("#create-error") == (
            "Five Card Roll Your Own deals at most 8 players and this table has 10 seats: "
            "pick another game or at most 8 Seats")
        page.locator("#create-error").scroll_into_view_if_needed()
        (ARTIFACTS / "web").mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "web" / f"lobby-refusal-{size[0]}x{size[1]}.png"))
        # a Roll Your Own box at a Stop, Drop and Roll table: the box's label
        page.select_option("select[name=game]", "sdr")
        page.fill("input[name=seats]", "6")
        page.check("input[name='house.wild_duplicates']")
        page.click("#create-btn")
        page.wait_for_selector("#create-error:has-text('leave it off')")
        assert page.text_content("#create-error") == (
            "\"Roll Your Own: wild cards may duplicate\" does nothing at a table dealing "
            "Stop, Drop and Roll: leave it off")
        assert "/t/" not in page.url
        assert live.manager.store_count() == before
    finally:
        ctx.close()
