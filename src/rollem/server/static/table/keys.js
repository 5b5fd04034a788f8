// Keyboard shortcuts of the decision dock, shown on the buttons (data-key):
// f fold, c check or call, r/b raise or bet, 1–9 a sizing preset (or the n-th
// card of a card choice, the n-th pool card, the n-th game), h/l/b declare,
// k keep the roll-up order, Enter confirm a card choice, Esc clear (a pick, the
// fold question, a pre-action).  Keys typed into a field (chat, name, amount)
// are the field's, but for Enter and Esc in the amount field.
import { $, rerender, S, toast } from "./state.js";
import { clearPreAction } from "./dock.js";

function typing(target) {
  const tag = target && target.tagName;
  return tag === "TEXTAREA" || tag === "SELECT" || (tag === "INPUT" && target.type !== "checkbox" && target.type !== "range");
}
function shown(e) { return e && !e.disabled && e.offsetParent !== null; }
// The enabled control of the dock (or of your cards) with this key.
function control(key) {
  const want = key.length === 1 ? key.toLowerCase() : key;
  for (const e of document.querySelectorAll("#controls [data-key], #me [data-key]")) {
    if (e.dataset.key.toLowerCase() === want.toLowerCase() && shown(e)) return e;
  }
  return null;
}
function onKey(ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (!$("replay").classList.contains("hidden") || !$("rules").classList.contains("hidden")) return;
  const key = ev.key === "Escape" ? "Esc" : ev.key;
  const amountField = ev.target && ev.target.dataset && ev.target.dataset.amount;
  if (typing(ev.target) && !(amountField && (key === "Enter" || key === "Esc"))) return;
  let target = null;
  if (amountField && key === "Enter") target = control("r") || control("b");
  else if (key === "r" || key === "b" || key === "R" || key === "B") target = control(key) || control(key.toLowerCase() === "r" ? "b" : "r");
  else if (key === "Enter") target = control("Enter");
  else target = control(key);
  if (key === "Esc" && !target) {
    if (S.confirmFold) { S.confirmFold = false; rerender(); ev.preventDefault(); return; }
    if (S.selected.length) { S.selected = []; rerender(); ev.preventDefault(); return; }
    if (clearPreAction()) { rerender(); ev.preventDefault(); return; }
    return;
  }
  if (!target) { upCardKey(key); return; }
  ev.preventDefault();
  target.click();
}
// A card choice's digit key on a card already face up (Roll Your Own's turn-up: the
// keys count your whole row, so 1 is the card up) says so, as the terminal does
// (stop 54: it did nothing, with no word).
const SUIT = { c: "♣", d: "♦", h: "♥", s: "♠" };
function upCardKey(key) {
  if (!/^[1-9]$/.test(key)) return;
  const hand = S.state && S.state.hand;
  const hs = hand && S.state.you && S.state.you.seat !== null ? hand.seats[S.state.you.seat] : null;
  const legal = hand && !hand.result ? hand.legal : null;
  const k = Number(key) - 1;
  if (!hs || !legal || !legal.cards || !hs.cards[k] || !hs.up[k]) return;
  if (!legal.actions.some((a) => a === "expose" || a === "discard" || a === "draw" || a === "stack")) return;
  const c = hs.cards[k];
  const keys = hs.cards.map((x, i) => (legal.cards.includes(x) && i < 9 ? i + 1 : 0)).filter((x) => x);
  if (!keys.length) return;
  // (named as the prompt names them: "keys: 2–4 pick")
  const run = keys.every((x, j) => j === 0 || x === keys[j - 1] + 1);
  const named = keys.length === 1 ? "key " + keys[0]
    : "keys " + (run ? keys[0] + "–" + keys[keys.length - 1] : keys.join(", "));
  toast("Your card " + key + " (" + (c[0] === "T" ? "10" : c[0]) + SUIT[c[1]] + ") is already face up: "
    + named + " pick.");
}
export function initKeys() { document.addEventListener("keydown", onKey); }
