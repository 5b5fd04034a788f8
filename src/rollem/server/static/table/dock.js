// The decision dock: your seat (name, stack, cards, the card picks) and the
// controls of your decision (betting, card choices, the wild card, declaring,
// naming the game).
import { cardEl, GAME_NAME } from "/static/cards.js";
import { $, act, el, myTurn, rerender, S, seatName, send, sendOnce, toast } from "./state.js";
import {
  actionLabels, betChips, buttonSeat, clockEl, isWild, labelEl, placeChildren, potTotal, shownStack, shownWords, tagsFor,
  textWithCards, timerBar, winnersOf, wonBy, wonEl,
} from "./felt.js";
import { addonOffer, placeWords } from "./tourney.js";

// --------------------------------------------------------------- the dock
// A tap (mouse or touch) on a button of the dock (your seat, the controls) does
// not move the focus onto it (issue 26): the state that answers the tap draws
// those buttons again, and a focused element taken out of the page makes the
// browser lay the whole page out at once, inside render (20 to 65 ms on a phone at
// 4x; at a hand's end, in its longest frame).  Keys (Tab, then Enter or Space) still
// focus them as before, and so does a tap while an amount is being typed (the
// field gives the focus up, and a phone's keyboard closes, as before).
export function initDock() {
  for (const id of ["controls", "me"]) {
    $(id).addEventListener("mousedown", (ev) => {
      const typing = document.activeElement && document.activeElement.tagName === "INPUT";
      if (ev.button === 0 && !typing && ev.target.closest("button, [role=button]")) ev.preventDefault();
    });
  }
}
export function owed(hand) {
  const legal = hand && !hand.result ? hand.legal : null;
  if (!legal || !legal.actions.includes("call")) return 0;
  return legal.call_amount || 0;
}
export function renderMe(t, hand, me) {
  const box = $("me");
  if (me.seat === null) {
    if (box.parts) { box.innerHTML = ""; box.parts = null; }
    if (!box.classList.contains("hidden")) box.classList.add("hidden");
    return;
  }
  if (box.classList.contains("hidden")) box.classList.remove("hidden");
  // A hand you were not dealt into is not yours: one you sat down in a seat its
  // player has left since (stop 54: the dock showed their cards and "wins 36").
  // The server sends it as a watcher sees it (its `seat` null).  Its tags still
  // say that you join the next hand, while it is in play (a seat is freed only
  // once the hand its player was dealt into is over).
  const tagsHand = hand && (hand.seat === me.seat || !hand.result) ? hand : null;
  if (hand && hand.seat !== me.seat) hand = null;
  const s = t.seats[me.seat];
  const hs = hand ? hand.seats[me.seat] : null;
  const turn = myTurn();
  if (box.classList.contains("acting") !== turn) box.classList.toggle("acting", turn);
  const won = !!(hand && hand.result && winnersOf(hand.result)[me.seat]);
  if (box.classList.contains("winner") !== won) box.classList.toggle("winner", won);
  const folded = !!(hs && hs.folded);
  if (box.classList.contains("folded") !== folded) box.classList.toggle("folded", folded);
  // In parts, each drawn again only when what it shows changed (issue 26: not at
  // each other player's action, and your cards not when only your stack, label or
  // clock changed): the head, your cards with your hand's name, the timer bar and
  // the rebuy.  Each part's key holds everything its drawing reads.
  const had = box.parts || {};
  const now = {};
  const kids = [];
  for (const [name, key, draw] of meParts(t, hand, me, s, hs, tagsHand)) {
    const old = had[name];
    const part = old && old.key === key ? old : { key: key, nodes: draw() };
    now[name] = part;
    kids.push(...part.nodes);
  }
  box.parts = now;
  placeChildren(box, kids);
}
// Your seat in parts, [name, key, draw() -> its elements], in the order shown.
function meParts(t, hand, me, s, hs, tagsHand) {
  const parts = [];
  const tt = t.tournament;
  const headKey = JSON.stringify([me.seat, s, buttonSeat(t, hand, false), hand ? [hand.hand_no, !!hand.result,
    hs, actionLabels(hand)[me.seat] || null, wonBy(hand, me.seat)] : null,
  tagsFor(t, tagsHand, s, me.seat, false), S.online, t.sitting_out.includes(me.seat),
  tt ? [tt.started, tt.over, tt.left, S.state.you.rebuy_closed || null] : null,
  t.config.straddle, t.straddlers || null, S.state.you.top_up || null, !!t.ended]);
  parts.push(["head", headKey, () => [meHead(t, hand, me, s, hs, tagsHand)]]);
  if (hs && hs.cards.length) {
    const legal = hand.legal;
    const picking = !!(legal && legal.cards && legal.cards.length && legal.actions.some((a) => PICK[a]));
    const showing = !!(hand.result && !picking && legal && (legal.cards || []).length
      && legal.actions.includes("show"));
    const cardsKey = JSON.stringify([hand.hand_no, hs.cards, hs.up, hand.wild_ranks || null,
      picking || showing ? legal.cards : null, picking, showing, picking ? S.selected : null,
      showing ? S.showPick : null, myPendingChoice(hand, me.seat), hand.hand_name || null]);
    parts.push(["cards", cardsKey, () => myCards(hand, hs, picking, showing)]);
  }
  if (s.acting && s.deadline) {
    parts.push(["timer", JSON.stringify([s.deadline, (t.config && t.config.decision_seconds) || null]),
      () => [timerBar(s, t)]]);
  }
  // The add-on's offer (stop 60), while its window is open and you have not answered.
  const addon = tt && tt.addon;
  if (addon && addon.open && (addon.waiting || []).includes(me.seat)) {
    parts.push(["addon", JSON.stringify([addon.chips, addon.price, S.online]),
      () => [addonOffer(t, tt, me)]]);
  }
  // A tournament over, you still holding chips (its winner, or a final player of a
  // deal): where you finished, as a busted player's dock says it (rebuy_closed,
  // "You finished 3rd and win 8."); s61-table: the winner's dock said nothing.
  const place = tt && tt.over && s.stack > 0 ? (tt.places || {})[String(me.seat)] : undefined;
  if (place) {
    const prize = Number((tt.payouts || {})[String(me.seat)] || 0);
    const words = "You finished " + placeWords(tt, place) + (prize > 0 ? " and win " + prize : "") + ".";
    parts.push(["finish", words, () => {
      const line = el("div", "hint tourney-finish", words);
      return [line];
    }]);
  }
  // A rebuy when the table's rules allow one now; else why not (the cap, the
  // tournament's rebuy levels: issues 27, 28), instead of a button refused.
  if (s.stack === 0 && !(hand && hs && hs.dealt && !hand.result)) {
    const closed = S.state.you.rebuy_closed || null;
    // A busted tournament entrant may also say no at once (stop 53): else they
    // stayed unplaced until the rebuy levels or a last call's 60 s ran out.
    const entrant = !!(t.tournament && t.tournament.started && !t.tournament.over);
    parts.push(["rebuy", JSON.stringify([closed, t.config.stack, entrant]), () => {
      if (closed) {
        const why = el("div", "hint rebuy-closed", closed);
        why.dataset.why = "rebuy";
        return [why];
      }
      // a tournament's rebuy costs a buy-in, not its chips (s62-night: "Rebuy 100" read
      // as a price of 100 where the buy-in was 20; the terminal asks "Rebuy 100 chips
      // for a buy-in of 20?")
      const b = el("button", "rebuy", "Rebuy " + t.config.stack
        + (t.tournament ? " chips for " + t.tournament.buy_in : ""));
      b.dataset.action = "rebuy";
      b.onclick = () => sendOnce("rebuy", { type: "rebuy", seq: S.state.seq });
      if (!entrant) return [b];
      const no = el("button", "rebuy-decline", "No rebuy: I'm out");
      no.dataset.action = "rebuy-decline";
      no.onclick = () => sendOnce("rebuy", { type: "rebuy", seq: S.state.seq, decline: true });
      // side by side where they fit (s63-table: stacked in a laptop's wide dock)
      const both = el("div", "rebuy-row");
      both.append(b, no);
      return [both];
    }]);
  }
  return parts;
}
// Your seat's head: name, dealer button, stack, bet, label, winnings, tags, clock,
// Sit out and the straddle choice.
function meHead(t, hand, me, s, hs, tagsHand) {
  const head = el("div", "me-head");
  head.appendChild(el("b", "name", (s.name || "you") + " (you)"));
  if (buttonSeat(t, hand, false) === me.seat) head.appendChild(el("span", "button-chip", "D"));
  head.appendChild(el("span", "chips", "stack " + shownStack(s, hand, hs, false)));
  if (hs && hs.bet && !hand.result) head.appendChild(betChips(me.seat, hs.bet));
  head.appendChild(labelEl(actionLabels(hand)[me.seat]));
  const won = wonBy(hand, me.seat);
  if (won.length) {
    // What you took from the pot beside what the hand made you, each named
    // (s62-table2: "wins 3" here beside the result's "This hand: you won 2" read
    // as two answers to one question): "wins 3" "net +2".
    const box = wonEl(won);
    const net = ((hand.result && hand.result.net) || {})[String(me.seat)];
    if (net !== undefined) {
      // (the ledger's sign: s63-table, a typographic minus here beside its hyphen)
      const n = el("span", "won-net", "net " + (net > 0 ? "+" : "") + net);
      n.title = "This hand's net: what you won less what you put in";
      n.dataset.net = String(net);
      box.appendChild(n);
    }
    head.appendChild(box);
  }
  // (busted by the hand just over, no "all-in" beside "stack 0": tagsFor, s63-table;
  // the dock's rebuy line below says what now)
  for (const [cls, text] of tagsFor(t, tagsHand, s, me.seat, false)) {
    // (your own standing is the dock's line: "you are out in 6th place")
    if (cls !== "host" && cls !== "out") head.appendChild(el("span", "tag " + cls, text));
  }
  if (s.acting && s.deadline) head.appendChild(clockEl(s));
  // (issue 28: a tournament's busted or finished player has nothing to sit out from)
  const tt = t.tournament;
  // (nor at a table the host closed: nothing is dealt again, stop 59)
  // Nor while you have no chips to play with: all-in in the hand in play (0 chips
  // behind, an all-in run-out shown round by round: nothing of yours is dealt or
  // decided until its result), or busted after it (you are not dealt in; the dock
  // offers Rebuy and Leave).  s62-table: Sit out beside "stack 0".  (I'm back
  // stays: one who sat out before may take it back.)
  const noChips = !t.sitting_out.includes(me.seat)
    && (s.stack === 0 || !!(hand && hs && hs.dealt && hs.all_in && !hs.folded && !hand.result));
  const out = t.ended || noChips || (tt && tt.started && (tt.over || !tt.left.includes(me.seat)));
  const sit = el("button", "small sit" + (out ? " hidden" : ""), t.sitting_out.includes(me.seat) ? "I'm back" : "Sit out");
  sit.type = "button"; sit.dataset.action = t.sitting_out.includes(me.seat) ? "sit-in" : "sit-out";
  sit.title = "Sit out from the next hand, or come back";
  sit.disabled = !S.online;
  sit.onclick = () => send({ type: "sit_out", out: !t.sitting_out.includes(me.seat) });
  // Your buttons (Sit out, the straddle choice, Top up, Leave) as one group at the
  // head's right, wrapping to a row of their own together (stop 73: each wrapped on
  // its own, so that with a long name, a win and a top-up on a 1440 desktop Leave
  // and Top up fell under the name at the left, apart from Sit out at the right).
  // Leave last, the one that ends your night away from the rest.
  const acts = el("span", "me-acts");
  acts.appendChild(sit);
  const straddle = t.ended || noChips ? null : straddleToggle(t, me);
  if (straddle) acts.appendChild(straddle);
  // Leave the table (stop 53: before, only closing the page, and the table waited
  // for each decision until the reconnect grace ran out); a tournament entrant
  // still in it (or who may rebuy) cannot: their chips are their entry.
  // Not while you play a hand (the phone's dock is full then; Sit out, then Leave).
  // While the host closes the table (its last hand in play) one may leave too, and
  // having folded that hand, at once: the table freed the seat when it ends, the
  // chips stay on the ledger and in the settle-up (s60-table).
  const playing = !!(hand && hs && hs.dealt && !hand.result);
  const closing = !!(t.ended && !t.ended.final);
  const leave = (!playing || (closing && hs.folded)) && (!t.ended || closing)
      && (!tt || !tt.started || tt.over || (out && S.state.you.rebuy_closed));
  // A top-up (stop 58): between hands, a stack below the buy-in back up to it; the
  // server says when one may be asked and its chips (you.top_up), else null.  In
  // the head beside Sit out and Leave: a row of its own made the dock taller
  // between hands, and the felt above it smaller (a desktop's 8 seats' tiles
  // then reached past the felt's oval, test_felt_small_browser.py).
  const topUp = S.state.you.top_up || null;
  if (topUp) {
    const b = el("button", "small top-up", "Top up +" + topUp);
    b.type = "button"; b.dataset.action = "top-up";
    b.title = "Bring your stack up to the buy-in, " + t.config.stack
      + " (the chips count as brought); between hands only";
    b.disabled = !S.online;
    b.onclick = () => sendOnce("top-up", { type: "top_up" });
    acts.appendChild(b);
  }
  if (leave) acts.appendChild(leaveButton());
  head.appendChild(acts);
  return head;
}
// A confirming tap (Fold anyway, Leave the table?) that is the second of a double
// tap or double click (the click's `detail`, its count of quick taps in one place)
// is the tap that asked, not an answer: ignored (s64-fresh: a double tap on Fold
// with a free check folded, on Leave left the table; each question's yes sits where
// the button that asked was).  A key (f) or a later tap answers.
function secondTap(ev) {
  return !!(ev && ev.detail > 1);
}
// Leave asks once more on the button itself ("Leave the table?"), then sends;
// drawn again (a new state of the head), it asks again.
function leaveButton() {
  const b = el("button", "small leave", "Leave");
  b.type = "button"; b.dataset.action = "leave";
  b.title = "Leave the table: your chips stay on the ledger, yours again if you sit down from this browser";
  b.disabled = !S.online;
  b.onclick = (ev) => {
    if (b.dataset.action === "leave") {
      b.dataset.action = "leave-confirm";
      b.textContent = "Leave the table?";
      b.classList.add("confirm-leave");
      return;
    }
    if (!secondTap(ev)) send({ type: "leave" });
  };
  return b;
}
// Your cards (to pick from, when a decision or the showing asks) and, when the
// server sends them, its words for your hand so far ("pair of kings").
function myCards(hand, hs, picking, showing) {
  const legal = hand.legal;
  const pending = myPendingChoice(hand, S.state.you.seat);
  const row = el("div", "cards mine");
  hs.cards.forEach((c, i) => {
    const e = cardEl(c, { up: hs.up[i], wild: isWild(hand, c) });
    e.classList.add(hs.up[i] ? "face-up" : "face-down");
    if (pending && pending.cards.includes(c)) e.classList.add("chosen");
    if (hs.up[i]) e.appendChild(el("span", "up-mark", "up"));
    if (picking && legal.cards.includes(c)) {
      e.classList.add("pickable");
      // a button to the keyboard too: Tab to it and Space, or its digit (keys.js)
      e.setAttribute("role", "button");
      e.tabIndex = 0;
      e.setAttribute("aria-pressed", String(S.selected.includes(c)));
      if (i < 9) withKey(e, String(i + 1));
      e.addEventListener("keydown", (ev) => { if (ev.key === " ") { ev.preventDefault(); e.click(); } });
      const k = S.selected.indexOf(c);
      if (k >= 0) { e.classList.add("selected"); e.appendChild(el("span", "order", String(k + 1))); }
      e.addEventListener("click", () => {
        const j = S.selected.indexOf(c);
        const most = legal.max_count;
        // Never more than the decision takes (stop 54: a third card tapped at a draw
        // of up to 2 left "Draw (3)" greyed out, saying nothing): one card to
        // choose is swapped for the one tapped; of several, the tap says why not.
        if (j >= 0) S.selected.splice(j, 1);
        else if (S.selected.length < most) S.selected.push(c);
        else if (most === 1) S.selected = [c];
        else {
          toast((legal.min_count === most ? "Choose exactly " : "Choose at most ") + most
            + " cards: tap a chosen card to unpick it first.");
          return;
        }
        rerender();
      });
    } else if (showing && c && legal.cards.includes(c)) {
      e.classList.add("pickable");
      if (S.showPick.includes(c)) e.classList.add("selected");
      e.addEventListener("click", () => {
        const j = S.showPick.indexOf(c);
        if (j >= 0) S.showPick.splice(j, 1); else S.showPick.push(c);
        rerender();
      });
    }
    row.appendChild(e);
  });
  const out = [row];
  // (a hand run twice names your hand in each run: the server's words are run 1's)
  const runs = hand.result && hand.result.runs && hand.result.runs.length
    ? shownWords(hand.result, S.state.you.seat) : null;
  if (runs || hand.hand_name) {
    const name = el("div", "hand-name");
    textWithCards(name, runs || hand.hand_name);   // "(wild 5♣ plays as Q♣)", the results' words
    out.push(name);
  }
  return out;
}

// The player's straddle choice (issue 27), made before the deal and kept for
// every hand until changed: offered where the table allows straddles; the
// server uses it in the hands where this seat may straddle.
function straddleToggle(t, me) {
  const rule = t.config.straddle || "off";
  if (rule === "off") return null;
  const on = (t.straddlers || []).includes(me.seat);
  const b = el("button", "small straddle-toggle", on ? "Straddle: on" : "Straddle: off");
  b.type = "button"; b.dataset.action = "straddle";
  b.setAttribute("aria-pressed", String(on));
  b.title = (rule === "mississippi" ? "Mississippi: the button straddles first, else the player left of the big blind"
    : "The player left of the big blind") + ": post twice the big blind before the deal (from the next hand)";
  b.disabled = !S.online;
  b.onclick = () => send({ type: "straddle", on: !on });
  return b;
}

export const PICK = { discard: "Discard to the pool", expose: "Turn face up", draw: "Draw", stack: "Stack in this order" };
const CHOSE_WORDS = { discard: "throw into the pool", expose: "turn up", draw: "throw",
  stack: "roll-up order", declare: "declare", "run it twice": "run it twice:" };

// Your choice in an all-at-once step, made while others still choose: the
// 'chose' event of your seat after the step's 'choose' event (R-RYO-2, R-521-6).
export function myPendingChoice(hand, seat) {
  if (!hand || hand.result || !hand.simultaneous || !hand.to_act.length
      || hand.to_act.includes(seat)) return null;
  let mine = null;
  for (const e of hand.events) {
    if (e.kind === "choose") mine = null;
    else if (e.kind === "chose" && e.seat === seat && e.action) mine = e;
  }
  if (!mine) return null;
  const tokens = mine.action.split(/\s+/).slice(1);
  const cards = tokens.filter((x) => /^[2-9TJQKA][cdhs]$/.test(x));
  return { step: mine.step, cards: cards, words: CHOSE_WORDS[mine.step] || mine.step,
           rest: cards.length ? cards.join(" ") : tokens.join(" ") };
}

export function renderControls(t, hand, me) {
  const box = $("controls");
  // Drawn again only when the decision, the pre-actions or what they read changed
  // (issue 26: not at each other player's action; a bet amount being typed stays).
  // While others act only the prompt's words change ("Waiting for Bot 3…").
  const waiting = me.seat !== null && !(me.choose_game && t.choice)
    && (!hand || hand.result || !hand.legal || !hand.legal.actions.length);
  const betting = !!(hand && hand.legal && hand.legal.actions.some((a) => a === "bet" || a === "raise"));
  const key = JSON.stringify([me.seat, me.choose_game || null, t.choice || null, S.online, S.elsewhere,
    S.confirmFold, S.selected, t.config.structure, hand ? [hand.hand_no, !!hand.result, hand.legal,
      waiting ? null : hand.to_act.map((s) => seatName(t, s)), preSituation(hand, me.seat), pre,
      betting ? [hand.pot, hand.seats.map((st) => st && st.bet), hand.current_bet] : null,
      me.seat !== null && hand.seats[me.seat] ? [hand.seats[me.seat].cards, hand.seats[me.seat].stack] : null,
      waiting ? null : potTotal(hand)] : null]);
  // paused by the host (or saving failed) mid-hand: the decision is closed until the
  // resume, so its buttons are shown held, your picks kept (stop 52)
  const held = !waiting && !!(t.host_paused || t.paused) && !!hand && !hand.result;
  if (box.dataset.key !== key + held) {
    box.dataset.key = key + held;
    drawControls(box, t, hand, me);
    if (held) holdControls(box, t);
  }
  if (waiting) {
    const prompt = box.querySelector(".prompt-line");
    const text = waitingWords(t, hand, me);
    if (prompt && prompt.textContent !== text) prompt.textContent = text;
  }
}
// Your decision while the table is paused: the prompt says so and every control of
// the dock is disabled (a press would be refused), until the resume draws them again.
function holdControls(box, t) {
  const turn = box.querySelector(".your-turn");
  if (turn) turn.textContent = t.host_paused ? "Paused by the host: your turn goes on when the table resumes"
    : "Paused: your turn goes on when the table resumes";
  for (const c of box.querySelectorAll("button, input")) c.disabled = true;
}
// What the prompt says while it is not your decision.
function waitingWords(t, hand, me) {
  if (!S.online) return S.elsewhere ? "Played from another tab or device" : "Disconnected — reconnecting…";
  const who = !hand || hand.result ? [] : hand.to_act.map((s) => seatName(t, s));
  // (paused mid-hand: nobody acts until the resume, so not "Waiting for Cat…")
  const paused = t.host_paused ? "Paused by the host: " : t.paused ? "Paused: " : null;
  const text = !who.length ? "" : paused ? paused + who.join(", ") + (who.length > 1 ? " act" : " acts")
    + " when the table resumes." : "Waiting for " + who.join(", ") + "…";
  const chose = myPendingChoice(hand, me.seat);
  return chose ? "Your choice is in: " + chose.words + " " + chose.rest + ". " + text : text;
}
function drawControls(box, t, hand, me) {
  // Everything but the bet amount's fields goes, and what is drawn goes before them.
  const keep = betUi && betUi.wrap.parentNode === box ? betUi.wrap : null;
  for (const c of [...box.childNodes]) if (c !== keep) c.remove();
  if (keep) { keep.classList.add("hidden"); betUi.quick.replaceChildren(); }
  const into = { appendChild: (x) => box.insertBefore(x, keep) };
  fillControls(into, box, t, hand, me);
  disableIfOffline(box);
}
function fillControls(box, dock, t, hand, me) {
  dock.classList.toggle("offline", !S.online);
  if (me.seat === null) return;
  const prompt = el("div", "prompt-line");
  box.appendChild(prompt);
  if (me.choose_game && t.choice) {
    prompt.textContent = "You have the button: name the game.";
    const row = el("div", "actions");
    t.choice.games.forEach((g, k) => {
      const b = el("button", "act game-choice", GAME_NAME[g]);
      b.dataset.game = g; b.type = "button";
      if (k < 9) withKey(b, String(k + 1));
      b.onclick = () => sendOnce("choice", { type: "choose_game", hand: t.choice.hand, seq: S.state.seq, game: g });
      row.appendChild(b);
    });
    box.appendChild(row);
    return;
  }
  if (!hand || hand.result || !hand.legal || !hand.legal.actions.length) {
    // (the prompt's words: renderControls, waitingWords)
    const pre = preActionControl(hand, me.seat);
    if (pre) box.appendChild(pre);
    return;
  }
  const legal = hand.legal;
  const due = owed(hand);
  prompt.appendChild(el("b", "your-turn", "Your turn"));
  // (stud's bring-in: nobody has bet, so nothing is "to call"; the seat must post
  // it or complete: stop 53 saw "to call 1" above "Bring in for 1")
  if (legal.forced === "bring-in") prompt.appendChild(el("span", "owe", " · your up card brings it in"));
  else if (due > 0) prompt.appendChild(el("span", "owe", " · to call " + due));
  // The pot beside it where the felt runs under the dock (a phone: s62-night, Roll
  // Your Own's pool and discards put the felt's pot under the bet buttons at every
  // decision of a six-seat table); a wide screen's felt keeps its pot in view and
  // hides this (style.css).
  prompt.appendChild(el("span", "turn-pot", " · pot " + potTotal(hand)));
  if (!S.online) prompt.appendChild(el("span", "offline-note", S.elsewhere ? " · played from another tab or device" : " · disconnected: wait for the table"));
  if (S.confirmFold) {
    prompt.appendChild(el("span", "confirm-fold", " · You can check for free. Fold anyway?"));
    const row = el("div", "actions");
    row.appendChild(btn("fold-confirm", "Fold anyway", (ev) => {
      if (!secondTap(ev)) act({ kind: "fold" });
    }, "f"));
    row.appendChild(btn("check", "Check", () => act({ kind: "check" }), "c"));
    row.appendChild(btn("fold-cancel", "Cancel", () => { S.confirmFold = false; rerender(); }, "Esc"));
    box.appendChild(row);
    return;
  }
  const row = el("div", "actions");
  let betBox = null;
  for (const a of legal.actions) {
    if (a === "fold") {
      row.appendChild(btn("fold", "Fold", () => {
        if (legal.actions.includes("check")) { S.confirmFold = true; rerender(); } else act({ kind: "fold" });
      }, "f"));
    } else if (a === "check") row.appendChild(btn(a, "Check", () => act({ kind: a }), "c"));
    else if (a === "call") {
      // the stud bring-in: the call posts the bring-in (legal.forced, see engine Legal)
      const word = legal.forced === "bring-in" ? "Bring in for " : "Call ";
      // a call of your whole stack says so (s61-night: a short stack's "Call 18"
      // in a side-pot hand did not say it put them all-in)
      const mine = hand.seats[me.seat];
      const allIn = mine && legal.call_amount > 0 && legal.call_amount >= mine.stack ? ", all-in" : "";
      row.appendChild(btn(a, word + legal.call_amount + allIn, () => act({ kind: "call" }), "c"));
    }
    else if (a === "bet" || a === "raise") betBox = betControl(a, legal, hand, t, row);
    else if (a === "wild") box.appendChild(wildControl(legal));
    else if (a === "run_twice") {
      // Everyone still in is all-in (issue 27): all at once, each says yes or no.
      prompt.appendChild(el("span", "rit-ask", " · Nobody can bet any more: run the rest of the board twice? (everyone must agree)"));
      row.appendChild(btn("run-twice-yes", "Run it twice", () => act({ kind: "run_twice", agree: true }), "y"));
      row.appendChild(btn("run-twice-no", "Run once", () => act({ kind: "run_twice", agree: false }), "n"));
    } else if (a === "declare") {
      // (stop 72: the buttons alone did not say the declarations are shown together,
      // nor what a "both" risks, R-521-8, R-521-9)
      prompt.appendChild(el("span", "declare-ask", " · Everyone declares at once; the choices are shown together."
        + " Both: win high and low outright (a tie loses), or collect nothing."));
      for (const side of legal.sides) row.appendChild(btn("declare-" + side, "Declare " + side, () => act({ kind: "declare", side: side }), side[0]));
    } else if (PICK[a]) box.appendChild(pickControl(a, legal));
  }
  if (row.childNodes.length) box.appendChild(row);
  // (the bet amount's fields: kept in the dock, after the rest)
  if (betBox) { if (betBox.parentNode !== dock) dock.appendChild(betBox); betBox.classList.remove("hidden"); }
}
function disableIfOffline(box) {
  if (S.online) return;
  box.querySelectorAll("button, input").forEach((b) => { b.disabled = true; });
}

// One action button; `key`: its keyboard shortcut, shown on it (keys.js).
function btn(action, text, onclick, key) {
  const b = el("button", "act", text);
  b.dataset.action = action;
  b.type = "button";
  b.onclick = onclick;
  if (key) withKey(b, key);
  return b;
}
function withKey(b, key) {
  b.dataset.key = key;
  b.setAttribute("aria-keyshortcuts", key === "Esc" ? "Escape" : key);
  return b;
}

// Pot-size arithmetic for the shortcuts: what a raise "to" amount is.
function potSizes(legal, hand, me) {
  const onTable = (hand.pot || 0) + hand.seats.reduce((n, s) => n + (s.bet || 0), 0);
  const call = legal.call_amount || 0;
  const cur = hand.current_bet || 0;
  const potAfterCall = onTable + call;
  const clamp = (v) => Math.max(legal.min_to, Math.min(legal.max_to, Math.round(v)));
  return {
    min: legal.min_to,
    half: clamp(cur + potAfterCall / 2),
    pot: clamp(cur + potAfterCall),
    allin: legal.max_to,
  };
}

// The bet amount's fields (slider, number), made once and kept in the controls
// from one of your turns to the next, hidden between (issue 26: each new field
// outside a form makes Chromium's autofill scan the page's forms 100 ms later, a
// layout of the whole page in a task of its own, 10 to 60 ms on a phone at 4x, at
// each of your turns); its sizing presets' buttons are drawn anew each turn.
let betUi = null;
function betFields() {
  if (betUi) return betUi;
  const wrap = el("div", "bet-control hidden");
  const quick = el("span", "quick");
  const slider = el("input"); slider.type = "range"; slider.setAttribute("aria-label", "amount");
  const num = el("input"); num.type = "number"; num.inputMode = "numeric";
  wrap.append(quick, slider, num);
  betUi = { wrap: wrap, quick: quick, slider: slider, num: num };
  return betUi;
}
function betControl(a, legal, hand, t, row) {
  // at a stud bring-in the bet (or, facing the bring-in, the raise) completes it
  const word = legal.forced ? "Complete to" : (a === "bet" ? "Bet" : "Raise to");
  const key = a === "bet" ? "amount" : "to";
  if (legal.min_to === legal.max_to) {
    row.appendChild(btn(a, word + " " + legal.min_to, () => act({ kind: a, [key]: legal.min_to }), a[0]));
    return null;
  }
  const { wrap, quick, slider, num } = betFields();
  const b = btn(a, word + " " + legal.min_to, () => act({ kind: a, [key]: Number(num.value) }), a[0]);
  row.appendChild(b);
  for (const f of [slider, num]) {
    f.disabled = false;
    f.max = legal.max_to; f.min = legal.min_to; f.value = legal.min_to;
  }
  slider.dataset.slider = a;
  num.dataset.amount = a; num.setAttribute("aria-label", word + " amount");
  const sync = (v) => { slider.value = v; num.value = v; b.textContent = word + " " + v; };
  slider.oninput = () => sync(slider.value);
  num.oninput = () => sync(num.value);
  const sizes = potSizes(legal, hand, t);
  const labels = t.config.structure === "fixed-limit" ? [["min", "min"], ["allin", "max"]]
    : [["min", "min"], ["half", "½ pot"], ["pot", "pot"], ["allin", t.config.structure === "no-limit" ? "all-in" : "max"]];
  quick.replaceChildren();
  labels.forEach(([k, label], i) => {
    const q = el("button", "small quick-size", label); q.type = "button"; q.dataset.size = k;
    withKey(q, String(i + 1));
    q.onclick = () => sync(sizes[k]);
    quick.appendChild(q);
  });
  return wrap;
}

function wildControl(legal) {
  const wrap = el("div", "wild-pick");
  // (stop 72: "You pick the wild card" said neither why you nor what it does, R-RYO-7)
  wrap.appendChild(el("span", "prompt", "Your hand showing is the lowest, so you pick the wild card:"
    + " tap a pool card. It turns up, and every card of its rank is wild."));
  const cards = el("span", "cards");
  for (let i = 0; i < legal.positions; i++) {
    // (a hand card's size, not small: the decision the table waits for, tapped on a
    // phone; style.css .wild-pick holds each at least 44 px each way)
    const c = cardEl(null);
    c.classList.add("pickable");
    c.dataset.position = i;
    c.setAttribute("role", "button");
    c.tabIndex = 0;
    c.setAttribute("aria-label", "pool card " + (i + 1));
    if (i < 9) withKey(c, String(i + 1));
    c.onclick = () => act({ kind: "wild", position: i });
    cards.appendChild(c);
  }
  wrap.appendChild(cards);
  return wrap;
}

// The digit keys that pick a card (renderMe): each pickable card's position in
// your hand, so with a card already up they need not start at 1 ("keys: 2–4").
function pickKeys(legal) {
  const hs = S.state.hand ? S.state.hand.seats[S.state.you.seat] : null;
  const keys = (hs ? hs.cards : []).map((c, i) => (legal.cards.includes(c) && i < 9 ? i + 1 : 0)).filter((k) => k);
  if (!keys.length) return "";
  const run = keys.every((k, j) => j === 0 || k === keys[j - 1] + 1);
  const named = keys.length === 1 ? String(keys[0]) : run ? keys[0] + "–" + keys[keys.length - 1] : keys.join(", ");
  return "keys: " + named + " pick, ";
}
function pickControl(a, legal) {
  const wrap = el("div", "pick");
  const lo = legal.min_count, hi = legal.max_count;
  const need = lo === hi ? String(lo) : lo + "–" + hi;
  const tips = {
    discard: "Tap " + need + " of your cards to throw into the pool",
    expose: "Tap the card to turn face up",
    // a draw decision is from the stub (5-2-1, draw poker): new cards are dealt
    draw: "Tap up to " + (hi === 1 ? "1 card" : hi + " cards") + " to throw away: you are dealt as many new ones (none: stand pat)",
    stack: "Tap your cards in the order they roll up (first = first up)",
  };
  // (the keys' words go where keys are: a touch screen without a keyboard hides
  // them, as it hides the buttons' key marks: style.css)
  const prompt = el("span", "prompt", tips[a] + " — chosen: " + S.selected.length);
  prompt.appendChild(el("span", "key-hint", " (" + pickKeys(legal) + "Enter confirms, Esc clears)"));
  wrap.appendChild(prompt);
  const ok = S.selected.length >= lo && S.selected.length <= hi && S.selected.every((c) => legal.cards.includes(c));
  const label = a === "draw" && S.selected.length === 0 ? "Stand pat" : PICK[a] + (S.selected.length ? " (" + S.selected.length + ")" : "");
  const b = btn(a, label, () => {
    if (a === "expose") act({ kind: "expose", card: S.selected[0] });
    else act({ kind: a, cards: S.selected.slice() });
  });
  b.id = "confirm";
  withKey(b, "Enter");
  b.dataset.min = lo;
  b.dataset.max = hi;
  b.disabled = !ok;
  const row = el("div", "actions");
  row.appendChild(b);
  if (a === "stack" && !S.selected.length && S.state.hand) {
    // The cards in the places they were dealt, each drawn card where the card it
    // replaced was (the engine lists them so): a legal order too (R-521-6).  Not the
    // order shown, which holds the drawn cards last: rolled up so, it told the
    // table which cards you drew (stop 74).
    const hs = S.state.hand.seats[S.state.you.seat];
    const order = legal.cards.filter((c) => (hs ? hs.cards : []).includes(c));
    if (order.length >= lo && order.length <= hi) {
      const keep = btn("stack-keep", "Keep as dealt", () => act({ kind: "stack", cards: order }), "k");
      keep.title = "Roll up your cards in the places they were dealt, each card you drew in the place of the card it replaced";
      row.appendChild(keep);
      // The order it keeps, said (s74-fresh: the cards shown hold the drawn ones
      // last, so the button's order was seen nowhere; a title is no help on a phone).
      // (one short line, and only where it differs from the cards shown: a phone's
      // stacking with odds and advice open has no room to spare)
      const shown = (hs ? hs.cards : []).filter((c) => order.includes(c));
      if (shown.join(" ") !== order.join(" ")) {
        const said = el("div", "hint stack-keep-order");
        textWithCards(said, "Keep as dealt: " + order.slice(0, -1).join(" ") + " up, "
          + order[order.length - 1] + " down");
        wrap.appendChild(said);
      }
    }
  }
  if (S.selected.length) {
    const clr = withKey(el("button", "small", "clear"), "Esc"); clr.type = "button";
    clr.onclick = () => { S.selected = []; rerender(); };
    row.appendChild(clr);
  }
  wrap.appendChild(row);
  return wrap;
}

// ------------------------------------------------------------ pre-actions
// Chosen before your turn, played the moment it comes: check/fold, check, call
// (this amount), call any, fold to any bet (no check once you have acted in the
// round owing nothing: your turn comes back only to a bet).  One is held at a time; a new hand
// or betting round clears it, and a raise clears "check" and "call N" (the
// situation they were chosen for is gone).  Only the page knows of it: the
// server sees the action when it is played.
let pre = null;   // { kind, amount, bet, hand, round }
function roundOf(hand) { return hand.events.filter((e) => e.kind === "round").length; }
function preSituation(hand, seat) {
  if (!hand || hand.result || hand.simultaneous || seat === null) return null;
  if (hand.pending && hand.pending !== "bet") return null;
  const hs = hand.seats[seat];
  if (!hs || !hs.dealt || hs.folded || hs.all_in || !hand.to_act.length) return null;
  const owe = Math.max(0, (hand.current_bet || 0) - (hs.bet || 0));
  return { owe: Math.min(owe, hs.stack), bet: hand.current_bet || 0, round: roundOf(hand),
           acted: actedThisRound(hand, seat) };
}
// Whether `seat` has checked, called, bet or raised in the betting round in play (a
// blind or a straddle, posted before the round opens, is no action of it; a stud
// bring-in is).  Owing nothing then, its turn comes again only if someone bets or
// raises: a "Check" held could never be played (s72-web: it was offered, and only
// ever cleared, to the player whose bet stood).
const ACTS = new Set(["check", "call", "bet", "raise"]);
function actedThisRound(hand, seat) {
  let acted = false;
  for (const e of hand.events) {
    if (e.kind === "round") acted = false;
    else if (e.seat === seat && ACTS.has(e.kind)) acted = true;
  }
  return acted;
}
// Forget the pre-action when its situation is gone; says why, or null.
export function checkPreAction(hand, seat) {
  if (!pre) return null;
  const now = preSituation(hand, seat);
  const mine = hand && !hand.result && hand.legal && hand.legal.actions.length;
  if (!hand || hand.hand_no !== pre.hand || hand.result) { pre = null; return null; }
  if (!mine && !now) { pre = null; return null; }
  const round = now ? now.round : roundOf(hand);
  if (round !== pre.round) { pre = null; return null; }
  const bet = hand.current_bet || 0;
  if ((pre.kind === "check" || pre.kind === "call") && bet !== pre.bet) {
    const was = pre.kind === "check" ? "Check" : "Call " + pre.amount;
    pre = null;
    return "A raise came in: your “" + was + "” is cleared.";
  }
  return null;
}
// Your turn has come with a pre-action held: the action it stands for (or null).
export function preActionNow(hand) {
  if (!pre || !hand || !hand.legal) return null;
  const acts = hand.legal.actions;
  if (!acts.includes("check") && !acts.includes("call") && !acts.includes("fold")) return null;
  const kind = pre.kind, amount = pre.amount;
  pre = null;
  const can = (a) => acts.includes(a);
  if (kind === "check-fold" || kind === "fold") return can("check") ? { kind: "check" } : { kind: "fold" };
  if (kind === "check") return can("check") ? { kind: "check" } : null;
  if (kind === "call") return can("call") && hand.legal.call_amount === amount ? { kind: "call" } : null;
  if (kind === "call-any") return can("call") ? { kind: "call" } : can("check") ? { kind: "check" } : null;
  return null;
}
export function clearPreAction() { const had = !!pre; pre = null; return had; }
function preActionControl(hand, seat) {
  const now = preSituation(hand, seat);
  if (!now) return null;
  // owing nothing after acting this round: the turn comes back only to a bet
  const options = now.owe === 0 && now.acted
    ? [["fold", "Fold to any bet"], ["call-any", "Call any"]]
    : now.owe === 0
      ? [["check-fold", "Check/fold"], ["check", "Check"], ["call-any", "Call any"]]
      : [["fold", "Fold to any bet"], ["call", "Call " + now.owe], ["call-any", "Call any"]];
  const wrap = el("div", "pre-actions");
  wrap.setAttribute("role", "group");
  wrap.setAttribute("aria-label", "Before your turn");
  wrap.appendChild(el("span", "prompt", "Before your turn:"));
  for (const [kind, label] of options) {
    const b = el("button", "small pre", label);
    b.type = "button";
    b.dataset.pre = kind;
    const on = !!pre && pre.kind === kind && (kind !== "call" || pre.amount === now.owe);
    b.setAttribute("aria-pressed", String(on));
    b.onclick = () => {
      pre = on ? null : { kind: kind, amount: now.owe, bet: now.bet, hand: hand.hand_no, round: now.round };
      rerender();
    };
    wrap.appendChild(b);
  }
  return wrap;
}
