"""The worker's one Chromium, lent to each browser module (tests/web/conftest.py
``_Chromium``; docs/dev/test-suite-time.md, stop 58): a module gets the same
browser as the one before, what contexts it leaves open are closed at its end,
and the tests after it can run event loops of their own."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest


def test_a_module_borrows_the_workers_browser_and_gives_it_back_clean(_chromium: Any) -> None:
    first = _chromium.get()
    left_open = first.new_context()
    left_open.new_page().goto("about:blank")
    refused = asyncio.sleep(0)
    with pytest.raises(RuntimeError):  # (Playwright's loop is marked running meanwhile)
        asyncio.run(refused)
    refused.close()
    _chromium.put_down()
    assert left_open not in first.contexts and first.contexts == []
    assert asyncio.run(asyncio.sleep(0, "ran")) == "ran"
    again = _chromium.get()
    try:
        assert again is first and again.is_connected()
        page = again.new_page()
        page.set_content("<p>still here</p>")
        assert page.inner_text("p") == "still here"
    finally:
        _chromium.put_down()
    assert asyncio.run(asyncio.sleep(0, "ran")) == "ran"
