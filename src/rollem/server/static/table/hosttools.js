// The host's tools (issue 27): stacks, rebuy rules and requests, a private
// table's watchers and password, the watcher delay; the page of someone the
// table does not show (a private table's stranger: ask to watch or sit down);
// the ledger's log of adjusted stacks.
import { $, el, reconnect, S, seatWord, send, sendOnce, tid, toast } from "./state.js";

// ---------------------------------------------------------- the locked page
// A private table (or one with a password) shows a stranger only its name and
// how to ask: to watch (the host approves) or to sit down (the host lets in).
let asked = false;  // this page asked to watch (the host has not answered yet)
let closedTable = false;  // the host closed it for good: Enter asks to watch
export function renderLocked(state) {
  const t = state.table;
  document.body.classList.add("locked");
  const box = $("locked");
  box.classList.remove("hidden");
  $("table-name").textContent = t.name;
  $("locked-head").textContent = t.private ? "Private table" : "Table with a password";
  // A table the host closed for good (s60-table): nobody sits down, but the host
  // may still let a friend watch, to see the final ledger and who pays whom.
  $("locked-text").textContent = (t.closed
    ? "The host closed this table: the night is over. Ask to watch to see the settle-up; the host lets you in."
    : t.private
    ? "This table is private: the host lets each watcher and new player in."
    : "This table has a password.") + (state.you.seat !== null
    ? " You have a seat: wait for the host to let you in."
    : asked ? " Asked: you see the table once the host lets you watch." : "");
  $("locked-password-row").classList.toggle("hidden", !t.has_password);
  $("locked-form").classList.toggle("hidden", state.you.seat !== null);
  closedTable = !!t.closed;
  $("locked-join").classList.toggle("hidden", closedTable);
  if (state.you.seat === null) findOwnHands();
}
// One who played here and left (or was removed) keeps their own hands: the server
// lists them to this browser's seat cookie alone (403 to anyone else).
let ownAsked = false;
async function findOwnHands() {
  if (ownAsked) return;
  ownAsked = true;
  const resp = await fetch("/api/tables/" + tid + "/hands", { credentials: "same-origin" });
  const got = resp.ok ? await resp.json() : null;
  const box = $("locked-own");
  if (!got || !got.hands.length) { box.classList.add("hidden"); return; }
  const n = got.hands.length;
  const link = el("a", "", "download your " + (n === 1 ? "hand" : n + " hands") + " (.phhs)");
  link.href = "/api/tables/" + tid + "/history.phhs";
  link.setAttribute("download", "");
  box.replaceChildren("You played here before: ", link, ".");
  box.classList.remove("hidden");
}
export function unlock() {
  if (!document.body.classList.contains("locked")) return;
  document.body.classList.remove("locked");
  $("locked").classList.add("hidden");
}
async function ask(what) {
  const name = $("locked-name").value.trim();
  const err = $("locked-error");
  err.textContent = "";
  if (!name) { err.textContent = "Type your name first."; $("locked-name").focus(); return; }
  const body = { name: name };
  if (!$("locked-password-row").classList.contains("hidden")) body.password = $("locked-password").value;
  const resp = await fetch("/api/tables/" + tid + "/" + what, {
    method: "POST", headers: { "Content-Type": "application/json" }, credentials: "same-origin",
    body: JSON.stringify(what === "join" ? { ...body, seat: null } : body),
  });
  const got = await resp.json();
  if (!resp.ok) { err.textContent = got.message; toast(got.message); return; }
  asked = what === "watch" && got.watch === "waiting";
  reconnect();  // with the new cookie
}
export function initHostTools() {
  $("locked-watch").onclick = () => ask("watch");
  $("locked-join").onclick = () => ask("join");
  // Enter in the name or password sits you down, as on an open table's page (at
  // a closed one, where nobody sits down, it asks to watch)
  for (const id of ["locked-name", "locked-password"]) {
    $(id).addEventListener("keydown", (e) => { if (e.key === "Enter") ask(closedTable ? "watch" : "join"); });
  }
}

// ------------------------------------------------------------ host's tools
function button(text, op, fields) {
  const b = el("button", "small", text);
  b.type = "button"; b.dataset.host = op;
  // (an answer, once for a state: a double tap's second came back refused, "seat 2
  // has not asked to rebuy", s64-fresh)
  b.onclick = () => sendOnce("host " + op + " " + JSON.stringify(fields),
    { type: "host", op: op, ...fields });
  return b;
}
function row(...items) { const r = el("div", "host-row"); r.append(...items); return r; }

export function renderHostTools(t, me) {
  const box = $("host-tools");
  if (!me.host || t.locked) { box.innerHTML = ""; box.dataset.key = ""; return; }
  const between = !t.choice && (!S.state.hand || !!S.state.hand.result);
  const a = document.activeElement;
  if (box.contains(a) && (a.tagName === "INPUT" && a.type !== "checkbox" || a.tagName === "SELECT")) {
    // The host is typing or choosing in a field: nothing is drawn again, but the
    // Set stack button still follows the hand (it was left enabled into a hand
    // and refused in_hand); the focus and the choice stay.
    patchAdjust(box, t, between, a);
    return;
  }
  // Drawn again only when what it offers changed, not at stacks moving or a hand
  // starting or ending (issue 26: new fields and lists make the browser's form
  // tracking, autofill, lay the page out in a task of their own, 50 to 400 ms on
  // a phone at 4x); the stacks in the list and the Set stack button are patched
  // in place, the stacks between hands only (no stack is set during a hand).
  const key = JSON.stringify([t.config.private, t.config.watcher_delay, t.config.rebuys,
    t.config.rebuy_approval, t.config.rebuy_cap, t.has_password, t.watch_requests, t.watch_refused, t.watchers,
    t.rebuy_requests, t.top_up_requests, t.seats.map((s) => [s.free, s.name]), !!t.tournament, me.stand_in, me.seat]);
  if (box.dataset.key !== key) {
    box.dataset.key = key;
    drawHostTools(box, t, me);
  }
  patchAdjust(box, t, between);
}
// The Set stack row, in place: the stacks shown between hands (not in the list
// while the host is in it, focused: an open list keeps its text), the button
// enabled only then.
function patchAdjust(box, t, between, focused) {
  const who = box.querySelector("#adjust-seat"), adj = box.querySelector("[data-host=adjust_stack]");
  if (!who || !adj) return;
  if (between && focused !== who) {
    for (const o of who.options) {
      const s = t.seats[Number(o.value)];
      const text = s ? s.name + " (" + s.stack + ")" : o.textContent;
      if (o.textContent !== text) o.textContent = text;
    }
  }
  const off = !between || !who.options.length;
  if (adj.disabled !== off) adj.disabled = off;
  const title = between ? "Counted as chips bought (or taken off), in the ledger" : "Between hands only";
  if (adj.title !== title) adj.title = title;
}
function drawHostTools(box, t, me) {
  // A stand-in (me.stand_in: the role passed while the host is away) gets no
  // settings, no password and nothing for its own seat (the server refuses them).
  const standIn = !!me.stand_in, mine = (seat) => standIn && seat === me.seat;
  box.innerHTML = "";
  // A tournament's rebuys are its own (rebuy levels) and its chips its entries:
  // no cash rebuy rules and no stack to set there.
  box.appendChild(el("h3", "host-tools-head", t.tournament ? "Watchers" : "Watchers, rebuys and stacks"));
  // Options (applied between hands, as every setting).
  const opt = (label, name, checked) => {
    const l = el("label", "check"); const cb = el("input"); cb.type = "checkbox";
    cb.checked = !!checked; cb.dataset.host = name;
    cb.onchange = () => send({ type: "host", op: "config", config: { [name]: cb.checked } });
    l.append(cb, document.createTextNode(" " + label)); return l;
  };
  if (!standIn) box.appendChild(row(opt("private table", "private", t.config.private),
    opt("watchers one hand behind", "watcher_delay", t.config.watcher_delay)));
  const mode = el("select"); mode.id = "rebuy-mode"; mode.setAttribute("aria-label", "Rebuys");
  for (const [v, text] of [["off", "no rebuys"], ["free", "rebuys: free"], ["approve", "rebuys: I approve"]]) {
    const o = el("option", null, text); o.value = v; mode.appendChild(o);
  }
  mode.value = !t.config.rebuys ? "off" : t.config.rebuy_approval ? "approve" : "free";
  mode.onchange = () => send({ type: "host", op: "config", config: {
    rebuys: mode.value !== "off", rebuy_approval: mode.value === "approve" } });
  const cap = el("input"); cap.type = "number"; cap.min = 0; cap.max = 100; cap.id = "rebuy-cap";
  cap.value = t.config.rebuy_cap; cap.inputMode = "numeric"; cap.title = "0: no cap";
  const capSet = el("button", "small", "Set cap"); capSet.type = "button"; capSet.dataset.host = "rebuy_cap";
  capSet.onclick = () => send({ type: "host", op: "config", config: { rebuy_cap: Number(cap.value) } });
  const capLabel = el("label", null, "at most "); capLabel.append(cap, document.createTextNode(" each (0: any)"));
  if (!t.tournament && !standIn) box.appendChild(row(mode, capLabel, capSet));
  // The table password.
  const pw = el("input"); pw.type = "password"; pw.id = "host-password"; pw.autocomplete = "new-password";
  pw.setAttribute("aria-label", "Table password");
  pw.placeholder = t.has_password ? "new password" : "table password"; pw.maxLength = 128;
  const setPw = el("button", "small", "Set password"); setPw.type = "button"; setPw.dataset.host = "password";
  setPw.onclick = () => { send({ type: "host", op: "password", password: pw.value }); pw.value = ""; };
  const items = [pw, setPw];
  if (t.has_password) items.push(button("Remove password", "password", { password: null }));
  if (!standIn) box.appendChild(row(...items));
  // Who asks: watchers, rebuys.
  const list = el("ul", "host-seats host-requests");
  for (const w of t.watch_requests) {
    const li = el("li"); li.dataset.watcher = w.id;
    li.append(el("span", null, w.name + " asks to watch"),
      button("Let watch", "approve_watcher", { watcher: w.id }),
      button("Turn away", "reject_watcher", { watcher: w.id }));
    list.appendChild(li);
  }
  for (const seat of t.rebuy_requests) {
    const s = t.seats[seat];
    const li = el("li"); li.dataset.rebuy = seat;
    const topUp = (t.top_up_requests || []).includes(seat);  // (stop 58: up to the buy-in)
    li.append(el("span", null, (s && s.name || seatWord(seat)) + (topUp ? " asks to top up to " + t.config.stack : " asks to rebuy")));
    if (!mine(seat)) li.append(button("Approve", "approve_rebuy", { seat: seat }));
    li.append(button(mine(seat) ? "Withdraw" : "Decline", "decline_rebuy", { seat: seat }));
    list.appendChild(li);
  }
  if (list.children.length) box.appendChild(list);
  if (t.watch_requests.length > 1 || t.watch_refused) {
    const items = [];
    if (t.watch_refused) {
      items.push(el("span", "hint", t.watch_refused + " more asked to watch and were refused (too many from one network, or the list full)"));
    }
    if (t.watch_requests.length > 1) items.push(button("Turn all away", "reject_watcher", { watcher: "all" }));
    box.appendChild(row(...items));
  }
  if (t.watchers.length) box.appendChild(el("p", "hint", "Watching: " + t.watchers.map((w) => w.name).join(", ")));
  // Adjust a stack, between hands.
  if (t.tournament) return;
  const who = el("select"); who.id = "adjust-seat"; who.setAttribute("aria-label", "Player whose stack to set");
  for (const s of t.seats) {
    if (s.free || mine(s.seat)) continue;
    const o = el("option", null, s.name + " (" + s.stack + ")"); o.value = s.seat; who.appendChild(o);
  }
  const chips = el("input"); chips.type = "number"; chips.min = 0; chips.id = "adjust-stack"; chips.inputMode = "numeric";
  const adj = el("button", "small", "Set stack"); adj.type = "button"; adj.dataset.host = "adjust_stack";
  adj.onclick = () => {
    if (chips.value === "") { toast("Type the new stack in chips."); return; }
    send({ type: "host", op: "adjust_stack", seat: Number(who.value), stack: Number(chips.value) });
    chips.value = "";
  };
  const adjLabel = el("label", null, "stack "); adjLabel.appendChild(chips);
  box.appendChild(row(who, adjLabel, adj));
}

// ------------------------------------------------------- the ledger's log
export function renderAdjustments(t) {
  const box = $("adjustments");
  const log = t.adjustments || [];
  const earlier = t.adjustments_earlier || 0;  // (the server keeps the newest 64)
  const key = JSON.stringify(log) + "/" + earlier;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.innerHTML = "";
  if (!log.length) return;
  box.appendChild(el("div", "settle-head", earlier
    ? "Stacks the host adjusted (the last " + log.length + "; " + earlier + " earlier not listed):"
    : "Stacks the host adjusted:"));
  const list = el("ul", "settle-list");
  for (const x of log) {
    const when = new Date(x.at * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    list.appendChild(el("li", null, x.name + " " + (x.by > 0 ? "+" : "") + x.by + " to " + x.stack
      + " (" + (x.after_hand ? "after hand " + x.after_hand : "before the first hand")
      + ", " + when + ")"));
  }
  box.appendChild(list);
}
