from __future__ import annotations
from typing import Any
import json
import pytest
from table_ui import DESKTOP, PHONE, shot
from test_table_ui import play_hand
from web_harness import ServerThread, seeded_deals

pytestmark = pytest.mark.browser

PAST = """() => {
  const out = [];
  for (const t of document.querySelectorAll('#seats .seat[data-seat]')) {
    const b = t.getBoundingClientRect();
    const inner = {left: b.left + t.clientLeft, top: b.top + t.clientTop,
                   right: b.left + t.clientLeft + t.clientWidth, bottom: b.top + t.clientTop + t.clientHeight};
    let worst = 0, what = '';
    for (const e of t.querySelectorAll('*')) {
      if (e.closest('.bet-chips')) continue;
      const rg = document.createRange(); rg.selectNodeContents(e);
      for (const r of [...e.getClientRects(), ...rg.getClientRects()]) {
        if (!r.width || !r.height) continue;
        const p = Math.max(inner.left - r.left, inner.top - r.top, r.right - inner.right, r.bottom - inner.bottom);
        if (p > worst) { worst = p; what = e.className + ':' + e.textContent.slice(0, 30); }
      }
    }
    out.push([t.dataset.seat, Math.round(worst * 10) / 10, what, Math.round(b.height)]);
  }
  return out;
}"""

@pytest.mark.parametrize("seed", [11])
@pytest.mark.parametrize("seats", [7, 8])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_explore(browser: Any, live: ServerThread, monkeypatch: pytest.MonkeyPatch, size: str, seats: int, seed: int) -> None:
    seeded_deals(monkeypatch, seed)
    opts: dict[str, Any] = ({"viewport": PHONE, "is_mobile": True, "has_touch": True}
                            if size == "phone" else {"viewport": DESKTOP})
    ctx = browser.new_context(**opts)
    try:
        page, _, _ = play_hand(live, ctx.new_page(), "rollyourown", seats,
                               f"zz-{size}-{seats}", checking=True)
        page.wait_for_selector("#center .wild-rank")
        page.wait_for_timeout(300)
        page.evaluate("""() => { const f = document.querySelector('#felt');
          const d = document.createElement('div'); d.style.height = '300px';
          f.parentNode.insertBefore(d, f); f.scrollIntoView(); }""")
        page.wait_for_timeout(300)
        page.evaluate("""() => {
          for (const t of document.querySelectorAll('#seats .seat[data-seat]')) {
            let d = t.querySelector('.described');
            if (!d) { d = document.createElement('div'); d.className = 'described'; t.appendChild(d); }
            const chip = (x, red) => '<span class="inline-card ' + (red ? 'red' : 'black') + '">' + x + '</span>';
            d.innerHTML = 'four aces, five kicker (wild ' + chip('Q♥', 1) + ' plays as ' + chip('A♣') + ', wild ' + chip('Q♣') + ' plays as ' + chip('A♠') + ')';
          }
        }""")
        page.wait_for_timeout(200)
        print(size, seats, seed, 'short', json.dumps(page.evaluate(PAST)))
        shot(page, f"zz-{size}-{seats}-{seed}-short")
    finally:
        ctx.close()
