// The panels around the felt: notices, joining, the result, host controls,
// chat, the ledger, this hand's log, the rules ("How to play") and the invite.
import { cardEl, GAME_NAME } from "/static/cards.js";
import { $, el, reconnect, rerender, S, seatName, seatWord, handSeatName, send, sendOnce, store, tid, toast, toastSays } from "./state.js";
import { actionLabels, cardsAsText, isWild, joinsNextHand, shownWords, textWithCards, wholeOfEveryPot, winnersOf } from "./felt.js";
import { loadHistory, openReplay } from "./replay.js";
import { lastCallText, tournamentRows } from "./tourney.js";

function clockText(kind) {
  return { check: "checked", fold: "folded", call: "called", discard: "discarded for you",
    expose: "turned a card up", draw: "stood pat", wild: "picked the wild card",
    stack: "kept your order", declare: "declared high" }[kind] || "acted";
}
// Whether you hold cards in the hand in play (dealt in, not folded, the hand not over).
function stillInHand(hand, me) {
  if (!hand || hand.result || me.seat === null) return false;
  const hs = hand.seats[me.seat];
  return !!(hs && hs.dealt && !hs.folded);
}
export function renderNotice(t, me, hand) {
  const box = $("notice");
  const parts = [];
  if (S.elsewhere) parts.push(["bad", "This seat is now played from another tab or device. Tap “play here” at the top to play it here again."]);
  else if (!S.online) parts.push(["bad", "Disconnected — reconnecting… your buttons are off until the table is back."]);
  // The host removed you (told as it happened, or when you came back): said until
  // you sit down again, not only in a toast gone in 4 s (issue 26); while that toast
  // is up, said by it alone (s57-tidy: the same long sentence twice, one on the other).
  if (S.removed && !toastSays(S.removed)) parts.push(["info", S.removed]);
  if (t.host_paused) parts.push(["info", "The host has paused the table: play stops until it resumes."]);
  else if (t.pause_after_hand) parts.push(["info", "The host pauses the table when this hand ends."]);
  const call = t.tournament && t.tournament.last_call;
  // (a last call's line is drawn here, counting down: not the server's words of its seconds)
  // (a tournament's end is said by its panel, with the places: stop 57, it was said
  // here as well, and in a busted player's dock)
  const over = t.tournament && t.tournament.over;
  // You sit out as away (or by choice): that line alone says it (s59-tidy: heads-up a
  // phone stacked "Waiting for players", the away line and "The clock checked for
  // you" at once, three lines for one fact). The table's wait for players is then
  // your own absence, and the clock's act is in the away line.
  const mineAway = me.seat !== null && ["away_closed", "away_unseen", "idle_away", "sitting_out"]
    .some((k) => (t[k] || []).includes(me.seat));
  const forPlayers = t.waiting_for && /^Waiting for (players|a person)/.test(t.waiting_for);
  const ended = t.ended || null;   // (the host closed the table: stop 59)
  if (ended && !ended.final) parts.push(["info", ended.by + " is closing the table: this hand is the last, then everyone settles up."]);
  else if (ended) parts.push(["info ended-notice", "The night is over: " + ended.by + " closed the table. The ledger is final."]);
  else if (t.waiting_for && !over && !(mineAway && forPlayers) && !(call && t.waiting_for.startsWith("Last call for a rebuy"))
    // (a break, the add-on's too, is counted down on the felt and in the panel:
    // s63-table, a laptop read the add-on's break here as well, its seconds standing)
    && !/^Break( for the add-on)?: /.test(t.waiting_for)) parts.push(["info", t.waiting_for]);
  const asking = ended && ended.final && me.host ? t.watch_requests || [] : [];
  if (asking.length) {   // (answered in the settle-up's panel, below the felt on a phone: s60-table)
    parts.push(["info", asking.map((w) => w.name).join(", ") + (asking.length > 1 ? " ask" : " asks")
      + " to watch: answer under the settle-up."]);
  }
  if (call) parts.push(["info last-call", lastCallText(call)]);
  if (me.seat !== null && t.waiting.includes(me.seat)) parts.push(["info", "Waiting for the host to let you in."]);
  if (me.seat !== null && (t.away_closed || []).includes(me.seat)) parts.push(["info", "Your page was closed for longer than the reconnect grace period, so you sit out as away: your hands are folded and your antes and blinds posted until you press “I'm back”."]);
  else if (me.seat !== null && (t.away_unseen || []).includes(me.seat)) parts.push(["info", "Your turn came while your page was closed, so the clock acted for you and you sit out as away: press “I'm back” to be dealt in again."]);
  else if (me.seat !== null && (t.idle_away || []).includes(me.seat)) parts.push(["info", "The clock acted for you " + (t.config.away_after === 1 ? "once" : t.config.away_after + " times in a row") + ", so you sit out as away: press “I'm back” to be dealt in again."]);
  else if (me.seat !== null && t.sitting_out.includes(me.seat)) parts.push(["info", t.tournament ? "You are sitting out: in a tournament you are still dealt in, your hands folded and your antes and blinds posted, until you come back." : stillInHand(hand, me) ? "You sit out from the next hand. This hand is still yours to play: the clock acts for you after " + Math.round(t.config.decision_seconds) + " s (no time bank while you sit out)." : "You are sitting out: you are not dealt in until you come back."]);
  const moving = me.seat !== null ? (t.seat_changes || {})[String(me.seat)] : undefined;
  // (asked while the next hand was being dealt, its game named: after that hand)
  if (moving !== undefined) parts.push(["info seat-change", "You move to seat " + (moving + 1) + " when " + (hand && !hand.result ? "this" : "the next") + " hand ends."]);
  if (me.seat !== null && (t.rebuy_requests || []).includes(me.seat)) parts.push(["info", (t.top_up_requests || []).includes(me.seat) ? "Your top-up waits for the host's approval." : "Your rebuy waits for the host's approval."]);
  if (me.seat === null && t.hand_in_play) parts.push(["info", "A hand is being played: watchers see each hand once it has ended."]);
  if (me.next_hand) parts.push(["info", me.next_hand]);  // the server's words (issue 26)
  else if (me.seat !== null && S.state.hand && !S.state.hand.result && joinsNextHand(t, S.state.hand, me.seat)) {
    parts.push(["info", "You sat down during this hand: you are dealt in from the next one."]);
  }
  const mine = me.seat !== null ? t.clocked[String(me.seat)] : null;
  if (mine && !mineAway && (S.clockSeen === null || mine.seq > S.clockSeen) && mine.hand === (S.state.hand && S.state.hand.hand_no)) {
    parts.push(["clocked", "The clock " + clockText(mine.kind) + (mine.kind === "check" || mine.kind === "fold" ? " for you" : "") + " (hand " + mine.hand + ")."]);
  }
  box.innerHTML = "";
  for (const [cls, text] of parts) box.appendChild(el("div", "notice-line " + cls, text));
  if (ended && ended.final) {   // (on a phone the settle-up is below the felt)
    const go = el("button", "small", "Settle up"); go.type = "button"; go.dataset.action = "see-settle";
    go.onclick = () => $("ended").scrollIntoView({ block: "start", behavior: "smooth" });
    box.querySelector(".ended-notice").appendChild(go);
  }
  if (moving !== undefined) {   // (the move taken back: you stay where you are)
    const stay = el("button", "small", "Stay"); stay.type = "button"; stay.dataset.action = "seat-change-stay";
    stay.onclick = () => send({ type: "seat_change", seat: null });
    box.querySelector(".seat-change").appendChild(stay);
  }
  if (mine && parts.some((p) => p[0] === "clocked")) {
    const ok = el("button", "small", "OK"); ok.type = "button"; ok.dataset.action = "clock-ok";
    ok.onclick = () => { S.clockSeen = mine.seq; rerender(); };
    box.lastChild.appendChild(ok);
  }
  box.classList.toggle("hidden", parts.length === 0);
}

// ------------------------------------------------------------------ the night's end
// The host closed the table (stop 59): while its last hand plays, the notice says
// so (renderNotice); once it ended, this panel, first beside the felt (on a phone
// below it: the notice's "Settle up" button scrolls to it), holds the final
// ledger's nets, who pays whom and the downloads.  Not above the felt: a panel
// there made a desktop's felt smaller, and its 8 seats' tiles reach past the oval.
export function renderEnded(t, me) {
  const box = $("ended");
  const e = t.ended && t.ended.final ? t.ended : null;
  const asks = e && me.host ? t.watch_requests || [] : [];
  const key = JSON.stringify([e, e ? [t.ledger, t.settle] : null, me.seat !== null, asks]);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.classList.toggle("hidden", !e);
  box.innerHTML = "";
  if (!e) return;
  const at = new Date(e.at * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  box.append(el("h2", null, "The night is over"),
    el("p", "ended-line", e.by + " closed the table at " + at + ": no more hands are dealt, and the ledger below is final."));
  const nets = el("ul", "ended-nets");
  for (const l of t.ledger) {
    if (l.bot) continue;   // (the host covers the computer players: the line below)
    nets.appendChild(el("li", l.net >= 0 ? "plus" : "minus", l.name + " " + (l.net > 0 ? "+" : "") + l.net));
  }
  const settle = el("div", "settle");
  settleInto(settle, t);
  box.append(nets, settle);
  // A private table's friends asking to watch, to see this settle-up (s60-table:
  // the host's tools are gone once the table is closed; these two answers stay).
  if (asks.length) {
    const list = el("ul", "host-seats host-requests ended-asks");
    for (const w of asks) {
      const li = el("li"); li.dataset.watcher = w.id;
      const answer = (text, op) => {
        const b = el("button", "small", text); b.type = "button"; b.dataset.host = op;
        b.onclick = () => send({ type: "host", op: op, watcher: w.id });
        return b;
      };
      li.append(el("span", null, w.name + " asks to watch"),
        answer("Let watch", "approve_watcher"), answer("Turn away", "reject_watcher"));
      list.appendChild(li);
    }
    box.append(el("h3", null, "Asking to see the settle-up"), list);
  }
}

// ------------------------------------------------------------------ join
// What a newcomer reads of the reconnect grace before sitting down (s64-table2): the
// front page's words (index.html, "How it works"), with this table's own grace
// (``config.grace_seconds``, set when the table was made) as the front page writes
// it -- whole minutes as minutes, else seconds; and a tournament's entrants keep
// their seats to the end once it starts (tourney.holds_entry).
function graceSpan(seconds) {
  const s = Number(seconds), m = s / 60;
  return Number.isInteger(m) ? m + (m === 1 ? " minute" : " minutes")
    : s + (s === 1 ? " second" : " seconds");
}
function graceWords(t) {
  return "A player who closes the tab or loses the connection keeps the seat for "
    + graceSpan(t.config.grace_seconds) + " (the reconnect grace) and comes back to it from "
    + "the same browser" + (t.tournament ? "; a tournament entrant keeps theirs to the end." : ".");
}
export function renderJoin(t, me) {
  const box = $("join");
  // (a started tournament takes nobody new, free seats or not: tournament_started;
  // but while its late registration is open, stop 59, a newcomer buys in; a table
  // the host closed takes nobody, stop 59)
  const tt = t.tournament;
  const closed = Boolean(tt && tt.started && !tt.entries_open) || !!t.ended;
  const late = Boolean(tt && tt.started && tt.entries_open) && !t.ended;
  // (not a seat held for a player's seat change, nor, at a late registration, one an
  // entrant held: the server refuses both, and the list's first was picked: s59-break)
  const held = new Set(Object.values(t.seat_changes || {}).map(Number));
  const free = closed ? [] : t.seats.filter((s) => s.free && !held.has(s.seat)
    && (!late || (tt.entry_seats || []).includes(s.seat)));
  box.classList.toggle("hidden", me.seat !== null || free.length === 0);
  const watch = $("watching");
  watch.classList.toggle("hidden", me.seat !== null);
  const words = t.ended ? (t.ended.final ? "You are watching — the host closed this table: the night is over."
    : "You are watching — the host is closing the table: this hand is the last.")
    : closed ? (tt && tt.over ? "You are watching — this tournament is over."   // (s64-table)
      : "You are watching — this tournament has started and takes no new players.")
    : late && free.length
      ? "You are watching — late registration is open while rebuys are: type your name and press Enter "
        + "to buy in (" + tt.buy_in + ") for " + tt.stack + " chips, dealt from the next hand. "
        + "An entrant who closes the tab or loses the connection keeps the seat to the end and "
        + "comes back to it from the same browser."
    : free.length === 0
      ? "You are watching — the table is full (every seat is taken)."
      : "You are watching — type your name and press Enter, or tap a free seat. " + graceWords(t);
  if (watch.textContent !== words) watch.textContent = words;   // (unchanged: not drawn again)
  const sel = $("join-seat");
  const want = free.map((s) => String(s.seat)).join(",");
  if (sel.dataset.free !== want) {
    // (the seat picked here, else the one you last sat in at this table: a friend
    // back after the grace finds their own seat chosen, if it is free)
    const keep = sel.dataset.picked ? sel.value : store.get("rollem_seat_" + tid) || sel.value;
    sel.innerHTML = "";
    for (const s of free) { const o = el("option", null, "Seat " + (s.seat + 1)); o.value = s.seat; sel.appendChild(o); }
    if (free.some((s) => String(s.seat) === keep)) sel.value = keep;
    sel.dataset.free = want;
  }
  $("join-password-row").classList.toggle("hidden", !t.has_password);
  const name = $("join-name");
  if (!name.value && !name.dataset.filled) { name.value = store.get("rollem_name") || ""; name.dataset.filled = "1"; }
}
export async function joinSeat(seat) {
  $("join-error").textContent = "";
  const name = $("join-name").value.trim();
  if (!name) { $("join-error").textContent = "Type your name first, then tap the seat."; $("join-name").focus(); return; }
  const resp = await fetch("/api/tables/" + tid + "/join", {
    method: "POST", headers: { "Content-Type": "application/json" }, credentials: "same-origin",
    body: JSON.stringify({ name: name, seat: seat,
      ...($("join-password-row").classList.contains("hidden") ? {} : { password: $("join-password").value }) }),
  });
  const body = await resp.json();
  if (!resp.ok) { $("join-error").textContent = body.message; toast(body.message); return; }
  store.set("rollem_name", name);
  store.set("rollem_seat_" + tid, String(body.seat));
  S.removed = null;   // (seated again: the host's removal is told no more)
  reconnect();   // as the seat (cookie)
}
function initJoin() {
$("join-btn").onclick = () => joinSeat(Number($("join-seat").value));
$("join-seat").addEventListener("change", () => { $("join-seat").dataset.picked = "1"; });
$("join-name").addEventListener("keydown", (ev) => {
  if (ev.key === "Enter") { ev.preventDefault(); joinSeat(Number($("join-seat").value)); }
});
}



// ------------------------------------------------------------- the result
function potLines(t, result) {
  // Used only when the server sends no narration: who won each pot or half.
  const out = [];
  const pots = result.pots || [];
  for (const s of Object.keys((pots[0] || {}).winners || {})) {
    const all = wholeOfEveryPot(pots, s);  // (one winner of every pot: one line)
    if (all && all.every) return [seatName(t, Number(s)) + " wins " + all.pot + " (" + all.amount + ")"
      + (result.shown && result.shown[s] ? " with " + result.shown[s] : "")];
  }
  (result.pots || []).forEach((pot, i) => {
    const name = (result.pots.length > 1 ? (i ? "side pot " + i : "main pot") : "the pot") + " (" + pot.amount + ")";
    const say = (part, map) => Object.entries(map || {}).map(([s, c]) => seatName(t, Number(s)) + " wins " + c + part
      + (result.shown && result.shown[s] ? " with " + result.shown[s] : "")).join("; ");
    if (pot.high || pot.low) {
      if (pot.high && Object.keys(pot.high).length) out.push(say(" of " + name + ", high half", pot.high));
      if (pot.low && Object.keys(pot.low).length) out.push(say(" of " + name + ", low half", pot.low));
    } else out.push(say(" of " + name, pot.winners));
  });
  if (result.carried) out.push(result.carried + " chips carry to the next hand");
  return out;
}
export function describeResult(t, result, hand, mySeat) {
  const box = el("div", "result-body");
  const told = hand && hand.narration && hand.narration.length ? hand.narration : null;
  const lines = told || potLines(t, result).map((text) => ({ text: text, mine: false }));
  const ul = el("ul", "narration");
  for (const l of lines) {
    const li = el("li", l.mine ? "mine" : null);
    li.dataset.kind = l.kind || "";
    textWithCards(li, l.text);
    ul.appendChild(li);
  }
  box.appendChild(ul);
  const winners = winnersOf(result);
  const shownCards = result.shown_cards || {};
  const seats = new Set([...Object.keys(result.shown || {}), ...Object.keys(shownCards)]);
  for (const s of seats) {
    const line = el("div", "shown-line" + (winners[s] ? " winner-line" : ""));
    line.dataset.seat = s;
    // (the hand's own names: a player who left since is no "seat 1": stop 53)
    const who = handSeatName(t, hand, Number(s));
    line.appendChild(el("span", "who", who + (Number(s) === mySeat ? " (you)" : "")));
    const cards = shownCards[s];
    if (cards) {
      const row = el("span", "cards");
      for (const c of cards) row.appendChild(cardEl(c, { up: true, small: true, wild: isWild(hand, c) }));
      line.appendChild(row);
    }
    const runs = result.runs && result.runs.length ? result.runs : null;
    if (runs) {  // run twice (issue 27): the hand's words in each run
      line.appendChild(el("span", "desc", shownWords(result, s) || runs.map((r, k) => "run "
        + (k + 1) + ": –").join("; ")));
    } else if (result.shown && result.shown[s]) {
      const d = el("span", "desc");
      textWithCards(d, result.shown[s]);   // ("(wild 2♥ plays as 4♥)": the log's card symbols)
      line.appendChild(d);
    }
    box.appendChild(line);
  }
  return box;
}
export function renderResult(t, hand, me) {
  const box = $("result");
  const r = hand && hand.result ? hand.result : null;
  box.classList.toggle("hidden", !r);
  // Drawn again only when what it shows changed (issue 26: not at each state
  // between hands, nor its cards and lines rebuilt for nothing).
  // (your seat in this hand: none in a hand you were not dealt into, though you sit
  // in its seat now: the server sends it as a watcher sees it; stop 54)
  const mine = r && me.seat !== null && hand.seat === me.seat ? me.seat : null;
  const hs0 = mine !== null ? hand.seats[mine] : null;
  const key = !r ? "" : JSON.stringify([hand.hand_no, hand.game, r, hand.narration || null, mine,
    t.seats.map((st) => (st.free ? null : st.name)), hs0 ? !!hs0.dealt : null, hand.legal || null, S.showPick, S.online,
    hand.wild_ranks || null, hand.events.filter((e) => e.kind === "show" && e.by_choice),
    hand.by_choice_words || null]);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.innerHTML = "";
  if (!r) return;
  box.appendChild(el("h3", null, "Hand " + hand.hand_no + " · " + GAME_NAME[hand.game]));
  box.appendChild(describeResult(t, r, hand, mine));
  const hs = hs0;
  if (hs && hs.dealt) {
    // Showing by choice (R-C-11): the engine lists the cards still showable.
    const legal = hand.legal && hand.legal.actions.includes("show") ? hand.legal : null;
    const hidden = legal ? legal.cards.slice() : [];
    if (hidden.length) {
      const pick = S.showPick.filter((c) => hidden.includes(c));
      const b = el("button", "small show-btn", pick.length ? "Show " + pick.length + " chosen card" + (pick.length > 1 ? "s" : "") : "Show my cards");
      b.type = "button"; b.dataset.action = "show";
      b.title = "Everyone sees the cards you show (tap your cards below to show only some)";
      b.disabled = !S.online;
      b.onclick = () => send({ type: "show", hand: hand.hand_no, cards: pick.length ? pick : hidden });
      box.appendChild(b);
    }
  }
  for (const e of hand.events) {
    if (e.kind !== "show" || !e.by_choice) continue;
    const line = el("div", "shown-line by-choice");
    line.dataset.seat = e.seat;
    line.appendChild(el("span", "who", handSeatName(t, hand, e.seat) + (e.seat === mine ? " (you)" : "") + " shows"));
    const row = el("span", "cards");
    for (const c of e.cards) row.appendChild(cardEl(c, { up: true, small: true, wild: isWild(hand, c) }));
    line.appendChild(row);
    // the whole hand shown: named as the results name a hand (the shared
    // narration's words, `by_choice_words`; stop 53: it named no hand)
    const words = hand.by_choice_words && hand.by_choice_words[e.seat];
    const desc = el("span", "desc");
    if (words) textWithCards(desc, words + " (by choice)"); else desc.textContent = "by choice";
    line.appendChild(desc);
    box.appendChild(line);
  }
  const link = el("a", "download", "Replay this hand");
  link.href = "#hand=" + hand.hand_no;
  link.dataset.action = "replay-last";
  link.onclick = (ev) => { ev.preventDefault(); openReplay(hand.hand_no); };
  box.appendChild(link);
}

// ---------------------------------------------------------- host controls
export function renderHostPanel(t, me) {
  const panel = $("host-panel");
  panel.classList.toggle("hidden", !me.host || !!t.ended);
  if (!me.host || t.ended) return;
  renderHostQuick(t);
  const box = $("host-controls");
  // Keep what the host is typing in the stakes form between states.
  const a = document.activeElement;
  const editing = box.contains(a) && (a.tagName === "SELECT" || (a.tagName === "INPUT" && a.type !== "checkbox"));
  if (editing) return;
  // Three parts, each drawn again only when what it shows changed (issue 26): the
  // row of buttons, patched in place (a hand's start and end add or remove "Deal
  // now" alone), the seats' list and the stakes form.  Was: all of it drawn anew
  // at each hand's start and end (the form's five number fields given values made
  // the browser's autofill lay the page out in a task of its own, 55 to 80 ms at
  // 4x, twice a hand, and every new field or button one more form scan).
  const between = t.started && !t.choice && (!S.state.hand || !!S.state.hand.result);
  if (!box.parts) {
    box.innerHTML = "";
    box.parts = { row: hostRow(), list: el("ul", "host-seats"), form: null, listKey: null, formKey: null };
    box.append(box.parts.row.box, box.parts.list);
  }
  const parts = box.parts;
  patchHostRow(parts.row, t, between);
  const listKey = JSON.stringify([me.seat, me.stand_in, t.sitting_out, t.waiting,
    t.seats.map((s) => [s.free, s.name, s.away, s.bot]), entrantsIn(t)]);
  if (parts.listKey !== listKey) {
    parts.listKey = listKey;
    drawHostSeats(parts.list, t, me);
  }
  const over = !!(t.tournament && t.tournament.over);
  const formKey = JSON.stringify([t.config, t.config_next || null, Object.keys(t.game_names || {}),
    me.stand_in, over]);
  if (parts.formKey !== formKey) {
    parts.formKey = formKey;
    // A stand-in (the role passed while the host is away) keeps the table going;
    // its settings stay the host's (the server refuses them: stand_in).  A
    // tournament over deals no more hands: no game, betting, straddle or bomb-pot
    // settings for a next deal (s62-look: all still offered, with Change).
    const form = me.stand_in ? el("p", "hint stand-in-note", "You stand in for " + me.stand_in.for
      + ": the table's settings and password stay theirs, and your own stack and rebuy wait for them.")
      : over ? el("p", "hint over-note", "The tournament is over: no more hands to set up.")
      : hostForm(t);
    if (parts.form) parts.form.replaceWith(form); else box.appendChild(form);
    parts.form = form;
  }
}
// Pause (or Resume) and Close the table, in view above the folded "Host controls"
// (s61-table2: a host looked for them on a laptop and missed them twice; the
// s61-night driver too).  The same actions as the row inside, hidden while that
// is open (style.css); Close as the row's: asked first, a host's own only.
function renderHostQuick(t) {
  const box = $("host-quick");
  if (!box.parts) {
    const pause = el("button", "small"); pause.type = "button";
    const close = el("button", "small danger", "Close the table…");
    close.type = "button"; close.dataset.quick = "close";
    close.onclick = () => {
      if (window.confirm(CLOSE_ASK)) send({ type: "host", op: "close", confirm: true });
    };
    box.append(pause, close);
    box.parts = { pause: pause, close: close };
  }
  const { pause, close } = box.parts;
  const paused = !!t.host_paused;
  // (s62-table2: a tournament over deals no more hands: nothing to pause; a pause
  // already on is still offered its Resume)
  const over = !!(t.tournament && t.tournament.over);
  // (s63-table: nor before the first deal: a pause then meant nothing until the
  // start, which it then held up unseen; Start is the host's "not yet")
  const idle = (over || !t.started) && !paused;
  if (pause.hidden !== idle) pause.hidden = idle;
  const text = paused ? "Resume" : "Pause";
  if (pause.textContent !== text) pause.textContent = text;
  const op = paused ? "resume" : "pause";
  if (pause.dataset.quick !== op) pause.dataset.quick = op;
  pause.onclick = () => send({ type: "host", op: paused ? "resume" : "pause" });
  const closable = !(S.state.you.stand_in) && !(t.tournament && t.tournament.started && !t.tournament.over);
  if (close.hidden === closable) close.hidden = !closable;
}
const CLOSE_ASK = "Close the table for good? The hand in play is played to its end, then no "
  + "more hands are dealt and everyone sees the final ledger. This cannot be undone.";
// The host's row: Pause/Resume, Deal now (between hands only), the bomb pot call
// and "approve each join", made once and patched in place.
function hostRow() {
  const box = el("div", "host-row");
  const pause = el("button", "small"); pause.type = "button";
  const deal = el("button", "small", "Deal now");
  deal.type = "button"; deal.dataset.host = "deal_now";
  deal.onclick = () => send({ type: "host", op: "deal_now" });
  // The night's last hand played out, then paused (stop 58: a pause stood the hand
  // still mid-pot, and the ledger settles up only between hands).
  const after = el("button", "small"); after.type = "button"; after.dataset.host = "pause_after_hand";
  const bomb = el("button", "small"); bomb.type = "button"; bomb.dataset.host = "bomb_pot";
  const bombWhy = el("span", "hint"); bombWhy.id = "bomb-pot-why";
  const appr = el("label", "check");
  const cb = el("input"); cb.type = "checkbox"; cb.dataset.host = "approve_joins";
  cb.onchange = () => send({ type: "host", op: "approve_joins", on: cb.checked });
  appr.append(cb, document.createTextNode(" approve each join"));
  // The end of the night (stop 59): asked first, it cannot be undone.
  const close = el("button", "small danger", "Close the table…");
  close.type = "button"; close.dataset.host = "close";
  close.onclick = () => {
    if (window.confirm(CLOSE_ASK)) send({ type: "host", op: "close", confirm: true });
  };
  box.append(pause, bomb, appr, close);
  return { box: box, pause: pause, after: after, deal: deal, bomb: bomb, bombWhy: bombWhy, cb: cb, close: close };
}
function patchHostRow(row, t, between) {
  const paused = !!t.host_paused;
  // A tournament over deals no more hands (s62-table2: Pause was still offered):
  // no Pause, Pause after this hand, Deal now or bomb pot; Resume where paused.
  const over = !!(t.tournament && t.tournament.over);
  // Nothing to pause before the first deal either (s63-table): Pause shows from the start.
  const idle = (over || !t.started) && !paused;
  if (row.pause.hidden !== idle) row.pause.hidden = idle;
  if (row.bomb.hidden !== over) row.bomb.hidden = over;
  const text = paused ? "Resume" : "Pause";
  if (row.pause.textContent !== text) row.pause.textContent = text;
  const op = paused ? "resume" : "pause";
  if (row.pause.dataset.host !== op) row.pause.dataset.host = op;
  row.pause.onclick = () => send({ type: "host", op: paused ? "resume" : "pause" });
  const later = !!t.pause_after_hand;
  const inHand = t.started && !paused && !between && !t.choice && !over;
  if (inHand && !row.after.isConnected) row.pause.after(row.after);
  else if (!inHand && row.after.isConnected) row.after.remove();
  const afterWords = later ? "Play on after this hand" : "Pause after this hand";
  if (row.after.textContent !== afterWords) row.after.textContent = afterWords;
  if (row.after.getAttribute("aria-pressed") !== String(later)) row.after.setAttribute("aria-pressed", String(later));
  row.after.onclick = () => send({ type: "host", op: "pause", after_hand: !later });
  // Between hands: only the host ends the pause early (issue 34).
  const deal = t.started && !paused && !t.choice && between && !over;
  if (deal && !row.deal.isConnected) row.pause.after(row.deal);
  else if (!deal && row.deal.isConnected) row.deal.remove();
  // A bomb pot for the next hand (issue 27), or the call taken back.
  const next = !!t.bomb_pot_next;
  const words = next ? "Call off the bomb pot" : "Bomb pot next hand";
  if (row.bomb.textContent !== words) row.bomb.textContent = words;
  if (row.bomb.getAttribute("aria-pressed") !== String(next)) row.bomb.setAttribute("aria-pressed", String(next));
  row.bomb.onclick = () => send({ type: "host", op: "bomb_pot", on: !next });
  // None of the table's games can have one (the state's `bomb_pot_refusal`): the
  // button is off and the reason stands beside it (a call made before the change of
  // game is called off by the server, so "Call off" never stays disabled).
  const why = next || over ? "" : (t.bomb_pot_refusal || "");
  if (row.bomb.disabled !== !!why) row.bomb.disabled = !!why;
  if (row.bombWhy.textContent !== why) row.bombWhy.textContent = why;
  if (why && !row.bombWhy.isConnected) {
    row.bomb.after(row.bombWhy); row.bomb.setAttribute("aria-describedby", row.bombWhy.id);
  } else if (!why && row.bombWhy.isConnected) {
    row.bombWhy.remove(); row.bomb.removeAttribute("aria-describedby");
  }
  if (row.cb.checked !== !!t.approve_joins) row.cb.checked = !!t.approve_joins;
  // (a stand-in keeps the table going; the night's end stays the host's, and a
  // tournament ends by its own play)
  const closable = !(S.state.you.stand_in) && !(t.tournament && t.tournament.started && !t.tournament.over);
  if (row.close.hidden === closable) row.close.hidden = !closable;
}
// A tournament's entrants still holding chips: the server keeps their seats
// (refused `in_tournament`), so the page offers no Remove for them.
function entrantsIn(t) {
  const tn = t.tournament;
  return tn && tn.started !== false && !tn.over && tn.left ? tn.left : [];
}
function drawHostSeats(list, t, me) {
  list.innerHTML = "";
  for (const s of t.seats) {
    if (s.free) continue;
    const li = el("li");
    li.dataset.seat = s.seat;
    li.appendChild(el("span", null, s.name + (s.seat === me.seat ? " (you)" : "")
      + (s.away ? " · away" : "") + (t.sitting_out.includes(s.seat) ? " · sitting out" : "")));
    if (t.waiting.includes(s.seat)) {
      for (const op of ["approve", "reject"]) {
        const b = el("button", "small", op === "approve" ? "Let in" : "Turn away");
        b.type = "button"; b.dataset.host = op;
        b.onclick = () => send({ type: "host", op: op, seat: s.seat });
        li.appendChild(b);
      }
    }
    if (s.seat !== me.seat && !(me.stand_in && me.stand_in.seat === s.seat)) {
      const idle = s.bot || s.away || t.sitting_out.includes(s.seat) || t.waiting.includes(s.seat);
      const entrant = entrantsIn(t).includes(s.seat);
      const rm = el("button", "small", "Remove");
      rm.type = "button"; rm.dataset.host = "remove"; rm.disabled = !idle || entrant;
      rm.title = entrant ? "In the tournament: its chips stay in play, blinded off while away"
        : idle ? "Remove this player from the table" : "Only an away or sitting-out player can be removed";
      rm.onclick = () => send({ type: "host", op: "remove", seat: s.seat });
      li.appendChild(rm);
      if (!s.bot) {
        const ho = el("button", "small", "Make host");
        ho.type = "button"; ho.dataset.host = "hand_over";
        ho.onclick = () => send({ type: "host", op: "hand_over", seat: s.seat });
        li.appendChild(ho);
      }
    }
    list.appendChild(li);
  }
}
// The stakes form (applied at the next deal).
function hostForm(t) {
  const form = el("form", "host-config");
  const c = { ...t.config, ...(t.config_next || {}) };
  const field = (label, input) => { const l = el("label", null, label + " "); l.appendChild(input); form.appendChild(l); };
  const game = el("select"); game.name = "game";
  for (const g of ["dealers-choice", ...Object.keys(t.game_names || GAME_NAME).filter((g) => g !== "dealers-choice")]) { const o = el("option", null, GAME_NAME[g]); o.value = g; game.appendChild(o); }
  game.value = c.game; field("Game", game);
  // The games the button may name, shown while the game is dealer's choice (the
  // lobby's "Dealer's choice offers"): a night's host adds hold'em to the choice, or
  // drops a game, between hands (stop 55: only the API could).
  const offers = el("fieldset", "host-choices");
  offers.appendChild(el("legend", null, "Dealer's choice offers"));
  for (const g of Object.keys(t.game_names || GAME_NAME).filter((g) => g !== "dealers-choice")) {
    const box = el("input"); box.type = "checkbox"; box.name = "choice." + g;
    box.checked = (c.choices || []).includes(g);
    const l = el("label", "check"); l.append(box, " " + ((t.game_names || {})[g] || GAME_NAME[g] || g));
    offers.appendChild(l);
  }
  form.appendChild(offers);
  const showOffers = () => { offers.hidden = game.value !== "dealers-choice"; };
  game.addEventListener("change", showOffers);
  showOffers();
  const structure = el("select"); structure.name = "structure";
  for (const g of ["fixed-limit", "pot-limit", "no-limit"]) { const o = el("option", null, g); o.value = g; structure.appendChild(o); }
  structure.value = c.structure; field("Betting", structure);
  // A tournament's schedule sets the stakes and chips are only its score: no ante,
  // bets or chip value to change (stop 59: the form sent the first level's stakes
  // with every change, and the server refused each one, "cannot change ante ...")
  const sitAndGo = !!t.tournament;
  if (sitAndGo) form.appendChild(el("p", "hint host-stakes-why", "The tournament's schedule sets the ante and bets, level by level."));
  else for (const [k, label] of [["ante", "Ante"], ["small_bet", "Small bet"], ["big_bet", "Big bet"]]) {
    const i = el("input"); i.type = "number"; i.name = k; i.min = 0; i.value = c[k]; i.inputMode = "numeric"; field(label, i);
  }
  // Home-game staples (issue 27): straddles, run it twice, bomb pots.
  const straddle = el("select"); straddle.name = "straddle";
  for (const [v, text] of [["off", "off"], ["optional", "left of the big blind"], ["mississippi", "Mississippi (button first)"]]) {
    const o = el("option", null, text); o.value = v; straddle.appendChild(o);
  }
  straddle.value = c.straddle || "off"; field("Straddles", straddle);
  const twice = el("select"); twice.name = "run_twice";
  for (const [v, text] of [["false", "no"], ["true", "when all agree"]]) {
    const o = el("option", null, text); o.value = v; twice.appendChild(o);
  }
  twice.value = String(!!c.run_twice); field("Run it twice", twice);
  for (const [k, label, max] of [["bomb_pot_every", "Bomb pot every N hands (0 off)", 100],
    ["bomb_pot_ante", "Bomb pot ante (0: twice the big blind)", c.stack]]) {
    const i = el("input"); i.type = "number"; i.name = k; i.min = 0; i.max = max; i.value = c[k] || 0;
    i.inputMode = "numeric"; field(label, i);
  }
  // What a chip is worth in money, for the ledger's settle-up (empty: chips only;
  // stop 55: only the API could set it, and the evening's result is in money)
  const worth = el("input"); worth.type = "text"; worth.name = "chip_value"; worth.inputMode = "decimal";
  worth.value = c.chip_value || ""; worth.placeholder = "chips only"; worth.maxLength = 9;
  if (!sitAndGo) field("Chip value", worth);
  // A rebuy tournament's add-on (stop 60): until the rebuys close (then refused).
  const addonKeys = [["addon_chips", "Add-on chips (0: none)"], ["addon_price", "Add-on price"]];
  if (sitAndGo && t.tournament.rebuy_levels) {
    for (const [k, label] of addonKeys) {
      const i = el("input"); i.type = "number"; i.name = k; i.min = 0; i.max = 1000000; i.value = c[k] || 0;
      i.inputMode = "numeric"; field(label, i);
    }
  }
  // Run it twice and bomb pots only where the game picked can have them (the
  // host's `you.option_refusals`, by game): elsewhere off, not offered, and why
  // (stop 53: offered at stud, the change refused by the server).
  const refusals = (S.state && S.state.you.option_refusals) || {};
  const whys = {};
  const offer = () => {
    const r = refusals[game.value] || {};
    for (const [key, inputs, off] of [["run_twice", [twice], ["false"]],
      ["bomb_pot", [form.elements.bomb_pot_every, form.elements.bomb_pot_ante], ["0", "0"]]]) {
      const why = r[key] || "";
      inputs.forEach((i, n) => {
        if (why && !i.disabled) { i.dataset.was = i.value; i.value = off[n]; }
        else if (!why && i.disabled && i.dataset.was !== undefined) i.value = i.dataset.was;
        i.disabled = !!why;
      });
      let hint = whys[key];
      if (why && !hint) {
        hint = whys[key] = el("span", "hint option-why");
        hint.id = "option-why-" + key;
        inputs[0].after(hint);
      }
      if (hint) {
        hint.textContent = why;
        hint.hidden = !why;
        for (const i of inputs) {
          if (why) i.setAttribute("aria-describedby", hint.id); else i.removeAttribute("aria-describedby");
        }
      }
    }
  };
  game.addEventListener("change", offer);
  offer();
  const apply = el("button", "small", "Change"); apply.type = "submit"; apply.dataset.host = "config";
  form.appendChild(apply);
  if (t.config_next) form.appendChild(el("span", "hint", "Changes apply at the next deal."));
  form.onsubmit = (ev) => {
    ev.preventDefault();
    const changes = { game: game.value, structure: structure.value };
    for (const k of [...(sitAndGo ? [] : ["ante", "small_bet", "big_bet"]), "bomb_pot_every", "bomb_pot_ante"]) {
      changes[k] = Number(form.elements[k].value);
    }
    changes.straddle = straddle.value;
    changes.run_twice = twice.value === "true";
    if (!sitAndGo) changes.chip_value = worth.value.trim();
    for (const [k] of addonKeys) {  // (sent only when changed: refused once the rebuys closed)
      if (form.elements[k] && Number(form.elements[k].value) !== c[k]) changes[k] = Number(form.elements[k].value);
    }
    if (game.value === "dealers-choice") {  // (in the order listed, as the lobby sends them)
      changes.choices = [...offers.querySelectorAll("input:checked")].map((i) => i.name.slice("choice.".length));
    }
    send({ type: "host", op: "config", config: changes });
    document.activeElement && document.activeElement.blur();
  };
  return form;
}

// ------------------------------------------------------------------ chat
let chatLines = [];
const muted = new Set(JSON.parse(store.get("rollem_mute_" + tid) || "[]"));
// Chat lines from the server (each once), the last hundred kept.
export function chatArrived(lines) {
  for (const line of lines) if (!chatLines.some((l) => l.id === line.id)) chatLines.push(line);
  chatLines = chatLines.slice(-100);
  renderChat();
}
// A new connection: the server sends the recent lines again.
export function chatReset() { chatLines = []; renderChat(); }
let chatSeat = null;   // the seat the chat's lines were drawn for (noteWords)
export function renderChat() {
  chatSeat = S.state ? S.state.you.seat : null;
  const list = $("chat-lines");
  list.innerHTML = "";
  for (const line of chatLines) {
    if (line.notice) {   // the table's own line (the host role passing): no name, no mute
      const li = el("li", "chat-line notice", noteWords(line));
      li.dataset.id = line.id;
      list.appendChild(li);
      continue;
    }
    if (muted.has(line.seat)) continue;
    const li = el("li", "chat-line");
    li.dataset.id = line.id;
    li.appendChild(el("b", "chat-name", line.name));
    li.appendChild(el("span", "chat-text", line.text));   // text, never HTML
    if (S.state && line.seat !== S.state.you.seat) {
      const m = el("button", "link mute", "mute"); m.type = "button"; m.dataset.seat = line.seat;
      m.onclick = () => { muted.add(line.seat); saveMuted(); renderChat(); };
      li.appendChild(m);
    }
    list.appendChild(li);
  }
  list.scrollTop = list.scrollHeight;
  const mutedBox = $("chat-muted");
  mutedBox.innerHTML = "";
  if (muted.size) {
    mutedBox.appendChild(document.createTextNode("Muted: "));
    for (const s of muted) {
      const b = el("button", "link unmute", (S.state ? seatName(S.state.table, s) : seatWord(s)) + " (unmute)");
      b.type = "button"; b.dataset.seat = s;
      b.onclick = () => { muted.delete(s); saveMuted(); renderChat(); };
      mutedBox.appendChild(b);
    }
  }
}
function saveMuted() { store.set("rollem_mute_" + tid, JSON.stringify([...muted])); }
export function renderChatInput(me) {
  const seated = me.seat !== null;
  $("chat-form").classList.toggle("hidden", !seated);
  $("chat-watch").classList.toggle("hidden", seated);
  // (a started tournament seats nobody new: no "take a seat" to a watcher there)
  const tt = S.state && S.state.table.tournament;
  const words = tt && tt.started ? "Watchers read the chat." : "Watchers read the chat; take a seat to write.";
  if ($("chat-watch").textContent !== words) $("chat-watch").textContent = words;
  $("chat-send").disabled = !S.online;
  // (the lines read "You changed ..." on the host's own page: drawn again when the
  // seat they were drawn for changed, e.g. the lines came before the first state)
  if (chatSeat !== me.seat) renderChat();
}
function initChat() {
$("chat-form").onsubmit = (ev) => {
  ev.preventDefault();
  const text = $("chat-text").value.trim();
  if (!text) return;
  if (send({ type: "chat", text: text })) $("chat-text").value = "";
};
}


// ----------------------------------------------------------------- ledger
export function renderLedger(t) {
  const tbl = $("ledger");
  const done = t.last_result ? t.last_result.hand : 0;
  const live = S.state.hand && !S.state.hand.result;
  const tt = t.tournament && t.tournament.ledger ? t.tournament : null;
  let caption = done ? "after hand " + done : "before the first hand";
  if (live) caption += " (hand " + S.state.hand.hand_no + " in play is not counted yet)";
  if (tt) caption += " · in the buy-in's units (prize pool " + tt.prize_pool + ")";
  // The rows drawn again only when they changed (most states change no one's
  // ledger line; a new hand changes the caption alone: issue 26).
  const key = JSON.stringify([t.ledger, t.settle || null, S.state.you.seat !== null,
    tt ? [tt.ledger, t.seats.map((st) => (st.free ? null : st.name))] : null]);
  // The same players in the same order (a hand's end: stacks and nets changed) keep
  // their rows, each cell's text changed in place (issue 26: the table made again
  // at each hand's end was some 55 elements styled and laid out in the frame of
  // its side panels, at 10 seats on a phone at 4x slower).
  // (a computer player's line is marked: it plays with the house's money, and the
  // host covers its net in the settle-up, stop 58)
  const cells = (l) => [l.name + (l.left ? " (left)" : "") + (l.bot ? " · computer" : ""),
    String(l.brought), String(l.stack), (l.net > 0 ? "+" : "") + l.net];
  const shape = tt ? null : JSON.stringify(t.ledger.map((l) => cells(l)[0]));
  if (tbl.dataset.key !== key && shape !== null && tbl.lines && tbl.shape === shape) {
    tbl.dataset.key = key;
    t.ledger.forEach((l, k) => {
      const tds = tbl.lines[k].children;
      cells(l).forEach((text, j) => { if (tds[j].textContent !== text) tds[j].textContent = text; });
      const sign = l.net >= 0 ? "plus" : "minus";
      if (tds[3].className !== sign) tds[3].className = sign;
    });
    renderSettle(t);
  }
  if (tbl.dataset.key !== key) {
    tbl.dataset.key = key;
    tbl.innerHTML = "";
    tbl.lines = null;
    tbl.shape = null;
    tbl.appendChild(el("caption", "ledger-when", caption));
    if (tt) renderTournamentLedger(t, tt, tbl);
    else {
      tbl.insertAdjacentHTML("beforeend", "<tr><th>Player</th><th>Brought</th><th class=\"ledger-stack\">Stack</th><th>Net</th></tr>");
      tbl.lines = t.ledger.map((l) => {
        const tr = el("tr", l.bot ? "bot-line" : null);
        if (l.bot) tr.title = "A computer player: it plays with the house's money, and the host covers its net";
        const [name, brought, stack, net] = cells(l);
        tr.append(el("td", null, name), el("td", null, brought), el("td", null, stack),
          el("td", l.net >= 0 ? "plus" : "minus", net));
        tbl.appendChild(tr);
        return tr;
      });
      tbl.shape = shape;
      renderSettle(t);
    }
  }
  const cap = tbl.querySelector("caption");
  if (cap.textContent !== caption) cap.textContent = caption;
  // While a hand is in play the Stack column says whose moment it is (s62-table2:
  // "200" here beside the dock's "stack 0" of a player all-in in hand 1 read as a
  // contradiction; the caption's "not counted yet" was a line away).
  const stackHead = tbl.querySelector("th.ledger-stack");
  const stackWords = live ? "Stack before hand " + S.state.hand.hand_no : "Stack";
  if (stackHead && stackHead.textContent !== stackWords) {
    // "Stack" over a small "before hand N" kept on one line (s62-look: the head wrapped
    // to three lines, "Stack / before / hand 1", at 390 px and in a laptop's side
    // column, and squeezed the names beside it to three)
    stackHead.textContent = "Stack";
    if (live) stackHead.append(" ", el("span", "ledger-stack-when", "before hand " + S.state.hand.hand_no));
  }
  if (done !== renderLedger.hands) { renderLedger.hands = done; handListsChanged(); }
}

// The hand list and the statistics are asked for only where the player can see
// them: the list while its box is open, the statistics while they are on the
// screen; otherwise they are marked out of date and asked for when shown. (Every
// page asking /hands and /stats after each hand put a household's pages, behind
// one address, over the server's limit on these requests.)
const stale = { history: false, stats: false };
let statsOnScreen = false;
function handListsChanged() {
  stale.history = true;
  stale.stats = true;
  refreshHandLists();
}
function refreshHandLists() {
  if (stale.history && $("history-box").open) { stale.history = false; loadHistory(); }
  if (stale.stats && statsOnScreen && $("ledger-box").open) { stale.stats = false; loadStats(); }
}
function watchHandLists() {
  $("history-box").addEventListener("toggle", refreshHandLists);
  $("ledger-box").addEventListener("toggle", refreshHandLists);
  new IntersectionObserver((entries) => {
    statsOnScreen = entries[entries.length - 1].isIntersecting;
    refreshHandLists();
  }).observe($("stats"));
}

// A tournament's ledger (issue 28): what each entrant paid (buy-in and rebuys),
// its place and prize and the net, in the buy-in's units; chips are only the
// score, so there is no settling up in chips (the prizes are paid by place).
function renderTournamentLedger(t, tt, tbl) {
  tbl.insertAdjacentHTML("beforeend", "<tr><th>Player</th><th>Paid</th><th>Place</th><th>Prize</th><th>Net</th></tr>");
  for (const l of tt.ledger) {
    const tr = el("tr"); tr.dataset.seat = String(l.seat);
    const net = l.net === null ? el("td", null, "–")
      : el("td", l.net >= 0 ? "plus" : "minus", (l.net > 0 ? "+" : "") + l.net);
    if (l.bot) tr.className = "bot-line";
    tr.append(el("td", null, seatName(t, l.seat) + (l.bot ? " · computer" : "")),
      // (what the paid covers: rebuys, and the add-on, stop 60; a hyphen that does
      // not break widened the column and broke the names: "Bot 1 (rando m)")
      el("td", null, l.paid + ((bought) => (bought.length ? " (" + bought.join(", ") + ")" : ""))(
        [...(l.rebuys ? [l.rebuys + " rebuy" + (l.rebuys === 1 ? "" : "s")] : []), ...(l.addon ? ["add-on"] : [])])),
      el("td", null, l.place !== null ? String(l.place) : !tt.started ? "seated"
        // (busted and free to rebuy: no place yet, stop 52)
        : tt.over || (tt.left || []).includes(l.seat) ? "playing"
        // (out, but a rebuy by one busted with or before them may move the place, stop 59)
        : (tt.may_rebuy || []).includes(l.seat) ? "may rebuy" : "out, placed after the rebuys"),
      el("td", null, l.payout === null ? "–" : String(l.payout)), net);
    tbl.appendChild(tr);
  }
  const box = $("settle");
  if (box) {
    box.innerHTML = "";
    const settle = t.settle && t.settle.unit ? t.settle : null;
    if (tt.over && settle && settle.payouts.length) {
      // settle-up in the buy-in's units: the pool's payouts, or between the players
      box.appendChild(el("div", "settle-head", "Each entrant paid its buy-ins into the pool; the prize pool pays:"));
      // (a computer player's prize goes to the host, who staked its buy-ins: stop 58)
      box.appendChild(settleList(settle.payouts.map((x) => x.to + " " + x.units
        + (x.for ? " (" + x.for + "'s prize)" : "")), "settle-pool"));
      if (settle.house) coverInto(box, settle.house, settle.house.units, String, String, false);
      if (settle.transfers.length) {
        box.appendChild(el("div", "settle-head", "Or, if the buy-ins were not collected:"));
        box.appendChild(settleList(settle.transfers.map((x) => x.from + " pays " + x.to + " " + x.units), "settle-between"));
      }
    } else {
      box.appendChild(el("div", "settle-head", tt.over ? "Each entrant paid its buy-ins into the pool; the pool pays the prizes above."
        : "Prizes and nets are known when the tournament is over."));
    }
    box.appendChild(settleLinks());
  }
}
function settleList(items, cls) {
  const list = el("ul", "settle-list " + cls);
  for (const text of items) list.appendChild(el("li", null, text));
  return list;
}

// Each player's statistics this session (issue 27), counted by the server from
// the stored hands (/api/tables/<id>/stats), read again after each hand.
let statsAsked = 0;
export async function loadStats() {
  const asked = ++statsAsked;
  try {
    const resp = await fetch("/api/tables/" + tid + "/stats", { credentials: "same-origin" });
    if (!resp.ok || asked !== statsAsked) return;
    renderStats(await resp.json());
  } catch (e) { /* the next hand's end asks again */ }
}
const pct = (v) => (v === null || v === undefined ? "–" : Math.round(v) + "%");
function renderStats(body) {
  const box = $("stats");
  if (!box) return;
  box.innerHTML = "";
  const players = Object.entries(body.players || {});
  if (!players.length) { box.appendChild(el("div", "hint", "Statistics come after the first hand.")); return; }
  const tbl = el("table", "stats-table");
  tbl.appendChild(el("caption", null, "Statistics over " + body.hands + " hand" + (body.hands === 1 ? "" : "s")));
  const head = el("tr");
  for (const [text, title] of [["Player", ""], ["Hands", "hands dealt in"],
    ["VPIP", "put chips in voluntarily in the first betting round"], ["PFR", "bet or raised in the first round"],
    ["AF", "aggression: bets and raises per call"], ["WTSD", "went to showdown (of the hands that saw round 2)"],
    ["W$SD", "won at showdown (of the showdowns)"]]) {
    const th = el("th", null, text); if (title) th.title = title; head.appendChild(th);
  }
  tbl.appendChild(head);
  const figures = (tr, p) => tr.append(el("td", null, String(p.hands)), el("td", null, pct(p.vpip)),
    el("td", null, pct(p.pfr)), el("td", null, p.aggression === null ? "–" : String(p.aggression)),
    el("td", null, pct(p.wtsd)), el("td", null, pct(p.wsd)));
  for (const [name, p] of players) {
    const tr = el("tr"); tr.dataset.player = name;
    tr.appendChild(el("td", null, name));
    figures(tr, p);
    tbl.appendChild(tr);
  }
  box.appendChild(tbl);
  // A tournament's figures split by level (issue 28): the play changes as the stakes rise.
  const levels = Object.entries(body.levels || {});
  if (!levels.length) return;
  const by = el("table", "stats-table stats-levels");
  by.appendChild(el("caption", null, "By tournament level"));
  by.appendChild(head.cloneNode(true));
  for (const [level, per] of levels) {
    for (const [name, p] of Object.entries(per)) {
      const tr = el("tr"); tr.dataset.level = level; tr.dataset.player = name;
      tr.appendChild(el("td", null, "Level " + level + ": " + name));
      figures(tr, p);
      by.appendChild(tr);
    }
  }
  box.appendChild(by);
}

// Who pays whom to settle the session (issue 27), and the ledger as CSV.
function renderSettle(t) {
  const box = $("settle");
  if (!box) return;
  settleInto(box, t);
}
function settleInto(box, t) {
  box.innerHTML = "";
  const settle = t.settle;
  // The computer players' nets are the host's (the house's), settled between people
  // only (stop 58): "Ann (host) collects what the computer players won: 47 chips
  // (11.75)." (the money: its absolute value, as the transfers say it).
  if (settle && settle.house) {
    const h = settle.house;
    const chips = (n) => n + (n === 1 ? " chip" : " chips");
    coverInto(box, h, h.chips, (n) => chips(n) + (h.money ? " (" + h.money.replace(/^-/, "") + ")" : ""),
      chips, true);
  }
  if (settle && settle.transfers && settle.transfers.length) {
    box.appendChild(el("div", "settle-head", "To settle up" + (settle.chip_value
      ? " (a chip is worth " + settle.chip_value + ")" : "") + ":"));
    const list = el("ul", "settle-list");
    for (const x of settle.transfers) {
      list.appendChild(el("li", null, x.from + " pays " + x.to + " " + x.chips
        + (x.chips === 1 ? " chip" : " chips") + (x.money ? " (" + x.money + ")" : "")));
    }
    box.appendChild(list);
  } else if (!settle) {
    box.appendChild(el("div", "settle-head", "Settling up is shown between hands."));
  }
  box.appendChild(settleLinks());
}
// The computer players' net ``n`` (chips or units), the host's (the house's): what
// they won, which the host collects, or lost, which the host pays; then the host's own
// net and the two together (s60-polish: "Ann (host) covers the computer players:
// +118" under final nets all below zero, "Ann -25" beside "Bob pays Ann 22", read
// as if Ann paid).  ``words(x)``: a positive amount's words (with its money);
// ``count(x)``: a positive amount alone ("22 chips"); ``below``: the transfers
// listed below pay the host's total (a cash table's).  Each number says what it is
// (s62-table: "Ann's own net is -25 ... Ann settles at +22" beside the ledger's
// "Ann -25" read as two answers to one question; "settles at" said nothing of who
// pays whom).
function coverInto(box, house, n, words, count, below) {
  const who = house.host ? house.by + " (host)" : "The house";
  box.appendChild(el("div", "settle-house", n > 0 ? who + " collects what the computer players won: " + words(n) + "."
    : n < 0 ? who + " pays what the computer players lost: " + words(-n) + "."
    : who + " covers the computer players: they are even."));
  if (!house.host || !n || house.own === undefined) return;
  const by = house.by, own = house.own, total = own + n;
  const play = own > 0 ? "won " + count(own) : own < 0 ? "lost " + count(-own) : "broke even";
  const bots = n > 0 ? "collecting the computer players' " + count(n)
    : "paying the computer players' " + count(-n);
  const end = total > 0 ? by + " ends " + count(total) + " up" + (below ? ", paid to " + by + " below" : "")
    : total < 0 ? by + " ends " + count(-total) + " down" + (below ? ", paid by " + by + " below" : "")
    : by + " ends even: nothing to pay or collect";
  box.appendChild(el("div", "settle-house-own", by + "'s own play " + play + " (" + by
    + "'s Net above); " + bots + ", " + end + "."));
}
function settleLinks() {
  const links = el("div", "settle-links");
  const mine = S.state.you.seat !== null ? [["history.phhs", "All my hands (PHH)"]] : [];
  for (const [href, text] of [["ledger.csv", "Ledger (CSV)"], ["hands.csv", "Every hand's net (CSV)"], ...mine]) {
    const a = el("a", null, text);
    a.href = "/api/tables/" + tid + "/" + href;
    a.setAttribute("download", "");
    links.appendChild(a);
    links.appendChild(document.createTextNode(" "));
  }
  return links;
}

function actionText(t, e) {
  const who = e.seat !== null && e.seat !== undefined ? seatName(t, e.seat) : "";
  const words = { deal_hole: "is dealt", deal_up: "is dealt face up", pool_draw: "draws from the pool",
    draw_deal: "gets", stacked: "stacks", cc: "calls" };
  const cards = e.cards ? " " + e.cards.join(" ") : e.card ? " " + e.card : "";
  let amount = "";
  if (e.kind === "raise" || e.kind === "bet") amount = " to " + (e.to !== undefined ? e.to : e.amount);
  else if (e.amount !== undefined) amount = " " + e.amount;
  const count = e.count !== undefined && !e.cards ? " " + e.count + " card" + (e.count === 1 ? "" : "s") : "";
  const side = e.side ? " " + e.side : "";
  const desc = e.description ? ": " + e.description : "";
  return (who ? who + " " : "") + (words[e.kind] || e.kind.replace(/_/g, " ")) + amount + count + side + cards + desc;
}
export function renderLog(hand) {
  const box = $("log");
  // Drawn only while its box is open, and when the hand has moved on.
  const key = !hand || !$("log-box").open ? "" : hand.hand_no + ":" + hand.events.length + ":"
    + (hand.log ? hand.log.length : "");
  if (box.dataset.key === key) return;   // (closed: "", emptied when it closed)
  box.dataset.key = key;
  box.innerHTML = "";
  if (!hand || !key) return;
  if (hand.log) {
    // The hand in players' words (the server's shared narration), newest last.
    for (const line of hand.log.slice(-60)) {
      const li = el("li", line.seat === hand.seat && hand.seat !== null ? "mine" : null);
      if (line.seat !== null && line.seat !== undefined) li.dataset.seat = line.seat;
      textWithCards(li, line.text);
      box.appendChild(li);
    }
  } else {
    for (const e of hand.events.slice(-60)) box.appendChild(el("li", null, actionText(S.state.table, e)));
  }
  // Newest at the bottom, and in view: the box (16em high) keeps to its last line
  // unless the player has scrolled up to read back (logAtEnd, kept as they scroll).
  // (Drawn afresh, it would show the hand's first lines, the newest out of sight.)
  // A new hand starts at its end again.
  if (logHand !== hand.hand_no) { logHand = hand.hand_no; logAtEnd = true; }
  if (logAtEnd) box.scrollTop = box.scrollHeight;
}
let logAtEnd = true, logHand = null;

// ----------------------------------------------------------- how to play
const DECISION_OF = { bet: "bet", raise: "bet", call: "bet", check: "bet", fold: "bet",
  discard: "discard_to_pool", expose: "expose", draw: "draw", wild: "pick_wild",
  stack: "stack", declare: "declare" };
function currentDecision() {
  if (!S.state) return null;
  if (S.state.you.choose_game && S.state.table.choice) return "choose_game";
  const h = S.state.hand;
  if (!h || h.result || !h.legal || !h.legal.actions.length) return null;
  return DECISION_OF[h.legal.actions[0]] || null;
}
// The computer players seated now and their levels (each seat has its own; the
// level the table was created with may no longer be any seat's).
function botRows(t, botLevels) {
  if (!t) return [];  // (no state yet: nothing known of the seats)
  const bots = t.seats.filter((s) => !s.free && s.bot);
  if (!bots.length) return [["Computer players", "none at this table"]];
  const levels = [...new Set(bots.map((s) => s.bot))];
  const said = (level) => level + ((botLevels || {})[level] ? ": " + botLevels[level] : "");
  if (levels.length === 1) return [["Computer players' level", said(levels[0])]];
  return levels.map((level) => ["Computer players' level", said(level) + " (" +
    bots.filter((s) => s.bot === level).map((s) => s.name).join(", ") + ")"]);
}
function optionRows(c, botLevels, t) {
  const yes = (v) => (v ? "yes" : "no");
  const h = c.house || {};
  const dflt = (k, d) => (h[k] === undefined ? d : h[k]);
  const sitAndGo = t && t.tournament ? tournamentRows(t) : null;  // (its stakes rise by level)
  return [
    ["Game", GAME_NAME[c.game] || c.game],
    ["Betting", c.structure],
    ...(sitAndGo || [["Ante", c.ante], ["Small bet", c.small_bet], ["Big bet", c.big_bet],
      ["Starting stack", c.stack], ["Rebuys", yes(c.rebuys)]]),
    ...botRows(t, botLevels),
    ["Practice: players may show their own odds (practice_odds)", yes(c.practice_odds)],
    ["Raise cap holds heads-up (cap_heads_up)", yes(dflt("cap_heads_up", true))],
    ["SDR: burn before the Roll (burn_before_roll)", yes(dflt("burn_before_roll", false))],
    ["Roll Your Own: wild cards may duplicate (wild_duplicates)", yes(dflt("wild_duplicates", false))],
    ["Roll Your Own: natural beats wild (natural_beats_wild)", yes(dflt("natural_beats_wild", false))],
    ["5-2-1: betting after the declare (bet_after_declare)", yes(dflt("bet_after_declare", false))],
    ["5-2-1: when every \"both\" fails (failed_both_rule)",
      dflt("failed_both_rule", "carry") === "split" ? "split high-low" : "pot carries over"],
    ["Seconds per decision", c.decision_seconds], ["Time bank (s)", c.time_bank_seconds],
    ["Reconnect grace (s)", c.grace_seconds],
  ];
}
export async function openRules() {
  const game = S.state && S.state.hand ? S.state.hand.game : "";
  const decision = currentDecision();
  const q = "?game=" + encodeURIComponent(game || "") + (decision ? "&decision=" + encodeURIComponent(decision) : "");
  $("rules").classList.remove("hidden");
  try {
    const resp = await fetch("/api/tables/" + tid + "/rules" + q, { credentials: "same-origin" });
    const body = await resp.json();
    if (!resp.ok) { toast(body.message); return; }
    const d = $("rules-decision");
    d.classList.toggle("hidden", !body.decision_help);
    // The HTML comes from markdown-it-py with raw HTML off (server/markdown.py).
    d.innerHTML = body.decision_help ? "<h3>Your decision now</h3>" + body.decision_help : "";
    const tbl = $("rules-options");
    tbl.innerHTML = "";
    for (const [k, v] of optionRows(body.config, body.bot_levels, S.state && S.state.table)) {
      const tr = el("tr"); tr.append(el("th", null, k), el("td", null, String(v))); tbl.appendChild(tr);
    }
    $("rules-text").innerHTML = body.sections.map((x) => x.html).join("\n<hr>\n");
  } catch (e) { toast("the server cannot be reached"); }
}
export function initPanels() {
  initJoin();
  initChat();
  watchHandLists();
$("rules-btn").onclick = openRules;
$("log-box").addEventListener("toggle", () => { if (S.state) renderLog(S.state.hand); });
$("log").addEventListener("scroll", () => {
  const box = $("log");
  logAtEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 8;
}, { passive: true });
(function showInviteNow() {
  let invite = null;
  try { invite = sessionStorage.getItem("rollem_invite_" + tid); } catch (e) { /* private mode */ }
  if (invite) { $("invite-link").value = invite; $("invite").classList.remove("hidden"); }
})();
$("rules-close").onclick = () => $("rules").classList.add("hidden");
$("rules").onclick = (ev) => { if (ev.target === $("rules")) $("rules").classList.add("hidden"); };
// ------------------------------------------------------------ host start
// (once for a state: a double tap's second came back "the game has already started")
$("start-btn").onclick = () => (S.state ? sendOnce("start", { type: "start", seq: S.state.seq })
  : send({ type: "start", seq: 0 }));
$("copy-invite").onclick = () => copyText($("invite-link").value, $("copy-invite"), $("invite-link"));
}

// ------------------------------------------------------------ announcements
// The live region (#announce) a screen reader reads: each action as the felt's
// label says it ("Bob raises to 9"), your turn, the result in the narration's
// words.  Decided from what changed since the state drawn before.
// Its lines say cards as the felt and the log do ("The flop: J♦ 7♣ 8♠."), not in
// the server's codes ("Jd 7c 8s", read out letter by letter); `plain` lines (a
// copied link) are said as they are.  Each line is one paragraph of plain text
// (the cards as rank and suit, no element a card: the region is not drawn, yet
// its elements are styled and laid out in the state's frame; issue 26).
const SAID = 20;
// A state that changes everything (a new hand, a hand's end: main.js draws its side
// panels in a task after its frame) has its lines held (holdLines) and added with
// those panels (sayHeld), in the order said: the state's frame styles and lays out
// the felt alone (issue 26: a hand's end's 17 lines were a quarter of the elements
// styled in its frame at 10 seats on a phone at 4x), the screen reader hears them a
// frame later.
let held = null;
export function holdLines() { if (!held) held = []; }
export function sayHeld() {
  const lines = held;
  held = null;
  if (lines && lines.length) say(lines);
}
function say(lines, plain) {
  if (held && !plain) { held.push(...lines); return; }
  const box = $("announce");
  for (const text of lines) box.appendChild(el("p", null, plain ? text : cardsAsText(text)));
  while (box.childNodes.length > SAID) box.removeChild(box.firstChild);
}
export function announce(state, previous, turn, wasTurn) {
  if (previous === state) return;
  const t = state.table, hand = state.hand, old = previous && previous.hand;
  const same = hand && old && old.hand_no === hand.hand_no;
  const lines = [];
  if (hand && !same) lines.push("Hand " + hand.hand_no + ": " + (GAME_NAME[hand.game] || hand.game) + ".");
  if (hand && hand.log && same && old.log) {
    for (const l of hand.log.slice(old.log.length)) lines.push(l.text);
  } else if (hand) {
    const was = same ? actionLabels(old) : {};
    for (const [seat, label] of Object.entries(actionLabels(hand))) {
      const before = was[seat];
      if (!before || before.text !== label.text) lines.push(seatName(t, Number(seat)) + " " + label.text);
    }
  }
  if (hand && hand.result && !(same && old.result)) {
    const told = hand.narration && hand.narration.length ? hand.narration.map((l) => l.text)
      : potLines(t, hand.result);
    lines.push(...told);
  }
  // The host role passed or came back (stop 43): "Ann is away: Bob hosts now".
  const note = t.host_note, before = previous && previous.table.host_note;
  if (previous && note && (!before || before.seq !== note.seq)) {
    // (the host closing the table, or the night over: the notice at the top says so
    // in a line of its own; the same news in a toast over it on a phone, s61-night)
    if (!endedNews(t, previous.table)) toast(noteWords(note));
    lines.push(noteWords(note));
  }
  if (turn && !wasTurn) {
    const legal = hand && hand.legal;
    const owe = legal && legal.actions.includes("call") ? legal.call_amount : 0;
    lines.push("Your turn" + (owe ? ": " + owe + " to call." : "."));
  }
  if (lines.length) say(lines);
}

// A note of the table's in the words for this page: the host's own pages read
// "You changed ..." where the others read "Ann changed ..." (s73-night).
function noteWords(note) {
  return note.own && S.state && note.by === S.state.you.seat ? note.own : note.text;
}

// Whether the table's close came with this state (the host closing it, or the
// night over): the notice says it (renderNotice).
function endedNews(t, before) {
  const now = t.ended, was = before && before.ended;
  return !!now && (!was || !!now.final !== !!was.final);
}

// ------------------------------------------------------------------ copying
// Copy a link, and say so on the button ("Copied").  The clipboard API exists
// only on a secure page (https, localhost): on a plain-HTTP LAN address the
// text is selected in a field and copied the old way (execCommand); if even
// that fails, the field stays selected for the player to copy.
export function copyText(text, button, field) {
  const label = button.dataset.label || button.textContent;
  button.dataset.label = label;
  const done = () => {
    button.textContent = "Copied";
    button.classList.add("copied");
    say(["Copied: " + text], true);
    clearTimeout(button.copiedTimer);
    button.copiedTimer = setTimeout(() => { button.textContent = label; button.classList.remove("copied"); }, 2500);
  };
  const oldWay = () => {
    let f = field, temp = false;
    if (!f) {
      f = el("input", "copy-field"); f.readOnly = true; f.value = text; temp = true;
      f.setAttribute("aria-label", "link to copy");
      button.after(f);
    }
    f.focus(); f.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    if (ok) { if (temp) f.remove(); done(); }
    else toast("Copy the selected link: " + text);
  };
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, oldWay);
  else oldWay();
}
