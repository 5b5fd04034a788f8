"""Practice odds as the browser wraps them (issue 33: no odds line broken mid-phrase;
s67-try): on a phone the odds line broke "each ±" from "1.3 points", "each" from
"± 0.8 points" and "low" from "half 18%", and the rest of a wrapped
advice line ("low half 18%") came back to the box's left edge, where it read as a
line of its own.  The lines are the server's own words
(:func:`rollem.odds.display.play_lines`' forms), shown by the page's odds module
(``showOdds``, ``showAdvice``), at 390x844 and 1440x900."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from table_ui import context, new_table, open_as_host, shot, sit_with_enter, wait_until
from web_harness import ServerThread

pytestmark = pytest.mark.browser

HEADS = [
    "Your odds: equity {e}% (expected share of the pot) · whole pot {w}% · a share {s}% · "
    "nothing {n}% · each ± {i} points (95% interval, Monte Carlo)",
    "Your odds: equity {e}% (expected share of the pot) · whole pot {w}% · a share {s}% · "
    "nothing {n}% · each ± {i} points, rough (few effective worlds: may be wider)",
    "Your odds: equity {e}% (expected share of the pot) · whole pot (scoop) {w}% · a share "
    "{s}% · nothing {n}% · high half {h}% · low half {l}% · best declare high · each ± {i} "
    "points (95% interval, Monte Carlo)",
    "Your odds: equity {e}% if you declare high (the best; expected share of the pot) · "
    "whole pot (scoop) {w}% · a share {s}% · nothing {n}% · high half {h}% · low half {l}% "
    "· each ± {i} points (95% interval, Monte Carlo)",
]
FIGURES = [dict(e=e, w=w, s=s, n=100 - w - s, h=h, l=lo, i=i)
           for e, w, s, h, lo, i in itertools.product(
               (4, 27, 100), (3, 21, 100), (0, 12), (9, 60), (0, 18), ("0.1", "1.4"))
           if w + s <= 100][:24]
LINES = [head.format(**f) for head in HEADS for f in FIGURES]

ADVICE = [
    "Advice, cards to throw (the 10 best of 16 options, each played out in 5,000 random "
    "deals; every later choice made by rule of thumb; ± is a 95% interval):",
    "  throw 2h 9d  equity 51.0% ± 1.4   high half 60%, low half 18%",
    "  throw 3s 9d  equity 50.9% ± 1.4   high half 32%, low half 51%   <- rule of thumb",
    "  throw Td Jc  equity 12.5% ± 1.1   high half 4%, low half 20%   (stopped after "
    "1,000 deals: clearly behind)",
]

ROWS = """(selector) => {
  // Every character of the element's text with the row the browser put it on, and
  // whether it begins a line of the text (after a newline, or a block of its own).
  const root = document.querySelector(selector);
  const chars = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let start = true, parent = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentNode !== parent) { start = true; parent = node.parentNode; }
    for (let i = 0; i < node.data.length; i++) {
      const c = node.data[i];
      if (c === "\\n") { start = true; continue; }
      const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1);
      const box = r.getClientRects()[0];
      if (box && box.width > 0) chars.push({ c, top: Math.round(box.top), left: box.left, start });
      start = false;
    }
  }
  const rows = [];
  for (const ch of chars) {
    const row = rows[rows.length - 1];
    if (row && Math.abs(row.top - ch.top) < 3) { row.text += ch.c; continue; }
    rows.push({ top: ch.top, text: ch.c, left: ch.left, start: ch.start });
  }
  const cs = getComputedStyle(root), box = root.getBoundingClientRect();
  const probe = document.createElement("span"); probe.textContent = "0000000000";
  root.appendChild(probe); const ch = probe.getBoundingClientRect().width / 10; probe.remove();
  return { rows, left: box.left + parseFloat(cs.paddingLeft) + parseFloat(cs.borderLeftWidth),
           ch, right: box.right, width: innerWidth };
}"""

SHOW = """async ([lines, advice]) => {
  const odds = await import("/static/table/odds.js");
  if (advice) {
    odds.showAdvice({ advice: { decision: "draw", options: 16,
                                choices: [{ action: "throw 2h 9d", equity: 0.51 }] },
                      lines });
    document.getElementById("odds-advice").open = true;
  } else odds.showOdds({ text: lines[0] });
}"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_odds_lines_wrap_between_phrases_and_advice_lines_hang(
        browser: Any, live: ServerThread, size: str) -> None:
    ctx = context(browser, size)
    try:
        tid, host = new_table(live.url, game="rollem521", seats=2, bots=1, practice_odds=True)
        page = open_as_host(ctx, live.url, tid, host)
        sit_with_enter(page, "Ann")
        page.check("#odds-toggle")
        wait_until(page, "() => !document.getElementById('odds-box')"
                         ".classList.contains('hidden')")
        wrapped = 0
        for line in LINES:
            page.evaluate(SHOW, [[line], False])
            got = page.evaluate(ROWS, "#odds-line")
            rows = [r["text"] for r in got["rows"]]
            wrapped += len(rows) > 1
            # each short phrase whole on one row, and no row starts with the " · "
            for phrase in (x for x in line.split(" · ") if len(x) <= 24):
                assert any(phrase in r.replace("\u00a0", " ") for r in rows), (size, phrase, rows)
            assert not any(r.lstrip().startswith("·") for r in rows), (size, rows)
            for before, after in itertools.pairwise(rows):
                # a row never ends on "each" or "±" nor starts with a figure or "points"
                assert not before.rstrip().endswith(("±", " each")), (size, rows)
                assert not after.lstrip()[:1].isdigit(), (size, rows)
                assert not after.lstrip().startswith("points"), (size, rows)
        assert wrapped >= len(LINES) // 2, (size, wrapped)  # (the check is not idle)
        page.locator("#odds-box").scroll_into_view_if_needed()
        shot(page, f"s67-odds-line-{size}")

        page.evaluate(SHOW, [ADVICE, True])
        got = page.evaluate(ROWS, "#odds-advice-list")
        rest = [r for r in got["rows"] if not r["start"]]
        assert rest, (size, got["rows"])  # (the header wraps at both sizes)
        for row in rest:  # a wrapped line's rest is indented under its line's start
            assert row["left"] >= got["left"] + 3.5 * got["ch"], (size, row, got["left"])
        for row in got["rows"]:
            if row["start"]:
                assert row["left"] <= got["left"] + 0.5 * got["ch"], (size, row, got["left"])
        # the ten is drawn "10♦", the columns in line, nothing past the screen's edge
        assert any("10♦" in r["text"] for r in got["rows"]), got["rows"]
        assert got["right"] <= got["width"], got
        assert page.evaluate("() => document.documentElement.scrollWidth") <= got["width"]
        page.locator("#odds-advice").scroll_into_view_if_needed()
        shot(page, f"s67-odds-advice-{size}")
    finally:
        ctx.close()
