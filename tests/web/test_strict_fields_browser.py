"""The lobby in a real browser with the create route's strict fields (try-out of
stop 41): what the form sends is every field the server takes (a private table
with watchers one hand behind is made as asked), and a field the server does not
take (a stale or altered form) is refused with its name shown under the form,
no table made.  At a phone's and a desktop's size."""

from __future__ import annotations

import json
from typing import Any

import pytest
from web_harness import ServerThread

from rollem.server.config import CREATE_FIELDS

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", [(390, 844), (1440, 900)])
def test_the_lobby_sends_only_fields_the_server_takes(browser: Any, live: ServerThread,
                                                      size: tuple[int, int]) -> None:
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        page = ctx.new_page()
        page.goto(live.url + "/")
        page.wait_for_selector("input[name='choice.deuces-wild']")
        page.check("input[name=private]")
        page.check("input[name=watcher_delay]")
        page.check("input[name='house.burn_before_roll']")
        page.check("input[name='choice.holdem']")
        with page.expect_request("**/api/tables") as asked:
            page.click("#create-btn")
        page.wait_for_url("**/t/*")
        sent = json.loads(asked.value.post_data or "{}")
        assert set(sent) <= set(CREATE_FIELDS), set(sent) - set(CREATE_FIELDS)
        table = live.manager.get(page.url.rsplit("/t/", 1)[1])
        assert (table.config.private, table.config.watcher_delay) == (True, True)
        assert table.config.house["burn_before_roll"] is True
        assert "holdem" in table.config.choices
        # A form with a field the server does not take (an old page, an edited one).
        page.goto(live.url + "/")
        page.wait_for_selector("input[name='choice.deuces-wild']")
        page.evaluate("""() => {
          const box = document.createElement('input');
          box.type = 'checkbox'; box.name = 'privte'; box.checked = true;
          document.getElementById('create').appendChild(box);
        }""")
        before = live.manager.store_count()
        page.click("#create-btn")
        page.wait_for_selector("#create-error:has-text('privte')")
        assert page.text_content("#create-error").startswith(
            "a table's configuration: unknown field 'privte' (did you mean 'private'?); "
            "allowed: ")
        assert "/t/" not in page.url
        assert live.manager.store_count() == before
    finally:
        ctx.close()
