"""Practice odds in a real browser (issue 16): at a 5-2-1 draw the web table
shows the advice, every option with its equity and standard error, for the
cards this player holds (Chromium from Debian, driven by Playwright, as in
``test_browser.py``)."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from table_ui import create_via_form, sit
from web_harness import ARTIFACTS, ServerThread

pytestmark = pytest.mark.browser
OPTION = re.compile(r"^\s*(stand pat|throw(?: \S\S)+)\s+equity (\d+\.\d)% ± (\d+\.\d)%")


def test_practice_odds_show_the_advice_for_a_5_2_1_draw(browser: Any,
                                                        live: ServerThread) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    try:
        create_via_form(page, live.url, "rollem521", seats=2, practice_odds=True)
        sit(page, "Ann")
        page.click("#start-btn")
        # betting until the first draw (R-521-1, R-521-2): check or call (the
        # controls may change under a click while the computer player acts)
        from playwright.sync_api import Error as PlaywrightError

        deadline = time.time() + 30
        while time.time() < deadline:
            if page.locator("#controls #confirm[data-action=draw]").count():
                break
            for action in ("check", "call"):
                button = page.locator(f"#controls [data-action={action}]")
                try:
                    if button.count():
                        button.first.click(timeout=1500)
                        break
                except PlaywrightError:
                    pass
            page.wait_for_timeout(100)
        assert page.locator("#controls #confirm[data-action=draw]").count() == 1
        page.check("#odds-toggle")
        page.wait_for_selector("#odds-line:has-text('Advice, cards to throw')", timeout=15_000)
        ARTIFACTS.joinpath("web").mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "web" / "odds-advice-521-draw.png"), full_page=True)
        text = page.inner_text("#odds-line")
        lines = text.splitlines()
        assert lines[0].startswith("Your odds: equity"), text
        head = next(ln for ln in lines if ln.startswith("Advice, cards to throw"))
        assert "of 16 options" in head, head  # none, one or two of five cards
        options = [m for ln in lines if (m := OPTION.match(ln))]
        assert len(options) >= 2, text
        held = set(page.eval_on_selector_all(".me .card", "cs => cs.map(c => c.dataset.card)"))
        assert len(held) == 5, held
        for m in options:
            assert 0.0 <= float(m.group(2)) <= 100.0
            assert 0.0 < float(m.group(3)) < 5.0  # a standard error, in points
            if m.group(1) != "stand pat":  # the cards thrown are this player's
                assert set(m.group(1).split()[1:]) <= held, (m.group(1), held)
        equities = [float(m.group(2)) for m in options]
        assert equities == sorted(equities, reverse=True)  # best first
        # the policy's own choice is marked (when among the ten shown)
        assert sum("<- policy" in ln for ln in lines) <= 1
    finally:
        page.close()
