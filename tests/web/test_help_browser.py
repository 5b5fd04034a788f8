"""The table page's "How to play" on a phone (390x844) explains the decision in
front of the player in a standard game and a game file's game, as ``rollem play``'s
``?`` does (:func:`rollem.rules.game_help.explain_decision`), and fits the screen's
width: no sideways scrolling of the page or of the panel.

Computer players that only check or call and a seeded deck: the same hand every
run. Screenshots: test-artifacts/web/help-*.png.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from table_ui import (
    PHONE,
    decision_kind,
    new_table,
    only_checking_bots,
    open_as_host,
    shot,
    sit_with_enter,
    take_decision,
    wait_played,
)
from test_server_gamefiles import own_game
from web_harness import ServerThread, seeded_deals

pytestmark = pytest.mark.browser

EXPECTED = {
    "holdem": {"bet": ("You may now:", "Texas Hold'em has 4 betting rounds.")},
    "crazy-pineapple": {
        "bet": ("You may now:", "Crazy Pineapple has 4 betting rounds."),
        "discard": ("Choose 1 card to discard face down. No player gets them back",
                    "In Crazy Pineapple: All at once, each player discards 1 card"),
    },
}
"""Per game and decision (the page's name for it): words the help must say."""


def _fits_width(page: Any, where: str) -> None:
    """Neither the page nor the How to play panel scrolls sideways on the phone."""
    widths = page.evaluate("""() => {
      const doc = document.documentElement, box = document.querySelector('#rules > *');
      return [doc.scrollWidth, box.scrollWidth, box.clientWidth,
              box.getBoundingClientRect().right];
    }""")
    page_w, panel_scroll, panel_w, right = widths
    assert page_w <= PHONE["width"], f"{where}: the page is {page_w} px wide"
    assert panel_scroll <= panel_w, f"{where}: the panel scrolls: {panel_scroll} > {panel_w}"
    assert right <= PHONE["width"] + 0.5, f"{where}: the panel ends at {right} px"


@pytest.mark.parametrize("game", ["holdem", "crazy-pineapple"])
def test_how_to_play_explains_each_decision_on_a_phone(
        browser: Any, live: ServerThread, monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    seeded_deals(monkeypatch, 7)
    extra = {"game_file": own_game()} if game == "crazy-pineapple" else {}
    tid, host_token = new_table(live.url, game=game, seats=3, bots=2, **extra)
    only_checking_bots(live, tid)
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = open_as_host(ctx, live.url, tid, host_token)
        sit_with_enter(page, "Ann")
        page.click("#start-btn")
        want = EXPECTED[game]
        seen: list[str] = []
        made = 0
        deadline = time.time() + 60
        while not page.locator("#result:not(.hidden)").count():
            assert time.time() < deadline, f"{game}: the hand did not finish; saw {seen}"
            kind = decision_kind(page)
            if kind is None:
                page.wait_for_timeout(30)
                continue
            if kind in want and kind not in seen:
                page.click("#rules-btn")
                first, second = want[kind]
                page.wait_for_selector(f"#rules-decision:has-text(\"{first}\")", timeout=10_000)
                text = " ".join(page.inner_text("#rules-decision").split())
                assert text.startswith("Your decision now"), text
                assert second in text, f"{game} {kind}: {text}"
                _fits_width(page, f"{game} {kind}")
                page.locator("#rules-decision").scroll_into_view_if_needed()
                shot(page, f"help-{game}-{kind}")
                page.click("#rules-close")
                seen.append(kind)
            take_decision(page, kind, game)
            made += 1
            wait_played(page, live, tid, made, f"{game} decision {made} ({kind})")
        assert sorted(seen) == sorted(want)
    finally:
        ctx.close()
