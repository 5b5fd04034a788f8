// The table page: one render path, render(state, previous), draws the state the
// server sent and decides what to animate from what changed since the one before
// (previous === state: a local change, such as a card picked; nothing moves).
// Layout: opponents around the felt (an oval on a wide screen, a compact grid on
// a phone); your cards, clock and action bar in the dock pinned to the bottom.
import { GAME_NAME } from "/static/cards.js";
import { $, act, connect, hooks, myTurn, startPinging, toast } from "./state.js";
import { renderCenter, renderSeats, renderStatus, startClocks } from "./felt.js";
import { checkPreAction, preActionNow, renderControls, renderMe } from "./dock.js";
import { initKeys } from "./keys.js";
import { animate, capture, initMotion, turnAlert } from "./motion.js";
import { initOdds, oddsArrived, oddsRefused, oddsReset, renderOdds } from "./odds.js";
import {
  announce, chatArrived, chatReset, initPanels, joinSeat, renderChatInput, renderHostPanel, renderJoin,
  renderLedger, renderLog, renderNotice, renderResult,
} from "./panels.js";
import { initReplay, openLinkedHand } from "./replay.js";

let linked = false;

export function render(state, previous) {
  const t = state.table, me = state.you;
  if (t.game_names) Object.assign(GAME_NAME, t.game_names);  // every game this table may deal
  const turn = myTurn(state);
  document.title = (turn ? "● Your turn — " : "") + t.name + " — rollem";
  // forced bets of the game in play (dealer's choice between hands: none named)
  const forced = (t.forced_bets || {})[state.hand ? state.hand.game : t.config.game];
  $("table-name").textContent = t.name + " · " + GAME_NAME[t.config.game] + " · "
    + t.config.structure + " · " + (forced ? forced + ", " : "") + "bets "
    + t.config.small_bet + "/" + t.config.big_bet;
  $("invite").classList.toggle("hidden", !me.host);
  $("invite-link").value = location.origin + "/t/" + t.id;
  document.body.classList.toggle("seated", me.seat !== null);
  document.body.dataset.seq = String(state.seq);   // tests wait on it
  const before = previous !== state ? capture() : null;
  renderJoin(t, me);
  $("host").classList.toggle("hidden", !(me.host && !t.started));
  renderNotice(t, me);
  renderStatus(t, state.hand, me);
  renderSeats($("seats"), t, state.hand, me.seat, false);
  renderCenter($("center"), state.hand);
  const cleared = previous !== state ? checkPreAction(state.hand, me.seat) : null;
  if (cleared) toast(cleared);
  renderMe(t, state.hand, me);
  renderControls(t, state.hand, me);
  renderResult(t, state.hand, me);
  renderHostPanel(t, me);
  renderLedger(t);
  renderLog(state.hand);
  renderOdds(t, me);
  renderChatInput(me);
  if (previous !== state && turn && !(previous && myTurn(previous))) {
    const pre = preActionNow(state.hand);
    if (pre) act(pre); else turnAlert();
  }
  animate(state, previous, before);
  announce(state, previous, turn, !!(previous && myTurn(previous)));
  if (!linked) { linked = true; openLinkedHand(); }
}

hooks.render = render;
hooks.chat = chatArrived;
hooks.chatError = (message) => { $("chat-muted").textContent = message; };
hooks.odds = oddsArrived;
hooks.oddsError = oddsRefused;
hooks.connected = () => { oddsReset(); chatReset(); };
hooks.takeSeat = (i) => { $("join-seat").value = String(i); joinSeat(i); };
initMotion();
initKeys();
initOdds();
initPanels();
initReplay();
startClocks();
startPinging();
connect();
