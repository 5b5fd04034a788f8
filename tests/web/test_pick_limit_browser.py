"""A card choice never holds more cards than the decision takes (try-out of stop 54: a
second card tapped at 5-2-1's second draw, up to 1 card, left "Draw (2)" greyed out
and "chosen: 2", saying nothing of why), in Chromium through Playwright at 390x844
and 1440x900: a choice of one card swaps the card tapped in; a choice of several
refuses the extra tap, saying why."""

from __future__ import annotations

import time
from typing import Any

import pytest
from table_ui import (
    context,
    decision_kind,
    new_table,
    only_checking_bots,
    open_as_host,
    record_toasts,
    shot,
    sit_with_enter,
    wait_toast_shown,
)
from web_harness import ServerThread

pytestmark = pytest.mark.browser

PICKED = """() => ({
  picked: [...document.querySelectorAll('.me .card.selected')].map(e => e.dataset.card),
  cards: [...document.querySelectorAll('.me .card.pickable')].map(e => e.dataset.card),
  confirm: (document.getElementById('confirm') || {}).textContent,
  disabled: !!(document.getElementById('confirm') || {}).disabled,
})"""


def _wait_kind(page: Any, kind: str, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while decision_kind(page) != kind:
        assert time.monotonic() < end, f"no {kind} decision came (now {decision_kind(page)})"
        page.wait_for_timeout(30)


@pytest.mark.parametrize("name", ["phone", "desktop"])
def test_a_card_choice_holds_no_more_cards_than_it_takes(
        browser: Any, live: ServerThread, name: str) -> None:
    """Five Card Roll Your Own, Ann and one computer player.  At the discard (exactly
    3 cards to the pool) Ann taps 4 of her 6 cards: the fourth is refused, "Choose
    exactly 3 cards: ..." is shown, and the 3 first stay chosen with the button on.
    At the turn-up (one card) she taps her first card, then her second: the second
    replaces the first, and "Turn face up" is on."""
    tid, host_token = new_table(live.url, game="rollyourown", seats=2, bots=1)
    only_checking_bots(live, tid)
    ctx = context(browser, name)
    try:
        page = open_as_host(ctx, live.url, tid, host_token)
        sit_with_enter(page, "Ann")
        page.click("#start-btn")
        _wait_kind(page, "discard")
        record_toasts(page)
        cards = page.evaluate(PICKED)["cards"]
        assert len(cards) == 6
        for card in cards[:4]:
            page.locator(f".me .card.pickable[data-card='{card}']").click()
        wait_toast_shown(page, "Choose exactly 3 cards: tap a chosen card to unpick it first.")
        seen = page.evaluate(PICKED)
        shot(page, f"pick-limit-discard-{name}")
        assert seen["picked"] == cards[:3], seen
        assert seen["confirm"].startswith("Discard to the pool (3)"), seen
        assert not seen["disabled"], seen
        page.locator("#confirm").click()
        _wait_kind(page, "expose")
        up = page.evaluate(PICKED)["cards"]
        assert len(up) == 3
        page.locator(f".me .card.pickable[data-card='{up[0]}']").click()
        page.locator(f".me .card.pickable[data-card='{up[1]}']").click()
        seen = page.evaluate(PICKED)
        shot(page, f"pick-limit-expose-{name}")
        assert seen["picked"] == [up[1]], seen
        assert not seen["disabled"], seen
    finally:
        ctx.close()
