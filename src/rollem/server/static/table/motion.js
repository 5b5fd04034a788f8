// Animations and sounds, decided from the difference between the state drawn
// before and the one drawn now: cards dealt or turned up, labels that change,
// bets swept into the pot at the end of a round, the pot pushed to the
// winner(s), each half apart.  Motion is off where the player's system asks for
// less (prefers-reduced-motion); sounds are generated (WebAudio) and off on this
// device until the player turns them on (a tap: browsers play nothing before one).
import { $, store, toastWhenFree } from "./state.js";
import { actionLabels } from "./felt.js";
import { afterPaint } from "./frames.js";
import { moving, watchSlowFrames } from "./slowframes.js";
import { SOUND_NAMES, addSoundPart, soundBuffer, soundSamples } from "./sounds.js";

let soundOn = store.get("rollem_alerts") === "1";
const reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
// (kept up to date by the query's change event: read at every state, and reading
// .matches evaluates the query each time)
let reducedNow = !!(reduced && reduced.matches);
const followed = !!(reduced && reduced.addEventListener);
if (followed) {
  reduced.addEventListener("change", () => {
    reducedNow = reduced.matches;
    if ($("motion-btn")) renderMotionBtn();
  });
}
function systemReduced() { return followed ? reducedNow : !!(reduced && reduced.matches); }
// The player's motion setting on this device (the motion button): "on", "off", or
// "auto" (never pressed): on until the felt finds this device too slow for it, a
// frame over 50 ms while something moved (slowframes.js; issue 26: at 10 seats on a
// phone at 4x slower, the animations running while the next state is drawn made
// frames over 50 ms that the same states drawn still did not), then off for the
// rest of the page's life (`slow`), the button saying so; a press turns it on, and
// on it stays.  Under the system's reduced motion it is off, whatever the setting.
export const MOTION_KEY = "rollem_motion";
let setting = ["on", "off"].includes(store.get(MOTION_KEY)) ? store.get(MOTION_KEY) : "auto";
let slow = false;
let unwatch = () => {};
export function motionOff() {
  return systemReduced() || setting === "off" || (setting === "auto" && slow);
}

// --------------------------------------------------------------- sounds
// One AudioContext, made (or resumed) on a tap or key press while sound is on:
// browsers start one only in a user gesture.  Sounds play while it runs; none is
// queued on a stopped one, and no sound asks it to resume (issue 26).
let audio = null;
let tapWoke = false;   // the last tap woke the context on the sound button itself
function wake() {
  if (!soundOn) return null;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  try {
    if (!audio || audio.state === "closed") made(new Ctx());
    if (audio.state === "suspended") {
      return Promise.resolve(audio.resume()).then(() => { prerender(audio); return audio; }, () => null);
    }
  } catch (e) { return null; }   // (no sound on this device)
  prerender(audio);
  return Promise.resolve(audio);
}
function ctx() { return audio && audio.state === "running" ? audio : null; }
// The page's AudioContext, made: the sound button follows its state (a browser
// starts it suspended until the player's first tap or key).
function made(c) {
  audio = c;
  if (c.addEventListener) c.addEventListener("statechange", renderSoundBtn);
  renderSoundBtn();
}
// Each sound is made once into a buffer and then played as one buffer source (a
// bet's two tones made anew at each bet were oscillators, gains and their
// envelopes set in the state's script: issue 26).  Its samples are worked out
// in the page's script (sounds.js: no oscillator, filter or OfflineAudioContext,
// whose first one cost 100 to 300 ms of a slow phone's main thread), part by part
// (a tone, a noise) in idle moments once sound wakes: as many parts as fit in each
// moment (its deadline's time left, 4 ms kept in hand), at least one; one part a
// moment was eleven idle callbacks for the six sounds, each up to 2 s apart on a
// loaded phone.  A sound asked for before it is ready is made a part an idle
// moment too (makeThenPlay; made whole in its start's frame, it was 7 to 31 ms at
// 4x cold: issue 26).
const rendered = new Map();   // sound name -> its AudioBuffer
let prerendered = false;
const idle = window.requestIdleCallback
  ? (fn) => window.requestIdleCallback(fn, { timeout: 2000 }) : (fn) => setTimeout(fn, 50);
function keep(c, name, samples) {
  const buf = c.createBuffer(1, samples.length, c.sampleRate);
  buf.getChannelData(0).set(samples);
  rendered.set(name, buf);
  return buf;
}
function bufferOf(c, name) {
  const buf = rendered.get(name);
  return buf && buf.sampleRate === c.sampleRate ? buf : keep(c, name, soundSamples(name, c.sampleRate));
}
function prerender(c) {
  if (prerendered) return;
  prerendered = true;
  const names = SOUND_NAMES.slice();
  let name = null, out = null, k = 0;
  const next = (deadline) => {
    try {
      do {
        if (!name) {
          name = names.shift();
          if (!name) return;
          out = soundBuffer(name, c.sampleRate); k = 0;
        }
        if (!addSoundPart(out, name, k++, c.sampleRate)) {
          if (!rendered.has(name)) keep(c, name, out);
          name = null;
        }
      } while (deadline && !deadline.didTimeout && deadline.timeRemaining() > 4);
    } catch (e) { return; }   // (no sound here: each is made when played)
    idle(next);
  };
  idle(next);
}
export function play(name) {
  if (!soundOn || !SOUND_NAMES.includes(name)) return;
  try {
    const c = ctx();
    if (!c) return;
    prerender(c);
    const buf = rendered.get(name);
    if ((buf && buf.sampleRate === c.sampleRate) || document.visibilityState === "hidden") sound(c, name);
    else makeThenPlay(c, name);
  } catch (e) { /* no sound here */ }
}
function sound(c, name) {
  const src = c.createBufferSource();
  src.buffer = bufferOf(c, name);
  src.connect(c.destination);
  src.start();
}
// A sound asked for before its buffer is made (the idle moments' prerender starved
// on a loaded phone): made a part an idle moment (each TIMEOUT_MS at the latest),
// played once whole if that is within LATE_MS of the asking, else not played (a
// deal's click 0.3 s late is no help).  Made whole at once it was 7 to 30 ms of the
// start's frame at 4x (issue 26).  A page out of sight plays it at once, made whole.
export const LATE_MS = 300;
const making = new Map();   // sound name -> the times it was asked for, waiting
function makeThenPlay(c, name) {
  const asked = making.get(name);
  if (asked) { asked.push(performance.now()); return; }
  making.set(name, [performance.now()]);
  const out = soundBuffer(name, c.sampleRate);
  let k = 0;
  const step = () => {
    try {
      const buf = rendered.get(name);
      if (!(buf && buf.sampleRate === c.sampleRate)) {
        if (addSoundPart(out, name, k++, c.sampleRate)) { soon(step); return; }
        keep(c, name, out);
      }
      const now = performance.now();
      const times = making.get(name) || [];
      making.delete(name);
      if (times.some((t) => now - t <= LATE_MS) && ctx() === c) sound(c, name);
    } catch (e) { making.delete(name); }
  };
  soon(step);
}
const TIMEOUT_MS = 100;
const soon = window.requestIdleCallback
  ? (fn) => window.requestIdleCallback(fn, { timeout: TIMEOUT_MS }) : (fn) => setTimeout(fn, 0);
// Your turn: its sound and a short vibration, with the state's other sounds (in the
// frame after its render, see `animate`).
export function turnAlert() {
  if (soundOn) hear("turn");
}
function alert(name) {
  play(name);
  if (name === "turn" && soundOn && navigator.vibrate) navigator.vibrate(150);
}
// Sound on, but the browser holds it until a tap or key on this page (its
// AudioContext made and suspended): the button says so, "▶ sound", its title
// that a tap anywhere starts it (s62-table: it said "sound on" while nothing
// played until the first tap, which nothing said).
function soundWaits() { return soundOn && !!audio && audio.state === "suspended"; }
function startHeld() {
  const woken = wake();
  if (woken) woken.then((c) => { if (c) play("check"); });
}
function renderSoundBtn() {
  const b = $("alerts-btn");
  if (!b) return;
  const waits = soundWaits();
  // ("▶ sound": as narrow as "sound off", so the phone's head keeps to one line and
  // nothing under the finger moves as the sound starts; "tap for sound" wrapped it)
  b.textContent = waits ? "▶ sound" : soundOn ? "sound on" : "sound off";
  b.setAttribute("aria-pressed", String(soundOn));
  b.dataset.waits = String(waits);
  b.title = waits ? "Table sounds are on for this device, but the browser plays none until "
    + "you tap or press a key on this page: a tap anywhere starts them"
    : soundOn ? "Table sounds and vibration on your turn: on (this device)"
      : "Table sounds and vibration on your turn: off (this device)";
}
function renderMotionBtn() {
  const b = $("motion-btn");
  const on = !motionOff();
  b.textContent = on ? "motion on" : "motion off";
  b.setAttribute("aria-pressed", String(on));
  b.disabled = systemReduced();
  b.dataset.why = systemReduced() ? "system" : setting === "auto" ? (slow ? "slow" : "auto") : setting;
  b.title = systemReduced()
    ? "Card and chip animations: off (this device's settings ask for reduced motion)"
    : setting === "auto" && slow
      ? "Card and chip animations: off, as this device drew frames over 50 ms while they ran; press to turn them on"
      : "Card and chip animations: " + (on ? "on" : "off") + " (this device)";
}
// Motion in the "auto" setting: the felt's frames watched while something moves.
function watchMotion() {
  unwatch();
  unwatch = setting === "auto" && !slow
    ? watchSlowFrames(() => { slow = true; renderMotionBtn(); toastWhenFree(SLOW_WORDS); }) : () => {};
}
// Said once, when the felt turns its motion off by itself (stop 53: the switch went
// off mid-session without a word), after any toast up then (toastWhenFree).
export const SLOW_WORDS = "Animations turned off: this device drew slow frames while cards moved. "
  + "Tap “motion off” to turn them back on.";
export function initMotion() {
  const mb = $("motion-btn");
  if (mb) {
    mb.onclick = () => {
      setting = motionOff() ? "on" : "off";
      store.set(MOTION_KEY, setting);
      watchMotion();
      renderMotionBtn();
    };
    renderMotionBtn();
    watchMotion();
  }
  $("alerts-btn").onclick = () => {
    if (tapWoke) { tapWoke = false; return; }   // ("▶ sound" tapped: started, below)
    if (soundWaits()) { startHeld(); return; }   // (a click with no tap: a screen reader's)
    soundOn = !soundOn;
    store.set("rollem_alerts", soundOn ? "1" : "0");
    renderSoundBtn();
    // the tap that lets the browser play sounds: the context starts, then a sound says so
    const woken = wake();
    if (woken) woken.then((c) => { if (c) play("check"); });
  };
  // Sound left on from before: the context is made at the page's first idle
  // moment, its sounds after it (a browser starts it suspended), and the
  // player's first tap or key starts it (and one a phone stopped meanwhile, a
  // call say, starts again at the next).  Made in that tap's listener, it was a
  // long frame mid-hand: the first AudioContext of a page took 120 to 590 ms of
  // Chromium's main thread at 4x slower (issue 26).
  if (soundOn) idle(makeEarly);
  for (const kind of ["pointerdown", "keydown"]) {
    document.addEventListener(kind, (ev) => {
      // "▶ sound" itself tapped: the sound starts now and the check's sound says
      // so; the click that follows does not turn it off.  (Handled here: the button's
      // words change as the sound starts, and on a phone the click of that tap then
      // went to the page's head, the finger no longer on the narrower button.)
      tapWoke = soundWaits() && ev.target === $("alerts-btn")
        && (ev.type === "pointerdown" || ev.key === "Enter" || ev.key === " ");
      if (tapWoke) startHeld();
      else if (soundOn && !ctx()) wake();   // (any other tap or key: silently)
    }, true);
  }
  renderSoundBtn();
  // The flights' layer, made once with the page and kept displayed, empty or not
  // (issue 26: made at the first flight, or shown then, display none while empty,
  // it was laid out, a layer made and painted in that flight's frame: 43 to 53 ms
  // of style, layout and paint at 4x with the flights' start).
  if ($("felt")) {
    flightLayer();
    // (the keyframes of a phone's flights at a hand's end, made now: a bet swept
    // with one push or two halves' pushes; made at the hand's end, each added to
    // the page's style in the flights' frame)
    for (const pushes of [1, 2]) {
      const total = pushDelay(pushes - 1) + FLIGHT_MS;
      for (const delay of [0, ...Array.from({ length: pushes }, (_, k) => pushDelay(k))]) flightKeyframes(delay, total);
    }
    // (and those of the cards and labels started with a street's sweep or a hand's end's)
    for (const total of [FLIGHT_MS, pushDelay(0) + FLIGHT_MS, pushDelay(1) + FLIGHT_MS]) {
      for (const cls of Object.keys(MOVE_FRAMES)) heldKeyframes(cls, total);
    }
  }
}
function makeEarly() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!soundOn || audio || !Ctx) return;
  try { made(new Ctx()); } catch (e) { audio = null; return; }   // (no sound on this device)
  prerender(audio);
}

// ------------------------------------------------------------ animation
// Whether chips will move between these two states: bets gathered into the pot
// (a seat's bet gone) or the pot paid.  Only then are positions read: reading
// them makes the browser lay the page out at once, a cost at every state.
function chipsMove(state, previous) {
  if (!previous || previous === state || motionOff()) return false;
  const hand = state.hand, old = previous.hand;
  if (!hand || !old || old.hand_no !== hand.hand_no) return false;
  if (hand.result && !old.result) return true;
  return (old.seats || []).some((hs, i) => hs && hs.bet && !(hand.seats[i] && hand.seats[i].bet));
}
// Where the bets and the pot are on screen before a new state is drawn (null:
// nothing will move): read before the page changes, while its layout is the one
// last painted (a read after drawing would make the browser lay the new page out
// at once, in the message's task: issue 26).  Where they land is read after the
// new state is painted (afterPaint).
export function capture(state, previous) {
  if (!chipsMove(state, previous)) return null;
  const rects = { bets: {}, pot: null, felt: feltBox() };
  // (the bets looked up in each tile the felt keeps and in your seat's box, not in
  // the whole page: a query of the page's every element at each hand's end and
  // each round's, issue 26)
  const boxes = [...($("seats").tiles || new Map()).values()].map((tile) => tile.node);
  boxes.push($("me"));
  for (const box of boxes) {
    const b = box && box.querySelector(".bet-chips");
    if (b) rects.bets[b.dataset.seat] = { rect: b.getBoundingClientRect(), amount: Number(b.dataset.amount) };
  }
  const pot = $("pots");
  if (pot) rects.pot = pot.getBoundingClientRect();
  return rects;
}
// The felt's moves still running when a newer state is drawn end now, at their
// last frame (issue 26: a state drawn over running animations took 51 to 63 ms of a
// phone's frame at 4x, the same state drawn still 25 to 45; with no animation
// running no state's frame was over 50 ms: docs/dev/felt-frames.md, stops 49-51).
// Each is ended by a style write alone, its animation's duration set to 0 on the
// element (`begun`: the elements the start gave a move's class, with when that
// move is surely over; the start clears it when it moves the element again): the
// browser ends the animation with the new state's style, in its frame's one style
// step and layout, and it ends as `finish()` ends it (its animationstart, if not yet
// sent, and its animationend; taking the class away instead sent nothing for a
// move not yet begun).  (Ended through the Web Animations API, `getAnimations()` and
// each one's `playState` and `finish()`, every move after the first made the browser
// work out the page's style and lay it out again then and there: 12 layouts in the
// state after a deal at 10 seats, against 1 drawn still; stop 52.)  The moves'
// animations fill backwards only (style.css): ended, an element shows as at its
// move's end.
// The chips' flights are left to land (each a bet swept in or a pot pushed out: at
// the computer players' pace a flight cut short would never be seen to arrive), as
// are the seat's clock and anything else animated.
// ([[element, ms on the page clock after which its move is over]], emptied at
// each state drawn)
const begun = [];
export function settle(state, previous) {
  if (previous === state || motionOff()) return 0;
  const now = performance.now();
  let ended = 0;
  for (const [e, until] of begun) {
    if (until > now) { e.style.animationDuration = "0s"; ended++; }
  }
  begun.length = 0;
  return ended;
}
// The felt's inside (within its border) on screen now: the flights are drawn in a
// layer over it, clipped to it (issue 26: chips drawn over the whole page flew over
// the side column and the header once the page was scrolled).  Points are kept in
// the felt's own coordinates, so a scroll between the reads and the flight (or
// during it) moves them with the felt.
function feltBox() {
  const felt = $("felt");
  if (!felt) return null;
  const r = felt.getBoundingClientRect();
  return { left: r.left + felt.clientLeft, top: r.top + felt.clientTop,
           width: felt.clientWidth, height: felt.clientHeight };
}
function flightLayer() {
  const felt = $("felt");
  let layer = felt.querySelector(":scope > .flights");
  if (!layer) {
    layer = document.createElement("div");
    layer.className = "flights";
    layer.setAttribute("aria-hidden", "true");
    // a flight (launch) is gone at its animation's end, or when it is cancelled
    // (reduced motion asked meanwhile: display none)
    const landed = (e) => { if (e.target.classList.contains("flying-chips")) e.target.remove(); };
    layer.addEventListener("animationend", landed);
    layer.addEventListener("animationcancel", landed);
    felt.appendChild(layer);
  }
  return layer;
}
// A point on screen in the felt's coordinates.
function inFelt(p, box) { return { x: p.x - box.left, y: p.y - box.top }; }
// A point held inside the felt, `w`/`h` (the chips' half size) in from its edges:
// a flight to or from your seat (in the dock, under the felt) meets the felt's edge.
function held(p, box, w, h) {
  return { x: Math.min(Math.max(p.x, w), Math.max(w, box.width - w)),
           y: Math.min(Math.max(p.y, h), Math.max(h, box.height - h)) };
}
// A seat's box: yours (the dock's), else its tile, from the tiles the felt keeps
// (felt.js renderSeats: no lookup in the page, issue 26).
function seatBox(seat, mySeat) {
  if (seat === mySeat) return $("me");
  const tiles = $("seats").tiles;
  const tile = tiles && tiles.get(Number(seat));
  return tile ? tile.node : null;
}

function centre(r) { return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; }
// A few chips with their amount, placed at `from` now (where the bet or the pot
// was), flying to their seat or the pot once the new state is painted: its
// place is read then, from a layout already done (no forced layout), and the
// flight moves by transform and opacity alone (the compositor's work).
// (`from`: in the felt's coordinates; the chips are placed where they start once
// their size is known, after the paint, see `animate`.)
function flight(from, text, half) {
  const f = document.createElement("span");
  f.className = "flying-chips";
  f.textContent = "● " + text;
  if (half) f.dataset.half = half;
  f.setAttribute("aria-hidden", "true");
  f.style.left = from.x + "px"; f.style.top = from.y + "px";
  f.style.transform = "translate(-50%, -50%)";
  f.style.visibility = "hidden";
  flightLayer().appendChild(f);
  return f;
}
// A flight's length (ms): 0.4 s (was 0.55 s; issue 26: each frame a flight runs
// in costs a style recalculation and a paint on a phone's main thread).
export const FLIGHT_MS = 400;
// A flight's start and move are kept as shares of the felt's inside (`box`, as
// laid out at the start): its place in percent of the layer, its move in the
// layer's container units (cqw, cqh), so a felt that changes size during the
// flight (your dock growing or shrinking at the next state, a desktop's felt
// filling the height above it) carries the chips with it, held inside (issue 26:
// a chip held at the felt's bottom edge in px was left up to 12 px past it).
// The flight is a CSS animation (style.css `chips-fly`, its move in the custom
// properties --mx and --my), started by a class: a few style writes here, the
// animation made in the next frame's style step (issue 26: one Web Animation a
// flight, made in script, cost 34 to 56 ms at 4x for a round's nine flights).
// It is removed at its end (the layer's animationend listener, flightLayer).
// The flights set off together (a round's bets swept in, the pot pushed out 250 ms
// later, a winner every 150 ms after) all last as long as the last of them
// (`total`, ms) and start at once, none with a delay: each one's wait and its end
// are still in its keyframes (flightKeyframes: held where it starts, then its
// FLIGHT_MS move, then unseen), so it shows what it did, but the browser has one
// start and one end for them all.  (Issue 26: each animation's delay's end and its
// end is a main-thread frame or two of the browser's own, style of every running
// move, a commit; a hand's end's sweep and push were 12.5 such frames at 4x against
// 9.3 with one end: docs/dev/felt-frames.md, stop 54.)
function share(v, n) { return (n ? (100 * v) / n : 0).toFixed(3); }
function launch(f, from, to, delay, box, total = FLIGHT_MS) {
  if (!to) { f.remove(); return; }
  const st = f.style;
  st.left = share(from.x, box.width) + "%"; st.top = share(from.y, box.height) + "%";
  st.setProperty("--mx", share(to.x - from.x, box.width) + "cqw");
  st.setProperty("--my", share(to.y - from.y, box.height) + "cqh");
  const name = flightKeyframes(delay, total);
  if (name) {
    st.animationDuration = total + "ms";
    if (name !== "chips-fly") st.animationName = name;
  } else {   // (no style sheet of the page's own: as before, the wait a delay)
    st.animationDuration = FLIGHT_MS + "ms";
    if (delay) st.animationDelay = delay + "ms";
  }
  st.visibility = "";
  f.classList.add("fly");
}
// The name of the keyframes of a flight that waits `delay` ms, moves for FLIGHT_MS
// and is unseen for the rest of `total` ms: made once each (in a style sheet of the
// page's own, adopted at the start: the page's CSP allows no inline style sheet),
// those of a phone's flights (no push, one or two halves) at the start.  The move
// is chips-fly's (style.css): to 85% of it, then fading out; the wait and the rest
// add keyframes that hold.  Null where the browser makes no such sheet (the flight
// then waits by a delay, as before).
const madeKeyframes = new Set();
let flightSheet = null;   // (false: the browser makes none)
function ownSheet() {
  if (flightSheet === null) {
    try {
      const sheet = new CSSStyleSheet();
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
      flightSheet = sheet;
    } catch (e) { flightSheet = false; }   // (tried once)
  }
  return flightSheet || null;
}
export function flightKeyframes(delay, total) {
  if (!delay && total === FLIGHT_MS) return "chips-fly";
  const name = `chips-fly-${delay}-${total}`;
  if (madeKeyframes.has(name)) return name;
  if (!ownSheet()) return null;
  const pc = (ms) => ((100 * ms) / total).toFixed(3) + "%";
  const from = "transform: translate(-50%, -50%); opacity: 1;";
  const at = "transform: translate(calc(-50% + var(--mx, 0px)), calc(-50% + var(--my, 0px)));";
  flightSheet.insertRule(`@keyframes ${name} { 0%, ${pc(delay)} { ${from} } `
    + `${pc(delay + 0.85 * FLIGHT_MS)} { ${at} opacity: 1; } `
    + `${pc(delay + FLIGHT_MS)}, 100% { ${at} opacity: 0; } }`, flightSheet.cssRules.length);
  madeKeyframes.add(name);
  return name;
}
// The cards' and labels' moves (style.css, by class): their keyframes' name, the
// move's length (ms) and its first and last keyframe.  All three last MOVE_MS, 0.3 s
// (label-in fades for 200 ms of it, then holds), so the moves one frame starts end
// in one frame (issue 26: deal-in 0.28 s, flip-up 0.3 s, label-in 0.2 s were three
// ends, each a main-thread frame or two of the browser's own).
const MOVE_FRAMES = {
  "deal-in": ["deal-in", 300, "transform: translateY(-.8em) scale(.7); opacity: 0;", "transform: none; opacity: 1;"],
  "flip-up": ["flip-up", 300, "transform: rotateY(90deg);", "transform: none;"],
  "fresh": ["label-in", 200, "opacity: 0;", "opacity: 1;"],
};
// The name of the keyframes of move `cls` (a class of MOVE_FRAMES) lasting `total`
// ms: its move as style.css's, then held at its end (`<name>-<move>-<total>`), made
// once each in the page's own sheet; null where there is none (the move then ends
// by itself, before the flights).  style.css takes it from the element's --move and
// --move-ms.
export function heldKeyframes(cls, total) {
  const m = MOVE_FRAMES[cls];
  if (!m) return null;
  const [base, ms, from, to] = m;
  const name = `${base}-${ms}-${total}`;
  if (madeKeyframes.has(name)) return name;
  const sheet = ownSheet();
  if (!sheet) return null;
  sheet.insertRule(`@keyframes ${name} { 0% { ${from} } ${((100 * ms) / total).toFixed(3)}%, 100% { ${to} } }`,
    sheet.cssRules.length);
  madeKeyframes.add(name);
  return name;
}
// The delay of the k-th flight to a winner (ms, from the flights' start).
export const PUSH_MS = 250;
export const PUSH_GAP_MS = 150;
function pushDelay(k) { return PUSH_MS + PUSH_GAP_MS * k; }
// The cards of a seat (or the board) as drawn now.
function cardEls(seat, mySeat) {
  if (seat === "board") return [...document.querySelectorAll("#center .mid-cards > .cards > .card, #center .slot.roll .card")];
  const box = seatBox(seat, mySeat);
  return box ? [...box.querySelectorAll(seat === mySeat ? ".cards.mine > .card" : ".cards > .card")] : [];
}

// Cards `els` (one row's, in order) of which those from `from` on are new: the
// row deals in as one when all of its cards are new, else each new card; an older
// card for which `turned(e, k)` flips.
function dealt(els, from, turned, mark) {
  if (!els.length) return;
  const row = els[0].parentElement;
  if (from === 0 && row && row.classList.contains("cards") && row.children.length === els.length) {
    mark(row, "deal-in");
    return;
  }
  els.forEach((e, k) => {
    if (k >= from) mark(e, "deal-in");
    else if (turned(e, k)) mark(e, "flip-up");
  });
}
// A state's animations and sounds start in the frame after the one its render is
// drawn in (issue 26: at 10 seats on a phone at 4x a state's own render is 45 to
// 50 ms, and the animations' start in the same frame, their classes and flights,
// tipped it over 50; then the sounds played in it, 0.2 to 3.3 ms, did).  In the
// render's frame each element that will move only gets the class WAIT (style.css:
// not shown, so the new state never shows for a frame before its animation) and
// each sound is noted; a requestAnimationFrame callback of the next frame swaps
// each mark for its animation's class, sets the chips' flights off and plays the
// sounds (one frame later, 16 to 33 ms on a phone: not heard as late, and a deal's
// sound starts with its cards' move); a state whose side panels are drawn after
// its render's paint (a new hand, a hand's end: main.js) starts in the frame after
// theirs (they filled the next frame, and the start with them made it long).  A newer state drawn before then folds the
// waiting start into its own (states come faster than a slow phone's frames: a
// deal and the first bet, a round's last call and the next street): what of it is
// still on the page starts with the newer state's, one frame later, and its
// sounds play then too, first; an element the newer state took off the page is
// shown (not hidden, never started); a first state, or reduced motion, starts
// nothing and shows all (its sounds still play in the next frame).  A page out of
// sight draws no frames: its sounds (your turn, in another tab) play at once.
export const WAIT = "move-wait";
// { frame: requestAnimationFrame id, marked: [[element, class]], flights: fn | null, sounds: [name] }
let waiting = null;
function nothing() { return { frame: 0, marked: [], flights: null, sounds: [] }; }
function hidden() { return document.visibilityState === "hidden"; }
// The start waiting (cancelled), less its elements no longer on the page; a new
// one if none waits.
// The pieces of cards and labels waiting for their flights' launch (fly: the
// flights set off in a frame after the one that made them): a newer state drawn
// before that folds them into its start, first (else they started after its
// render, with the older state's flights).
const awaitingFlights = [];
function fold() {
  const w = waiting || nothing();
  if (waiting) { if (waiting.frame) cancelAnimationFrame(waiting.frame); waiting = null; }
  if (awaitingFlights.length) {
    w.marked = [...awaitingFlights.flatMap((piece) => piece.splice(0)), ...w.marked];
    awaitingFlights.length = 0;
  }
  w.marked = w.marked.filter(([e]) => {
    if (!e.isConnected) e.classList.remove(WAIT);
    return e.isConnected;
  });
  return w;
}
// `w` started in the frame after the render's; with `sidesLater`, in the frame
// after the one that draws the side panels (main.js draws them in a task after the
// render's paint, asked for before this: this task comes after theirs).
function startLater(w, sidesLater = false) {
  waiting = w;
  w.frame = 0;
  if (sidesLater) {
    afterPaint(() => { if (waiting === w && !w.frame) startLater(w); });
    return;
  }
  // (a callback asked for in a task runs before the next paint: the one it asks
  // for runs in the frame after)
  w.frame = requestAnimationFrame(() => { w.frame = requestAnimationFrame(() => start(w)); });
}
// The sound `name` (a name of SOUND_NAMES, or "turn" with its vibration) played
// with the waiting start (one asked for if none waits); at once on a page out of
// sight.
function hear(name) {
  if (hidden()) { alert(name); return; }
  if (waiting) { waiting.sounds.push(name); return; }
  const w = nothing();
  w.sounds.push(name);
  startLater(w);
}
// The page going out of sight with sounds waiting for a frame: they play now.
document.addEventListener("visibilitychange", () => {
  if (!hidden() || !waiting || !waiting.sounds.length) return;
  const sounds = waiting.sounds;
  waiting.sounds = [];
  for (const name of sounds) alert(name);
});
// A start is made of pieces, one a frame (issue 26: a start of a deal's ten rows
// and its labels at once, or of several states folded, was a frame of its own
// over 50 ms at 4x, its script and above all the browser's style and paint of
// every element starting): the sounds and up to MOVES_A_FRAME elements (each still
// hidden until its own frame, in the order marked: the seats' rows in seat order,
// the board's, then the labels), fewer if the piece's script has run PIECE_MS (page clock)
// already; with chips' flights, the last piece's frame makes the flights' elements
// (laid out in the flights' layer) and its elements start with the flights, in the
// frame they set off in, lasting as long (fly, goWith: a street's card and its
// sweep were two starts and two ends, each a main-thread frame or two of the
// browser's own; issue 26). A deal at 10 seats
// is three frames (a tenth of a second at 30 frames a second), a round's end
// one or two and then its flights.  A newer state drawn meanwhile folds what is
// left into its own start (`fold`), as before.
export const MOVES_A_FRAME = 4;
// The length of the moves' animations (ms: style.css, deal-in's, flip-up's and label-in's 0.3 s).
export const MOVE_MS = 300;
// A move is ended by a newer state (settle) up to this long after its start piece
// (ms): the move's own MOVE_MS and the frames before it starts on a slow phone (a
// move ended after it ended by itself shows nothing new, and costs the element's
// restyle).
export const SETTLE_MS = MOVE_MS + 500;
export const PIECE_MS = 3;
// Element `e`'s move `cls` starts (its class, in place of WAIT's) in this frame's
// style step; with `total` (ms), it lasts that long, its move as before and then
// held at its end (heldKeyframes: it ends with the flights it starts with).
function go(e, cls, started, total = 0) {
  const st = e.style;
  if (st.animationDuration) st.animationDuration = "";   // (ended by settle)
  const held = total > MOVE_MS ? heldKeyframes(cls, total) : null;
  if (held) { st.setProperty("--move", held); st.setProperty("--move-ms", total + "ms"); }
  else if (st.getPropertyValue("--move")) { st.removeProperty("--move"); st.removeProperty("--move-ms"); }
  if (!e.classList.replace(WAIT, cls)) e.classList.add(cls);
  begun.push([e, started + SETTLE_MS]);   // (ended by a newer state: settle)
}
// The moves `piece` ([[element, class]]) started with a launch of flights lasting
// `total` ms (0: none launched), in the frame they set off in.
function goWith(piece, total) {
  if (!piece.length) return;
  const now = performance.now();
  if (motionOff()) { for (const [e] of piece) e.classList.remove(WAIT); return; }
  for (const [e, cls] of piece) go(e, cls, now, total);
  moving(now, now + Math.max(total, MOVE_MS));
}
function start(w) {
  if (waiting !== w) return;
  w.frame = 0;
  const started = performance.now();
  const off = motionOff();   // (reduced motion asked meanwhile: shown, not moved)
  const sounds = w.sounds;
  w.sounds = [];
  let n = 0;
  const piece = [];   // ([[element, class]] started in this frame, or with the flights)
  while (w.marked.length && n < MOVES_A_FRAME && !(n && performance.now() - started >= PIECE_MS)) {
    const [e, cls] = w.marked.shift();   // (one change of its class each)
    n++;
    if (off) e.classList.remove(WAIT);
    else piece.push([e, cls]);
  }
  // (the last piece of a start with chips' flights starts with them: fly)
  const flights = !w.marked.length && w.flights;
  if (flights) { w.flights = null; if (!off) flights(piece); }
  if (!flights || off) {
    for (const [e, cls] of piece) go(e, cls, started);
    if (piece.length) moving(started, performance.now() + MOVE_MS);
  }
  for (const name of sounds) alert(name);
  if (w.marked.length || w.flights) w.frame = requestAnimationFrame(() => start(w));
  else waiting = null;
  // (bench/bench_web_felt.py; "sounds": a piece with nothing to move)
  performance.measure("rollem-animate", {
    start: started, detail: n || flights ? "start" : "sounds" });
}
// A label fades in for 0.2 s (style.css, .action-label.fresh); the next may
// start FADE_GAP_MS after the last one started (ms, page clock), and only in a
// state drawn FADE_QUIET_MS or more after the state before it (ms, page clock):
// a state in a quick run (computer players 0.25 s apart) shows its labels at once.
export const FADE_GAP_MS = 400;
export const FADE_QUIET_MS = 400;
let lastFade = -Infinity;
let lastDrawn = -Infinity;
// A small screen (the phone layout's width, style.css max-width 600px) with more
// than FEW_SEATS seats in the hand: the chips move in few flights (issue 26: at 10
// seats a round's 9 or 10 flights cost every frame they ran in on a phone at 4x,
// and starting them a few a frame did not help).  The round's bets go into the pot
// as one stack, from their middle; the pot goes out as one flight a half (high,
// low).  Wider screens and fewer seats: one flight a bet and a winner.
export const FEW_SEATS = 6;
const narrow = window.matchMedia ? window.matchMedia("(max-width: 600px)") : null;
function fewFlights(seats) {
  return !!(narrow && narrow.matches) && seats.filter(Boolean).length > FEW_SEATS;
}
// The payouts `paid` ([half, seat, chips]) as one a half: the seat paid most of
// that half (over all pots), with what it was paid of it.
function byHalf(paid) {
  const halves = new Map();
  for (const [half, s, chips] of paid) {
    const seats = halves.get(half) || new Map();
    seats.set(s, (seats.get(s) || 0) + Number(chips));
    halves.set(half, seats);
  }
  return [...halves].map(([half, seats]) => {
    const [s, chips] = [...seats].reduce((a, b) => (b[1] > a[1] ? b : a));
    return [half, s, chips];
  });
}
// Everything that moves or sounds after `state` is drawn over `previous` (the
// moves marked now, started in the next frame with the sounds; in the one after
// if `sidesLater`: the page's side panels take the next, main.js; issue 26: the
// start with them made a long frame at a hand's end).
export function animate(state, previous, before, sidesLater = false) {
  if (previous === state) return;   // (a local change: nothing moves; a start waiting waits)
  const w = fold();
  if (previous) moves(state, previous, before, w);
  if (!previous || motionOff()) {
    for (const [e] of w.marked) e.classList.remove(WAIT);
    w.marked = []; w.flights = null;
  }
  if (w.sounds.length && hidden()) {   // (no frame to wait for: heard now)
    for (const name of w.sounds) alert(name);
    w.sounds = [];
  }
  if (w.marked.length || w.flights || w.sounds.length) startLater(w, sidesLater);
}
// The sounds of `state` over `previous` and its moves, added to `w`.
function moves(state, previous, before, w) {
  const now = performance.now();
  const calm = now - lastDrawn >= FADE_QUIET_MS;   // (a new state, after a quiet spell)
  lastDrawn = now;
  const hand = state.hand, old = previous.hand;
  if (!hand) return;
  const same = old && old.hand_no === hand.hand_no;
  const mySeat = state.you.seat;
  const quiet = motionOff();
  // New events since the last state: their sounds (one of each kind).
  const fresh = same ? hand.events.slice(old.events.length) : hand.events;
  const heard = new Set();
  for (const e of soundOn ? fresh : []) {
    const k = e.kind;
    if (k === "check") heard.add("check");
    else if (k === "bet" || k === "raise" || k === "call") heard.add("bet");
    else if (k === "fold") heard.add("fold");
    else if (k === "deal_hole" || k === "deal_up" || k === "board" || k === "draw_deal" || k === "roll") heard.add("deal");
  }
  if (soundOn && hand.result && !(same && old.result)) heard.add("win");
  w.sounds.push(...heard);
  if (quiet) return;
  // (an element kept from a move before, a row of backs kept from the last hand's
  // deal, has its move's class taken off here, so the start's class starts it anew:
  // the render's frame styles it without the move)
  const mark = (e, cls) => {
    if (e.classList.contains(cls)) e.classList.remove(cls);   // (a write only if there)
    e.classList.add(WAIT);
    w.marked.push([e, cls]);
  };
  // Cards that came or turned up since.  A row whose cards are all new (a deal)
  // moves as one element, one animation a seat, not one a card (issue 26: each
  // animated element is style, a layer and paint at its start and end, on a phone
  // at 4x slower); a card added to a row (a draw, a street of stud, the turn) or
  // turned up moves alone.
  // A seat's (or the board's) cards are looked up on the page only when some came
  // or turned up (issue 26: the lookups at every state, every seat's row, were
  // most of this code's script in a state with nothing to move).
  const seats = hand.seats || [];
  seats.forEach((hs, i) => {
    if (!hs || !hs.cards) return;
    const was = same && old.seats[i] ? old.seats[i] : { cards: [], up: [] };
    const turned = (k) => !!((hs.up[k] && !was.up[k]) || (hs.cards[k] && !was.cards[k]));
    if (hs.cards.length <= was.cards.length && !hs.cards.some((c, k) => turned(k))) return;
    dealt(cardEls(i, mySeat).slice(0, hs.cards.length), was.cards.length, (e, k) => turned(k), mark);
  });
  const boardWas = same ? (old.board || []).length : 0;
  if ((hand.board || []).length > boardWas) dealt(cardEls("board", mySeat), boardWas, () => false, mark);
  // Labels that changed (the labels before read once, not once a seat) fade in,
  // one state's at a time: none while a fade started less than FADE_GAP_MS ago,
  // none in a state drawn less than FADE_QUIET_MS after the one before it
  // (states coming that fast, computer players' turns, show their labels at once:
  // issue 26, each running animation costs every frame a style recalculation and
  // a paint on a phone's main thread, and a fade still running when the next
  // state comes adds them to that state's frame, the longest ones).
  // (The seats whose words changed are found from the two states' labels; only
  // their label elements are looked up on the page.)
  if (calm && now - lastFade >= FADE_GAP_MS) {
    const wasLabels = same ? actionLabels(old) : {};
    const labels = actionLabels(hand);
    for (const seat of Object.keys(labels)) {
      const was = wasLabels[seat] ? wasLabels[seat].text : null;
      if (was === labels[seat].text) continue;
      const box = seatBox(Number(seat), mySeat);
      const l = box && box.querySelector(".action-label:not(.none)");
      if (l && l.dataset.text !== was) { mark(l, "fresh"); lastFade = now; }
    }
  }
  if (same && before && before.felt) {
    const was = w.flights;   // (a folded start's flights go first)
    w.flights = (piece) => { if (was) was(); fly(state, previous, before, fresh, piece); };
  }
}
// The chips' flights between `previous` and `state` (bets gathered, the pot
// paid), from where they were before the render (`before`), set off in the frame
// after the render (start): each flight's target is read when the browser lays
// it out for the frame after that (laidOut).
function fly(state, previous, before, fresh, piece = []) {
  const hand = state.hand, old = previous.hand, seats = hand.seats || [];
  const mySeat = state.you.seat;
  // Bets gathered: each flies from in front of its seat into the pot; the part of
  // a bet nobody called (a "return" event) goes back to its seat instead.  Points
  // in the felt's coordinates as it was drawn before (before.felt).
  const flights = [];   // [element, from, target ("pot" or a seat), delay]
  const was = before.felt;
  const potFrom = before.pot && before.pot.width ? inFelt(centre(before.pot), was) : null;
  const returned = {};
  for (const e of fresh) if (e.kind === "return" && e.seat !== null) returned[e.seat] = (returned[e.seat] || 0) + (e.amount || 0);
  const few = fewFlights(seats);
  const swept = [];   // [from, amount] of each bet going into the pot
  seats.forEach((hs, i) => {
    const had = before.bets[i];
    if (!had || !(had.amount > 0) || (hs && hs.bet)) return;
    const from = inFelt(centre(had.rect), was);
    const back = Math.min(had.amount, returned[i] || 0);
    if (back) flights.push([flight(from, String(back), null), from, i, 0]);
    if (had.amount - back > 0) swept.push([from, had.amount - back]);
  });
  if (few && swept.length > 1) {
    // one stack of the round's bets, from their middle, into the pot
    const mid = { x: swept.reduce((t, [p]) => t + p.x, 0) / swept.length,
                  y: swept.reduce((t, [p]) => t + p.y, 0) / swept.length };
    const total = swept.reduce((t, [, a]) => t + a, 0);
    flights.push([flight(mid, String(total), null), mid, "pot", 0]);
  } else {
    for (const [from, amount] of swept) flights.push([flight(from, String(amount), null), from, "pot", 0]);
  }
  // The pot paid: chips to each winner, the high and the low half apart (with few
  // flights: one a half, to the seat winning most of it, carrying that seat's chips).
  if (hand.result && !old.result && potFrom) {
    const paid = [];   // [half, seat, chips]
    for (const pot of hand.result.pots || []) {
      const split = pot.high && pot.low && Object.keys(pot.high).length && Object.keys(pot.low).length;
      const parts = split ? [["high", pot.high], ["low", pot.low]] : [[null, pot.winners || pot.high || pot.low || {}]];
      for (const [half, map] of parts) {
        for (const [s, chips] of Object.entries(map)) paid.push([half, Number(s), chips]);
      }
    }
    (few ? byHalf(paid) : paid).forEach(([half, s, chips], k) => {
      const f = flight(potFrom, chips + (half ? " " + half : ""), half);
      flights.push([f, potFrom, s, pushDelay(k)]);
    });
  }
  if (!flights.length) { goWith(piece, 0); return; }
  // Where each flight lands (a seat's tile, yours: the dock; the pot), the felt's
  // inside (the flights' layer fills it) and each flight's size, as the browser lays
  // them out for the next frame: an IntersectionObserver's first report, made after
  // that frame's layout and handed over after it, reads no layout of its own (issue
  // 26: reads in a task after the paint forced a layout whenever another task had
  // changed the page in between, 20 to 25 ms at 4x at a hand's end).
  if (piece.length) awaitingFlights.push(piece);
  const layer = flightLayer();
  const targets = flights.map(([, , target]) => (target === "pot" ? $("pots") : seatBox(target, mySeat)));
  const els = [layer, ...targets, ...flights.map(([f]) => f)];
  laidOut(els.filter(Boolean), (rect) => {
    const started = performance.now();
    launchAll(rect);
    // (the motion code's time here too, for bench/bench_web_felt.py)
    performance.measure("rollem-animate", { start: started, detail: "flights" });
  });
  function launchAll(rect) {
    const inside = rect(layer);
    if (!inside || !inside.width) {
      flights.forEach(([f]) => f.remove());
      const at = awaitingFlights.indexOf(piece);
      if (at >= 0) awaitingFlights.splice(at, 1);
      goWith(piece, 0);
      return;
    }
    const box = { left: inside.left, top: inside.top, width: inside.width, height: inside.height };
    const now = performance.now();
    // (one length for them all: the last one's wait and move)
    const total = Math.max(...flights.map(([, , , delay]) => delay)) + FLIGHT_MS;
    const at = awaitingFlights.indexOf(piece);
    if (at >= 0) awaitingFlights.splice(at, 1);
    goWith(piece, total);   // (the start's last cards and labels, held to the same end)
    flights.forEach(([f, from, , delay], k) => {
      moving(now, now + delay + FLIGHT_MS);
      const r = rect(f);
      const [w, h] = r ? [r.width / 2, r.height / 2] : [0, 0];
      const t = targets[k] && targets[k].isConnected ? rect(targets[k]) : null;
      const to = t && t.width ? inFelt(centre(t), box) : null;
      launch(f, held(from, box, w, h), to && held(to, box, w, h), delay, box, total);
    });
  }
}
// `fn(rect)` once the browser has laid `els` out for the next frame, `rect(e)` the
// box of each on screen then (null if it was not laid out): from one
// IntersectionObserver's first report, which reads no layout of its own (a page
// without one: after the next paint, reading the boxes).
function laidOut(els, fn) {
  if (!window.IntersectionObserver) {
    afterPaint(() => {
      const got = new Map(els.map((e) => [e, e.getBoundingClientRect()]));
      fn((e) => got.get(e) || null);
    });
    return;
  }
  const io = new IntersectionObserver((entries) => {
    io.disconnect();
    const got = new Map(entries.map((x) => [x.target, x.boundingClientRect]));
    fn((e) => got.get(e) || null);
  });
  els.forEach((e) => io.observe(e));
}
