"""s70-felt, in a real browser (Debian's Chromium through Playwright) at 390x844 and
1440x900: what a newcomer playing the three home games met.

- **The wild card's pick** (Five Card Roll Your Own, the lowest hand showing picks a
  pool card): the pool's face-down cards to tap were drawn small (``.card.small``,
  about 22x32 px on a phone), the smallest thing at the table anyone has to tap, and
  the decision the whole table waits for.  They are drawn at a hand card's size now,
  each at least 44 px each way, in the controls' width (wrapping to a second row
  where eight players leave eight cards).
- **The felt's status line spoke of the reader in the third person**: the host, before
  the first deal, read "Waiting for the host to deal." (a newcomer who made the table
  waits for someone else); now "Waiting for you to deal: press Deal to start." (a
  friend still reads "Waiting for the host to deal.").  On the button at dealer's
  choice you read "Ann names the game (dealer's choice)…" over your own choice; now
  "You name the game (dealer's choice)…".
- **Everyone at once at eight to ten seats**: the status line named every player still
  to choose ("everyone at once: Bot 1 (basic), Bot 2 (basic), ... , you"): four lines,
  which on a wide screen's oval (the line stands 6% above the bottom rim, 40% wide)
  ran up over the two bottom tiles, and on a phone took three lines of the felt.
  More than three still to choose: "everyone at once: you and 7 others" (a watcher:
  "8 players"); up to three are still named.

Screenshots test-artifacts/web/s70f-*.png."""

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
    shot,
    sit_with_enter,
    take_decision,
)
from web_harness import ServerThread, seeded_deals

pytestmark = pytest.mark.browser

TAP = 44
"""The least side of a thing to tap on a phone, in CSS px (Apple's 44 pt; Material's
48 dp is larger)."""


def _to_the_wild_pick(page: Any, timeout: float = 150.0) -> None:
    """Play Ann's decisions (check or call, the fewest cards) hand after hand until she
    is the one to pick the wild card: the lowest hand showing, about one hand in two
    heads-up."""
    end = time.monotonic() + timeout
    while True:
        assert time.monotonic() < end, "Ann never had the wild card to pick"
        kind = decision_kind(page)
        if kind == "wild":
            return
        if kind is None:
            page.wait_for_timeout(50)
            continue
        take_decision(page, kind)
        page.wait_for_timeout(120)


BOXES = """() => [...document.querySelectorAll('#controls [data-position]')].map(e => {
  const r = e.getBoundingClientRect();
  return {x: r.left, y: r.top, w: r.width, h: r.height, vw: innerWidth, vh: innerHeight};
})"""


def test_the_wild_cards_pool_cards_are_big_enough_to_tap(
        browser: Any, live: ServerThread, monkeypatch: pytest.MonkeyPatch) -> None:
    """One table played from Ann's phone while a desktop page of hers follows along
    (her cookies: the same player), every check on both pages (stop 72); the phone's
    tap picks the card.  Seeded: the same deck each hand, Ann's pick in hand 2 (main:
    unseeded, up to 150 s of hands until she had the lowest hand showing)."""
    seeded_deals(monkeypatch, 1)  # (Ann picks in hand 2, every run)
    ctx = context(browser, "phone")
    contexts = [ctx]
    try:
        tid, host = new_table(live.url, game="rollyourown", seats=2, bots=1, between_hands=1)
        only_checking_bots(live, tid)
        page = open_as_host(ctx, live.url, tid, host)
        sit_with_enter(page, "Ann")
        desk_ctx = context(browser, "desktop")
        contexts.append(desk_ctx)
        desk_ctx.add_cookies(ctx.cookies())
        desk = desk_ctx.new_page()
        desk.goto(f"{live.url}/t/{tid}")
        desk.locator(".me").first.wait_for()
        pages = {"phone": page, "desktop": desk}
        page.click("#start-btn")
        _to_the_wild_pick(page)
        desk.wait_for_selector("#controls .wild-pick [data-position]")
        for size, p in pages.items():
            shot(p, f"s70f-{size}-wild-pick")
            boxes = p.evaluate(BOXES)
            assert len(boxes) >= 2, (size, boxes)
            for b in boxes:
                # each a thumb's size (main: 22x32 on a phone, 26x37 on a laptop), whole
                # on the screen
                assert b["w"] >= TAP and b["h"] >= TAP, (size, boxes)
                assert b["x"] >= 0 and b["x"] + b["w"] <= b["vw"], (size, boxes)
                assert b["y"] >= 0 and b["y"] + b["h"] <= b["vh"], (size, boxes)
            for i, a in enumerate(boxes):          # and apart
                for b in boxes[i + 1:]:
                    assert (a["x"] + a["w"] <= b["x"] + 0.5 or b["x"] + b["w"] <= a["x"] + 0.5
                            or a["y"] + a["h"] <= b["y"] + 0.5
                            or b["y"] + b["h"] <= a["y"] + 0.5), (size, a, b)
            # eight players leave eight pool cards: the row wraps and every card, and the
            # prompt, stays on the screen (the cards copied in the page, for the layout only)
            p.evaluate("""() => { const row = document.querySelector('#controls .wild-pick .cards');
              const first = row.firstElementChild;
              while (row.children.length < 8) { const c = first.cloneNode(true);
                c.dataset.position = 'copy'; row.appendChild(c); } }""")
            eight = p.evaluate(BOXES.replace("[data-position]", ".wild-pick .card"))
            assert len(eight) == 8, size
            for b in eight:
                assert b["w"] >= TAP and b["h"] >= TAP, (size, eight)
                assert b["x"] >= 0 and b["x"] + b["w"] <= b["vw"], (size, eight)
                assert b["y"] >= 0 and b["y"] + b["h"] <= b["vh"], (size, eight)
            # (stop 72: the words say why Ann picks and what the pick does, R-RYO-7)
            assert p.inner_text("#controls .wild-pick .prompt") == (
                "Your hand showing is the lowest, so you pick the wild card: tap a pool card. "
                "It turns up, and every card of its rank is wild."), size
            prompt = p.locator("#controls .wild-pick .prompt").bounding_box()
            assert prompt is not None and prompt["y"] >= 0, (size, prompt)
            shot(p, f"s70f-{size}-wild-pick-eight")
            p.evaluate("""() => document.querySelectorAll(
              '#controls .wild-pick [data-position=copy]').forEach(e => e.remove())""")
        # a tap picks it: the wild card is turned up on the felt (on both pages)
        page.locator("#controls [data-position='0']").tap()
        for size, p in pages.items():
            p.wait_for_selector("#center .card.wild", timeout=20_000)
            shot(p, f"s70f-{size}-wild-picked")
    finally:
        for c in contexts:
            c.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_status_line_tells_the_host_and_the_button_it_is_them(
        browser: Any, live: ServerThread, size: str) -> None:
    ctx = context(browser, size)
    friend_ctx = context(browser, size)
    try:
        tid, host = new_table(live.url, game="dealers-choice", seats=3, bots=1)
        only_checking_bots(live, tid)
        page = open_as_host(ctx, live.url, tid, host)
        sit_with_enter(page, "Ann")
        friend = friend_ctx.new_page()
        friend.goto(f"{live.url}/t/{tid}")
        sit_with_enter(friend, "Bob")
        status = "() => document.getElementById('status').textContent"
        assert page.evaluate(status) == "Waiting for you to deal: press Deal to start."
        assert page.locator("#start-btn").is_visible()      # (the Deal it names)
        assert friend.evaluate(status) == "Waiting for the host to deal."
        shot(page, f"s70f-{size}-host-before-deal")
        page.click("#start-btn")
        # the first button is the host's seat: Ann names the game, Bob waits for her
        page.wait_for_selector("#controls [data-game]", timeout=20_000)
        assert page.evaluate(status) == "You name the game (dealer's choice)…"
        end = time.monotonic() + 20
        while friend.evaluate(status) != "Ann names the game (dealer's choice)…":
            assert time.monotonic() < end, friend.evaluate(status)
            friend.wait_for_timeout(50)
        shot(page, f"s70f-{size}-you-name-the-game")
    finally:
        ctx.close()
        friend_ctx.close()


TILES_AND_STATUS = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return {x: r.left, y: r.top, r: r.right, b: r.bottom}; };
  const st = document.getElementById('status');
  const css = getComputedStyle(st);
  const line = parseFloat(css.lineHeight) || 1.2 * parseFloat(css.fontSize);
  return {text: st.textContent, status: box(st),
          rows: Math.round(st.getBoundingClientRect().height / line),
          tiles: [...document.querySelectorAll('#seats .seat')].filter(e => e.offsetParent)
            .map(e => ({name: e.querySelector('.name') ? e.querySelector('.name').textContent : '',
                        ...box(e)}))};
}"""


def _at_anns_first_discard(ctx: Any, live: ServerThread, seats: int) -> Any:
    """Ann's page at her first Roll Your Own discard, ``seats`` seats, the others
    computer players slow to choose (all still choosing at once)."""
    tid, host = new_table(live.url, game="rollyourown", seats=seats, bots=seats - 1,
                          bot_delay=30)
    page = open_as_host(ctx, live.url, tid, host)
    sit_with_enter(page, "Ann")
    page.click("#start-btn")
    end = time.monotonic() + 30
    while decision_kind(page) != "discard":
        assert time.monotonic() < end, "Ann's discard never came"
        page.wait_for_timeout(50)
    return page


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_everyone_at_once_at_eight_seats_fits_the_status_line(
        browser: Any, live: ServerThread, size: str) -> None:
    ctx = context(browser, size)
    try:
        # the computer players take their time: at the first discard all eight still
        # choose (Roll Your Own's most)
        page = _at_anns_first_discard(ctx, live, seats=8)
        shot(page, f"s70f-{size}-eight-at-once")
        got = page.evaluate(TILES_AND_STATUS)
        # main: "... everyone at once: Bot 1 (random), Bot 2 (random), ..., you"
        assert got["text"].endswith("· discard to the pool · everyone at once: you and 7 "
                                    "others"), got["text"]
        assert got["rows"] <= 2, (got["rows"], got["status"])
        st = got["status"]
        for tile in got["tiles"]:   # (a wide screen: main's four rows ran over two tiles)
            assert (st["r"] <= tile["x"] or tile["r"] <= st["x"] or st["b"] <= tile["y"]
                    or tile["b"] <= st["y"]), (tile, st)
    finally:
        ctx.close()


def test_three_still_to_choose_are_named(browser: Any, live: ServerThread) -> None:
    """Up to three players still to choose at once are named, as before."""
    ctx = context(browser, "phone")
    try:
        page = _at_anns_first_discard(ctx, live, seats=3)
        text = page.evaluate("() => document.getElementById('status').textContent")
        assert text.endswith("everyone at once: Bot 1 (random), Bot 2 (random), you"), text
    finally:
        ctx.close()
