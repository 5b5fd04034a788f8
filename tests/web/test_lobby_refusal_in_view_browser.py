"""A refusal of the create form is brought into view (s60-fresh): the form is
taller than a phone's screen (and a desktop's), its floating **Create table**
button stays in view, but the refusal is said under the form's last field, so
pressing the button with a bad game file showed nothing at all.  At a phone's and
a desktop's size; screenshots test-artifacts/web/lobby-refusal-in-view-WxH.png."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from web_harness import ARTIFACTS, ServerThread

pytestmark = pytest.mark.browser

BAD_GAME = """id = "two-cards"
name = "Two Cards"
players = [2, 6]
rules = "Ante, two cards, a round, showdown."
[[steps]]
step = "ante"
[[steps]]
step = "deal"
cards = 2
[[steps]]
step = "bet"
size = "small"
cap = 3
[[steps]]
step = "showdown"
"""

IN_VIEW = """() => {
  const r = document.getElementById('create-error').getBoundingClientRect();
  return r.height > 0 && r.top >= -1 && r.bottom <= window.innerHeight + 1;  // (subpixels)
}"""


def wait_in_view(page: Any, timeout: float = 10.0) -> bool:
    end = time.monotonic() + timeout
    while not page.evaluate(IN_VIEW):
        if time.monotonic() > end:
            return False
        page.wait_for_timeout(50)
    return True


@pytest.mark.parametrize("size", [(390, 844), (1440, 900)])
def test_a_refusal_is_scrolled_into_view(browser: Any, live: ServerThread, tmp_path: Path,
                                         size: tuple[int, int]) -> None:
    game = tmp_path / "two-cards.toml"
    game.write_text(BAD_GAME, encoding="utf-8")
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        page = ctx.new_page()
        page.goto(live.url + "/")
        page.wait_for_selector("input[name='choice.deuces-wild']")
        assert page.evaluate("() => document.scrollingElement.scrollHeight") > size[1]
        before = live.manager.store_count()
        page.select_option("select[name=game]", "own-file")
        page.set_input_files("input[name=game_file]", str(game))
        page.click("#create-btn")  # (the floating button, near the top of the page)
        page.wait_for_selector("#create-error:has-text('Your own game file:')")
        assert page.text_content("#create-error") == (
            "Your own game file: steps[3]: players end with 2 cards and the board has 0; "
            "a hand needs 5")
        assert wait_in_view(page), "the refusal is off the screen"
        (ARTIFACTS / "web").mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "web"
                                 / f"lobby-refusal-in-view-{size[0]}x{size[1]}.png"))
        # a number left empty: named, in view, its field focused
        page.evaluate("() => window.scrollTo(0, 0)")
        page.select_option("select[name=game]", "sdr")
        page.fill("input[name=ante]", "")
        page.click("#create-btn")
        page.wait_for_selector("#create-error:has-text('Ante')")
        assert page.text_content("#create-error") == "Ante: enter a number (at least 0)"
        assert wait_in_view(page), "the refusal is off the screen"
        assert page.evaluate("() => document.activeElement.name") == "ante"
        assert live.manager.store_count() == before and "/t/" not in page.url
    finally:
        ctx.close()
