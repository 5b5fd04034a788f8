"""A state drawn while the last state's moves still run ends them first (issue 26).

A state drawn over running animations (rows dealing in, cards turning, labels
fading, chips flying) took 51 to 63 ms of a phone's frame at 4x CPU throttling,
where the same state drawn still took 25 to 45 ms; with no animation running no
state's frame went over 50 ms (docs/dev/felt-frames.md, stops 49 to 51).  So the
felt's moves still running when a newer state comes (the cards' and the labels':
the chips' flights land as before) end at their last frame before it is drawn
(motion.js ``settle``); what the player sees is the newer state.
"""

from __future__ import annotations

from typing import Any

import pytest
from table_ui import ann_at_her_first_bet, context
from web_harness import ServerThread

pytestmark = pytest.mark.browser

# Deals every row in again (the state drawn over a state of the hand before), waits
# for the frames until the deal's animations run, then draws a newer state (the
# same hand, nothing new to move) and counts, in the same task, what still runs.
OVER_RUNNING = r"""async () => {
  const { hooks, S } = await import('/static/table/state.js');
  const now = S.state;
  const other = structuredClone(now);
  other.hand.hand_no = now.hand.hand_no - 1;
  const MOVES = ['deal-in', 'flip-up', 'label-in'];
  const running = () => document.getAnimations().filter(
    (a) => MOVES.includes(a.animationName) && a.playState === 'running').length;
  const others = () => document.getAnimations().filter(
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
