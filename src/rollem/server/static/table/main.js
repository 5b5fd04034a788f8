// The table page: one render path, render(state, previous), draws the state the
// server sent and decides what to animate from what changed since the one before
// (previous === state: a local change, such as a card picked; nothing moves).
// Layout: opponents around the felt (an oval on a wide screen, a compact grid on
// a phone); your cards, clock and action bar in the dock pinned to the bottom.
import { el, GAME_NAME } from "/static/cards.js";
import { $, act, connect, hooks, myTurn, S, send, startPinging, toast } from "./state.js";
import { renderCenter, renderSeats, renderStatus, startClocks } from "./felt.js";
import { checkPreAction, initDock, preActionNow, renderControls, renderMe } from "./dock.js";
import { initKeys } from "./keys.js";
import { afterPaint } from "./frames.js";
import { fitCentreSoon, initCentre } from "./centre.js";
import { animate, capture, initMotion, settle, turnAlert } from "./motion.js";
import { initOdds, oddsArrived, oddsRefused, oddsReset, renderOdds } from "./odds.js";
import {
  announce, chatArrived, chatReset, holdLines, initPanels, joinSeat, renderChatInput, renderHostPanel,
  renderEnded, renderJoin, renderLedger, renderLog, renderNotice, renderResult, sayHeld,
} from "./panels.js";
import { initReplay, openLinkedHand } from "./replay.js";
import { betWords } from "./stakes.js";
import { initHostTools, renderAdjustments, renderHostTools, renderLocked, unlock } from "./hosttools.js";
import "/static/verify.js";  // the deal check (issue 32): reads each state, sends the seed
import { rebuysUntil, renderTournament, startLevelClock } from "./tourney.js";
import { setTabTitle } from "./tabtitle.js";

let linked = false;

// The header: the table's name on its own, then its game and stakes (two lines
// on a phone, nothing cut).
function renderHeader(t, hand) {
  const game = GAME_NAME[t.config.game] || t.config.game;
  // a tournament's level (issue 28): the hand in play's own, when the level rose
  // during it (its stakes stay until the next hand, stop 56)
  const tt = t.tournament;
  const lv = tt && (hand && !hand.result && tt.hand_stakes ? tt.hand_stakes : tt.stakes);
  // (a one-game tournament's level says its forced bets in words: "blinds 1/2"
  // at hold'em, which takes no ante; a dealer's choice's, the level's ante)
  const levelBets = lv && (lv.forced ? lv.forced + ", " : lv.ante ? "ante " + lv.ante + ", " : "");
  // ("blinds 1/2, fixed limit 2/4": the structure is in betWords, stakes.js)
  const structure = t.config.structure;
  const stakes = lv ? levelBets + betWords(structure, lv.small_bet, lv.big_bet)
    : forcedBets(t, hand) + betWords(structure, t.config.small_bet, t.config.big_bet);
  const box = $("table-name");
  const text = t.name + " · " + game + " · " + stakes;
  if (box.dataset.text === text) return;
  box.dataset.text = text;
  box.textContent = "";
  box.append(el("b", "tn-name", t.name), el("span", "tn-game", " · " + game + " · " + stakes));
  box.title = text;
}
// The forced bets in words ("ante 1, "): the game in play's; between hands of a
// dealer's choice (no game yet) those its games share, else the table's ante.
function forcedBets(t, hand) {
  const bets = t.forced_bets || {};
  const game = hand ? hand.game : t.choice && t.choice.game ? t.choice.game : t.config.game;
  let words = bets[game];
  if (!words && t.config.game === "dealers-choice") {
    const each = [...new Set((t.config.choices || []).map((g) => bets[g]).filter(Boolean))];
    words = each.length === 1 ? each[0] : t.config.ante ? "ante " + t.config.ante : "";
  }
  return words ? words + ", " : "";
}

// The animation and sound layer switched off (motion.js not called at a state: no
// move, no flight, no sound): the page's root with data-motion="none", set by
// `?motion=none` or at run time (bench/bench_felt_motion.py's "off" arm; reduced
// motion is not off: its sounds still play).
if (new URLSearchParams(location.search).get("motion") === "none") document.documentElement.dataset.motion = "none";
const still = () => document.documentElement.dataset.motion === "none";

// The first thing a player needs, focused at the page's first state (stop 52):
// the name field of "Take a seat" (or of a private table's form) for one not
// seated, so a keyboard's player types their name at once (before: nothing had
// the focus, six Tabs to reach it); for the host seated before the start, the
// Deal button -- also right after they sit down (the name field they pressed
// Enter in is gone).  Only where the pointer is a mouse (hover, fine): on a touch
// screen a focused field may open the keyboard unasked.  Never taken from a
// control the player has focused meanwhile.
let focusSeen = null;   // the last state's seat ({seat}; null: no state seen yet)
const MOUSE = "(hover: hover) and (pointer: fine)";
function focusFirst(t, me, locked) {
  const first = focusSeen === null, seated = focusSeen !== null && focusSeen.seat === null
    && me.seat !== null;
  focusSeen = { seat: me.seat };
  if (!(first || seated) || !window.matchMedia(MOUSE).matches) return;
  const held = document.activeElement;   // (the name field just hidden is no choice)
  if (held && held !== document.body && !held.closest("#join, #locked")) return;
  const target = me.seat === null ? $(locked ? "locked-name" : "join-name")
    : me.host && !t.started && !locked ? $("start-btn") : null;
  if (target && target.offsetParent !== null) target.focus({ preventScroll: true });   // (shown)
}

let measured = 0;
export function render(state, previous) {
  const started = performance.now();
  const t = state.table, me = state.you;
  if (t.locked) {
    later.state = null;   // (a side-panel drawing still to come has nothing to draw)
    sayHeld();
    renderLocked(state); setTabTitle(t.name, false);
    focusFirst(t, me, true);
    return;
  }
  if (previous && previous.table.locked) previous = null;  // (nothing to animate from)
  // Where chips are before anything changes (only when chips will fly): read
  // first, while the page's layout is still the one last drawn (no forced layout).
  const before = still() ? null : capture(state, previous);
  // (the last state's moves end before this one is drawn: motion.js settle)
  if (!still()) settle(state, previous);
  unlock();
  if (t.game_names) Object.assign(GAME_NAME, t.game_names);  // every game this table may deal
  const turn = myTurn(state);
  setTabTitle(t.name, turn);
  renderHeader(t, state.hand);
  // (the night over, nobody can join: the link would only let people watch the
  // settle-up, s61-table2; hidden)
  $("invite").classList.toggle("hidden", !me.host || !!t.ended);
  const link = location.origin + "/t/" + t.id;
  if ($("invite-link").value !== link) $("invite-link").value = link;
  document.body.classList.toggle("seated", me.seat !== null);
  // Your turn: a replay opened now leaves the dock (your cards, clock, buttons) in view.
  document.body.classList.toggle("my-turn", turn);
  renderJoin(t, me);
  // (a table closed before its first deal deals nothing: no Deal button, s61-table)
  $("host").classList.toggle("hidden", !(me.host && !t.started && !t.ended));
  focusFirst(t, me, false);
  // Nobody joins a tournament once it has started, but while its rebuys are open at a
  // table that lets people in without the host's yes (late registration, stop 59):
  // the hint said "nobody joins" there too, and a host waited for a late friend
  // who could have bought in after the deal (s72-web).
  const tt = t.tournament;
  const late = !!tt && tt.rebuy_levels > 0 && !t.config.private && !t.approve_joins;
  const hint = !tt ? "Start when everyone has sat down; players can also join later."
    : late ? "Deal when you are ready: late registration is open while rebuys are ("
      + rebuysUntil(tt) + "), so a friend who comes later may still buy in at a free seat."
      : "Deal when every entrant has sat down: nobody joins a tournament once it starts.";
  if ($("start-hint").textContent !== hint) $("start-hint").textContent = hint;
  renderNotice(t, me, state.hand);
  renderEnded(t, me);
  renderTournament(t, me);
  renderStatus(t, state.hand, me);
  renderSeats($("seats"), t, state.hand, me.seat, false);
  renderCenter($("center"), state.hand, t, me.seat);
  fitCentreSoon();  // (the middle clear of the tiles, once laid out)
  const cleared = previous !== state ? checkPreAction(state.hand, me.seat) : null;
  if (cleared) toast(cleared);
  renderMe(t, state.hand, me);
  renderControls(t, state.hand, me);
  renderOdds(t, me);
  renderChatInput(me);
  if (previous !== state && turn && !(previous && myTurn(previous))) {
    const pre = preActionNow(state.hand);
    if (pre) act(pre); else if (!still()) turnAlert();
  }
  // The panels beside the felt (result, ledger, host panel, log): drawn now, or,
  // for a state that changes everything (a new hand, a hand's end), in a task
  // after this frame is painted, so the felt's frame carries the felt alone.
  // One drawing of them waits at a time, and it draws the newest state.  (Drawn
  // later, they take the next frame: the state's animations and sounds start in
  // the one after, motion.js.)
  const sidesLater = changesEverything(state, previous) || !!later.state;
  if (sidesLater) deferSides(state);   // (asked for first: the start waits for it)
  const moving = performance.now();
  if (!still()) animate(state, previous, before, sidesLater);
  performance.measure("rollem-animate", { start: moving });   // (bench/bench_web_felt.py)
  if (!sidesLater) renderSides(state);
  else holdLines();   // (its lines said with its side panels: panels.js holdLines)
  announce(state, previous, turn, !!(previous && myTurn(previous)));
  if (!linked) { linked = true; openLinkedHand(); }
  // Its time, for bench/bench_web_felt.py (the page keeps the last 200 only).
  // (detail: what kind of state: a new hand dealt, a hand's end, any other)
  performance.measure("rollem-render", { start: started, detail: stateKind(state, previous) });
  if (++measured % 200 === 0) { performance.clearMeasures("rollem-render"); performance.clearMeasures("rollem-animate"); }
}
function stateKind(state, previous) {
  const hand = state.hand, old = previous && previous.hand;
  if (hand && (!old || old.hand_no !== hand.hand_no)) return "deal";
  if (hand && hand.result && !(old && old.result)) return "end";
  return "state";
}
// A new hand dealt, or the hand in play ended: nearly every part of the page changes.
function changesEverything(state, previous) {
  if (!previous || previous === state) return false;
  const hand = state.hand, old = previous.hand;
  if (!hand || !old) return !!hand !== !!old;
  return hand.hand_no !== old.hand_no || (!!hand.result && !old.result);
}
// The side panels of `state`; then the page shows all of it (data-seq: tests wait on it).
function renderSides(state) {
  const t = state.table, me = state.you;
  renderResult(t, state.hand, me);
  renderHostPanel(t, me);
  renderHostTools(t, me);
  renderLedger(t);
  renderAdjustments(t);
  renderLog(state.hand);
  if (document.body.dataset.seq !== String(state.seq)) document.body.dataset.seq = String(state.seq);
}
// The side panels drawn after the next paint (frames.js); `later.state`, while
// one waits, is the state it will draw: the newest.
const later = { state: null, measured: 0 };
function deferSides(state) {
  const waiting = later.state !== null;
  later.state = state;
  if (!$("result").classList.contains("hidden") && !(state.hand && state.hand.result)) {
    $("result").classList.add("hidden");   // (no result of a hand gone shown beside a new one)
  }
  if (!waiting) afterPaint(drawLater);
}
function drawLater() {
  const state = later.state;
  if (!state) { sayHeld(); return; }
  later.state = null;
  const started = performance.now();
  sayHeld();   // (the live region's lines held with the panels: panels.js holdLines)
  renderSides(state);
  performance.measure("rollem-render-late", { start: started });   // (bench/bench_web_felt.py)
  if (++later.measured % 200 === 0) performance.clearMeasures("rollem-render-late");
}

hooks.render = render;
hooks.chat = chatArrived;
hooks.chatError = (message) => { $("chat-muted").textContent = message; };
hooks.odds = oddsArrived;
hooks.oddsError = oddsRefused;
hooks.connected = () => { oddsReset(); chatReset(); };
hooks.takeSeat = (i) => { $("join-seat").value = String(i); joinSeat(i); };
// A seat change (stop 59): asked first (a tap on a phone may miss), then made at
// once between hands, else when the hand you are in ends.
hooks.moveSeat = (i) => {
  const hand = S.state && S.state.hand, me = S.state ? S.state.you.seat : null;
  const playing = !!(hand && !hand.result && me !== null && hand.seats[me] && hand.seats[me].dealt);
  const dealing = !playing && !!(S.state && (S.state.table.choice || S.state.table.deal));   // (being dealt)
  // (a move past the big blind waits for it there: the server says which seats, s73-blinds)
  const waits = !!(S.state && (S.state.you.moves_wait || []).includes(i));
  const ask = "Move to seat " + (i + 1) + "? Your chips and your ledger line go with you"
    + (playing ? "; you move when this hand ends." : dealing ? "; you move when the next hand ends." : ".")
    + (waits ? " This move skips the big blind: you are dealt in when the big blind reaches seat " + (i + 1) + "." : "");
  if (window.confirm(ask)) send({ type: "seat_change", seat: i });
};
// A wide screen (the side column beside the oval, style.css): the invite bar and
// the tournament panel (its level clock, break, add-on, places, payouts) sit at the
// top of the side column, which scrolls on its own; above the felt, as a phone
// keeps them, they pushed a laptop's oval under the dock (s61-table: 1440x900 at a
// tournament's break, the oval's bottom rim 93 px under the dock's top).  A phone's
// single column keeps them above the felt.
const wide = window.matchMedia("(min-width: 900px)");
function placePanels() {
  const invite = $("invite"), tourney = $("tourney");
  if (wide.matches) {
    if (invite.parentElement.classList.contains("side-col")) return;
    const side = document.querySelector(".side-col");
    side.prepend(invite);
    $("ended").after(tourney);   // (after the night's end, which comes first)
  } else {
    if (invite.parentElement.classList.contains("main-col")) return;
    const main = document.querySelector(".main-col");
    main.prepend(invite);
    $("felt").before(tourney);
  }
}
placePanels();
wide.addEventListener("change", placePanels);
initMotion();
initCentre();
// The dock's height, for a replay opened during your turn to stop above it
// (observed, not read at each state: reading it would force a layout), set on the
// replay's box alone: set on the page's root, each change (a third of a hand's
// states: your buttons come and go) restyled the whole page in that frame, an
// inherited custom property (issue 26).
if (window.ResizeObserver) {
  new ResizeObserver(() => {
    $("replay").style.setProperty("--dock-h", $("dock").offsetHeight + "px");
  }).observe($("dock"));
}
initKeys();
initDock();
initOdds();
initPanels();
initHostTools();
initReplay();
startClocks();
startLevelClock();
startPinging();
connect();
