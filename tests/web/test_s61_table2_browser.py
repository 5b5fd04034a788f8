"""s61-table2's leftovers in Debian's Chromium through Playwright, on a phone
(390x844) and a desktop (1440x900):

- a seat with no chips (not dealt in) shows no empty line where a last action would
  be (main: "Bob / ● 0 / (blank) / 3rd");
- the host's Pause and Close are in view above the folded "Host controls" (main:
  only inside it; a host missed them twice on a laptop), and work from there;
- once the night is over the invite link is gone (main: still offered, though it
  only let people watch the settle-up).

Screenshots: test-artifacts/web/s61t2-*.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from table_ui import (
    context,
    new_table,
    only_checking_bots,
    open_as_host,
    play_until,
    shot,
    sit,
    wait_first_bet,
    wait_until,
)
from web_harness import ServerThread

pytestmark = pytest.mark.browser

TILE = """seat => {
  const tile = document.querySelector(`#seats .seat[data-seat="${seat}"]`);
  return {labels: [...tile.querySelectorAll('.action-label')]
            .filter((e) => e.getBoundingClientRect().height > 0).length,
          lines: tile.innerText.split('\\n').map((l) => l.trim())};
}"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_leftovers_busted_tile_host_pause_and_close_invite_after_the_night(
        browser: Any, tmp_path: Path, size: str) -> None:
    server = ServerThread(tmp_path / "left.db")
    try:
        tid, host = new_table(server.url, game="holdem", seats=4, bots=2, rebuys=False)
        only_checking_bots(server, tid)
        table = server.manager.get(tid)
        ann = open_as_host(context(browser, size), server.url, tid, host)
        sit(ann, "Ann")
        bots = sorted(n for n, s in table.seats.items() if s.row.bot)
        broke = bots[-1]

        def bust() -> None:
            table.seats[broke].row.stack = 0
        server.call(bust)
        ann.click("#start-btn")
        wait_first_bet(ann)
        busted = ann.evaluate(TILE, broke)
        assert busted["labels"] == 0 and "" not in busted["lines"], busted
        playing = ann.evaluate(TILE, bots[0])
        assert playing["labels"] == 1, playing
        # Pause and Close in view, Host controls folded
        assert not ann.evaluate("() => document.querySelector('#host-box').open")
        quick = ann.locator("#host-quick")
        quick.scroll_into_view_if_needed()
        assert quick.locator("[data-quick=pause]").is_visible()
        assert quick.locator("[data-quick=close]").is_visible()
        shot(ann, f"s61t2-host-quick-{size}")
        quick.locator("[data-quick=pause]").click()
        wait_until(ann, "() => !!document.querySelector('#host-quick [data-quick=resume]')")
        # opened, its own row has them: the strip is not shown twice
        ann.click("#host-box summary")
        assert quick.is_hidden()
        ann.click("#host-box summary")
        assert quick.is_visible()
        quick.locator("[data-quick=resume]").click()
        wait_until(ann, "() => !!document.querySelector('#host-quick [data-quick=pause]')")
        ann.once("dialog", lambda d: d.accept())
        quick.locator("[data-quick=close]").click()
        # (the hand in play is played to its end, then the night is over)
        play_until(ann, lambda: ann.locator("#ended:not(.hidden)").count() > 0, "the close")
        # the night over: no invite link (it only let people watch the settle-up)
        assert ann.locator("#invite").is_hidden()
        shot(ann, f"s61t2-closed-{size}")
    finally:
        server.stop()
