"""The lobby while a table is made and its page loads (stop 56): on a loaded
server or a phone the lobby stayed as it was after "Create table", its button
live (a second press made a second table), until the table page came, though the
invite link was ready.  Now the button says what is happening and takes no second
press, and the invite link shows as soon as the table is made.  The table's POST
and then the table page are held (Playwright routes) to look at each moment; at a
phone's and a desktop's size; screenshots test-artifacts/web/lobby-opening-WxH.png."""

from __future__ import annotations

from typing import Any

import pytest
from web_harness import ARTIFACTS, ServerThread

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", [(390, 844), (1440, 900)])
def test_create_table_shows_progress_and_the_invite_link_before_the_table_page(
        browser: Any, live: ServerThread, size: tuple[int, int]) -> None:
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        page = ctx.new_page()
        posts: list[Any] = []
        pages: list[Any] = []
        page.route("**/api/tables", lambda route: posts.append(route)
                   if route.request.method == "POST" else route.continue_())
        # (a navigation answered 204 No Content does not happen: the lobby stays, as
        # it does while a slow table page is on its way)
        page.route("**/t/*", lambda route: (pages.append(route.request.url),
                                            route.fulfill(status=204)))
        page.goto(live.url + "/")
        page.wait_for_selector("input[name='choice.deuces-wild']")
        before = live.manager.store_count()
        page.select_option("select[name=game]", "holdem")
        page.fill("input[name=seats]", "4")
        page.click("#create-btn")
        while not posts:
            page.wait_for_timeout(20)
        # the table is being made: the button says so and a second press sends nothing
        assert page.text_content("#create-btn") == "Creating the table…"
        assert page.is_disabled("#create-btn")
        page.evaluate("() => document.getElementById('create').requestSubmit()")
        page.wait_for_timeout(100)
        assert len(posts) == 1
        posts[0].continue_()
        while not pages:
            page.wait_for_timeout(20)
        page.wait_for_timeout(100)
        # made; its page is on its way: the invite link is there to copy meanwhile
        assert live.manager.store_count() == before + 1
        status = page.text_content("#create-status") or ""
        assert status.startswith(f"Table created. Invite link: {live.url}/t/"), status
        link = status.removeprefix("Table created. Invite link: ")
        assert page.get_attribute("#create-status a", "href") == link.removeprefix(live.url)
        assert page.text_content("#create-btn") == "Opening your table…"
        assert page.is_disabled("#create-btn")
        assert page.locator("#create-status").is_visible()
        box = page.locator("#create-status").bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size[1] + 1, box
        (ARTIFACTS / "web").mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "web" / f"lobby-opening-{size[0]}x{size[1]}.png"))
        page.unroute("**/t/*")
        page.click("#create-status a")  # (the link leads to the table)
        page.wait_for_url(f"**{link.removeprefix(live.url)}")
        page.wait_for_selector("#seats")
        assert live.manager.store_count() == before + 1
    finally:
        ctx.close()
