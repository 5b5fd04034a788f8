"""A state drawn while the last state's moves still run ends them first (issue 26).

A state drawn over running animations (rows dealing in, cards turning, labels
fading, chips flying) took 51 to 63 ms of a phone's frame at 4x CPU throttling,
where the same state drawn still took 25 to 45 ms; with no animation running no
state's frame went over 50 ms (docs/dev/felt-frames.md, stops 49 to 51).  So the
felt's moves still running when a newer state comes (the cards' and the labels':
the chips' flights land as before) end at their last frame before it is drawn
(motion.js ``settle``); what the player sees is the newer state.

Ending them costs the newer state's task no style or layout of its own: ended through
the Web Animations API (each one's ``playState`` and ``finish()``), every move after the
first made the browser restyle and lay the page out then and there, 12 layouts in the
state after a deal at 10 seats against 1 drawn still (docs/dev/felt-frames.md, stop
52); each is now ended by its duration set to 0 on the element, a style write worked
out in the frame's one style step.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from table_ui import ann_at_her_first_bet, context, shot
from web_harness import ServerThread

pytestmark = pytest.mark.browser

# The start both scripts share: the state drawn as of the hand before (so every row
# is dealt in again), and a count of the moves still running.
_DEALT_AGAIN = r"""  const { hooks, S } = await import('/static/table/state.js');
  const now = S.state;
  const other = structuredClone(now);
  other.hand.hand_no = now.hand.hand_no - 1;
  const MOVES = ['deal-in', 'flip-up', 'label-in'];
  const running = () => document.getAnimations().filter(
    (a) => MOVES.includes(a.animationName) && a.playState === 'running').length;
"""

# Deals every row in again (the state drawn over a state of the hand before), waits
# for the frames until the deal's animations run, then draws a newer state (the
# same hand, nothing new to move) and counts, in the same task, what still runs.
OVER_RUNNING = r"""async () => {
""" + _DEALT_AGAIN + r"""  const others = () => document.getAnimations().filter(
    (a) => !MOVES.includes(a.animationName) && a.playState === 'running').length;
  hooks.render(now, other);
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  let waited = 0;
  while (!running() && waited < 60) { await frame(); waited++; }
  const before = running(), othersBefore = others();
  hooks.render(structuredClone(now), now);
  const after = running(), othersAfter = others();
  // the frames after it: any piece of the deal still to start starts as before
  for (let k = 0; k < 6; k++) await frame();
  return {before, after, othersBefore, othersAfter,
          hidden: document.querySelectorAll('.move-wait').length,
          dealing: document.querySelectorAll('#seats .deal-in, #me .deal-in').length};
}"""


@pytest.mark.parametrize("motion", ["on", "reduce"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_state_drawn_over_running_moves_ends_them_first(
        browser: Any, live: ServerThread, size: str, motion: str) -> None:
    """Hold'em, Ann and two checking computer players, at Ann's first decision.
    The seats' rows are dealt in again and, once their animations run, a newer
    state is drawn: in the same task no deal-in, flip-up or label animation
    is still running (each ended at its last frame) and nothing waits
    hidden a few frames later; animations that are not the felt's moves are left as
    they were.
    With ``prefers-reduced-motion: reduce`` nothing ran to end."""
    ctx = context(browser, size,
                  reduced_motion="reduce" if motion == "reduce" else "no-preference")
    try:
        page = ann_at_her_first_bet(ctx, live)   # (the deal's own animations over)
        got = page.evaluate(OVER_RUNNING)
        if motion == "reduce":
            assert (got["before"], got["after"], got["hidden"]) == (0, 0, 0), got
            return
        assert got["before"] >= 1, got          # (the rows were dealing in)
        assert got["after"] == 0, got           # (each ended before the newer state)
        assert got["othersAfter"] == got["othersBefore"], got
        assert got["hidden"] == 0, got
    finally:
        ctx.close()


# As OVER_RUNNING, the newer state drawn between two marks of the page's user timing
# (the trace's clock): what the browser worked out in between is the newer state's
# task's own (no frame is drawn inside a task).
OVER_RUNNING_MARKED = r"""async () => {
""" + _DEALT_AGAIN + r"""  // (every row dealt in as new: a row that kept its class from the
  // first deal would not move again)
  for (const cls of ['deal-in', 'flip-up', 'fresh']) {
    document.querySelectorAll('.' + cls).forEach((e) => {
      e.classList.remove(cls); e.style.animationDuration = ''; });
  }
  hooks.render(now, other);
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  let waited = 0;
  // (the rows start in the deal's first piece, all three unless a loaded machine
  // cut it short: PIECE_MS; then in the next)
  while (running() < 3 && waited < 60) { await frame(); waited++; }
  const before = running();
  performance.mark('settle-test-drawn-from');
  hooks.render(structuredClone(now), now);
  performance.mark('settle-test-drawn-to');
  return {before, after: running()};
}"""


def work_between(trace: bytes, first: str, last: str) -> dict[str, int]:
    """Chromium's style recalculations (``UpdateLayoutTree``) and layouts (``Layout``)
    on the page's main thread between the user-timing marks ``first`` and ``last``
    of ``trace`` (Playwright's ``stop_tracing`` bytes), counted."""
    events = json.loads(trace)
    events = events["traceEvents"] if isinstance(events, dict) else events
    marks = {e["name"]: e for e in events if e.get("name") in (first, last)}
    assert set(marks) == {first, last}, sorted(marks)
    thread = (marks[first]["pid"], marks[first]["tid"])
    span = (marks[first]["ts"], marks[last]["ts"])
    inside = [e for e in events if (e.get("pid"), e.get("tid")) == thread
              and e.get("ph") in ("X", "B") and span[0] <= e.get("ts", -1) <= span[1]]
    return {"styles": sum(e["name"] == "UpdateLayoutTree" for e in inside),
            "layouts": sum(e["name"] == "Layout" for e in inside)}


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_ending_the_moves_lays_nothing_out_in_the_newer_states_task(
        browser: Any, live: ServerThread, size: str) -> None:
    """Hold'em, Ann and two checking computer players, at Ann's first decision: the
    seats' rows dealt in again (three rows) and, once their animations run, a newer
    state drawn, traced.  Its task (render, settle within it) makes the browser work
    out no style and no layout (main: a style recalculation for the animations' list
    and one more, with a layout, after each move ended but the last), and every move
    still ended before the next frame (none running when next asked).  Screenshot
    ``felt-settle-ended-{phone,desktop}.png``: every row shown, as dealt."""
    ctx = context(browser, size)
    try:
        page = ann_at_her_first_bet(ctx, live)
        browser.start_tracing(page=page, categories=["devtools.timeline", "blink.user_timing"])
        try:
            got = page.evaluate(OVER_RUNNING_MARKED)
        finally:
            trace = browser.stop_tracing()
        work = work_between(trace, "settle-test-drawn-from", "settle-test-drawn-to")
        shot(page, f"felt-settle-ended-{size}")   # (every row shown, dealt)
        assert got["before"] >= 1, got     # (the rows were dealing in: 3 as a rule)
        assert got["after"] == 0, got
        assert work == {"styles": 0, "layouts": 0}, work
    finally:
        ctx.close()
