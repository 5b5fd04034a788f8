"""What a newcomer trying to break rollem saw at the web table (s61-fresh), in
Debian's Chromium through Playwright at 390x844 and 1440x900.

- Roll Your Own's middle listed "your discards, maybe still in the pool:" with a
  discard that another player had drawn, turned face up (R-RYO-5) and then folded
  with: a folded seat holds no cards in the state, so the card its player turned up
  was counted as unseen again, though everyone had seen it leave the pool.

Screenshots: test-artifacts/web/s61-fresh-*.png.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from table_ui import CheckingBot, context, new_table, shot, sit_with_enter, wait_until
from test_felt_small_browser import play_until
from web_harness import ServerThread, seeded_deals

from rollem.engine.actions import Expose, Fold
from rollem.server.app import host_cookie

pytestmark = pytest.mark.browser


class TurnsUpItsDrawFolds(CheckingBot):
    """At seat 1: turns up the card it drew from the pool (its own ``pool_draw``
    event; the first exposure: its first card), and folds as soon as it has three
    cards up.  At another seat: a :class:`CheckingBot`."""

    def act(self, view: Any) -> object:
        legal = view.legal
        if view.seat != 1 or legal is None:
            return super().act(view)
        me = view.seats[view.seat]
        if view.pending == "expose":
            drawn = [e["card"] for e in view.events if e["kind"] == "pool_draw"
                     and e.get("seat") == view.seat and e.get("card")]
            options = [str(c) for c in legal.cards]
            pick = next((c for c in reversed(drawn) if c in options), options[0])
            return Expose(legal.cards[options.index(pick)])
        if view.pending == "bet" and sum(me.up) >= 3:
            return Fold()
        return super().act(view)


POOL_NOW = """() => {
  const s = window.rollemState && window.rollemState.state;
  const h = s && s.hand;
  if (!h || h.game !== 'rollyourown') return null;
  const turned = h.events.filter((e) => e.kind === 'expose' && e.seat === 1).map((e) => e.card);
  const mine = [...document.querySelectorAll('#center .slot.pool .cards:not(.mini) .card')]
    .map((c) => c.dataset.card || c.getAttribute('aria-label') || c.textContent);
  return {folded: !!(h.seats[1] && h.seats[1].folded), turned, my_pool: h.my_pool || [],
          mine};
}"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_discard_turned_up_by_a_player_who_folded_is_not_maybe_in_the_pool(
        browser: Any, live: ServerThread, monkeypatch: pytest.MonkeyPatch, size: str) -> None:
    seeded_deals(monkeypatch, 2)
    ctx = context(browser, size, reduced_motion="reduce")
    try:
        page = ctx.new_page()
        tid, host_token = new_table(live.url, game="rollyourown", seats=3, bots=2)
        live.manager.get(tid).bot_factory = lambda level: TurnsUpItsDrawFolds(random.Random(0))
        page.context.add_cookies([{"name": host_cookie(tid), "value": host_token,
                                   "url": live.url}])
        page.goto(f"{live.url}/t/{tid}")
        sit_with_enter(page, "Ann")
        page.click("#start-btn")
        play_until(page, "() => { const s = window.rollemState && window.rollemState.state;"
                   " return !!(s && s.hand && s.hand.seats[1] && s.hand.seats[1].folded); }",
                   f"{size}: seat 1 folds", "rollyourown")
        wait_until(page, "() => !!document.querySelector('#center .slot.pool')")
        got = page.evaluate(POOL_NOW)
        shot(page, f"s61-fresh-{size}-pool-after-fold")
        seen_again = [c for c in got["my_pool"] if c in got["turned"]]
        assert seen_again, f"the deal did not make seat 1 turn up one of Ann's discards: {got}"
        for card in seen_again:
            assert card not in got["mine"], got
    finally:
        ctx.close()
