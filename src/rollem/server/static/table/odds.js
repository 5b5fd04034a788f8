// Practice odds (a table option): asked for after each change while the
// toggle is on, shown under your cards with the advice for a card choice.
import { $, el, rerender, S, send, store, tid } from "./state.js";
import { RANK_TEXT, SUIT_SYMBOL } from "/static/cards.js";
import { textWithCards } from "./felt.js";

let oddsOn = store.get("rollem_odds_" + tid) === "1", oddsAsked = null, oddsBusy = false;
// The card choice in front of this seat when the odds were asked, and the one the
// advice shown is for (decisionKey): an answer is for the table as it stood when
// asked, and comes a moment (on a busy server seconds) later.  s63-fresh: "Advice:
// best throw 4♣ 8♣ 10♠" from before a Roll Your Own discard still showed at the
// next decision, "Tap the card to turn face up", over the 10♠ it said to throw.
let askedFor = "", adviceFor = "";
// The moment (oddsWanted's key) whose answer the line shows ("" when it shows none:
// "computing…", a refusal, a word between hands).
let shownFor = "";
// "updating…" (s64-table): the line shows the answer for the table as it stood at an
// earlier change (a card dealt, a bet) while the server works out the one for now
// (an answer leaves on a 1.5 s grid: the old figures stood unmarked that long).
// Marked only once that has lasted UPDATING_AFTER_MS, so a quick answer swaps in
// with no flash of the mark.  The one path that draws it, from the state: each
// render, each answer, and its own timer call it.
const UPDATING_AFTER_MS = 400;
let staleSince = null, staleTimer = null;
function paintUpdating() {
  const wanted = oddsWanted();
  const stale = Boolean(oddsOn && wanted && shownFor && wanted !== shownFor);
  if (!stale) staleSince = null;
  else if (staleSince === null) staleSince = performance.now();
  const waited = stale ? performance.now() - staleSince : 0;
  const on = stale && waited >= UPDATING_AFTER_MS;
  clearTimeout(staleTimer);
  staleTimer = stale && !on ? setTimeout(paintUpdating, UPDATING_AFTER_MS - waited + 5) : null;
  const line = $("odds-line");
  if (line.classList.contains("updating") !== on) {
    line.classList.toggle("updating", on);
    line.setAttribute("aria-busy", String(on));   // (its live region speaks the new answer only)
    $("odds-updating").classList.toggle("hidden", !on);
  }
}
// A new connection: nothing asked on it yet.
export function oddsReset() { oddsBusy = false; oddsAsked = null; }
// The server's answer (or its refusal).
export function oddsArrived(msg) {
  oddsBusy = false;
  const state = S.state;
  if (state && state.hand && msg.hand === state.hand.hand_no && oddsWanted()) {
    showOdds(msg.odds);
    shownFor = msg.hand + ":" + msg.seq;
  }
  askOdds();
  paintUpdating();
}
// Refused as "busy": another page of this seat (a phone and a laptop, two tabs) has
// the seat's one request in flight.  Asked again after BUSY_RETRY_MS while the table
// stands where it was asked (s67-try: at the player's own decision, where nothing
// moves on, one of two pages said "your odds are still being computed ...; ask again
// after" and never asked again); meanwhile the figures shown stay, marked updating.
const BUSY_RETRY_MS = 1000;
let busyTimer = null;
export function oddsRefused(message, code) {
  oddsBusy = false;
  if (code === "busy") {
    const refused = oddsAsked;
    askOdds();   // (the table moved on meanwhile: ask for now at once)
    clearTimeout(busyTimer);
    busyTimer = setTimeout(() => {
      if (!oddsBusy && oddsAsked === refused) { oddsAsked = null; askOdds(); }
      paintUpdating();
    }, BUSY_RETRY_MS);
    paintUpdating();
    return;
  }
  if (oddsOn) { $("odds-line").textContent = message; shownFor = ""; showAdvice(null); }
  askOdds();   // the table moved on meanwhile (a new hand cancels a request): ask for now
  paintUpdating();
}
export function oddsWanted() {
  if (!S.state || !oddsOn || !S.state.table.config.practice_odds || S.state.you.seat === null) return null;
  const hand = S.state.hand;
  if (!hand || hand.result) return null;
  const hs = hand.seats[S.state.you.seat];
  if (!hs || !hs.dealt || hs.folded) return null;
  return hand.hand_no + ":" + S.state.seq;
}
export function askOdds() {
  const key = oddsWanted();
  if (!key || oddsBusy || key === oddsAsked) return;
  oddsAsked = key;
  oddsBusy = true;
  askedFor = decisionKey();
  send({ type: "odds", hand: S.state.hand.hand_no, seq: S.state.seq });
}
// This seat's decision now, as a string ("" when it has none): what it may do and
// the cards it holds; advice belongs to one such decision only.
function decisionKey() {
  const state = S.state, hand = state && state.hand;
  if (!hand || hand.result || !hand.legal || !hand.legal.actions.length) return "";
  const hs = state.you.seat === null ? null : hand.seats[state.you.seat];
  return JSON.stringify([hand.hand_no, hand.legal, hs ? hs.cards : null]);
}
function pct(x) { return Math.round(100 * x) + "%"; }
// The odds line as the browser may wrap it: between its phrases (issue 33: no line
// broken mid-phrase; s67-try: a phone broke "each ±" from "1.3 points", "each" from
// "± 0.8 points" and "low" from "half 18%").  A short phrase ("whole pot (scoop) 21%")
// is held whole by no-break spaces, a long one ("equity 4% if you declare high (the
// best; expected share of the pot)", wider than a phone) only its figures with their
// words ("each ± 1.3 points", "equity 4%"), and each " · " stays at the end of a line.
const WHOLE_PHRASE = 24;
export function unbroken(text) {
  return text.split(" · ").map((phrase) => (phrase.length <= WHOLE_PHRASE
    ? phrase.replace(/ /g, "\u00a0")
    : phrase.replace(/(each )?± (\d+(?:\.\d+)?) points/g,
                     (m, each, n) => (each ? "each\u00a0" : "") + "±\u00a0" + n + "\u00a0points")
      .replace(/ (\d+(?:\.\d+)?%)/g, "\u00a0$1"))).join("\u00a0· ");
}
// The odds in one line; the advice (every option of a card choice, one a line:
// up to a dozen lines) folded behind its best option, in a box of bounded height,
// so that it never pushes the cards or the buttons off a phone's screen.
export function showOdds(o) {
  const lines = o.text ? o.text.split("\n") : [oddsText(o)];
  $("odds-line").textContent = unbroken(lines[0]);
  // (advice asked for a decision since made or gone: none, until the next answer)
  const fits = askedFor !== "" && askedFor === decisionKey();
  adviceFor = fits ? askedFor : "";
  showAdvice(lines.length > 1 && fits ? { advice: o.advice || null, lines: lines.slice(1) } : null);
}
export function showAdvice(a) {
  const box = $("odds-advice");
  box.classList.toggle("hidden", !a);
  const decision = a && a.advice ? a.advice.decision : "";
  if (box.dataset.decision !== decision) box.dataset.decision = decision;
  if (!a) return;
  const best = a.advice && a.advice.choices && a.advice.choices[0];
  // The cards as the buttons and your cards show them ("throw K♦"), not in the
  // server's codes ("throw Kd"), the "equity" column kept in line.
  const head = $("odds-advice-head"), list = $("odds-advice-list");
  head.textContent = "";
  textWithCards(head, best
    ? "Advice: best " + best.action + ", equity " + (100 * best.equity).toFixed(1) + "% (all "
      + a.advice.options + " options)"
    : "Advice");
  // (the list in plain characters: a monospace box, its columns in line; each line a
  // row of its own whose continuation, where a phone wraps it, is indented under it:
  // s67-try, "low half 18%" of an option's line came back to the box's edge and read
  // as a line of its own)
  list.replaceChildren(...inColumns(a.lines).map((line) => el("div", "advice-row", symbols(line))));
}
function symbols(text) {
  return text.replace(/\b([2-9TJQKA])([cdhs])\b/g, (m, r, s) => (RANK_TEXT[r] || r) + SUIT_SYMBOL[s]);
}
// The option lines with their "equity" column in line once the tens are drawn
// ("10♦": a column wider than the code "Td" the server padded them by).
function inColumns(lines) {
  const rows = lines.map((line) => {
    const at = line.indexOf("  equity ");
    if (at < 0) return null;
    const left = line.slice(0, at).replace(/ +$/, "");
    return { left, rest: line.slice(at + 2), width: left.length + (left.match(/\bT[cdhs]\b/g) || []).length };
  });
  const wide = Math.max(0, ...rows.map((r) => (r ? r.width : 0)));
  return lines.map((line, i) => (rows[i] ? rows[i].left + " ".repeat(wide - rows[i].width + 2) + rows[i].rest : line));
}
function oddsText(o) {
  let text = "Your odds: win " + pct(o.win) + " · tie " + pct(o.tie) + " · equity " + pct(o.equity);
  if (o.best_declare) {
    const shares = ["high", "low", "both"].map((k) => k + " " + pct((o.declare || {})[k] || 0)).join(", ");
    text += o.declared ? " · you declared " + o.declared : " · best declaration: " + o.best_declare;
    text += " (share if declared: " + shares + ")";
  }
  if (o.categories) {
    const top = Object.entries(o.categories).sort((a, b) => b[1] - a[1])[0];
    if (top) text += " · most likely " + top[0] + " " + pct(top[1]);
  }
  const n = Number(o.samples).toLocaleString("en-US");
  text += o.method === "exact" ? " (exact, " + n + " outcomes)" : " (Monte Carlo, " + n + " samples)";
  return text;
}
export function renderOdds(t, me) {
  const allowed = !!t.config.practice_odds && me.seat !== null;
  $("odds-box").classList.toggle("hidden", !allowed);
  $("odds-toggle").checked = oddsOn;
  const line = $("odds-line");
  if (!allowed || !oddsOn) { line.textContent = ""; shownFor = ""; showAdvice(null); paintUpdating(); return; }
  const hand = S.state.hand, hs = hand ? hand.seats[me.seat] : null;
  const other = !hand || hand.result || !hs || !hs.dealt ? "Your odds show during a hand you are dealt into."
    : hs.folded ? "You have folded this hand."
    : !line.textContent || line.dataset.hand !== String(hand.hand_no) ? "Your odds: computing…" : null;
  if (other) { line.textContent = other; shownFor = ""; showAdvice(null); }
  else if (adviceFor !== decisionKey()) showAdvice(null);   // the choice was made
  line.dataset.hand = hand ? String(hand.hand_no) : "";
  askOdds();
  paintUpdating();
}
export function initOdds() {
$("odds-toggle").onchange = () => {
  oddsOn = $("odds-toggle").checked;
  store.set("rollem_odds_" + tid, oddsOn ? "1" : "0");
  oddsAsked = null;
  $("odds-line").textContent = "";
  shownFor = "";
  showAdvice(null);
  rerender();
};
}
