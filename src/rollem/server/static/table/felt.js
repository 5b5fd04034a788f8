// The felt: the status line, the opponents' seats (name, stack, bet, tags,
// cards, clock) and the middle (board, dead cards, pool, wild rank, pot).
import { cardEl, GAME_NAME, RANK_NAME, RANK_TEXT, SUIT_SYMBOL } from "/static/cards.js";
import { $, el, hooks, S, seatName, seatWord } from "./state.js";
import { breakText, placeWords, putBreakText } from "./tourney.js";

export const DECISION_WORD = { bet: "betting", discard: "discard to the pool", expose: "turn a card up",
  draw: "draw", wild: "pick the wild card", stack: "roll-up order", declare: "declare",
  run_twice: "run it twice?" };
export function renderStatus(t, hand, me) {
  const box = $("status");
  const parts = statusParts(t, hand, me);
  const key = JSON.stringify(parts);
  if (box.dataset.key === key) return;   // (unchanged: nothing drawn again)
  box.dataset.key = key;
  // The same parts with other words (the seat to act: at each action) change
  // their text alone, no element made anew (issue 26).
  const kids = box.children;
  if (kids.length === parts.length && parts.every(([tag, cls], k) =>
    kids[k].tagName === tag.toUpperCase() && kids[k].className === (cls || ""))) {
    parts.forEach(([, cls, text], k) => {
      if (cls === "break-left") putBreakText(kids[k], text);
      else if (kids[k].textContent !== text) kids[k].textContent = text;
    });
    return;
  }
  box.innerHTML = "";
  for (const [tag, cls, text] of parts) {
    const part = el(tag, cls, cls === "break-left" ? null : text);
    if (cls === "break-left") putBreakText(part, text);   // (wrapping between its phrases only)
    box.appendChild(part);
  }
}
// The status line as [tag, class, text] parts.
function statusParts(t, hand, me) {
  if (t.paused) return [["b", "paused", t.paused]];  // saving failed: the server says so in plain words
  let text = "";
  // (the host reads what to do, not that someone is waited for: s70-felt)
  if (!t.started) text = me.host && !t.ended ? "Waiting for you to deal: press Deal to start."
    : "Waiting for the host to deal.";
  else if (t.choice && t.choice.game) text = "Paused by the host; the next hand (" + (GAME_NAME[t.choice.game] || t.choice.game) + ") is dealt at resume.";
  else if (t.choice) text = (t.choice.seat === me.seat ? "You name the game"
    : seatName(t, t.choice.seat) + " names the game") + " (dealer's choice)…"
    + (t.host_paused ? " Paused by the host: their clock stands still until it resumes." : "");
  else if (!hand) text = t.host_paused ? "Paused by the host." : "Waiting for the next hand…";
  else if (hand.result) text = "Hand " + hand.hand_no + " is over.";
  // every player left all-in: the server deals the rest round by round (s61-table2)
  else if (!hand.to_act.length && !hand.pending) text = GAME_NAME[hand.game] + " · hand "
    + hand.hand_no + " · all-in: dealing the rest";
  else {
    // (everyone at once, more than three still to choose: how many, not every name;
    // ten names ran to four lines, over a wide screen's bottom tiles: s70-felt)
    const many = hand.simultaneous && hand.to_act.length > 3;
    const mine = hand.to_act.includes(me.seat);
    const who = many ? (mine ? "you and " + (hand.to_act.length - 1) + " others" : hand.to_act.length + " players")
      : hand.to_act.map((s) => (s === me.seat ? "you" : seatName(t, s))).join(", ");
    // a draw decision is always from the stub: new cards are dealt (issue 26)
    // and is named as the game file names it ("first draw", "second draw"), as the
    // terminal's title does
    const what = hand.pending === "draw" ? drawName(hand)
      : hand.pending && hand.pending !== "bet" ? DECISION_WORD[hand.pending] || hand.pending
      : (hand.round || "betting").replace(/_/g, " ");
    text = GAME_NAME[hand.game] + " · hand " + hand.hand_no + " · " + what + " · "
      + (hand.simultaneous ? "everyone at once: " : "to act: ") + who;
  }
  const parts = [["span", null, text]];
  // Between hands: when the next is dealt, counting down (the state's
  // `next_deal_at`, stop 53: it said only "Hand 1 is over." until the deal), or
  // that the host deals it at resume.
  const pause = t.tournament && t.tournament.break;
  if (pause && (!hand || hand.result)) parts.push(["span", "break-left", breakText(pause, t.config.structure)]);
  else if (t.started && !t.choice && (!hand || hand.result)) {
    if (t.next_deal_at) parts.push(["span", "next-deal", nextDealText(t)]);
    else if (t.host_paused && hand) parts.push(["span", "next-deal", "The next hand is dealt when the host resumes."]);
  }
  // Bomb pots (issue 27): the hand in play is one, or the host called one.
  if (hand && !hand.result && hand.options && hand.options.bomb_pot) {
    parts.push(["span", "tag bomb", "bomb pot: everyone antes " + hand.options.bomb_pot]);
  } else if (t.bomb_pot_next) {
    parts.push(["span", "tag bomb", "bomb pot next hand"]);
  }
  return parts;
}

// "Next hand in 3 s" (whole seconds, rounded up), then "Dealing the next hand…".
// (The clock skew is measured from a state's `now`, sent a moment before it
// arrived: the time left reads that moment long; a tenth of a second is taken
// off, so a 4 s pause starts at "4 s", not "5 s".)
function nextDealText(t) {
  const left = Number(t.next_deal_at) - (Date.now() / 1000 + S.clockSkew) - 0.1;
  return left > 0 ? "Next hand in " + Math.ceil(left) + " s" : "Dealing the next hand…";
}
// The countdown's text, each tick of the clocks (only where it is drawn).
function tickNextDeal() {
  const span = document.querySelector("#status .next-deal");
  const t = S.state && S.state.table;
  if (!span || !t || !t.next_deal_at) return;
  const text = nextDealText(t);
  if (span.textContent !== text) span.textContent = text;
}

export function winnersOf(result) {
  const out = {};
  if (!result) return out;
  for (const pot of result.pots || []) for (const s of Object.keys(pot.winners || {})) out[s] = true;
  return out;
}

// ------------------------------------------------------------- the seats
// Drawn again only where what it shows changed (issue 26: a phone at 4x slower
// spends its frames on styling, laying out and painting new elements): each
// seat keeps its tile from one state to the next, and the tile is patched part
// by part (its head, chips, label, winnings, tags, cards, shown hand), each part
// kept with a key of everything it shows and drawn again only when that key
// changes (a tile's clock and timer bar run on their own: markTurn).  So an
// action redraws the acting seat's label and chips, and a hand's end the
// showdown seats' cards and winnings, not every tile.
export function renderSeats(box, t, hand, mySeat, isReplay) {
  const n = t.seats.length;
  const winners = hand && hand.result ? winnersOf(hand.result) : {};
  const labels = isReplay ? {} : actionLabels(hand);
  const start = mySeat === null || mySeat < 0 ? 0 : mySeat + 1;
  const shown = [];
  for (let k = 0; k < n; k++) {
    const i = (start + k) % n;
    if (i === mySeat) continue;
    const dealt = hand && hand.seats[i] && hand.seats[i].dealt;
    if (t.seats[i].free && !dealt && isReplay) continue;
    shown.push(i);
  }
  // A wide screen: around an oval, your seat at the bottom (in the dock).
  const total = shown.length;
  const kept = box.tiles || new Map();   // seat -> {kind, node}, from the last drawing
  const tiles = new Map();
  const tt = t.tournament;
  const closed = Boolean(tt && tt.started && !tt.entries_open);
  // (a late entrant takes only a seat no entrant held; a tournament's seats are its
  // entrants': no seat change offered to them, s59-break)
  const shut = (i) => closed || Boolean(tt && tt.started && !(tt.entry_seats || []).includes(i));
  const nodes = shown.map((i, k) => {
    const s = t.seats[i];
    const dealt = hand && hand.seats[i] && hand.seats[i].dealt && !movedFrom(t, hand, i, isReplay);
    const empty = s.free && !dealt;
    // (an empty seat is a button to sit at while you watch, or to move to while you
    // sit (a seat change, stop 59), else a plain box; nobody sits down once a
    // tournament has started, its entrants fixed, nor at a table the host closed)
    const held = heldFor(t, i);
    // ("held:" while the hand it waits for is in play, "hnxt:" while the next is
    // being dealt, its game named: "after the next hand", s73-night)
    const kind = empty ? (closed || t.ended ? "closed"
      : held !== null ? (hand && !hand.result ? "held:" : "hnxt:") + held
      : mySeat === null ? (shut(i) ? "closed" : "free-button")
      : tt ? "closed" : "move-button") : "seat";
    const old = kept.get(i);
    let node = old && old.kind === kind ? old.node : null;
    if (!node) node = empty ? emptySeatEl(i, kind) : el("div", "seat");
    place(node, k, total);
    if (!empty) {
      patchSeat(node, t, hand, s, winners, labels, isReplay);
      // The turn (the acting mark, its clock and timer bar) is no part: it moves
      // by a class and one inserted clock, the tile kept (issue 26).
      markTurn(node, t, hand, s, isReplay);
    }
    tiles.set(i, { kind: kind, node: node });
    return node;
  });
  box.tiles = tiles;
  placeChildren(box, nodes);
  if (box.dataset.count !== String(total)) box.dataset.count = String(total);
}
// Whether seat `i`'s player of the last hand has since moved to another seat (a
// seat change at the hand's end, stop 59): their old seat is free, and reads free,
// not the hand's picture under their name (which is theirs at the new seat).
function movedFrom(t, hand, i, isReplay) {
  if (isReplay || !hand || !t.seats[i].free || !hand.names) return false;
  const name = hand.names[i];
  return !!name && t.seats.some((o) => !o.free && o.seat !== i && o.name === name);
}
// A tile's place: the `k`th of `total` around the oval (style variables, set
// only when its place changes).
function place(node, k, total) {
  const at = k + "/" + total;
  if (node.dataset.place === at) return;
  node.dataset.place = at;
  const a = Math.PI / 2 + (2 * Math.PI * (k + 1)) / (total + 1);
  node.style.setProperty("--x", (50 + 38 * Math.cos(a)).toFixed(1) + "%");
  node.style.setProperty("--y", (50 + 40 * Math.sin(a)).toFixed(1) + "%");
  // which point of the tile sits there: its top edge at the top of the oval (its
  // bottom edge at the bottom), its middle elsewhere; a tile taller than usual
  // (a wild card's words under a shown hand) at the top grows toward the
  // middle, never over the felt's edge (issue 26)
  const sin = Math.sin(a);
  node.style.setProperty("--ay", (0.5 + Math.sign(sin) * Math.max(0, Math.abs(sin) - 0.7) / 0.6).toFixed(2));
  // the way to the middle, where the seat's bet sits (in front of it), as a
  // point on the square around the tile's middle (the larger of --ux and --uy
  // is 1 or -1): the bet is drawn that far past the tile's edge, so it clears
  // its own tile however wide or tall the tile is (issue 26: a bet at a fixed
  // distance from the middle of a wide stud tile overlapped its corner)
  const m = Math.max(Math.abs(Math.cos(a)), Math.abs(sin));
  node.style.setProperty("--ux", (-Math.cos(a) / m).toFixed(2));
  node.style.setProperty("--uy", (-sin / m).toFixed(2));
}
// Make `node` (a seat's tile) show seat `s`: its classes set, its parts
// (seatParts) drawn again only where their key changed, in order, with the
// turn's clock and timer bar (markTurn's) left last.
function patchSeat(node, t, hand, s, winners, labels, isReplay) {
  const hs = hand ? hand.seats[s.seat] : null;
  if (node.dataset.seat !== String(s.seat)) node.dataset.seat = s.seat;
  const folded = !!(hs && hs.folded), won = !!winners[s.seat];
  if (node.classList.contains("folded") !== folded) node.classList.toggle("folded", folded);
  if (node.classList.contains("winner") !== won) node.classList.toggle("winner", won);
  const gone = !isReplay && goneOut(t, hand, s.seat);
  if (node.classList.contains("gone-out") !== gone) node.classList.toggle("gone-out", gone);
  const had = node.parts || {};
  const now = {};
  const kids = [];
  for (const [name, key, draw] of seatParts(t, hand, s, labels, isReplay)) {
    const old = had[name];
    const part = old && old.key === key ? old : { key: key, node: draw(old ? old.node : null) };
    now[name] = part;
    kids.push(part.node);
  }
  node.parts = now;
  const last = node.lastElementChild;
  if (last && last.classList.contains("timer") && last.previousElementSibling) {
    kids.push(last.previousElementSibling, last);
  }
  placeChildren(node, kids);
}
// A seat's chips: its stack, and its bet (if any) in front of it.  The line drawn
// before (`line`, else null: made) is kept and changed in place: the stack's text,
// the bet taken away or made anew (issue 26: the line made again at each bet, and
// at a hand's end at every seat, was two elements more styled and laid out a seat).
function chipsLine(line, seat, stack, bet) {
  if (!line) {
    line = el("div", "chips");
    line.appendChild(el("span", "stack", String(stack)));
  } else if (line.firstElementChild.textContent !== String(stack)) {
    line.firstElementChild.textContent = String(stack);
  }
  const had = line.children[1] || null;
  if (had && Number(had.dataset.amount) === bet) return line;
  if (had) had.remove();
  if (bet) line.appendChild(betChips(seat, bet));
  return line;
}
// A seat's tile in parts, [name, key, draw(node drawn before or null)], in the order
// shown (a part's draw makes its element; the chips' may change the one before): the head (name,
// dealer button), chips (stack, bet), the last action's label, what it won, its
// tags, its cards (a folded seat: the face-up cards it had), the hand it showed.
// A part's key is everything it shows (a hand's number where a new hand must draw
// it again: its label's fade starts on a new element; a row of cards the same
// from one hand to the next is kept, motion.js starts its deal on it again).
function seatParts(t, hand, s, labels, isReplay) {
  const hs = hand ? hand.seats[s.seat] : null;
  const no = hand ? hand.hand_no : null;
  const parts = [];
  // A seat freed since its player was dealt in is still named as it was dealt (not
  // "seat 1"); a newcomer sitting there already is named (the host sees who sat down).
  const name = (s.free && hand && hand.names && hand.names[s.seat]) || s.name || seatWord(s.seat);
  const button = buttonSeat(t, hand, isReplay) === s.seat;
  parts.push(["head", name + "|" + button, () => {
    const head = el("div", "seat-head");
    head.appendChild(el("b", "name", name)).title = name;
    if (button) head.appendChild(el("span", "button-chip", "D"));
    return head;
  }]);
  // Once the hand is over the table's stacks include what the pot paid.
  const stack = shownStack(s, hand, hs, isReplay);
  const bet = hs && hs.bet && !hand.result ? hs.bet : 0;
  parts.push(["chips", stack + "|" + bet, (line) => chipsLine(line, s.seat, stack, bet)]);
  const label = labels[s.seat] || null;
  // (a seat with no chips, not dealt in, has no last action: no empty line for one,
  // s61-table: "Bob / ● 0 / (blank) / 3rd" once busted)
  const out = !label && !(hs && hs.dealt) && !s.free && s.stack === 0;
  parts.push(["label", no + "|" + (label ? label.kind + "|" + label.text : "") + (out ? "|out" : ""), () => {
    const e = labelEl(label);
    if (out) e.classList.add("out");
    return e;
  }]);
  const won = wonBy(hand, s.seat);
  if (won.length) parts.push(["won", JSON.stringify(won), () => wonEl(won)]);
  const tags = tagsFor(t, hand, s, s.seat, isReplay);
  if (tags.length) {
    parts.push(["tags", JSON.stringify(tags), () => {
      const tl = el("div", "tags");
      for (const [cls, text] of tags) tl.appendChild(el("span", "tag " + cls, text));
      return tl;
    }]);
  }
  const wild = hand ? hand.wild_ranks || null : null;
  if (hs && hs.cards.length) {
    // (no hand number in its key: a new hand's row of backs, at a seat whose row
    // was backs, is the same row kept, not made again: motion.js moves it in anew;
    // issue 26, a new hand's frame at 10 seats)
    parts.push(["cards", JSON.stringify([hs.cards, hs.up, wild]), () => cardsOf(hand, hs, true)]);
  } else if (hs && hs.folded) {
    // A folded player's face-up cards stay on the table, dimmed (from the public events).
    const up = faceUpCards(hand, s.seat);
    if (up.length) {
      parts.push(["cards", JSON.stringify([no, "folded", up, wild]), () => {
        const row = cardsOf(hand, { cards: up, up: up.map(() => true) }, true);
        row.classList.add("folded-cards");
        return row;
      }]);
    }
  }
  // a hand shown at the showdown, or its whole shown by choice after the end (the
  // narration's words, as the result panel names it; stop 54: the tile named none)
  const shown = hand && hand.result ? shownWords(hand.result, s.seat)
    || (hand.by_choice_words || {})[s.seat] : null;
  if (shown) {   // ("(wild 2♥ plays as 4♥)": the cards drawn as the log draws them)
    parts.push(["described", shown, () => {
      const d = el("div", "described");
      textWithCards(d, shown);
      return d;
    }]);
  }
  return parts;
}
// Make `nodes` the children of `box`, in order, touching only those that differ
// (a node already in its place is left alone: no new style, layout or paint).
export function placeChildren(box, nodes) {
  nodes.forEach((node, k) => {
    const here = box.children[k];
    if (here === node) return;
    if (here && !nodes.includes(here)) box.replaceChild(node, here);
    else box.insertBefore(node, here || null);
  });
  while (box.children.length > nodes.length) box.lastElementChild.remove();
}
// Whose turn it is, on a seat's tile: the "acting" class, and its decision clock
// and timer bar (the last two children) while the seat has a deadline.  A tile
// that gains or loses the turn is kept; only these change.
function markTurn(box, t, hand, s, isReplay) {
  const acting = !isReplay && !!hand && hand.to_act.includes(s.seat) && !hand.result;
  if (box.classList.contains("acting") !== acting) box.classList.toggle("acting", acting);
  const clock = box.lastElementChild && box.lastElementChild.classList.contains("timer")
    ? box.lastElementChild.previousElementSibling : null;
  const want = !isReplay && s.acting && s.deadline;
  if (!want) {
    if (clock) { clock.nextElementSibling.remove(); clock.remove(); }
    return;
  }
  if (!clock) { box.append(clockEl(s), timerBar(s, t)); return; }
  const bar = clock.nextElementSibling;
  const total = String((t.config && t.config.decision_seconds) || 30);
  if (clock.dataset.deadline !== String(s.deadline) || clock.dataset.bank !== String(s.bank)
      || bar.dataset.total !== total) {
    clock.dataset.deadline = s.deadline; clock.dataset.bank = s.bank;
    bar.dataset.deadline = s.deadline; bar.dataset.total = total;
    updateClock(clock); updateTimer(bar);
  }
}
// The name of the player whose seat change waits for the hand's end to move to
// seat `i` (the state's seat_changes: mover's seat -> seat), or null.
function heldFor(t, i) {
  for (const [from, to] of Object.entries(t.seat_changes || {})) {
    if (to === i) return seatName(t, Number(from));
  }
  return null;
}
function emptySeatEl(i, kind) {
  const button = kind === "free-button" || kind === "move-button";
  const words = kind === "closed" ? " — empty" : kind === "free-button" ? " — free: tap to sit"
    : kind === "move-button" ? " — free: move here"
    : " — " + kind.slice(5) + (kind.startsWith("held:") ? "'s after this hand" : "'s after the next hand");
  const empty = el(button ? "button" : "div", "seat empty", "Seat " + (i + 1) + words);
  empty.dataset.seat = i;
  if (button) {
    empty.type = "button";
    empty.dataset.action = kind === "move-button" ? "move-seat" : "take-seat";
    empty.onclick = () => { if (kind === "move-button") hooks.moveSeat(i); else hooks.takeSeat(i); };
  }
  return empty;
}
// The draw in play as the game file names it (its draw_round event: "second draw").
function drawName(hand) {
  let name = null;
  for (const e of hand.events || []) if (e.kind === "draw_round" && e.draw) name = e.draw;
  return name || DECISION_WORD.draw;
}
// Every draw of the seat in this hand, in order: the cards it threw each time.
export function drewCounts(hand, seat) {
  if (!hand) return [];
  const out = [];
  for (const e of hand.events) if (e.kind === "draw" && e.seat === seat) out.push(e.count !== undefined ? e.count : (e.cards || []).length);
  return out;
}
// The seat's draws in the narration's words (rollem.narration.felt._drew), past:
// "drew 2", "stood pat", "drew 2, then 1", "stood pat, then drew 1", "stood pat
// twice" (issue 26: the tag said only the last draw, "drew 1" beside "drew 2, then 1").
export function drewWords(counts) {
  if (!counts.length) return null;
  if (counts.length === 1) return counts[0] ? "drew " + counts[0] : "stood pat";
  if (!counts.some((k) => k)) return counts.length === 2 ? "stood pat twice" : "stood pat " + counts.length + " times";
  const words = [counts[0] ? "drew " + counts[0] : "stood pat"];
  for (const k of counts.slice(1)) words.push(!k ? "then stood pat" : counts[0] ? "then " + k : "then drew " + k);
  return words.join(", ");
}
export function faceUpCards(hand, seat) {
  const out = [];
  for (const e of hand.events || []) {
    if (e.seat !== seat) continue;
    if (e.kind === "deal_up" && e.cards) out.push(...e.cards);
    else if ((e.kind === "expose" || e.kind === "roll") && e.card) out.push(e.card);
  }
  return [...new Set(out)];
}
// Each seat's declared side (read once a hand state: every seat's tags ask).
const declaredOf = new WeakMap();
export function declaredBy(hand) {
  if (!hand) return {};
  let out = declaredOf.get(hand);
  if (!out) {
    out = {};
    for (const e of hand.events) if (e.kind === "declare" && e.side) out[e.seat] = e.side;
    declaredOf.set(hand, out);
  }
  return out;
}
export function isWild(hand, card) {
  return !!(card && hand && hand.wild_ranks && hand.wild_ranks.includes(card[0]));
}
// Someone who sat down during this hand: not dealt in, waiting for the next deal
// (not one sitting out or waiting for the host's approval: those have their own
// tag; nor one without chips, who is offered a rebuy).
export function joinsNextHand(t, hand, n) {
  const s = t.seats[n], hs = hand ? hand.seats[n] : null;
  // (only while the hand is in play: once it is over the tag would be stale; not
  // a seat waiting for the big blind: "waits for the big blind" says when, s74-night)
  return !!(hand && !hand.result && s && !s.free && s.stack > 0 && !(hs && hs.dealt)
    && !(t.sitting_out || []).includes(n) && !(t.waiting || []).includes(n)
    && !(t.bb_wait || []).includes(n));
}
// The stack to show: during a hand a dealt-in player's stack in it; otherwise (not
// dealt in, or the hand is over and paid) the table's; a replay shows the hand's.
// The seat the dealer button ("D") is drawn at: while the next hand's game is named
// (a dealer's choice) or its deal waits for the client seeds, the table state's
// button -- the seat that deals it, the chooser (s66-table: it stayed on the last
// hand's button) -- else the hand's; none before a hand or a choice.
export function buttonSeat(t, hand, isReplay) {
  if (!isReplay && (t.choice || t.deal) && t.button !== null && t.button !== undefined) return t.button;
  return hand ? hand.button : null;
}
export function shownStack(s, hand, hs, isReplay) {
  if (isReplay) return hs.stack;
  return hs && hs.dealt && !(hand.result && s.stack !== undefined) ? hs.stack : s.stack;
}
// Whether the seat's chips changed since `hand` ended (a rebuy, the host's top-up):
// over, the hand's stack (paid) differs from the table's.
export function rebuiltSince(hand, hs, seatInfo, isReplay) {
  return !isReplay && !!(hand && hand.result) && seatInfo.stack !== undefined
    && seatInfo.stack !== hs.stack;
}
// A tournament entrant's standing on its tile (stop 59: a busted friend's tile read
// "0" like an all-in one, the place only in the panel above the felt): "out · 6th"
// once placed, "busted · may rebuy" while they may buy in again, "out" while a rebuy
// may still move their place; at the end every entrant's place and prize
// ("1st · prize 61": not "wins", the word of a pot won).  Not while the seat plays
// the hand in progress.
export function tourneyOut(t, hand, hs, n) {
  const tt = t.tournament;
  if (!tt || !tt.started || !(tt.entrants || []).includes(n)) return null;
  const place = (tt.places || {})[String(n)];
  if (tt.over) {
    const won = tt.payouts ? tt.payouts[String(n)] : 0;
    return place ? placeWords(tt, place) + (won ? " · prize " + won : "") : null;
  }
  if ((tt.left || []).includes(n) || (hand && !hand.result && hs && hs.dealt)) return null;
  if (place) return "out · " + placeWords(tt, place);
  return (tt.may_rebuy || []).includes(n) ? "busted · may rebuy" : "out";
}
// A tournament entrant out for good (no rebuy to come) and not dealt into the hand
// on the felt: the hand they busted in is over and the next one dealt without
// them.  A phone's felt leaves their tile out (style.css: s62-table2, the busted
// kept a third of a row each, where Poker Now empties the seat; the panel's head
// says how many are left, its places who went out); a wide screen's oval keeps it,
// "out · 4th", in its place.  At the end every entrant's tile is back with its place.
export function goneOut(t, hand, n) {
  const tt = t.tournament;
  if (!tt || !tt.started || tt.over || !(tt.entrants || []).includes(n)) return false;
  if ((tt.left || []).includes(n) || (tt.may_rebuy || []).includes(n)) return false;
  return !(hand && hand.seats[n] && hand.seats[n].dealt);
}
export function tagsFor(t, hand, seatInfo, n, isReplay) {
  const hs = hand ? hand.seats[n] : null;
  const tags = [];
  // (at the table the seat's label says "folds": a replay draws no labels)
  if (hs && hs.folded && isReplay) tags.push(["folded", "folded"]);
  // all-in: in the hand, and once it is over while the stack is still what the hand
  // left (a rebuy or the host's top-up since: a new stack, no last hand's tag), but
  // not once it left none: "0" beside "all-in" said twice that the chips are gone
  // (s63-table the dock, s63-table2 the felt's tile, which every other page shows)
  const out = isReplay ? null : tourneyOut(t, hand, hs, n);
  const broke = !isReplay && !!(hand && hand.result) && seatInfo.stack === 0;
  if (out) tags.push(["out", out]);
  else if (hs && hs.all_in && hs.dealt && !broke && !rebuiltSince(hand, hs, seatInfo, isReplay)) tags.push(["allin", "all-in"]);
  // one "away" a seat: timed out (the clock acts at once for them) says it all, with
  // their page closed or not (stop 56: "away" above "away (timed out)" on one tile)
  const timedOut = !isReplay && t.idle_away && t.idle_away.includes(n);
  if (!isReplay && seatInfo.away && !timedOut) tags.push(["away", "away"]);
  if (timedOut) tags.push(["away", "away (timed out)"]);
  else if (!isReplay && t.sitting_out && t.sitting_out.includes(n)) tags.push(["away", "sitting out"]);
  if (!isReplay && t.waiting && t.waiting.includes(n)) tags.push(["away", "waiting"]);
  // (its player left since the hand shown was dealt: the tile keeps that hand's
  // picture until the next deal, and said nothing of it, s74-night)
  if (!isReplay && seatInfo.free && hs && hs.dealt) tags.push(["away", "left"]);
  // (a seat change that would have skipped the blinds: out until the big blind comes, s73-blinds)
  if (!isReplay && t.bb_wait && t.bb_wait.includes(n)) tags.push(["away", "waits for the big blind"]);
  if (!isReplay && joinsNextHand(t, hand, n)) tags.push(["away", "joins next hand"]);
  const side = declaredBy(hand)[n];
  if (side) tags.push(["declared", "declared " + side]);
  // what the seat drew, every draw; not while its label says it ("draws 2", "drew 2, then 1")
  const drew = drewWords(drewCounts(hand, n));
  const label = hand && !isReplay ? actionLabels(hand)[n] : null;
  if (drew !== null && !(label && label.kind === "draw")) tags.push(["drew", drew]);
  if (!isReplay && t.host_seat === n) tags.push(["host", "host"]);
  return tags;
}
export function cardsOf(hand, hs, small) {
  const row = el("span", "cards" + (small ? " mini" : ""));
  hs.cards.forEach((c, i) => row.appendChild(cardEl(c, { up: hs.up[i], small: small, wild: isWild(hand, c) })));
  return row;
}

export function clockEl(s) {
  const c = el("div", "clock");
  c.dataset.deadline = s.deadline;
  c.dataset.bank = s.bank;
  updateClock(c);
  return c;
}
// A bar under the acting seat that empties as its decision clock runs down
// (the time bank, once reached, is the clock's text alone).
export function timerBar(s, t) {
  const bar = el("div", "timer");
  bar.dataset.deadline = s.deadline;
  bar.dataset.total = String((t.config && t.config.decision_seconds) || 30);
  bar.setAttribute("aria-hidden", "true");
  bar.appendChild(el("span", "timer-fill"));
  updateTimer(bar);
  return bar;
}
function updateTimer(bar) {
  const left = Number(bar.dataset.deadline) - (Date.now() / 1000 + S.clockSkew);
  const frac = Math.max(0, Math.min(1, left / Number(bar.dataset.total)));
  const value = frac.toFixed(3);
  if (bar.style.getPropertyValue("--left") !== value) bar.style.setProperty("--left", value);
  if (bar.classList.contains("low") !== left < 10) bar.classList.toggle("low", left < 10);
}
function updateClock(c) {
  const now = Date.now() / 1000 + S.clockSkew;
  const left = Number(c.dataset.deadline) - now;
  const bank = Number(c.dataset.bank);
  const text = left > 0 ? "clock " + Math.ceil(left) + "s" + (bank > 0 ? " +" + Math.round(bank) + "s bank" : "")
    : "bank " + Math.max(0, Math.ceil(bank + left)) + "s";
  // (set only when it changes: the clocks tick four times a second, and each new
  // text is a style, layout and paint of the page; issue 26)
  if (c.textContent !== text) c.textContent = text;
  if (c.classList.contains("low") !== left < 10) c.classList.toggle("low", left < 10);
}
export function startClocks() {
  setInterval(() => {
    document.querySelectorAll(".clock").forEach(updateClock);
    document.querySelectorAll(".timer").forEach(updateTimer);
    tickNextDeal();
  }, 250);
}

// ------------------------------------------------------------ the middle
// viewer: the seat whose page it is (null: a watcher), named "you" in each run's
// winners of a hand run twice.
export function renderCenter(box, hand, t, viewer = null) {
  if (!hand) { box.innerHTML = ""; box.parts = null; return; }
  // Two parts, each drawn again only when what it shows changed (issue 26): the
  // cards (board, dead cards, pool, wild rank) and the pots (at every bet).
  const was = box.parts || {};
  const cardsKey = JSON.stringify([hand.hand_no, hand.game, hand.board, hand.dead, hand.pool,
    hand.my_pool, hand.pool ? hand.seats.map((st) => st && st.cards) : null, hand.wild_ranks,
    // (a hand's end changes the cards only when it was run twice: no redrawing else)
    hand.result && hand.result.runs && hand.result.runs.length
      ? [hand.result.runs, (t || S.state.table).seats.map((st) => [st.free, st.name])] : null,
    hand.runs_dealt || null, viewer]);
  const potsKey = JSON.stringify([box.id, hand.result ? [hand.result.pots, hand.result.carried]
    : [potTotal(hand), hand.pots]]);
  const cards = was.cardsKey === cardsKey ? was.cards : centerCards(hand, t, viewer);
  const pots = was.potsKey === potsKey ? was.pots : potsEl(box, hand);
  box.parts = { cardsKey: cardsKey, cards: cards, potsKey: potsKey, pots: pots };
  placeChildren(box, [...cards, pots]);
}
// The middle's cards: [mid-cards, wild rank], each only when there is one.
function centerCards(hand, t, viewer) {
  const out = [];
  // (runs_dealt: a replay's step that dealt both runs before the result paid them)
  const runs = hand.result && hand.result.runs && hand.result.runs.length ? hand.result.runs
    : hand.runs_dealt || null;
  const dead = hand.dead || [];
  const cardsRowW = (cards, small) => {
    const row = el("span", "cards");
    for (const c of cards) row.appendChild(cardEl(c, { up: true, small: small, wild: isWild(hand, c) }));
    return row;
  };
  const mid = el("div", "mid-cards");
  if (runs) {
    // Run twice (issue 27): each run's cards and who won its half of each pot.
    mid.classList.add("runs");
    runs.forEach((run, k) => mid.appendChild(runEl(run, k, t || S.state.table, cardsRowW, viewer)));
  } else if (hand.game === "sdr") {
    const names = ["Stop", "Drop"];
    dead.forEach((c, i) => {
      const slot = el("div", "slot dead-slot");
      // (stop 72: "Stop" alone did not say the card plays in no hand, R-SDR-6)
      slot.appendChild(el("div", "label", (names[i] ? names[i] + " · " : "") + "dead"));
      slot.appendChild(cardsRowW([c], false));
      mid.appendChild(slot);
    });
    if (hand.board.length) {
      const slot = el("div", "slot roll");
      slot.appendChild(el("div", "label", "the Roll"));
      slot.appendChild(cardsRowW(hand.board, false));
      mid.appendChild(slot);
    }
  } else {
    if (dead.length) {
      const slot = el("div", "slot");
      // In Roll Your Own the only card turned up is the wild card (R-RYO-7).
      const label = hand.game === "rollyourown" && hand.wild_ranks && hand.wild_ranks.length
        ? "wild card" : "dead";
      slot.appendChild(el("div", "label", label));
      slot.appendChild(cardsRowW(dead, false));
      mid.appendChild(slot);
    }
    if (hand.board.length) mid.appendChild(cardsRowW(hand.board, false));
  }
  if (hand.pool) {
    const slot = el("div", "slot pool");
    slot.appendChild(el("div", "label", "pool: " + hand.pool + (hand.pool === 1 ? " card" : " cards")));
    const backs = el("span", "cards mini");
    for (let i = 0; i < Math.min(hand.pool, 12); i++) backs.appendChild(cardEl(null, { small: true }));
    slot.appendChild(backs);
    // Only your discards that may still be in the pool: not those seen
    // since (drawn back, turned as the wild card, face up anywhere, a folded
    // hand's too: its seat holds no cards then, its face-up cards were seen).
    const seen = new Set([...(hand.dead || []), ...(hand.board || [])]);
    (hand.seats || []).forEach((st, i) => {
      (st && st.cards || []).forEach((c) => c && seen.add(c));
      if (st && st.folded) faceUpCards(hand, i).forEach((c) => seen.add(c));
    });
    const mine = (hand.my_pool || []).filter((c) => !seen.has(c));
    if (mine.length) {
      // (issue 26: "yours maybe in the pool" said neither what nor why)
      slot.appendChild(el("div", "label", "your discards, maybe still in the pool:"));
      slot.appendChild(cardsRowW(mine, true));
    }
    mid.appendChild(slot);
  }
  if (mid.childNodes.length) out.push(mid);
  if (hand.wild_ranks && hand.wild_ranks.length) {
    // the narration's words: "twos wild", as in "(twos wild)" and "Twos are wild."
    out.push(el("div", "wild-rank", hand.wild_ranks.map((r) => RANK_NAME[r] || r).join(" and ") + " wild"));
  }
  return out;
}
// The pots: this hand's total (its bets included) and side pots, or what was paid.
function potsEl(box, hand) {
  const pots = el("div", "pots");
  if (box.id === "center") pots.id = "pots";
  if (hand.result) {
    // The hand is over: the pot has been paid out (bets cleared), say so.
    const paid = (hand.result.pots || []).reduce((n, p) => n + (p.amount || 0), 0);
    pots.appendChild(el("span", "pot", "pot " + paid + " awarded"));
    if (hand.result.carried) pots.appendChild(el("span", null, " · " + hand.result.carried + " carried to the next hand"));
  } else {
    // Every chip in the hand: the middle and this round's bets in front of the seats.
    const total = potTotal(hand);
    const pot = el("span", "pot pot-total", "pot " + total);
    pot.dataset.total = String(total);
    pots.appendChild(pot);
    if (hand.pots && hand.pots.length > 1) {
      const side = el("div", "side-pots");
      hand.pots.forEach((p, i) => side.appendChild(el("span", "pot side-pot", (i ? "side pot " + i + ": " : "main pot ") + p.amount)));
      pots.appendChild(side);
    }
  }
  return pots;
}

// One run of a hand run twice: "Run 1", its dead cards (the Stop and the Drop
// in Stop, Drop and Roll) and board, and each winner's chips from that run (once
// paid: a replay's step before the result has the boards alone), the viewer "you".
function runEl(run, k, t, cardsRowW, viewer) {
  const slot = el("div", "slot run");
  slot.dataset.run = String(k + 1);
  slot.appendChild(el("div", "label", "Run " + (k + 1)));
  const row = el("div", "run-cards");
  if (run.dead && run.dead.length) row.appendChild(cardsRowW(run.dead, true)).classList.add("run-dead");
  row.appendChild(cardsRowW(run.board || [], false));
  slot.appendChild(row);
  const won = {};
  for (const pot of run.pots || []) {
    for (const [s, c] of Object.entries(pot.winners || {})) won[s] = (won[s] || 0) + c;
  }
  // (stop 73: the viewer by name, "Ann +198" on Ann's own page, where the rest of
  // it says "you": "you +198")
  const who = Object.entries(won).map(([s, c]) => (viewer != null && Number(s) === viewer
    ? "you" : seatName(t, Number(s))) + " +" + c);
  if (run.pots) slot.appendChild(el("div", "run-winners", who.length ? who.join(", ") : "nobody"));
  return slot;
}

// ------------------------------------------------- chips, labels, winnings
// The pot a player reads: every chip committed in the hand (the middle, carry
// included, and the bets still in front of the seats).
export function potTotal(hand) {
  return (hand.pot || 0) + (hand.seats || []).reduce((n, st) => n + ((st && st.bet) || 0), 0);
}

// A seat's bet as a stack of chips in front of it (up to five chips drawn).
export function betChips(seat, amount) {
  const b = el("span", "bet bet-chips");
  b.dataset.seat = seat;
  b.dataset.amount = amount;
  b.setAttribute("aria-label", "bet " + amount);
  const stack = el("span", "chip-stack");
  stack.setAttribute("aria-hidden", "true");
  const n = Math.min(5, 1 + Math.floor(Math.log2(Math.max(1, amount))));
  for (let i = 0; i < n; i++) stack.appendChild(el("span", "chip"));
  b.append(stack, el("span", "bet-amount", String(amount)));
  return b;
}

// Each seat's last action, as a few words ("raises to 9", "draws 2"): the
// server's hand.last_actions when it sends them, else read from the hand's
// events.  A new round clears the betting words; what a seat did with its cards
// ("draws 2", "turns up 9♥", "rolls up K♥") and a fold stay until its next action,
// but a draw's words go when the next draw starts: a label belongs to the decision
// in progress, and the seat's tag still says every draw ("stood pat, then drew 1").
const KEPT_LABELS = new Set(["fold", "muck", "show", "draw", "discard", "expose", "stack", "roll",
  "wild", "declare"]);
// (Worked out once a hand state: the seats, your seat, the motion code and the
// announcements all read it at each state; issue 26, less garbage per state.
// Callers read it, never change it.)
const labelsOf = new WeakMap();
export function actionLabels(hand) {
  if (!hand) return {};
  let out = labelsOf.get(hand);
  if (!out) { out = labelsFrom(hand); labelsOf.set(hand, out); }
  return out;
}
function labelsFrom(hand) {
  // A new round, draw or all-at-once step clears the betting labels; the words are
  // the server's when it says (hand.last_actions), else here.
  // A blind is posted before the first round opens: its label ("big blind 2")
  // stays through that opening, until the seat's next action.
  const out = {};
  let opened = false;
  for (const e of hand.events || []) {
    if (e.kind === "round" || e.kind === "choose" || e.kind === "draw_round") {
      const drawing = e.kind === "draw_round";
      for (const k of Object.keys(out)) {
        if ((!KEPT_LABELS.has(out[k].kind) && !(out[k].kind === "blind" && !opened))
          || (drawing && out[k].kind === "draw")) delete out[k];
      }
      opened = true;
      continue;
    }
    const label = labelOf(e);
    if (label && e.seat !== null && e.seat !== undefined) out[e.seat] = label;
  }
  const words = hand.last_actions;
  if (words) {
    for (const k of Object.keys(out)) if (words[k]) out[k] = words[k];
  }
  return out;
}
// (exported for the replayer's line of a step's action)
export function labelOf(e) {
  const allIn = e.all_in ? " (all-in)" : "";
  const n = (k) => (k === 1 ? "1 card" : k + " cards");
  switch (e.kind) {
    case "check": return { kind: "check", text: "checks" };
    case "call": return { kind: e.all_in ? "all-in" : "call", text: "calls " + e.amount + allIn };
    case "bet":
      if (e.bring_in) return { kind: "bring-in", text: "brings in for " + e.to };
      return { kind: e.all_in ? "all-in" : "bet", text: "bets " + e.to + allIn };
    case "raise": return { kind: e.all_in ? "all-in" : "raise", text: "raises to " + e.to + allIn };
    case "blind": return { kind: "blind", text: (e.blind || "blind") + " " + e.amount + allIn };
    case "fold": return { kind: "fold", text: "folds" };
    case "draw": {
      const k = e.count !== undefined ? e.count : (e.cards || []).length;
      return { kind: "draw", text: k ? "draws " + k : "stands pat" };
    }
    case "discard": return { kind: "discard", text: "puts " + n(e.count !== undefined ? e.count : (e.cards || []).length) + " in the pool" };
    case "pool_draw": return { kind: "draw", text: "draws from the pool" };
    case "expose": return { kind: "expose", text: "turns up a card" };
    case "stacked": return { kind: "stack", text: "sets the roll-up order" };
    case "roll": return { kind: "roll", text: "rolls up a card" };
    case "wild": return { kind: "wild", text: "picks the wild card" };
    case "declare": return { kind: "declare", text: e.side ? "declares " + e.side : "declares" };
    case "chose": return { kind: e.step === "stack" ? "stack" : e.step || "chose", text: "has chosen" };
    case "show": return { kind: "show", text: "shows" };
    case "muck": return { kind: "muck", text: "mucks" };
    default: return null;
  }
}
export function labelEl(label) {
  const e = el("div", "action-label" + (label ? "" : " none"));
  if (label) {
    textWithCards(e, label.text);   // "turns up 9♥", with the log's card symbols
    e.dataset.kind = label.kind;
    e.dataset.text = label.text;    // the words as sent ("turns up 9h"), to compare
  }
  return e;
}
// Narration text with its cards (short text such as "Qh") drawn as rank and suit
// ("Q♥"): the log, the results, the seat labels and your hand's name alike.
// A seat's hand in words at the result: the narration's, or at a hand run twice
// each run's ("run 1: jacks full of threes; run 2: king high, ...") as the result
// panel lists them (stop 55: the seat's tile and your own hand named run 1's alone,
// a run the player may have lost); null when nothing of it was shown.
export function shownWords(result, seat) {
  if (!result) return null;
  const runs = result.runs && result.runs.length ? result.runs : null;
  const each = runs ? runs.map((r) => (r.shown || {})[seat]) : [];
  if (each.some(Boolean)) return each.map((w, k) => "run " + (k + 1) + ": " + (w || "–")).join("; ");
  return (result.shown || {})[seat] || null;
}
export function textWithCards(box, text) {
  const re = /\b([2-9TJQKA])([cdhs])\b/g;
  let at = 0, m;
  while ((m = re.exec(text)) !== null) {
    if (m.index > at) box.appendChild(document.createTextNode(text.slice(at, m.index)));
    const red = m[2] === "h" || m[2] === "d";
    const c = el("span", "inline-card " + (red ? "red" : "black"), (RANK_TEXT[m[1]] || m[1]) + SUIT_SYMBOL[m[2]]);
    c.dataset.card = m[0];
    box.appendChild(c);
    at = m.index + m[0].length;
  }
  if (at < text.length) box.appendChild(document.createTextNode(text.slice(at)));
}
// The same text with its cards as rank and suit ("J♦ 7♣"), as one string: what
// textWithCards' drawing reads as, for text nobody sees (the live region,
// panels.js announce: a line a card span each was restyled and laid out in the
// state's frame, 17 lines at a 10-seat hand's end; issue 26).
export function cardsAsText(text) {
  return text.replace(/\b([2-9TJQKA])([cdhs])\b/g, (m, r, s) => (RANK_TEXT[r] || r) + SUIT_SYMBOL[s]);
}


// What a seat won of the pots just paid, each half apart: [{half, amount, pot}].
// pot: the pot's name as the result says it ("main pot", "side pot 1") where the
// hand had more than one, else null (stop 54: two "wins 22 (high)" and "wins 7
// (high)" on one seat said which half but not which pot).
export function wonBy(hand, seat) {
  const out = [];
  if (!hand || !hand.result) return out;
  const pots = hand.result.pots || [];
  const all = wholeOfEveryPot(pots, seat);
  if (all) return [all];
  pots.forEach((pot, i) => {
    const name = pots.length > 1 ? (i ? "side pot " + i : "main pot") : null;
    const split = pot.high && pot.low && Object.keys(pot.high).length && Object.keys(pot.low).length;
    if (split) {
      for (const half of ["high", "low"]) {
        const got = (pot[half] || {})[seat];
        if (got) out.push({ half: half, amount: got, pot: name });
      }
    } else {
      // not split (no low, or one side only): the whole pot, no half named
      const got = (pot.winners || {})[seat] || (pot.high || {})[seat] || (pot.low || {})[seat];
      if (got) out.push({ half: null, amount: got, pot: name });
    }
  });
  return out;
}
// A seat that won two pots or more of a hand with side pots, each whole (nobody
// else in them, no halves), and no part of another: one part, "wins 160 (all 4
// pots)", "wins 60 (both pots)", "wins 69 (main pot + side pot 1)" (s61-night:
// four tags "wins 51 (main pot)", "wins 84 (side pot 1)"... filled the winner's
// tile, as the result said it four times); else null. every: whether it is all.
export function wholeOfEveryPot(pots, seat) {
  if (pots.length < 2) return null;
  let sum = 0;
  const names = [];
  for (const [i, pot] of pots.entries()) {
    const halves = [pot.high, pot.low].filter((h) => h && Object.keys(h).length);
    const whole = pot.winners || halves[0] || {};
    const who = Object.keys(whole);
    const mine = who.some((w) => Number(w) === Number(seat));
    if (!mine) continue;
    if (halves.length > 1 || who.length !== 1) return null;   // (a part of a pot)
    sum += whole[who[0]];
    names.push(i ? "side pot " + i : "main pot");
  }
  if (names.length < 2) return null;
  const pot = names.length < pots.length ? names.join(" + ")
    : pots.length === 2 ? "both pots" : "all " + pots.length + " pots";
  return { half: null, amount: sum, pot: pot, every: names.length === pots.length };
}
// What a winner took from the pot, each half apart: "wins 44", "wins 9 (high)";
// with side pots each part names its pot: "wins 22 (main pot, high)", "wins 7
// (side pot 1)".
// Said as the result says it ("You win the pot (44)"), never "+44": next to the
// result's "This hand: you won 32" (the net, less what the winner put in) a
// "+44" read as a second, contradicting net. data-amount: the chips, a number.
export function wonEl(won) {
  const box = el("div", "won");
  for (const w of won) {
    // "wins 188" kept on one line; a half's "(high)" may go to the next in a
    // narrow tile (a phone's 10 seats) rather than past its edge
    const b = el("span", "won-part");
    b.appendChild(el("span", "won-sum", "wins " + w.amount));
    const which = [w.pot, w.half].filter(Boolean).join(", ");
    if (which) b.appendChild(document.createTextNode(" (" + which + ")"));
    b.dataset.half = w.half || "whole";
    if (w.pot) b.dataset.pot = w.pot;
    b.dataset.amount = String(w.amount);
    box.appendChild(b);
  }
  return box;
}
