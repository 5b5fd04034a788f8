// State and protocol: one websocket, the server sends the full state this seat
// may see after every change; we keep it (and the one before it) and hand both
// to the page's one render path; actions carry the hand id and the sequence
// number we last saw.
import { el } from "/static/cards.js";

export const tid = location.pathname.split("/").filter(Boolean)[1];
export const $ = (id) => document.getElementById(id);
export { el };

// What every module of the page reads: the state last received (and the one
// before it), and the little the page itself remembers between states.
export const S = {
  state: null, previous: null, online: false, clockSkew: 0,
  elsewhere: false,  // this seat is played from a newer connection (another tab)
  selected: [],      // the cards picked for a card choice, in order
  showPick: [],      // the cards picked to show after the hand
  confirmFold: false,
  clockSeen: null,   // the clock notice the player has dismissed (its seq)
  removed: null,     // the host removed this browser's player: the server's words
};
// Set by main.js: what to do with a new state, a chat line, odds, an error.
export const hooks = {
  render: () => {}, chat: () => {}, odds: () => {}, oddsError: () => {},
  chatError: () => {}, connected: () => {}, takeSeat: () => {},
};

export const store = {
  get(k) { try { return localStorage.getItem(k); } catch (e) { return null; } },
  set(k, v) { try { localStorage.setItem(k, v); } catch (e) { /* private mode */ } },
};

// A short message over the page, gone after TOAST_MS, at a tap on it, or at
// your next decision (act: issue 26, on a phone a pre-action's "is cleared"
// stayed over the header and the invite link into the next step).
export const TOAST_MS = 4000;
export function toast(text) {
  const t = $("toast"); t.textContent = text; t.classList.remove("hidden");
  t.onclick = hideToast;
  clearTimeout(toast.timer); toast.timer = setTimeout(hideToast, TOAST_MS);
}
export function hideToast() {
  clearTimeout(toast.timer);
  const t = $("toast");
  if (t && !t.classList.contains("hidden")) {
    t.classList.add("hidden");
    // the notice says the removal once the toast has gone (not both at once: s57-tidy)
    if (S.removed) rerender();
    if (toastLater !== null) { const text = toastLater; toastLater = null; toast(text); }
  }
}
// A toast that can wait, about nothing the person just did (the felt turning its
// motion off by itself): shown now if no toast is up, else once the one up has gone
// (by its time, a tap or the next decision), so it never replaces what the page has
// just told the person (stop 71: on a loaded machine the slow frames' words replaced
// "Your card 1 (2♥) is already face up" a moment after the key).  The newest such
// text waits; a toast shown meanwhile goes first.
let toastLater = null;
export function toastWhenFree(text) {
  const t = $("toast");
  if (t && !t.classList.contains("hidden")) toastLater = text;
  else toast(text);
}
// Whether the toast is up with ``text``: the notice leaves out what it says.
export function toastSays(text) {
  const t = $("toast");
  return !!t && !t.classList.contains("hidden") && t.textContent === text;
}

// A connection can die without a close event (a phone leaving its Wi-Fi): for
// many seconds the page would say "connected" while taps went nowhere.  So the
// page pings every PING_MS and right after each action, and a ping unanswered
// for ANSWER_MS, or the browser going offline, ends the connection: the buttons
// go off and the page reconnects.  (One ping in 5 s is far below the server's
// message rate limit, ServerSettings.messages_per_second.)
// A socket not open within CONNECT_MS (a handshake lost on the way) is tried again.
const PING_MS = 5000, ANSWER_MS = 4000, CONNECT_MS = 10000;
let ws = null, retry = 500, lastHand = null;
let pickedFor = null;  // the decision number S.selected was picked for (null: none)
let answerTimer = null, reconnectTimer = null, pings = 0, pongs = 0;
let tap = null, lostTap = null;  // an action not yet known to have reached the server
// The decision ("hand:seq") an action or a game's name was sent for, until the server
// refuses something or the connection drops: a second tap on the same decision (a
// double tap, a double click) is not sent again.  Sent, it came back refused as
// stale, "that answer was to an earlier decision ... sequence number 42 is older",
// over the next decision (s64-fresh).
let sentFor = null;

export function connect() {
  clearTimeout(reconnectTimer); reconnectTimer = null; S.elsewhere = false;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const sock = new WebSocket(proto + "//" + location.host + "/ws/" + tid);
  ws = sock; pings = 0; pongs = 0;
  clearTimeout(answerTimer); answerTimer = null;
  setTimeout(() => { if (ws === sock && sock.readyState === 0) lost(); }, CONNECT_MS);
  sock.onopen = () => {
    S.online = true;
    $("conn").textContent = "connected"; retry = 500;
    if ($("conn").className !== "conn ok") $("conn").className = "conn ok";
    hooks.connected();
  };
  sock.onclose = (ev) => (ev.code === REPLACED ? replaced(sock) : dropped(sock));
  sock.onmessage = (ev) => receive(JSON.parse(ev.data));
}

function receive(msg) {
  if (msg.type === "pong") {
    pongs++;
    clearTimeout(answerTimer); answerTimer = null;
    if (tap && pongs >= tap.ping) tap = null;   // answered after the action: it arrived
    if (pongs < pings) answerTimer = setTimeout(lost, ANSWER_MS);
  } else if (msg.type === "state") {
    if (typeof msg.table.now === "number") S.clockSkew = msg.table.now - Date.now() / 1000;
    const handNo = msg.hand ? msg.hand.hand_no : null;
    const old = S.state;
    // The picks of a card choice (and a fold's confirm) belong to one decision: a
    // state with another decision number, or none, or another hand clears them.  A
    // pause closes the decision (the paused state's number is null) and the resume
    // reopens the same one with the same number (live_table/turns.py, stop 52), so
    // a paused state keeps them and the resume's state clears them only if its
    // number is not the one they were made for.
    const seq = msg.you.decision_seq;
    const held = !seq && handNo === lastHand && !!(msg.table.host_paused || msg.table.paused);
    if (!held) {
      if (!seq || seq !== pickedFor || handNo !== lastHand) { S.selected = []; S.confirmFold = false; }
      pickedFor = seq || null;
    }
    if (handNo !== lastHand) S.showPick = [];
    lastHand = handNo;
    if (lostTap !== null && msg.seq === lostTap) {
      toast("Your last tap did not reach the table: nothing has changed, make it again.");
    }
    lostTap = null;
    S.previous = old;
    S.state = msg;
    // the deal check (static/verify.js, issue 32) reads each state as it comes, before
    // the table draws it: the page's client seed goes out at once (s61-table: sent
    // after the table's drawing, a slow phone's few hundred ms of it counted against
    // the deal's seed wait)
    window.rollemState = { state: msg, send }; window.dispatchEvent(new Event("rollem:state"));
    hooks.render(msg, old);
  } else if (msg.type === "chat") {
    hooks.chat(msg.lines);
  } else if (msg.type === "odds") {
    hooks.odds(msg);
  } else if (msg.type === "error") {
    sentFor = null;   // (refused: the same decision may be tried again)
    if (msg.ref && msg.ref.type === "odds") hooks.oddsError(msg.message, msg.code);
    else if (msg.ref && msg.ref.type === "chat") { hooks.chatError(msg.message); toast(msg.message); }
    // the page's own client seed came after the deal (joined or reconnected mid-hand,
    // static/verify.js): nothing the player did or can do, so nothing to tell them
    else if (msg.ref && msg.ref.type === "client_seed") console.debug(msg.message);
    else if (msg.code === "removed") { S.removed = msg.message; toast(msg.message); rerender(); }
    else toast(msg.message);
  }
}

// The socket in use is gone (closed, or given up on): buttons off, reconnect.
function dropped(sock) {
  if (sock !== ws) return;   // one already given up on
  ws = null;
  clearTimeout(answerTimer); answerTimer = null;
  if (tap) { lostTap = tap.seq; tap = null; }
  sentFor = null;
  S.online = false;
  $("conn").textContent = "reconnecting…"; $("conn").className = "conn bad";
  if (S.state) hooks.render(S.state, S.state);
  clearTimeout(reconnectTimer);
  reconnectTimer = setTimeout(connect, retry); retry = Math.min(retry * 2, 5000);
}
// Replaced by a newer connection of this seat (another tab or device; the server
// keeps a few per seat, issue 34): no reconnecting on our own, or the tabs would
// take the seat from each other for ever; a tap on the badge takes it back.
const REPLACED = 4410;
function replaced(sock) {
  if (sock !== ws) return;
  ws = null; S.elsewhere = true; S.online = false;
  clearTimeout(answerTimer); answerTimer = null; tap = null;
  clearTimeout(reconnectTimer); reconnectTimer = null;
  $("conn").textContent = "play here"; $("conn").className = "conn bad";
  $("conn").style.cursor = "pointer";
  if (S.state) hooks.render(S.state, S.state);
}
// Give up on the socket in use without waiting for its close event.
export function abandon() {
  const sock = ws;
  if (!sock) return null;
  sock.onopen = null; sock.onclose = null; sock.onmessage = null;
  try { sock.close(); } catch (e) { /* already closing */ }
  return sock;
}
// Connect again at once (as the seat just taken: its cookie).
export function reconnect() { abandon(); ws = null; retry = 500; connect(); }
function lost() { const sock = abandon(); if (sock) dropped(sock); }
function ping() {
  if (!ws || ws.readyState !== 1) return;
  ws.send('{"type":"ping"}');
  pings++;
  if (!answerTimer) answerTimer = setTimeout(lost, ANSWER_MS);
}
export function startPinging() {
  $("conn").addEventListener("click", () => {
    if (!S.elsewhere) return;
    retry = 500;
    $("conn").textContent = "connecting…"; $("conn").className = "conn"; $("conn").style.cursor = "";
    connect();
  });
  setInterval(ping, PING_MS);
  window.addEventListener("offline", lost);
  // Back on screen (a phone unlocked): find a connection that died meanwhile at once.
  document.addEventListener("visibilitychange", () => { if (!document.hidden) ping(); });
  window.addEventListener("online", () => {
    if (S.online || S.elsewhere) { if (S.online) ping(); return; }
    reconnect();
  });
}
export function send(obj, pad = 0) {
  // (pad: spaces after the JSON, which the server's parser skips)
  if (ws && ws.readyState === 1) { ws.send(JSON.stringify(obj) + " ".repeat(pad)); return true; }
  toast("not connected: reconnecting…");
  return false;
}
// One action of the hand in play, tied to the state it answers.
export function act(action) {
  S.confirmFold = false;
  const state = S.state;
  if (sentFor === state.hand.hand_no + ":" + state.seq) return;   // a second tap
  hideToast();   // (what it said was about the decision now made)
  // A declaration is sent at one length whatever its side ("low" is a byte shorter
  // than "high" and "both"; TLS hides content, not length: docs/dev/hostile.md,
  // "Own state padded").
  const pad = action.kind === "declare" ? Math.max(0, 4 - String(action.side).length) : 0;
  if (send({ type: "action", hand: state.hand.hand_no, seq: state.seq, action: action }, pad)) {
    sentFor = state.hand.hand_no + ":" + state.seq;
    tap = { seq: state.seq, ping: pings + 1 };
    ping();   // its answer says the action arrived; none within ANSWER_MS: reconnect
  }
}
// A message answering what the state in hand offers (the dealer's choice of a game,
// a rebuy or its refusal, a top-up, the add-on, the host's Deal), sent once for that state: `what`
// names the offer; a second tap before a new state or a refusal is not sent (it
// came back refused, "you still have 100 chips; rebuy at 0", s64-fresh).
export function sendOnce(what, obj) {
  const key = what + " " + S.state.seq;
  if (sentFor === key) return;
  if (send(obj)) sentFor = key;
}
// Draw the page again from the state in hand (a local change: a card picked).
export function rerender() { if (S.state) hooks.render(S.state, S.state); }

export function myTurn(state) {
  state = state || S.state;
  if (!state) return false;
  const h = state.hand, me = state.you;
  if (me.choose_game) return true;
  return !!(h && !h.result && me.seat !== null && h.to_act.includes(me.seat) && h.legal
    && h.legal.actions.length);
}
// A seat as people read it: counted from 1 ("seat 1" is index 0; the protocol's
// and the API's seat numbers stay 0-based indexes: docs/web-table.md).
export function seatWord(n) { return "seat " + (Number(n) + 1); }
export function seatName(t, n) {
  const s = t.seats[n];
  return s && !s.free ? s.name : seatWord(n);
}
// A seat's player in `hand` as the hand named them (one who has left since is still
// named, not "seat 2"), else as the table names the seat now.
export function handSeatName(t, hand, n) {
  return (hand && hand.names && hand.names[n]) || seatName(t, n);
}
