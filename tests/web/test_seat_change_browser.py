"""Stop 59's two staples in Debian's Chromium through Playwright, on a phone
(390x844) and a desktop (1440x900), one table for both (the host's phone plays, a
desktop page of hers reads along):

- a seat change: during a hand, a seated player taps a free seat ("Seat 5 — free:
  move here"), confirms, and the notice says when they move ("You move to seat 5
  when this hand ends." with Stay); the seat's tile says whose it is; at the hand's
  end they sit there with their chips.  Eight seats: every tile stays inside the
  felt (a desktop's oval) and clear of the others;
- the host closes the table for good ("Close the table…", confirmed): the last hand
  plays out, then everyone sees "The night is over" with the final nets, who pays
  whom and the downloads; a page opened later sees the same and no seat to take.

Screenshots: test-artifacts/web/seat-change-*.png, night-closed-*.png.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from felt_ui import FELT_OVAL
from table_ui import (
    DESKTOP,
    PHONE,
    decision_kind,
    new_table,
    only_checking_bots,
    open_as_host,
    shot,
    sit,
    take_decision,
)
from web_harness import ServerThread

pytestmark = pytest.mark.browser

TILES = "() => {\n" + FELT_OVAL + """
  return [...document.querySelectorAll('#seats .seat[data-seat], #seats .seat.empty')].map(t => {
    const b = t.getBoundingClientRect();
    return {seat: Number(t.dataset.seat), text: t.textContent,
            box: [b.left, b.top, b.right, b.bottom],
            inner: [inner.left, inner.top, inner.right, inner.bottom],
            past: Math.max(outside(b.left, b.top), outside(b.right, b.top),
                           outside(b.left, b.bottom), outside(b.right, b.bottom)),
            wide: t.scrollWidth > t.clientWidth + 1};
  });
}"""


def _tiles_fit(page: Any, where: str) -> None:
    tiles = page.evaluate(TILES)
    for k, t in enumerate(tiles):
        box, inner = t["box"], t["inner"]
        assert (box[0] >= inner[0] - 1 and box[1] >= inner[1] - 1 and box[2] <= inner[2] + 1
                and box[3] <= inner[3] + 1), (where, t)
        assert t["past"] <= 1.0 and not t["wide"], (where, t)
        for other in tiles[k + 1:]:
            o = other["box"]
            assert not (box[0] < o[2] - 1 and o[0] < box[2] - 1 and box[1] < o[3] - 1
                        and o[1] < box[3] - 1), (where, t, other)


def _play_out(page: Any, live: ServerThread, table: Any) -> None:
    end = time.monotonic() + 60
    while live.call(lambda: table.hand is not None):
        assert time.monotonic() < end, "the hand never ended"
        kind = decision_kind(page)
        if kind is not None:
            take_decision(page, kind)
        page.wait_for_timeout(100)


def _deal(page: Any, live: ServerThread, table: Any) -> None:
    page.click("#start-btn")
    end = time.monotonic() + 30
    while live.call(lambda: table.hand is None):
        assert time.monotonic() < end, "hand 1 never dealt"
        page.wait_for_timeout(50)


def _both_sizes(browser: Any, live: ServerThread, **config: Any) -> tuple[Any, dict[str, Any]]:
    """A table (``new_table``'s, with ``config``; checking computer players) with its
    host Ann seated from a phone page, and a second page of hers at 1440x900 (the
    phone's cookies: the same player and host) reading along: one table at both sizes
    (stop 74).  Returns the table and the pages by size; close their contexts after."""
    tid, host_token = new_table(live.url, **config)
    only_checking_bots(live, tid)
    table = live.manager.get(tid)
    phone_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    desktop_ctx = browser.new_context(viewport=DESKTOP)
    page = open_as_host(phone_ctx, live.url, tid, host_token)
    sit(page, "Ann")
    desktop_ctx.add_cookies(phone_ctx.cookies())
    desktop = desktop_ctx.new_page()
    desktop.goto(page.url)
    desktop.locator(".me").first.wait_for()
    return table, {"phone": page, "desktop": desktop}


def test_a_player_moves_to_a_free_seat_when_the_hand_ends(
        browser: Any, live: ServerThread) -> None:
    """Ann's phone taps and confirms; her desktop page reads the same table."""
    table, pages = _both_sizes(browser, live, game="holdem", seats=8, bots=3, stack=400)
    page = pages["phone"]
    try:
        ann = next(n for n, s in table.seats.items() if s.row.name == "Ann")
        to = max(n for n in range(8) if n not in table.seats)
        _deal(page, live, table)
        tile = page.locator(f"#seats button.seat.empty[data-seat='{to}']")
        for name, p in pages.items():
            t = p.locator(f"#seats button.seat.empty[data-seat='{to}']")
            t.wait_for()
            assert t.inner_text() == f"Seat {to + 1} — free: move here", name
            _tiles_fit(p, f"{name}, free seats")
        page.once("dialog", lambda d: d.dismiss())  # (asked first: nothing sent)
        tile.click()
        page.wait_for_timeout(300)
        assert live.call(lambda: table.session.get("seat_changes")) in (None, {})
        asked: list[str] = []

        def accept(d: Any) -> None:
            asked.append(d.message)
            d.accept()

        page.once("dialog", accept)
        tile.click()
        for name, p in pages.items():
            p.wait_for_selector(f"#notice :text('You move to seat {to + 1} when this hand ends.')")
            held = p.locator(f"#seats .seat.empty[data-seat='{to}']")
            assert held.inner_text() == f"Seat {to + 1} — Ann's after this hand", name
            assert p.locator("#notice [data-action=seat-change-stay]").is_visible(), name
            _tiles_fit(p, f"{name}, a seat held")
            shot(p, f"seat-change-{name}-asked")
        # (the last free seat is past the big blind, but the others are computer
        # players, who do not play alone: no wait for it, s74-night)
        assert asked == [f"Move to seat {to + 1}? Your chips and your ledger line go with "
                         "you; you move when this hand ends."]
        _play_out(page, live, table)
        assert live.call(lambda: (table.seats[to].row.name, ann in table.seats)) == ("Ann", False)
        stack = live.call(lambda: table.seats[to].row.stack)
        for name, p in pages.items():
            p.wait_for_selector("#notice .seat-change", state="detached")
            p.wait_for_selector(f".me .chips:has-text('stack {stack}')")
            # (her own seat is the dock's: no tile of it on the felt; her old seat reads
            # free at once, not the last hand's picture under her name, and shows no card)
            p.wait_for_selector(f"#seats [data-seat='{to}']", state="detached")
            old = p.locator(f"#seats [data-seat='{ann}']")
            assert old.count() == 1, name
            old.and_(p.locator(".empty")).wait_for()
            assert old.inner_text() == f"Seat {ann + 1} — free: move here", name
            assert old.locator(".card").count() == 0, name
            _tiles_fit(p, f"{name}, moved")
            shot(p, f"seat-change-{name}-moved")
    finally:
        for p in pages.values():
            p.context.close()


def test_the_host_closes_the_table_and_everyone_sees_the_settle_up(
        browser: Any, live: ServerThread) -> None:
    """Ann's phone closes the table; her desktop page reads the same table; a page
    opened later at each size."""
    table, pages = _both_sizes(browser, live, game="holdem", seats=8, bots=2, stack=400,
                               chip_value="0.25")
    page = pages["phone"]
    later_ctx = {"phone": browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True),
                 "desktop": browser.new_context(viewport=DESKTOP)}
    try:
        _deal(page, live, table)
        if not page.is_visible("#host-controls"):
            page.click("#host-box summary")
        close = page.locator("#host-controls [data-host=close]")
        close.wait_for()
        assert close.inner_text() == "Close the table…"
        page.once("dialog", lambda d: d.dismiss())
        close.click()
        page.wait_for_timeout(300)
        assert live.call(lambda: table.session.get("ended")) is None
        asked: list[str] = []

        def accept(d: Any) -> None:
            asked.append(d.message)
            d.accept()

        page.once("dialog", accept)
        close.click()
        for p in pages.values():
            p.wait_for_selector("#notice :text('Ann is closing the table: this hand is the "
                                "last, then everyone settles up.')")
        assert asked == ["Close the table for good? The hand in play is played to its end, "
                         "then no more hands are dealt and everyone sees the final ledger. "
                         "This cannot be undone."]
        _play_out(page, live, table)
        stack = live.call(lambda: next(s.row.stack for s in table.seats.values()
                                       if s.row.name == "Ann"))
        for name, p in pages.items():
            viewport = PHONE if name == "phone" else DESKTOP
            ended = p.locator("#ended:not(.hidden)")
            ended.wait_for()
            assert ended.locator("h2").inner_text() == "The night is over", name
            assert p.locator("#host-panel").is_hidden(), name
            offered = ".me [data-action=sit-out]:visible, .me [data-action=leave]:visible"
            assert p.locator(offered).count() == 0, name
            links = ended.locator(".settle-links a")
            assert [links.nth(k).inner_text() for k in range(links.count())] == [
                "Ledger (CSV)", "Every hand's net (CSV)", "All my hands (PHH)"], name
            nets = ended.locator(".ended-nets li").all_inner_texts()
            assert nets == [f"Ann {'+' if stack > 400 else ''}{stack - 400}"], name
            # (the button's words on one line, phone and desktop alike)
            lines = p.evaluate("""() => {
              const b = document.querySelector('#notice [data-action=see-settle]');
              const r = document.createRange(); r.selectNodeContents(b);
              return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size;
            }""")
            assert lines == 1, f"the Settle up button wraps ({name})"
            p.click("#notice [data-action=see-settle]")
            p.wait_for_timeout(600)
            box = ended.bounding_box()
            assert box is not None and 0 <= box["y"] < viewport["height"] - 40, name
            assert box["x"] + box["width"] <= viewport["width"], name
            _tiles_fit(p, f"{name}, closed")
            shot(p, f"night-closed-{name}")
        assert live.call(lambda: table.session["ended"]["final"]) is True
        # a page opened later: the same end, no seat to take, nothing dealt again
        for name, ctx in later_ctx.items():
            later = ctx.new_page()
            later.goto(page.url)
            later.wait_for_selector("#ended:not(.hidden)")
            assert later.locator("#join").is_hidden(), name
            assert later.locator("#watching").inner_text() == (
                "You are watching — the host closed this table: the night is over."), name
            assert later.locator("#seats .seat.empty button, "
                                 "#seats button.seat.empty").count() == 0, name
            shot(later, f"night-closed-later-{name}")
        assert live.call(lambda: (table.hand, table.session["hand_no"])) == (None, 1)
    finally:
        for p in pages.values():
            p.context.close()
        for ctx in later_ctx.values():
            ctx.close()
