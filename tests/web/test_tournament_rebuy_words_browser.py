"""How long a tournament's rebuys stay open, as its panel says it (try-out of stop 54:
a schedule of 2 levels with rebuys in the first 2 said "rebuys open until level 3",
a level that never comes: after the last level its stakes, and its rebuys, stay), in
Chromium through Playwright at 390x844 and 1440x900."""

from __future__ import annotations

from typing import Any

import pytest
from table_ui import context, new_table, open_as_host, shot, sit_with_enter, wait_until
from web_harness import ServerThread

pytestmark = pytest.mark.browser

TWO_LEVELS = """stack = 20
[[levels]]
ante = 2
small_bet = 4
big_bet = 8
[[levels]]
ante = 3
small_bet = 6
big_bet = 12
"""
POOL = "() => (document.querySelector('#tourney .tourney-pool') || {}).textContent || ''"


@pytest.mark.parametrize("name", ["phone", "desktop"])
def test_the_panel_says_how_long_rebuys_stay_open(
        browser: Any, live: ServerThread, name: str) -> None:
    """Ann and a computer player, dealt.  Rebuys in the first 2 levels of a 2-level
    schedule: "rebuys open all tournament"; in the first 2 of the shipped turbo
    schedule (18 levels): "rebuys open until level 3", as before."""
    ctx = context(browser, name)
    try:
        seen = []
        for config in ({"tournament": "custom", "tournament_schedule": TWO_LEVELS},
                       {"tournament": "turbo"}):
            tid, host = new_table(live.url, game="sdr", seats=2, bots=1, buy_in=10,
                                  rebuy_levels=2, **config)
            page = open_as_host(ctx, live.url, tid, host)
            sit_with_enter(page, "Ann")
            page.click("#start-btn")
            wait_until(page, f"() => ({POOL})().includes('rebuys')")
            seen.append(page.evaluate(POOL).split(" · ")[-1])
            shot(page, f"tournament-rebuy-words-{config['tournament']}-{name}")
            page.close()
        assert seen == ["rebuys open all tournament", "rebuys open until level 3"], seen
    finally:
        ctx.close()
