// Keyboard shortcuts of the decision dock, shown on the buttons (data-key):
// f fold, c check or call, r/b raise or bet, 1–9 a sizing preset (or the n-th
// card of a card choice, the n-th pool card, the n-th game), h/l/b declare,
// k keep the roll-up order, Enter confirm a card choice, Esc clear (a pick, the
// fold question, a pre-action).  Keys typed into a field (chat, name, amount)
// are the field's, but for Enter and Esc in the amount field.
import { $, rerender, S } from "./state.js";
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
  if (!target) return;
  ev.preventDefault();
  target.click();
}
export function initKeys() { document.addEventListener("keydown", onKey); }
