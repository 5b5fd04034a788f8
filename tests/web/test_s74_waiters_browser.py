"""s74-night: seats waiting for the big blind (s73-blinds) at a phone's and a
desktop's size (390x844 and 1440x900), one table for both: the host Ann's phone
and desktop pages and a friend's desktop page.

- Ann with three computer players moved to a seat the big blind reaches later
  than hers: the next hand, dealt without her, was the computer players' alone,
  who do not play alone; the felt said "Waiting for a person: computer players
  do not play alone." and Ann waited for a big blind that never came.  Now she
  is dealt in, as when fewer than two others could be.
- With Bob (the friend) seated too, the hand dealt without Ann showed her tile
  "waits for the big blind" and also "joins next hand" -- which she does not:
  she is dealt in when the big blind reaches her seat.  Now the first alone.

Screenshots test-artifacts/web/s74-waiter-*.png."""

from __future__ import annotations

import time
from typing import Any

import pytest
from table_ui import decision_kind, host_at_both_sizes, shot, sit, take_decision
from web_harness import ServerThread

pytestmark = pytest.mark.browser


def _tags(page: Any, where: str) -> list[str]:
    return [t.strip() for t in page.locator(f"{where} .tag").all_inner_texts()]


def _play_hand_one(live: ServerThread, table: Any, pages: list[Any]) -> None:
    end = time.monotonic() + 90
    while not live.call(lambda: table.hand is None and table.session.get("hand_no") == 1):
        assert time.monotonic() < end, "hand 1 never ended"
        for page in pages:
            kind = decision_kind(page)
            if kind is not None:
                take_decision(page, kind)
        pages[0].wait_for_timeout(100)


def _move(live: ServerThread, table: Any, phone: Any, to: int) -> None:
    phone.once("dialog", lambda d: d.accept())
    phone.locator(f"#seats button.seat.empty[data-seat='{to}']").click()
    end = time.monotonic() + 20
    while not live.call(lambda: to in table.seats and table.seats[to].row.name == "Ann"):
        assert time.monotonic() < end, "Ann never moved"
        time.sleep(0.05)


def test_a_person_among_computer_players_is_dealt_in_not_left_waiting(
        browser: Any, live: ServerThread) -> None:
    with host_at_both_sizes(browser, live, game="holdem", seats=7, bots=3) as at:
        table, phone, desktop, _friend = at
        assert live.call(lambda: sorted(table.seats)) == [0, 4, 5, 6]
        phone.click("#start-btn")
        _play_hand_one(live, table, [phone])
        assert live.call(lambda: table.session["button"]) == 0
        # Ann would post the big blind in hand 3; from seat 2, in hand 4 (the button
        # first): a move past it, but the others are computer players alone, who
        # do not deal hand 2 without her (main: she waited, and so did they)
        _move(live, table, phone, 1)
        assert live.call(lambda: table.session.get("bb_wait", [])) == []
        live.call(lambda: table.dealer.deal_now())
        for size, page in (("phone", phone), ("desktop", desktop)):
            page.wait_for_selector("#status :text('Hand 2')")
            page.wait_for_selector("#controls button")  # (her turn comes: she plays)
            assert "waits for the big blind" not in page.locator("#seats").inner_text()
            shot(page, f"s74-waiter-bots-{size}")
        assert live.call(lambda: 1 in table.hand.seats and table.hand.hand_no == 2)


def test_a_seat_waiting_for_the_big_blind_does_not_read_joins_next_hand(
        browser: Any, live: ServerThread) -> None:
    with host_at_both_sizes(browser, live, game="holdem", seats=7, bots=3) as at:
        table, phone, desktop, friend = at
        sit(friend, "Bob")
        assert live.call(lambda: sorted(table.seats)) == [0, 1, 4, 5, 6]
        phone.click("#start-btn")
        _play_hand_one(live, table, [phone, friend])
        assert live.call(lambda: table.session["button"]) == 0
        # Ann would have the big blind in hand 4; from seat 3, in hand 6: she waits
        assert live.call(lambda: table.views.you(0, False)["moves_wait"]) == [2, 3]
        _move(live, table, phone, 2)
        assert live.call(lambda: table.session.get("bb_wait")) == [2]
        live.call(lambda: table.dealer.deal_now())
        end = time.monotonic() + 30
        while not live.call(lambda: table.hand is not None and table.hand.hand_no == 2):
            assert time.monotonic() < end, "hand 2 was never dealt"
            time.sleep(0.05)
        # hand 2 waits for Bob (a person) to act: Ann is not dealt in
        assert live.call(lambda: sorted(table.hand.seats)) == [1, 4, 5, 6]
        for size, page in (("phone", phone), ("desktop", desktop), ("friend", friend)):
            page.wait_for_selector("#status :text('Hand 2')")
            # (Ann's own seat: her dock's tags, and on a desktop her tile too)
            where = ".me" if page is not friend else "#seats [data-seat='2']"
            page.wait_for_selector(f"{where} .tag:text('waits for the big blind')")
            # (main: and "joins next hand")
            assert set(_tags(page, where)) == {"waits for the big blind"}, size
            shot(page, f"s74-waiter-{size}")
        for page in (phone, desktop):
            assert page.locator("#notice").inner_text().count("big blind reaches seat 3") == 1
