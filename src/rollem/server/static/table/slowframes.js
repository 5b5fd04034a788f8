// Frames over 50 ms while the felt moves: the sign of a device too slow for the
// felt's animations (issue 26: at 10 seats on a phone at 4x slower, a state drawn
// while the last state's animations still ran took 51 to 63 ms against 25 to 45 ms
// drawn still; with every CSS animation taken out, no frame of the same states was
// over 50 ms: docs/dev/felt-frames.md, stops 49 to 51).
//
// moving(from, until): the felt has something moving from `from` to `until` (ms,
// page clock: performance.now()).
// watchSlowFrames(onSlow): onSlow(frame) once, at the SLOW_FRAMES-th frame over
// LONG_MS that began while something moved, or in which something began to (the browser's long-animation-frame
// entries, a frame from its first task to its paint; where there are none, its long
// tasks); returns a function that stops watching.  No such entry type (Safari,
// Firefox): nothing is watched and onSlow is never called.
export const LONG_MS = 50;
export const SLOW_FRAMES = 1;
// (the last few spans of motion: a frame is reported after it ends, and later spans
// may have begun meanwhile)
const KEPT = 16;
const spans = [];   // [from, until] (ms, page clock)
export function moving(from, until) {
  const last = spans[spans.length - 1];
  if (last && from <= last[1]) { last[1] = Math.max(last[1], until); return; }
  spans.push([from, until]);
  if (spans.length > KEPT) spans.shift();
}
// (a frame that began while something moved, or in which something began to move)
function whileMoving(start, end) { return spans.some(([a, b]) => start < b && end >= a); }
export function watchSlowFrames(onSlow) {
  const types = (window.PerformanceObserver && PerformanceObserver.supportedEntryTypes) || [];
  const type = types.includes("long-animation-frame") ? "long-animation-frame"
    : types.includes("longtask") ? "longtask" : null;
  if (!type) return () => {};
  let seen = 0;
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.duration <= LONG_MS || !whileMoving(e.startTime, e.startTime + e.duration)) continue;
      if (++seen >= SLOW_FRAMES) { obs.disconnect(); onSlow(e); return; }
    }
  });
  try { obs.observe({ type, buffered: false }); } catch (e) { return () => {}; }
  return () => obs.disconnect();
}
