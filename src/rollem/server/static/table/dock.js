// The decision dock: your seat (name, stack, cards, the card picks) and the
// controls of your decision (betting, card choices, the wild card, declaring,
// naming the game).
import { cardEl, GAME_NAME } from "/static/cards.js";
import { $, act, el, myTurn, rerender, S, seatName, send } from "./state.js";
import {
  actionLabels, betChips, clockEl, isWild, labelEl, shownStack, tagsFor, timerBar, winnersOf, wonBy, wonEl,
} from "./felt.js";

// --------------------------------------------------------------- the dock
export function owed(hand) {
  const legal = hand && !hand.result ? hand.legal : null;
  if (!legal || !legal.actions.includes("call")) return 0;
  return legal.call_amount || 0;
}
export function renderMe(t, hand, me) {
  const box = $("me");
  box.innerHTML = "";
  if (me.seat === null) { box.classList.add("hidden"); return; }
  box.classList.remove("hidden");
  const s = t.seats[me.seat];
  const hs = hand ? hand.seats[me.seat] : null;
  box.classList.toggle("acting", myTurn());
  const winners = hand && hand.result ? winnersOf(hand.result) : {};
  box.classList.toggle("winner", !!winners[me.seat]);
  box.classList.toggle("folded", !!(hs && hs.folded));
  const head = el("div", "me-head");
  head.appendChild(el("b", "name", (s.name || "you") + " (you)"));
  if (hand && hand.button === me.seat) head.appendChild(el("span", "button-chip", "D"));
  head.appendChild(el("span", "chips", "stack " + shownStack(s, hand, hs, false)));
  if (hs && hs.bet && !hand.result) head.appendChild(betChips(me.seat, hs.bet));
  head.appendChild(labelEl(actionLabels(hand)[me.seat]));
  const won = wonBy(hand, me.seat);
  if (won.length) head.appendChild(wonEl(won));
  for (const [cls, text] of tagsFor(t, hand, s, me.seat, false)) {
    if (cls !== "host") head.appendChild(el("span", "tag " + cls, text));
  }
  if (s.acting && s.deadline) head.appendChild(clockEl(s));
  const sit = el("button", "small sit", t.sitting_out.includes(me.seat) ? "I'm back" : "Sit out");
  sit.type = "button"; sit.dataset.action = t.sitting_out.includes(me.seat) ? "sit-in" : "sit-out";
  sit.title = "Sit out from the next hand, or come back";
  sit.disabled = !S.online;
  sit.onclick = () => send({ type: "sit_out", out: !t.sitting_out.includes(me.seat) });
  head.appendChild(sit);
  box.appendChild(head);
  if (hs && hs.cards.length) {
    const legal = hand.legal;
    const picking = legal && legal.cards && legal.cards.length && legal.actions.some((a) => PICK[a]);
    const showing = hand.result && !picking;
    const pending = myPendingChoice(hand, me.seat);
    const row = el("div", "cards mine");
    hs.cards.forEach((c, i) => {
      const e = cardEl(c, { up: hs.up[i], wild: isWild(hand, c) });
      e.classList.add(hs.up[i] ? "face-up" : "face-down");
      if (pending && pending.cards.includes(c)) e.classList.add("chosen");
      if (hs.up[i]) e.appendChild(el("span", "up-mark", "up"));
      if (picking && legal.cards.includes(c)) {
        e.classList.add("pickable");
        const k = S.selected.indexOf(c);
        if (k >= 0) { e.classList.add("selected"); e.appendChild(el("span", "order", String(k + 1))); }
        e.addEventListener("click", () => {
          const j = S.selected.indexOf(c);
          if (j >= 0) S.selected.splice(j, 1); else S.selected.push(c);
          rerender();
        });
      } else if (showing && c && hand.legal && (hand.legal.cards || []).includes(c) && hand.legal.actions.includes("show")) {
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
    box.appendChild(row);
    // The server's words for your hand so far ("pair of kings"), when it sends them.
    if (hand.hand_name) box.appendChild(el("div", "hand-name", hand.hand_name));
  }
  if (s.acting && s.deadline) box.appendChild(timerBar(s, t));
  if (s.stack === 0 && t.config.rebuys && !(hand && hs && hs.dealt && !hand.result)) {
    const b = el("button", "rebuy", "Rebuy " + t.config.stack);
    b.dataset.action = "rebuy";
    b.onclick = () => send({ type: "rebuy", seq: S.state.seq });
    box.appendChild(b);
  }
}

export const PICK = { discard: "Discard to the pool", expose: "Turn face up", draw: "Draw", stack: "Stack in this order" };
const CHOSE_WORDS = { discard: "throw into the pool", expose: "turn up", draw: "throw",
  stack: "roll-up order", declare: "declare" };

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
  box.innerHTML = "";
  box.classList.toggle("offline", !S.online);
  if (me.seat === null) return;
  const prompt = el("div", "prompt-line");
  box.appendChild(prompt);
  if (me.choose_game && t.choice) {
    prompt.textContent = "You have the button: name the game.";
    const row = el("div", "actions");
    for (const g of t.choice.games) {
      const b = el("button", "act game-choice", GAME_NAME[g]);
      b.dataset.game = g; b.type = "button";
      b.onclick = () => send({ type: "choose_game", hand: t.choice.hand, seq: S.state.seq, game: g });
      row.appendChild(b);
    }
    box.appendChild(row);
    disableIfOffline(box);
    return;
  }
  if (!hand || hand.result || !hand.legal || !hand.legal.actions.length) {
    prompt.textContent = !hand ? "" : hand.result ? "" : hand.to_act.length ? "Waiting for " + hand.to_act.map((s) => seatName(t, s)).join(", ") + "…" : "";
    const chose = myPendingChoice(hand, me.seat);
    if (chose) prompt.textContent = "Your choice is in: " + chose.words + " " + chose.rest + ". " + prompt.textContent;
    if (!S.online) prompt.textContent = "Disconnected — reconnecting…";
    return;
  }
  const legal = hand.legal;
  const due = owed(hand);
  prompt.appendChild(el("b", "your-turn", "Your turn"));
  if (due > 0) prompt.appendChild(el("span", "owe", " · to call " + due));
  if (!S.online) prompt.appendChild(el("span", "offline-note", " · disconnected: wait for the table"));
  if (S.confirmFold) {
    prompt.appendChild(el("span", "confirm-fold", " · You can check for free. Fold anyway?"));
    const row = el("div", "actions");
    row.appendChild(btn("fold-confirm", "Fold anyway", () => act({ kind: "fold" })));
    row.appendChild(btn("check", "Check", () => act({ kind: "check" })));
    row.appendChild(btn("fold-cancel", "Cancel", () => { S.confirmFold = false; rerender(); }));
    box.appendChild(row);
    disableIfOffline(box);
    return;
  }
  const row = el("div", "actions");
  let betBox = null;
  for (const a of legal.actions) {
    if (a === "fold") {
      row.appendChild(btn("fold", "Fold", () => {
        if (legal.actions.includes("check")) { S.confirmFold = true; rerender(); } else act({ kind: "fold" });
      }));
    } else if (a === "check") row.appendChild(btn(a, "Check", () => act({ kind: a })));
    else if (a === "call") {
      // the stud bring-in: the call posts the bring-in (legal.forced, see engine Legal)
      const word = legal.forced === "bring-in" ? "Bring in for " : "Call ";
      row.appendChild(btn(a, word + legal.call_amount, () => act({ kind: "call" })));
    }
    else if (a === "bet" || a === "raise") betBox = betControl(a, legal, hand, t, row);
    else if (a === "wild") box.appendChild(wildControl(legal));
    else if (a === "declare") {
      for (const side of legal.sides) row.appendChild(btn("declare-" + side, "Declare " + side, () => act({ kind: "declare", side: side })));
    } else if (PICK[a]) box.appendChild(pickControl(a, legal));
  }
  if (row.childNodes.length) box.appendChild(row);
  if (betBox) box.appendChild(betBox);
  disableIfOffline(box);
}
function disableIfOffline(box) {
  if (S.online) return;
  box.querySelectorAll("button, input").forEach((b) => { b.disabled = true; });
}

function btn(action, text, onclick) {
  const b = el("button", "act", text);
  b.dataset.action = action;
  b.type = "button";
  b.onclick = onclick;
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

function betControl(a, legal, hand, t, row) {
  // at a stud bring-in the bet (or, facing the bring-in, the raise) completes it
  const word = legal.forced ? "Complete to" : (a === "bet" ? "Bet" : "Raise to");
  const key = a === "bet" ? "amount" : "to";
  if (legal.min_to === legal.max_to) {
    row.appendChild(btn(a, word + " " + legal.min_to, () => act({ kind: a, [key]: legal.min_to })));
    return null;
  }
  const b = btn(a, word + " " + legal.min_to, () => act({ kind: a, [key]: Number(num.value) }));
  row.appendChild(b);
  const wrap = el("div", "bet-control");
  const slider = el("input"); slider.type = "range"; slider.min = legal.min_to; slider.max = legal.max_to;
  slider.value = legal.min_to; slider.dataset.slider = a; slider.setAttribute("aria-label", "amount");
  const num = el("input"); num.type = "number"; num.min = legal.min_to; num.max = legal.max_to; num.value = legal.min_to;
  num.dataset.amount = a; num.setAttribute("aria-label", word + " amount"); num.inputMode = "numeric";
  const sync = (v) => { slider.value = v; num.value = v; b.textContent = word + " " + v; };
  slider.oninput = () => sync(slider.value);
  num.oninput = () => sync(num.value);
  const sizes = potSizes(legal, hand, t);
  const quick = el("span", "quick");
  const labels = t.config.structure === "fixed-limit" ? [["min", "min"], ["allin", "max"]]
    : [["min", "min"], ["half", "½ pot"], ["pot", "pot"], ["allin", t.config.structure === "no-limit" ? "all-in" : "max"]];
  for (const [k, label] of labels) {
    const q = el("button", "small quick-size", label); q.type = "button"; q.dataset.size = k;
    q.onclick = () => sync(sizes[k]);
    quick.appendChild(q);
  }
  wrap.append(quick, slider, num);
  return wrap;
}

function wildControl(legal) {
  const wrap = el("div", "wild-pick");
  wrap.appendChild(el("span", "prompt", "You pick the wild card: tap a pool card."));
  const cards = el("span", "cards");
  for (let i = 0; i < legal.positions; i++) {
    const c = cardEl(null, { small: true });
    c.classList.add("pickable");
    c.dataset.position = i;
    c.setAttribute("role", "button");
    c.onclick = () => act({ kind: "wild", position: i });
    cards.appendChild(c);
  }
  wrap.appendChild(cards);
  return wrap;
}

function pickControl(a, legal) {
  const wrap = el("div", "pick");
  const lo = legal.min_count, hi = legal.max_count;
  const need = lo === hi ? String(lo) : lo + "–" + hi;
  const tips = {
    discard: "Tap " + need + " of your cards to throw into the pool",
    expose: "Tap the card to turn face up",
    draw: "Tap up to " + hi + " cards to replace from the pool (none: stand pat)",
    stack: "Tap your cards in the order they roll up (first = first up)",
  };
  wrap.appendChild(el("span", "prompt", tips[a] + " — chosen: " + S.selected.length));
  const ok = S.selected.length >= lo && S.selected.length <= hi && S.selected.every((c) => legal.cards.includes(c));
  const label = a === "draw" && S.selected.length === 0 ? "Stand pat" : PICK[a] + (S.selected.length ? " (" + S.selected.length + ")" : "");
  const b = btn(a, label, () => {
    if (a === "expose") act({ kind: "expose", card: S.selected[0] });
    else act({ kind: a, cards: S.selected.slice() });
  });
  b.id = "confirm";
  b.dataset.min = lo;
  b.dataset.max = hi;
  b.disabled = !ok;
  const row = el("div", "actions");
  row.appendChild(b);
  if (a === "stack" && !S.selected.length && S.state.hand) {
    // The order the cards are in now is a legal choice too (R-521-6).
    const hs = S.state.hand.seats[S.state.you.seat];
    const order = (hs ? hs.cards : []).filter((c) => legal.cards.includes(c));
    if (order.length >= lo && order.length <= hi) {
      row.appendChild(btn("stack-keep", "Keep this order", () => act({ kind: "stack", cards: order })));
    }
  }
  if (S.selected.length) {
    const clr = el("button", "small", "clear"); clr.type = "button";
    clr.onclick = () => { S.selected = []; rerender(); };
    row.appendChild(clr);
  }
  wrap.appendChild(row);
  return wrap;
}
