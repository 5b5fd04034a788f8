// The middle's place on a wide screen's oval (s59-felt): clear of every seat tile.
// The middle (the wild card, the pool, the board, the pots) sits at the felt's
// centre; a tile that grows toward it (the top seat's, hanging from its place, with
// a shown hand, two "wins" badges and the hand's words) came over it.  Once the felt
// is laid out, the middle moves down (or up) just enough to sit in the gap between
// the tiles above it and those below it (and the status line), its own gap kept;
// where no gap is tall enough it sits in the gap's middle.  Only a move (the style
// variable --cy, read by style.css) is written, and only when it changes; a phone's
// felt (a grid, the middle in the flow) has none.
import { $ } from "./state.js";

const GAP = 6;  // px kept between the middle and a tile
let queued = false;

// Fit the middle after the next layout (at most once a frame).
export function fitCentreSoon() {
  if (queued) return;
  queued = true;
  requestAnimationFrame(() => { queued = false; fitCentre(); });
}

function fitCentre() {
  const centre = $("center"), felt = $("felt");
  if (!centre || !felt) return;
  const had = Number(centre.dataset.cy || 0);
  if (getComputedStyle(centre).position !== "absolute" || !centre.children.length) {
    if (had) { centre.style.removeProperty("--cy"); delete centre.dataset.cy; }
    return;
  }
  // the middle's pieces as they would sit unmoved (their union: the box is wider)
  let left = Infinity, right = -Infinity, top = Infinity, bottom = -Infinity;
  for (const kid of centre.children) {
    const b = kid.getBoundingClientRect();
    if (!b.width && !b.height) continue;
    left = Math.min(left, b.left); right = Math.max(right, b.right);
    top = Math.min(top, b.top - had); bottom = Math.max(bottom, b.bottom - had);
  }
  if (left === Infinity) return;
  const f = felt.getBoundingClientRect();
  let lo = f.top + felt.clientTop, hi = lo + felt.clientHeight;
  const middle = (top + bottom) / 2;
  const below = [...felt.querySelectorAll("#seats .seat")].map((t) => t.getBoundingClientRect());
  const status = $("status").getBoundingClientRect();
  if (status.height) below.push(status);
  for (const b of below) {
    if (b.right <= left - GAP || b.left >= right + GAP || !b.height) continue;
    if ((b.top + b.bottom) / 2 < middle) lo = Math.max(lo, b.bottom);
    else hi = Math.min(hi, b.top);
  }
  let cy = 0;
  if (hi - lo - 2 * GAP >= bottom - top) {
    if (top < lo + GAP) cy = lo + GAP - top;
    else if (bottom > hi - GAP) cy = hi - GAP - bottom;
  } else {
    cy = (lo + hi) / 2 - middle;  // (no room: as clear of both as it can be)
  }
  cy = Math.round(cy);
  if (cy === had) return;
  if (cy) { centre.style.setProperty("--cy", cy + "px"); centre.dataset.cy = String(cy); }
  else { centre.style.removeProperty("--cy"); delete centre.dataset.cy; }
}

// Fit again whenever the felt's size or a tile's content changes outside a render
// (a window resized, a card turned over by the felt's moves).
export function initCentre() {
  const felt = $("felt");
  if (!felt || typeof ResizeObserver === "undefined") return;
  new ResizeObserver(fitCentreSoon).observe(felt);
  new MutationObserver(fitCentreSoon).observe($("seats"),
    { childList: true, subtree: true, characterData: true });
}
