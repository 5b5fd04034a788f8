"""In a real browser (Debian's Chromium through Playwright) at 390x844 and 1440x900:
the cards a player picked for a draw stay picked across the host's pause and resume
of the same decision (stop 52), and confirming sends them.

The paused state's view has ``decision_seq`` null (the decision is closed while
paused), so the page cleared the picks at the pause, and the player had to pick
again after the resume.  Since stop 52 a resume reopens the same decision with the
sequence number it was first offered at (``Turns._held``), so the page keeps the
picks while paused and across a resume with that number; they are cleared when the
decision really changes (another number, another hand)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from table_ui import goto_as_host, new_table, only_checking_bots, shot, sit, wait_until
from web_harness import ServerThread

pytestmark = pytest.mark.browser

PICKED = "() => [...document.querySelectorAll('.me .card.selected')].map(e => e.dataset.card)"


def _to_the_draw(page: Any) -> None:
    """Check or call until the page offers Ann the draw (the computer player only
    checks or calls, so the hand always reaches it)."""
    end = time.monotonic() + 30
    while not page.locator("#controls #confirm[data-action=draw]").count():
        assert time.monotonic() < end, "the draw was never offered"
        for action in ("check", "call"):
            button = page.locator(f"#controls [data-action={action}]")
            if button.count():
                button.first.click(timeout=1500)
                break
        page.wait_for_timeout(50)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_draw_picks_survive_the_hosts_pause_and_resume(
    pages: Any, live: ServerThread, size: str
) -> None:
    tid, host = new_table(live.url, game="draw5", seats=2, bots=1)
    only_checking_bots(live, tid)
    with pages.open(size) as page:
        goto_as_host(page, live.url, tid, host)
        sit(page, "Ann")
        page.click("#start-btn")
        _to_the_draw(page)
        cards = page.locator(".me .card.pickable")
        cards.nth(1).click()
        cards.nth(3).click()
        picked = page.evaluate(PICKED)
        assert len(picked) == 2
        table = live.manager.get(tid)
        seat = page.evaluate("() => window.rollemState.state.you.seat")
        offered = page.evaluate("() => window.rollemState.state.you.decision_seq")
        assert isinstance(offered, int)
        shot(page, f"pause-picks-{size}-1-picked")

        pause = page.locator("#host-controls button[data-host=pause]")
        pause.evaluate("b => b.click()")   # (on the phone the host panel may be folded)
        wait_until(page, "() => window.rollemState.state.table.host_paused === true")
        assert page.evaluate("() => window.rollemState.state.you.decision_seq") is None
        assert page.evaluate(PICKED) == picked   # still shown while paused (main: [])
        # the decision is closed while paused: its buttons are held, the prompt says
        # why (before: "Your turn" and a button whose press was refused host_paused)
        page.wait_for_selector("#controls #confirm[disabled]")
        assert page.locator("#controls button:not([disabled])").count() == 0
        assert page.inner_text("#controls .your-turn").strip() == (
            "Paused by the host: your turn goes on when the table resumes")
        assert "play stops until it resumes" in page.inner_text("body")
        shot(page, f"pause-picks-{size}-2-paused")

        page.locator("#host-controls button[data-host=resume]").evaluate("b => b.click()")
        wait_until(page, "() => !window.rollemState.state.table.host_paused"
                         " && window.rollemState.state.you.decision_seq !== null")
        assert page.evaluate("() => window.rollemState.state.you.decision_seq") == offered
        page.wait_for_selector("#controls #confirm[data-action=draw]")
        assert page.evaluate(PICKED) == picked   # (main: [], picked again)
        assert page.inner_text("#controls #confirm").strip() == "Draw (2)"  # (main: "Stand pat")
        shot(page, f"pause-picks-{size}-3-resumed")

        done = len(live.manager.store.load_actions(tid, 1))
        page.click("#controls #confirm:not([disabled])")
        end = time.monotonic() + 20
        while len(live.manager.store.load_actions(tid, 1)) <= done:
            assert time.monotonic() < end, "the draw never reached the server"
            page.wait_for_timeout(30)
        row = live.manager.store.load_actions(tid, 1)[done]
        assert (row.seat, row.source) == (seat, "player")
        assert row.action["kind"] == "draw" and sorted(row.action["cards"]) == sorted(picked)
        assert table.hand is not None and table.hand.hand_no == 1
        shot(page, f"pause-picks-{size}-4-drawn")
