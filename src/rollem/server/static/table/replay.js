// The replayer: the finished hands of this table, stepped through as their
// viewer saw them (the felt's own drawing of seats and middle).
import { cardEl, GAME_NAME, RANK_NAME } from "/static/cards.js";
import { $, el, S, seatName, seatWord, tid, toast } from "./state.js";
import { isWild, labelOf, potTotal, renderCenter, renderSeats, textWithCards } from "./felt.js";
import { copyText, describeResult } from "./panels.js";

let replay = null;
export async function loadHistory() {
  try {
    const resp = await fetch("/api/tables/" + tid + "/hands", { credentials: "same-origin" });
    const body = await resp.json();
    const list = $("history");
    list.innerHTML = "";
    for (const h of body.hands.slice().reverse()) {
      const li = el("li");
      // who won it, and your own net named as yours (s62-table2: the game and a bare
      // "+12" said nothing of who took the hand): "Hand 3 · Texas Hold'em · won by
      // Bob · you -2"; your own win as yours (s63-table: "won by Ann · you +2" to Ann),
      // and the ledger's minus sign
      const names = (h.winners || []).map((w, k) => (k === h.you_at ? "you" : w));
      // A hand run twice, who won each run (stop 73: "won by you, Bea" read as a
      // split pot): "· run 1 won by you; run 2 by Bea"
      const byRun = (r) => (r.winners || []).map((w, k) => (k === r.you_at ? "you" : w))
        .join(", ") || "nobody";
      const won = h.runs && h.runs.length
        ? " · " + h.runs.map((r, k) => "run " + (k + 1) + (k ? " by " : " won by ") + byRun(r)).join("; ")
        : names.length ? " · won by " + names.join(", ") : "";
      const net = h.net !== null && h.net !== undefined
        ? " · you " + (h.net > 0 ? "+" : "") + h.net : "";
      const b = el("button", "link", "Hand " + h.hand + " · " + GAME_NAME[h.game] + won + net);
      b.type = "button";
      b.dataset.hand = h.hand;
      b.onclick = () => openReplay(h.hand);
      li.appendChild(b);
      list.appendChild(li);
    }
  } catch (e) { /* the next state will retry */ }
}
function handLink(n) { return location.origin + "/t/" + tid + "#hand=" + n; }
export function openLinkedHand() {
  const m = /hand=(\d+)/.exec(location.hash);
  if (m) openReplay(Number(m[1]));
}

export async function openReplay(n) {
  const resp = await fetch("/api/tables/" + tid + "/hands/" + n, { credentials: "same-origin" });
  const body = await resp.json();
  if (!resp.ok) { toast(body.message); return; }
  replay = { data: body, i: 0 };
  const dl = $("replay-download");
  dl.href = "/api/tables/" + tid + "/hands/" + n + "/history.toml";
  dl.classList.toggle("hidden", body.seat === null);
  $("replay-link").href = handLink(n);
  $("replay").classList.remove("hidden");
  showFrame();
}
// A finished hand's last action and its result are two steps (stop 56): the last
// step showed the last action ("Ann: check") over the pot already paid and the
// result, as if the check had paid it.  Its action's step shows the pots still in
// the middle and the stacks before they were paid (each winner's share out of its
// stack) and no one's cards shown yet; the step after it is the result.  (Cards
// shown by choice after the hand are actions after the ending one: steps after the
// result.)
function ending() { return replay.data.frames.findIndex((f) => f.result); }
function steps() { return replay.data.frames.length + (ending() >= 0 ? 1 : 0); }
function beforeAward(f, prev) {
  const won = {};
  for (const p of f.result.pots || []) {
    for (const [s, c] of Object.entries(p.winners || {})) won[s] = (won[s] || 0) + c;
  }
  // The pot from the frame's own middle (stop 57: was worked back from the result's
  // pots; the frame's pot is every chip in the middle, carried-in ones included, as
  // the live felt's pot, potTotal).
  const pot = potTotal(f);
  const viewer = replay.data.seat;
  // (a hand run twice deals both runs in its last action's step: their boards, not
  // yet who won them)
  const runs = (f.result.runs || []).map((r) => ({ board: r.board, dead: r.dead }));
  return { ...f, result: null, pot, runs_dealt: runs.length ? runs : null,
    seats: f.seats.map((s, i) => ({ ...s, bet: 0, stack: s.stack - (won[i] || 0),
      // (the showdown's cards come with the result: before it, as they were)
      cards: i === viewer || !prev || !prev.seats[i] ? s.cards : prev.seats[i].cards })) };
}
// The viewer is "you" in the replay as at the live table (stop 57: the replay named
// its own viewer, "Ann checks", "Ann 197"): the line "You check", the stacks "you
// 197", the seat's tile "Ann (you)".
function isViewer(seat) { return replay.data.seat !== null && seat === replay.data.seat; }
function who(t, seat) { return isViewer(seat) ? "you" : seatName(t, seat); }
// A seat tile's words said of "you": "checks" -> "check", "raises to 8" -> "raise
// to 8", "has chosen" -> "have chosen", "small blind 1" -> "post small blind 1".
function yourWords(label) {
  if (label.kind === "blind") return "post " + label.text;
  const [verb, ...rest] = label.text.split(" ");
  const own = verb === "has" ? "have" : /(?:sh|ch|ss|x)es$/.test(verb) ? verb.slice(0, -2)
    : verb.endsWith("s") ? verb.slice(0, -1) : verb;
  return [own, ...rest].join(" ");
}
// A step's action in the seat tiles' words ("Bob raises to 8", "Cy draws 2", "Ann
// shows 5♥ 7♥"), from the events the step added (stop 56: was the wire's words,
// "Bob: raise to 8"); the wire's words where none of them is the seat's.
function actionLine(t, f, from, la) {
  const you = isViewer(la.seat);
  const name = you ? "You" : seatName(t, la.seat);
  // (the first of them: the action's own; a showdown's "mucks" may follow it)
  for (const e of (f.events || []).slice(from)) {
    if (e.seat !== la.seat) continue;
    const label = labelOf(e);
    if (label) {
      return name + " " + (you ? yourWords(label) : label.text)
        + (label.kind === "show" && la.cards ? " " + la.cards.join(" ") : "") + rolledUp(t, f, from);
    }
  }
  return name + ": " + la.kind
    + (la.amount !== undefined ? " " + la.amount : "") + (la.to !== undefined ? " to " + la.to : "")
    + (la.cards ? " " + la.cards.join(" ") : "") + (la.card ? " " + la.card : "")
    + (la.side ? " " + la.side : "") + (la.count !== undefined ? " " + la.count + " cards" : "");
}
// What a step also reveals (s59-felt): a round's last hidden pick ("Bot 2 has
// chosen": Roll Your Own's card to turn up, 5-2-1's roll-up order) or a betting
// round's last action turns every player's next card up at once, so its step says
// which ("; turned up: Bot 1 Q♠, Bot 2 8♥, you 9♥"): the replay read only the
// action, the cards turned up with no word.  Only cards turned up are named (in
// every viewer's log): never a hidden one.  Stop 72 (s72-felt): the same for the
// other two things a home game reveals at once: the last declaration of 5-2-1
// ("; declared: Bob high, you both", R-521-8, revealed together) and the pool
// card picked as the wild card (": K♠, kings wild", R-RYO-7); those
// steps read "Bob has chosen" and "Bot 1 picks the wild card" alone.  And Stop,
// Drop and Roll's middle, dealt after a betting round's last action ("; the Stop,
// dead: J♣", "; the Roll: A♣ 8♦ Q♣", R-SDR-3..5): the replay turned them up with
// no word, a dead card's deadness said nowhere.  Stop 72 (s72-board): every board
// step the same way, by the label its game file gives it ("Bob calls; the flop: A♣
// 8♦ Q♣", "; the turn: 5♥", "; the river: K♠"; "; the board: …" unlabelled): a
// hold'em or Omaha step that dealt the flop read "Bob calls" alone.
// Stop 73 (s73-web): a hand run twice dealt both runs in one step, read as two
// flops, two turns and two rivers with nothing to tell them apart ("; the flop: 6♠
// 5♥ A♥; ...; the flop: K♦ 8♣ 9♦"): now the choice is said ("; everyone agrees to
// run it twice") and each board by its run ("; run 1, the flop: ...", "; run 2,
// the flop: ..."), the second run's after the hand's "run" event; its middle shows
// both runs' boards, each named, the winners of each at the result's step.
const cap = (w) => (w ? w[0].toUpperCase() + w.slice(1) : "dead card");
function rolledUp(t, f, from) {
  const all = f.events || [];
  const added = all.slice(from);
  const ups = added.filter((u) => (u.kind === "expose" || u.kind === "roll") && u.card);
  const said = added.filter((u) => u.kind === "declare" && u.side);
  const wild = added.find((u) => u.kind === "wild" && u.card);
  // which run each of the step's events is dealt in: 0 where the hand runs once
  let run = 0;
  const runOf = all.map((u) => {
    if (u.kind === "run_twice" && u.agreed) run = 1;
    else if (u.kind === "run") run = u.run || 2;
    return run;
  }).slice(from);
  // (the middle a step deals, each by its step's label: Stop, Drop and Roll's Stop
  // and Drop, dead, and its Roll; hold'em's and Omaha's flop, turn and river)
  const middle = added.map((u, k) => {
    const which = runOf[k] ? "run " + runOf[k] + ", the " : "the ";
    if (u.kind === "run_twice") {
      return u.agreed ? "; everyone agrees to run it twice"
        : "; not everyone agrees to run it twice: the board is dealt once";
    }
    if (u.kind === "dead" && u.card) return "; " + which + cap(u.label) + ", dead: " + u.card;
    if (u.kind === "board" && u.cards && u.cards.length) {
      return "; " + which + (u.label === "roll" ? "Roll" : u.label || "board") + ": " + u.cards.join(" ");
    }
    return "";
  }).join("");
  return middle + (ups.length ? "; turned up: " + ups.map((u) => who(t, u.seat) + " " + u.card).join(", ") : "")
    + (said.length ? "; declared: " + said.map((u) => who(t, u.seat) + " " + u.side).join(", ") : "")
    + (wild ? ": " + wild.card + ", " + (RANK_NAME[wild.card[0]] || wild.card[0]) + " wild" : "");
}
// The cards shown by choice after the hand, up to this step, as the live result
// panel lists them ("Ann (you) shows 5♥ 7♥ by choice"; stop 57: a replay's step of
// such a show had no line for it in its result panel).
function byChoiceLines(t, f) {
  const out = [];
  for (const e of f.events || []) {
    if (e.kind !== "show" || !e.by_choice) continue;
    const line = el("div", "shown-line by-choice");
    line.dataset.seat = e.seat;
    line.appendChild(el("span", "who", seatName(t, e.seat) + (isViewer(e.seat) ? " (you)" : "") + " shows"));
    const row = el("span", "cards");
    for (const c of e.cards || []) row.appendChild(cardEl(c, { up: true, small: true, wild: isWild(f, c) }));
    line.appendChild(row);
    line.appendChild(el("span", "desc", "by choice"));
    out.push(line);
  }
  return out;
}
// Who won each run of a hand run twice, said at the result's step (" · run 1: Bob
// +288 · run 2: you +144, Cy +144"), as each run's board on the felt says it.
function runsWon(t, f) {
  const runs = f.result && f.result.runs && f.result.runs.length ? f.result.runs : null;
  if (!runs) return "";
  return runs.map((r, k) => {
    const won = {};
    for (const p of r.pots || []) {
      for (const [s, c] of Object.entries(p.winners || {})) won[s] = (won[s] || 0) + c;
    }
    const names = Object.entries(won).map(([s, c]) => who(t, Number(s)) + " +" + c);
    return " · run " + (k + 1) + ": " + (names.length ? names.join(", ") : "nobody");
  }).join("");
}
function showFrame() {
  const frames = replay.data.frames;
  const last = steps() - 1;
  const end = ending();
  const atResult = end >= 0 && replay.i === end + 1;  // the result's own step
  const shown = frames[end >= 0 && replay.i > end ? replay.i - 1 : replay.i];
  const f = replay.i === end ? beforeAward(shown, frames[end - 1]) : shown;
  // A frame's event log is the first events_n of the hand's (sent once: the log only grows).
  if (!f.events) f.events = (replay.data.events || []).slice(0, f.events_n || 0);
  // The seats as they were in this hand: its players' names (from its history), not
  // those of whoever sits there now.
  const names = replay.data.names || [];
  const t = { ...S.state.table, seats: S.state.table.seats.map((s, i) => (f.seats[i] && f.seats[i].dealt
    ? { ...s, free: false, name: names[i] || s.name || seatWord(i) } : { ...s, free: true })) };
  $("replay-pos").textContent = "Hand " + replay.data.hand + " · step " + replay.i + " of " + last
    + (atResult ? ": the result" : "");
  $("replay-prev").disabled = replay.i === 0;
  $("replay-next").disabled = replay.i === last;
  const la = f.last_action;
  const at = frames[end >= 0 && replay.i > end ? replay.i - 2 : replay.i - 1];  // the step before
  const what = $("replay-what");
  what.textContent = "";
  textWithCards(what, atResult ? "The result" + runsWon(t, f) : la
    ? actionLine(t, f, at ? (at.events_n || 0) : 0, la) : "the deal");
  // Pot and stacks at this step, from the frame itself.
  const stacks = $("replay-stacks");
  stacks.innerHTML = "";
  stacks.appendChild(el("span", "stacks-label", "stacks:"));
  f.seats.forEach((s, i) => {
    if (!s.dealt) return;
    stacks.appendChild(el("span", "replay-stack", who(t, i) + " " + s.stack));
  });
  const viewer = replay.data.seat;
  const fake = t.seats.map((s, i) => (s.free ? s : { ...s, acting: false, deadline: null,
    name: isViewer(i) ? s.name + " (you)" : s.name }));
  renderSeats($("replay-seats"), { ...t, seats: fake }, f, -1, true);
  renderCenter($("replay-center"), f, t, replay.data.seat);
  const res = $("replay-result");
  res.innerHTML = "";
  if (f.result) {
    res.appendChild(describeResult(t, f.result, f, viewer));
    res.append(...byChoiceLines(t, f));
  }
}
export function closeReplay() {
  $("replay").classList.add("hidden");
  if (/hand=/.test(location.hash)) history.replaceState(null, "", location.pathname);
}
export function initReplay() {
window.addEventListener("hashchange", openLinkedHand);
$("replay-copy").onclick = () => copyText($("replay-link").href, $("replay-copy"), null);
$("replay").onclick = (ev) => { if (ev.target === $("replay")) closeReplay(); };
$("replay-prev").onclick = () => { if (replay.i > 0) { replay.i--; showFrame(); } };
$("replay-next").onclick = () => { if (replay.i < steps() - 1) { replay.i++; showFrame(); } };
$("replay-close").onclick = closeReplay;
document.addEventListener("keydown", (ev) => {
  if ($("replay").classList.contains("hidden")) return;
  if (ev.key === "ArrowLeft") $("replay-prev").click();
  else if (ev.key === "ArrowRight") $("replay-next").click();
  else if (ev.key === "Escape") closeReplay();
});
}
