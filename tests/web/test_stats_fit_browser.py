"""The session ledger and the statistics under it fit their box (found in the s47
try-out), in Debian's Chromium through Playwright at 390x844 and 1440x900: with a
player of a 24-letter name the ledger's Stack and Net and the statistics' W$SD
were cut at the side column's edge on a desktop, W$SD on a phone too (the name's
one word set the first column's width)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from table_ui import (
    context,
    decision_kind,
    new_table,
    only_checking_bots,
    open_as_host,
    shot,
    sit,
    take_decision,
)
from web_harness import ServerThread

pytestmark = pytest.mark.browser

NAME = "Maximiliantheextravagant"
"""24 letters, one word: as long as a name may be (MAX_NAME)."""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_statistics_fit_their_box_beside_a_long_name(browser: Any, tmp_path: Path,
                                                         size: str) -> None:
    server = ServerThread(tmp_path / "stats.db")
    try:
        tid, host_token = new_table(server.url, game="holdem", seats=3, bots=2)
        only_checking_bots(server, tid)
        page = open_as_host(context(browser, size), server.url, tid, host_token)
        sit(page, NAME)
        page.click("#start-btn")
        while page.locator("#result.hidden").count():  # one hand, played through the page
            kind = decision_kind(page)
            if kind:
                take_decision(page, kind)
            page.wait_for_timeout(100)
        page.evaluate("() => document.getElementById('stats').scrollIntoView()")
        page.wait_for_selector(f"#stats tr[data-player='{NAME}']")
        fit = page.evaluate("""() => {
          const box = document.getElementById('ledger-box');
          const right = box.getBoundingClientRect().right;
          const fits = (table) => ({
            overflow: table.parentElement.scrollWidth - table.parentElement.clientWidth,
            cut: [...table.querySelectorAll('th, td')]
              .filter((c) => c.getBoundingClientRect().right > right + 0.5)
              .map((c) => c.textContent),
            head: [...table.querySelectorAll('th')].map((c) => c.textContent)});
          return {ledger: fits(document.getElementById('ledger')),
                  stats: fits(document.querySelector('#stats table'))};
        }""")
        assert fit["ledger"]["head"] == ["Player", "Brought", "Stack", "Net"], fit
        assert fit["stats"]["head"] == ["Player", "Hands", "VPIP", "PFR", "AF", "WTSD",
                                        "W$SD"], fit
        for table in ("ledger", "stats"):
            assert fit[table]["overflow"] <= 0 and fit[table]["cut"] == [], (table, fit)
        shot(page, f"stats-fit-{size}")
    finally:
        server.stop()
