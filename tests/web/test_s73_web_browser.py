"""Stop 73 (s73-web): what a friends' night tripped on at the web table, at a
phone's and a desktop's size (390x844 and 1440x900), one table per test with the
player's phone and a desktop page of theirs (the same cookies) reading it:

- your buttons (Sit out, Straddle, Top up, Leave) wrapped one by one: with a
  long name and a top-up on offer, Leave and Top up fell to a second row at the
  dock's left, under the name, apart from Sit out at the right; now one group
  that wraps as a whole, each button's words on one line;
- a hand run twice named each run's winners by name under its board, the
  viewer too ("Ann +198" on Ann's own page, where the rest of it says "you"):
  now "you +198", live and in the replay; and the hand list said "won by you,
  Bot 1 (random)" of its two runs, as of a split pot: now "run 1 won by you;
  run 2 by Bot 1 (random)".

Screenshots test-artifacts/web/s73-*.png."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from table_ui import DESKTOP, PHONE, decision_kind, hosted_table, shot, viewport_context
from web_harness import ServerThread, seeded_deals

from rollem.server import host_tools

pytestmark = pytest.mark.browser

ROWS = """() => {
  const box = (e) => e.getBoundingClientRect();
  const me = box(document.querySelector('#me'));
  const head = box(document.querySelector('#me .me-head'));
  return [...document.querySelectorAll('#me .me-head button:not(.hidden)')].map((b) => {
    const r = document.createRange(); r.selectNodeContents(b);
    const lines = new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;
    const at = box(b);
    return {text: b.textContent, top: Math.round(at.top), lines: lines,
            inside: at.left >= me.left - 0.5 && at.right <= me.right + 0.5,
            atRight: Math.abs(at.right - head.right) < 1};
  });
}"""


def _pages(browser: Any, live: ServerThread,
           **config: Any) -> tuple[Any, dict[str, Any], list[Any]]:
    """A table hosted from Ann's phone and a desktop page of hers on it: (the live
    table, {"phone": page, "desktop": page}, the contexts to close)."""
    phone = viewport_context(browser, PHONE)
    desktop = viewport_context(browser, DESKTOP)
    _tid, _host, table, page = hosted_table(live, phone, **config)
    desktop.add_cookies(phone.cookies())  # (the same player and host)
    other = desktop.new_page()
    other.goto(page.url)
    other.locator("#me .me-head").wait_for()
    return table, {"phone": page, "desktop": other}, [phone, desktop]


def test_your_buttons_wrap_together(browser: Any, live: ServerThread) -> None:
    table, pages, contexts = _pages(
        browser, live, name="Alessandra Maria", game="holdem", seats=3, bots=2,
        straddle="mississippi", rebuys=True)
    try:
        seat = next(n for n, s in table.seats.items() if s.row.bot is None)
        live.call(lambda: host_tools.adjust_stack(table, seat, 150))  # (a top-up of 50)
        for size, page in pages.items():
            page.wait_for_selector("#me .top-up")
            buttons = page.evaluate(ROWS)
            assert [b["text"] for b in buttons] == \
                ["Sit out", "Straddle: off", "Top up +50", "Leave"], (size, buttons)
            # one row, each button's words on one line, all inside your box
            assert len({b["top"] for b in buttons}) == 1, (size, buttons)
            assert all(b["lines"] == 1 and b["inside"] for b in buttons), (size, buttons)
            assert buttons[-1]["atRight"], (size, buttons)
            shot(page, f"s73-buttons-{size}")
            page.click("#me .leave")
            buttons = page.evaluate(ROWS)
            # (the question is longer: on a phone it may take a row of its own, at
            # the right where Leave was, never under the name at the left)
            assert buttons[-1]["text"] == "Leave the table?", (size, buttons)
            assert buttons[-1]["atRight"], (size, buttons)
            assert len({b["top"] for b in buttons}) == (2 if size == "phone" else 1), \
                (size, buttons)
            assert all(b["lines"] == 1 and b["inside"] for b in buttons), (size, buttons)
            shot(page, f"s73-buttons-{size}-leave")
    finally:
        for c in contexts:
            c.close()


def test_your_share_of_a_run_is_yours(browser: Any, live: ServerThread,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # (seed 11: Ann's shove against the computer player's call splits the runs)
    seeded_deals(monkeypatch, 11)
    table, pages, contexts = _pages(
        browser, live, game="holdem", seats=2, bots=1, structure="no-limit",
        run_twice=True)
    try:
        phone = pages["phone"]
        seat = next(n for n, s in table.seats.items() if s.row.bot is None)
        phone.click("#start-btn")
        end = time.monotonic() + 30
        while not phone.locator("#controls [data-action=run-twice-yes]").count():
            assert time.monotonic() < end, "the run-it-twice question never came"
            if decision_kind(phone) == "bet" and phone.locator(
                    "#controls [data-size=allin]").count():
                phone.click("#controls [data-size=allin]")
                phone.locator("#controls [data-action=raise], #controls [data-action=bet]"
                              ).first.click()
            phone.wait_for_timeout(50)
        phone.click("#controls [data-action=run-twice-yes]")
        for page in pages.values():
            page.wait_for_selector("#center .slot.run[data-run='2'] .run-winners")
        hand = table.final_hand
        assert hand is not None and hand.hand.result is not None
        runs = hand.hand.result.runs
        names = table.names()
        want, winners = [], []
        for run in runs:
            chips: dict[int, int] = {}
            for pot in run["pots"]:
                for s, c in pot["winners"].items():
                    chips[int(s)] = chips.get(int(s), 0) + c
            want.append(", ".join(f"{'you' if s == seat else names[s]} +{c}"
                                  for s, c in chips.items()))
            winners.append(", ".join("you" if s == seat else names[s] for s in sorted(chips)))
        assert any(w.startswith("you +") for w in want), want  # (the seed's point)
        for size, page in pages.items():
            said = page.locator("#center .run-winners").all_inner_texts()
            assert said == want, (size, said, want)
            shot(page, f"s73-runs-{size}")
            # the replay's result step says the same under each board
            page.click("#result [data-action=replay-last]")
            page.wait_for_selector("#replay:not(.hidden)")
            while not page.is_disabled("#replay-next"):
                page.click("#replay-next")
            said = page.locator("#replay-center .run-winners").all_inner_texts()
            assert said == want, (size, said, want)
            page.click("#replay-close")
            # the hand list says who won each run (was "won by you, Bot 1 (random)",
            # read as a split pot)
            if not page.is_visible("#history"):
                page.click("summary:has-text('Hand history')")
            line = page.locator("#history li button").first
            line.wait_for()
            runs_said = "; ".join(f"run {k + 1} {'won by' if k == 0 else 'by'} {w}"
                                  for k, w in enumerate(winners))
            assert re.fullmatch(re.escape(f"Hand 1 · Texas Hold'em · {runs_said} · you ")
                                + r"[+-]?\d+", line.inner_text()), (size, line.inner_text())
            line.scroll_into_view_if_needed()
            shot(page, f"s73-runs-{size}-history")
    finally:
        for c in contexts:
            c.close()
