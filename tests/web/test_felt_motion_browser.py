"""The felt's pots, chips and clocks (issue 26), in Debian's Chromium through
Playwright at 390x844 and 1440x900:

- side pots drawn on the felt: a hand-worked all-in with three stacks (200, 200,
  20) shows the main pot and the side pot apart, beside the pot of every chip in
  the hand;
- the chips pushed to each winner: at the result a flight of chips leaves the pot
  for each pot's winner, lands on that winner's seat and is gone, and each
  winner's stack then reads what the server paid (with ``prefers-reduced-motion``
  nothing flies: tests/web/test_felt_browser.py::test_reduced_motion_moves_nothing);
- another player's clock: the seat that is to act shows its decision clock and
  timer bar to the other players, counting down (the page's clock is Playwright's,
  moved by the test: no waiting on real seconds).

Screenshots: test-artifacts/web/motion-*.png.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from table_ui import (
    ann_at_her_first_bet,
    context,
    decision_kind,
    new_table,
    open_as_host,
    shot,
    sit_with_enter,
    wait_played,
    wait_until,
)
from test_felt_browser import HEAR
from web_harness import ServerThread, only_betting_bots, seeded_deals

from rollem.server.host_tools import adjust_stack

pytestmark = pytest.mark.browser

FLIGHTS = r"""
window.__flights = [];
// A flight is placed first and set moving once the new state is painted (its
// class "fly": a CSS animation by --mx and --my): its move is read then.
const started = (n) => {
  const f = n.__flight;
  if (!f || f.move || !n.classList.contains('fly')) return;
  // the move, in the layer's container units: "12.5cqw", "-30cqh"
  const move = [n.style.getPropertyValue('--mx'), n.style.getPropertyValue('--my')];
  f.move = move.join(' ');
  // (placed in the felt's layer of flights, in percent of it: issue 26)
  const layer = n.parentElement.getBoundingClientRect();
  f.to = [layer.left + (parseFloat(n.style.left) + parseFloat(move[0])) * layer.width / 100,
          layer.top + (parseFloat(n.style.top) + parseFloat(move[1])) * layer.height / 100];
};
new MutationObserver(records => {
  for (const r of records) {
    if (r.type === 'attributes') { started(r.target); continue; }
    for (const n of r.addedNodes) {
      if (!(n instanceof HTMLElement) || !n.classList.contains('flying-chips')) continue;
      const f = {text: n.textContent, half: n.dataset.half || null, gone: false,
                 move: null, to: null};
      n.__flight = f;
      window.__flights.push(f);
      started(n);
    }
    for (const n of r.removedNodes) if (n.__flight) n.__flight.gone = true;
  }
}).observe(document, {childList: true, subtree: true, attributes: true,
                      attributeFilter: ['class']});
"""
"""Records each flight of chips the page starts: its text, where it lands (its
start plus its move) and whether it has ended (removed)."""



def seat_centre(page: Any, seat: int) -> list[float]:
    """The centre of ``seat``'s tile on the page (Ann's: her seat in the dock)."""
    sel = "#me" if seat == 0 else f"#seats .seat[data-seat='{seat}']"
    r = page.locator(sel).bounding_box()
    return [r["x"] + r["width"] / 2, r["y"] + r["height"] / 2]


def stack_drawn(page: Any, seat: int) -> int:
    if seat == 0:   # "stack 170" in the dock
        return int(page.inner_text("#me .me-head .chips").split()[-1])
    return int(page.inner_text(f"#seats .seat[data-seat='{seat}'] .stack"))


def test_side_pots_and_the_chips_pushed_to_each_winner(
        browser: Any, live: ServerThread, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hold'em no-limit, blinds 1 and 2, stacks Ann 200 (the button), Bot 1 200 (small
    blind), Bot 2 20 (big blind); betting computer players.  Ann raises to 30, Bot 1
    calls 30, Bot 2 calls all-in for 20: the main pot is 3 x 20 = 60, the side pot
    2 x 10 = 20.  On the flop Bot 1 bets 2: the felt says pot 82 (every chip in the
    hand), main pot 60, side pot 20.  Ann folds; Bot 1's bet comes back; the board
    runs out.  Seed 1: Bot 2 wins the main pot (60) and Bot 1 the side pot (20):
    stacks Ann 170, Bot 1 190, Bot 2 60.  Both sizes from one hand (stop 63: a hand a
    size before): Ann plays on her phone page; her desktop page, open from before
    the start, is checked the same way."""
    seeded_deals(monkeypatch, SEED)
    contexts = {size: context(browser, size) for size in ("phone", "desktop")}
    try:
        for ctx in contexts.values():
            ctx.add_init_script(FLIGHTS)
        tid, host_token = new_table(live.url, game="holdem", seats=3, bots=2,
                                    structure="no-limit", small_bet=2, big_bet=4)
        only_betting_bots(live, tid)
        table = live.manager.get(tid)
        live.call(adjust_stack, table, 2, 20)
        page = open_as_host(contexts["phone"], live.url, tid, host_token)
        sit_with_enter(page, "Ann")
        contexts["desktop"].add_cookies(contexts["phone"].cookies())  # (the same Ann)
        desk = contexts["desktop"].new_page()
        desk.goto(page.url)
        desk.wait_for_selector(".me .name:has-text('Ann')")
        pages = {"phone": page, "desktop": desk}
        page.click("#start-btn")
        end = time.monotonic() + 30
        while decision_kind(page) != "bet":
            assert time.monotonic() < end, "Ann's preflop decision never came"
            page.wait_for_timeout(30)
        page.fill("#controls [data-amount=raise]", "30")
        page.click("#controls [data-action=raise]")
        wait_played(page, live, tid, 1, "preflop raise")
        while not (decision_kind(page) == "bet" and len(table.hand.view(0)["board"]) == 3):
            assert time.monotonic() < end, "Ann's flop decision never came"
            page.wait_for_timeout(30)
        view = table.hand.view(0)
        assert [p["amount"] for p in view["pots"]] == [60, 20], view["pots"]
        assert [s["bet"] for s in view["seats"]] == [0, 2, 0]
        flown: dict[str, int] = {}
        for size, p in pages.items():
            wait_until(p, "seq => Number(document.body.dataset.seq) >= seq", table.seq)
            assert p.inner_text("#pots .pot-total") == "pot 82", size
            assert p.locator("#pots .side-pot").all_inner_texts() == ["main pot 60",
                                                                      "side pot 1: 20"], size
            wait_until(p, "() => window.__flights.every(f => f.gone)")   # (a still shot)
            shot(p, f"motion-{size}-side-pots")
            flown[size] = p.evaluate("window.__flights.length")
        page.click("#controls [data-action=fold]")
        page.wait_for_selector("#result:not(.hidden)")
        row = live.manager.store.load_hand(tid, 1)
        paid = [(p["amount"], p["winners"]) for p in row.result["pots"]]
        assert paid == [(60, {"2": 60}), (20, {"1": 20})], paid
        # The flights from the fold on: Bot 1's uncalled 2 back to Bot 1 (not into
        # the pot), the main pot to Bot 2, the side pot to Bot 1; each lands on its
        # seat and ends; then each winner's stack is what the server paid.
        for size, p in pages.items():
            wait_until(p, "n => window.__flights.length >= n + 3"
                          " && window.__flights.every(f => f.gone)", flown[size], timeout=10)
            flights = p.evaluate("window.__flights")[flown[size]:]
            assert [f["text"] for f in flights] == ["● 2", "● 60", "● 20"], (size, flights)
            for f, seat in zip(flights, (1, 2, 1), strict=True):
                at, want = f["to"], seat_centre(p, seat)
                assert abs(at[0] - want[0]) < 2 and abs(at[1] - want[1]) < 2, \
                    (size, f, seat, want)
            assert [stack_drawn(p, s) for s in range(3)] == [170, 190, 60], size
            shot(p, f"motion-{size}-paid")
        assert [table.seats[s].row.stack for s in range(3)] == [170, 190, 60]
    finally:
        for ctx in contexts.values():
            ctx.close()


SEED = 1


def other_clock(page: Any, seat: int) -> dict[str, Any] | None:
    """The clock and timer bar drawn on ``seat``'s tile (None: no clock), with
    whether the clock lies inside the tile."""
    return page.evaluate("""seat => {
      const tile = document.querySelector(`#seats .seat[data-seat='${seat}']`);
      const c = tile && tile.querySelector('.clock'), bar = tile && tile.querySelector('.timer');
      if (!c) return null;
      const t = tile.getBoundingClientRect(), r = c.getBoundingClientRect();
      return {text: c.textContent, left: bar ? Number(bar.style.getPropertyValue('--left')) : null,
              inside: r.left >= t.left - 0.5 && r.right <= t.right + 0.5
                      && r.top >= t.top - 0.5 && r.bottom <= t.bottom + 0.5};
    }""", seat)


def seconds(text: str) -> int:
    """"clock 287s +60s bank" -> 287."""
    return int(text.split()[1].rstrip("s"))


def counts_down(page: Any, seat: int, where: str) -> None:
    """``seat``'s tile shows its clock and timer bar, inside the tile; five seconds
    of the page's clock later both have run down by five seconds."""
    wait_until(page, f"() => !!document.querySelector(\"#seats .seat[data-seat='{seat}'] .clock\")")
    # the page's time stands still (Playwright's Python API: seconds since 1970)
    page.clock.pause_at((page.evaluate("Date.now()") + 300) / 1000)
    was = other_clock(page, seat)
    assert was and was["left"] is not None and was["inside"], f"{where}: {was}"
    assert 270 <= seconds(was["text"]) <= 300, f"{where}: {was}"   # (300 s to decide)
    page.clock.run_for(5000)
    now = other_clock(page, seat)
    assert now and seconds(was["text"]) - seconds(now["text"]) == 5, f"{where}: {was} then {now}"
    assert abs((was["left"] - now["left"]) - 5 / 300) < 0.002, f"{where}: {was} then {now}"
    page.clock.resume()


def test_the_seat_to_act_shows_its_clock_to_the_others(browser: Any, live: ServerThread) -> None:
    """Ann (a desktop, the host) and Bob (a phone) heads-up, 300 s to decide: while
    Ann acts, Bob's page shows the clock and timer bar on Ann's seat, counting down,
    and none on his own; then, Bob to act, Ann's page shows his, counting down."""
    ann_ctx, bob_ctx = context(browser, "desktop"), context(browser, "phone")
    try:
        tid, host_token = new_table(live.url, game="holdem", seats=2, bots=0)
        ann = open_as_host(ann_ctx, live.url, tid, host_token)
        ann.clock.install()
        ann.reload()
        sit_with_enter(ann, "Ann")
        bob = bob_ctx.new_page()
        bob.clock.install()
        bob.goto(f"{live.url}/t/{tid}")
        sit_with_enter(bob, "Bob")
        ann.click("#start-btn")
        # Ann (the button) acts first heads-up.
        ann.wait_for_selector("#controls [data-action=call]")
        counts_down(bob, 0, "Bob sees Ann's clock")
        assert bob.locator("#me .clock").count() == 0
        assert other_clock(ann, 1) is None, "Bob's seat shows a clock while Ann acts"
        shot(bob, "motion-phone-others-clock")
        ann.click("#controls [data-action=call]")
        counts_down(ann, 1, "Ann sees Bob's clock")
        assert ann.locator("#me .clock").count() == 0
        assert other_clock(bob, 0) is None, "Ann's seat shows a clock while Bob acts"
        shot(ann, "motion-desktop-others-clock")
    finally:
        ann_ctx.close()
        bob_ctx.close()


FRAMES = r"""
window.__frames = 0; window.__starts = []; window.__renderFrame = -1;
// The page's frames, counted at each requestAnimationFrame.
const tick = () => { window.__frames++; requestAnimationFrame(tick); };
requestAnimationFrame(tick);
// The frame each state's render ends in (its "rollem-render" measure, main.js).
// The frame the side panels drawn after a render's paint are drawn in (a new
// hand's, a hand's end's: "rollem-render-late"; the task before frame late + 1).
window.__lateFrame = -1;
const measure = performance.measure.bind(performance);
performance.measure = (name, options) => {
  if (name === 'rollem-render') window.__renderFrame = window.__frames;
  if (name === 'rollem-render-late') window.__lateFrame = window.__frames;
  return measure(name, options);
};
// Each animation started (its class added: a card or row dealt in, a card turned
// up, a label faded in, a flight of chips), with the frame it was started in and
// the frame the last state's render ended in.
const NAMES = ['deal-in', 'flip-up', 'fresh', 'fly'];
document.addEventListener('DOMContentLoaded', () => new MutationObserver((records) => {
  for (const r of records) {
    const was = (r.oldValue || '').split(' ');
    for (const name of NAMES) {
      if (!r.target.classList.contains(name) || was.includes(name)) continue;
      window.__starts.push({name, frame: window.__frames, render: window.__renderFrame,
                            late: window.__lateFrame});
    }
  }
}).observe(document.body, {subtree: true, attributes: true, attributeOldValue: true,
                            attributeFilter: ['class']}));
"""
"""Counts the page's frames and records each animation's start (its class added)
with its frame, the frame the last state's render ended in and the frame the last
side panels drawn after a render's paint were drawn in."""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_states_animations_start_in_the_frame_after_its_render(
        browser: Any, live: ServerThread, size: str) -> None:
    """Hold'em, Ann and two betting computer players, Ann checking or calling to
    the hand's end.  The cards still deal in and the bets still fly into the pot,
    and every card, row and label animation starts in a later frame than the
    render of the state it belongs to (motion.js: a state's animations start in
    the frame after its render, issue 26); the flights, set off then, start later
    still.  A state whose side panels are drawn after its render's paint (the
    deal, the hand's end) starts them in a later frame than the one those panels
    take (their task runs before frame ``late + 1``: the start comes in frame
    ``late + 2`` or later; on s45 it was frame ``late + 1``, with them)."""
    ctx = context(browser, size)
    ctx.add_init_script(FRAMES)
    try:
        tid, host_token = new_table(live.url, game="holdem", seats=3, bots=2)
        only_betting_bots(live, tid)
        page = open_as_host(ctx, live.url, tid, host_token)
        sit_with_enter(page, "Ann")
        page.click("#start-btn")
        end = time.monotonic() + 60
        while page.locator("#result:not(.hidden)").count() == 0:
            assert time.monotonic() < end, "the hand never ended"
            if decision_kind(page) == "bet":
                page.locator("#controls [data-action=call], #controls [data-action=check]"
                             ).first.click()
                page.wait_for_timeout(150)
            page.wait_for_timeout(40)
        page.wait_for_timeout(600)   # (the last flights set off)
        starts = page.evaluate("window.__starts")
        names = {s["name"] for s in starts}
        assert {"deal-in", "fly"} <= names, starts   # (cards dealt in, chips flown)
        early = [s for s in starts if s["name"] != "fly" and s["frame"] <= s["render"]]
        assert early == [], early
        assert all(s["frame"] > s["render"] for s in starts if s["name"] == "deal-in")
        with_sides = [s for s in starts if s["name"] != "fly" and s["late"] >= s["render"]]
        assert any(s["name"] == "deal-in" for s in with_sides), starts   # (the deal's)
        beside = [s for s in with_sides if s["frame"] <= s["late"] + 1]
        assert beside == [], beside
        assert page.locator(".move-wait").count() == 0
    finally:
        ctx.close()


QUICK = r"""async () => {
  // Two states drawn one after the other in one task (states arriving faster than
  // frames): the first deals every row in again (a state of another hand before
  // it), the second, newer, too; then the frames until its start.
  const { hooks, S } = await import('/static/table/state.js');
  const now = S.state;
  const other = structuredClone(now);
  other.hand.hand_no = now.hand.hand_no - 1;
  const starts = () => performance.getEntriesByName('rollem-animate')
    .filter((e) => e.detail === 'start').length;
  const before = starts();
  const late = performance.getEntriesByName('rollem-render-late').length;
  hooks.render(now, other);
  const first = document.querySelectorAll('.move-wait').length;
  hooks.render(structuredClone(now), other);
  const second = document.querySelectorAll('.move-wait').length;
  // (a deal's side panels are drawn after the paint, and its start waits for the
  // frame after theirs: three frames after they are drawn)
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  while (performance.getEntriesByName('rollem-render-late').length === late) await frame();
  await frame(); await frame(); await frame();
  // (a start of more than MOVES_A_FRAME elements goes on a piece a frame)
  for (let k = 0; k < 4 && document.querySelectorAll('.move-wait').length; k++) await frame();
  return {first, second, left: document.querySelectorAll('.move-wait').length,
          started: starts() - before,
          dealing: document.querySelectorAll('#seats .deal-in, #me .deal-in').length,
          animations: document.getAnimations().length};
}"""


@pytest.mark.parametrize("motion", ["on", "reduce"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_states_in_quick_succession_leave_nothing_hidden(
        browser: Any, live: ServerThread, size: str, motion: str) -> None:
    """Hold'em, Ann and two checking computer players, at Ann's first decision (no
    state comes until she acts).  Two states drawn before the next frame, each
    dealing the seats' rows in: after the first, the rows (and its labels) wait
    hidden for their animation (class ``move-wait``); the second folds the first's
    start into its own (the same rows, still on the page, wait on); three frames
    after the side panels are drawn (a deal's: after the paint), and a frame more
    for each piece of ``MOVES_A_FRAME`` (4) elements after the first, nothing is
    hidden and one start ran, in one piece for each 4 elements waiting, dealing
    Ann's and both opponents' rows in.  With
    ``prefers-reduced-motion: reduce`` nothing is hidden, nothing starts and no
    animation runs."""
    ctx = context(browser, size, reduced_motion="reduce" if motion == "reduce" else "no-preference")
    try:
        page = ann_at_her_first_bet(ctx, live)   # (the deal's own animations over)
        got = page.evaluate(QUICK)
        if motion == "reduce":
            assert got == {"first": 0, "second": 0, "left": 0, "started": 0, "dealing": 0,
                           "animations": 0}, got
            return
        # (the rows, and the first's labels: the second comes too soon after it to
        # fade its labels in, motion.js FADE_QUIET_MS)
        assert got["first"] >= got["second"] >= 3, got
        assert got["left"] == 0 and got["started"] == -(-got["second"] // 4), got
        assert got["dealing"] == 3, got
    finally:
        ctx.close()


SOUNDS = HEAR + r"""
localStorage.setItem('rollem_alerts', '1');
window.__frames = 0; window.__renders = []; window.__played = []; window.__hidden = false;
window.__made = [];   // (the length of each sound buffer made: one per sound, sounds.js)
// The page's frames, counted at each requestAnimationFrame.
const tick = () => { window.__frames++; requestAnimationFrame(tick); };
requestAnimationFrame(tick);
// Each state's render: from its start to its end (its "rollem-render" measure,
// main.js) and the frame it ended in.
const measure = performance.measure.bind(performance);
window.__lates = [];
performance.measure = (name, options) => {
  if (name === 'rollem-render')
    window.__renders.push({s: options.start, e: performance.now(), frame: window.__frames});
  // the side panels drawn after a render's paint (a deal's, a hand's end's): in
  // the task before frame `frame + 1`
  if (name === 'rollem-render-late')
    window.__lates.push({t: performance.now(), frame: window.__frames});
  return measure(name, options);
};
// A page out of sight, when the test says so (its frames still run headless).
Object.defineProperty(document, 'visibilityState',
                      {get: () => (window.__hidden ? 'hidden' : 'visible')});
// Sound played: a running AudioContext whose buffer sources record, at their start,
// what they sound like (window.__hear), when and in which frame.
class Audio {
  constructor() { this.currentTime = 0; this.sampleRate = 48000; this.destination = {};
                  this.state = 'running'; }
  resume() { return Promise.resolve(); }
  createBuffer(c, n, rate) { const d = new Float32Array(n); window.__made.push(n);
    return {sampleRate: rate, getChannelData: () => d}; }
  createBufferSource() { const s = {buffer: null, connect() {}, start: () => {
    window.__played.push({t: performance.now(), frame: window.__frames,
      heard: window.__hear(s.buffer.getChannelData(0), s.buffer.sampleRate)}); }};
    return s; }
}
window.AudioContext = Audio;
"""
"""Sound on, a fake running AudioContext whose played sounds are recorded (what
they sound like, when, in which frame), each state's render (start, end, frame) and
the page's frames counted; ``window.__hidden = true`` makes the page out of sight."""

MADE = "() => new Set(window.__made).size === 6"
"""(JavaScript) The page has made all six sounds' buffers (deal, check, bet, fold,
turn, win: motion.js's prerender, in the page's idle moments; each its own length).
A sound asked for before its buffer is made is made and played in idle moments
instead (motion.js ``makeThenPlay``), at no frame of its own: a test of the frame a
state's sounds play in waits for this first."""


def sounds_in_renders(page: Any) -> tuple[list[Any], list[Any]]:
    """The sounds played (``window.__played``) and, of them, those played inside a
    state's render or in the frame it ended in, or, for a state whose side panels
    were drawn after its render's paint, in the frame those panels took (frame
    ``late + 1``: their task runs before it)."""
    played: list[Any] = page.evaluate("window.__played")
    renders: list[Any] = page.evaluate("window.__renders")
    lates: list[Any] = page.evaluate("window.__lates")
    early = []
    for p in played:
        last = [r for r in renders if r["s"] <= p["t"]]
        if not last:
            continue
        r = last[-1]
        sides = [x for x in lates if r["e"] <= x["t"] <= p["t"]]
        if (p["t"] <= r["e"] or p["frame"] <= r["frame"]
                or (sides and p["frame"] <= sides[-1]["frame"] + 1)):
            early.append([p, r, sides[-1:]])
    return played, early


@pytest.mark.parametrize("motion", ["on", "reduce"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_states_sounds_play_in_the_frame_after_its_render(
        browser: Any, live: ServerThread, size: str, motion: str) -> None:
    """Hold'em, Ann and two betting computer players, sound on, Ann checking or
    calling to the hand's end.  The deal's, the bets' and the win's sounds all play,
    and each plays after the render of the state it belongs to, in a later frame
    than the one that render ended in (motion.js: a state's sounds play with its
    animations' start, in the frame after its render, issue 26); with
    ``prefers-reduced-motion: reduce`` too (no animation, the same sounds)."""
    ctx = context(browser, size, reduced_motion="reduce" if motion == "reduce" else "no-preference")
    ctx.add_init_script(SOUNDS)
    try:
        tid, host_token = new_table(live.url, game="holdem", seats=3, bots=2)
        only_betting_bots(live, tid)
        page = open_as_host(ctx, live.url, tid, host_token)
        sit_with_enter(page, "Ann")
        # (a loaded page's first idle moments come late: on CI's machine the turn's
        # sound, asked for before its buffer was made, was made and played in an idle
        # moment after the next state's render, in that render's frame 25)
        wait_until(page, MADE)
        page.click("#start-btn")
        end = time.monotonic() + 60
        while page.locator("#result:not(.hidden)").count() == 0:
            assert time.monotonic() < end, "the hand never ended"
            if decision_kind(page) == "bet":
                page.locator("#controls [data-action=call], #controls [data-action=check]"
                             ).first.click()
                page.wait_for_timeout(150)
            page.wait_for_timeout(40)
        wait_until(page, "() => window.__played.some((p) => p.heard === 523)")   # (the win's)
        played, early = sounds_in_renders(page)
        heard = [p["heard"] for p in played]
        assert "noise" in heard and heard.count(2300) >= 2, heard   # cards dealt, bets
        assert early == [], early
    finally:
        ctx.close()


QUICK_SOUND = r"""async () => {
  // A state drawn again as a new hand's deal (a state of another hand before it):
  // the sounds played during its render, and three frames after its side panels.
  const { hooks, S } = await import('/static/table/state.js');
  const now = S.state;
  const other = structuredClone(now);
  other.hand.hand_no = now.hand.hand_no - 1;
  const before = window.__played.length;
  const late = performance.getEntriesByName('rollem-render-late').length;
  hooks.render(structuredClone(now), other);
  const during = window.__played.length - before;
  // (its side panels are drawn after the paint, and its start waits for the frame
  // after theirs: three frames after they are drawn)
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  while (performance.getEntriesByName('rollem-render-late').length === late) await frame();
  await frame(); await frame(); await frame();
  return {during, after: window.__played.length - before};
}"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_sounds_wait_for_the_next_frame_unless_the_page_is_out_of_sight(
        browser: Any, live: ServerThread, size: str) -> None:
    """Hold'em, Ann and two checking computer players, sound on, at Ann's first
    decision (no state comes until she acts).  A deal drawn again: no sound plays
    during its render and the deal's plays within three frames of its side panels'
    drawing (after the paint); the page out of
    sight (``document.visibilityState`` "hidden": a tab in the background draws no
    frames), the deal's sound plays during the render, at once."""
    ctx = context(browser, size)
    ctx.add_init_script(SOUNDS)
    try:
        page = ann_at_her_first_bet(ctx, live)   # (the deal's own sounds played)
        seen = page.evaluate(QUICK_SOUND)   # (the deal's, and the blinds' or calls')
        assert seen["during"] == 0 and seen["after"] >= 1, seen
        page.evaluate("window.__hidden = true")
        out_of_sight = page.evaluate(QUICK_SOUND)
        assert out_of_sight == {"during": seen["after"], "after": seen["after"]}, out_of_sight
    finally:
        ctx.close()


IDLE_SOUNDS = r"""
localStorage.setItem('rollem_alerts', '1');   // (sound left on from before)
// The page's idle moments counted, each with 30 ms left in it; each sound buffer
// made is recorded with the idle moment it was made in.
window.__idle = 0; window.__buffers = [];
window.requestIdleCallback = (fn) => setTimeout(() => {
  window.__idle++; fn({didTimeout: false, timeRemaining: () => 30}); }, 0);
class Audio {
  constructor() { this.currentTime = 0; this.sampleRate = 48000; this.destination = {};
                  this.state = 'running'; }
  resume() { return Promise.resolve(); }
  createBuffer(c, n, rate) { window.__buffers.push(window.__idle);
    const d = new Float32Array(n); return {sampleRate: rate, getChannelData: () => d}; }
  createBufferSource() { return {buffer: null, connect() {}, start() {}}; }
}
window.AudioContext = Audio;
"""
"""Sound on from before, a fake AudioContext recording each buffer made, and idle
moments counted (each reports 30 ms left)."""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_sounds_are_made_in_the_first_idle_moments(browser: Any, live: ServerThread,
                                                       size: str) -> None:
    """The table page opened with sound left on from before: its AudioContext is made
    at the first idle moment and the six sounds' buffers (deal, check, bet, fold,
    turn, win) in the next, as many parts of them as the moment has time for (each
    here says 30 ms are left), none in a later one (motion.js prerender).  Main made
    one part a moment: eleven more idle moments, each up to 2 s apart on a loaded
    phone, and a sound heard before its buffer was made was made in its start's
    frame (7 to 13 ms at 4x, issue 26)."""
    ctx = context(browser, size)
    ctx.add_init_script(IDLE_SOUNDS)
    try:
        tid, host_token = new_table(live.url, game="holdem", seats=3, bots=2)
        page = open_as_host(ctx, live.url, tid, host_token)
        wait_until(page, "() => window.__buffers.length >= 6")
        page.wait_for_timeout(300)   # (any buffer still to come, made meanwhile)
        buffers = page.evaluate("window.__buffers")
        assert len(buffers) == 6, buffers   # each sound once
        assert max(buffers) <= 2, buffers   # the context's moment, then the sounds'
    finally:
        ctx.close()


STARVED = r"""
localStorage.setItem('rollem_alerts', '1');   // (sound left on from before)
// Idle moments only when the test runs them (a loaded phone: none comes); each
// sound buffer made and each sound started, in order, with the moment it came in.
window.__queued = []; window.__log = []; window.__moment = 'page';
window.requestIdleCallback = (fn) => { window.__queued.push(fn); return window.__queued.length; };
window.runIdle = (most) => { let n = 0;
  while (window.__queued.length && n++ < most) {
    window.__moment = 'idle'; window.__queued.shift()({didTimeout: false, timeRemaining: () => 0});
    window.__moment = 'page'; } return n; };
class Audio {
  constructor() { this.currentTime = 0; this.sampleRate = 48000; this.destination = {};
                  this.state = 'running'; }
  resume() { return Promise.resolve(); }
  createBuffer(c, n, rate) { window.__log.push(['buffer', window.__moment, n]);
    const d = new Float32Array(n); return {sampleRate: rate, length: n, getChannelData: () => d}; }
  createBufferSource() { return {buffer: null, connect() {},
    start() { window.__log.push(['start', window.__moment, this.buffer.length]); }}; }
}
window.AudioContext = Audio;
"""
"""Sound on from before, a fake AudioContext recording each buffer made and each
sound started, and idle moments that come only when the test runs them."""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_sound_asked_for_before_its_buffer_is_made_in_idle_moments(
        browser: Any, live: ServerThread, size: str) -> None:
    """Sound on, the page's idle moments starved (the sounds' buffers not made yet):
    the win's sound asked for (motion.js ``play``, as a start does) makes no buffer
    and starts nothing in that task; it is made in the idle moments that follow, a
    part a moment, and started in the one that finishes it.  Asked for again while
    it is being made, it is still made once.  On main it was made whole and started
    in the asking task (7 to 30 ms of a start's frame at 4x, issue 26)."""
    ctx = context(browser, size)
    ctx.add_init_script(STARVED)
    try:
        tid, host_token = new_table(live.url, game="holdem", seats=3, bots=2)
        page = open_as_host(ctx, live.url, tid, host_token)
        wait_until(page, "() => window.__queued.length >= 1")
        page.evaluate("window.runIdle(1)")   # (the context made, at the first idle moment)
        got = page.evaluate("""async () => {
          const { play } = await import('/static/table/motion.js');
          window.__log = [];
          play('win'); play('win');
          const asked = window.__log.slice();
          let moments = 0;
          const started = () => window.__log.some((x) => x[0] === 'start');
          while (!started() && moments < 50) moments += window.runIdle(1);
          return {asked, log: window.__log, moments};
        }""")
        assert got["asked"] == [], got
        starts = [x for x in got["log"] if x[0] == "start"]
        assert starts and all(x[1] == "idle" for x in starts), got
        assert len(starts) == 1 and starts[0][2] == 24000, got   # (the win: 0.5 s at 48 kHz)
        wins = [x for x in got["log"] if x[0] == "buffer" and x[2] == 24000]
        assert len(wins) == 1, got   # (made once)
        assert got["moments"] >= 2, got   # (a part a moment)
    finally:
        ctx.close()


PIECES = FRAMES + r"""
// Each start's element: whether it was still hidden for its move (move-wait) up to
// the frame its animation started in.
window.__shown = [];
document.addEventListener('DOMContentLoaded', () => new MutationObserver((records) => {
  for (const r of records) {
    const was = (r.oldValue || '').split(' ');
    if (was.includes('move-wait') && !r.target.classList.contains('move-wait'))
      window.__shown.push({frame: window.__frames, moving: ['deal-in', 'flip-up', 'fresh']
                           .some((c) => r.target.classList.contains(c))});
  }
}).observe(document.body, {subtree: true, attributes: true, attributeOldValue: true,
                            attributeFilter: ['class']}));
"""
"""FRAMES, and each element shown again after waiting hidden for its move (class
``move-wait`` taken off), with its frame and whether it was shown by its move."""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_deal_at_ten_seats_starts_over_several_frames(
        browser: Any, live: ServerThread, size: str) -> None:
    """Hold'em at 10 seats, Ann and nine checking computer players, to Ann's first
    decision: the deal's rows (Ann's and nine opponents') all deal in, but no frame
    starts more than ``MOVES_A_FRAME`` (4) animations: the deal's ten rows start over
    three frames or more (motion.js: a start in pieces, one a frame, issue 26: the
    whole start in one frame was a long frame of its own at 4x), each row hidden
    (``move-wait``) until the frame it moves in; nothing is left hidden.  On main the
    ten rows start in one frame."""
    ctx = context(browser, size)
    ctx.add_init_script(PIECES)
    try:
        # (then the deal's pieces started, their moves over)
        page = ann_at_her_first_bet(ctx, live, seats=10, then_ms=800, timeout=60)
        shot(page, f"motion-{size}-ten-seats-dealt")
        starts = page.evaluate("window.__starts")
        shown = page.evaluate("window.__shown")
        rows = [s for s in starts if s["name"] == "deal-in"]
        assert len(rows) >= 10, starts   # (Ann's row and nine opponents')
        per_frame: dict[int, int] = {}
        for s in starts:
            if s["name"] != "fly":
                per_frame[s["frame"]] = per_frame.get(s["frame"], 0) + 1
        assert max(per_frame.values()) <= 4, per_frame
        assert len({s["frame"] for s in rows}) >= 3, rows
        # every element that waited hidden was shown by its move, in its own frame
        assert all(x["moving"] for x in shown), shown
        assert page.locator(".move-wait").count() == 0
        assert page.evaluate("(async () => (await import('/static/table/motion.js'))"
                             ".MOVES_A_FRAME)()") == 4
    finally:
        ctx.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_flights_layer_is_there_and_displayed_before_any_flight(
        browser: Any, live: ServerThread, size: str) -> None:
    """The table page, no hand dealt yet: the felt holds its layer of flights
    (``#felt > .flights``), empty and displayed (so the first flight does not lay it
    out and paint it in its own frame: issue 26, 43 to 53 ms at 4x), covering the
    felt and taking no tap (pointer-events none).  On main it is made at the first
    flight (and is ``display: none`` while empty)."""
    ctx = context(browser, size)
    try:
        tid, host_token = new_table(live.url, game="holdem", seats=3, bots=2)
        page = open_as_host(ctx, live.url, tid, host_token)
        got = page.evaluate("""() => {
          const layers = document.querySelectorAll('#felt > .flights');
          const l = layers[0];
          if (!l) return {layers: 0};
          const s = getComputedStyle(l), r = l.getBoundingClientRect();
          const felt = document.getElementById('felt');
          return {layers: layers.length, display: s.display, events: s.pointerEvents,
                  children: l.children.length, hidden: l.getAttribute('aria-hidden'),
                  width: Math.round(r.width), feltWidth: felt.clientWidth};
        }""")
        assert got["layers"] == 1, got
        assert got["display"] == "block" and got["events"] == "none", got
        assert got["children"] == 0 and got["hidden"] == "true", got
        assert got["feltWidth"] > 0 and abs(got["width"] - got["feltWidth"]) <= 1, got
    finally:
        ctx.close()
