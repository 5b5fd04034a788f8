"""The felt's moves as the browser runs them (issue 26), in Debian's Chromium through
Playwright at 390x844 and 1440x900: every move animates only what the compositor runs
(transform and opacity), and the chips' flights set off together start and end
together, none with a delay (each delay's end and each end is a main-thread frame
of the browser's own: bench/bench_felt_animations.py, docs/dev/felt-frames.md, stop
54), each still waiting, moving for 0.4 s and fading as before; the cards' and
labels' moves one frame starts end together (0.3 s each, a label fading for 0.2 s of
it), and those started with chips' flights (a street's card and its sweep) start in
their frame and end with them, moving as long as before and then held (branch
s54-felt2).

Screenshots: test-artifacts/web/flights-*.png.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from table_ui import (
    ann_at_her_first_bet,
    context,
    decision_kind,
    new_table,
    only_checking_bots,
    open_as_host,
    shot,
    sit_with_enter,
    wait_until,
)
from test_felt_frames_browser import check_or_call
from web_harness import ServerThread

pytestmark = pytest.mark.browser

MOVES = r"""
window.__moves = [];
// Each animation as it starts: its element's kind, the properties its keyframes
// animate, its timing, the frame it started in (the timeline's time: the same for
// the animations one frame starts) and, for a flight, where it waits and moves.
document.addEventListener('animationstart', (e) => {
  const a = e.target.getAnimations().find((x) => x.animationName === e.animationName);
  if (!a) return;
  const kfs = a.effect.getKeyframes();
  const props = new Set();
  for (const k of kfs) for (const p of Object.keys(k)) {
    if (!['offset', 'computedOffset', 'easing', 'composite'].includes(p)) props.add(p);
  }
  const t = a.effect.getComputedTiming();
  const m = {kind: e.target.className, name: e.animationName, props: [...props].sort(),
             delay: t.delay, ms: t.duration, frame: document.timeline.currentTime,
             text: e.target.textContent, wait: null, landed: null, moved: null,
             board: !!e.target.closest('#center'),
             atEnd: !!(window.rollemState.state.hand && window.rollemState.state.hand.result)};
  if (e.target.classList.contains('flying-chips')) {
    // waits while its keyframes hold the first one's place; has landed (faded) at
    // the first keyframe of opacity 0
    const first = kfs[0].transform;
    let wait = 0;
    for (const k of kfs) { if (k.transform === first) wait = k.computedOffset; else break; }
    const gone = kfs.find((k) => Number(k.opacity) === 0);
    m.wait = Math.round(wait * t.duration);
    m.landed = gone ? Math.round(gone.computedOffset * t.duration) : null;
  } else {
    // a card's or label's move is over at its first keyframe equal to its last
    const pick = (k) => JSON.stringify(Object.entries(k).filter(([p]) => !['offset',
      'computedOffset', 'easing', 'composite'].includes(p)));
    const last = pick(kfs[kfs.length - 1]);
    m.moved = Math.round(kfs.find((k) => pick(k) === last).computedOffset * t.duration);
  }
  window.__moves.push(m);
}, true);
"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_moves_composited_and_flights_end_together(browser: Any, live: ServerThread,
                                                   size: str) -> None:
    """Hold'em, Ann and two checking computer players, Ann checking or calling to the
    hand's end: every move started (cards dealt and turned, labels, chips) animates
    transform and opacity alone; no flight has a delay; the flights set off in one
    frame last as long as each other, the longest wait's and move's; each waits as
    before (a bet swept: none; the pot pushed to the k-th winner: 250 + 150 k ms),
    then moves for 400 ms and is faded out by then; the blinds swept at the flop are
    one 0.4 s ``chips-fly`` each, as before.  Every card's and label's move moves as
    long as before (deal-in and flip-up 300 ms, label-in 200 ms) and those one frame
    starts last as long as each other (one end): 0.3 s, or as long as the flights
    started in that frame (the hand's end's shown cards: their flip, then held)."""
    ctx = context(browser, size)
    ctx.add_init_script(MOVES)
    try:
        tid, host_token = new_table(live.url, game="holdem", seats=3, bots=2)
        only_checking_bots(live, tid)
        page = open_as_host(ctx, live.url, tid, host_token)
        sit_with_enter(page, "Ann")
        page.click("#start-btn")
        hand = "window.rollemState.state.hand"
        end = time.monotonic() + 90
        while not page.evaluate(f"!!({hand} && {hand}.result)"):
            assert time.monotonic() < end, "the hand never ended"
            if decision_kind(page) == "bet":
                check_or_call(page, live, tid)
            page.wait_for_timeout(40)
        wait_until(page, "() => window.__moves.some(m => m.kind.includes('flying-chips')"
                         " && m.atEnd)")
        shot(page, f"flights-push-{size}")
        wait_until(page, "() => !document.querySelector('.flying-chips')")
        moves = page.evaluate("window.__moves")
        kinds = {m["name"] for m in moves}
        assert {"deal-in", "chips-fly"} <= kinds, kinds
        for m in moves:   # compositor-only: transform and opacity
            assert set(m["props"]) <= {"transform", "opacity"}, m
        flights = [m for m in moves if "flying-chips" in m["kind"]]
        assert all(f["delay"] == 0 for f in flights), flights
        assert all(f["landed"] - f["wait"] == 400 for f in flights), flights
        # the blinds swept at the flop: a 0.4 s chips-fly each, no wait
        first = [f for f in flights if f["frame"] == flights[0]["frame"]]
        assert all(f["name"] == "chips-fly" and f["ms"] == 400 and f["wait"] == 0
                   for f in first), first
        # the hand's end: the pot pushed (and any bets swept with it) set off in one
        # frame, one length for all, the k-th push waiting 250 + 150 k ms
        last = [f for f in flights if f["frame"] == flights[-1]["frame"]]
        assert all(f["atEnd"] for f in last), last
        # the cards' and labels' moves: as long as before, one end a frame, and in a
        # frame with flights, the flights' end
        cards = [m for m in moves if "flying-chips" not in m["kind"]]
        moved = {"deal-in": 300, "flip-up": 300, "label-in": 200}
        assert all(m["delay"] == 0 and m["moved"] == moved[re.sub(r"-\d+-\d+$", "", m["name"])]
                   for m in cards), cards
        for frame in {m["frame"] for m in cards}:
            same = [m for m in moves if m["frame"] == frame]
            flying = [m["ms"] for m in same if "flying-chips" in m["kind"]]
            assert len({m["ms"] for m in same}) == 1, same
            assert {m["ms"] for m in same} == {flying[0] if flying else 300}, same
        pushes = sorted(f["wait"] for f in last if f["wait"] > 0)
        assert pushes and pushes == [250 + 150 * k for k in range(len(pushes))], last
        assert {f["ms"] for f in last} == {pushes[-1] + 400}, last
    finally:
        ctx.close()


# The flop drawn over Ann's first decision (the blinds out as bets): the board's three
# cards come and the blinds are swept into the pot, as one state; the moves recorded
# from then until 40 frames later.
FLOP = r"""async () => {
  const { hooks, S } = await import('/static/table/state.js');
  const now = S.state;
  const next = structuredClone(now);
  next.hand.board = ['2c', '7d', 'Jh'];
  for (const hs of next.hand.seats) if (hs) hs.bet = 0;
  window.__moves = [];
  hooks.render(next, now);
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  for (let k = 0; k < 40; k++) await frame();
  return {moves: window.__moves, flying: document.querySelectorAll('.flying-chips').length};
}"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_streets_cards_start_and_end_with_its_sweep(browser: Any, live: ServerThread,
                                                      size: str) -> None:
    """Hold'em, Ann and two checking computer players, at Ann's first decision (the
    blinds out): the flop drawn (three board cards, the bets gone).  The board's row
    deals in (its move 300 ms as before, then held) in the frame the blinds' sweep
    sets off in, and lasts as long as the sweep (400 ms): one start and one end for
    the street (main: the row's 280 ms deal-in two frames before the sweep, two
    starts and two ends).  Screenshot ``flights-flop-{phone,desktop}.png``: the flop
    dealt, the blinds swept (the drawn state's pot is left as it was: 0)."""
    ctx = context(browser, size)
    ctx.add_init_script(MOVES)
    try:
        page = ann_at_her_first_bet(ctx, live)
        got = page.evaluate(FLOP)
        shot(page, f"flights-flop-{size}")
        moves = got["moves"]
        board = [m for m in moves if m["board"]]
        flights = [m for m in moves if "flying-chips" in m["kind"]]
        assert len(board) == 1 and "cards" in board[0]["kind"].split(), moves
        assert flights and all(f["name"] == "chips-fly" and f["ms"] == 400 for f in flights), moves
        row = board[0]
        assert (row["frame"], row["ms"]) == (flights[0]["frame"], 400), moves
        assert row["name"].startswith("deal-in") and row["moved"] == 300, row
        assert {(f["frame"], f["ms"]) for f in flights} == {(row["frame"], 400)}, moves
    finally:
        ctx.close()
