"""The seat tiles patched, not rebuilt (issue 26: a slow phone's frames), in Debian's
Chromium through Playwright at 390x844 and 1440x900.

Each seat keeps its tile from one state to the next and only the parts whose
content changed are drawn again: an opponent's action redraws its label and chips,
not its name or its cards; a hand's end redraws the cards shown and what was won,
not the seats' heads.  Checked by what the page shows (each part's content) and
which elements show it (an element kept is the same node), never by time (the
frames' times are bench/bench_web_felt.py's).

Screenshots: test-artifacts/web/patch-*.png.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from table_ui import (
    after_frames,
    context,
    new_table,
    only_checking_bots,
    open_as_host,
    shot,
    sit_with_enter,
)
from test_felt_frames_browser import play_hand
from web_harness import ServerThread

pytestmark = pytest.mark.browser

PARTS = r"""
window.__tiles = [];
const ids = new WeakMap(); let made = 0;
const idOf = (n) => {
  if (!n) return null; if (!ids.has(n)) ids.set(n, ++made); return ids.get(n); };
// A cards row's content: each card's face (the animation classes left out).
const faces = (row) => row ? [...row.children].map((c) =>
  c.className.replace(/\b(deal-in|flip-up)\b/g, '').trim() + ':' + c.textContent).join(' ') : null;
// After each state is drawn: each opponent tile's head, cards row and label, each
// part's element (a number per node) and content.
// (the event comes just before the table draws the state, so that the page's seed
// goes out first: the tiles are read in a microtask, once the drawing is done)
window.addEventListener('rollem:state', () => queueMicrotask(() => {
  const h = window.rollemState.state.hand;
  const tiles = {};
  document.querySelectorAll('#seats .seat[data-seat]').forEach((n) => {
    const head = n.querySelector(':scope > .seat-head');
    const row = n.querySelector(':scope > .cards');
    const label = n.querySelector(':scope > .action-label');
    tiles[n.dataset.seat] = {tile: idOf(n),
      head: idOf(head), headText: head ? head.textContent : null,
      cards: idOf(row), faces: faces(row),
      label: idOf(label), labelText: label ? label.textContent : null};
  });
  window.__tiles.push({hand: h ? h.hand_no : null, over: !!(h && h.result), tiles: tiles});
}));
"""
"""Records, after each state is drawn, each opponent tile's element and those of its
head, its cards row and its label, with what each shows."""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_seat_tiles_are_patched_part_by_part(browser: Any, live: ServerThread,
                                             size: str) -> None:
    """Ann (the host) and three checking computer players play a hand of hold'em to
    its end, Ann checking or calling.  Between any two states of the hand drawn one
    after the other, each opponent keeps its tile (the same element), and each part
    of it that shows the same content (its head, its cards, its label) is the same
    element: an opponent's check redraws its label alone.  At the hand's end, each
    opponent's head is the element it was before; the cards whose faces changed
    (shown at the showdown) are new elements.  At least one opponent acts with its
    cards kept (the check has something to check)."""
    ctx = context(browser, size)
    ctx.add_init_script(PARTS)
    try:
        tid, host_token = new_table(live.url, game="holdem", seats=4, bots=3)
        only_checking_bots(live, tid)
        page = open_as_host(ctx, live.url, tid, host_token)
        sit_with_enter(page, "Ann")
        page.click("#start-btn")
        play_hand(page, live, tid, 1)
        after_frames(page)   # (the pot's chips set off: a still shot lands them)
        shot(page, f"patch-{size}-hand-over")
        states = [s for s in page.evaluate("window.__tiles") if s["hand"] == 1]
        assert len(states) > 5, states
        kept_through_a_label = 0
        for before, after in itertools.pairwise(states):
            assert set(before["tiles"]) == set(after["tiles"]), (before, after)
            for seat, a in after["tiles"].items():
                b = before["tiles"][seat]
                where = f"seat {seat}, {b} -> {a}"
                assert a["tile"] == b["tile"], "tile replaced: " + where
                if a["headText"] == b["headText"]:
                    assert a["head"] == b["head"], "head redrawn, same words: " + where
                if a["faces"] == b["faces"] and a["faces"] is not None:
                    assert a["cards"] == b["cards"], "cards redrawn, same faces: " + where
                    if a["labelText"] != b["labelText"]:
                        kept_through_a_label += 1
                if a["labelText"] == b["labelText"]:
                    assert a["label"] == b["label"], "label redrawn, same words: " + where
                if a["faces"] != b["faces"]:
                    assert a["cards"] != b["cards"], "cards changed in place: " + where
        assert kept_through_a_label > 0, "no opponent acted with its cards kept"
        ends = [(b, a) for b, a in itertools.pairwise(states)
                if a["over"] and not b["over"]]
        assert len(ends) == 1, ends
        b, a = ends[0]
        for seat, tile in a["tiles"].items():
            assert tile["head"] == b["tiles"][seat]["head"], f"seat {seat}: head redrawn at the end"
    finally:
        ctx.close()


SAME_VALUE = r"""
window.__same = {}; window.__writes = 0;
// Every attribute write the page makes (a MutationObserver on the whole body with
// old values): those that set the value the attribute already had, by element and
// attribute name.  Such a write changes nothing on screen, yet queues a mutation
// record and has the style engine check the attribute's selectors (a state's
// render at 10 seats on a phone at 4x is most of a 50 ms frame: issue 26).
document.addEventListener('DOMContentLoaded', () => new MutationObserver((records) => {
  for (const r of records) {
    if (r.type !== 'attributes') continue;
    window.__writes++;
    if (r.oldValue !== r.target.getAttribute(r.attributeName)) continue;
    const n = r.target, box = n.closest('[id]');
    const where = n.id ? '#' + n.id
      : (box ? '#' + box.id + ' ' : '') + n.tagName.toLowerCase() + '.'
        + [...n.classList].join('.');
    const k = where + ' [' + r.attributeName + ']';
    window.__same[k] = (window.__same[k] || 0) + 1;
  }
}).observe(document.body, {subtree: true, attributes: true, attributeOldValue: true}));
"""
"""Counts the page's attribute writes, and those that wrote the value already there."""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_state_writes_no_attribute_it_already_has(browser: Any, live: ServerThread,
                                                     size: str) -> None:
    """Ann (the host) and three checking computer players play a hand of hold'em to
    its end.  The page makes attribute writes (classes, clocks, labels), and none of
    them sets an attribute to the value it already had: main wrote the hand log's
    key, the host's pause and bomb-pot buttons' ``data-host`` and ``aria-pressed``,
    the advice box's ``data-decision`` and your tile's class again at every state
    (five writes a state that change nothing)."""
    ctx = context(browser, size)
    ctx.add_init_script(SAME_VALUE)
    try:
        tid, host_token = new_table(live.url, game="holdem", seats=4, bots=3)
        only_checking_bots(live, tid)
        page = open_as_host(ctx, live.url, tid, host_token)
        sit_with_enter(page, "Ann")
        page.click("#start-btn")
        play_hand(page, live, tid, 1)
        assert page.evaluate("window.__writes") > 20
        assert page.evaluate("window.__same") == {}
    finally:
        ctx.close()
