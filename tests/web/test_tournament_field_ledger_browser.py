"""A tournament's ledger before the host deals (found in the s47 try-out), in
Debian's Chromium through Playwright at 390x844 and 1440x900: it lists the field so
far in the buy-in's units (each has paid one buy-in; "seated", not yet "playing"),
as it does once the tournament has started, not the cash game's "Brought 100,
Stack 100, Net 0" (the schedule's chips read as money, at a buy-in of 10)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from table_ui import context, new_table, open_as_host, shot, sit
from test_tournament_server import SCHEDULE
from web_harness import ServerThread

pytestmark = pytest.mark.browser


def _ledger(page: Any) -> dict[str, Any]:
    """The ledger as the page draws it, once it is drawn in the buy-in's units: its
    caption, its head and its rows' cells."""
    page.wait_for_selector("#ledger th:has-text('Paid')")
    return dict(page.evaluate("""() => {
      const t = document.getElementById('ledger');
      return {caption: t.querySelector('caption').textContent,
              head: [...t.querySelectorAll('th')].map((x) => x.textContent),
              rows: [...t.querySelectorAll('tr')].filter((r) => r.querySelector('td'))
                .map((r) => [...r.querySelectorAll('td')].map((x) => x.textContent)),
              settle: document.getElementById('settle').textContent};
    }"""))


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_before_the_deal_the_ledger_is_in_buy_in_units(browser: Any, tmp_path: Path,
                                                        size: str) -> None:
    server = ServerThread(tmp_path / "field.db")
    try:
        tid, host_token = new_table(server.url, game="sdr", seats=4, bots=1,
                                    tournament="custom", tournament_schedule=SCHEDULE,
                                    buy_in=10)
        ann = open_as_host(context(browser, "desktop"), server.url, tid, host_token)
        sit(ann, "Ann")
        zoe = context(browser, size).new_page()
        zoe.goto(f"{server.url}/t/{tid}")
        sit(zoe, "Zoë")
        for page in (zoe, ann):
            page.wait_for_selector("#ledger td:has-text('Zoë')")
            drawn = _ledger(page)
            assert drawn["head"] == ["Player", "Paid", "Place", "Prize", "Net"], drawn
            assert sorted(drawn["rows"]) == [[name, "10", "seated", "–", "–"]
                                             for name in ("Ann", "Bot 1 (random) · computer",
                                                          "Zoë")]  # (marked: stop 58)
            assert "before the first hand" in drawn["caption"]
            assert "in the buy-in's units (prize pool 30)" in drawn["caption"]
            assert "Prizes and nets are known when the tournament is over." in drawn["settle"]
            assert "pays" not in drawn["settle"]
        shot(zoe, f"tourney-field-ledger-{size}")
    finally:
        server.stop()
