"""A player who sits in a seat freed since the last hand is not shown that hand as
their own (try-out of stop 54: Cat sat in Ann's seat between hands and her dock
showed Ann's cards, "shows" and "wins 36", and the result named "Ann (you)"), in
Chromium through Playwright at 390x844 and 1440x900.

The server already sends the new occupant that hand as a watcher sees it
(``hand.seat`` null; test_seat_lifecycle.py); the page drew it by the seat number."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from table_ui import context, shot, sit_with_enter, wait_until
from test_seat_lifecycle import _ann_and_bob
from web_harness import Player, ServerThread

pytestmark = pytest.mark.browser

DOCK = """() => {
  const me = document.getElementById('me');
  return {cards: me.querySelectorAll('.cards.mine > .card').length,
          text: me.innerText, folded: me.classList.contains('folded'),
          winner: me.classList.contains('winner'),
          mine: document.querySelectorAll('#log li.mine').length,
          you: [...document.querySelectorAll('#result .who')].map(e => e.textContent),
          hand: window.rollemState.state.hand && window.rollemState.state.hand.hand_no,
          viewer: window.rollemState.state.hand && window.rollemState.state.hand.seat,
          seat: window.rollemState.state.you.seat};
}"""


@pytest.mark.parametrize("name", ["phone", "desktop"])
def test_a_new_occupant_sees_the_last_hand_as_a_watcher_does(
        browser: Any, live: ServerThread, name: str) -> None:
    """Bob plays hand 1 (his clock folds him), shows his two cards after it and
    leaves; Eve sits in his seat while hand 1 is still on the felt (between hands:
    120 s).  Her dock shows her name and stack alone: none of Bob's shown cards,
    not his "folds", not dimmed as folded; no line of the hand's log is marked
    hers, and the result names nobody "(you)" (Bob's shown cards are "Bob shows")."""
    tid, host, t0, s1, t1 = _ann_and_bob(live, seats=3)
    shown: list[str] = []

    async def run() -> None:
        async with Player(live.ws_url, tid, t0, host) as a, \
                Player(live.ws_url, tid, t1) as b:
            await b.until(lambda st: st["you"]["seat"] == s1)
            await a.until(lambda st: st["you"]["host"])
            await a.send({"type": "start", "seq": a.state["seq"]})
            st = await b.until(lambda st: st["hand"] is not None
                               and st["hand"]["result"] is not None
                               and "show" in (st["hand"]["legal"] or {}).get("actions", []),
                               timeout=30)
            shown.extend(st["hand"]["legal"]["cards"])
            await b.send({"type": "show", "hand": 1, "cards": shown})
            await a.until(lambda st: st["hand"] is not None and any(
                e["kind"] == "show" and e.get("by_choice") for e in st["hand"]["events"]))
            await b.send({"type": "leave"})
            await a.until(lambda st: st["table"]["seats"][s1]["free"])

    with ThreadPoolExecutor(1) as pool:  # (Playwright's own loop runs in this thread)
        pool.submit(asyncio.run, run()).result(60)
    ctx = context(browser, name)
    try:
        page = ctx.new_page()
        page.goto(f"{live.url}/t/{tid}")
        page.wait_for_selector("#seats .seat")
        page.select_option("#join-seat", str(s1))
        sit_with_enter(page, "Eve")
        wait_until(page, "() => window.rollemState.state.you.seat !== null")
        page.wait_for_timeout(300)
        seen = page.evaluate(DOCK)
        shot(page, f"new-occupant-dock-{name}")
        assert (seen["hand"], seen["seat"], seen["viewer"]) == (1, s1, None), seen
        assert len(shown) == 2 and seen["cards"] == 0, (shown, seen)
        assert "folds" not in seen["text"] and not seen["folded"] and not seen["winner"], seen
        assert seen["text"].startswith("Eve (you)"), seen
        assert seen["mine"] == 0, seen
        assert seen["you"] == ["Bob shows"], seen
    finally:
        ctx.close()
