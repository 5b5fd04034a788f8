// When the page's work runs, frame by frame (issue 26: a slow phone spends a
// frame on each state; what can wait for the next frame waits).
//
// afterPaint(fn): run fn once, in a task of its own after the next frame is
// painted.  A requestAnimationFrame callback runs just before that paint, so it
// queues the task (a MessageChannel message: no timer clamp); a page whose frames
// stop (a tab in the background) runs fn after FALLBACK_MS instead.
const FALLBACK_MS = 500;
const channel = new MessageChannel();
const queued = [];
channel.port1.onmessage = () => { const fn = queued.shift(); if (fn) fn(); };
export function afterPaint(fn) {
  let done = false;
  const once = () => { if (done) return; done = true; clearTimeout(timer); fn(); };
  const timer = setTimeout(once, FALLBACK_MS);
  requestAnimationFrame(() => { queued.push(once); channel.port2.postMessage(0); });
}
