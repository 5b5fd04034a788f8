"""The felt's middle clear of every seat tile (s59-felt): at 1440x900, seven
seats, a Roll Your Own hand over (tall tiles: shown hands, "wins" badges, the
hand's words) with a tournament's deal panel open above the felt (the felt at
its shortest, 30em), the wild card and its "WILD CARD" label in the middle sat
over the bottom ~60 px of a seat tile.  Now the middle moves into the gap between
the tiles above and below it (table/centre.js): no piece of the middle overlaps a
tile at the end of a hand, at a phone's and a desktop's size, seven and eight
seats, the felt as tall as the page lets it be and at its shortest (a block as
tall as the deal panel put above it).  Seed 11: at eight seats the top seat's
tile reached 13-27 px into the unmoved middle.  A tile's bet (past the tile's
edge on a wide screen) counts as a piece of the tile (s60-table: it was left out),
checked during a hand of betting players too.  Screenshots
test-artifacts/web/felt-centre-{phone,desktop}-{7,8}.png, felt-centre-bets-*.png."""

from __future__ import annotations

import time
from typing import Any

import pytest
from table_ui import (
    DESKTOP,
    PHONE,
    decision_kind,
    goto_as_host,
    new_table,
    shot,
    sit_with_enter,
    take_decision,
    wait_played,
)
from test_table_ui import play_hand
from web_harness import ServerThread, only_betting_bots, seeded_deals

pytestmark = pytest.mark.browser

OVERLAPS = """() => {
  const box = (e) => e.getBoundingClientRect();
  const centre = [...document.querySelectorAll(
    '#center > *, #center .slot, #center .card, #center .label')]
    .filter(e => e.getClientRects().length);
  // a tile's bet sits past its edge on a wide screen (style.css): a piece of it too
  const tiles = [...document.querySelectorAll('#seats .seat, #seats .bet-chips')];
  const out = [];
  for (const c of centre) for (const t of tiles) {
    const a = box(c), b = box(t);
    if (a.left < b.right - .5 && b.left < a.right - .5
        && a.top < b.bottom - .5 && b.top < a.bottom - .5)
      out.push([c.className, t.dataset.seat + (t.matches('.bet-chips') ? ' bet' : ''),
                Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top)]);
  }
  const seats = tiles.filter(t => t.matches('.seat')).length;
  return {out, tiles: seats, bets: tiles.length - seats,
          cy: Number(document.querySelector('#center').dataset.cy || 0)};
}"""


@pytest.mark.parametrize("seats", [7, 8])
def test_the_middle_keeps_clear_of_every_tile_at_a_hands_end(
        browser: Any, live: ServerThread, monkeypatch: pytest.MonkeyPatch, seats: int) -> None:
    # The hand is played once, on the phone; the same player's page at a desktop's
    # size then loads the table at the same hand's end (stop 60: the same seeded hand
    # was played twice, once a size).
    seeded_deals(monkeypatch, 11)
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    desktop = browser.new_context(viewport=DESKTOP)
    try:
        played, tid, _ = play_hand(live, phone.new_page(), "rollyourown", seats,
                                   f"felt-centre-{seats}", checking=True)
        desktop.add_cookies(phone.cookies())
        for size, page in (("phone", played), ("desktop", desktop.new_page())):
            if size == "desktop":
                page.goto(f"{live.url}/t/{tid}")
            _check_the_middle(page, size, seats)
    finally:
        phone.close()
        desktop.close()


def _check_the_middle(page: Any, size: str, seats: int) -> None:
    """No piece of the middle overlaps a seat tile at the hand's end on ``page``,
    the felt as tall as the page lets it be, then at its shortest."""
    page.wait_for_selector("#center .wild-rank")
    page.wait_for_timeout(300)
    got = page.evaluate(OVERLAPS)
    assert got["tiles"] == seats - 1 and got["out"] == [], (size, seats, got)
    shot(page, f"felt-centre-{size}-{seats}")
    page.evaluate(SHORTEST)
    page.wait_for_timeout(300)
    got = page.evaluate(OVERLAPS)
    assert got["out"] == [], (size, seats, "shortest", got)
    if size == "desktop":
        height = page.evaluate("() => document.querySelector('#felt').offsetHeight")
        assert height == 30 * 16  # (its min-height, 30em: as short as it gets)
        if seats == 8:   # (this deal's top tile reached into the unmoved middle)
            assert got["cy"] > 0, got
    shot(page, f"felt-centre-{size}-{seats}-short")


SHORTEST = """() => { const f = document.querySelector('#felt');
  const d = document.createElement('div'); d.style.height = '300px';
  f.parentNode.insertBefore(d, f); f.scrollIntoView(); }"""
"""The felt at its shortest: a block as tall as a tournament's deal panel above it."""


@pytest.mark.parametrize("seats", [7, 8])
def test_the_middle_keeps_clear_of_every_bet_during_a_hand(
        browser: Any, live: ServerThread, monkeypatch: pytest.MonkeyPatch, seats: int) -> None:
    """s60-table: a tile's bet (past the tile's edge on a wide screen, toward the
    middle) was left out of the check above. Computer players that bet the least
    they may (else call), Ann calling: at each of her decisions, the felt at its
    shortest, no piece of the middle overlaps a tile or a bet.  Both sizes from one
    hand (stop 63: the same seeded hand was played twice, once a size): Ann plays on
    her phone page; her desktop page (the same player) is checked at each of her
    decisions once it has drawn that state."""
    seeded_deals(monkeypatch, 11)
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    desktop = browser.new_context(viewport=DESKTOP)
    try:
        tid, host_token = new_table(live.url, game="rollyourown", seats=seats,
                                    bots=seats - 1)
        only_betting_bots(live, tid)
        page = goto_as_host(phone.new_page(), live.url, tid, host_token)
        sit_with_enter(page, "Ann")
        desktop.add_cookies(phone.cookies())  # (the same player)
        desk = desktop.new_page()
        desk.goto(f"{live.url}/t/{tid}")
        desk.wait_for_selector(".me .name:has-text('Ann')")
        pages = {"phone": page, "desktop": desk}
        for p in pages.values():
            p.evaluate(SHORTEST)
        page.click("#start-btn")
        made, end = 0, time.monotonic() + 60
        bets = dict.fromkeys(pages, 0)
        while not page.locator("#result:not(.hidden)").count():
            assert time.monotonic() < end, f"the hand did not finish; {made} decisions"
            kind = decision_kind(page)
            if kind is None:
                page.wait_for_timeout(30)
                continue
            seq = page.evaluate("() => Number(document.body.dataset.seq)")
            desk.wait_for_function("s => Number(document.body.dataset.seq) >= s", arg=seq,
                                   timeout=10_000)
            page.wait_for_timeout(200)  # (the middle fitted after the layout: both pages)
            for size, p in pages.items():
                got = p.evaluate(OVERLAPS)
                assert got["out"] == [], (size, seats, made, got)
                bets[size] = max(bets[size], got["bets"])
                if got["bets"] >= 2 and made < 6:
                    shot(p, f"felt-centre-bets-{size}-{seats}-{made}")
            take_decision(page, kind, "rollyourown")
            made += 1
            wait_played(page, live, tid, made, f"decision {made}")
        assert min(bets.values()) >= 4, bets   # (bets were on the felt to check)
    finally:
        phone.close()
        desktop.close()
