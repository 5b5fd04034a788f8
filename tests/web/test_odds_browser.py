"""Practice odds in a real browser (issue 16): at a 5-2-1 draw the web table
shows the advice, every option with its equity and standard error, for the
cards this player holds (Chromium from Debian, driven by Playwright, as in
``test_browser.py``)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_harness import ARTIFACTS, ServerThread

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
OPTION = re.compile(r"^\s*(stand pat|throw(?: \S\S)+)\s+equity (\d+\.\d)% ± (\d+\.\d)%")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (scripts/test.sh installs it)")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    srv = ServerThread(tmp_path_factory.mktemp("web") / "odds.db")
    yield srv
    srv.stop()


def test_practice_odds_show_the_advice_for_a_5_2_1_draw(browser: Any,
                                                        live: ServerThread) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    try:
        page.goto(live.url + "/")
        page.select_option("select[name=game]", "rollem521")
        for name, value in (("seats", "2"), ("bots", "1"), ("stack", "100"),
                            ("decision_seconds", "300")):
            page.fill(f"input[name={name}]", value)
        page.check("input[name=practice_odds]")
        page.click("details summary")
        page.fill("input[name=bot_delay]", "0.05")
        page.fill("input[name=between_hands]", "60")
        page.click("#create-btn")
        page.wait_for_url("**/t/*")
        page.wait_for_selector("#join:not(.hidden)")
        page.fill("#join-name", "Ann")
        page.click("#join-btn")
        page.wait_for_selector(".me .name:has-text('Ann')")
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
