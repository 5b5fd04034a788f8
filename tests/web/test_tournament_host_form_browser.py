"""The host's settings at a tournament (stop 59, branch s59-night; Debian's
Chromium through Playwright, 390x844 and 1440x900).  The form showed the cash
game's Ante, Small bet, Big bet and Chip value (the first level's stakes, at any
level) and sent the stakes with every change: the server refuses stakes at a
tournament ("cannot change ante, big_bet, small_bet in a tournament"), so a
host adding hold'em to the dealer's choice mid-tournament was refused.  Now the
form says the schedule sets the stakes, and a change of games is taken."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from table_ui import context, new_table, open_as_host, record_toasts, shot, sit
from web_harness import ServerThread

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_host_adds_a_game_to_a_tournaments_dealers_choice(browser: Any, tmp_path: Path,
                                                              size: str) -> None:
    server = ServerThread(tmp_path / "form.db")
    try:
        tid, host = new_table(server.url, game="dealers-choice", seats=3, bots=1,
                              tournament="turbo", buy_in=10)
        ann = open_as_host(context(browser, size), server.url, tid, host)
        sit(ann, "Ann")
        ann.click("#start-btn")
        table = server.manager.tables[tid]
        end = time.monotonic() + 60
        while not table.session.get("started"):
            assert time.monotonic() < end, "the tournament never started"
            ann.wait_for_timeout(20)
        record_toasts(ann)
        ann.evaluate("""() => { const f = document.querySelector('form.host-config');
          const d = f && f.closest('details'); if (d) d.open = true; }""")
        form = ann.locator("form.host-config")
        form.wait_for()
        # main: Ante 1, Small bet 2, Big bet 4 and Chip value, the cash game's
        assert form.locator("input[name=ante], input[name=small_bet], input[name=big_bet], "
                            "input[name=chip_value]").count() == 0
        assert form.locator(".host-stakes-why").inner_text() == (
            "The tournament's schedule sets the ante and bets, level by level.")
        form.locator("input[name='choice.holdem']").check()
        form.locator("input[name='choice.holdem']").scroll_into_view_if_needed()
        shot(ann, f"tourney-host-form-{size}")
        form.locator("[data-host=config]").click()
        end = time.monotonic() + 20
        while "holdem" not in (table.session.get("config_next") or {}).get("choices", []) \
                and "holdem" not in table.config.choices:
            # main: refused, "cannot change ante, big_bet, small_bet in a tournament"
            toasts = ann.evaluate("() => window.__toasts")
            assert not any("cannot change" in t for t in toasts), toasts
            assert time.monotonic() < end, "the change was not taken"
            ann.wait_for_timeout(50)
        assert table.config.stack == 100 and table.config.ante == 1  # (the schedule's)
    finally:
        server.stop()
