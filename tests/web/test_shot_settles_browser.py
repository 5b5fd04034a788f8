"""The browser tests' screenshots wait for the felt's moves to end (stop 54): a shot
taken as a state came drew chips mid-flight over a seat's cards
(felt-phone-10-result.png: the pot's "140" over Bot 8's cards), the test's moment,
not the page's. ``table_ui.shot`` ends (``finish()``; s66-table: waited for) every
animation that ends within ``SETTLE_MS`` (``document.getAnimations()``), not an
endless one; ``moving=True``
takes the picture at once (a test's picture of the flights themselves), in
Debian's Chromium through Playwright at 390x844 and 1440x900.
Screenshots: test-artifacts/web/settle-*.png.
"""

from __future__ import annotations

from typing import Any

import pytest
from table_ui import DESKTOP, PHONE, shot

pytestmark = pytest.mark.browser

# Chips flying over a card (as motion.js flies them: a CSS animation of a
# `.flying-chips` span, here 1.5 s), and a glow that never ends (a turn's mark).
PAGE = """<!doctype html><html><head><meta name="viewport" content="width=device-width">
</head><body style="margin:0;background:#0b5d36">
<style>
@keyframes fly { from { transform: translate(0, 0); } to { transform: translate(0, 300px); } }
@keyframes glow { from { opacity: 1; } to { opacity: .5; } }
.card { position: absolute; left: 40px; top: 200px; width: 60px; height: 84px;
        background: #fff; border-radius: 6px; animation: glow 1s infinite alternate; }
.flying-chips { position: absolute; left: 40px; top: 100px; color: gold; font: 24px sans-serif;
                animation: fly 1.5s linear forwards; }
</style>
<div class="card">K</div><span class="flying-chips">● 140</span>
<script>document.querySelector('.flying-chips').addEventListener('animationend',
  (e) => e.target.remove());</script>
</body></html>"""

MOVING = """() => document.getAnimations()
  .filter((a) => ['running', 'pending'].includes(a.playState))
  .map((a) => a.animationName || 'other').sort()"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_shot_waits_for_the_chips_to_land(browser: Any, size: str) -> None:
    ctx = (browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
           if size == "phone" else browser.new_context(viewport=DESKTOP))
    try:
        page = ctx.new_page()
        page.set_content(PAGE)
        assert page.evaluate(MOVING) == ["fly", "glow"]
        shot(page, f"settle-{size}-moving", moving=True)  # (at once: in flight, mostly)
        shot(page, f"settle-{size}-landed")
        # landed and gone (main: the shot was taken with the chips over the card);
        # the endless glow was not waited for and still runs
        assert page.locator(".flying-chips").count() == 0
        assert page.evaluate(MOVING) == ["glow"]
    finally:
        ctx.close()
