"""5-2-1's "Keep as dealt" at a phone's and a desktop's size (390x844 and 1440x900),
one table for both: the host Ann's phone plays, a desktop page of hers (the same
cookies) reads along.  Ann throws away her first card at each draw; at the stacking
both pages offer "Keep as dealt", and the order it keeps is the cards in the places
dealt, each drawn card in the place of the card it replaced (R-521-6), not the
order held, whose drawn cards come last (stop 74: the button, then "Keep this
order", kept that order, and the roll-ups told the table which cards Ann drew).

Screenshots test-artifacts/web/s74-keep-*.png."""

from __future__ import annotations

import time
from typing import Any

import pytest
from table_ui import decision_kind, host_at_both_sizes, shot, take_decision
from web_harness import ServerThread

from rollem.cards import CARDS
from rollem.engine.draw import held_in_places

pytestmark = pytest.mark.browser


def _throw_the_first_card(page: Any) -> None:
    page.locator(".me .card.pickable").first.click()
    page.locator("#confirm:not([disabled])").click()
    page.wait_for_selector("#confirm[data-action=draw]", state="detached")


def test_keep_as_dealt_keeps_the_places_dealt_not_the_order_held(
        browser: Any, live: ServerThread) -> None:
    with host_at_both_sizes(browser, live, game="rollem521", seats=3, bots=2,
                            between_hands=1) as at:
        table, phone, desktop, _friend = at
        ann = live.call(lambda: next(n for n, s in table.seats.items() if s.row.name == "Ann"))
        phone.click("#start-btn")
        end = time.monotonic() + 120
        while True:  # (a hand the computer players fold out of ends before the stacking)
            assert time.monotonic() < end, "Ann never stacked after a draw"
            kind = decision_kind(phone)
            if kind == "draw":
                _throw_the_first_card(phone)
            elif kind == "stack":
                drew = live.call(lambda: any(e.kind == "draw" and e.seat == ann and e.data["cards"]
                                             for e in table.hand.hand.events))
                if drew:
                    break
                take_decision(phone, kind)
            elif kind is not None:
                take_decision(phone, kind)
            phone.wait_for_timeout(100)
        held, places = live.call(lambda: (list(table.hand.hand.hole[ann]),
                                          list(held_in_places(table.hand.hand, ann))))
        assert held != places  # (her first card thrown: its replacement is last in held)
        for size, page in (("phone", phone), ("desktop", desktop)):
            keep = page.locator("#controls [data-action=stack-keep]")
            keep.wait_for()
            assert keep.inner_text().startswith("Keep as dealt"), size
            assert "in the places they were dealt" in (keep.get_attribute("title") or ""), size
            # the order it keeps is said where a phone shows it (the cards shown
            # hold the drawn ones last; a title is never seen on a phone)
            said = page.locator("#controls .stack-keep-order").inner_text()
            shown = [CARDS[c].symbol.replace("T", "10") for c in places]
            assert said == f"Keep as dealt: {' '.join(shown[:-1])} up, {shown[-1]} down", size
            shot(page, f"s74-keep-{size}")
        desktop.locator("#controls [data-action=stack-keep]").click()
        hand_no = live.call(lambda: table.hand.hand_no)
        deadline = time.monotonic() + 30
        while True:
            stacked = live.call(lambda: [e.data["cards"] for e in table.hand.hand.events
                                         if e.kind == "stacked" and e.seat == ann]
                                if table.hand is not None and table.hand.hand_no == hand_no
                                else None)
            if stacked:
                break
            assert time.monotonic() < deadline, "Ann's stacking never came"
            time.sleep(0.05)
        assert [str(CARDS[c]) for c in stacked[0]] == [str(CARDS[c]) for c in places]
