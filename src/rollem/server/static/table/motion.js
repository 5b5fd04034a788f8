// Animations and sounds, decided from the difference between the state drawn
// before and the one drawn now: cards dealt or turned up, labels that change,
// bets swept into the pot at the end of a round, the pot pushed to the
// winner(s), each half apart.  Motion is off where the player's system asks for
// less (prefers-reduced-motion); sounds are generated (WebAudio) and off on this
// device until the player turns them on (a tap: browsers play nothing before one).
import { $, store } from "./state.js";
import { actionLabels } from "./felt.js";

let soundOn = store.get("rollem_alerts") === "1";
const reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
export function motionOff() { return !!(reduced && reduced.matches); }

// --------------------------------------------------------------- sounds
let audio = null;
function ctx() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  if (!audio) audio = new Ctx();
  if (audio.state === "suspended") audio.resume();
  return audio;
}
// One short tone: frequency (Hz), length (s), start offset (s), wave, loudness.
function tone(c, freq, len, at, type, gain) {
  const o = c.createOscillator(), g = c.createGain();
  const t0 = c.currentTime + (at || 0);
  o.type = type || "sine";
  o.frequency.value = freq;
  g.gain.setValueAtTime(gain || 0.08, t0);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + len);
  o.connect(g); g.connect(c.destination);
  o.start(t0); o.stop(t0 + len + 0.02);
}
// A burst of noise through a band-pass filter (a card sliding, a swish).
function noise(c, len, freq, gain) {
  const n = Math.floor(c.sampleRate * len);
  const buf = c.createBuffer(1, n, c.sampleRate);
  const d = buf.getChannelData(0);
  for (let i = 0; i < n; i++) d[i] = (Math.random() * 2 - 1) * (1 - i / n);
  const src = c.createBufferSource(), f = c.createBiquadFilter(), g = c.createGain();
  src.buffer = buf; f.type = "bandpass"; f.frequency.value = freq; g.gain.value = gain;
  src.connect(f); f.connect(g); g.connect(c.destination);
  src.start();
}
const SOUNDS = {
  deal: (c) => noise(c, 0.08, 3000, 0.25),
  check: (c) => { tone(c, 180, 0.08, 0, "triangle", 0.15); tone(c, 180, 0.08, 0.11, "triangle", 0.12); },
  bet: (c) => { tone(c, 2300, 0.05, 0, "sine", 0.05); tone(c, 2900, 0.06, 0.05, "sine", 0.05); },
  fold: (c) => noise(c, 0.18, 900, 0.2),
  turn: (c) => tone(c, 880, 0.15, 0, "sine", 0.08),
  win: (c) => { [523, 659, 784, 1047].forEach((f, i) => tone(c, f, 0.18, i * 0.09, "triangle", 0.07)); },
};
export function play(name) {
  if (!soundOn) return;
  try { const c = ctx(); if (c && SOUNDS[name]) SOUNDS[name](c); } catch (e) { /* no sound here */ }
}
export function turnAlert() {
  play("turn");
  if (soundOn && navigator.vibrate) navigator.vibrate(150);
}
function renderSoundBtn() {
  const b = $("alerts-btn");
  b.textContent = soundOn ? "sound on" : "sound off";
  b.setAttribute("aria-pressed", String(soundOn));
  b.title = soundOn ? "Table sounds and vibration on your turn: on (this device)"
    : "Table sounds and vibration on your turn: off (this device)";
}
export function initMotion() {
  $("alerts-btn").onclick = () => {
    soundOn = !soundOn;
    store.set("rollem_alerts", soundOn ? "1" : "0");
    renderSoundBtn();
    if (soundOn) play("check");   // the tap that lets the browser play sounds
  };
  renderSoundBtn();
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
// Where the chips and the pot are on screen before a new state is drawn (null:
// nothing will move).
export function capture(state, previous) {
  if (!chipsMove(state, previous)) return null;
  const rects = { bets: {}, seats: {}, pot: null };
  document.querySelectorAll("#seats .bet-chips, #me .bet-chips").forEach((b) => {
    rects.bets[b.dataset.seat] = { rect: b.getBoundingClientRect(), amount: Number(b.dataset.amount) };
  });
  const pot = $("pots");
  if (pot) rects.pot = pot.getBoundingClientRect();
  return rects;
}
function seatBox(seat, mySeat) {
  if (seat === mySeat) return $("me");
  return document.querySelector("#seats .seat[data-seat='" + seat + "']");
}
function centre(r) { return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; }
// A few chips with their amount flying from one point to another, then gone.
function fly(from, to, text, half, delay) {
  const f = document.createElement("span");
  f.className = "flying-chips";
  f.textContent = "● " + text;
  if (half) f.dataset.half = half;
  f.setAttribute("aria-hidden", "true");
  f.style.left = from.x + "px"; f.style.top = from.y + "px";
  f.style.transform = "translate(-50%, -50%)";
  document.body.appendChild(f);
  const anim = f.animate([
    { transform: "translate(-50%, -50%)", opacity: 1 },
    { transform: "translate(calc(-50% + " + (to.x - from.x) + "px), calc(-50% + " + (to.y - from.y) + "px))", opacity: 1, offset: 0.85 },
    { transform: "translate(calc(-50% + " + (to.x - from.x) + "px), calc(-50% + " + (to.y - from.y) + "px))", opacity: 0 },
  ], { duration: 550, delay: delay || 0, easing: "ease-in-out", fill: "both" });
  anim.onfinish = () => f.remove();
  anim.oncancel = () => f.remove();
}
// The cards of a seat (or the board) as drawn now.
function cardEls(seat, mySeat) {
  if (seat === "board") return [...document.querySelectorAll("#center .mid-cards > .cards > .card, #center .slot.roll .card")];
  const box = seatBox(seat, mySeat);
  return box ? [...box.querySelectorAll(seat === mySeat ? ".cards.mine > .card" : ".cards > .card")] : [];
}

// Everything that moves or sounds after `state` is drawn over `previous`.
export function animate(state, previous, before) {
  if (!previous || previous === state) return;
  const hand = state.hand, old = previous.hand;
  if (!hand) return;
  const same = old && old.hand_no === hand.hand_no;
  const mySeat = state.you.seat;
  const quiet = motionOff();
  // New events since the last state: their sounds (one of each kind).
  const fresh = same ? hand.events.slice(old.events.length) : hand.events;
  const heard = new Set();
  for (const e of fresh) {
    const k = e.kind;
    if (k === "check") heard.add("check");
    else if (k === "bet" || k === "raise" || k === "call") heard.add("bet");
    else if (k === "fold") heard.add("fold");
    else if (k === "deal_hole" || k === "deal_up" || k === "board" || k === "draw_deal" || k === "roll") heard.add("deal");
  }
  if (hand.result && !(same && old.result)) heard.add("win");
  for (const k of heard) play(k);
  if (quiet) return;
  // Cards that came or turned up since.
  const seats = hand.seats || [];
  seats.forEach((hs, i) => {
    if (!hs || !hs.cards) return;
    const was = same && old.seats[i] ? old.seats[i] : { cards: [], up: [] };
    const els = cardEls(i, mySeat);
    hs.cards.forEach((c, k) => {
      const e = els[k];
      if (!e) return;
      if (k >= was.cards.length) { e.classList.add("deal-in"); e.style.animationDelay = Math.min(k, 6) * 40 + "ms"; }
      else if ((hs.up[k] && !was.up[k]) || (c && !was.cards[k])) e.classList.add("flip-up");
    });
  });
  const board = cardEls("board", mySeat);
  const wasBoard = same ? (old.board || []).length : 0;
  board.forEach((e, k) => { if (k >= wasBoard) e.classList.add("deal-in"); });
  // Labels that changed.
  document.querySelectorAll("#seats .action-label:not(.none), #me .action-label:not(.none)").forEach((l) => {
    const tile = l.closest("[data-seat]") || $("me");
    const seat = tile === $("me") ? mySeat : Number(tile.dataset.seat);
    const was = same ? lastText(previous, seat) : null;
    if (was !== l.dataset.text) l.classList.add("fresh");
  });
  if (!same || !before) return;
  // Bets gathered: each flies from in front of its seat into the pot; the part of
  // a bet nobody called (a "return" event) goes back to its seat instead.
  const pot = $("pots");
  const potAt = pot ? centre(pot.getBoundingClientRect()) : (before.pot ? centre(before.pot) : null);
  const returned = {};
  for (const e of fresh) if (e.kind === "return" && e.seat !== null) returned[e.seat] = (returned[e.seat] || 0) + (e.amount || 0);
  if (potAt) {
    seats.forEach((hs, i) => {
      const had = before.bets[i];
      if (!had || !(had.amount > 0) || (hs && hs.bet)) return;
      const back = Math.min(had.amount, returned[i] || 0);
      const box = back ? seatBox(i, mySeat) : null;
      if (box) fly(centre(had.rect), centre(box.getBoundingClientRect()), String(back), null, 0);
      const kept = box ? had.amount - back : had.amount;
      if (kept > 0) fly(centre(had.rect), potAt, String(kept), null, 0);
    });
  }
  // The pot paid: chips to each winner, the high and the low half apart.
  if (hand.result && !old.result && potAt) {
    const fromAt = before.pot ? centre(before.pot) : potAt;
    let k = 0;
    for (const pot of hand.result.pots || []) {
      const split = pot.high && pot.low && Object.keys(pot.high).length && Object.keys(pot.low).length;
      const parts = split ? [["high", pot.high], ["low", pot.low]] : [[null, pot.winners || pot.high || pot.low || {}]];
      for (const [half, map] of parts) {
        for (const [s, chips] of Object.entries(map)) {
          const box = seatBox(Number(s), mySeat);
          if (!box) continue;
          fly(fromAt, centre(box.getBoundingClientRect()), chips + (half ? " " + half : ""), half, 250 + 150 * k++);
        }
      }
    }
  }
}
function lastText(state, seat) {
  const la = state && state.hand ? actionLabels(state.hand)[seat] : null;
  return la ? la.text : null;
}
