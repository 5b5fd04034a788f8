"""The felt's middle clear of every seat tile (s59-felt): at 1440x900, seven
seats, a Roll Your Own hand over (tall tiles: shown hands, "wins" badges, the
hand's words) with a tournament's deal panel open above the felt (the felt at
its shortest, 30em), the wild card and its "WILD CARD" label in the middle sat
over the bottom ~60 px of a seat tile.  Now the middle moves into the gap between
the tiles above and below it (table/centre.js): no piece of the middle overlaps a
tile at the end of a hand, at a phone's and a desktop's size, seven and eight
seats, the felt as tall as the page lets it be and at its shortest (a block as
tall as the deal panel put above it).  Seed 11: at eight seats the top seat's
tile reached 13-27 px into the unmoved middle.  Screenshots
test-artifacts/web/felt-centre-{phone,desktop}-{7,8}.png."""

from __future__ import annotations

from typing import Any

import pytest
from table_ui import DESKTOP, PHONE, shot
from test_table_ui import play_hand
from web_harness import ServerThread, seeded_deals

pytestmark = pytest.mark.browser

OVERLAPS = """() => {
  const box = (e) => e.getBoundingClientRect();
  const centre = [...document.querySelectorAll(
    '#center > *, #center .slot, #center .card, #center .label')]
    .filter(e => e.getClientRects().length);
  const tiles = [...document.querySelectorAll('#seats .seat')];
  const out = [];
  for (const c of centre) for (const t of tiles) {
    const a = box(c), b = box(t);
    if (a.left < b.right - .5 && b.left < a.right - .5
        && a.top < b.bottom - .5 && b.top < a.bottom - .5)
      out.push([c.className, t.dataset.seat,
                Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top)]);
  }
  return {out, tiles: tiles.length, cy: Number(document.querySelector('#center').dataset.cy || 0)};
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
    # the felt at its shortest: a block as tall as a tournament's deal panel above it
    page.evaluate("""() => { const f = document.querySelector('#felt');
      const d = document.createElement('div'); d.style.height = '300px';
      f.parentNode.insertBefore(d, f); f.scrollIntoView(); }""")
    page.wait_for_timeout(300)
    got = page.evaluate(OVERLAPS)
    assert got["out"] == [], (size, seats, "shortest", got)
    if size == "desktop":
        height = page.evaluate("() => document.querySelector('#felt').offsetHeight")
        assert height == 30 * 16  # (its min-height, 30em: as short as it gets)
        if seats == 8:   # (this deal's top tile reached into the unmoved middle)
            assert got["cy"] > 0, got
    shot(page, f"felt-centre-{size}-{seats}-short")
