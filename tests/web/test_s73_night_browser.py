"""Stop 73 (s73-night): what a weekly game's night tripped on at the web table, at
a phone's and a desktop's size (390x844 and 1440x900), one table for both: the
host Ann's phone and a desktop page of hers (the same cookies), and a friend
watching from a desktop:

- a folded hand was still named in your dock against the board dealt after the
  fold ("pair of nines, king-queen-jack" under the folded Q♦ J♦, as if it were
  still in play); a folded hand is dead (R-C-11): no name once you fold;
- the host's own pages said "Ann changed a chip's worth ..." of herself, where
  the rest of the page says "you": now "You changed ..." on hers (chat and toast),
  "Ann changed ..." on everyone else's.

Screenshots test-artifacts/web/s73-night-*.png."""

from __future__ import annotations

import time
from typing import Any

import pytest
from table_ui import (
    DESKTOP,
    PHONE,
    decision_kind,
    host_at_both_sizes,
    hosted_table,
    record_toasts,
    shot,
    viewport_context,
    wait_toast_shown,
)
from web_harness import ServerThread

pytestmark = pytest.mark.browser


def test_a_folded_hand_is_not_named_and_the_host_reads_you(
        browser: Any, live: ServerThread) -> None:
    with host_at_both_sizes(browser, live, game="holdem", seats=3, bots=2) as at:
        phone, desktop, friend = at.phone, at.desktop, at.friend
        pages = {"phone": phone, "desktop": desktop}
        phone.click("#start-btn")
        end = time.monotonic() + 30
        while decision_kind(phone) != "bet":
            assert time.monotonic() < end, "Ann's first decision never came"
            phone.wait_for_timeout(30)
        for size, page in pages.items():  # (named while in play)
            page.wait_for_selector("#me .hand-name")
            assert page.locator("#me .hand-name").inner_text().strip(), size
        phone.click("#controls [data-action=fold]")
        if phone.locator("#controls [data-action=fold-confirm]").count():
            phone.click("#controls [data-action=fold-confirm]")  # (a free check folded)
        for size, page in pages.items():
            page.wait_for_selector("#result:not(.hidden)", timeout=30_000)
            page.wait_for_selector("#me.folded")
            assert page.locator("#center .card").count() == 5, size
            # your folded cards still shown, named against no board
            assert page.locator("#me .card").count() == 2, size
            assert page.locator("#me .hand-name").count() == 0, \
                (size, page.locator("#me .hand-name").all_inner_texts())
            shot(page, f"s73-night-folded-{size}")

        # Ann changes a setting from her phone's host controls, between hands
        for page in (phone, desktop, friend):
            record_toasts(page)
        if not phone.is_visible("#host-controls"):
            phone.click("#host-box summary")
        phone.fill("#host-controls input[name=chip_value]", "0.05")
        phone.click("#host-controls [data-host=config]")
        change = "changed a chip's worth from nothing (chips only) to 0.05."
        for who, page in (("You", phone), ("You", desktop), ("Ann", friend)):
            notice = page.locator("#chat-lines .chat-line.notice")
            notice.first.wait_for(state="attached")
            assert notice.all_text_contents() == [f"{who} {change}"], who
            wait_toast_shown(page, f"{who} {change}")
        # a page opened afterwards (the chat's lines before its first state) says the same
        desktop.reload()
        desktop.locator("#chat-lines .chat-line.notice").first.wait_for(state="attached")
        desktop.wait_for_selector("#me .me-head")
        assert desktop.locator("#chat-lines .chat-line.notice").all_text_contents() == [
            f"You {change}"]
        shot(phone, "s73-night-you-changed-phone")
        shot(friend, "s73-night-ann-changed-desktop")


def test_a_move_asked_while_the_game_is_named_waits_for_that_hand(
        browser: Any, live: ServerThread) -> None:
    """Ann taps a free seat while she names the next hand's game (dealer's choice):
    the move was refused ("the next hand is being dealt: ask again once it is
    dealt", a toast gone in 4 s, the tap lost); now it waits for that hand's end,
    the notice saying so, and her pages then read "You moved ..." (everyone else's
    "Ann moved ...")."""
    phone_ctx = viewport_context(browser, PHONE)
    desktop_ctx = viewport_context(browser, DESKTOP)
    try:
        _tid, _host, table, phone = hosted_table(
            live, phone_ctx, game="dealers-choice", choices=["holdem", "razz"], seats=3,
            bots=1)
        desktop_ctx.add_cookies(phone_ctx.cookies())
        desktop = desktop_ctx.new_page()
        desktop.goto(phone.url)
        desktop.wait_for_selector("#me .me-head")
        ann = live.call(lambda: next(n for n, s in table.seats.items() if s.row.bot is None))
        assert ann == 0  # (seat 0: the button of hand 1, who names its game)
        to = live.call(lambda: next(n for n in range(3) if n not in table.seats))
        phone.click("#start-btn")
        phone.wait_for_selector("#controls [data-game=holdem]")
        asked: list[str] = []

        def accept(d: Any) -> None:
            asked.append(d.message)
            d.accept()

        phone.once("dialog", accept)
        phone.click(f"#seats button.seat.empty[data-seat='{to}']")
        waits = f"You move to seat {to + 1} when the next hand ends."
        for size, page in (("phone", phone), ("desktop", desktop)):
            page.wait_for_selector(f"#notice .seat-change:has-text('{waits}')")
            held = page.locator(f"#seats .seat.empty[data-seat='{to}']")
            assert held.inner_text() == f"Seat {to + 1} — Ann's after the next hand", size
            shot(page, f"s73-night-move-asked-{size}")
        assert asked == [f"Move to seat {to + 1}? Your chips and your ledger line go with "
                         "you; you move when the next hand ends."]
        assert live.call(lambda: table.session.get("seat_changes")) == {
            str(ann): {"to": to, "digest": table.seats[ann].row.token_digest}}
        phone.click("#controls [data-game=holdem]")
        end = time.monotonic() + 60
        while not phone.locator(f"#chat-lines .chat-line.notice:has-text('seat {to + 1}')"
                                ).count():
            assert time.monotonic() < end, "the move was never made"
            kind = decision_kind(phone)
            if kind in ("bet", "fold-confirm"):
                phone.locator("#controls [data-action=check], #controls [data-action=call]"
                              ).first.click()
            phone.wait_for_timeout(50)
        moved = f"moved from seat {ann + 1} to seat {to + 1}."
        for size, page in (("phone", phone), ("desktop", desktop)):
            notice = page.locator(f"#chat-lines .chat-line.notice:has-text('{moved}')")
            notice.wait_for(state="attached")
            assert notice.all_text_contents() == [f"You {moved}"], size
            page.wait_for_selector("#notice .seat-change", state="detached")
            shot(page, f"s73-night-moved-{size}")
        assert live.call(lambda: (table.seats[to].row.name, ann in table.seats)) == ("Ann", False)
    finally:
        for c in (phone_ctx, desktop_ctx):
            c.close()
