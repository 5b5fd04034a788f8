"""A new hand drawn over a hand's end with the elements it can keep (issue 26: a
slow phone's frames), in Debian's Chromium through Playwright at 390x844 and
1440x900.

At 10 seats on a phone at 4x slower the first state of a new hand and a hand's end
are the felt's heaviest frames (docs/dev/felt-frames.md).  What they need not make
again, they keep: an opponent's row of card backs at the hand's end stays the same
element when the new hand deals it backs again (its deal still moves it in), each
seat's chips line stays the same element (its stack's text and its bet changed in
it), the live region's lines are plain text (no element a card) added with the side
panels (a frame later), and the ledger's rows are kept at a hand's end (their
figures changed in them).  Checked by
which elements show what (an element kept is the same node) and what they show,
never by time (the frames' times are bench/bench_felt_motion.py's).

Screenshots: test-artifacts/web/new-hand-*.png.
"""

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
    wait_until,
)
from test_felt_frames_browser import MOVES_STARTED, SHOWN, play_hand
from web_harness import ServerThread

pytestmark = pytest.mark.browser

REDRAW = r"""async () => {
  const {render} = await import('/static/table/main.js');
  // (the animationstart events of moves started before now sent: a frame after)
  for (let i = 0; i < 2; i++) await new Promise((done) => requestAnimationFrame(done));
  const states = window.__states;
  const last = (pred) => states.filter(pred).pop();
  const over1 = last((s) => s.hand && s.hand.hand_no === 1 && s.hand.result);
  const dealt2 = states.find((s) => s.hand && s.hand.hand_no === 2);
  // Hand 1's end as a table where every opponent mucked: their cards backs, none shown.
  const mucked = structuredClone(over1);
  const me = mucked.you.seat;
  mucked.hand.seats.forEach((hs, i) => {
    if (i === me || !hs || !hs.cards.length) return;
    hs.cards = hs.cards.map(() => null); hs.up = hs.up.map(() => false);
  });
  mucked.hand.result.shown = {}; mucked.hand.result.shown_cards = {};
  const tiles = () => [...document.querySelectorAll('#seats .seat[data-seat]')];
  render(mucked, over1);
  const before = {};
  for (const n of tiles()) {
    before[n.dataset.seat] = {row: n.querySelector(':scope > .cards'),
                              chips: n.querySelector(':scope > .chips')};
  }
  const started = [];
  for (const n of tiles()) {
    const row = before[n.dataset.seat].row;
    if (row) row.addEventListener('animationstart', (e) => {
      if (e.target === row) started.push(n.dataset.seat + ':' + e.animationName);
    });
  }
  const region = document.getElementById('announce');
  const lastBefore = region.lastElementChild;
  render(dealt2, mucked);
  // (its lines wait for the side panels, drawn in a task after this frame)
  const out = {seats: {}, toldAtOnce: region.lastElementChild === lastBefore};
  for (const n of tiles()) {
    const seat = n.dataset.seat, b = before[seat] || {};
    const row = n.querySelector(':scope > .cards'), chips = n.querySelector(':scope > .chips');
    const hs = dealt2.hand.seats[Number(seat)];
    out.seats[seat] = {
      rowKept: !!row && row === b.row,
      chipsKept: !!chips && chips === b.chips,
      faces: row ? [...row.children].map((c) => c.dataset.card) : null,
      waiting: !!row && row.classList.contains('move-wait'),
      stack: chips ? chips.querySelector('.stack').textContent : null,
      bet: chips && chips.querySelector('.bet-chips')
        ? Number(chips.querySelector('.bet-chips').dataset.amount) : 0,
      wantStack: String(hs.stack), wantBet: hs.bet || 0, wantCards: hs.cards.length};
  }
  // the deal's moves start within a few frames: each kept row moves in again
  const end = performance.now() + 5000;
  while (started.length < Object.keys(before).length && performance.now() < end) {
    await new Promise((done) => requestAnimationFrame(done));
  }
  out.started = started.sort();
  const next = lastBefore ? lastBefore.nextElementSibling : region.firstElementChild;
  out.toldNext = next ? next.textContent : null;
  out.announce = [...document.querySelectorAll('#announce p')].map((p) => ({
    text: p.textContent, elements: p.querySelectorAll('*').length}));
  return out;
}"""
"""Draws hand 1's end with every opponent's cards mucked (backs), then hand 2's first
state over it, through the page's own render, and says for each opponent whether
its cards row and chips line are the elements drawn before, what they show, and
which kept rows started their deal; and the live region's lines."""


LEDGER_ROWS_KEPT = r"""async () => {
  const {render} = await import('/static/table/main.js');
  const now = window.rollemState.state;
  render(now, now);   // (the newest state drawn again: the page as it was)
  const rows = () => [...document.querySelectorAll('#ledger tr')]
    .filter((r) => r.querySelector('td'));
  const before = rows();
  window.__ledgerNow = () => {
    const after = rows();
    return {kept: after.length === before.length && after.every((r, k) => r === before[k]),
      rows: after.map((r) => [...r.children].map((c) => c.textContent + '|' + c.className)),
      want: window.rollemState.state.table.ledger.map((l) => [
        l.name + (l.left ? ' (left)' : '') + (l.bot ? ' · computer' : '') + '|',
        l.brought + '|', l.stack + '|',
        (l.net > 0 ? '+' : '') + l.net + '|' + (l.net >= 0 ? 'plus' : 'minus')])};
  };
}"""
"""Draws the newest state again (the page as it was before the test's redrawing),
notes the ledger's rows, and leaves ``window.__ledgerNow()``: whether the rows now
are those elements, what they show, and what the table's ledger says."""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_new_hand_keeps_the_rows_of_backs_and_the_chips_lines(browser: Any,
                                                                 live: ServerThread,
                                                                 size: str) -> None:
    """Ann (the host) and two checking computer players play hand 1 of hold'em to
    its end, then the host deals hand 2.  Hand 1's end drawn with every opponent's
    two cards as backs (mucked), then hand 2's first state over it: each opponent's
    row of two backs is the element it was (on main a new one), waiting for its
    deal (``move-wait``), and then moves in again (its ``deal-in`` animation
    starts); each opponent's chips line is the element it was, showing the new
    hand's stack and bet (the blinds).  Hand 2's lines are not in the live region
    when the state's render returns (on main they were), and come after it ("Hand
    2: ..." first).  The live region's lines hold no element (on main a card was a
    span), and hand 1's lines still say the cards as rank and suit.  Hand 2 played
    to its end: the ledger's rows are the elements they were (on main made again),
    each showing the table's ledger line (name, brought, stack, net and its sign's
    class)."""
    ctx = context(browser, size)
    ctx.add_init_script(SHOWN)
    try:
        tid, host_token = new_table(live.url, game="holdem", seats=3, bots=2)
        only_checking_bots(live, tid)
        page = open_as_host(ctx, live.url, tid, host_token)
        sit_with_enter(page, "Ann")
        page.click("#start-btn")
        play_hand(page, live, tid, 1)
        page.locator("#host-box").evaluate("d => { d.open = true; }")   # (host controls)
        page.click("#host-controls [data-host=deal_now]")
        # hand 2 dealt; Ann's turn comes before the computer players act twice.  At
        # her turn no state comes until she acts: the page's own moves started (and
        # their animationstart events sent, REDRAW's first frames) before the test
        # draws anything (on a loaded machine the start of a row of the live deal
        # whose event came after REDRAW's listeners counted as that seat's start)
        wait_until(page, "() => window.__states.some(s => s.hand && s.hand.hand_no === 2)")
        end = time.monotonic() + 30
        while decision_kind(page) != "bet":
            assert time.monotonic() < end, "Ann's turn in hand 2 never came"
            page.wait_for_timeout(30)
        wait_until(page, MOVES_STARTED)
        got = page.evaluate(REDRAW)
        page.wait_for_timeout(600)   # (the deal's moves over: a still shot)
        shot(page, f"new-hand-{size}")
        seats = got["seats"]
        assert len(seats) == 2, got
        for seat, s in seats.items():
            where = f"seat {seat}: {s}"
            assert s["faces"] == ["back"] * s["wantCards"] and s["wantCards"] == 2, where
            assert s["rowKept"], "row of backs made again: " + where
            assert s["waiting"], "kept row not waiting for its deal: " + where
            assert s["chipsKept"], "chips line made again: " + where
            assert s["stack"] == s["wantStack"] and s["bet"] == s["wantBet"], where
        assert got["started"] == sorted(f"{seat}:deal-in" for seat in seats), got
        assert any(s["wantBet"] for s in seats.values()), "no blind at an opponent's seat"
        # hand 2's lines not in the live region in the state's own task; said after
        assert got["toldAtOnce"], got
        assert (got["toldNext"] or "").startswith("Hand 2: "), got
        lines = got["announce"]
        assert lines and all(line["elements"] == 0 for line in lines), lines
        assert any(ch in line["text"] for line in lines for ch in "♣♦♥♠"), lines

        # The ledger at hand 2's end: the same rows, hand 2's figures in them.
        page.evaluate(LEDGER_ROWS_KEPT)
        play_hand(page, live, tid, 2)
        wait_until(page, "() => document.querySelector('#ledger caption').textContent"
                         " === 'after hand 2'")
        ledger = page.evaluate("window.__ledgerNow()")
        shot(page, f"new-hand-{size}-ledger")
        assert ledger["rows"] == ledger["want"], ledger
        assert ledger["kept"], "ledger rows made again at hand 2's end: " + str(ledger)
    finally:
        ctx.close()
