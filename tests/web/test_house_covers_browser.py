"""The ledger panel says the host covers the computer players (stop 58), in
Chromium through Playwright at 390x844 and 1440x900.

Found at a friends' night: the settle-up read "Cat pays Bot 1 (random) 47 chips",
money nobody could pay or collect.  Computer players play with the house's money
and the host is the house: their lines stay in the ledger, marked "· computer"
(one who left too), their nets are the host's, and the panel says so above the
transfers ("Ann (host) collects what the computer players won: 47 chips (11.75).",
then Ann's own net and the two together, s60-polish);
the transfers are between people only ("Cat pays Ann 47 chips (11.75)")."""

from __future__ import annotations

import pytest
from table_ui import SHOTS, Pages, goto_as_host, shot, sit, wait_until
from web_harness import ServerThread, create_table, join

pytestmark = pytest.mark.browser

SETTLE = "() => document.getElementById('settle').innerText"


@pytest.mark.parametrize("name", ["phone", "desktop"])
def test_the_ledger_says_the_host_covers_the_computer_players(
        pages: Pages, live: ServerThread, name: str) -> None:
    tid, host = create_table(live.url, game="sdr", seats=4, bots=2, bot_delay=0.02,
                             decision_seconds=300, between_hands=600, chip_value="0.25",
                             bot_level="random")
    table = live.manager.get(tid)
    with pages.open(name) as page:
        goto_as_host(page, live.url, tid, host)
        sit(page, "Ann")   # (the creator, seated: she hosts)
        join(live.url, tid, "Cat")

        def night() -> None:
            """Cat lost 47 chips: 40 to Bot 1, 7 to Bot 2, who then left."""
            by_name = {s.row.name: s for s in table.seats.values()}
            by_name["Cat"].row.stack -= 47
            by_name["Bot 1 (random)"].row.stack += 40
            by_name["Bot 2 (random)"].row.stack += 7
            [gone] = [n for n, s in table.seats.items() if s.row.name == "Bot 2 (random)"]
            table.seating.free_seat(gone)
            table.views.broadcast()

        live.call(night)
        page.locator("#ledger-box").evaluate("(d) => { d.open = true; }")
        wait_until(page, f"() => ({SETTLE})().includes('what the computer players won')")
        settle = page.evaluate(SETTLE)
        assert "Ann (host) collects what the computer players won: 47 chips (11.75)." in settle
        assert ("Ann's own play broke even (Ann's Net above); collecting the computer "
                "players' 47 chips, Ann ends 47 chips up, paid to Ann below.") in settle
        assert "Cat pays Ann 47 chips (11.75)" in settle
        assert "Bot" not in settle
        rows = page.locator("#ledger tr.bot-line td:first-child").all_inner_texts()
        assert rows == ["Bot 1 (random) · computer", "Bot 2 (random) (left) · computer"]
        assert "computer" not in page.locator("#ledger tr:not(.bot-line)").all_inner_texts()[1]
        # the line fits the panel (no sideways scroll at 390 px)
        box = page.locator("#settle .settle-house").bounding_box()
        width = page.viewport_size["width"]
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        page.locator("#settle").scroll_into_view_if_needed()
        shot(page, f"house-covers-{name}")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.locator("#ledger-box").screenshot(path=str(SHOTS / f"house-covers-ledger-{name}.png"))
